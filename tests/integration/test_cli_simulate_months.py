"""CLI: ``simulate months``, the factions' month turns run as a designer would: the table,
``--json`` with every month, ``--vs`` a ruleset file, ``--plot`` and one-line refusals."""

from __future__ import annotations

import json
from importlib.resources import files as package_files
from pathlib import Path

import pytest
from tests.integration.conftest import printed, refused

import turnkeeper.cli  # noqa: F401  (registers every verb group)

#: tp with every faction's roll a point higher: fewer troubles, more strikes.
BOLD = """
extends = "tp"
[ruleset]
name = "bold"
title = "TP with bolder factions"
[factions]
roll = "2d6+RESOURCES+1"
"""


@pytest.fixture
def files(tmp_path: Path) -> Path:
    shipped = package_files("turnkeeper.examples") / "factions.toml"
    (tmp_path / "factions.toml").write_text(shipped.read_text("utf-8"), encoding="utf-8")
    (tmp_path / "bold.toml").write_text(BOLD, encoding="utf-8")
    return tmp_path


def _months(files: Path, *extra: str) -> list[str]:
    return ["simulate", "months", "--factions", str(files / "factions.toml"), *extra]


def test_tp_time_1_json_gives_every_month_and_its_standard_error(files: Path) -> None:
    """rule: TP-TIME-1 - Grey Court needs 3 segments, one a month at best: never by month 2;
    a goal once reached stays reached, and the shares' errors are sqrt(p (1 - p) / runs)."""
    data = json.loads(printed(*_months(files, "--months", "36", "--runs", "4000", "--json")))
    assert (data["ruleset"], data["months"], data["runs"], data["seed"]) == ("tp", 36, 4000, 0)
    hand, court, _ = data["factions"]
    assert (hand["name"], hand["segments"], court["goal"]) == ("Red Hand", 4, "crown a king")
    assert court["reached"][:2] == [0.0, 0.0] and court["reached"][2] > 0
    for faction in (hand, court):
        assert len(faction["reached"]) == 36 and faction["reached"] == sorted(faction["reached"])
        p, error = faction["reached"][9], faction["standard_error"][9]
        assert error == pytest.approx((p * (1 - p) / 4000) ** 0.5, abs=1e-6)
        assert (
            faction["reached"][faction["half_by"] - 1]
            >= 0.5
            > faction["reached"][faction["half_by"] - 2]
        )


def test_a_second_ruleset_side_by_side_in_a_table_and_a_plot(files: Path) -> None:
    """--vs a ruleset file: both rulesets per faction in the table, dashed in the plot; the
    same seed gives the same figures."""
    plot = files / "goals.svg"
    args = _months(files, "--months", "36", "--runs", "3000", "--vs", str(files / "bold.toml"))
    table = printed(*args, "--plot", str(plot))
    assert "tp against bold" in table and "half by" in table and "month 6" in table
    assert "plotted in" in table and "Grey Court (bold)" in plot.read_text(encoding="utf-8")
    data = json.loads(printed(*args, "--json"))
    tp, bold = data["compared"]
    assert (tp["ruleset"], bold["ruleset"]) == ("tp", "bold")
    assert tp["factions"][0]["reached"] != bold["factions"][0]["reached"]
    assert json.loads(printed(*args, "--json")) == data


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (("--months", "0"), "--months 0: simulate from 1 to 1,200 months"),
        (("--months", "1201"), "1,200"),
        (("--runs", "0"), "--runs 0: simulate from 1"),
        (("--seed", "-1"), "--seed -1"),
        (("--plot", "goals.gif"), ".png or .svg"),
        (("--ruleset", "nonesuch"), "nonesuch"),
    ],
)
def test_bad_input_is_one_clear_line(files: Path, extra: tuple[str, ...], words: str) -> None:
    assert words in refused(*_months(files, "--runs", "10", *extra))


def test_a_bad_factions_file_is_one_clear_line(files: Path) -> None:
    broken = files / "broken.toml"
    broken.write_text('[[factions]]\nname = "Red Hand"\ngoal = "rule"\nsegments = 40\n')
    args = ["simulate", "months", "--runs", "10", "--factions"]
    assert "broken.toml: factions.0.segments" in refused(*args, str(broken))
    assert "no such factions file" in refused(*args, str(files / "missing.toml"))
    roll = files / "roll.toml"
    roll.write_text('extends = "tp"\n[factions]\nroll = "2d6+FORCE"\n')
    found = refused(*_months(files, "--runs", "10", "--ruleset", str(roll)))
    assert "names FORCE" in found and "RESOURCES" in found
