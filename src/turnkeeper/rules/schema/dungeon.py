"""Sites in a ruleset: movement modes, the dungeon turn, light and rest (EX-*, TP-DUN-*)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from turnkeeper.rules.schema.base import (
    DiceExpression,
    InSix,
    MisplacedValue,
    NonNegative,
    Positive,
    Rules,
    Sides,
    Whole,
)

# --- dungeon and site exploration (EX-*, TP-DUN-*) -----------------------------------------


class MovementMode(Rules):
    """A way of moving through a site (EX-MOV-1 to EX-MOV-3, EX-SUR-1 to EX-SUR-3, EX-MAP-1)."""

    feet_per_turn: Whole | None = Field(
        None, gt=0, description="Left out: any location of most sites in one turn (running)."
    )
    map_use: bool = True
    reads_map: bool = Field(
        False,
        description="EX-MOV-2: the party goes by reading its map, so only through areas it "
        "has explored and with light to read by (EX-MAP-1).",
        exclude_if=lambda reads: not reads,  # journals written before it stay identical
    )
    halts_at_doors: bool = False
    rest_after: bool = False
    surprise: Literal["never", "risk", "always"] = "risk"
    encounter_chance_in_six: InSix | None = Field(
        None, description="EX-ENC-4: raises the wandering chance while moving so."
    )


class DungeonRules(Rules):
    """The dungeon turn: which procedure runs and its numbers."""

    procedure: Literal["overloaded", "classic"]
    die: str = Field("dungeon", description="The overloaded die in ``dice`` (TP-DUN-1).")
    check_every_turns: Whole = Field(2, gt=0, description="EX-ENC-1.")
    check_die: Sides = 6
    encounter_chance: Whole = Field(1, ge=0, description="EX-ENC-1: encounter on 1..this.")
    tumult_chance: Whole = Field(2, ge=0, description="EX-ENC-4.")
    encounter_distance: DiceExpression = Field("2d4x10", description="EX-ENC-2, in feet.")
    movement: dict[str, MovementMode] = Field(default_factory=dict)


class LightSource(Rules):
    """A light the party carries (EX-LIGHT-1, EX-LIGHT-2)."""

    turns: Whole | None = Field(
        None, gt=0, description="Left out: lasts until a Waning Resources face (TP-ENC-2)."
    )
    radius_ft: Whole = Field(gt=0)
    supply: str = Field(description="The supply item spent to light it.")


class LightRules(Rules):
    """Light sources and how they burn down."""

    sources: dict[str, LightSource] = Field(default_factory=dict)
    burns: Literal["turns", "waning_face"] = Field(
        "turns", description="TP-ENC-2: under the overloaded die light lasts until face 4."
    )
    warn_turns_left: Whole = Field(1, ge=0, description="Warn on the last turn of light.")
    burns_down: Literal["from_lighting", "at_turn_ends"] = Field(
        "from_lighting",
        # a ruleset is embedded in its campaign's journal: journals written before it stay
        # identical
        exclude_if=lambda reading: reading == "from_lighting",
        description=(
            "EX-LIGHT-1/2, a light lit mid-turn: 'from_lighting', it lasts its turns in full "
            "from when it was lit (a torch lit at 08:05 is out at 08:35); 'at_turn_ends', it "
            "loses a turn at each of the site's turn boundaries (out at 08:30). Read by "
            "nothing under burns = 'waning_face' (TP-ENC-2: a light has no turns), so a "
            "ruleset extending ex may switch burns and keep it."
        ),
    )

    @model_validator(mode="after")
    def _turns_only_when_counted(self) -> LightRules:
        # TP-ENC-2: under the overloaded die a light lasts until a Waning Resources face, so a
        # number of turns would be read by nothing and mislead the designer who wrote it.
        if self.burns == "waning_face":
            for name, source in self.sources.items():
                if source.turns is not None:
                    raise MisplacedValue(
                        f"sources.{name}.turns",
                        'turns only count under burns = "turns"; under burns = "waning_face" '
                        "a light lasts until a Waning Resources face (TP-ENC-2): "
                        "leave turns out",
                        involves=("burns",),
                    )
        return self


class RestRules(Rules):
    """Rest cadence and weariness (EX-REST-1 to EX-REST-3) and forced rest (TP-ENC-1).

    The defaults are "no such rule": only the Exploration text (EX) imposes a cadence and
    weariness, so a ruleset that wants them says so, as ``ex.toml`` does.
    """

    active_turns: Whole | None = Field(
        None,
        gt=0,
        description="EX-REST-1: rest 1 turn in 6. 0 (None): no cadence, rest when forced.",
    )
    rest_turns: Positive = 1
    after_running: bool = False
    after_fight: bool = False
    wearied_skill: Whole = 0
    wearied_to_hit: Whole = 0
    consumes: dict[str, NonNegative] = Field(
        default_factory=lambda: {"rations": 1, "water": 1},
        description="Forced rest (TP-ENC-1 face 3) consumes these supplies per character.",
    )

    @field_validator("active_turns", mode="before")
    @classmethod
    def _zero_means_no_cadence(cls, value: object) -> object:
        # TOML has no null: 0 says "no fixed rest cadence" (TP rests only on a forced-rest face)
        return None if value == 0 else value


class DayRules(Rules):
    """Days that pass out of a site: the meal, the night and its healing (TP-TIME-2,
    TP-ENC-2, PG-HEAL-1). Every command that passes days spends them by these keys.

    DEFAULT (the texts name no hour): the day's meal is the evening meal at 18:00, and the
    night runs from it to the morning (the hour the calendar starts at).
    """

    meal_hour: Whole = Field(
        18,
        ge=0,
        description="The hour of the day's meal (DEFAULT: the evening meal at 18:00); the "
        "night's rest runs from it to the morning.",
    )
    meals: Literal["daily", "die"] = Field(
        "daily",
        description="daily: a meal every day at meal_hour (PG-HEAL-1, TP-TIME-2); die: the "
        "overloaded die replaces fixed resource durations (TP-ENC-2), so food and water are "
        "eaten on its Forced Rest faces only and no meal is stamped.",
    )
    meal: dict[str, NonNegative] = Field(
        default_factory=lambda: {"rations": 1, "water": 1},
        description="What the day's meal spends per living character (a usage-die supply "
        "rolls its die once for the party).",
    )
