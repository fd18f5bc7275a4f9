"""Properties: text parses or raises DiceNotationError; rolls and samples agree with exact odds."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy import stats

from turnkeeper.dice import DiceNotationError, Expression, SeededDice, parse
from turnkeeper.dice.exact import distribution
from turnkeeper.dice.sampling import sample

VALUES = {"STR": 2, "HD": 3}
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


#: Every operation (d20's k p rr ro ra e mi ma) with every selector (h l < > a face).
OPERATIONS = [
    f"{kind}{select}{n}"
    for kind in ("k", "p", "rr", "ro", "ra", "e", "mi", "ma")
    for select in ("", "h", "l", "<", ">")
    for n in (1, 2, 3)
]


@st.composite
def dice_terms(draw: st.DrawFn) -> str:
    """A dice term as a player would write it, with any operations in any order."""
    count = draw(st.sampled_from(["", "0", "1", "2", "3", "HD"]))
    sides = draw(st.sampled_from(["1", "2", "3", "4", "6"]))
    ops = draw(st.lists(st.sampled_from(OPERATIONS), max_size=3))
    return f"{count}d{sides}{''.join(ops)}"


@st.composite
def sets(draw: st.DrawFn, members: st.SearchStrategy[str]) -> str:
    """A set (or a term in parentheses) with keep and drop after it."""
    items = draw(st.lists(members, max_size=3))
    inner = ", ".join(items) + ("," if len(items) == 1 and draw(st.booleans()) else "")
    ops = draw(st.lists(st.sampled_from([o for o in OPERATIONS if o[0] in "kp"]), max_size=2))
    return f"({inner}){''.join(ops)}"


atoms = st.one_of(
    dice_terms(),
    st.integers(0, 20).map(str),
    st.sampled_from(["STR", "HD", "0.5", "1.5", ".25"]),
)


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    operators = ["+", "-", "*", "/", "//", "%", "x", " + ", " - ", " >= ", "<", " == ", "!="]
    return st.one_of(
        st.tuples(children, st.sampled_from(operators), children).map("".join),
        children.map(lambda text: f"({text})"),
        children.map(lambda text: f"-{text}"),
        children.map(lambda text: f"{text} [note]"),
        sets(children),
    )


grammar_expressions = st.recursive(atoms, _combine, max_leaves=3)

notation_text = st.text(alphabet="0123456789dDkhlproemia%x×+-*/() <>=!,.[]STRHD", max_size=25)


def _parses_or_notation_error(text: str) -> Expression | None:
    try:
        expression = parse(text)
    except DiceNotationError:
        return None
    assert parse(str(expression)) == expression
    return expression


@FAST
@given(st.text(max_size=30))
def test_any_text_parses_or_raises_dice_notation_error(text: str) -> None:
    _parses_or_notation_error(text)


@FAST
@given(notation_text)
def test_notation_like_text_parses_or_raises_dice_notation_error(text: str) -> None:
    _parses_or_notation_error(text)


@FAST
@given(grammar_expressions)
def test_grammar_expressions_parse_or_raise_dice_notation_error(text: str) -> None:
    _parses_or_notation_error(text)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grammar_expressions, st.integers(0, 2**32))
def test_every_roll_lies_within_the_exact_support(text: str, seed: int) -> None:
    expression = _parses_or_notation_error(text)
    assume(expression is not None)
    assert expression is not None
    try:
        chances = distribution(expression, VALUES)
    except DiceNotationError:
        assume(False)  # e.g. a divisor that can be zero
    assert sum(chances.values()) == 1
    for offset in range(5):
        try:
            result = expression.roll(SeededDice(seed + offset), VALUES)
        except DiceNotationError:
            continue
        assert result.total in chances
        assert sum(d.face for d in result.dice if d.kept) <= sum(d.face for d in result.dice)


def _chi_square_p(expression: Expression, seed: int, n: int = 20_000) -> float:
    chances = distribution(expression, VALUES)
    drawn = sample(expression, n, np.random.default_rng(seed), VALUES)
    outcomes = np.array(list(chances), dtype=np.int64)
    assert np.isin(drawn, outcomes).all()
    # Merge outcomes expected fewer than 5 times into their neighbours, as chi-square needs.
    observed: list[int] = []
    expected: list[float] = []
    counts = dict(zip(*np.unique(drawn, return_counts=True), strict=True))
    bucket_obs, bucket_exp = 0, Fraction(0)
    for outcome, p in chances.items():
        bucket_obs += int(counts.get(outcome, 0))
        bucket_exp += p * n
        if bucket_exp >= 5:
            observed.append(bucket_obs)
            expected.append(float(bucket_exp))
            bucket_obs, bucket_exp = 0, Fraction(0)
    if bucket_exp and expected:
        observed[-1] += bucket_obs
        expected[-1] += float(bucket_exp)
    if len(expected) < 2:
        return 1.0
    scale = sum(observed) / sum(expected)
    return float(stats.chisquare(observed, [e * scale for e in expected]).pvalue)


@pytest.mark.parametrize(
    "text",
    [
        "3d6",
        "4d6kh3",
        "2d20kl1",
        "4d6pl1",
        "1d6rr1",
        "2d6ro<3",
        "1d6e6",
        "3d6k>3",
        "2d4x10",
        "d%",
        "1d8/1d3",
        "1d6*1d4-2",
        "4d6rr1e6kh2",
        "HDd8+STR",
        "-(1d4+1)",
        "4d6e6kh3",
        "1d6e6rr1",
        "1d6rr1e6",
        "(1d4, 2+2, 3d6kl1)kh1",
        "10d6k1ph1",
        "8d6mi2",
        "6d6ma4",
        "2d6ral1",
        "3d6eh1",
        "3d6rol1",
        "1d6/2+1d6/2",
        "1d20 >= 1d20",
        "1d20 % 6 + 1d8 // 3",
        "1.5 * 1d6 [half again]",
    ],
)
def test_sampled_frequencies_agree_with_exact_odds(text: str) -> None:
    assert _chi_square_p(parse(text), seed=12345) > 1e-4


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grammar_expressions)
def test_sampled_frequencies_agree_with_exact_odds_for_any_expression(text: str) -> None:
    expression = _parses_or_notation_error(text)
    assume(expression is not None)
    assert expression is not None
    try:
        p = _chi_square_p(expression, seed=2024, n=5000)
    except DiceNotationError:
        assume(False)
    assert p > 1e-6
