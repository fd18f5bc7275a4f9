"""Rolling: the tree compiled once into closures, each returning its value and its text.

A recorded roll keeps every face (rerolled and dropped ones too, marked not kept), so the
journal can show exactly what happened at the table and replay it without rolling again.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from turnkeeper.dice.nodes import (
    EXPLODE_DEPTH,
    Annotated,
    BinOp,
    Const,
    Dice,
    DiceOp,
    Name,
    Node,
    Number,
    Pool,
    Signed,
    Step,
    check_count,
    needs_parens,
    pool_of,
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
    #: Words written after the roll (``1d20 to hit``), as d20's comments; "" when none.
    comment: str = ""

    def to_record(self) -> dict[str, object]:
        """The roll as JSON-able data, for the journal and for ``--json`` (a comment only
        when there is one, so records without one read as they always did)."""
        record: dict[str, object] = {
            "expression": self.expression,
            "total": self.total,
            "dice": [{"sides": d.sides, "face": d.face, "kept": d.kept} for d in self.dice],
            "breakdown": self.breakdown,
            "typed_in": self.typed_in,
        }
        if self.comment:
            record["comment"] = self.comment
        return record

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
                str(data["expression"]),
                int(data["total"]),
                dice,
                str(data["breakdown"]),
                typed_in,
                str(data.get("comment", "")),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DiceInputError(f"not a roll record ({error}): {data!r}") from None


def fast_roll(
    expression: str,
    total: int,
    dice: tuple[DieFace, ...],
    breakdown: str,
    typed_in: bool,
    comment: str = "",
) -> Roll:
    """Build a :class:`Roll` without the frozen dataclass's per-field ``__setattr__`` calls.

    Rolling is the hot path of simulation; this is the same object ``Roll(...)`` would give,
    about twice as fast.
    """
    made = object.__new__(Roll)
    made.__dict__.update(
        expression=expression,
        total=total,
        dice=dice,
        breakdown=breakdown,
        typed_in=typed_in,
        comment=comment,
    )
    return made


#: A compiled node: (roll one die, typed in?, faces so far, values) -> (value, breakdown).
#: The die function and the typed-in flag are looked up once per roll, not once per node.
#: A value is an int, or a float once ``/`` or a decimal is involved (cut at the end).
Roller = Callable[
    [Callable[[int], int], bool, list[DieFace], Mapping[str, int]], tuple[Number, str]
]


#: The binary operators with d20's meanings: comparisons give 1 or 0, ``/`` divides exactly
#: (Python's numbers, as d20's: an int, or a float once ``/`` or a decimal is involved).
OPERATORS: dict[str, Callable[[Number, Number], Number]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "x": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    ">=": lambda a, b: int(a >= b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    "<": lambda a, b: int(a < b),
}


def zero_divisor(where: object) -> DiceNotationError:
    """The one error for a divisor (of ``/``, ``//`` or ``%``) that came out 0."""
    return DiceNotationError(f"division by zero in {where}; write a divisor that cannot be 0")


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
        ) -> tuple[Number, str]:
            got = lookup(values, name)
            return got, f"{name} ({got})"

        return roll_name
    if isinstance(node, Signed):
        return _compile_signed(node)
    if isinstance(node, BinOp):
        return _compile_binop(node)
    if isinstance(node, Annotated):
        return _compile_annotated(node)
    if isinstance(node, Dice) and not node.ops:
        return _compile_plain_dice(node)
    pool = pool_of(node)
    assert pool is not None
    if pool.dice is None:
        return _compile_set(pool)
    if len(pool.steps) == 1 and pool.steps[0].kind in ("k", "p"):
        only = pool.steps[0].selectors
        if len(only) == 1 and only[0].by_rank and pool.dice.sides <= 1000:
            return _compile_keep_only(pool, only[0])
    return _compile_dice_pool(pool)


