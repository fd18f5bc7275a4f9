"""CLI: turnkeeper roll | odds (JSON shapes, reproducible seeds, typed-in dice, exit 2)."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.cli.app import app, main

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def _main(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    """Run the console entry point itself, where user mistakes become exit code 2."""
    monkeypatch.setattr(sys, "argv", ["turnkeeper", *args])
    with pytest.raises(SystemExit) as stop:
        main()
    captured = capsys.readouterr()
    return int(stop.value.code or 0), captured.out, captured.err


def test_roll_json_shape() -> None:
    code, out = _run("roll", "2d6+1", "--seed", "7", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) >= {"expression", "total", "dice", "breakdown", "seed"}
    assert data["seed"] == 7
    assert isinstance(data["total"], int)
    assert data["total"] == sum(d["face"] for d in data["dice"]) + 1
    assert data["breakdown"].endswith(f"= {data['total']}")


def test_roll_same_seed_same_output() -> None:
    first = _run("roll", "4d6kh3+1d8e8", "--seed", "99", "--json")
    second = _run("roll", "4d6kh3+1d8e8", "--seed", "99", "--json")
    assert first == second
    assert _run("roll", "4d6kh3", "--seed", "99")[1] == _run("roll", "4d6kh3", "--seed", "99")[1]


def test_roll_without_seed_prints_a_seed_that_reproduces_it() -> None:
    data = json.loads(_run("roll", "10d20", "--json")[1])
    again = json.loads(_run("roll", "10d20", "--seed", str(data["seed"]), "--json")[1])
    assert again == data


def test_roll_typed_in_dice() -> None:
    code, out = _run("roll", "2d6+1", "--dice", "3,5", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["total"] == 9
    assert data["breakdown"] == "2d6 (3, 5) + 1 = 9"
    assert data["typed_in"] is True
    assert [d["face"] for d in data["dice"]] == [3, 5]


def test_roll_with_names() -> None:
    data = json.loads(_run("roll", "d20+STR", "--dice", "11", "--set", "STR=2", "--json")[1])
    assert data["total"] == 13


def test_d20s_readme_4d6e6kh3_each_exploded_die_joins_the_pool() -> None:
    """d20's README: 4d6e6kh3 rolled X, 5, 6!, 6!, X, X was 17 (the exploded dice are new
    dice, and keep picks among all six)."""
    code, out = _run("roll", "4d6e6kh3", "--dice", "1,5,6,6,2,1", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["breakdown"] == "4d6e6kh3 (~~1~~, 5, 6!, 6!, ~~2~~, ~~1~~) = 17"
    assert [d["kept"] for d in data["dice"]] == [False, True, True, True, False, False]


def test_d20s_readme_comment_and_annotations_print_as_text() -> None:
    """d20's README: "1d20 I rolled a d20" is 1d20 with a comment; annotations such as
    [fire] are the player's words, printed as they are, never read as markup."""
    code, out = _run("roll", "1d20 I rolled a d20", "--dice", "13", "--json")
    data = json.loads(out)
    assert (code, data["total"], data["comment"]) == (0, 13, "I rolled a d20")
    code, out = _run("roll", "3d6 [fire] + 1d4 [piercing] to hit", "--dice", "3,2,2,3")
    assert code == 0
    assert "to hit: 3d6 (3, 2, 2) [fire] + 1d4 (3) [piercing] = 10" in out
    assert "comment" not in json.loads(_run("roll", "1d20", "--json")[1])
    code, out = _run("odds", "2d6 [fire]")
    assert code == 0 and "odds of 2d6 [fire]" in out


def test_roll_for_people_shows_the_breakdown() -> None:
    code, out = _run("roll", "2d6+1", "--dice", "3,5")
    assert code == 0
    assert "2d6 (3, 5) + 1 = 9" in out


