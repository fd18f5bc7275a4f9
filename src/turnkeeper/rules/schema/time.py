"""Time scales, overloaded dice and ranged tables in a ruleset (TP-TIME-1, TP-ENC-1, PG-REA-1)."""

from __future__ import annotations

import re
from enum import StrEnum
from itertools import pairwise

from pydantic import Field, model_validator

from turnkeeper.rules.schema.base import DiceExpression, MisplacedValue, Rules, Sides, Whole

# --- time -------------------------------------------------------------------------------

#: The calendar's months a year (its days a month are the ruleset's ``month_days``).
MONTHS_A_YEAR = 12
#: ``calendar_start`` as written: year-month-day, then the hour and minute if given.
CALENDAR_START = re.compile(
    r"^\s*(\d{1,6})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2}))?\s*$",
    re.ASCII,  # \d is 0 to 9 only: any script's digits would be read as these
)


class TimeScales(Rules):
    """How long each kind of turn lasts (TP-TIME-1, EX-TIME-1, PG-TIME-1, DG-RND-1, CB-RND-1)."""

    round_seconds: Whole = Field(10, gt=0, description="A combat round.")
    turn_minutes: Whole = Field(10, gt=0, description="A dungeon or site turn.")
    watch_hours: Whole = Field(4, gt=0, description="A wilderness watch: one travel point.")
    day_hours: Whole = Field(24, gt=0)
    month_days: Whole = Field(30, gt=0, description="A haven, domain or faction turn.")
    exploration_round_minutes: Whole = Field(
        10, gt=0, description="DG-RND-1: an exploration round, 2 min to 8 h; the table's default."
    )
    social_round_minutes: Whole = Field(
        1, gt=0, description="DG-RND-1: a social round, 1 to 10 min; the table's default."
    )
    # DG-RND-1's ranges, which `scene open --round` keeps to; the text's own numbers are the
    # defaults and are left out of a record when kept, so journals written before stay identical
    exploration_round_shortest_minutes: Whole = Field(
        2,
        gt=0,
        exclude_if=lambda minutes: minutes == 2,
        description="DG-RND-1: the shortest exploration round `scene open --round` may set.",
    )
    exploration_round_longest_minutes: Whole = Field(
        8 * 60,
        gt=0,
        exclude_if=lambda minutes: minutes == 8 * 60,
        description="DG-RND-1: the longest exploration round `scene open --round` may set.",
    )
    social_round_shortest_minutes: Whole = Field(
        1,
        gt=0,
        exclude_if=lambda minutes: minutes == 1,
        description="DG-RND-1: the shortest social round `scene open --round` may set.",
    )
    social_round_longest_minutes: Whole = Field(
        10,
        gt=0,
        exclude_if=lambda minutes: minutes == 10,
        description="DG-RND-1: the longest social round `scene open --round` may set.",
    )
    calendar_start: str = Field(
        "1-01-01T08:00", description="The campaign's first moment: year-month-day and hour."
    )

    @model_validator(mode="after")
    def _rounds_within_their_ranges(self) -> TimeScales:
        # DG-RND-1: the table's default round is one the text allows, and a range runs upwards
        for kind in ("exploration", "social"):
            default = getattr(self, f"{kind}_round_minutes")
            shortest = getattr(self, f"{kind}_round_shortest_minutes")
            longest = getattr(self, f"{kind}_round_longest_minutes")
            if not shortest <= default <= longest:
                raise MisplacedValue(
                    f"{kind}_round_minutes",
                    f"a {kind} round of {default} min is outside its range of {shortest} to "
                    f"{longest} min ({kind}_round_shortest_minutes, "
                    f"{kind}_round_longest_minutes): give a length within it, or widen it",
                    (f"{kind}_round_shortest_minutes", f"{kind}_round_longest_minutes"),
                )
        return self

    @model_validator(mode="after")
    def _calendar_starts_on_a_date(self) -> TimeScales:
        # checked with the ruleset, so `rules check` refuses what `new` could not start from
        match = CALENDAR_START.match(self.calendar_start)
        if match is None:
            raise MisplacedValue(
                "calendar_start",
                "expected year-month-day and hour such as 1-01-01T08:00 (a year of at most "
                f"6 digits), got {self.calendar_start!r}",
            )
        month, day = int(match[2]), int(match[3])
        hour, minute = int(match[4] or 0), int(match[5] or 0)
        if int(match[1]) < 1 or not 1 <= month <= MONTHS_A_YEAR:
            raise MisplacedValue(
                "calendar_start",
                f"no such date {self.calendar_start!r}: years count from 1, months from 1 "
                f"to {MONTHS_A_YEAR}",
            )
        if not 1 <= day <= self.month_days:
            raise MisplacedValue(
                "calendar_start",
                f"no such date {self.calendar_start!r}: a month has days 1 to "
                f"{self.month_days} (month_days)",
                ("month_days",),
            )
        if hour >= self.day_hours or minute >= 60:
            raise MisplacedValue(
                "calendar_start",
                f"no such time {self.calendar_start!r}: a day has hours 0 to "
                f"{self.day_hours - 1} (day_hours) and an hour minutes 0 to 59",
                ("day_hours",),
            )
        return self

    max_wait_days: Whole | None = Field(
        None,
        gt=0,
        le=36_500,  # a century: beyond it one command would keep a server deciding for hours
        exclude_if=lambda days: days is None,  # journals written before it stay identical
        description="The longest wait one command may pass, in days (none: a year, 12 months).",
    )

    lag_warning_days: Whole | None = Field(
        None,
        gt=0,
        exclude_if=lambda days: days is None,  # journals written before it stay identical
        description="How far a party may lag the world's present, in days, before the "
        "referee is warned (none: a month, month_days).",
    )

    @property
    def lag_warning(self) -> int:
        """The seconds a party may lag the world's present before the referee is warned."""
        days = self.lag_warning_days if self.lag_warning_days is not None else self.month_days
        return days * self.day_hours * 3600

    @property
    def longest_wait(self) -> int:
        """The seconds one wait may pass at most: ``max_wait_days``, else a year of 12 months."""
        days = self.max_wait_days if self.max_wait_days is not None else 12 * self.month_days
        return days * self.day_hours * 3600


