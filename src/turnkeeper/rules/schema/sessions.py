"""Between sessions: whether the world's time follows the real calendar while the players
are away (the TP text's opening page: one actual day is one game day between sessions)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, Strict

from turnkeeper.rules.schema.base import Rules

#: The most game days one actual day may be: a month of the longest calendar.
MOST_DAYS_PER_DAY = 1000


class SessionRules(Rules):
    """The world between sessions (``world catch-up``).

    DEFAULT (the project's reading of the text's opening page): off. A referee who never asked
    for it sees no days pass by themselves; a ruleset that sets ``real_calendar = true`` lets
    ``world catch-up`` bring every idle party forward by the actual days since the last
    catch-up, ``game_days_per_day`` game days for each (the text's one for one).
    """

    real_calendar: Annotated[bool, Strict()] = Field(
        False,
        description="Whether `world catch-up` moves the world by the actual days between "
        "sessions (DEFAULT: false).",
    )
    game_days_per_day: Annotated[int, Strict()] = Field(
        1,
        ge=1,
        le=MOST_DAYS_PER_DAY,
        description="Game days that pass for each actual day (DEFAULT: 1, as the text's page).",
    )
