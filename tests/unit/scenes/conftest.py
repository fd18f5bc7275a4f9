"""A Dungeoneers table in play, for the scene tests."""

from __future__ import annotations

import pytest

from turnkeeper.dice import SeededDice
from turnkeeper.procedures.scenes import SceneTable, dungeoneers_rules


@pytest.fixture
def table() -> SceneTable:
    """A fresh table on the dg preset with seeded dice."""
    return SceneTable(dungeoneers_rules(), SeededDice(11))
