"""A roll asked of a player, over HTTP (issue 40 item 2): the referee asks from the verb
table (`combat_ask`), the character's own link shows it first and sends the player's roll
(`combat_rolled`, for that character alone), and the referee's record marks it theirs."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.integration.web.hands_table import PAGE, Table, table_of

from turnkeeper.web.tokens import Role


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """pg: Aldo and Bea against two goblins, round 1."""
    with table_of(tmp_path, "pg") as table:
        table.referee("verb=combat_start&foes=Goblin:hd=1,hp=4,ac=12,count=2")
        table.referee("verb=combat_round")
        yield table


def test_the_player_asked_rolls_on_their_own_link_and_the_referee_reads_it(table: Table) -> None:
    bea = table.hand_link("Bea")
    code, said = table.answer("verb=combat_ask&name=Bea&roll=check&stat=STR&defence=11")
    assert code == 200 and "Bea's player is asked to roll a STR check against 11" in html.unescape(
        said
    )
    page = html.unescape(table.client.get(f"{PAGE}?token={bea}").text)
    assert 'data-call="roll"' in page and "Roll a STR check for Bea" in page
    assert page.index("Roll a STR check") < page.index("Bea's sheet")  # first on the phone
    assert 'name="verb" value="combat_rolled"' in page and "against 11" not in page
    code, said = table.hand(bea, "verb=combat_rolled&name=Bea&rolled=15")
    assert code == 200, said
    assert "Bea succeeds a STR check (rolled by Bea's player)" in said
    assert "11" not in said  # the defence is the referee's
    log = table.client.get(f"/api/campaigns/Keep/log?token={table.tokens[Role.REFEREE]}").json()
    last = log["records"][-1]
    assert last["kind"] == "combat.check" and last["data"]["by_player"] is True
    assert "rolled by Bea's player" in last["text"] and last["rolls"][0]["typed_in"] is True
    fight = table.campaigns.state("Keep").combat
    assert fight is not None and fight.asked == ()


def test_a_link_rolls_for_its_own_character_alone(table: Table) -> None:
    aldo = table.hand_link("Aldo")
    table.referee("verb=combat_ask&name=Bea&roll=save")
    version = table.campaigns.state("Keep").version
    code, said = table.hand(aldo, "verb=combat_rolled&name=Bea&rolled=15")
    assert code == 403 and "Aldo alone" in said
    players = table.tokens[Role.PLAYER]
    code, _ = table.hand(players, "verb=combat_rolled&name=Bea&rolled=15")
    assert code == 403
    assert table.campaigns.state("Keep").version == version


def test_a_roll_that_does_not_fit_is_one_line_in_the_phones_words(table: Table) -> None:
    bea = table.hand_link("Bea")
    table.referee("verb=combat_ask&name=Bea&roll=save")
    version = table.campaigns.state("Keep").version
    code, said = table.hand(bea, "verb=combat_rolled&name=Bea&rolled=21")
    assert code == 422 and "a save is d20: typed-in die 1 shows 21" in said
    code, said = table.hand(bea, "verb=combat_rolled&name=Bea&rolled=x")
    assert code == 400 and "I rolled: " in said and "combat_rolled" not in said
    assert table.campaigns.state("Keep").version == version


def test_the_referee_is_refused_a_second_ask_and_sees_what_is_asked(table: Table) -> None:
    table.referee("verb=combat_ask&name=Bea&roll=save")
    code, said = table.answer("verb=combat_ask&name=Bea&roll=save")
    assert code == 422 and "already asked for a save" in said
    code, said = table.answer("verb=combat_ask&name=Goblin 1&roll=save")
    assert code == 422 and "not a player's character" in html.unescape(said)
    page = html.unescape(table.client.get(f"{PAGE}?token={table.tokens[Role.REFEREE]}").text)
    assert "rolls asked of the players: Bea (a save)" in re.sub(r"<[^>]+>", "", page)
    players = html.unescape(table.client.get(f"{PAGE}?token={table.tokens[Role.PLAYER]}").text)
    assert "rolls asked: Bea (a save)" in re.sub(r"<[^>]+>", "", players)
