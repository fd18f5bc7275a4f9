"""Weather in the wilderness: a state per region, changed on the wilderness die's face 4.

- TP-WENC-4 face 4: "the referee determines a new weather applicable for the milieu". The
  seed gives no table; the project's default (``[weather]`` in the ruleset, documented in
  docs/wilderness.md) rolls a table for the climate of the party's hex and the season of the
  calendar month. The referee may always set the weather by hand.
- TP-WIL-4: the weather's multiplier (rain x1/2, light snow x1/2, heavy snow x1/4) feeds the
  cost of every hex in the region.

>>> from turnkeeper.rules import preset
>>> season_of(preset("tp"), 0)  # the calendar starts on 1-01-01
'winter'
"""

from __future__ import annotations

from typing import ClassVar, Literal

from turnkeeper.clock.calendar import date_at
from turnkeeper.dice import DiceSource
from turnkeeper.errors import NotFoundError, RulesetError
from turnkeeper.kernel.events import Event, NoteMade, RollRecord, Shown, Visibility
from turnkeeper.kernel.state import (
    CampaignState,
    WeatherChange,
    wilderness_of,
    with_wilderness,
)
from turnkeeper.procedures.wilderness.costs import weather_key, weather_multiplier
from turnkeeper.rules.schema import Ruleset
from turnkeeper.tables import roll_ranged
from turnkeeper.world.hexes import Hex


def season_of(rules: Ruleset, now: int) -> str:
    """The season of the calendar month ``now`` falls in."""
    month = date_at(now, rules.time).month
    for season, months in rules.weather.seasons.items():
        if month in months:
            return season
    raise RulesetError(f"weather.seasons: no season holds month {month}; list every month 1..12")


def climate_of(state: CampaignState, hex_: Hex) -> str:
    """The climate of a hex: the map's, else the ruleset's default climate."""
    wild = wilderness_of(state)
    return wild.hexmap.climates.get(hex_, state.ruleset.weather.default_climate)


class WeatherChanged(Event):
    """The weather over a region changes (TP-WENC-4 face 4, or the referee sets it)."""

    kind: ClassVar[str] = "weather.changed"
    shown: ClassVar[Shown] = Shown.PARTY
    region: str
    weather: str
    by: Literal["table", "referee"] = "table"

    def apply(self, state: CampaignState) -> CampaignState:
        wild = wilderness_of(state)
        changed = with_wilderness(
            state, wild.with_(weather={**wild.weather, self.region: self.weather})
        )
        # the world's record of the place, with its time and party: the parties behind find
        # it as they pass it, and none may change the weather of a time lived since
        kept = WeatherChange(
            map=wild.map.name,
            region=self.region,
            weather=self.weather,
            at=state.now,
            party=state.company,
        )
        return changed.model_copy(update={"weather_changes": (*state.weather_changes, kept)})

    def describe(self) -> str:
        return f"the weather over {self.region} turns {self.weather.replace('_', ' ')}"


def roll_weather(state: CampaignState, dice: DiceSource, *, by_die: bool = False) -> list[Event]:
    """Roll new weather for the party's region from its climate's table for the season.

    With no table for that climate and season, a referee's note asks them to set it. Where
    the world has lived this time there already (another party's later change, or its
    lived days), the referee's roll is refused; the wilderness die's face (``by_die``) leaves
    the weather as the world lived it, with a note saying so.
    """
    wild = wilderness_of(state)
    region = wild.region_of(wild.position)
    lived = state.weather_lived(wild.map.name, region)
    if lived is not None:
        if not by_die:
            raise state.out_of_order(lived)
        return [
            NoteMade(
                text=f"change of weather over {region}: none, the world's weather of this "
                f"time is written already ({lived})",
                visibility=Visibility.REFEREE,
            )
        ]
    climate = climate_of(state, wild.position)
    season = season_of(state.ruleset, state.now)
    table = state.ruleset.weather.tables.get(climate, {}).get(season)
    if table is None:
        return [
            NoteMade(
                text=f"change of weather over {region}: no table for a {climate} {season} in "
                "the ruleset; set it with `turnkeeper weather set STATE`",
                visibility=Visibility.REFEREE,
            )
        ]
    result = roll_ranged(table, dice)
    weather_multiplier(state.ruleset, result.result)  # a table naming no travel.weather state
    return [
        WeatherChanged(region=region, weather=result.result, rolls=(RollRecord.of(result.roll),))
    ]


def set_weather(state: CampaignState, weather: str, region: str | None = None) -> list[Event]:
    """The referee sets the weather of a region (the party's by default)."""
    wild = wilderness_of(state)
    weather = weather_key(state.ruleset, weather)
    weather_multiplier(state.ruleset, weather)
    regions = {wild.region_of(wild.position), *wild.hexmap.regions.values()}
    chosen = region if region is not None else wild.region_of(wild.position)
    if chosen not in regions:
        raise NotFoundError(
            f"no region {chosen!r} on the map (regions: {', '.join(sorted(regions))})"
        )
    state.check_weather(wild.map.name, chosen)
    return [WeatherChanged(region=chosen, weather=weather, by="referee")]


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (WeatherChanged,)
