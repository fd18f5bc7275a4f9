"""avrae/d20's notation with d20's results: the expressions of d20's README and tests, each
operation checked three ways (a recorded roll, the exact odds, a numpy sample)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from turnkeeper.dice import EXPLODE_DEPTH, DiceNotationError, SeededDice, TypedDice, parse, roll
from turnkeeper.dice.exact import distribution, mean
from turnkeeper.dice.sampling import sample

# d20's tests/test_dice.py: expressions whose total is certain, with d20's expected total.
D20_CERTAIN = [
    ("1+1", 2), ("(1)", 1), ("(1,)", 1), ("1.5", 1), ("0.5", 0), (".5", 0), ("0d6", 0),
    ("(1, 1)", 2), ("+1", 1), ("-1", -1), ("--1", 1), ("-+-++---+1", -1),
    ("2 + 2", 4), ("2 - 2", 0), ("2 * 5", 10), ("15 / 2", 7), ("15 // 2", 7), ("13 % 2", 1),
    ("1 + 3 * 6", 19), ("1 + (3 * 6)", 19), ("(1 + 3) * 6", 24), ("1 + 2 + 3", 6),
    ("1 + 2 == 2", 0), ("1 + (2 == 2)", 2),
    ("1 == 1", 1), ("1 == 2", 0), ("1 > 1", 0), ("2 > 1", 1), ("1 < 1", 0), ("1 < 2", 1),
    ("1 >= 1", 1), ("1 >= 2", 0), ("1 <= 1", 1), ("2 <= 1", 0), ("1 != 1", 0), ("1 != 2", 1),
    ("(1, 2, 3, 4, 5)k3", 3), ("(1, 2, 3, 4, 5)k<3", 3), ("(1, 2, 3, 4, 5)k>3", 9),
    ("(1, 2, 3, 4, 5)kl2", 3), ("(1, 2, 3, 4, 5)kh2", 9), ("(1)k1", 1), ("(1)k2", 0),
    ("(1, 2, 3, 4, 5)k1k2", 3), ("(1, 2, 3, 4, 5)kh1kl1", 6), ("(1, 2, 3, 4, 5)p3", 12),
    ("(1, 2, 3, 4, 5)p1p2", 12), ("(1, 2, 3, 4, 5)ph1pl1", 9), ("(1, 2, 3)k1k2", 3),
    ("1d20rr<20", 20), ("1d20rr>1", 1), ("1d1ro1", 1), ("1d1ra1", 2),
    ("10d6mi6", 60), ("10d6mi10", 100), ("10d6ma1", 10), ("10d6ma0", 0),
    ("(1 [one], 2 [two], 3 [three])", 6), ("-7/2", -3), ("-7//2", -4), ("-7%3", 2),
    ("(3, 3)kh1kl1", 3),
]  # fmt: skip

# d20's tests: the range each total falls in (our exact support must lie inside it).
D20_RANGES = [
    ("1d20", 1, 20), ("4d6kh3", 3, 18), ("(((1d6)))", 1, 6), ("(1d4, 2+2, 3d6kl1)kh1", 4, 6),
    ("((10d6kh5)kl2)kh1", 1, 6), ("d6", 1, 6), ("2d6", 2, 12), ("10d6k1k2k3", 0, 30),
    ("10d6k1ph1", 0, 9), ("1d6rol1", 1, 6), ("1d6ral1", 2, 12), ("10d6mi2", 20, 60),
    ("10d6ma5", 10, 50), ("4*(3d8kh2+9[fire]+(9d2e2+3[cold])/2)", 4 * (2 + 9 + 6), 10**6),
]  # fmt: skip

# d20's tests expect these to fail (TooManyRolls, RollValueError); here each is refused.
D20_REFUSED = [
    "1001d6", "6d0", "10d6mil1", "1d20rr<21", "1d1rr1", "1d20e<21", "1d1e1",
    "10 / 0", "10 // 0", "10 % 0",
]  # fmt: skip


@pytest.mark.parametrize(("text", "total"), D20_CERTAIN)
def test_d20s_certain_totals(text: str, total: int) -> None:
    expression = parse(text)
    assert expression.roll(SeededDice(1)).total == total
    assert distribution(expression) == {total: Fraction(1)}
    assert set(sample(expression, 50, np.random.default_rng(1))) == {total}


@pytest.mark.parametrize(("text", "low", "high"), D20_RANGES)
def test_d20s_ranges(text: str, low: int, high: int) -> None:
    chances = distribution(parse(text))
    assert low <= min(chances) and max(chances) <= high


def test_d20s_exploding_d2_is_odd_but_for_the_bounded_chain() -> None:
    """d20: 1d2e2 is always odd (the chain of twos ends on a one); here it is too, unless
    the chain reaches the bound of EXPLODE_DEPTH extra dice."""
    chances = distribution(parse("1d2e2"))
    even = {total: p for total, p in chances.items() if total % 2 == 0}
    assert even == {2 * (EXPLODE_DEPTH + 1): Fraction(1, 2 ** (EXPLODE_DEPTH + 1))}


@pytest.mark.parametrize("text", D20_REFUSED)
def test_what_d20_refuses_is_one_clear_error(text: str) -> None:
    with pytest.raises(DiceNotationError):
        parse(text).roll(SeededDice(1))


# The issue's and d20's README means, d20 being the reference (each mean is exact here; the
# explosions' bound takes at most 6**-20 off).
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4d6e6kh3", Fraction(299383, 23328)),  # d20's README: 12.83 (each explosion a die)
        ("1d6e6rr1", Fraction(24, 5)),  # explode, then reroll ones: the 6s stay, the last die
        ("1d6rr1e6", Fraction(121, 25)),  # reroll ones, then explode: 4 + 3.5 * 6/25
        ("1d6/2+1d6/2", Fraction(13, 4)),  # halves added exactly, the total cut once
        ("8d6mi2", Fraction(88, 3)),  # each die (2+2+3+4+5+6)/6
        ("2d6ro<3", Fraction(25, 3)),  # each die 18/6 + 2/6 * 7/2
        ("10d6ma5", Fraction(100, 3)),
        ("1d20 >= 15", Fraction(3, 10)),
        ("1.5*1d4", Fraction(7, 2)),  # 1, 3, 4, 6 (1.5 and 4.5 cut)
    ],
)
def test_d20_means(text: str, expected: Fraction) -> None:
    assert abs(mean(parse(text)) - expected) < Fraction(1, 10**12)


def _brute_force(members: list[range], pick: object) -> dict[int, Fraction]:
    """Every equally likely roll of some plain dice, totalled by ``pick``."""
    counts: dict[int, int] = {}
    rolls = list(itertools.product(*members))
    for faces in rolls:
        total = pick(faces)  # type: ignore[operator]
        counts[total] = counts.get(total, 0) + 1
    return {total: Fraction(c, len(rolls)) for total, c in sorted(counts.items())}


D6 = range(1, 7)


@pytest.mark.parametrize(
    ("text", "members", "pick"),
    [
        # d20's README: the highest of 1d4+1, 3 and the lower of 2d6.
        ("(1d4 + 1, 3, 2d6kl1)kh1", [range(1, 5), D6, D6], lambda f: max(f[0] + 1, 3, min(f[1:]))),
        (
            "(2d6, 1d12, 3)pl1",
            [D6, D6, range(1, 13)],
            lambda f: sum(sorted([f[0] + f[1], f[2], 3])[1:]),
        ),
        ("(4d6)kh3", [D6] * 4, lambda f: sum(sorted(f)[1:])),
        ("5d6k1ph1", [D6] * 5, lambda f: max(f.count(1) - 1, 0)),
        # Of equal dice both pick the earliest: four equal dice keep one.
        ("4d6kh1kl1", [D6] * 4, lambda f: max(f) + (min(f) if min(f) < max(f) else 0)),
        ("4d6k>4pl1", [D6] * 4, lambda f: sum(sorted(v for v in f if v > 4)[1:])),
        ("4d6mi3ma5", [D6] * 4, lambda f: sum(min(max(v, 3), 5) for v in f)),
        ("4d6ma3mi5", [D6] * 4, lambda f: 20),
        ("3d6p<3", [D6] * 3, lambda f: sum(v for v in f if v >= 3)),
        ("((5d6kh4)kl2)kh1", [D6] * 5, lambda f: sorted(f)[2]),
    ],
)
def test_keep_and_drop_agree_with_counting_every_roll(
    text: str, members: list[range], pick: object
) -> None:
    assert distribution(parse(text)) == _brute_force(members, pick)


# Every operation with every selector it takes, and the other new notation: each is checked
# three ways below.
EVERY_OPERATION = [
    "4d6k3", "4d6k<3", "4d6k>3", "4d6kh3", "4d6kl3",
    "4d6p3", "4d6p<3", "4d6p>3", "4d6ph1", "4d6pl1",
    "2d6rr1", "2d6rr<3", "2d6rr>4",
    "2d6ro1", "2d6ro<3", "2d6ro>4", "3d6roh1", "3d6rol1",
    "2d6ra6", "2d6ra<2", "2d6ra>4", "2d6rah1", "2d6ral1",
    "2d6e6", "2d6e<2", "2d6e>5", "2d6eh1", "2d6el1",
    "4d6mi3", "4d6ma4",
    "4d6e6kh3", "1d6e6rr1", "1d6rr1e6", "10d6k1ph1", "3d6kh2e6", "4d6rol1kh3",
    "(1d4, 2+2, 3d6kl1)kh1", "(1d6, 1d8)p>4", "(1d6, 1d8, 1d10)k<5", "((6d6kh4)kl2)kh1",
    "(1d4+1)kh1", "(1d6+1)p1", "3d6 [fire] + 1d4 [piercing]", "-(1d8 + 3) [healing]",
    "1d20 >= 15", "2d6 != 7", "1d20 < 1d20", "1d6/2+1d6/2", "-1d6/4", "1d20 // 3",
    "1d20 % 7", "1.5*1d4", ".5*1d6", "1d6 x 1d4", "d%",
]  # fmt: skip


@pytest.mark.parametrize("text", EVERY_OPERATION)
def test_every_recorded_roll_lies_in_the_exact_support(text: str) -> None:
    expression = parse(text)
    chances = distribution(expression)
    assert sum(chances.values()) == 1
    for seed in range(200):
        result = expression.roll(SeededDice(seed))
        assert result.total in chances, (seed, result.breakdown)
        assert result.breakdown.endswith(f"= {result.total}")


@pytest.mark.parametrize("text", EVERY_OPERATION)
def test_every_sampled_mean_agrees_with_the_exact_mean(text: str) -> None:
    expression = parse(text)
    chances = distribution(expression)
    exact_mean = sum((total * p for total, p in chances.items()), Fraction(0))
    spread = sum(((total - exact_mean) ** 2 * p for total, p in chances.items()), Fraction(0))
    n = 100_000
    drawn = sample(expression, n, np.random.default_rng(7))
    assert np.isin(drawn, np.array(list(chances))).all()
    # Five standard errors: a wrong meaning moves the mean far more than that.
    assert abs(drawn.mean() - float(exact_mean)) <= 5 * float(spread) ** 0.5 / n**0.5 + 1e-9


# d20's README examples, played with the same dice (ours strikes the dice of a dropped member
# too, where d20 strikes the member).
@pytest.mark.parametrize(
    ("text", "faces", "breakdown"),
    [
        ("1d20+5", [10], "1d20 (10) + 5 = 15"),
        ("4d6kh3", [4, 4, 6, 3], "4d6kh3 (4, 4, 6, ~~3~~) = 14"),
        ("2d6ro<3", [1, 6, 3], "2d6ro<3 (~~1~~, 3, 6) = 9"),
        ("8d6mi2", [1, 6, 4, 2, 6, 2, 5, 6], "8d6mi2 (1 -> 2, 6, 4, 2, 6, 2, 5, 6) = 33"),
        (
            "(1d4 + 1, 3, 2d6kl1)kh1",
            [2, 2, 5],
            "(1d4 (2) + 1, ~~3~~, ~~2d6kl1 (2, ~~5~~)~~)kh1 = 3",
        ),
        ("4d6e6kh3", [1, 5, 6, 6, 2, 1], "4d6e6kh3 (~~1~~, 5, 6!, 6!, ~~2~~, ~~1~~) = 17"),
        (
            "3d6 [fire] + 1d4 [piercing]",
            [3, 2, 2, 3],
            "3d6 (3, 2, 2) [fire] + 1d4 (3) [piercing] = 10",
        ),
        ("-(1d8 + 3) [healing]", [7], "-(1d8 (7) + 3) [healing] = -10"),
        ("(1 [one], 2 [two], 3 [three])", [], "(1 [one], 2 [two], 3 [three]) = 6"),
        ("-1d8 + 4 - (3, 1d4)kh1", [8, 3], "-1d8 (8) + 4 - (3, ~~1d4 (3)~~)kh1 = -7"),
        ("3d6 + 1d4 + 3", [4, 6, 6, 1], "3d6 (4, 6, 6) + 1d4 (1) + 3 = 20"),
    ],
)
def test_d20s_readme_examples_with_the_same_dice(
    text: str, faces: list[int], breakdown: str
) -> None:
    dice = TypedDice(faces)
    assert roll(text, dice).breakdown == breakdown
    assert dice.remaining == 0


def test_operations_act_in_written_order() -> None:
    """1d6e6rr1: the 6 explodes, the new die's 1 is rerolled (to a 6 that no longer
    explodes); 1d6rr1e6: the 1 is rerolled to a 6, which explodes, and the new 1 stays."""
    assert roll("1d6e6rr1", TypedDice([6, 1, 6])).breakdown == "1d6e6rr1 (6!, ~~1~~, 6) = 12"
    assert roll("1d6rr1e6", TypedDice([1, 6, 1])).breakdown == "1d6rr1e6 (~~1~~, 6!, 1) = 7"


def test_explosions_and_rerolls_record_every_face_in_order() -> None:
    result = roll("2d6e6kh1", TypedDice([6, 2, 3]))
    assert [(d.face, d.kept) for d in result.dice] == [(6, True), (2, False), (3, False)]
    assert result.total == 6


def test_annotations_stay_in_the_expression_and_the_record() -> None:
    result = roll("8d6 [fire]", TypedDice([1] * 8))
    record = result.to_record()
    assert record["expression"] == "8d6 [fire]"
    assert "[fire]" in str(record["breakdown"])
    assert "comment" not in record


def test_a_comment_follows_the_roll_where_comments_are_allowed() -> None:
    """d20's allow_comments: "1d20 I rolled a d20" is 1d20 with that comment; without it
    the words are a mistake."""
    result = roll("1d20 I rolled a d20", TypedDice([13]), allow_comments=True)
    assert (result.breakdown, result.comment) == ("1d20 (13) = 13", "I rolled a d20")
    assert result.to_record()["comment"] == "I rolled a d20"
    for text, comment in [
        ("1d20+5 to hit", "to hit"), ("1d20 each", "each"), ("1d6 e6", "e6"),
        ("(1d6) kh1", "kh1"), ("1d20 x marks", "x marks"), ("2d6 ! 3", "! 3"),
        ("1d20 >=15 to hit", "to hit"), ("1d6 [fire] to hit", "to hit"),
    ]:  # fmt: skip
        assert parse(text, allow_comments=True).comment == comment
    with pytest.raises(DiceNotationError, match="column 6"):
        parse("1d20 I rolled a d20")
    with pytest.raises(DiceNotationError, match="column 8"):
        parse("1d20 + fire", allow_comments=True)  # d20 refuses it too


def test_d_percent_is_a_d100_the_one_chosen_difference() -> None:
    chances = distribution(parse("d%"))
    assert (min(chances), max(chances), chances[100]) == (1, 100, Fraction(1, 100))
