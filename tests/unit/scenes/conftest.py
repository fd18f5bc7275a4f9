"""A Dungeoneers table in play, for the scene tests, and the moves most of them make."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from turnkeeper.dice import SeededDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.scenes import SceneTable, TakeSpotlight, dungeoneers_rules

Refused = Callable[[SceneTable, object, str], None]
Spotlight = Callable[[SceneTable, str], None]
PlayRound = Callable[[SceneTable, str], list[object]]


@pytest.fixture
def table() -> SceneTable:
    """A fresh table on the dg preset with seeded dice."""
    return SceneTable(dungeoneers_rules(), SeededDice(11))


@pytest.fixture
def refused() -> Refused:
    """``refused(table, command, says)``: the command is illegal, its message says why, and
    the table is unchanged."""

    def check(table: SceneTable, command: object, says: str) -> None:
        before = table.state
        with pytest.raises(IllegalCommandError, match=says):
            table.execute(command)  # type: ignore[arg-type]
        assert table.state == before

    return check


@pytest.fixture
def spotlight() -> Spotlight:
    """``spotlight(table, player)``: every player of the scene votes for ``player`` (DG-SPOT-1)."""

    def take(table: SceneTable, player: str) -> None:
        assert table.state.scene is not None
        table.execute(TakeSpotlight(votes={name: player for name in table.state.scene.players}))

    return take
