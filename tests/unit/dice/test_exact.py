"""Exact odds of dice notation, checked against numbers worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from turnkeeper.dice import DiceNotationError, format_fraction, parse


@pytest.mark.parametrize(
    ("text", "mean"),
    [
        ("3d6", Fraction(21, 2)),
        ("4d6kh3", Fraction(15869, 1296)),
        ("4d6pl1", Fraction(15869, 1296)),
        ("2d20kl1", Fraction(287, 40)),  # sum of (j/20)^2 for j = 1..20
        ("2d20kh1", Fraction(553, 40)),
        ("2d4x10", Fraction(50)),
        ("d%", Fraction(101, 2)),
        ("1d6rr1", Fraction(4)),  # 2..6 uniformly
        ("1d6ro1", Fraction(7, 2) + Fraction(1, 6) * Fraction(5, 2)),
        ("3d6k>3", Fraction(3 * 15, 6)),
        ("1d20+5", Fraction(31, 2)),
        ("-1d4", Fraction(-5, 2)),
    ],
)
def test_exact_means(text: str, mean: Fraction) -> None:
    assert parse(text).mean() == mean


def test_exploding_d6_mean_follows_the_bounded_series() -> None:
    # Each of the first EXPLODE_DEPTH + 1 dice is reached with chance (1/6)^k.
    from turnkeeper.dice import EXPLODE_DEPTH

    expected = sum(Fraction(7, 2) * Fraction(1, 6) ** k for k in range(EXPLODE_DEPTH + 1))
    assert parse("1d6e6").mean() == expected


def test_floor_division_distribution() -> None:
    assert parse("1d4/2").distribution() == {
        0: Fraction(1, 4),
        1: Fraction(1, 2),
        2: Fraction(1, 4),
    }


def test_dice_times_dice() -> None:
    distribution = parse("1d2*1d2").distribution()
    assert distribution == {1: Fraction(1, 4), 2: Fraction(1, 2), 4: Fraction(1, 4)}


def test_division_by_a_die_that_can_be_zero_is_refused() -> None:
    with pytest.raises(DiceNotationError, match="division by zero"):
        parse("6/(1d4-1)").distribution()
    assert parse("6/1d3").distribution() == {
        2: Fraction(1, 3),
        3: Fraction(1, 3),
        6: Fraction(1, 3),
    }


def test_names_in_exact_odds() -> None:
    assert parse("HDd8").mean({"HD": 3}) == Fraction(27, 2)
    with pytest.raises(DiceNotationError, match="HD"):
        parse("HDd8").mean()


def test_distribution_sums_to_one() -> None:
    assert sum(parse("4d6rr1kh3+1d8e8").distribution().values()) == 1


def test_format_fraction() -> None:
    assert format_fraction(Fraction(1, 6)) == "1/6"
    assert format_fraction(Fraction(20)) == "20"
    assert format_fraction(Fraction(-3, 4)) == "-3/4"


def test_sample_shape_and_type() -> None:
    sample = parse("4d6kh3").sample(1000, np.random.default_rng(1))
    assert sample.shape == (1000,)
    assert sample.dtype == np.int64
    assert sample.min() >= 3
    assert sample.max() <= 18


def test_sample_division_by_zero_is_a_notation_error() -> None:
    with pytest.raises(DiceNotationError):
        parse("6/(1d2-1)").sample(1000, np.random.default_rng(1))


def test_reroll_once_of_every_face_is_the_same_die() -> None:
    # Found by hypothesis: icepool divides by zero when every face is rerolled once.
    assert parse("d1ro1").distribution() == {1: Fraction(1)}
    assert parse("d3ro<4").distribution() == parse("d3").distribution()


def test_every_face_exploding_runs_every_chain_to_the_bound() -> None:
    """d2rr1e2 (hypothesis found it): only 2 is left and it always explodes, so each die is
    EXPLODE_DEPTH + 1 twos, in the odds as in the rolling."""
    from turnkeeper.dice import SeededDice, roll
    from turnkeeper.dice.nodes import EXPLODE_DEPTH

    assert parse("d2rr1e2").distribution() == {2 * (EXPLODE_DEPTH + 1): Fraction(1)}
    assert roll("d2rr1e2", SeededDice(1)).total == 2 * (EXPLODE_DEPTH + 1)
    assert parse("2d1e1").distribution() == {2 * (EXPLODE_DEPTH + 1): Fraction(1)}


def test_a_thousand_dice_are_weighed_without_recursing() -> None:
    # 1000 dice is within MAX_DICE; icepool's `count @ die` recursed once per die and
    # raised RecursionError instead of giving the odds.
    assert parse("1000d1").mean() == Fraction(1000)


@pytest.mark.parametrize("text", ["2d10000", "100d100", "d10000*d1000", "1000d6kh500"])
def test_too_costly_exact_odds_are_refused_at_once(text: str) -> None:
    # These took from 30 s to minutes; a designer gets one clear error instead.
    with pytest.raises(DiceNotationError, match="too many outcomes to weigh exactly"):
        parse(text).distribution()
