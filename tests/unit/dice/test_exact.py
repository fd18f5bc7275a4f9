"""Exact odds of dice notation, checked against numbers worked out by hand."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from turnkeeper.dice import DiceNotationError, format_fraction, parse
from turnkeeper.dice.exact import distribution, mean
from turnkeeper.dice.sampling import sample


@pytest.mark.parametrize(
    ("text", "expected"),
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
def test_exact_means(text: str, expected: Fraction) -> None:
    assert mean(parse(text)) == expected


def test_exploding_d6_mean_follows_the_bounded_series() -> None:
    # Each of the first EXPLODE_DEPTH + 1 dice is reached with chance (1/6)^k.
    from turnkeeper.dice import EXPLODE_DEPTH

    expected = sum(Fraction(7, 2) * Fraction(1, 6) ** k for k in range(EXPLODE_DEPTH + 1))
    assert mean(parse("1d6e6")) == expected


def test_floor_division_distribution() -> None:
    assert distribution(parse("1d4/2")) == {
        0: Fraction(1, 4),
        1: Fraction(1, 2),
        2: Fraction(1, 4),
    }


def test_dice_times_dice() -> None:
    assert distribution(parse("1d2*1d2")) == {
        1: Fraction(1, 4),
        2: Fraction(1, 2),
        4: Fraction(1, 4),
    }


def test_division_by_a_die_that_can_be_zero_is_refused() -> None:
    with pytest.raises(DiceNotationError, match="division by zero"):
        distribution(parse("6/(1d4-1)"))
    assert distribution(parse("6/1d3")) == {
        2: Fraction(1, 3),
        3: Fraction(1, 3),
        6: Fraction(1, 3),
    }


def test_names_in_exact_odds() -> None:
    assert mean(parse("HDd8"), {"HD": 3}) == Fraction(27, 2)
    with pytest.raises(DiceNotationError, match="HD"):
        mean(parse("HDd8"))


def test_distribution_sums_to_one() -> None:
    assert sum(distribution(parse("4d6rr1kh3+1d8e8")).values()) == 1


def test_format_fraction() -> None:
    assert format_fraction(Fraction(1, 6)) == "1/6"
    assert format_fraction(Fraction(20)) == "20"
    assert format_fraction(Fraction(-3, 4)) == "-3/4"


def test_sample_shape_and_type() -> None:
    drawn = sample(parse("4d6kh3"), 1000, np.random.default_rng(1))
    assert drawn.shape == (1000,)
    assert drawn.dtype == np.int64
    assert drawn.min() >= 3
    assert drawn.max() <= 18


def test_sample_division_by_zero_is_a_notation_error() -> None:
    with pytest.raises(DiceNotationError):
        sample(parse("6/(1d2-1)"), 1000, np.random.default_rng(1))


def test_reroll_once_of_every_face_is_the_same_die() -> None:
    # Found by hypothesis: icepool divides by zero when every face is rerolled once.
    assert distribution(parse("d1ro1")) == {1: Fraction(1)}
    assert distribution(parse("d3ro<4")) == distribution(parse("d3"))


def test_an_explosion_that_can_never_stop_is_refused_as_d20_refuses_it() -> None:
    """1d1e1 and e<21 on a d20 explode on every face, as d20 refuses them (TooManyRolls).
    d2rr1e2 stops: in written order the reroll acts before the explosion, and the new dice
    are not rerolled, so a 1 stops the chain."""
    for text in ("2d1e1", "1d1e1", "1d6e>0", "1d20e<21", "1d6e1e2e3e4e5e6"):
        with pytest.raises(DiceNotationError, match="would never stop"):
            parse(text)
    assert distribution(parse("1d2e2"))[1] == Fraction(1, 2)  # a 1 stops it
    assert distribution(parse("d2rr1e2"))[3] == Fraction(1, 2)  # 2, then a 1


def test_a_thousand_dice_are_weighed_without_recursing() -> None:
    # 1000 dice is within MAX_DICE; icepool's `count @ die` recursed once per die and
    # raised RecursionError instead of giving the odds.
    assert mean(parse("1000d1")) == Fraction(1000)


@pytest.mark.parametrize("text", ["2d10000", "100d100", "d10000*d1000", "1000d6kh500"])
def test_too_costly_exact_odds_are_refused_at_once(text: str) -> None:
    # These took from 30 s to minutes; a designer gets one clear error instead.
    with pytest.raises(DiceNotationError, match="too many outcomes to weigh exactly"):
        distribution(parse(text))


@pytest.mark.parametrize(
    "text", ["1d9e>1kh1", "9d9e9kh9", "10d10eh5", "(9d9, 9d9, 9d9, 9d9, 9d9)kh2"]
)
def test_pools_too_large_to_weigh_are_refused_within_seconds(text: str) -> None:
    """Pools weighed bag by bag (explosions before a keep, highest/lowest picks) have their
    own, lower limit, checked on the work done so far: these filled memory for minutes."""
    with pytest.raises(DiceNotationError, match="too many outcomes to weigh exactly"):
        distribution(parse(text))


def test_many_exploding_dice_are_sampled_in_batches() -> None:
    # 1000 dice exploding on 2 to 6: 20,000 samples drawn at once filled memory; these
    # come in batches of about 200.
    drawn = sample(parse("1000d6e>1"), 1_000, np.random.default_rng(3))
    assert drawn.shape == (1_000,)
    assert abs(drawn.mean() - 1000 * 3.5 * 6) < 500  # each chain about six dice
