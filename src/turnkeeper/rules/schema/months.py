"""The month: the faction turn's table (TP-TIME-1's "Haven/Domain Turn / Faction Turn: 1 month").

The texts give only the scale; the table is the project's own, in the shape these games
share: a faction rolls, its resources added, and the total says what it does this month.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Literal

from pydantic import Field, field_validator

from turnkeeper.rules.schema.base import DiceExpression, Rules, Whole

#: What a faction may do with its month (the project's words).
FactionAct = Literal["trouble", "lie_low", "advance", "expand", "strike"]

#: The name the faction's roll gives its resources by: the sum of the faction's resources.
RESOURCES = "RESOURCES"


class FactionRow(Rules):
    """One row of the faction turn's table: totals up to ``up_to`` (the last row: any higher)
    do ``act``."""

    up_to: Whole | None = None
    act: FactionAct


def _default_table() -> list[FactionRow]:
    return [
        FactionRow(up_to=4, act="trouble"),
        FactionRow(up_to=6, act="lie_low"),
        FactionRow(up_to=8, act="advance"),
        FactionRow(up_to=10, act="expand"),
        FactionRow(act="strike"),
    ]


class FactionRules(Rules):
    """The faction turn, once a month for every faction of the world.

    DEFAULT (the texts give only the month): each faction rolls ``roll``, its resources
    summed as RESOURCES, and the table's row for the total says what it does: trouble (its
    goal's clock loses a segment), lie low (nothing), advance (its clock gains a segment),
    expand (it seizes the first hex it covets), strike (its first rival's clock loses a
    segment). Where the act has nothing to act on (nothing coveted is left, no rival has a
    segment to lose), the faction advances its goal instead.
    """

    roll: DiceExpression = Field(
        "2d6+RESOURCES",
        description="The faction's roll; RESOURCES is the sum of its resources (DEFAULT).",
    )
    table: list[FactionRow] = Field(
        default_factory=_default_table,
        description="Rows of totals and acts, lowest first; the last row has no up_to "
        "(DEFAULT: up to 4 trouble, 6 lie low, 8 advance, 10 expand, higher strike).",
    )

    @field_validator("table")
    @classmethod
    def _rows_ascend(cls, rows: list[FactionRow]) -> list[FactionRow]:
        if not rows or rows[-1].up_to is not None:
            raise ValueError("the last row of the faction table takes any higher total: no up_to")
        tops = [row.up_to for row in rows[:-1] if row.up_to is not None]
        if len(tops) < len(rows) - 1:
            raise ValueError("only the last row of the faction table may leave out up_to")
        if any(a >= b for a, b in pairwise(tops)):
            raise ValueError("the faction table's rows go up: each up_to above the one before")
        return rows

    def act_for(self, total: int) -> FactionAct:
        """The act of the row ``total`` falls in.

        >>> FactionRules().act_for(7), FactionRules().act_for(2), FactionRules().act_for(15)
        ('advance', 'trouble', 'strike')
        """
        for row in self.table:
            if row.up_to is None or total <= row.up_to:
                return row.act
        raise AssertionError("the last row takes every total")