def _compile_signed(node: Signed) -> Roller:
    operand = compile_roller(node.operand)
    negative = node.sign == "-"
    template = node.sign + ("({})" if needs_parens(node.operand, node) else "{}")

    def roll_signed(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[Number, str]:
        got, text = operand(die, typed, faces, values)
        return (-got if negative else got), template.format(text)

    return roll_signed


def _compile_annotated(node: Annotated) -> Roller:
    operand = compile_roller(node.operand)
    notes = " " + "".join(node.notes)
    parens = needs_parens(node.operand, node)

    def roll_annotated(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[Number, str]:
        got, text = operand(die, typed, faces, values)
        return got, (f"({text})" if parens else text) + notes

    return roll_annotated


def _compile_binop(node: BinOp) -> Roller:
    left, right = compile_roller(node.left), compile_roller(node.right)
    left_fmt = "({})" if needs_parens(node.left, node) else "{}"
    right_fmt = "({})" if needs_parens(node.right, node, right=True) else "{}"
    joint = f" {node.op} "
    template = f"{left_fmt}{joint}{right_fmt}"
    combine = OPERATORS[node.op]
    if isinstance(node.right, Const) and left_fmt == "{}":
        # The commonest shape (1d20+5): the constant's text is joined on once, here.
        constant = node.right.value
        suffix = f"{joint}{constant}"
        if node.op == "+":

            def roll_plus_constant(
                die: Callable[[int], int],
                typed: bool,
                faces: list[DieFace],
                values: Mapping[str, int],
            ) -> tuple[Number, str]:
                a, a_text = left(die, typed, faces, values)
                return a + constant, a_text + suffix

            return roll_plus_constant

        if constant == 0 and node.op in ("/", "//", "%"):
            raise zero_divisor(node)

        def roll_with_constant(
            die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
        ) -> tuple[Number, str]:
            a, a_text = left(die, typed, faces, values)
            return combine(a, constant), a_text + suffix

        return roll_with_constant

    def roll_binop(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[Number, str]:
        a, a_text = left(die, typed, faces, values)
        b, b_text = right(die, typed, faces, values)
        try:
            return combine(a, b), template.format(a_text, b_text)
        except ZeroDivisionError:
            raise zero_divisor(node) from None

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
        ) -> tuple[Number, str]:
            face = die(sides)
            faces.append(typed_table[face] if typed else untyped[face])
            return face, f"{prefix}{face})"

        return roll_one

    def roll_plain(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[Number, str]:
        got = [die(sides) for _ in range(count_of(values))]
        if tables is not None:
            table = tables[True, typed]
            faces.extend([table[face] for face in got])
        else:
            faces.extend([DieFace(sides, face, True, typed) for face in got])
        return sum(got), f"{text} ({', '.join(map(str, got))})"

    return roll_plain


def _compile_keep_only(pool: Pool, keep: DiceOp) -> Roller:
    """Keep/drop the highest or lowest with nothing else (4d6kh3, 2d20kl1): the common case,
    kept lean."""
    assert pool.dice is not None
    sides, count_of = pool.dice.sides, _count_of(pool.dice)
    prefix, suffix = pool.before, pool.after
    keeping = pool.steps[0].kind == "k"
    tables = _face_tables(sides) or {
        (kept, typed): [DieFace(sides, face, kept, typed) for face in range(sides + 1)]
        for kept in (False, True)
        for typed in (False, True)
    }
    labels = [str(face) for face in range(sides + 1)]
    struck = [f"~~{face}~~" for face in range(sides + 1)]

    def roll_keep(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[Number, str]:
        got = [die(sides) for _ in range(count_of(values))]
        chosen = set(ranked(keep, got, range(len(got))))
        yes, no = tables[True, typed], tables[False, typed]
        total = 0
        shown = []
        for index, face in enumerate(got):
            if (index in chosen) == keeping:
                total += face
                faces.append(yes[face])
                shown.append(labels[face])
            else:
                faces.append(no[face])
                shown.append(struck[face])
        return total, prefix + ", ".join(shown) + suffix

    return roll_keep


def ranked(selector: DiceOp, values: Sequence[Number], among: Iterable[int]) -> list[int]:
    """The positions ``h``/``l`` pick among ``among``. The sort is stable, so of equal values
    the earlier is picked, as d20 picks it."""
    order = sorted(among, key=values.__getitem__, reverse=selector.select == "h")
    return order[: selector.value]


def picked(
    step: Step, values: Sequence[Number], kept: Sequence[bool], most: int | None = None
) -> list[int]:
    """The positions a step's selectors pick among those kept, in position order; at most
    ``most`` of them (``ra`` adds one die at most), each selector in turn."""
    alive = [index for index, keep in enumerate(kept) if keep]
    chosen: set[int] = set()
    for selector in step.selectors:
        room = None if most is None else most - len(chosen)
        if room == 0:
            break
        if selector.by_rank:
            found = ranked(selector, values, alive)
        else:
            found = [index for index in alive if selector.matches(values[index])]
        chosen.update(found if room is None else found[:room])
    return sorted(chosen)


def _face_table(step: Step, largest: int) -> list[bool] | None:
    """Whether each value ``0..largest`` is picked, for a step that picks by value alone."""
    if step.by_rank:
        return None
    return [step.picks_by_value(value) for value in range(largest + 1)]


def _compile_dice_pool(pool: Pool) -> Roller:
    """Dice with operations, each applied in the order written to the dice still kept.

    Every value a die can hold is a face or a minimum's or maximum's number, so a step that
    picks by value looks its answer up in a table made here, once."""
    assert pool.dice is not None
    sides, count_of = pool.dice.sides, _count_of(pool.dice)
    prefix, suffix, stages = pool.before, pool.after, pool.steps
    largest = max([sides, *(s.selectors[0].value for s in stages if s.kind in ("mi", "ma"))])
    plan = [(step.kind, step, _face_table(step, largest)) for step in stages]
    tables = _face_tables(sides) or {
        (kept, typed): [DieFace(sides, face, kept, typed) for face in range(sides + 1)]
        for kept in (False, True)
        for typed in (False, True)
    }
    labels = [str(face) for face in range(sides + 1)]

    def roll_pool(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[Number, str]:
        rolled = [die(sides) for _ in range(count_of(values))]
        value = rolled[:]  # what each die counts for (a minimum or maximum changes it)
        kept = [True] * len(rolled)
        burst: set[int] = set()  # dice whose face exploded (shown with a "!")
        gone: dict[int, list[int]] = {}  # faces rerolled away, by die
        for kind, step, table in plan:
            if table is None:
                todo = picked(step, value, kept, 1 if kind == "ra" else None)
            else:
                todo = [i for i, v in enumerate(value) if kept[i] and table[v]]
            if kind == "k":
                chosen = set(todo)
                kept = [keep and i in chosen for i, keep in enumerate(kept)]
            elif kind == "p":
                for i in todo:
                    kept[i] = False
            elif kind in ("rr", "ro"):
                while todo:
                    for i in todo:
                        gone.setdefault(i, []).append(rolled[i])
                        rolled[i] = value[i] = die(sides)
                        burst.discard(i)
                    if kind == "ro" or table is None:
                        break
                    todo = [i for i in todo if table[value[i]]]
            elif kind == "e" or kind == "ra":
                if kind == "ra":
                    todo = todo[:1]
                done: set[int] = set()
                for _ in range(EXPLODE_DEPTH if kind == "e" else 1):
                    if not todo:
                        break
                    first_new = len(rolled)
                    for i in todo:
                        burst.add(i)
                        face = die(sides)
                        rolled.append(face)
                        value.append(face)
                        kept.append(True)
                    # Only the dice just added can be picked again (see _explode in exact).
                    if table is not None:
                        todo = [i for i in range(first_new, len(value)) if table[value[i]]]
                    else:
                        done.update(todo)
                        todo = [i for i in picked(step, value, kept) if i not in done]
            else:
                bound = step.selectors[0].value
                for i, keep in enumerate(kept):
                    if keep and (value[i] < bound if kind == "mi" else value[i] > bound):
                        value[i] = bound
        total: Number = 0
        shown: list[str] = []
        yes, no = tables[True, typed], tables[False, typed]
        for i, face in enumerate(rolled):
            if i in gone:
                for away in gone[i]:
                    faces.append(no[away])
                    shown.append(f"~~{away}~~")
            label = labels[face] if value[i] == face else f"{face} -> {value[i]}"
            if i in burst:
                label += "!"
            if kept[i]:
                faces.append(yes[face])
                total += value[i]
                shown.append(label)
            else:
                faces.append(no[face])
                shown.append(f"~~{label}~~")
        return total, prefix + ", ".join(shown) + suffix

    return roll_pool


def _compile_set(pool: Pool) -> Roller:
    """A set's members rolled in turn, then kept or dropped by their totals."""
    members = [compile_roller(member) for member in pool.members]
    prefix, suffix, stages = pool.before, pool.after, pool.steps

    def roll_set(
        die: Callable[[int], int], typed: bool, faces: list[DieFace], values: Mapping[str, int]
    ) -> tuple[Number, str]:
        got: list[Number] = []
        texts: list[str] = []
        spans: list[tuple[int, int]] = []
        for member in members:
            start = len(faces)
            member_value, text = member(die, typed, faces, values)
            got.append(member_value)
            texts.append(text)
            spans.append((start, len(faces)))
        kept = [True] * len(got)
        for step in stages:
            chosen = set(picked(step, got, kept))
            for index, keep in enumerate(kept):
                if keep and ((index in chosen) != (step.kind == "k")):
                    kept[index] = False
        total: Number = 0
        for index, keep in enumerate(kept):
            if keep:
                total += got[index]
                continue
            texts[index] = f"~~{texts[index]}~~"
            start, end = spans[index]
            faces[start:end] = [
                DieFace(d.sides, d.face, False, d.typed_in) for d in faces[start:end]
            ]
        return total, prefix + ", ".join(texts) + suffix

    return roll_set
