"""How the groups met, at the CLI: `combat start --meeting --mode` (EX-SUR-1 to EX-SUR-4,
CB-SUR-1, CB-SUR-2); the API's combat_start body is in web/test_api_meeting.py."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .conftest import new_campaign, records

if TYPE_CHECKING:
    from tests.integration.conftest import Shell, Tk

PARTY = """
[[characters]]
name = "Ann"
hp = 9
ac = 15
stats = { WIS = 1 }
[[characters]]
name = "Bo"
hp = 5
ac = 12
"""


def _surprise(out: object) -> dict[str, object]:
    (settled,) = records(out, "combat.surprise")
    return settled


def test_ex_sur_3_combat_start_with_the_party_running_surprises_it(tmp_path: Path, tk: Tk) -> None:
    """EX-SUR-3: "Those in running movement are always surprised whenever they encounter
    others": `combat start --mode running` loses the party the first round, no die rolled."""
    db = new_campaign(tk, tmp_path, "ex", PARTY, 3)
    started = tk(db, "combat", "start", "--monster", "Ghoul:hd=2,ac=12", "--mode", "running")
    settled = _surprise(started)
    assert settled["data"]["surprised"] == ["party"] and settled["rolls"] == []
    assert "EX-SUR-3" in settled["text"] and "opposition gets a free round" in settled["text"]


def test_ex_sur_1_combat_start_from_ambush_on_a_cautious_party(tmp_path: Path, tk: Tk) -> None:
    """EX-SUR-1: a cautious party is surprised only when "the foes leap on them from ambush":
    met cautiously nothing is rolled; `--meeting ambush` rolls the EX-SUR-4 contest, the
    ghoul's 2d6 (6, 5) + DEX 1 = 12 against Ann's (2, 3) + WIS 1 = 6: surprised."""
    db = new_campaign(tk, tmp_path, "ex", PARTY, 3)
    met = tk(db, "combat", "start", "--monster", "Ghoul:hd=2,ac=12,dex=1", "--mode", "cautious")
    assert _surprise(met)["data"]["surprised"] == [] and _surprise(met)["rolls"] == []
    tk(db, "combat", "end", "--winner", "party")
    leapt = tk(db, "combat", "start", "--monster", "Ghoul:hd=2,ac=12,dex=1", "--mode", "cautious",
               "--meeting", "ambush", "--dice", "6,5,2,3")  # fmt: skip
    settled = _surprise(leapt)
    assert settled["data"]["surprised"] == ["party"]
    assert [r["total"] for r in settled["rolls"]] == [12, 6]


def test_ex_sur_4_combat_start_both_unaware(tmp_path: Path, tk: Tk) -> None:
    """EX-SUR-4: "both groups make WIS/Scout checks against a difficulty 9, and any who lose
    are surprised": Ann (4, 4) + 1 = 9 holds, Bo (3, 3) = 6 loses, the ghoul (6, 6) holds."""
    db = new_campaign(tk, tmp_path, "ex", PARTY, 3)
    started = tk(db, "combat", "start", "--monster", "Ghoul:hd=2,ac=12",
                 "--meeting", "both-unaware", "--dice", "4,4,3,3,6,6")  # fmt: skip
    settled = _surprise(started)
    assert settled["data"]["surprised"] == [] and settled["data"]["members"] == ["Bo"]


def test_cb_sur_2_a_hireling_checks_morale_when_foes_ambush_the_party(
    tmp_path: Path, tk: Tk
) -> None:
    """CB-SUR-1, CB-SUR-2: foes from ambush are the attackers: the orc's d20 15 + DEX 2 = 17
    beats Ann's 3 + WIS 1 = 4; the party's undisciplined torchbearer then checks morale,
    2d6 (6, 5) = 11 against 6, and flees."""
    db = new_campaign(tk, tmp_path, "cb", PARTY, 3)
    started = tk(db, "combat", "start", "--monster", "Orc:hd=1,ac=12,dex=2", "--meeting", "ambush",
                 "--ally", "Torchbearer:hp=3,ac=10,disciplined=false,morale=6",
                 "--dice", "15,3,6,5")  # fmt: skip
    assert _surprise(started)["data"]["surprised"] == ["party"]
    (morale,) = records(started, "combat.morale")
    assert morale["data"]["names"] == ["Torchbearer"] and not morale["data"]["holds"]


def test_ex_sur_1_bad_meetings_and_modes_get_one_clear_error(tmp_path: Path, shell: Shell) -> None:
    """EX-SUR-1: a meeting or a mode the rules do not know: one line saying what to type instead."""
    db = str(tmp_path / "keep.db")
    (tmp_path / "party.toml").write_text(PARTY, encoding="utf-8")
    made = shell("new", "Keep", "--ruleset", "ex", "--party", str(tmp_path / "party.toml"),
                 "--db", db)  # fmt: skip
    assert made.code == 0, made.err
    ghoul = ("combat", "start", "--monster", "Ghoul:hd=2,ac=12", "--db", db)
    bad = shell(*ghoul, "--meeting", "sneak")
    assert bad.code != 0 and bad.err.strip().count("\n") == 0
    assert "--meeting 'sneak': say one of encounter, occupied, ambush, both-unaware" in bad.err
    flying = shell(*ghoul, "--mode", "flying")
    assert flying.code != 0 and "modes: cautious, swift, running" in flying.err


