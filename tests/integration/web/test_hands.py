"""A link for each player (issue 26, item 3): the referee makes a link that names one
character; its player reads what the players read and declares that character's actions, for
that character alone, when the rules ask for declarations. The shared players' link still
only reads; a new link for a character shuts its old one."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.integration.web.hands_table import FORM, PAGE, Table, table_of

from turnkeeper.campaign import Note, Visibility
from turnkeeper.web.tokens import Role

SECRET = "ZQHANDSECRET"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """A pg campaign, Aldo and Bea against two goblins, nobody surprised, round 1 declaring."""
    with table_of(tmp_path, "pg") as table:
        table.campaigns.execute("Keep", Note(SECRET, Visibility.REFEREE))
        table.referee("verb=combat_start&foes=Goblin:hd=1,hp=4,ac=12,count=2&surprise=none")
        table.referee("verb=combat_round")
        yield table


def test_a_players_link_declares_for_its_character_alone(table: Table) -> None:
    aldo = table.hand_link("aldo")  # the name as typed, whatever its case
    page = table.client.get(f"{PAGE}?token={aldo}")
    assert page.status_code == 200 and "Aldo's player" in html.unescape(page.text)
    assert 'name="actor" value="Aldo"' in page.text and SECRET not in page.text
    sheet = html.unescape(page.text)
    assert "level 1" in sheet and "8 of 8" in sheet and "carries" in sheet
    code, said = table.hand(aldo, "verb=combat_declare&actor=Aldo&action=attack&target=Goblin 1")
    assert code == 200 and said == (
        '<p class="done" role="status">Aldo declares: attack Goblin 1</p>'
    )
    fight = table.campaigns.state("Keep").combat
    assert fight is not None and [d.actor for d in fight.declarations] == ["Aldo"]
    # for another character, another verb, or with the shared link: refused, nothing done
    version = table.campaigns.state("Keep").version
    for token, form, says in [
        (aldo, "verb=combat_declare&actor=Bea&action=attack&target=Goblin 2", "for Aldo alone"),
        (aldo, "verb=damage&target=Goblin 1&amount=9", "declares that character's actions"),
        (table.tokens[Role.PLAYER], "verb=combat_declare&actor=Bea&action=attack",
         "not a character's link"),
    ]:  # fmt: skip
        code, said = table.hand(token, form)
        assert code == 403 and says in html.unescape(said), said
    assert table.campaigns.state("Keep").version == version
    # the shared players' page has no form to act with
    shared = table.client.get(f"{PAGE}?token={table.tokens[Role.PLAYER]}").text
    assert "<form" not in shared


def test_the_rules_refuse_a_declaration_out_of_its_phase(table: Table) -> None:
    bea = table.hand_link("Bea")
    table.referee("verb=combat_end")
    code, said = table.hand(bea, "verb=combat_declare&actor=Bea&action=attack&target=Goblin 1")
    assert code == 422 and "no combat is running" in said, said


def test_a_new_link_for_a_character_shuts_its_old_one(table: Table) -> None:
    old = table.hand_link("Aldo")
    fresh = table.hand_link("Aldo")
    assert table.client.get(f"{PAGE}?token={old}").status_code == 401
    assert table.client.get(f"{PAGE}?token={fresh}").status_code == 200
    code, said = table.hand(old, "verb=combat_declare&actor=Aldo&action=attack&target=Goblin 1")
    assert code == 401, said
    made = table.client.post(f"{PAGE}/hand-link?token={table.tokens[Role.REFEREE]}",
                             content="character=Ado", headers=FORM)  # fmt: skip
    assert made.status_code == 400 and "did you mean Aldo?" in html.unescape(made.text)
    denied = table.client.post(f"{PAGE}/hand-link?token={fresh}", content="character=Bea",
                               headers=FORM)  # fmt: skip
    assert denied.status_code == 403


def test_in_a_dg_scene_each_player_votes_for_the_spotlight_from_their_link(
    tmp_path: Path,
) -> None:
    """DG-SPOT-1 from the players' own links: Aldo's and Bea's players each vote, the referee
    sees the votes in the journal and the spotlight counts them; a vote in another's name is
    refused."""
    with table_of(tmp_path, "dg") as table:
        client, tokens = table.client, table.tokens
        table.referee("verb=scene_open&kind=social&players=Aldo,Bea")
        aldo, bea = table.hand_link("Aldo"), table.hand_link("Bea")
        assert 'name="voter" value="Aldo"' in client.get(f"{PAGE}?token={aldo}").text
        code, said = table.hand(bea, "verb=scene_vote&voter=Aldo&candidate=Bea")
        assert code == 403 and "for Bea alone" in said, said
        for token, voter in ((aldo, "Aldo"), (bea, "Bea")):
            code, said = table.hand(token, f"verb=scene_vote&voter={voter}&candidate=Bea")
            assert code == 200 and f"{voter} votes for Bea" in said, said
        board = client.get(f"{PAGE}?token={tokens[Role.REFEREE]}").text
        assert "votes for the spotlight: Aldo for Bea, Bea for Bea" in board
        done = table.referee("verb=scene_spotlight")
        assert "Bea takes the spotlight (the players' majority" in html.unescape(done), done


def _display(table: Table, token: str) -> str:
    return html.unescape(table.client.get(f"{PAGE}/display?token={token}").text)


def test_a_phone_shows_first_what_is_wanted_and_its_sheet_follows_the_table(table: Table) -> None:
    """Issue 40: on Aldo's own link the display (what the live stream sends) holds Aldo's
    turn, the order of play, the choices from the ruleset and the fight (the foes standing),
    and Aldo's sheet, which follows the table: a wound reaches it with the next display."""
    aldo, bea = table.hand_link("Aldo"), table.hand_link("Bea")
    shown = _display(table, aldo)
    assert shown.index('id="now"') < shown.index('class="grid"')  # what is wanted first
    assert 'data-call="declare"' in shown and "Your turn: what does Aldo do?" in shown
    assert "the party waits for: <strong>Aldo, Bea</strong>" in shown
    whom = re.search(r'<select name="target" class="whom">(.*?)</select>', shown, re.S)
    assert whom is not None and re.findall(r"<option>(.*?)</option>", whom[1]) == [
        "Goblin 1",
        "Goblin 2",
    ]
    # pg: an attack in melee or at range, a spell (no magic dice: TP-MAG-1 is tp's), a move
    # near or far (PG-MOV-1), something else
    assert 'option value="attack">in melee' in shown and 'value="ranged">at range' in shown
    assert re.findall(r'name="action" value="([\w-]+)"', shown) == [
        "cast", "move", "move_far", "other",
    ]  # fmt: skip
    assert "magic dice" not in shown
    assert 'data-sides="20"' in shown  # the attack die the player may roll: a d20
    table.referee("verb=damage&target=Aldo&amount=3")
    table.referee("verb=damage&target=Goblin 2&amount=9")
    shown = _display(table, aldo)
    assert "5 of 8" in shown and "Goblin 2</option>" not in shown
    assert "Bea's sheet" in _display(table, bea) and "Aldo's sheet" not in _display(table, bea)
    # the shared players' link has no sheet and no choices
    shared = _display(table, table.tokens[Role.PLAYER])
    assert 'id="now"' not in shared and "<form" not in shared


