"""TP-INI-1 face 1 in a campaign fight: "Noise attracts something: roll for a random
encounter, PCs can influence the reaction roll". In a site the level's wandering table says
who comes and how many, as the dungeon die's face 1 (TP-DUN-1) does; the reaction roll is
the party's to sway. Outside a site there is no table at hand, and the event says so."""

from __future__ import annotations

import re
from importlib.resources import files

from turnkeeper.campaign import Journal, load_party
from turnkeeper.dice import TypedDice
from turnkeeper.procedures.combat import BeginRound, Combatant, Side, StartFight
from turnkeeper.procedures.combat.events import FaceEffect
from turnkeeper.procedures.dungeon import EnterSite
from turnkeeper.rules import preset
from turnkeeper.views import player_record
from turnkeeper.world.sites import load_site, site_from_data

EXAMPLES = files("turnkeeper.examples")
ORC = Combatant(name="Orc", side=Side.OPPOSITION, hp=20, max_hp=20, ac=14, hd=2)


def _fight(site: object | None = None) -> Journal:
    rules = preset("tp")
    journal = Journal.start("Keep", rules, load_party(str(EXAMPLES / "fighters.toml"), rules), 3)
    if site is not None:
        journal.execute(EnterSite(site))  # type: ignore[arg-type]
    journal.execute(StartFight(foes=(ORC,), surprised=frozenset()))
    return journal


def _noise(journal: Journal, faces: list[int], influence: int = 0) -> FaceEffect:
    records = journal.execute(BeginRound(influence=influence), TypedDice(faces))
    (noise,) = (r.event for r in records if isinstance(r.event, FaceEffect))
    return noise


def test_tp_ini_1_face_1_in_a_site_rolls_the_levels_encounter_table() -> None:
    """TP-INI-1 face 1 in the abbey's cloister (level 1): the initiative die shows 1; the
    level's d6 table shows 4, marsh goblins, 1d6+1 of them (3 + 1 = 4 come); their reaction
    is 2d6 (3, 4) + the party's best CHA + the party's sway of +1."""
    journal = _fight(load_site(str(EXAMPLES / "site.toml")))
    cha = max(c.stats.get("CHA", 0) for c in journal.state.party.characters)
    noise = _noise(journal, [1, 4, 3, 3, 4], influence=1)
    assert (noise.creature, noise.number) == ("marsh goblins", 4)
    assert [r.expression for r in noise.rolls] == ["d6", "1d6 + 1", "2d6 + CHA"]
    assert noise.rolls[-1].total == 7 + cha
    text = noise.describe()
    assert "4 marsh goblins come (level 1's encounter table)" in text
    assert re.search(rf"; its reaction, swayed \+1: [a-z ]+ \({7 + cha + 1}\)$", text)
    assert journal.state.combat is not None and journal.state.combat.initiative is Side.OPPOSITION


def test_tp_ini_1_face_1_the_players_hear_a_noise_not_the_table() -> None:
    """TP-INI-1 face 1: the players' journal says something is attracted, not what the
    referee's table rolled."""
    journal = _fight(load_site(str(EXAMPLES / "site.toml")))
    records = journal.execute(BeginRound(), TypedDice([1, 4, 3, 3, 4]))
    (record,) = (r for r in records if isinstance(r.event, FaceEffect))
    shown = player_record(record, journal.state)
    assert "goblin" not in shown["text"] and shown["rolls"] == []
    assert shown["text"].startswith("noise attracts something")


def test_tp_ini_1_face_1_outside_a_site_says_so_and_keeps_the_reaction() -> None:
    """TP-INI-1 face 1 out of any site: no encounter table is at hand, the event says so;
    the reaction is rolled as before (2d6: 6, 6)."""
    noise = _noise(_fight(), [1, 6, 6])
    assert noise.creature is None and noise.number is None
    assert "not in a site: no encounter table at hand" in noise.describe()
    assert [r.expression for r in noise.rolls] == ["2d6 + CHA"]
    assert "creature" not in noise.data() and "number" not in noise.data()


def test_tp_ini_1_face_1_on_a_level_with_no_encounter_table() -> None:
    """TP-INI-1 face 1 on a level with no wandering table: the event names the level."""
    bare = site_from_data({"site": {"name": "Cellar"}, "levels": [{"number": 2}]})
    noise = _noise(_fight(bare), [1, 6, 6])
    assert noise.creature is None
    assert "level 2 has no encounter table" in noise.describe()
