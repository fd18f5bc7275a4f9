"""The base of every ruleset model, and the dice expression a ruleset may hold."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict

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


class Rules(BaseModel):
    """Base of every ruleset model: immutable, and unknown keys are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid")
