"""Views and secrets: nothing of the referee's ever leaves the server in a player response.

The served campaign hides a marker in every kind of secret (site, level and area notes, an
unrolled wandering row, a met encounter's notes, a hidden map feature and its notes, a
referee-only countdown and note); referee-only rolls are the dungeon die's. Every player
response is searched for every marker, and the referee's responses must carry them, so the
search is known to look in the right place.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from tests.integration.web.conftest import TestClient

from turnkeeper.campaign import parse_party
from turnkeeper.procedures.dungeon import EnterSite, Turn
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.views.party import player_state
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens
from turnkeeper.world.sites import parse_site

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

PATHS = (
    "/api/campaigns/Crypt/state",
    "/api/campaigns/Crypt/log",
    "/api/campaigns/Crypt/map.svg",
    "/campaigns/Crypt",
)


def _texts(served: Served, role: Role) -> dict[str, str]:
    out = {}
    for path in PATHS:
        response = served.get(path, role)
        assert response.status_code == 200, (path, response.text)
        out[path] = response.text
    return out


def test_no_player_response_carries_a_referee_secret(
    served: Served, markers: dict[str, str]
) -> None:
    """EX-MAP-2 (the party's map), TP-DISC-1 (hidden features), DG-CD-3 (referee countdowns)."""
    for path, text in _texts(served, Role.PLAYER).items():
        leaked = [what for what, marker in markers.items() if marker in text]
        assert not leaked, f"{path} shows the players: {leaked}"
        assert '"seed"' not in text and "Waning resources" not in text, path


def test_the_referee_sees_the_secrets_the_players_do_not(
    served: Served, markers: dict[str, str]
) -> None:
    seen = "".join(_texts(served, Role.REFEREE).values())
    missing = [what for what, marker in markers.items() if marker not in seen]
    assert not missing, f"the referee's responses lack {missing}: the player check proves nothing"
    svg = served.get("/api/campaigns/Crypt/map.svg", Role.REFEREE).text
    assert markers["hidden feature"] in svg


def test_player_log_has_no_referee_records_and_no_event_data(served: Served) -> None:
    referee = served.get("/api/campaigns/Crypt/log", Role.REFEREE).json()["records"]
    player = served.get("/api/campaigns/Crypt/log", Role.PLAYER).json()["records"]
    secret = {r["seq"] for r in referee if r["visibility"] == "referee"}
    rolled = {r["seq"] for r in referee if r["visibility"] == "referee" and r["rolls"]}
    assert rolled, "the fixture should have referee-only rolls"
    assert secret.isdisjoint(r["seq"] for r in player)
    assert {r["seq"] for r in player} == {r["seq"] for r in referee} - secret
    keys = {"seq", "command", "at", "date", "kind", "visibility", "text", "rolls"}
    assert all(set(r) == keys and r["visibility"] == "party" for r in player)


def test_player_state_is_the_party_view(served: Served) -> None:
    state = served.campaigns.state("Crypt")
    body = served.get("/api/campaigns/Crypt/state", Role.PLAYER).json()
    assert body == player_state(state).model_dump(mode="json")
    # torch smoke burns on (the third turn stopped at the rat it met, TP-TIME-2); the other
    # countdown is the referee's
    assert [c["name"] for c in body["countdowns"]] == ["torch smoke"]
    assert body["site"]["where"] == {"level": 1, "area": "1", "turns": 3}
    assert [a["key"] for a in body["site"]["site"]["levels"][0]["areas"]] == ["1"]
    assert body["wilderness"]["position"] == "0000"
    assert body["wilderness"]["found"] == [] or all(
        f["id"] != "crypt" for f in body["wilderness"]["found"]
    )


def test_player_combat_tracker_hides_foe_stats() -> None:
    """The tracker shows the party's hit points, a foe's name and conditions only."""
    from turnkeeper.campaign import Journal, parse_party
    from turnkeeper.kernel.combat_state import Combatant, CombatState, Side
    from turnkeeper.rules.loader import preset

    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6')
    state = Journal.start("Fight", preset("cb"), party, seed=1).state
    combat = CombatState(
        combatants=(
            Combatant(name="Aldo", side=Side.PARTY, hp=6, max_hp=6, ac=12),
            Combatant(name="ogre", side=Side.OPPOSITION, hp=29, max_hp=31, ac=15, morale=7),
        ),
        round=2,
    )
    view = player_state(state.model_copy(update={"combat": combat}))
    assert view.combat is not None
    aldo, ogre = view.combat.combatants
    assert (aldo.hp, aldo.max_hp) == (6, 6)
    assert (ogre.hp, ogre.max_hp) == (None, None)
    assert "29" not in view.model_dump_json() and "31" not in view.model_dump_json()


# -- what the characters perceive: foe stats, light turns, undone commands -------------------
#
# A second campaign in the same store, under ex (torches burn by the turn, EX-LIGHT-1): the
# party lights a torch and lets it burn to its last turn, the referee sets its turns, a fight
# against ogres of unusual stats (AC 37, HD 7, 83 hp, a 3d11 club), a stone that wounds one,
# a troll's stat line, and two commands the referee takes back.

LAIR = "Lair"
OGRES = "Ogre:hd=7,hp=83,ac=37,damage=3d11,morale=11,count=2"
#: What a player response must never show, each as a pattern, by what it gives away.
STATS = {
    "armour class": r"\bAC \d",
    "hit dice": r"\bHD \d",
    "hit points left": r"-?\d+ hp\b",
    "damage dice": r"3d11",
    "a total against its target": r"\d+ against (?:AC )?\d+",
    "light turns": r"\d+ turns?\b|last turn",
}
UNDONE = {"undone note": "ZQUNDONENOTE", "undone blow": "ZQUNDONEBLOW"}
LAIR_PATHS = tuple(p.replace("Crypt", LAIR) for p in PATHS)


@pytest.fixture
def lair(served: Served) -> dict[Role, str]:
    """The lair campaign's tokens, its journal full of perceived and secret things."""
    from turnkeeper.campaign import (
        AddMonster,
        Damage,
        Light,
        Monster,
        Note,
        SetLight,
        Undo,
        Wait,
        parse_party,
    )
    from turnkeeper.kernel.combat_state import Action, ActionKind
    from turnkeeper.procedures.combat import BeginRound, Declare, Resolve, StartFight
    from turnkeeper.procedures.combat.roster import parse_monster
    from turnkeeper.procedures.wilderness import LoadMap
    from turnkeeper.rules.loader import preset
    from turnkeeper.web.tokens import issue_tokens
    from turnkeeper.world.hexes import Hex
    from turnkeeper.world.mapfile import MapFile

    c = served.campaigns
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 40\nac = 12\n[supplies]\ntorches = 2')
    c.new(LAIR, preset("ex"), party, seed=3)
    tiny = MapFile.model_validate({"name": "Moor", "width": 2, "height": 1, "terrain": ["pp"]})
    c.execute(LAIR, LoadMap(tiny, Hex.from_label("0000")))
    c.execute(LAIR, Light("torch"))
    c.execute(LAIR, Wait(1200))  # two turns: the torch is on its last (EX-LIGHT-1)
    c.execute(LAIR, SetLight(2))
    c.execute(LAIR, StartFight(foes=tuple(parse_monster(OGRES))))
    c.execute(LAIR, BeginRound())
    for actor, target in (("Aldo", "Ogre 1"), ("Ogre 1", "Aldo"), ("Ogre 2", "Aldo")):
        c.execute(LAIR, Declare(actor, (Action(kind=ActionKind.ATTACK, target=target),)))
    # typed-in dice: both ogres hit (d20 15, then 3d11) and Aldo misses, so damage is rolled
    c.execute(LAIR, Resolve(), typed_dice=[15, 5, 5, 5, 15, 5, 5, 5, 13])
    c.execute(LAIR, Damage("Ogre 1", 5, "a falling stone"))
    c.execute(LAIR, Note(UNDONE["undone note"]))
    c.execute(LAIR, Undo())
    c.execute(LAIR, Damage("Ogre 2", 7, UNDONE["undone blow"]))
    c.execute(LAIR, Undo())
    c.execute(LAIR, AddMonster(Monster(name="Troll", hd=5, hp=51, max_hp=51, ac=33)))
    assert c.state(LAIR).version <= 40, "the page shows the last 40 records: keep it short"
    return issue_tokens(c.store, LAIR)


def _lair_texts(served: Served, tokens: dict[Role, str], role: Role) -> dict[str, str]:
    out = {}
    for path in LAIR_PATHS:
        response = served.client.get(path, headers={"Authorization": f"Bearer {tokens[role]}"})
        assert response.status_code == 200, (path, response.text)
        out[path] = response.text
    return out


def _party_words(served: Served, tokens: dict[Role, str], role: Role) -> dict[str, str]:
    """What each response shows in words: the log's lines and rolls, the other bodies whole
    (the log's JSON has numbers of its own: seq, game time)."""
    texts = _lair_texts(served, tokens, role)
    log = f"/api/campaigns/{LAIR}/log"
    records = json.loads(texts[log])["records"]
    texts[log] = "\n".join(
        " ".join(
            [r["text"], *(str(x) if isinstance(x, str) else x["breakdown"] for x in r["rolls"])]
        )
        for r in records
    )
    return texts


def test_no_player_response_shows_foe_stats_or_light_turns(
    served: Served, lair: dict[Role, str]
) -> None:
    """The players read what the characters perceive: a foe is hit, wounded, falls; the torch
    gutters; never an armour class, hit dice, hit points, a damage die or turns left."""
    for path, text in _party_words(served, lair, Role.PLAYER).items():
        shown = {what: re.findall(pattern, text) for what, pattern in STATS.items()}
        assert not any(shown.values()), f"{path} shows the players {shown}"
    log = served.client.get(
        f"/api/campaigns/{LAIR}/log", headers={"Authorization": f"Bearer {lair[Role.PLAYER]}"}
    ).json()["records"]
    said = [r["text"] for r in log]
    assert "Aldo attacks Ogre 1: misses" in said
    assert "Ogre 1 is wounded (a falling stone)" in said
    assert "the torch gutters: it will not burn much longer" in said
    assert "torch lit (30 ft); 1 from torches" in said
    assert "Troll appears" in said


def test_the_referee_still_reads_every_stat_and_turn(served: Served, lair: dict[Role, str]) -> None:
    """The player check looks in the right place: the referee's log has them all."""
    words = _party_words(served, lair, Role.REFEREE)[f"/api/campaigns/{LAIR}/log"]
    missing = [what for what, pattern in STATS.items() if not re.search(pattern, words)]
    assert not missing, f"the referee's log lacks {missing}: the player check proves nothing"
    assert all(marker in words for marker in UNDONE.values())


def test_player_log_data_carries_no_secret(served: Served, lair: dict[Role, str]) -> None:
    """A player record is its line and its rolls: no event data (foe stat lines, turns)."""
    records = served.client.get(
        f"/api/campaigns/{LAIR}/log", headers={"Authorization": f"Bearer {lair[Role.PLAYER]}"}
    ).json()["records"]
    keys = {"seq", "command", "at", "date", "kind", "visibility", "text", "rolls"}
    assert records and all(set(r) == keys for r in records)
    dumped = json.dumps(records)
    assert '"ac"' not in dumped and '"turns_left"' not in dumped and '"max_hp"' not in dumped


def test_undone_commands_vanish_from_the_players_journal(
    served: Served, lair: dict[Role, str]
) -> None:
    """The views' filter: an undo takes back what its command recorded, and is not itself
    a line the players read; the referee's records say what was undone."""
    from turnkeeper.kernel.events import undone_commands
    from turnkeeper.views.journal import player_log, referee_record

    journal = served.campaigns.log(LAIR)
    state = served.campaigns.state(LAIR)
    shown = player_log(journal)
    texts = " ".join(r.event.describe() for r in shown)
    assert not [what for what, marker in UNDONE.items() if marker in texts]
    assert not any(r.event.kind == "command.undone" for r in shown)
    assert not any(r.event.describe_to_party() is None for r in shown)  # burnt turns unseen
    assert [r.seq for r in player_log(journal, since=shown[-2].seq)] == [shown[-1].seq]
    undone = undone_commands(journal)
    marked = [referee_record(r, state, undone) for r in journal]
    assert {r["undone"] for r in marked} == {True, False}
    # every record of the undone note is marked undone; the undo itself says what it took back
    assert all(
        r["undone"]
        for r in marked
        if UNDONE["undone note"] in r["text"] and r["kind"] != "command.undone"
    )
    assert any(r["kind"] == "command.undone" and UNDONE["undone note"] in r["text"] for r in marked)


def test_undone_commands_vanish_from_every_player_response(
    served: Served, lair: dict[Role, str]
) -> None:
    """State, log, map and page: nothing an undone command recorded, nor the undo itself."""
    for path, text in _lair_texts(served, lair, Role.PLAYER).items():
        leaked = [what for what, marker in UNDONE.items() if marker in text]
        assert not leaked, f"{path} shows the players what was undone: {leaked}"
        assert "undone" not in text, path


def test_a_characters_phone_shows_no_foe_stat_or_plan(
    served: Served, lair: dict[Role, str]
) -> None:
    """Issue 40: Aldo's own phone in a fight (what is wanted of him, the order of play, the
    foes he may attack, his sheet) shows no foe's statistics, and what is wanted of him never
    holds what a foe declared."""
    from turnkeeper.kernel.combat_state import Action, ActionKind
    from turnkeeper.procedures.combat import BeginRound, Declare

    c = served.campaigns
    c.execute(LAIR, BeginRound())
    plan = Action(kind=ActionKind.ATTACK, target="Aldo", note="ZQOGREPLAN")
    c.execute(LAIR, Declare("Ogre 2", (plan,)))
    made = served.client.post(
        f"/campaigns/{LAIR}/hand-link?token={lair[Role.REFEREE]}",
        content="character=Aldo",
        headers={"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"},
    )
    found = re.search(r'value="[^"]*\?token=([^"]+)"', made.text)
    assert found is not None, made.text
    for path in (f"/campaigns/{LAIR}", f"/campaigns/{LAIR}/display"):
        text = served.client.get(f"{path}?token={found[1]}").text
        now = text[text.index("<!--part:now-->") : text.index("<!--part:sheet-->")]
        assert "Your turn: what does Aldo do?" in now and "<option>Ogre 1</option>" in now
        assert "ZQOGREPLAN" not in now and "Ogre 2:" not in now
        shown = {what: re.findall(pattern, text) for what, pattern in STATS.items()}
        assert not any(shown.values()), f"{path} shows Aldo's player {shown}"


def test_the_referees_page_shows_each_note_where_it_applies(
    served: Served, markers: dict[str, str]
) -> None:
    """Issue 40 item 5: the notes of the site and of the level the party is on, and of the
    pending encounter's row, are on the referee's page (the site's panel), never the
    players'."""
    assert served.campaigns.state("Crypt").site.encounter is not None, "the fixture meets one"
    page = served.get("/campaigns/Crypt", Role.REFEREE).text
    panel = page[page.index('<section class="site">') :]
    panel = panel[: panel.index("</section>")]
    shown = ("site notes", "level notes", "encounter notes")
    missing = [what for what in shown if markers[what] not in panel]
    assert not missing, f"the referee's site panel lacks {missing}"
    player = served.get("/campaigns/Crypt", Role.PLAYER).text
    assert not [what for what in shown if markers[what] in player]


def test_an_omens_notes_are_on_the_referees_page_alone(tmp_path: Path) -> None:
    """TP-DUN-2: the omen rolled (face 2 of the dungeon die) is read with its row's notes on
    the referee's page; the players' page has neither the notes nor the roll."""
    site = """
[site]
name = "Barrow"
[[levels]]
number = 1
[levels.omens]
dice = "d1"
[[levels.omens.rows]]
roll = 1
text = "A cold wind."
notes = "ZQOMENNOTE"
[[levels.areas]]
key = "1"
"""
    store = open_store(str(tmp_path / "omen.db"))
    campaigns = Campaigns(store)
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 8\n[supplies]\ntorches = 3')
    campaigns.new("Barrow", preset("tp"), party, seed=5)
    campaigns.execute("Barrow", EnterSite(parse_site(site), 1, "1"))
    campaigns.execute("Barrow", Turn(), typed_dice=[2, 1])  # the dungeon die's 2: an omen
    tokens = issue_tokens(store, "Barrow")
    with TestClient(create_app(campaigns)) as client:

        def page(role: Role) -> str:
            headers = {"Authorization": f"Bearer {tokens[role]}"}
            return client.get("/campaigns/Barrow", headers=headers).text

        assert "ZQOMENNOTE" in page(Role.REFEREE)
        assert "ZQOMENNOTE" not in page(Role.PLAYER)
    store.close()
