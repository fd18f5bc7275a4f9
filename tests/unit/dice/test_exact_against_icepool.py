"""The exact odds equal icepool computing the same distribution directly (the expressions
bench/dice.py times against icepool), exactly: every chance as a fraction."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import icepool
import pytest

from turnkeeper.dice import EXPLODE_DEPTH, parse
from turnkeeper.dice.exact import distribution

d = icepool.d

#: Each expression with icepool's own way to the same distribution: sums as ``n @ die``,
#: keep and drop through pools, explosions through ``explode`` (each exploded die a new die
#: of the pool: ``explode_to_pool``), rerolls through ``reroll``; a chain stops after
#: EXPLODE_DEPTH new dice, as ours does.
DIRECT: dict[str, Callable[[], icepool.Die]] = {
    "1d20+5": lambda: d(20) + 5,
    "3d6": lambda: 3 @ d(6),
    "10d10": lambda: 10 @ d(10),
    "8d6": lambda: 8 @ d(6),
    "1d100": lambda: d(100),
    "4d6kh3": lambda: d(6).pool(4).highest(3).sum(),
    "2d20kh1": lambda: d(20).pool(2).highest(1).sum(),
    "2d20kl1": lambda: d(20).pool(2).lowest(1).sum(),
    "6d6kl2": lambda: d(6).pool(6).lowest(2).sum(),
    "4d6pl1": lambda: d(6).pool(4).lowest(drop=1).sum(),
    "1d6rr1": lambda: d(6).reroll([1], depth="inf"),
    "2d6ro<3": lambda: 2 @ d(6).reroll([1, 2], depth=1),
    "8d6mi2": lambda: 8 @ d(6).clip(min_outcome=2),
    "3d6e6": lambda: 3 @ d(6).explode([6], depth=EXPLODE_DEPTH),
    "4d6e6kh3": lambda: d(6).explode_to_pool(4, [6], depth=EXPLODE_DEPTH).highest(3).sum(),
}


def _chances(die: icepool.Die) -> dict[int, Fraction]:
    return {outcome: Fraction(q, die.denominator()) for outcome, q in die.items()}


@pytest.mark.parametrize("text", list(DIRECT))
def test_exact_odds_equal_icepools_own_distribution(text: str) -> None:
    assert distribution(parse(text)) == _chances(DIRECT[text]())
