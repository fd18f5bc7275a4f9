"""Usage dice (PG-USE-1): stepping down on 1-2, depletion on the d4, and the exact lifetime."""

from __future__ import annotations

from fractions import Fraction

import pytest

from turnkeeper.dice import (
    DEFAULT_CHAIN,
    DiceNotationError,
    SeededDice,
    TypedDice,
    UsageDie,
    usage_lifetime,
)


def test_pg_use_1_steps_down_on_1_or_2() -> None:
    for face in (1, 2):
        after, rolled = UsageDie(12).use(TypedDice([face]))
        assert after == UsageDie(10)
        assert (rolled.sides, rolled.face, rolled.typed_in) == (12, face, True)


def test_pg_use_1_stays_on_3_or_more() -> None:
    for face in range(3, 9):
        assert UsageDie(8).use(TypedDice([face]))[0] == UsageDie(8)


def test_pg_use_1_d4_on_1_or_2_is_depleted() -> None:
    for face in (1, 2):
        after, _ = UsageDie(4).use(TypedDice([face]))
        assert after.depleted
        assert str(after) == "depleted"
    assert not UsageDie(4).use(TypedDice([3]))[0].depleted


def test_pg_use_1_walks_the_whole_chain() -> None:
    die = UsageDie.parse("d12")
    seen = [str(die)]
    for face in (1, 2, 1, 2, 1):
        die, _ = die.use(TypedDice([face]))
        seen.append(str(die))
    assert seen == ["d12", "d10", "d8", "d6", "d4", "depleted"]


def test_pg_use_1_depleted_cannot_be_used() -> None:
    with pytest.raises(DiceNotationError, match="depleted"):
        UsageDie(None).use(SeededDice(1))


def test_usage_die_parse_and_print() -> None:
    assert UsageDie.parse("d8") == UsageDie(8)
    assert UsageDie.parse("depleted") == UsageDie(None)
    assert str(UsageDie.parse(" D6 ")) == "d6"
    with pytest.raises(DiceNotationError, match="not a usage die"):
        UsageDie.parse("d7")
    with pytest.raises(DiceNotationError, match="not a usage die"):
        UsageDie.parse("lots")


def test_usage_die_with_another_chain() -> None:
    chain = (20, 12, 8)
    assert UsageDie(20, chain).use(TypedDice([2]))[0] == UsageDie(12, chain)
    assert UsageDie(8, chain).use(TypedDice([1]))[0].depleted


def test_pg_use_1_mean_lifetime_from_d12_is_20() -> None:
    lifetime = usage_lifetime(12)
    assert lifetime.mean == 20
    assert isinstance(lifetime.mean, Fraction)


def test_pg_use_1_mean_lifetime_from_d6_is_5() -> None:
    assert usage_lifetime(6).mean == 5


@pytest.mark.parametrize("sides", DEFAULT_CHAIN)
def test_pg_use_1_lifetime_sums_to_one_within_the_cut(sides: int) -> None:
    lifetime = usage_lifetime(sides)
    assert lifetime.tail_cut_below == 1e-12
    missing = 1 - sum(lifetime.distribution.values())
    assert 0 < missing < Fraction(1, 10**12)
    # The cut distribution's own mean falls just short of the exact mean.
    partial = sum(n * p for n, p in lifetime.distribution.items())
    assert lifetime.mean - Fraction(1, 10**6) < partial < lifetime.mean


def test_pg_use_1_d4_lifetime_is_geometric() -> None:
    distribution = usage_lifetime(4).distribution
    for uses in range(1, 20):
        assert distribution[uses] == Fraction(1, 2) ** uses


def test_pg_use_1_d6_lifetime_first_values() -> None:
    # d6 steps on 1/3, then d4 depletes on 1/2: P(2) = 1/3 * 1/2, P(3) = 1/6 * (2/3 + 1/2).
    distribution = usage_lifetime(6).distribution
    assert 1 not in distribution
    assert distribution[2] == Fraction(1, 6)
    assert distribution[3] == Fraction(1, 6) * (Fraction(2, 3) + Fraction(1, 2))


def test_pg_use_1_lifetime_agrees_with_simulation() -> None:
    dice = SeededDice(2024)
    total = 0
    runs = 4000
    for _ in range(runs):
        die = UsageDie(12)
        while not die.depleted:
            die, _ = die.use(dice)
            total += 1
    # Lifetime variance from d12 is sum of (1-p)/p^2 = 30+20+12+6+2 = 70; 5 sigma of the mean.
    assert abs(total / runs - 20) < 5 * (70 / runs) ** 0.5


def test_usage_lifetime_step_on_is_a_parameter() -> None:
    assert usage_lifetime(6, step_on=3).mean == Fraction(6, 3) + Fraction(4, 3)
