"""Rolling: the tree compiled once into closures, each returning its value and its text.

A recorded roll keeps every face (rerolled and dropped ones too, marked not kept), so the
journal can show exactly what happened at the table and replay it without rolling again.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from turnkeeper.dice.nodes import (
    EXPLODE_DEPTH,
    BinOp,
    Const,
    Dice,
    DiceOp,
    Name,
    Node,
    Signed,
    check_count,
    floor_divide,
    needs_parens,
)
from turnkeeper.errors import DiceInputError, DiceNotationError


@dataclass(frozen=True, slots=True)
class DieFace:
    """One die as it landed: its size, its face, whether it counts, whether it was typed in."""

    sides: int
    face: int
    kept: bool = True
    typed_in: bool = False


# Not slotted: a frozen dataclass with a __dict__ can be built by ``_fast_roll`` below.
@dataclass(frozen=True)
class Roll:
    """A finished roll: the total, every die face, and the breakdown a person reads.

    >>> from turnkeeper.dice import TypedDice, roll
    >>> result = roll("2d6+1", TypedDice([3, 5]))
    >>> result.breakdown, result.total, result.typed_in
    ('2d6 (3, 5) + 1 = 9', 9, True)
    >>> Roll.from_record(result.to_record()) == result
    True
    """

    expression: str
    total: int
    dice: tuple[DieFace, ...]
    breakdown: str
    typed_in: bool

    def to_record(self) -> dict[str, object]:
        """The roll as JSON-able data, for the journal and for ``--json``."""
        return {
            "expression": self.expression,
            "total": self.total,
            "dice": [{"sides": d.sides, "face": d.face, "kept": d.kept} for d in self.dice],
            "breakdown": self.breakdown,
            "typed_in": self.typed_in,
        }

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Roll:
        """Read back a roll written by :meth:`to_record`."""
        try:
            typed_in = bool(data["typed_in"])
            dice = tuple(
                DieFace(
                    int(d["sides"]),
                    int(d["face"]),
                    bool(d.get("kept", True)),
                    bool(d.get("typed_in", typed_in)),
                )
                for d in data["dice"]
            )
            return cls(
                str(data["expression"]), int(data["total"]), dice, str(data["breakdown"]), typed_in
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DiceInputError(f"not a roll record ({error}): {data!r}") from None


def fast_roll(
    expression: str, total: int, dice: tuple[DieFace, ...], breakdown: str, typed_in: bool
) -> Roll:
    """Build a :class:`Roll` without the frozen dataclass's per-field ``__setattr__`` calls.

    Rolling is the hot path of simulation; this is the same object ``Roll(...)`` would give,
    about twice as fast.
    """
    made = object.__new__(Roll)
    made.__dict__.update(
        expression=expression, total=total, dice=dice, breakdown=breakdown, typed_in=typed_in
    )
    return made


#: A compiled node: (roll one die, typed in?, faces so far, values) -> (value, breakdown).
#: The die function and the typed-in flag are looked up once per roll, not once per node.
Roller = Callable[[Callable[[int], int], bool, list[DieFace], Mapping[str, int]], tuple[int, str]]

_OPERATORS: dict[str, Callable[[int, int], int]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "x": operator.mul,
}


def lookup(values: Mapping[str, int], name: str) -> int:
    """A name's value from the character's or monster's values, or a clear error."""
    try:
        value = values[name]
    except KeyError:
        raise DiceNotationError(
            f"no value given for {name}; give it, e.g. {name}=2 (--set {name}=2 in the CLI)"
        ) from None
    if isinstance(value, bool) or not isinstance(value, int):
        raise DiceNotationError(f"{name} must be a whole number, not {value!r}")
    return value


def compile_roller(node: Node) -> Roller:
    """Turn a tree into one closure that rolls it; done once per parsed expression."""
    if isinstance(node, Const):
        value, text = node.value, str(node.value)
        return lambda die, typed, faces, values: (value, text)
    if isinstance(node, Name):
        name = node.name

        def roll_name(
            die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
        ) -> tuple[int, str]:
            got = lookup(values, name)
            return got, f"{name} ({got})"

        return roll_name
    if isinstance(node, Signed):
        return _compile_signed(node)
    if isinstance(node, BinOp):
        return _compile_binop(node)
    if node.ops:
        return _compile_dice_with_ops(node)
    return _compile_plain_dice(node)


