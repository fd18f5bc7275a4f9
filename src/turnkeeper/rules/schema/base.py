"""The base of every ruleset model, and the dice expression a ruleset may hold."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise
from typing import Annotated, Protocol, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, Strict

from turnkeeper.dice import parse
from turnkeeper.dice.nodes import MAX_DICE, MAX_SIDES
from turnkeeper.errors import DiceNotationError
from turnkeeper.files.names import MAX_TEXT_LENGTH


def _parses_as_dice(text: str) -> str:
    """Check a dice expression at load time, so a broken one is the ruleset's error."""
    try:
        parse(text)
    except DiceNotationError as error:
        raise ValueError(
            f"expected a dice expression such as 2d6+CHA, got {text!r} ({error})"
        ) from None
    return text


#: A dice expression (``2d6+CHA``, ``19-HD``): names are allowed, checked when loaded.
DiceExpression = Annotated[str, AfterValidator(_parses_as_dice)]


class MisplacedValue(ValueError):
    """A check of a whole table that blames one key inside it, so the message names that key.

    ``key`` is the dotted path below the table the validator checks; the loader adds it to
    the table's own path (``light`` + ``sources.torch.turns``). ``involves`` names the other
    keys the check read (``burns``), so the message names whichever file set one of them
    last: the designer's file that switched ``burns``, not the preset that gave the turns.
    """

    def __init__(self, key: str, message: str, involves: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.key = key
        self.involves = involves


#: The largest whole number a ruleset holds, either way of zero: far beyond any table's (a
#: rest of 1,000 turns, a month of 1,000 days), and small enough that what the engine makes
#: of it (seconds of a wait, a day's travel units, a simulation's 32-bit counters) is counted
#: exactly. A key with a tighter bound says so where it is declared.
MAX_WHOLE = 1_000_000
#: The largest travel multiplier, and its finest part (TP-WIL-3, TP-WIL-4): 1/1000 to 1000.
#: A hex's cost is the inverse of a product of multipliers, counted exactly in whole units by
#: the route search; coarser parts keep those units within its 64-bit counts.
MAX_MULTIPLIER = 1000


def _as_written(value: object) -> object:
    """A multiplier as the file writes it: ``true`` is a slip, ``0.1`` is 1/10."""
    # pydantic reads true as 1: a multiplier of `true` is a slip, not a number
    if isinstance(value, bool):
        raise ValueError(f"expected a fraction such as 2/3, got {str(value).lower()}")
    if isinstance(value, float):
        # TOML gives the decimal as the nearest binary float, whose exact fraction is
        # 3602879701896397/36028797018963968 for 0.1; its shortest decimal is what was written
        return str(value)
    return value


def _within_bounds(value: Fraction) -> Fraction:
    if value > MAX_MULTIPLIER or value.denominator > MAX_MULTIPLIER:
        shown = str(value) if len(str(value)) <= 40 else f"{float(value):.3g}"
        raise ValueError(
            f"expected a fraction from 0 to {MAX_MULTIPLIER} in parts of at least "
            f"1/{MAX_MULTIPLIER} (such as 2/3 or 0.25), got {shown}: write a simpler fraction"
        )
    return value


#: A whole number as the file writes it: ``true`` is not 1, ``2.0`` is not 2.
Whole = Annotated[int, Strict(), Field(ge=-MAX_WHOLE, le=MAX_WHOLE)]
#: A count that must be at least one (travel points a day, feet of light, ...).
Positive = Annotated[int, Strict(), Field(gt=0, le=MAX_WHOLE)]
#: A count or chance that may be zero but never negative.
NonNegative = Annotated[int, Strict(), Field(ge=0, le=MAX_WHOLE)]
#: The sides of a die the ruleset has rolled (a check die, magic dice, an overloaded die):
#: 2 to the most a dice expression may give a die.
Sides = Annotated[int, Strict(), Field(gt=1, le=MAX_SIDES)]
#: How many dice are rolled together (magic dice): 1 to the most a dice expression may roll.
DiceCount = Annotated[int, Strict(), Field(gt=0, le=MAX_DICE)]
#: A chance in six (PG-SUR-1, TP-LOST-1, EX-ENC-4): 0 to 6.
InSix = Annotated[int, Strict(), Field(ge=0, le=6)]
#: A travel multiplier (TP-WIL-3, TP-WIL-4): 0 means impassable (TP-WIL-4 high mountains x0).
Multiplier = Annotated[
    Fraction, BeforeValidator(_as_written), Field(ge=0), AfterValidator(_within_bounds)
]


class Rules(BaseModel):
    """Base of every ruleset model: immutable, and unknown keys are errors; every text (a
    face's label, a table's result, a key) as long as a command's text at most."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", defer_build=True, str_max_length=MAX_TEXT_LENGTH
    )


class UpTo(Protocol):
    """A row of a table read by a roll's total: totals up to ``up_to`` (the last: any higher)."""

    @property
    def up_to(self) -> int | None: ...


Row = TypeVar("Row", bound=UpTo)


def rows_go_up(rows: list[Row], table: str, row: str = "row") -> list[Row]:
    """``rows`` if they read every total, lowest first: each ``up_to`` above the one before,
    the last row with none (any higher total); else one error naming ``table``.

    >>> rows_go_up([], "the mood table")
    Traceback (most recent call last):
    ...
    ValueError: the last row of the mood table takes any higher total: no up_to
    """
    if not rows or rows[-1].up_to is not None:
        raise ValueError(f"the last {row} of {table} takes any higher total: no up_to")
    tops = [r.up_to for r in rows[:-1] if r.up_to is not None]
    if len(tops) < len(rows) - 1:
        raise ValueError(f"only the last {row} of {table} may leave out up_to")
    if any(a >= b for a, b in pairwise(tops)):
        raise ValueError(f"{table}'s {row}s go up: each up_to above the one before")
    return rows


def row_for(rows: Sequence[Row], total: int) -> Row:
    """The row of ``rows`` (checked by :func:`rows_go_up`) that ``total`` falls in."""
    return next(r for r in rows if r.up_to is None or total <= r.up_to)
