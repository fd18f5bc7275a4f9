"""The CLI verbs for rulesets and tables: rulesets, rules show|check|explain, table roll|list."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers every verb group)
from turnkeeper.cli.app import app
from turnkeeper.errors import NotFoundError, RulesetError, TurnkeeperError
from turnkeeper.rules import preset
from turnkeeper.rules.reference import entry_lines, find_rule, rule_reference

runner = CliRunner()


def run_json(*args: str) -> object:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_rulesets_lists_the_five_presets() -> None:
    data = run_json("rulesets")
    assert isinstance(data, list)
    assert [(row["name"], row["prefix"]) for row in data] == [
        ("cb", "CB"),
        ("dg", "DG"),
        ("ex", "EX"),
        ("pg", "PG"),
        ("tp", "TP"),
    ]
    # each names its rules text by its title, and the project's reference for its rules
    assert [row["text"] for row in data] == [
        "combat",
        "Core Mechanics (Dungeoneers)",
        "Exploration",
        "Playing the Game",
        "Turn-based Play Procedures",
    ]
    people = runner.invoke(app, ["rulesets"])
    assert people.exit_code == 0 and "Turn-based Play Procedures" in people.stdout
    assert "docs/rules.md" in people.stdout


def test_rules_show_json_is_the_resolved_ruleset() -> None:
    data = run_json("rules", "show", "tp")
    assert data == preset("tp").model_dump(mode="json")
    assert isinstance(data, dict)
    assert data["travel"]["terrain"]["hills"] == "2/3"  # TP-WIL-4
    assert data["tables"]["reaction"]["dice"] == "2d6+CHA"  # inherited from the fragment


def test_rules_show_for_people_renders_a_tree(tmp_path: Path) -> None:
    result = runner.invoke(app, ["rules", "show", "ex"])
    assert result.exit_code == 0
    assert "feet_per_turn = 360" in result.stdout  # EX-MOV-2


def test_rules_show_prints_lists_of_words() -> None:
    # Issue 15: a list of words read as Rich markup and printed empty.
    pg = runner.invoke(app, ["rules", "show", "pg"])
    assert pg.exit_code == 0
    assert "strength_damage_classes = [fighter]" in pg.stdout
    dg = runner.invoke(app, ["rules", "show", "dg"])
    assert "ticks_on = [combat_round, social_round]" in dg.stdout
    assert "ticks_on = []" in dg.stdout  # the generic countdown: only when a rule says so


def test_rules_show_names_the_text_and_the_projects_reference() -> None:
    tp = runner.invoke(app, ["rules", "show", "tp"])
    assert tp.exit_code == 0
    assert "text = Turn-based Play Procedures" in tp.stdout
    assert "docs/rules.md" in tp.stdout and "turnkeeper rules explain tp" in tp.stdout
    assert ".txt" not in tp.stdout and "catalogue" not in tp.stdout


def test_rules_explain_prints_the_references_entry() -> None:
    result = runner.invoke(app, ["rules", "explain", "tp-wil-7"])
    assert result.exit_code == 0, result.output
    rule_id, entry = find_rule("TP-WIL-7")
    assert result.stdout == "\n".join(entry_lines(rule_id, entry)) + "\n"
    assert result.stdout.startswith("TP-WIL-7: ")
    assert "travel.max_movement_factor = 2" in result.stdout
    assert "text: Turn-based Play Procedures, preset tp" in result.stdout


def test_rules_explain_json() -> None:
    data = run_json("rules", "explain", "CB-ACT-5")
    assert isinstance(data, dict)
    assert data["id"] == "CB-ACT-5" and data["origin"] == "default" and data["default"]
    assert data["preset_keys"]["actions.instant_actions_per_round"] == "1"
    assert '"instant"' in data["preset_keys"]["actions.kinds"]
    assert data["text"] == "combat" and data["preset"] == "cb"
    assert all("::test_" in test for test in data["tests"])


def test_rules_explain_a_prefix_lists_the_texts_rules() -> None:
    data = run_json("rules", "explain", "dg")
    assert isinstance(data, list)
    assert data[0] == {
        "id": "DG-LOOP-1",
        "title": find_rule("DG-LOOP-1")[1].title,
        "origin": "text",
    }
    assert len(data) == len(rule_reference().rules) - sum(
        1 for rule_id in rule_reference().rules if not rule_id.startswith("DG-")
    )


def test_rules_explain_loads_no_store_numpy_or_icepool() -> None:
    probe = (
        "import sys\n"
        "from turnkeeper.cli import main\n"
        "sys.argv = ['turnkeeper', 'rules', 'explain', 'pg-sur-1']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = ('sqlalchemy', 'numpy', 'icepool', 'numba', 'fastapi', 'matplotlib')\n"
        "print(sorted(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.startswith("PG-SUR-1: ")
    assert done.stderr.strip().splitlines()[-1] == "[]"


def test_rules_show_a_user_file(tmp_path: Path) -> None:
    path = tmp_path / "slow.toml"
    path.write_text('extends = "tp"\n[travel.terrain]\nhills = "1/2"\n')
    data = run_json("rules", "show", str(path))
    assert isinstance(data, dict)
    assert data["travel"]["terrain"]["hills"] == "1/2"


def test_rules_check_ok_and_error(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text('extends = "pg"\n')
    assert run_json("rules", "check", str(good)) == {
        "ok": True,
        "file": str(good),
        "name": "pg",
        "title": "Playing the Game",
    }
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "tp"\n[travel.terrain]\nhills = "steep"\n')
    result = runner.invoke(app, ["rules", "check", str(bad)])
    assert isinstance(result.exception, RulesetError)
    assert "travel.terrain.hills: expected a fraction" in str(result.exception)


def test_table_roll_reaction_is_reproducible() -> None:
    # rule: PG-REA-1
    first = run_json(
        "table", "roll", "reaction", "--ruleset", "pg", "--set", "CHA=1", "--seed", "9"
    )
    again = run_json(
        "table", "roll", "reaction", "--ruleset", "pg", "--set", "CHA=1", "--seed", "9"
    )
    assert first == again
    assert isinstance(first, dict)
    total = first["total"]
    expected = (
        "hostile"
        if total <= 2
        else "unfriendly"
        if total <= 5
        else "neutral"
        if total <= 8
        else "indifferent"
        if total <= 11
        else "friendly"
    )
    assert first["result"] == expected
    assert first["values"] == {"CHA": 1}


def test_table_roll_overloaded_die_with_milieu() -> None:
    # rule: TP-WENC-3
    seen = set()
    for seed in range(40):
        data = run_json("table", "roll", "wilderness", "--milieu", "desert", "--seed", str(seed))
        assert isinstance(data, dict)
        seen.add((data["face"], data["event"]))
    assert (5, "waning_resources") in seen
    assert all(event != "free_turn" for _, event in seen)


def test_table_roll_initiative_names_the_side() -> None:
    # rule: TP-INI-1
    data = run_json("table", "roll", "initiative", "--seed", "1")
    assert isinstance(data, dict)
    assert data["initiative"] == ("opposition" if data["face"] <= 3 else "party")


def test_table_list() -> None:
    data = run_json("table", "list", "--ruleset", "tp")
    assert isinstance(data, list)
    assert {row["name"] for row in data} == {
        "reaction",
        "encounter",
        "dungeon",
        "initiative",
        "wilderness",
    }


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        (["table", "roll", "nope"], NotFoundError, "has no table or overloaded die 'nope'"),
        (["table", "roll", "wilderness", "--milieu", "jungle"], NotFoundError, "milieus:"),
        (["table", "roll", "reaction"], TurnkeeperError, "--set CHA=0"),
        (["table", "roll", "reaction", "--set", "cha=1"], TurnkeeperError, "NAME=NUMBER"),
        (["rules", "show", "osr"], NotFoundError, "presets: cb, dg, ex, pg, tp"),
        (["rules", "explain", "tp-wil-77"], NotFoundError, "close matches: TP-WIL-7"),
        (["rules", "explain", "wil"], NotFoundError, "a rule ID is a prefix (TP, EX, PG"),
        (["table", "list", "--ruleset", "osr"], NotFoundError, "presets:"),
    ],
)
def test_bad_input_is_one_clear_error(args: list[str], error: type[Exception], words: str) -> None:
    result = runner.invoke(app, args)
    assert isinstance(result.exception, error)
    assert words in str(result.exception)


def test_user_mistake_exits_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "osr"\n')
    process = subprocess.run(
        [
            sys.executable,
            "-c",
            "from turnkeeper.cli import main; main()",
            "rules",
            "check",
            str(bad),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert process.returncode == 2
    lines = process.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "extends: no preset named 'osr'" in lines[0] and str(bad) in lines[0]
    assert process.stdout == ""
