"""Fixtures shared by the unit tests of campaigns and their procedures: a journal under any
preset, with a small party."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from turnkeeper.campaign import Journal, parse_party
from turnkeeper.rules.loader import preset

PARTY = """
leader = "Aldo"

[[characters]]
name = "Aldo"
class = "fighter"
level = 2
hp = 10
ac = 15
stats = { STR = 2, DEX = 0, CHA = 1 }

[[characters]]
name = "Bea"
class = "thief"
level = 1
hp = 4
stats = { DEX = 2 }

[supplies]
rations = 4
water = 4
torches = 2
oil = 1
arrows = "d10"
"""

MakeJournal = Callable[..., Journal]


@pytest.fixture
def make_journal() -> MakeJournal:
    """``make_journal("ex", seed=1, party=TOML)``: a fresh campaign's journal."""

    def make(name: str = "ex", seed: int = 1, party: str = PARTY) -> Journal:
        return Journal.start("test", preset(name), parse_party(party), seed)

    return make
