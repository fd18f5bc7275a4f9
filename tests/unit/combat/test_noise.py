"""TP-INI-1 face 1 in a campaign fight: "Noise attracts something: roll for a random
encounter, PCs can influence the reaction roll". In a site the level's wandering table says
who comes and how many, as the dungeon die's face 1 (TP-DUN-1) does; the reaction roll is
the party's to sway. Outside a site there is no table at hand, and the event says so."""

from __future__ import annotations

import re
from importlib.resources import files

from turnkeeper.campaign import Journal, load_party
from turnkeeper.dice import TypedDice
from turnkeeper.kernel.party import Party
from turnkeeper.procedures.combat import BeginRound, Combatant, Side, StartFight
from turnkeeper.procedures.combat.events import FaceEffect
from turnkeeper.procedures.dungeon import EnterSite
from turnkeeper.rules import preset
from turnkeeper.views.journal import player_record
from turnkeeper.world.sites import load_site, site_from_data

EXAMPLES = files("turnkeeper.examples")
ORC = Combatant(name="Orc", side=Side.OPPOSITION, hp=20, max_hp=20, ac=14, hd=2)


def _fight(site: object | None = None, party: Party | None = None) -> Journal:
    rules = preset("tp")
    party = party or load_party(str(EXAMPLES / "fighters.toml"), rules)
    journal = Journal.start("Keep", rules, party, 3)
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
    is 2d6 (3, 4) + the leader's CHA + the party's sway of +1."""
    journal = _fight(load_site(str(EXAMPLES / "site.toml")))
    cha = journal.state.party.leader_cha
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


def test_tp_ini_1_pg_rea_1_tp_rea_1_the_noise_reaction_adds_the_leaders_cha_not_the_best() -> None:
    """PG-REA-1 (TP-REA-1 under tp) reads one CHA for every reaction roll, the leader's:
    the noise of TP-INI-1 face 1 adds the leader Bo's CHA -1, not Cy's better +2, as a
    dungeon encounter does. 2d6 (3, 4) - 1 + the sway of +1 = 7."""
    rules = preset("tp")
    fighters = load_party(str(EXAMPLES / "fighters.toml"), rules)
    cha = {"Ann": 0, "Bo": -1, "Cy": 2}
    characters = tuple(
        c.model_copy(update={"stats": {**c.stats, "CHA": cha.get(c.name, 0)}})
        for c in fighters.characters
    )
    party = fighters.model_copy(update={"characters": characters, "leader": "Bo"})
    assert party.leader_cha == -1
    noise = _noise(_fight(party=party), [1, 3, 4], influence=1)
    assert noise.rolls[-1].total == 3 + 4 - 1
    assert noise.describe().endswith("(7)")