ABBEY = """
[site]
name = "Abbey"
wandering = false
[[levels]]
number = 1
areas = [
  {key = "1", name = "Gate"},
  {key = "2", name = "Flooded garth", occupants = "giant leech"},
]
"""


def test_ex_sur_3_and_ex_sur_1_turn_into_an_occupied_area(tmp_path: Path, tk: Tk) -> None:
    """EX-SUR-3: `turn --mode running --area 2` into the leech's garth: "always surprised
    whenever they encounter others". EX-SUR-1: `turn --mode cautious --area 2 --ambush`:
    the leech leaps from ambush, 2d6 (6, 6) = 12 against Ann's (1, 1) + WIS 1 = 3."""
    db = new_campaign(tk, tmp_path, "ex", PARTY, 3)
    site = tmp_path / "abbey.toml"
    site.write_text(ABBEY, encoding="utf-8")
    tk(db, "site", "enter", str(site), "--area", "1")
    ran = tk(db, "turn", "--mode", "running", "--area", "2", "--dice", "3,4")
    (met,) = records(ran, "dungeon.encounter")
    assert met["data"]["encounter"]["party_surprised"] and "EX-SUR-3" in str(met["data"])
    tk(db, "site", "resume")
    tk(db, "turn", "--mode", "cautious", "--area", "1")
    leapt = tk(db, "turn", "--mode", "cautious", "--area", "2", "--ambush",
               "--dice", "6,6,1,1,3,4")  # fmt: skip
    (met,) = records(leapt, "dungeon.encounter")
    assert met["data"]["encounter"]["party_surprised"] and "EX-SUR-1" in str(met["data"])


TOMB = """
[site]
name = "Tomb"
wandering = false
[[levels]]
number = 1
[[levels.areas]]
key = "1"
name = "Stair"
[[levels.areas]]
key = "2"
name = "Hall of Shields"
occupants = { name = "Skeleton", count = 4, hd = 1, ac = 7 }
[[levels.areas]]
key = "3"
name = "Old Hall"
occupants = "4 skeletons"
"""


def _tomb(tmp_path: Path, tk: Tk) -> str:
    db = new_campaign(tk, tmp_path, "ex", "[supplies]\ntorches = 2\n" + PARTY, 3)
    site = tmp_path / "tomb.toml"
    site.write_text(TOMB, encoding="utf-8")
    tk(db, "site", "enter", str(site), "--area", "1")
    tk(db, "light", "torch")
    tk(db, "light", "--set-turns", "1")
    return db


def test_ex_sur_2_a_turn_into_the_skeletons_stops_there_and_the_fight_starts_lit(
    tmp_path: Path, tk: Tk
) -> None:
    """EX-SUR-2, TP-TIME-2, issue 39: `turn --area 2` into the Hall of Shields meets its four
    skeletons and time stops there: no "10m pass", the torch of one turn left still burns,
    and `combat start` sets four skeletons of AC 7 and 4 hp (1 HD) against the party. Going on
    exploring instead (`site resume`) passes the rest of that turn: then the torch goes out."""
    db = _tomb(tmp_path, tk)
    before = tk(db, "status")["now"]
    met = tk(db, "turn", "--mode", "cautious", "--area", "2", "--dice", "3,4")
    kinds = [record["kind"] for record in met["records"]]
    assert "dungeon.encounter" in kinds and "clock.advanced" not in kinds
    assert "light.out" not in kinds
    status = tk(db, "status")
    assert status["now"] == before and status["light"]["source"] == "torch"
    fight = tk(db, "combat", "start")
    (started,) = records(fight, "combat.started")
    foes = [c for c in started["data"]["combatants"] if c["side"] == "opposition"]
    assert [(c["name"], c["hp"], c["ac"]) for c in foes] == [
        (f"Skeleton {i}", 4, 7) for i in range(1, 5)
    ]
    tk(db, "undo")
    resumed = tk(db, "site", "resume")
    assert "light.out" in [record["kind"] for record in resumed["records"]]


def test_ex_sur_2_skeletons_in_words_are_numbered_by_the_referee(
    tmp_path: Path, tk: Tk, shell: Shell
) -> None:
    """EX-SUR-2, EX-SUR-5, issue 39: occupants written "4 skeletons" are met as described; the
    fight asks for the foes instead of one "4 skeletons" of 4 hp, `--meeting` is refused with
    a way on, and `--monster "Skeleton:hd=1,ac=7,count=4"` starts the fight with the surprise
    settled at the meeting."""
    db = _tomb(tmp_path, tk)
    tk(db, "turn", "--mode", "cautious", "--area", "3", "--dice", "3,4")
    bare = shell("combat", "start", "--db", db)
    assert bare.code == 2 and "described in the site's words, not counted" in bare.err
    told = shell("combat", "start", "--monster", "Skeleton:hd=1,ac=7,count=4",
                 "--meeting", "occupied", "--db", db)  # fmt: skip
    assert told.code == 2 and "foes named here (--monster, --foes) fight in their place" in told.err
    fight = tk(db, "combat", "start", "--monster", "Skeleton:hd=1,ac=7,count=4")
    (started,) = records(fight, "combat.started")
    foes = [c["name"] for c in started["data"]["combatants"] if c["side"] == "opposition"]
    assert foes == [f"Skeleton {i}" for i in range(1, 5)]
