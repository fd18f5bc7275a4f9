"""`map reveal` and `map hide`: the referee puts hexes and features on the party's map by hand,
the journal records it for the table (a hide for the referee alone), and the players' map
shows it at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from turnkeeper.errors import NotFoundError
from turnkeeper.world.generate import generate_map
from turnkeeper.world.mapfile import dumps_map

from .conftest import Tk

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def db(tmp_path: Path, tk: Tk) -> str:
    db = str(tmp_path / "wild.db")
    hexmap = generate_map(20, 15, seed=4)
    path = tmp_path / "wild.toml"
    path.write_text(dumps_map(hexmap, "toml"), encoding="utf-8")
    tk(db, "new", "wild", "--ruleset", "tp", "--party", str(EXAMPLES / "party.toml"))
    tk(db, "map", "load", str(path), "--at", "0505")
    return db


def players_map(db: str, tk: Tk, tmp_path: Path) -> str:
    out = tmp_path / "known.svg"
    tk(db, "map", "show", "--player", "--out", str(out), "--force")  # drawn again and again
    return out.read_text(encoding="utf-8")


def far_feature() -> tuple[str, str]:
    """A feature far from 0505 that the party has not seen: its name and its hex."""
    hexmap = generate_map(20, 15, seed=4)
    for hex_, feature in hexmap.all_features():
        if hex_.col > 12:
            return feature.name, hex_.label
    raise AssertionError("the generated map has no feature in its east")


def test_a_revealed_hex_and_feature_reach_the_players_map_and_log(
    db: str, tk: Tk, tmp_path: Path
) -> None:
    name, where = far_feature()
    before = players_map(db, tk, tmp_path)
    assert ">1010</text>" not in before and name not in before
    tk(db, "map", "reveal", "1010", "--feature", name.upper())
    after = players_map(db, tk, tmp_path)
    assert ">1010</text>" in after and name in after and f">{where}</text>" in after
    told = tk(db, "log", "--player", as_json=False)
    assert f"the party learns of hexes 1010, {where} and {name}" in told


def test_a_hide_is_the_referees_alone_and_takes_them_off_the_players_map(
    db: str, tk: Tk, tmp_path: Path
) -> None:
    name, _ = far_feature()
    tk(db, "map", "reveal", "1010", "--feature", name)
    tk(db, "map", "hide", "1010", "--feature", name)
    shown = players_map(db, tk, tmp_path)
    assert ">1010</text>" not in shown and name not in shown
    assert "taken off" not in tk(db, "log", "--player", as_json=False)
    assert "taken off the party's map" in tk(db, "log", as_json=False)


def test_an_unknown_hex_or_feature_is_one_error_and_changes_nothing(db: str, tk: Tk) -> None:
    version = tk(db, "status")["version"]
    with pytest.raises(NotFoundError, match="hex 9999 is off the map"):
        tk(db, "map", "reveal", "9999")
    with pytest.raises(NotFoundError, match="no feature called 'Atlantis'"):
        tk(db, "map", "reveal", "--feature", "Atlantis")
    assert tk(db, "status")["version"] == version


def test_tp_wil_10_a_revealed_hex_is_a_travel_destination(tmp_path: Path, tk: Tk) -> None:
    """TP-WIL-10: travel differs from exploration "simply by the knowledge of the
    destination": after `map reveal 0001 0002 0003 0004` (a bought map), `travel 0004` is
    travel, not refused as "not a known destination"."""
    db = str(tmp_path / "vale.db")
    path = tmp_path / "vale.toml"
    path.write_text(
        'name = "Vale"\nwidth = 1\nheight = 6\nterrain = ["p", "p", "p", "p", "p", "p"]\n'
    )
    tk(db, "new", "vale", "--ruleset", "tp", "--party", str(EXAMPLES / "party.toml"))
    tk(db, "map", "load", str(path), "--at", "0000")
    tk(db, "map", "reveal", "0001", "0002", "0003", "0004")
    went = tk(db, "travel", "0004")
    moves = [r["data"]["movement"] for r in went["records"] if r["kind"] == "wilderness.moved"]
    assert moves and set(moves) == {"travel"}
