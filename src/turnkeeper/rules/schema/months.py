"""The month: the faction turn's table (TP-TIME-1's "Haven/Domain Turn / Faction Turn: 1 month").

The texts give only the scale; the table is the project's own, in the shape these games
share: a faction rolls, its resources added, and the total says what it does this month.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from turnkeeper.rules.schema.base import (
    DiceExpression,
    NonNegative,
    Rules,
    Whole,
    row_for,
    rows_go_up,
)

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
        return rows_go_up(rows, "the faction table")

    def act_for(self, total: int) -> FactionAct:
        """The act of the row ``total`` falls in.

        >>> FactionRules().act_for(7), FactionRules().act_for(2), FactionRules().act_for(15)
        ('advance', 'trouble', 'strike')
        """
        return row_for(self.table, total).act


# --- the haven turn -----------------------------------------------------------------------

#: The haven's activities (the project's words): what a character may spend a month on.
HavenActivity = Literal["recover", "train", "research", "work", "carouse"]


class HavenBand(Rules):
    """One band of an activity's result: totals up to ``up_to`` (the last band: any higher)
    say ``text`` and do what the band's numbers say."""

    up_to: Whole | None = None
    text: str = Field(min_length=1, description="What the month came to, as the players hear it.")
    heal: NonNegative = Field(0, description="Hit points healed (not above the most).")
    cure: list[str] = Field(default_factory=list, description="Conditions the month removes.")
    coins: Whole = Field(0, description="Coins earned (or, below 0, spent: at most those held).")


class HavenActivityRules(Rules):
    """An activity of the haven turn: its cost in coins, its roll, its bands."""

    cost: NonNegative = Field(0, description="Coins it costs, besides the cost of living.")
    roll: DiceExpression = Field("2d6", description="The result roll; a stat's name adds it.")
    bands: list[HavenBand] = Field(min_length=1, description="Bands of totals, lowest first.")

    @field_validator("bands")
    @classmethod
    def _bands_ascend(cls, bands: list[HavenBand]) -> list[HavenBand]:
        return rows_go_up(bands, "a haven activity", "band")

    def band_for(self, total: int) -> HavenBand:
        """The band ``total`` falls in."""
        return row_for(self.bands, total)


def _default_activities() -> dict[HavenActivity, HavenActivityRules]:
    band = HavenBand
    return {
        "recover": HavenActivityRules(
            roll="2d6+CON",
            bands=[
                band(up_to=6, text="rests poorly", heal=2),
                band(up_to=9, text="recovers", heal=4, cure=["wearied"]),
                band(text="recovers fully", heal=8, cure=["wearied"]),
            ],
        ),
        "train": HavenActivityRules(
            cost=50,
            roll="2d6+INT",
            bands=[
                band(up_to=6, text="trains without progress"),
                band(text="trains well: a mark of progress toward the next level"),
            ],
        ),
        "research": HavenActivityRules(
            cost=20,
            roll="2d6+INT",
            bands=[
                band(up_to=6, text="learns nothing of use"),
                band(up_to=9, text="hears a rumour (the referee tells it)"),
                band(text="finds an answer (the referee tells it)"),
            ],
        ),
        "work": HavenActivityRules(
            roll="2d6+STR",
            bands=[
                band(up_to=6, text="finds poor work", coins=5),
                band(up_to=9, text="works steadily", coins=15),
                band(text="works well", coins=30),
            ],
        ),
        "carouse": HavenActivityRules(
            cost=30,
            roll="2d6+CHA",
            bands=[
                band(up_to=4, text="a complication: a brawl, a debt, a grudge", coins=-20),
                band(up_to=9, text="makes friends and hears the town's gossip"),
                band(text="wins a patron's favour"),
            ],
        ),
    }


class HavenRules(Rules):
    """The haven turn, a character's month at a haven (TP-TIME-1: "Haven/Domain Turn: 1 month").

    DEFAULT (the texts give only the month): the character pays ``living`` coins and the
    activity's ``cost`` from their own coins, the party's month passes as any wait's days,
    and the activity's ``roll`` (a stat's name adds the character's modifier) falls in a band
    that heals, cures, earns or spends coins and says what the month came to. Recover 2d6+CON
    (up to 6 heals 2, up to 9 heals 4 and cures wearied, higher heals 8 and cures wearied);
    train 50 coins, 2d6+INT (7+ a mark of progress); research 20 coins, 2d6+INT (7-9 a rumour,
    10+ an answer); work 2d6+STR (earns 5, 15 or 30 coins); carouse 30 coins, 2d6+CHA (up to 4
    a complication costing 20 coins more, 10+ a patron).
    """

    living: NonNegative = Field(10, description="Coins a month's living costs (DEFAULT).")
    activities: dict[HavenActivity, HavenActivityRules] = Field(
        default_factory=_default_activities,
        description="The activities, each its cost, roll and bands (DEFAULT: see the section).",
    )

    @field_validator("activities", mode="before")
    @classmethod
    def _over_the_defaults(cls, given: object) -> object:
        # the presets leave the haven to its defaults: a ruleset's file that names one
        # activity changes that one, and the others stay the table's
        if not isinstance(given, dict):
            return given
        return {**_default_activities(), **given}
