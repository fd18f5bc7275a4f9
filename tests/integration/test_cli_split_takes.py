"""What leavers take in `party split` (issue 42): counted supplies by count, given as a
comma-separated list or again and again, and a usage-die supply (PG-USE-1) whole.

The project's reading: a usage die tracks one stock and cannot be divided, so a split gives
it whole to one side; `--take arrows` gives it to the leavers, and leaving it out keeps it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from turnkeeper.errors import IllegalCommandError

if TYPE_CHECKING:
    from tests.integration.conftest import Tk

BARROW = """
[[characters]]
name = "Aldo"
hp = 8
[[characters]]
name = "Bea"
hp = 6

[supplies]
rations = 6
torches = 3
arrows = "d8"
"""


@pytest.fixture
def db(tmp_path: Path, tk: Tk) -> str:
    """A pg campaign, Barrow, whose party carries 6 rations, 3 torches and arrows d8."""
    party = tmp_path / "party.toml"
    party.write_text(BARROW, encoding="utf-8")
    path = str(tmp_path / "s.db")
    tk(path, "new", "Barrow", "--ruleset", "pg", "--party", str(party), "--seed", "1")
    return path


def supplies(status: dict[str, object]) -> dict[str, object]:
    away = status["away"]
    assert isinstance(away, list)
    return {"Barrow": status["supplies"], **{a["name"]: a["supplies"] for a in away}}


def test_take_is_a_comma_separated_list_as_well_as_repeated(db: str, tk: Tk) -> None:
    """`--take rations=2,torches=1` is the same as `--take rations=2 --take torches=1`."""
    split = tk(db, "party", "split", "Grey Band", "Bea", "--take", "rations=2,torches=1")
    assert split["records"][0]["data"]["supplies"]["counted"] == {"rations": 2, "torches": 1}
    held = supplies(tk(db, "status"))
    assert held["Barrow"] == {"counted": {"rations": 4, "torches": 2}, "dice": {"arrows": 8}}
    assert held["Grey Band"] == {"counted": {"rations": 2, "torches": 1}, "dice": {}}


def test_pg_use_1_a_usage_die_goes_whole_with_the_leavers(db: str, tk: Tk) -> None:
    """PG-USE-1: arrows d8 cannot be divided; `--take arrows` gives the leavers the d8 and
    leaves the party that stays none; a join brings it back."""
    split = tk(db, "party", "split", "Grey Band", "Bea", "--take", "rations=2", "--take", "arrows")
    (record,) = split["records"]
    assert record["data"]["supplies"] == {"counted": {"rations": 2}, "dice": {"arrows": 8}}
    assert record["text"].endswith("taking 2 rations, arrows d8")
    held = supplies(tk(db, "status"))
    assert held["Barrow"] == {"counted": {"rations": 4, "torches": 3}, "dice": {}}
    assert held["Grey Band"] == {"counted": {"rations": 2}, "dice": {"arrows": 8}}
    tk(db, "party", "join", "Grey Band")
    assert tk(db, "status")["supplies"]["dice"] == {"arrows": 8}


@pytest.mark.parametrize(
    ("take", "says"),
    [
        (
            "arrows=2",
            "Barrow carries arrows as a usage die (d8), which cannot be divided: it goes whole "
            "to one side; write --take arrows for the leavers to take it all, or leave it out "
            "to keep it (PG-USE-1)",
        ),
        ("rations", "Barrow carries 6 rations, counted, not a usage die: write --take rations=N"),
        ("sling_stones", "Barrow carries no sling stones; it carries 6 rations, 3 torches"),
        ("rations=", "'rations=': write ITEM=COUNT, e.g. rations=2, or ITEM for a die"),
    ],
)
def test_pg_use_1_a_take_that_cannot_be_is_refused_saying_what_to_write(
    db: str, tk: Tk, take: str, says: str
) -> None:
    version = tk(db, "status")["version"]
    with pytest.raises((IllegalCommandError, ValueError)) as caught:
        tk(db, "party", "split", "Grey Band", "Bea", "--take", take)
    assert says in str(caught.value)
    assert tk(db, "status")["version"] == version
