"""Dice notation: every feature parses, prints back canonically, and bad input says where."""

from __future__ import annotations

import pytest

from turnkeeper.dice import DiceNotationError, parse
from turnkeeper.dice.nodes import BinOp, Const, Dice, DiceOp, Name, Signed


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("2d6", "2d6"),
        ("d20", "d20"),
        ("d%", "d%"),
        ("1D20+5", "1d20 + 5"),
        ("4d6kh3", "4d6kh3"),
        ("2d20kl1", "2d20kl1"),
        ("4d6pl1", "4d6pl1"),
        ("2d20ph1", "2d20ph1"),
        ("3d6k>3", "3d6k>3"),
        ("3d6p<2", "3d6p<2"),
        ("1d6rr1", "1d6rr1"),
        ("1d6ro<3", "1d6ro<3"),
        ("1d6e6", "1d6e6"),
        ("4d6rr1kh3", "4d6rr1kh3"),
        ("2d4x10", "2d4x10"),
        ("2d4 × 10", "2d4x10"),
        ("d20+STR", "d20 + STR"),
        ("19-HD", "19 - HD"),
        ("HDd8", "HDd8"),
        ("(1d4+1)*2", "(1d4 + 1) * 2"),
        ("1-(2-3)", "1 - (2 - 3)"),
        ("-1d4", "-1d4"),
        ("-(1+2)", "-(1 + 2)"),
        ("7/2", "7 / 2"),
    ],
)
def test_notation_prints_back_canonically(text: str, canonical: str) -> None:
    expression = parse(text)
    assert str(expression) == canonical
    assert parse(str(expression)) == expression


def test_tree_of_keep_highest() -> None:
    assert parse("4d6kh3").tree == Dice(4, 6, False, (DiceOp("k", "h", 3),))


def test_tree_of_names_and_precedence() -> None:
    assert parse("19-HD*2").tree == BinOp("-", Const(19), BinOp("*", Name("HD"), Const(2)))
    assert parse("-2").tree == Signed("-", Const(2))


def test_d_percent_is_a_d100() -> None:
    assert parse("d%").tree == Dice(None, 100, True)


def test_names_are_collected() -> None:
    assert parse("d20+STR-HD+HDd8").names == frozenset({"STR", "HD"})
    assert parse("2d6").names == frozenset()


def test_spacing_does_not_change_equality() -> None:
    assert parse(" 1d20 +  5 ") == parse("1d20+5")
    assert hash(parse(" 1d20 +  5 ")) == hash(parse("1d20+5"))
    assert parse("1d20+5") != parse("1d20+6")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "empty"),
        ("2d6+", "ends too soon"),
        ("2d6+)", "column 5"),
        ("2d6 ! 3", "column 5"),
        ("d0", "at least one side"),
        ("4d6kh<3", "column 4"),
        ("1d6rr<7", "never stops"),
        ("1d6rrh1", "never stops"),
        ("1d1e1", "would never stop"),
        ("10d6mil1", "takes a plain number"),
        ("(1d6)rr1", "column 6"),
        ("1d20 to hit", "column 6"),
        ("1001d6", "at most 1000 dice"),
        ("99999999999", "stop at"),
        ("1d6" + "+1" * 300, "longer than"),
    ],
)
def test_bad_notation_raises_one_clear_error(text: str, says: str) -> None:
    with pytest.raises(DiceNotationError, match=says):
        parse(text)


def test_parse_is_cached() -> None:
    assert parse("3d6+2") is parse("3d6+2")