def _compile_signed(node: Signed) -> Roller:
    operand = compile_roller(node.operand)
    negative = node.sign == "-"
    template = node.sign + ("({})" if needs_parens(node.operand, node) else "{}")

    def roll_signed(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[int, str]:
        got, text = operand(die, typed, faces, values)
        return (-got if negative else got), template.format(text)

    return roll_signed


def _compile_binop(node: BinOp) -> Roller:
    left, right = compile_roller(node.left), compile_roller(node.right)
    left_fmt = "({})" if needs_parens(node.left, node) else "{}"
    right_fmt = "({})" if needs_parens(node.right, node, right=True) else "{}"
    template = f"{left_fmt} {node.op} {right_fmt}"
    combine: Callable[[int, int], int]
    if node.op == "/":
        where = str(node)

        def divide(a: int, b: int) -> int:
            return floor_divide(a, b, where)

        combine = divide
    else:
        combine = _OPERATORS[node.op]
    if isinstance(node.right, Const) and left_fmt == "{}":
        # The commonest shape (1d20+5): the constant's text is joined on once, here.
        constant = node.right.value
        suffix = f" {node.op} {constant}"
        if node.op == "+":

            def roll_plus_constant(
                die: Callable[[int], int],
                typed: bool,
                faces: list[DieFace],
                values: Mapping[str, int],
            ) -> tuple[int, str]:
                a, a_text = left(die, typed, faces, values)
                return a + constant, a_text + suffix

            return roll_plus_constant

        def roll_with_constant(
            die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
        ) -> tuple[int, str]:
            a, a_text = left(die, typed, faces, values)
            return combine(a, constant), a_text + suffix

        return roll_with_constant

    def roll_binop(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[int, str]:
        a, a_text = left(die, typed, faces, values)
        b, b_text = right(die, typed, faces, values)
        return combine(a, b), template.format(a_text, b_text)

    return roll_binop


def _count_of(dice: Dice) -> Callable[[Mapping[str, int]], int]:
    count = dice.count
    if count is None:
        return lambda values: 1
    if isinstance(count, int):
        return lambda values: count
    return lambda values: check_count(dice, lookup(values, count))


def _face_tables(sides: int) -> dict[tuple[bool, bool], list[DieFace]] | None:
    """One shared DieFace per (kept, typed-in, face); faces are immutable, so rolls share them."""
    if sides > 100:
        return None
    return {
        (kept, typed): [DieFace(sides, face, kept, typed) for face in range(sides + 1)]
        for kept in (False, True)
        for typed in (False, True)
    }


def _compile_plain_dice(dice: Dice) -> Roller:
    sides, text, count_of = dice.sides, str(dice), _count_of(dice)
    tables = _face_tables(sides)
    if tables is not None and dice.count in (None, 1):
        untyped, typed_table = tables[True, False], tables[True, True]
        prefix = f"{text} ("

        def roll_one(
            die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
        ) -> tuple[int, str]:
            face = die(sides)
            faces.append(typed_table[face] if typed else untyped[face])
            return face, f"{prefix}{face})"

        return roll_one

    def roll_plain(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[int, str]:
        got = [die(sides) for _ in range(count_of(values))]
        if tables is not None:
            table = tables[True, typed]
            faces.extend([table[face] for face in got])
        else:
            faces.extend([DieFace(sides, face, True, typed) for face in got])
        return sum(got), f"{text} ({', '.join(map(str, got))})"

    return roll_plain


def _compile_keep_only(dice: Dice, keep: DiceOp) -> Roller:
    """Keep/drop with no rerolls or explosions (4d6kh3, 2d20kl1): the common case, kept lean."""
    sides, count_of = dice.sides, _count_of(dice)
    prefix = f"{dice} ("
    tables = _face_tables(sides) or {
        (kept, typed): [DieFace(sides, face, kept, typed) for face in range(sides + 1)]
        for kept in (False, True)
        for typed in (False, True)
    }
    labels = [str(face) for face in range(sides + 1)]
    struck = [f"~~{face}~~" for face in range(sides + 1)]

    def roll_keep(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[int, str]:
        got = [die(sides) for _ in range(count_of(values))]
        yes, no = tables[True, typed], tables[False, typed]
        total = 0
        shown = []
        for face, counts in zip(got, _kept(keep, got), strict=True):
            if counts:
                total += face
                faces.append(yes[face])
                shown.append(labels[face])
            else:
                faces.append(no[face])
                shown.append(struck[face])
        return total, prefix + ", ".join(shown) + ")"

    return roll_keep


def _compile_dice_with_ops(dice: Dice) -> Roller:
    sides, text, count_of = dice.sides, str(dice), _count_of(dice)
    rerolls, once, explodes = dice.selected("rr"), dice.selected("ro"), dice.selected("e")
    keep = dice.keep
    if keep is not None and len(dice.ops) == 1 and sides <= 1000:
        return _compile_keep_only(dice, keep)

    def roll_ops(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[int, str]:
        # Each chain is one die with its rerolled-away faces and the dice its explosions added.
        chains: list[tuple[int, list[tuple[int, str]]]] = []
        for _ in range(count_of(values)):
            parts: list[tuple[int, str]] = []
            value = 0
            for extra in range(EXPLODE_DEPTH + 1):
                face = die(sides)
                while face in rerolls:
                    parts.append((face, "rerolled"))
                    face = die(sides)
                if face in once:
                    parts.append((face, "rerolled"))
                    face = die(sides)
                    while face in rerolls:
                        parts.append((face, "rerolled"))
                        face = die(sides)
                value += face
                if face in explodes and extra < EXPLODE_DEPTH:
                    parts.append((face, "exploded"))
                else:
                    parts.append((face, "final"))
                    break
            chains.append((value, parts))
        kept = _kept(keep, [value for value, _ in chains])
        total = 0
        shown: list[str] = []
        for (value, parts), keep_it in zip(chains, kept, strict=True):
            if keep_it:
                total += value
            for face, how in parts:
                counts = keep_it and how != "rerolled"
                faces.append(DieFace(sides, face, counts, typed))
                label = f"{face}!" if how == "exploded" else str(face)
                shown.append(label if counts else f"~~{label}~~")
        return total, f"{text} ({', '.join(shown)})"

    return roll_ops


def _kept(keep: DiceOp | None, values: list[int]) -> list[bool]:
    """Which dice (chains) count, after the keep/drop modifier."""
    if keep is None:
        return [True] * len(values)
    if not keep.counts_dice:
        selected = [keep.matches(value) for value in values]
        return selected if keep.kind == "k" else [not s for s in selected]
    n = min(keep.value, len(values))
    # Ties go to the earlier die, as a player reading left to right would expect.
    # A stable sort: among equal faces the earlier die is kept, as a player reads left to right.
    by_value = sorted(range(len(values)), key=values.__getitem__, reverse=keep.kind[1] == "h")
    chosen = set(by_value[:n])
    if keep.kind[0] == "k":
        return [i in chosen for i in range(len(values))]
    return [i not in chosen for i in range(len(values))]
