"""The CLI's player view goes through the same filter as the web's: no seed, no secrets."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.integration.conftest import Tk


def test_log_for_players_keeps_lines_and_rolls_never_the_seed_or_referee_events(
    tk: Tk, tmp_path
) -> None:
    db = str(tmp_path / "keep.db")
    tk(db, "new", "keep", "--ruleset", "ex", "--seed", "424242")
    tk(db, "site", "enter", "examples/site.toml")
    tk(db, "turn")
    tk(db, "turn", "--dice", "6")  # turn 2 makes the referee's wandering check (EX-ENC-1)
    referee = tk(db, "log")
    players = tk(db, "log", "--player")
    assert any(r["visibility"] == "referee" for r in referee)
    assert "424242" in json.dumps(referee)
    assert "424242" not in json.dumps(players)
    assert all("data" not in r for r in players)
    assert {r["seq"] for r in players} < {r["seq"] for r in referee}
    assert "wandering check" not in json.dumps(players)
