"""CLI: a fight inside a campaign (journal, clock, typed dice, refusals) and `simulate fight`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.cli.app import app
from turnkeeper.errors import IllegalCommandError, TurnkeeperError

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

PARTY = """
[[characters]]
name = "Ann"
class = "fighter"
level = 2
hp = 9
ac = 15
stats = { STR = 1 }
[[characters]]
name = "Bo"
hp = 5
ac = 12
"""

if TYPE_CHECKING:
    from tests.integration.conftest import Tk


@pytest.fixture
def db(tmp_path: Path, tk: Tk) -> str:
    path = tmp_path / "party.toml"
    path.write_text(PARTY, encoding="utf-8")
    db = str(tmp_path / "campaigns.db")
    tk(db, "new", "Keep", "--ruleset", "pg", "--party", str(path), "--seed", "5")
    return db


def texts(out: Any) -> list[str]:
    return [r["text"] for r in out["records"]]


def test_a_pg_fight_from_start_to_end_with_typed_dice(db: str, tk: Tk) -> None:
    # rule: PG-CBT-1, PG-INI-1, PG-ATK-2, PG-HP-1
    started = tk(
        db, "combat", "start", "--monster", "Goblin:hd=1,hp=3,ac=12,xp=10", "--surprise", "none"
    )
    assert texts(started)[0] == "combat: Ann, Bo against Goblin"
    rolled = tk(db, "combat", "round", "--dice", "5,2")
    assert "initiative: party" in texts(rolled)[1]
    status = tk(db, "combat", "status")["combat"]
    assert status["order"] == [["Ann", "Bo"], ["Goblin"]] and status["seconds"] == 60
    tk(db, "combat", "declare", "Goblin", "attack", "Bo")
    tk(db, "combat", "declare", "Ann", "attack", "Goblin")
    # 11 + STR 1 + d20... Ann rolls 11 + 1 = 12 against AC 12: hits; d6 3 + STR 1 (fighter).
    resolved = tk(db, "combat", "resolve", "--dice", "11,3")
    lines = texts(resolved)
    assert lines[0] == "Ann attacks Goblin: 12 against AC 12, hits"
    assert lines[1] == "Goblin takes 4 damage (Ann): -1 hp, dead"
    assert lines[2] == "Goblin: is down and does not act"
    ended = tk(db, "combat", "end", "--dice", "3")
    assert "party wins; treasure worth 40 gp" in texts(ended)[0]
    assert tk(db, "status")["now"] == 60  # one one-minute round (PG-TIME-1)


def test_refusals_exit_2_and_change_nothing(db: str, tk: Tk) -> None:
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=5,ac=12", "--surprise", "none")
    before = tk(db, "combat", "status")
    with pytest.raises(IllegalCommandError, match="no round is running"):
        tk(db, "combat", "declare", "Ann", "attack", "Orc")
    tk(db, "combat", "round", "--dice", "4,1")
    middle = tk(db, "combat", "status")
    with pytest.raises(IllegalCommandError, match="gives up the action"):
        tk(db, "combat", "declare", "Ann", "move_far", "--then", "attack:Orc")
    with pytest.raises(TurnkeeperError, match="unknown action 'dance'"):
        tk(db, "combat", "declare", "Ann", "dance")
    assert tk(db, "combat", "status") == middle != before
    result = runner.invoke(app, ["combat", "declare", "Zed", "attack", "--db", db])
    assert result.exit_code != 0


def test_simulate_fight_json_and_table(tmp_path: Path) -> None:
    foes, party = str(EXAMPLES / "foes.toml"), str(EXAMPLES / "fighters.toml")
    result = runner.invoke(
        app,
        [
            "simulate",
            "fight",
            "--ruleset",
            "cb",
            "--party",
            party,
            "--foes",
            foes,
            "--runs",
            "2000",
            "--seed",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    total = data["party_wins"] + data["opposition_wins"] + data["both_down"] + data["unresolved"]
    assert abs(total - 1) < 1e-9 and data["runs"] == 2000
    assert sum(data["rounds"].values()) == 2000
    people = runner.invoke(
        app, ["simulate", "fight", "-r", "tp", "--party", party, "--foes", foes, "--runs", "500"]
    )
    assert people.exit_code == 0 and "wins" in people.stdout


def test_combat_round_after_attacks_by_hand_resolves_the_round_and_begins_the_next(
    db: str, tk: Tk
) -> None:
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10")
    tk(db, "combat", "round")
    tk(db, "combat", "attack", "Ann", "Orc")
    out = tk(db, "combat", "round")
    assert [r["kind"] for r in out["records"]][:2] == ["combat.resolved", "combat.round"]
    tk(db, "combat", "declare", "Bo", "attack", "Orc")
    with pytest.raises(IllegalCommandError, match=r"declared actions to resolve \(Bo: attack"):
        tk(db, "combat", "round")


def test_status_tells_the_fights_round_and_order_and_forgets_it_once_over(db: str, tk: Tk) -> None:
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10")
    tk(db, "combat", "round")
    tk(db, "combat", "attack", "Ann", "Orc")
    tk(db, "combat", "round")
    shown = tk(db, "status", as_json=False)
    assert "round 2, declaring" in shown and "acts first" in shown and "Orc" in shown
    tk(db, "combat", "end")
    tk(db, "wait", "3h")
    after = tk(db, "status", as_json=False)
    assert "round" not in after and "ended" not in after


def test_the_players_log_tells_hits_not_armour_class_and_forgets_undone_commands(
    db: str, tk: Tk
) -> None:
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10")
    tk(db, "combat", "round")
    tk(db, "combat", "attack", "Ann", "Orc", "--dice", "15,3")
    tk(db, "note", "the orc's cousin watches", "--referee")
    tk(db, "note", "a wrong note")
    tk(db, "undo")
    people = tk(db, "log", "--player", as_json=False)
    assert "Ann attacks Orc" in people and "AC" not in people and "hp" not in people
    assert "cousin" not in people and "a wrong note" not in people and "undone" not in people
    referee = tk(db, "log", "--json")
    assert any(r["text"] == "a wrong note" and r["undone"] for r in referee)


def test_simulate_fight_plots_the_rounds_fights_take(tmp_path: Path) -> None:
    picture = tmp_path / "rounds.svg"
    done = runner.invoke(
        app,
        ["simulate", "fight", "--ruleset", "pg", "--party", str(EXAMPLES / "fighters.toml"),
         "--foes", str(EXAMPLES / "foes.toml"), "--runs", "500", "--plot", str(picture),
         "--json"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    drawn = picture.read_text(encoding="utf-8")
    assert "rounds of 500 fights under pg" in drawn and "median" in drawn


def test_pg_hp_1_healing_in_a_fight_brings_the_fallen_to_and_lasts_past_the_fight(
    db: str, tk: Tk
) -> None:
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10")
    tk(db, "combat", "round")
    tk(db, "damage", "Bo", "5", "--reason", "a club")  # Bo has 5 hp: 0, unconscious
    fallen = next(c for c in tk(db, "status")["combat"]["combatants"] if c["name"] == "Bo")
    assert "unconscious" in fallen["conditions"]
    healed = tk(db, "heal", "Bo", "1d4", "--dice", "3", "--reason", "a potion")
    (record,) = healed["records"]
    assert record["kind"] == "combat.healed" and record["data"]["hp_after"] == 3
    assert record["rolls"][0]["breakdown"] == "1d4 (3) = 3"
    back = next(c for c in tk(db, "status")["combat"]["combatants"] if c["name"] == "Bo")
    assert "unconscious" not in back["conditions"] and back["hp"] == 3
    assert tk(db, "heal", "Bo", "9")["records"][0]["data"]["hp_after"] == 5  # never above most
    tk(db, "combat", "end")
    assert {c["name"]: c["hp"] for c in tk(db, "party", "show")["characters"]}["Bo"] == 5