def test_odds_json_is_exact() -> None:
    code, out = _run("odds", "2d6", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["distribution"]["7"] == "1/6"
    assert data["distribution"]["2"] == "1/36"
    assert data["mean"] == "7"
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1


def test_odds_table_for_people() -> None:
    code, out = _run("odds", "1d4")
    assert code == 0
    assert "25.00%" in out
    assert "█" in out
    assert "mean 2½ (2.500)" in out


def test_a_mean_with_no_simple_fraction_is_its_decimal_for_people() -> None:
    """Issue 25: `odds 4d6kh3` printed "mean 15869/1296" for people (and `odds 1d6e6rr1` a
    31-digit fraction); people get the decimal, --json the exact fraction."""
    code, out = _run("odds", "4d6kh3")
    assert code == 0 and "mean about 12.245" in out and "15869/1296" not in out
    code, out = _run("odds", "4d6kh3", "--json")
    assert code == 0 and json.loads(out)["mean"] == "15869/1296"


def test_pg_use_1_odds_usage_d12_json() -> None:
    code, out = _run("odds", "--usage", "d12", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["mean"] == "20"
    assert data["tail_cut_below"] == 1e-12
    total = sum(Fraction(p) for p in data["distribution"].values())
    assert 1 - Fraction(1, 10**12) < total < 1


def test_pg_use_1_odds_usage_d6_for_people_notes_the_cut() -> None:
    code, out = _run("odds", "--usage", "d6")
    assert code == 0
    assert "left out" in out
    assert "5 uses" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("roll", "2d6+"), "ends too soon"),
        (("roll", "2d6 + fire"), "column 7"),
        (("odds", "2d6 ! 1"), "column 5"),
        (("roll", "2d6", "--dice", "3,7"), "a d6 shows 1 to 6"),
        (("roll", "2d6", "--dice", "3"), "not enough typed-in dice"),
        (("roll", "2d6", "--dice", "3,4,5"), "left over"),
        (("roll", "d20+STR"), "STR"),
        (("roll", "d20+STR", "--set", "str=2"), "--set"),
        (("roll", "6/(1d2-1)", "--dice", "1"), "division by zero"),
        (("odds", "6/(1d2-1)"), "division by zero"),
        (("odds", "1d%%"), "column"),
        (("odds", "--usage", "d7"), "not a usage die"),
        (("odds",), "one of them"),
        (("odds", "turn"), "needs a ruleset"),
        (("odds", "turn", "--ruleset", "ex", "--usage", "d12"), "odds turn takes --ruleset"),
        (("odds", "3d6", "--ruleset", "ex"), "for a turn's odds"),
    ],
)
def test_user_mistakes_exit_2_with_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: tuple[str, ...],
    says: str,
) -> None:
    code, out, err = _main(monkeypatch, capsys, *args)
    assert code == 2
    assert out == ""
    assert says in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_version_still_there() -> None:
    code, out = _run("version")
    assert code == 0 and out.strip()


def test_pg_use_1_usage_lifetime_follows_the_rulesets_chain(tmp_path) -> None:
    """PG-USE-1: a ruleset's own chain (d10, d8, d6) gives a d10 a mean of 5 + 4 + 3 = 12 uses."""
    mine = tmp_path / "short-chain.toml"
    mine.write_text('extends = "pg"\nusage_die = [10, 8, 6]\n')
    runner = CliRunner()
    shorter = runner.invoke(app, ["odds", "--usage", "d10", "--ruleset", str(mine), "--json"])
    usual = runner.invoke(app, ["odds", "--usage", "d10", "--json"])
    assert json.loads(shorter.stdout)["mean"] == "12"
    assert json.loads(shorter.stdout)["chain"] == [10, 8, 6]
    assert json.loads(usual.stdout)["mean"] == "14"


def test_pg_use_1_a_long_lifetime_is_summarised_for_people_and_whole_in_json() -> None:
    shown = CliRunner().invoke(app, ["odds", "--usage", "d12"]).stdout
    rows = [line for line in shown.splitlines() if line.startswith("│")]
    assert len(rows) <= 20 and "60+" in shown
    assert "mean 20 (20.000); quartiles 14, 19, 25" in shown
    assert "170 results in bands; --json lists each one" in shown
    data = json.loads(CliRunner().invoke(app, ["odds", "--usage", "d12", "--json"]).stdout)
    assert len(data["distribution"]) == 170 and data["mean"] == "20"


