"""CLI: a seeded, scripted expedition into the example site, replayed to the same journal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.cli.app import app

runner = CliRunner()
SITE = str(Path(__file__).resolve().parents[2] / "examples" / "site.toml")
MODES = ["cautious"] * 4 + ["swift"] * 4 + ["running"] + ["cautious"] * 3
SEED = "8"  # under tp, this seed's expedition meets exactly one wandering encounter

PARTY = """
leader = "Ana"
[[characters]]
name = "Ana"
hp = 6
stats = { DEX = 1, WIS = 0, CHA = 1 }
[[characters]]
name = "Bo"
hp = 8
stats = { WIS = 1 }
[supplies]
torches = 6
rations = 10
water = 10
"""

if TYPE_CHECKING:
    from tests.integration.conftest import Tk


def expedition(tk: Tk, tmp: Path, seed: str = SEED) -> tuple[list[dict[str, Any]], str, int]:
    """Enter, 12 turns of mixed modes, settle any encounter, leave: the journal and the log."""
    tmp.mkdir(parents=True, exist_ok=True)
    party = tmp / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    db = str(tmp / "campaigns.db")
    tk(db, "new", "Abbey", "--ruleset", "tp", "--party", str(party), "--seed", seed)
    tk(db, "light", "torch")
    tk(db, "site", "enter", SITE, "--level", "1")
    encounters = 0
    for mode in MODES:
        turn = tk(db, "turn", "--mode", mode)
        if any(r["kind"] == "dungeon.encounter" for r in turn["records"]):
            encounters += 1
            tk(db, "site", "resume", "--fought")
    tk(db, "site", "leave")
    journal = [json.loads(line) for line in tk(db, "export", as_json=False).splitlines() if line]
    log = tk(db, "export", "--format", "markdown", as_json=False)
    return journal, log, encounters


def test_scripted_expedition_is_reproducible(tmp_path: Path, tk: Tk) -> None:
    """rule: EX-TIME-1, TP-DUN-1 - the same seed and commands give the same journal."""
    first, log, encounters = expedition(tk, tmp_path / "a")
    second, log_again, _ = expedition(tk, tmp_path / "b")
    assert first == second and log == log_again
    assert encounters == 1
    kinds = [record["kind"] for record in first]
    assert kinds.count("dungeon.turn") == 12 and kinds.count("dungeon.die") == 12
    assert "site.entered" in kinds and "site.left" in kinds
    assert "The Sunken Abbey" in log and "dungeon die" in log


def test_player_view_hides_the_referees_rolls(tmp_path: Path, tk: Tk) -> None:
    db = str(tmp_path / "c.db")
    tk(db, "new", "Abbey", "--ruleset", "ex", "--solo", "--seed", "3")
    entered = tk(db, "site", "enter", SITE, "--player")
    assert [r["kind"] for r in entered["records"]] == ["site.perceived"]
    tk(db, "turn", "--mode", "cautious")
    turn = tk(db, "turn", "--mode", "cautious", "--player")
    assert all(r["visibility"] == "party" for r in turn["records"])
    assert "dungeon.check" not in [r["kind"] for r in turn["records"]]
    shown = tk(db, "site", "show", "--player")
    assert "notes" not in json.dumps(shown) and "encounters" not in json.dumps(shown)
    assert tk(db, "site", "show")["site"]["levels"][0]["encounters"]["dice"] == "d6"


def test_typed_in_dice_drive_the_turn(tmp_path: Path, tk: Tk) -> None:
    db = str(tmp_path / "d.db")
    tk(db, "new", "Abbey", "--ruleset", "tp", "--solo", "--seed", "3")
    tk(db, "site", "enter", SITE)
    turn = tk(db, "turn", "--dice", "5")  # face 5: the dungeon slumbers
    die = next(r for r in turn["records"] if r["kind"] == "dungeon.die")
    assert die["data"]["event"] == "slumber" and die["rolls"][0]["typed_in"]


def test_mistakes_exit_2_with_one_line(tmp_path: Path, tk: Tk) -> None:
    db = str(tmp_path / "e.db")
    tk(db, "new", "Abbey", "--ruleset", "ex", "--solo", "--seed", "3")
    result = runner.invoke(app, ["turn", "--db", db])
    assert isinstance(result.exception, Exception) and "not in a site" in str(result.exception)
    broken = tmp_path / "broken.toml"
    broken.write_text('[site]\nname = "x"\n', encoding="utf-8")
    result = runner.invoke(app, ["site", "enter", str(broken), "--db", db])
    assert "levels: missing" in str(result.exception)


@pytest.mark.parametrize("ruleset", ["tp", "ex"])
def test_odds_turn_json(ruleset: str) -> None:
    result = runner.invoke(app, ["odds", "turn", "--ruleset", ruleset, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    encounter = next(e for e in data["events"] if e["event"] == "encounter")
    expected = {"tp": "31031/46656", "ex": "91/216"}[ruleset]
    assert encounter["at_least_one"] == expected


def test_odds_turn_is_spelled_odds_turn_only() -> None:
    """Issue 4 spells it ``odds turn``; the old ``odds-turn`` verb is gone (one way)."""
    assert runner.invoke(app, ["odds-turn", "--ruleset", "ex"]).exit_code == 2
    noisy = runner.invoke(app, ["odds", "turn", "-r", "ex", "--turns", "3", "--noisy", "--json"])
    assert noisy.exit_code == 0, noisy.output
    data = json.loads(noisy.stdout)
    assert data["turns"] == 3 and data["noisy"] is True


def test_tables_for_people_render(tmp_path: Path, tk: Tk) -> None:
    db = str(tmp_path / "f.db")
    tk(db, "new", "Abbey", "--ruleset", "ex", "--solo", "--seed", "3")
    assert "The party enters" in tk(db, "site", "enter", SITE, as_json=False)
    assert "turn 1: cautious" in tk(db, "turn", "--mode", "cautious", as_json=False)
    assert "Flooded garth" in tk(db, "site", "show", as_json=False)
    result = runner.invoke(app, ["odds", "turn", "--ruleset", "ex", "--mode", "running"])
    assert result.exit_code == 0 and "7/8 (87.5%)" in result.stdout


def test_wait_in_a_site_makes_the_checks_of_the_turns_it_passes(tmp_path: Path, tk: Tk) -> None:
    """rule: EX-ENC-1 - `wait 1h` in a site passes 6 turns, checked on turns 2, 4 and 6."""
    db = str(tmp_path / "w.db")
    tk(db, "new", "Abbey", "--ruleset", "ex", "--solo", "--seed", "3")
    tk(db, "site", "enter", SITE)
    waited = tk(db, "wait", "1h")
    kinds = [r["kind"] for r in waited["records"]]
    assert kinds.count("dungeon.turn_passed") == 6 and kinds.count("dungeon.check") == 3
    assert "clock.wait_broken" not in kinds
    text = tk(db, "log", as_json=False)
    assert text.count("wandering check (1 in 6)") == 3


def test_ex_map_2_site_show_player_shows_visited_areas_and_the_party_map(
    tmp_path: Path, tk: Tk
) -> None:
    db = str(tmp_path / "m.db")
    tk(db, "new", "Abbey", "--ruleset", "ex", "--solo", "--seed", "3")
    tk(db, "site", "enter", SITE, "--level", "1", "--area", "1")
    tk(db, "turn", "--mode", "cautious", "--area", "3", "--skip-check")
    tk(db, "site", "map", "note", "the east passage bends north")
    tk(db, "site", "map", "note", "a stair down", "--area", "7")  # wrong: stays wrong
    shown = tk(db, "site", "show", "--player")
    (level,) = shown["site"]["levels"]
    assert [a["name"] for a in level["areas"]] == ["Gatehouse", "Cells"]
    assert "Flooded garth" not in json.dumps(shown) and "The Crypts" not in json.dumps(shown)
    assert [n["text"] for n in shown["party_map"]] == [
        "the east passage bends north",
        "a stair down",
    ]
    assert [n["area"] for n in shown["party_map"]] == ["3", "7"]
    referee = tk(db, "site", "show")
    assert referee["visited"] == [[1, "1"], [1, "3"]] and len(referee["party_map"]) == 2
    assert referee["site"]["levels"][1]["name"] == "The Crypts"  # the true map, whole
    text = runner.invoke(app, ["site", "show", "--db", db]).output
    assert "true map" in text and "the party's map" in text and "a stair down" in text


def test_the_players_site_shows_the_level_entered_and_no_empty_table(
    tmp_path: Path, tk: Tk
) -> None:
    """rule: EX-MAP-2 - entered at a level and no area, the party's view says the level's name
    and description, as docs/site-format.md says, and draws no empty table (issue 42)."""
    db = str(tmp_path / "view.db")
    tk(db, "new", "Abbey", "--ruleset", "ex", "--solo", "--seed", "3")
    tk(db, "site", "enter", SITE, "--level", "1")
    shown = " ".join(runner.invoke(app, ["site", "show", "--player", "--db", db]).output.split())
    assert "level 1 The Cloister: Mossy arcades around a flooded garth" in shown
    assert "no area of it entered yet" in shown and "┏" not in shown


def test_ex_mov_1_turn_without_a_mode_says_which_mode_it_used_and_why(
    tmp_path: Path, tk: Tk
) -> None:
    db = str(tmp_path / "modes.db")
    party = str(Path(SITE).with_name("party.toml"))
    tk(db, "new", "keep", "--ruleset", "ex", "--party", party, "--seed", "3")
    tk(db, "site", "enter", SITE)
    first = tk(db, "turn", "--skip-check", as_json=False)
    assert "mode: cautious (the ruleset's first mode" in first
    tk(db, "turn", "--mode", "running", "--skip-check")
    again = tk(db, "turn", "--skip-check", as_json=False)
    assert "mode: running (as the party moved last turn" in again


WEARY_PARTY = """
leader = "Ana"
[[characters]]
name = "Ana"
hp = 6
stats = { DEX = 0, WIS = 0, CHA = 1 }
[[characters]]
name = "Bo"
hp = 8
stats = { WIS = 0 }
[supplies]
torches = 1
"""


def _in_the_cells(tk: Tk, tmp: Path) -> str:
    """An ex campaign whose party stands in the Cells (off the lanes: no check is rolled)."""
    party = tmp / "party.toml"
    party.write_text(WEARY_PARTY, encoding="utf-8")
    db = str(tmp / "keep.db")
    tk(db, "new", "Keep", "--ruleset", "ex", "--party", str(party), "--seed", "3")
    tk(db, "site", "enter", SITE, "--area", "3")
    return db


def test_ex_rest_3_a_wearied_partys_wis_scout_check_is_at_minus_2(tmp_path: Path, tk: Tk) -> None:
    """EX-REST-3: "-2 penalty to skill checks"; EX-SUR-4 calls the surprise roll a WIS/Scout
    skill check. Seven turns without rest weary the party (the first to the Gatehouse and
    back); on turn 8 it moves swiftly by torchlight into the Gatehouse, explored already
    (EX-MOV-2), and meets the rats: its check reads 2d6 (4, 4) + NOTICE (-2) = 6, not 8,
    so the rats' 2d6 (3, 4) = 7 surprise it. Dice: check 1, rats 1, 2d4 (2, 3), 2d4 (1, 1)
    x10 ft, the rats' DEX/Stealth (3, 4), the party's WIS/Scout (4, 4), reaction (5, 5)."""
    db = _in_the_cells(tk, tmp_path)
    for area in ["1", "3", "3", "3", "3", "3", "3"]:
        tk(db, "turn", "--mode", "cautious", "--area", area)
    shown = tk(db, "status")
    assert "wearied" in json.dumps(shown)
    tk(db, "light", "torch")
    dice = "1,1,2,3,1,1,3,4,4,4,5,5"
    turn = tk(db, "turn", "--mode", "swift", "--area", "1", "--no-hide", "--dice", dice)
    met = next(r for r in turn["records"] if r["kind"] == "dungeon.encounter")
    breakdowns = [roll["breakdown"] for roll in met["rolls"]]
    assert "2d6 (4, 4) + NOTICE (-2) = 6" in breakdowns
    assert met["data"]["encounter"]["party_surprised"] is True


def test_ex_rest_1_wait_3h_in_a_site_is_rest_not_exploration(tmp_path: Path, tk: Tk) -> None:
    """`wait 3h` in a site: the party sat still for three hours, so it is not wearied (the
    issue: it used to end wearied, -2 skill and -4 to hit), and the site's checks still ran
    on every second turn of the wait."""
    db = _in_the_cells(tk, tmp_path)
    waited = tk(db, "wait", "3h")
    kinds = [r["kind"] for r in waited["records"]]
    assert "rest.wearied" not in kinds and kinds[-1] == "rest.done"
    assert kinds.count("dungeon.check") == 9  # turns 2, 4, ... 18 (skipped off the lanes)
    assert "wearied" not in json.dumps(tk(db, "status"))


def _tp_haven(tk: Tk, tmp: Path) -> str:
    party = tmp / "party.toml"
    party.write_text(PARTY, encoding="utf-8")  # torches 6, rations 10, water 10
    db = str(tmp / "haven.db")
    tk(db, "new", "Haven", "--ruleset", "tp", "--party", str(party), "--seed", "3")
    return db


def test_tp_enc_1_forced_rest_in_downtime_eats_food_and_water(tmp_path: Path, tk: Tk) -> None:
    """TP-ENC-1 face 3: "the players must take the current turn to rest and consume food and
    water": `wait 1d --dice 3` rolls the die at the start of the day it governs (midnight)
    and Ana and Bo each eat a ration and drink a water."""
    db = _tp_haven(tk, tmp_path)
    waited = tk(db, "wait", "1d", "--dice", "3")
    die = next(r for r in waited["records"] if r["kind"] == "encounter.die")
    assert (die["date"], die["data"]["label"]) == ("1-01-02 00:00", "Forced rest")
    assert "rest.done" in [r["kind"] for r in waited["records"]]
    supplies = tk(db, "status")["supplies"]["counted"]
    assert (supplies["rations"], supplies["water"]) == (8, 8)


def test_tp_enc_1_waning_resources_in_downtime_burns_the_lit_torch(tmp_path: Path, tk: Tk) -> None:
    """TP-ENC-1 face 4: "the players must reignite their light source (a new torch...)":
    under tp a light lasts until this face (TP-ENC-2), so in downtime the lit torch goes
    out and another is lit from the supplies."""
    db = _tp_haven(tk, tmp_path)
    tk(db, "light", "torch")  # 5 torches left
    waited = tk(db, "wait", "1d", "--dice", "4")
    kinds = [r["kind"] for r in waited["records"]]
    assert kinds[kinds.index("encounter.die") :][1:4] == [
        "light.out",
        "light.lit",
        "dungeon.spells_end",
    ]
    assert tk(db, "status")["supplies"]["counted"]["torches"] == 4


def test_tp_dun_1_a_forced_rest_turn_covers_no_distance(tmp_path: Path, tk: Tk) -> None:
    """TP-DUN-1 face 4 (Forced Rest), rolled at the start of the turn: the party rests the
    turn where it is and eats, and covers no distance (it was logged as 120 ft cautious)."""
    db = _tp_haven(tk, tmp_path)
    tk(db, "site", "enter", SITE, "--area", "3")
    turn = tk(db, "turn", "--mode", "cautious", "--area", "1", "--dice", "4")
    taken = next(r for r in turn["records"] if r["kind"] == "dungeon.turn")
    assert taken["text"] == "turn 1: a forced rest, no distance covered"
    assert taken["data"]["feet"] is None and taken["data"]["area"] == "3"
    assert "rest.done" in [r["kind"] for r in turn["records"]]


def test_pg_rea_1_a_hungry_foe_s_surprise_leaves_pg_s_reaction_alone(
    tmp_path: Path, tk: Tk
) -> None:
    """PG-REA-1 reads 2d6 + the leader's CHA only; the -2 for a hungry foe that won
    surprise is the Exploration text's (EX-SUR-5), not Playing the Game's. Turn 2's check
    1 meets the hungry rats (1; 2d4 (2, 3); 2d4 (1, 1) x10 ft); the party is surprised on
    d6 1 (PG-SUR-1), the rats are not (6); reaction 2d6 (4, 4) + CHA 1 = 9: indifferent."""
    party = tmp_path / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    db = str(tmp_path / "pg.db")
    tk(db, "new", "Keep", "--ruleset", "pg", "--party", str(party), "--seed", "3")
    tk(db, "site", "enter", SITE, "--area", "1")
    tk(db, "turn", "--no-hide")
    turn = tk(db, "turn", "--no-hide", "--dice", "1,1,2,3,1,1,1,6,4,4")
    met = next(r for r in turn["records"] if r["kind"] == "dungeon.encounter")
    encounter = met["data"]["encounter"]
    assert encounter["party_surprised"] is True and encounter["creature"] == "giant rats"
    assert (encounter["reaction"], encounter["reaction_modifier"]) == ("indifferent", 0)
    assert "2d6 (4, 4) + CHA (1) = 9" in [roll["breakdown"] for roll in met["rolls"]]
