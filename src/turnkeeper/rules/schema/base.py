"""The base of every ruleset model, and the dice expression a ruleset may hold."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, Strict

from turnkeeper.dice import parse
from turnkeeper.errors import DiceNotationError


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


def _not_a_flag(value: object) -> object:
    # pydantic reads true as 1: a multiplier of `true` is a slip, not a number
    if isinstance(value, bool):
        raise ValueError(f"expected a fraction such as 2/3, got {str(value).lower()}")
    return value


#: A whole number as the file writes it: ``true`` is not 1, ``2.0`` is not 2.
Whole = Annotated[int, Strict()]
#: A count that must be at least one (travel points a day, feet of light, ...).
Positive = Annotated[int, Strict(), Field(gt=0)]
#: A count or chance that may be zero but never negative.
NonNegative = Annotated[int, Strict(), Field(ge=0)]
#: A chance in six (PG-SUR-1, TP-LOST-1, EX-ENC-4): 0 to 6.
InSix = Annotated[int, Strict(), Field(ge=0, le=6)]
#: A travel multiplier (TP-WIL-3, TP-WIL-4): 0 means impassable (TP-WIL-4 high mountains x0).
Multiplier = Annotated[Fraction, BeforeValidator(_not_a_flag), Field(ge=0)]


class Rules(BaseModel):
    """Base of every ruleset model: immutable, and unknown keys are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