def test_odds_plot_draws_the_histogram_with_its_mean_and_quartiles(tmp_path: Path) -> None:
    picture = tmp_path / "3d6.svg"
    done = CliRunner().invoke(app, ["odds", "3d6", "--plot", str(picture), "--json"])
    assert done.exit_code == 0, done.output
    drawn = picture.read_text(encoding="utf-8")
    assert "mean 10½" in drawn and "median 10" in drawn and "lower quartile 8" in drawn
    assert json.loads(done.stdout)["plot"] == str(picture)
    png = tmp_path / "usage.png"
    assert CliRunner().invoke(app, ["odds", "--usage", "d8", "--plot", str(png)]).exit_code == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    wrong = CliRunner().invoke(app, ["odds", "3d6", "--plot", str(tmp_path / "x.gif")])
    assert "a plot is a .png or .svg file" in str(wrong.exception)


def test_ex_enc_1_odds_turn_vs_answers_for_two_rulesets_side_by_side() -> None:
    data = json.loads(
        CliRunner().invoke(app, ["odds", "turn", "-r", "ex", "--vs", "tp", "--json"]).stdout
    )
    ex, tp = data["compared"]
    assert (ex["ruleset"], tp["ruleset"]) == ("ex", "tp")
    encounter = {o["ruleset"]: o for o in data["compared"]}
    rates = {r["event"]: r for r in encounter["ex"]["events"]}
    assert rates["encounter"]["at_least_one"] == "91/216"  # an hour: 1 in 6 every other turn
    shown = CliRunner().invoke(app, ["odds", "turn", "-r", "ex", "--vs", "tp"]).stdout
    assert "ex against tp" in shown and "42.1%" in shown and "66.5%" in shown
    wrong = CliRunner().invoke(app, ["odds", "3d6", "--vs", "tp"])
    assert "--vs compares rulesets on odds turn" in str(wrong.exception)


def test_every_verb_takes_json_version_too() -> None:
    """Issue 42: every verb takes --json, and `version --json` was refused. `play` is a
    session, not a verb that answers: each of its lines is a verb, which takes --json."""
    from importlib import import_module

    import typer

    from turnkeeper import __version__
    from turnkeeper.cli.app import VERBS

    def without_json(command: object, path: str) -> list[str]:
        subcommands = getattr(command, "commands", None)
        if subcommands is not None:
            return [
                missing
                for name, sub in subcommands.items()
                for missing in without_json(sub, f"{path} {name}")
            ]
        params = getattr(command, "params", [])
        return [] if any("--json" in param.opts for param in params) else [path]

    missing = [
        path
        for name, verb in VERBS.items()
        for path in without_json(
            typer.main.get_group(import_module(f"turnkeeper.cli.{verb.module}").verbs).commands[
                name
            ],
            name,
        )
    ]
    assert missing == ["play"]
    code, out = _run("version", "--json")
    assert code == 0 and json.loads(out) == {"version": __version__}


def test_exact_figures_carry_a_decimal_beside_the_fraction() -> None:
    """Issue 42: `odds --usage d12 --json` printed 170 fractions of up to 190 digits and no
    decimal; each exact figure now has its decimal beside it, the same number."""
    code, out = _run("odds", "--usage", "d12", "--json")
    data = json.loads(out)
    assert code == 0 and data["distribution"].keys() == data["distribution_decimal"].keys()
    for outcome, exact in data["distribution"].items():
        assert data["distribution_decimal"][outcome] == float(Fraction(exact))
    assert data["mean_decimal"] == float(Fraction(data["mean"]))
    code, out = _run("odds", "2d6", "--json")
    assert json.loads(out)["mean_decimal"] == 7.0
