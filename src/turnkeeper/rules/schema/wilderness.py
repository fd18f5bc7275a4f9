"""Wilderness travel in a ruleset: travel points, getting lost, the wilderness die, weather."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Literal

from pydantic import Field, Strict, model_validator

from turnkeeper.rules.schema.base import InSix, Multiplier, NonNegative, Rules
from turnkeeper.rules.schema.time import RangedTable

#: The most travel points a day holds (TP-WIL-1: 4, one a watch; a vessel's day 1 to 8): the
#: route search counts a day in whole units of the finest hex cost, in 64-bit integers.
MAX_DAILY_TP = 1000
#: The largest TP-WIL-7 movement factor and TP-WIL-8 impassable factor (the text's: 2).
MAX_FACTOR = 100
#: Travel points a day, 1 to ``MAX_DAILY_TP``.
DailyTP = Annotated[int, Strict(), Field(gt=0, le=MAX_DAILY_TP)]
#: A TP-WIL-7 or TP-WIL-8 factor, 1 to ``MAX_FACTOR``.
Factor = Annotated[int, Strict(), Field(gt=0, le=MAX_FACTOR)]

#: A calendar month, 1 to 12.
Month = Annotated[int, Strict(), Field(ge=1, le=12)]

# --- wilderness travel (TP-WIL-*, TP-LOST-1, TP-WENC-*) ------------------------------------


class Vessel(Rules):
    """A way of travelling over water or through the air (TP-WIL-9, the project's defaults)."""

    travel_points_per_day: DailyTP
    multiplier: Multiplier = Fraction(1)
    over: list[str] = Field(description="Terrains this vessel may enter, e.g. ['water'].")
    text: str = ""


class TravelRules(Rules):
    """Travel points and their multipliers (TP-WIL-1 to TP-WIL-9)."""

    travel_points_per_day: DailyTP = Field(4, description="TP-WIL-1: one per watch.")
    movement_points_per_tp: Multiplier = Field(Fraction(1), gt=0, description="TP-WIL-2.")
    max_movement_factor: Factor = Field(
        2,
        description="TP-WIL-7: at most this many times the daily TP in movement points.",
    )
    impassable_factor: Factor = Field(
        2,
        description="TP-WIL-8: a hex costing this many times the daily TP is impassable.",
    )
    party: dict[str, Multiplier] = Field(default_factory=dict, description="TP-WIL-3.")
    party_size: dict[str, NonNegative] = Field(
        default_factory=dict,
        description="TP-WIL-3: a party condition that applies of itself when the roster holds "
        "more than this many living characters (over_20 = 20); empty: only those the referee "
        "names.",
        exclude_if=lambda sizes: not sizes,  # journals written before it stay identical
    )
    terrain: dict[str, Multiplier] = Field(default_factory=dict, description="TP-WIL-4.")
    roads: dict[str, Multiplier] = Field(default_factory=dict, description="TP-WIL-4.")
    weather: dict[str, Multiplier] = Field(default_factory=dict, description="TP-WIL-4.")
    vessels: dict[str, Vessel] = Field(default_factory=dict, description="TP-WIL-9.")

    @model_validator(mode="after")
    def _sizes_are_party_conditions(self) -> TravelRules:
        for condition in self.party_size:
            if condition not in self.party:
                raise ValueError(
                    f"travel.party_size.{condition} is not a party condition of travel.party "
                    f"({', '.join(sorted(self.party)) or 'none'}): add it there or remove it"
                )
        return self


class LostRules(Rules):
    """Getting lost (TP-LOST-1, the project's default: the seed says TODO)."""

    enabled: bool = True
    chance_in_six: dict[str, InSix] = Field(
        default_factory=dict,
        description="Per terrain, rolled once a day off road without a landmark.",
    )


class WildernessRules(Rules):
    """When the wilderness die is rolled (TP-WENC-1, TP-WENC-2) and which die it is."""

    die: str = Field("wilderness", description="Name of the overloaded die in ``dice``.")
    # Rules is a pydantic model, which copies these defaults: ruff cannot see it across modules.
    travel_checks: list[Literal["half", "first", "last", "camp"]] = ["half", "camp"]  # noqa: RUF012
    explore_checks: list[Literal["half", "first", "last", "camp"]] = ["first", "last", "camp"]  # noqa: RUF012
    search_hidden_tp: NonNegative = Field(1, description="TP-DISC-2: one hidden feature at random.")
    search_named_tp: NonNegative = Field(
        2, description="TP-DISC-2: a hidden feature the party names."
    )
    landmark_sight_hexes: NonNegative = Field(2, description="TP-DISC-1.")


class WeatherRules(Rules):
    """Weather by climate and season (TP-WENC-4 face 4; the project's default tables).

    ``tables[climate][season]`` is rolled when the wilderness die shows Change of Weather;
    each result names a state of ``travel.weather``, whose multiplier feeds TP-WIL-4.
    A climate or season with no table leaves the weather for the referee to set.
    """

    start: str = Field("clear", description="The weather of every region when a map is loaded.")
    default_climate: str = Field("temperate", description="For hexes the map gives no climate.")
    seasons: dict[str, list[Month]] = Field(
        default_factory=lambda: {
            "winter": [12, 1, 2],
            "spring": [3, 4, 5],
            "summer": [6, 7, 8],
            "autumn": [9, 10, 11],
        },
        description="Season name -> calendar months (1..12).",
    )
    tables: dict[str, dict[str, RangedTable]] = Field(
        default_factory=dict, description="Climate -> season -> table of weather states."
    )
