"""Rolling with typed-in and seeded dice: totals, every face, the readable breakdown."""

from __future__ import annotations

import json

import pytest

from turnkeeper.dice import (
    EXPLODE_DEPTH,
    DiceInputError,
    DiceNotationError,
    DieFace,
    Roll,
    SeededDice,
    TypedDice,
    parse,
    roll,
)


def test_breakdown_of_2d6_plus_1() -> None:
    result = roll("2d6+1", TypedDice([3, 5]))
    assert result.total == 9
    assert result.breakdown == "2d6 (3, 5) + 1 = 9"
    assert result.dice == (DieFace(6, 3, True, True), DieFace(6, 5, True, True))
    assert result.typed_in


@pytest.mark.parametrize(
    ("text", "faces", "total", "breakdown"),
    [
        ("4d6kh3", [1, 4, 6, 3], 13, "4d6kh3 (~~1~~, 4, 6, 3) = 13"),
        ("4d6pl1", [1, 4, 6, 3], 13, "4d6pl1 (~~1~~, 4, 6, 3) = 13"),
        ("2d20kl1", [17, 4], 4, "2d20kl1 (~~17~~, 4) = 4"),
        ("2d20ph1", [17, 4], 4, "2d20ph1 (~~17~~, 4) = 4"),
        ("3d6k>3", [2, 4, 6], 10, "3d6k>3 (~~2~~, 4, 6) = 10"),
        ("1d6rr1", [1, 1, 5], 5, "1d6rr1 (~~1~~, ~~1~~, 5) = 5"),
        ("1d6ro1", [1, 1], 1, "1d6ro1 (~~1~~, 1) = 1"),
        ("1d6e6", [6, 6, 2], 14, "1d6e6 (6!, 6!, 2) = 14"),
        ("2d4x10", [1, 3], 40, "2d4 (1, 3) x 10 = 40"),
        ("d%", [42], 42, "d% (42) = 42"),
        ("7/2+1d4", [1], 4, "7 / 2 + 1d4 (1) = 4"),
        ("-7/2", [], -3, "-7 / 2 = -3"),
        ("-7//2", [], -4, "-7 // 2 = -4"),
        ("-7%3", [], 2, "-7 % 3 = 2"),
        ("1d20 >= 15", [15], 1, "1d20 (15) >= 15 = 1"),
        ("1.5*1d4", [3], 4, "1.5 * 1d4 (3) = 4"),
        ("8d6 [fire]", [1] * 8, 8, "8d6 (1, 1, 1, 1, 1, 1, 1, 1) [fire] = 8"),
        (
            "(1d4, 2+2, 3d6kl1)kh1",
            [4, 6, 4, 4],
            4,
            "(1d4 (4), ~~2 + 2~~, ~~3d6kl1 (~~6~~, 4, ~~4~~)~~)kh1 = 4",
        ),
        ("(1d4+1)*2", [3], 8, "(1d4 (3) + 1) * 2 = 8"),
        ("-(1d4+1)", [3], -4, "-(1d4 (3) + 1) = -4"),
    ],
)
def test_each_notation_feature_rolls(
    text: str, faces: list[int], total: int, breakdown: str
) -> None:
    dice = TypedDice(faces)
    result = roll(text, dice)
    assert (result.total, result.breakdown) == (total, breakdown)
    assert dice.remaining == 0


def test_dropped_and_rerolled_faces_are_recorded_but_not_kept() -> None:
    """Each die's faces in turn: the first die's 1 rerolled away, then its 5; the 3 dropped."""
    result = roll("2d6rr1kh1", TypedDice([1, 3, 5]))
    assert [(d.face, d.kept) for d in result.dice] == [(1, False), (5, True), (3, False)]
    assert result.total == 5


def test_explosion_stops_at_the_documented_depth() -> None:
    result = roll("1d2e2", TypedDice([2] * (EXPLODE_DEPTH + 1)))
    assert result.total == 2 * (EXPLODE_DEPTH + 1)
    assert len(result.dice) == EXPLODE_DEPTH + 1


def test_names_resolve_from_values() -> None:
    assert roll("d20+STR", TypedDice([12]), {"STR": 2}).breakdown == "d20 (12) + STR (2) = 14"
    assert roll("19-HD", TypedDice([]), {"HD": 3}).total == 16
    assert roll("HDd8", TypedDice([8, 1]), {"HD": 2}).total == 9


def test_missing_name_says_which() -> None:
    with pytest.raises(DiceNotationError, match="no value given for CHA"):
        roll("2d6+CHA", SeededDice(1))


def test_division_is_exact_and_the_total_cut_toward_zero_as_in_d20() -> None:
    """d20: ``/`` divides exactly and only the total is cut (int()), so -5/2 is -2, and two
    halves add up before the cut; ``//`` floors; a zero divisor is one clear error."""
    assert roll("1d6/2", TypedDice([5])).total == 2
    assert roll("-1d6/2", TypedDice([5])).total == -2
    assert roll("1d6/2+1d6/2", TypedDice([5, 5])).total == 5
    assert roll("-1d6//2", TypedDice([5])).total == -3
    for text in ("6/(1d4-1)", "6//(1d4-1)", "6%(1d4-1)"):
        with pytest.raises(DiceNotationError, match="division by zero"):
            roll(text, TypedDice([1]))


def test_same_seed_same_roll() -> None:
    assert roll("4d6kh3+2d8e8", SeededDice(42)) == roll("4d6kh3+2d8e8", SeededDice(42))


def test_seeded_faces_stay_on_the_die() -> None:
    dice = SeededDice(5)
    faces = {dice.die(6) for _ in range(2000)}
    assert faces == {1, 2, 3, 4, 5, 6}


def test_typed_in_die_must_fit_the_die() -> None:
    with pytest.raises(DiceInputError, match="a d6 shows 1 to 6"):
        roll("1d6", TypedDice([7]))
    with pytest.raises(DiceInputError, match="shows 0"):
        roll("1d6", TypedDice([0]))


def test_too_few_typed_in_dice() -> None:
    with pytest.raises(DiceInputError, match="not enough typed-in dice"):
        roll("3d6", TypedDice([1, 2]))


def test_typed_in_dice_are_consumed_in_order() -> None:
    dice = TypedDice([2, 3, 4])
    assert dice.die(4) == 2
    assert dice.remaining == 2
    assert roll("2d4", dice).total == 7
    assert dice.remaining == 0


def test_typed_in_dice_must_be_whole_numbers() -> None:
    with pytest.raises(DiceInputError):
        TypedDice([1.5])  # type: ignore[list-item]


def test_seeded_roll_is_not_marked_typed_in() -> None:
    result = roll("2d6", SeededDice(1))
    assert not result.typed_in
    assert not any(d.typed_in for d in result.dice)


def test_roll_round_trips_through_json() -> None:
    for source in (TypedDice([1, 4, 6, 3, 2]), SeededDice(9)):
        result = roll("4d6kh3+1d4", source)
        record = json.loads(json.dumps(result.to_record()))
        assert set(record) >= {"expression", "total", "dice", "breakdown", "typed_in"}
        assert Roll.from_record(record) == result


def test_roll_expression_is_canonical_and_reparses() -> None:
    result = roll("1d20+5", SeededDice(3))
    assert result.expression == "1d20 + 5"
    assert parse(result.expression) == parse("1d20+5")


def test_bad_record_is_an_input_error() -> None:
    with pytest.raises(DiceInputError):
        Roll.from_record({"expression": "1d6"})
