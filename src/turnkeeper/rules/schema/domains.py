"""The domain turn's tables (TP-TIME-1's "Haven/Domain Turn: 1 month").

The texts give only the scale; the tables are the project's own, in the shape these games
share: each month a domain's people are in a mood (a roll, last month's mood and an unpaid
upkeep as its modifiers), the mood's row says how much of the month's income comes in and
whether it brings trouble, and the domain's upkeep is paid from its coffers.
"""

from __future__ import annotations

from pydantic import Field, field_validator

from turnkeeper.dice import parse
from turnkeeper.rules.schema.base import (
    DiceExpression,
    NonNegative,
    Rules,
    Whole,
    row_for,
    rows_go_up,
)

#: The name the mood roll gives its modifiers by: last month's mood and an unpaid upkeep.
MOOD = "MOOD"

#: The most of a month's income a mood lets in, as a percentage (a loyal people's gifts).
MOST_SHARE = 1000


class MoodRow(Rules):
    """One row of the mood table: totals up to ``up_to`` (the last row: any higher) make the
    people ``mood``; ``income`` is the share of the month's income that comes in (per cent),
    ``carry`` what the mood adds to next month's roll, ``trouble`` what it brings, if any."""

    up_to: Whole | None = None
    mood: str = Field(min_length=1, description="The people's mood, in the referee's words.")
    income: NonNegative = Field(
        100, le=MOST_SHARE, description="The share of the month's income that comes in (%)."
    )
    carry: Whole = Field(0, ge=-20, le=20, description="Added to next month's mood roll.")
    trouble: str = Field(
        "", description="What the mood brings, for the referee to play out (a revolt, unrest)."
    )


def _default_moods() -> list[MoodRow]:
    return [
        MoodRow(
            up_to=4,
            mood="rebellious",
            income=0,
            carry=-1,
            trouble="revolt",
        ),
        MoodRow(up_to=6, mood="restless", income=50, trouble="unrest"),
        MoodRow(up_to=9, mood="content"),
        MoodRow(mood="loyal", carry=1),
    ]


class DomainRules(Rules):
    """The domain turn, once a month for every domain of the world.

    DEFAULT (the texts give only the month): at the world's month turn each domain, in the
    order granted, rolls its people's ``mood`` (MOOD: last month's row's ``carry``, and
    ``unpaid`` where last month's upkeep was not paid in full), then its ``income``, of which
    the mood's row lets its share in; then ``upkeep`` is paid from the coffers, as much as
    they hold. Moods 2d6+MOOD: up to 4 rebellious (no income, trouble, -1 next month), 5-6
    restless (half the income, trouble), 7-9 content, higher loyal (+1 next month); income
    2d6x10 coins, upkeep 30 coins, unpaid -2.
    """

    income: DiceExpression = Field(
        "2d6x10", description="The month's income in coins, before the mood's share (DEFAULT)."
    )
    upkeep: NonNegative = Field(30, description="Coins the domain costs a month (DEFAULT).")
    mood: DiceExpression = Field(
        "2d6+MOOD",
        description="The people's mood roll; MOOD is last month's carry and an unpaid upkeep "
        "(DEFAULT).",
    )
    unpaid: Whole = Field(
        -2,
        ge=-20,
        le=20,
        description="Added to the next mood roll where the upkeep went unpaid (DEFAULT).",
    )
    moods: list[MoodRow] = Field(
        default_factory=_default_moods,
        description="Rows of totals and moods, lowest first; the last row has no up_to "
        "(DEFAULT: up to 4 rebellious, 6 restless, 9 content, higher loyal).",
    )

    @field_validator("income")
    @classmethod
    def _income_names_nothing(cls, text: str) -> str:
        names = sorted(parse(text).names)
        if names:
            raise ValueError(f"the income roll names no values, not {', '.join(names)}")
        return text

    @field_validator("mood")
    @classmethod
    def _mood_names_its_modifier(cls, text: str) -> str:
        others = sorted(parse(text).names - {MOOD})
        if others:
            raise ValueError(f"the mood roll names only {MOOD}, not {', '.join(others)}")
        return text

    @field_validator("moods")
    @classmethod
    def _rows_ascend(cls, rows: list[MoodRow]) -> list[MoodRow]:
        rows_go_up(rows, "the mood table")
        names = [row.mood for row in rows]
        if len(set(names)) < len(names):
            raise ValueError("each row of the mood table names a mood of its own")
        return rows

    def row_for(self, total: int) -> MoodRow:
        """The row ``total`` falls in.

        >>> rules = DomainRules()
        >>> rules.row_for(4).mood, rules.row_for(7).mood, rules.row_for(15).mood
        ('rebellious', 'content', 'loyal')
        """
        return row_for(self.moods, total)

    def carried(self, mood: str | None, short: bool) -> int:
        """What a month whose people were ``mood`` (None: no month yet), its upkeep ``short``
        or not, adds to the next mood roll."""
        row = next((r for r in self.moods if r.mood == mood), None)
        return (row.carry if row is not None else 0) + (self.unpaid if short else 0)