def test_a_declaration_changes_until_the_round_is_resolved(table: Table) -> None:
    """Issue 40: Aldo's player declares, then changes it; the journal keeps both, the later in
    force, and the referee's tracker names who has yet to declare. A refusal reads as words,
    with no status code."""
    aldo = table.hand_link("Aldo")
    board = f"{PAGE}/display?token={table.tokens[Role.REFEREE]}"
    waiting = "waiting for: <strong>Goblin 1, Goblin 2, Aldo, Bea</strong>"
    assert waiting in table.client.get(board).text
    for target in ("Goblin 1", "Goblin 2"):
        form = f"verb=combat_declare&actor=Aldo&action=attack&target={target}&rolled=17"
        code, said = table.hand(aldo, form)
        assert code == 200, said
    assert "Aldo changes the declaration to attack Goblin 2, rolling 17" in said
    fight = table.campaigns.state("Keep").combat
    assert fight is not None and [str(a) for a in fight.declaration("Aldo").actions] == [
        "attack Goblin 2, rolling 17"
    ]
    assert "waiting for: <strong>Goblin 1, Goblin 2, Bea</strong>" in table.client.get(board).text
    shown = _display(table, aldo)
    assert "Aldo: <strong>attack Goblin 2, rolling 17</strong>" in shown
    assert 'data-call=""' in shown and "the party waits for: <strong>Bea</strong>" in shown
    code, said = table.hand(aldo, "verb=combat_declare&actor=Aldo&action=attack&rolled=25")
    assert code == 422 and said == (
        '<p class="problem" role="alert">a roll goes with an attack on someone, not with '
        "attack: the referee rolls what else the round needs</p>"
    )


def test_a_phones_refusal_names_the_field_as_the_phone_does(table: Table) -> None:
    """Issue 40: no '400 combat_declare.rolled.0: ...' on a phone: the field by its label."""
    aldo = table.hand_link("Aldo")
    form = "verb=combat_declare&actor=Aldo&action=attack&target=Goblin 1&rolled=x"
    code, said = table.hand(aldo, form)
    assert (code, said) == (400, '<p class="problem" role="alert">I rolled: not a whole number</p>')
    code, said = table.hand(aldo, "verb=combat_declare&actor=Aldo&action=cast&magic_dice=0")
    assert code == 400 and said == '<p class="problem" role="alert">magic dice: at least 1</p>'