# --- overloaded dice and tables ----------------------------------------------------------


class FaceEvent(StrEnum):
    """What a face of an overloaded die makes happen: the typed events of the texts."""

    ENCOUNTER = "encounter"
    ENVIRONMENT = "environment"
    DUNGEON_ROUSES = "dungeon_rouses"
    DUNGEON_REACTS = "dungeon_reacts"
    WEATHER_CHANGE = "weather_change"
    FORCED_REST = "forced_rest"
    WANING_RESOURCES = "waning_resources"
    FREE_TURN = "free_turn"
    SLUMBER = "slumber"
    GOOD_ENCOUNTER = "good_encounter"
    HIDDEN_SITE = "hidden_site"
    NOISE = "noise"
    FATIGUE = "fatigue"
    RESPITE = "respite"
    SECOND_WIND = "second_wind"


class Side(StrEnum):
    """The two sides of a combat (CB-SIDE-1)."""

    PARTY = "party"
    OPPOSITION = "opposition"


class Face(Rules):
    """One face of an overloaded die: its typed event and the words the text gives it."""

    event: FaceEvent
    label: str
    text: str = ""
    initiative: Side | None = Field(
        None, description="TP-INI-1: which side has initiative on this face, if any."
    )


class OverloadedDie(Rules):
    """A die whose faces are events (TP-ENC-1, TP-DUN-1, TP-INI-1, TP-WENC-4).

    ``milieus`` swap faces by where the party is or the moment (TP-WENC-3): a desert turns
    Free Turn into Waning Resources; a night camp may turn Hidden Site into an encounter.
    """

    sides: Sides = 6
    faces: dict[int, Face]
    milieus: dict[str, dict[int, Face]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _every_face_named(self) -> OverloadedDie:
        expected = set(range(1, self.sides + 1))
        if set(self.faces) != expected:
            raise ValueError(f"faces must be exactly 1..{self.sides}; got {sorted(self.faces)}")
        for milieu, swaps in self.milieus.items():
            stray = set(swaps) - expected
            if stray:
                raise ValueError(f"milieu {milieu!r} swaps faces {sorted(stray)} not on the die")
        return self


class TableRow(Rules):
    """One band of a ranged table: totals from ``low`` to ``high`` (open-ended if None)."""

    low: Whole | None = None
    high: Whole | None = None
    result: str
    text: str = ""


class RangedTable(Rules):
    """A table read by the total of a dice expression, such as the reaction roll (PG-REA-1)."""

    dice: DiceExpression
    rows: list[TableRow] = Field(min_length=1)

    @model_validator(mode="after")
    def _bands_do_not_overlap(self) -> RangedTable:
        for row in self.rows:
            if row.low is not None and row.high is not None and row.low > row.high:
                raise ValueError(f"row {row.result!r} runs from {row.low} down to {row.high}")
        unbounded = 10**9
        bands = sorted(
            (
                row.low if row.low is not None else -unbounded,
                row.high if row.high is not None else unbounded,
            )
            for row in self.rows
        )
        for (_, high), (low, _) in pairwise(bands):
            if low <= high:
                raise ValueError(f"rows overlap at {low}")
            if low != high + 1:
                raise ValueError(f"rows leave a gap between {high} and {low}")
        return self
