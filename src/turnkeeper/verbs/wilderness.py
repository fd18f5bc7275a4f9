"""The wilderness's verbs: its map, travel and exploring, searching, camping, weather, and
what the party's map shows."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, ClassVar, Literal

from pydantic import (
    Field,
)

from turnkeeper.campaign import (
    CampaignState,
    Command,
)
from turnkeeper.errors import TurnkeeperError
from turnkeeper.procedures.parties import (
    ClearHex,
)
from turnkeeper.procedures.wilderness import (
    Camp,
    LoadMap,
    RevealOnMap,
    RollWeather,
    Search,
    SetWeather,
    Travel,
)
from turnkeeper.verbs.body import (
    FileText,
    Names,
    Place,
    VerbBody,
    as_file,
)
from turnkeeper.verbs.kinds import (
    DESTINATION,
    FEATURE,
    HEX,
    NOT_ON_THE_LINE,
    TRAVELLERS,
    VESSEL,
    WEATHER,
    Arg,
    Opt,
)
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile, format_for, loads_map, map_to_data

_FORAGE = "On waning resources, forage the next TP instead of eating [TP-ENC-1]."


class MapLoadBody(VerbBody, title="Load a wilderness map"):
    """Lay a wilderness map out in the campaign (embedded in the journal) and place the party."""

    example: ClassVar[str] = "map load examples/vale.toml --at 0304"

    verb: Literal["map_load"]
    map: Annotated[MapFile | None, NOT_ON_THE_LINE] = Field(
        None, description="The map as data (the JSON map format)."
    )
    map_text: Annotated[FileText | None, as_file("map_text"), Arg("FILE", file="map file")] = Field(
        None, description="The map file's text (.toml, .json or .csv), instead of map."
    )
    format: Annotated[Literal["toml", "json", "csv"] | None, NOT_ON_THE_LINE] = Field(
        None, description="The format of map_text (default: its file's extension, else toml)."
    )
    at: Annotated[str, HEX, Opt("--at")] = Field(
        min_length=1, description="The party's hex: a label (0304) or q,r."
    )
    vessel: Annotated[str | None, VESSEL] = Field(
        None,
        description="The vessel the party starts in (river boat...), to start on water; "
        "'' goes on foot.",
    )

    def command(self, state: CampaignState) -> Command:
        if (self.map is None) == (self.map_text is None):
            raise TurnkeeperError("map_load: give the map as map (data) or map_text (file text)")
        data = self.map
        if self.map_text is not None:
            named = Path(self.map_text.name)
            fmt = self.format or (format_for(named) if named.suffix else "toml")
            read = loads_map(self.map_text.text, fmt, where=self.map_text.name)
            data = MapFile.model_validate(map_to_data(read))
        assert data is not None
        return LoadMap(data, Hex.parse(self.at), self.vessel)


class TravelBody(VerbBody, title="Travel"):
    """Travel toward a direction, a hex or a found feature, watch by watch [TP-WIL-6]."""

    where = Place.WILDERNESS
    example: ClassVar[str] = 'travel ne; travel 0506 --party mounted; travel "Ruined Tower"'

    as_lines = True
    grouped = True

    verb: Literal["travel"]
    target: Annotated[str, DESTINATION, Arg()] = Field(
        min_length=1, description="A direction (n ne se s sw nw), a hex (0304) or a found feature."
    )
    explore: bool = Field(False, description="Explore the way instead of travelling [TP-WENC-2].")
    party: Annotated[Names | None, TRAVELLERS] = Field(
        None, description="Travel conditions: mounted, carriage, over 20, over 50."
    )
    vessel: Annotated[str | None, VESSEL] = Field(
        None, description="A vessel of the ruleset (river boat, sailing ship...); '' clears."
    )
    milieu: str | None = Field(
        None, description="The wilderness die's milieu (desert, civilisation...); '' clears."
    )
    forage: bool = Field(False, description=_FORAGE)

    def command(self, state: CampaignState) -> Command:
        return Travel(
            self.target,
            explore=self.explore,
            party=self.party,
            vessel=self.vessel,
            milieu=self.milieu,
            waning="forage" if self.forage else "supplies",
        )


class ExploreBody(TravelBody, title="Explore"):
    """Explore toward a direction, a hex or a found feature: slower, and finds more [TP-WENC-2]."""

    example: ClassVar[str] = "explore ne; explore 0506"
    grouped = False

    verb: Literal["explore"]  # type: ignore[assignment]
    explore: Annotated[bool, NOT_ON_THE_LINE] = Field(
        True, description="Always true: exploring is travel that explores."
    )

    def command(self, state: CampaignState) -> Command:
        return TravelBody.command(self.model_copy(update={"explore": True}), state)


class SearchBody(VerbBody, title="Search"):
    """Search the party's hex for a hidden feature, at the cost of 1 travel point [TP-DISC-2]."""

    where = Place.WILDERNESS
    example: ClassVar[str] = 'search; search --for "Ruined Tower"; search --all-day'

    as_lines = True

    verb: Literal["search"]
    feature: Annotated[str | None, Opt("--for", metavar="FEATURE")] = Field(
        None, description="A hidden feature the party seeks by name (2 TP) [TP-DISC-2]."
    )
    all_day: bool = Field(
        False, description="Search all day for secrets; only at dawn [TP-DISC-3]."
    )

    def command(self, state: CampaignState) -> Command:
        return Search(self.feature, self.all_day)


class CampBody(VerbBody, title="Camp"):
    """Make the night camp: the die is rolled and the night passes until the morning.

    The day's meal, if not eaten yet, and the night's healing, on the map as off it
    [TP-WENC-1] [PG-HEAL-1].
    """

    where = Place.WILDERNESS
    example: ClassVar[str] = "camp; camp --forage"

    as_lines = True

    verb: Literal["camp"]
    forage: bool = Field(False, description=_FORAGE)

    def command(self, state: CampaignState) -> Command:
        return Camp("forage" if self.forage else "supplies")


class WeatherSetBody(VerbBody, title="Set the weather"):
    """The referee sets the weather over a region (the party's by default)."""

    where = Place.WILDERNESS
    example: ClassVar[str] = 'weather set rain; weather set "heavy snow" --region north'

    verb: Literal["weather_set"]
    weather: Annotated[str, WEATHER, Arg()] = Field(
        min_length=1, description="The weather: clear, rain, heavy snow..."
    )
    region: str | None = Field(None, description="The region (default: the party's).")

    def command(self, state: CampaignState) -> Command:
        return SetWeather(WEATHER.read(self.weather, state), self.region)


class WeatherRollBody(VerbBody, title="Roll the weather"):
    """Roll new weather for the party's region from the climate's table."""

    where = Place.WILDERNESS
    example: ClassVar[str] = "weather roll"

    verb: Literal["weather_roll"]

    def command(self, state: CampaignState) -> Command:
        return RollWeather()


class MapRevealBody(VerbBody, title="Reveal on the party's map"):
    """Put hexes and features on the party's map by hand (a rumour, a bought map), or take
    them off it with `map hide` (recorded for the referee alone)."""

    where = Place.WILDERNESS
    example: ClassVar[str] = "map reveal 0308 --feature Ashford; map reveal 0304 0305"
    as_lines = True

    verb: Literal["map_reveal"]
    hexes: Annotated[Names, HEX, Arg("HEX")] = Field(
        (), description="Hexes by their numbers: 0304 0305."
    )
    features: Annotated[Names, FEATURE, Opt("--feature", "-f")] = Field(
        (), description="Features by name or id (repeat the option for more)."
    )
    # the command line says map hide instead
    hide: Annotated[bool, NOT_ON_THE_LINE] = Field(
        False, description="Take them off the party's map instead."
    )

    def command(self, state: CampaignState) -> Command:
        return RevealOnMap(tuple(Hex.parse(h) for h in self.hexes), self.features, self.hide)


class MapHideBody(MapRevealBody, title="Hide on the party's map"):
    """Take hexes and features off the party's map (the map was lost); for the referee only."""

    example: ClassVar[str] = "map hide 0308 --feature Ashford"

    verb: Literal["map_hide"]  # type: ignore[assignment]
    hide: Annotated[bool, NOT_ON_THE_LINE] = Field(
        True, description="Always true: hiding takes them off the party's map."
    )

    def command(self, state: CampaignState) -> Command:
        return MapRevealBody.command(self.model_copy(update={"hide": True}), state)


class MapClearBody(VerbBody, title="Clear a hex"):
    """The party cleared a hex of its map (slew the dragon in its lair): a change to the world.

    No party behind in time may travel into it or act there until brought forward."""

    where = Place.WILDERNESS
    example: ClassVar[str] = 'map clear; map clear 0304 --what "slew the dragon in"'

    verb: Literal["map_clear"]
    hex: Annotated[str | None, HEX, Arg()] = Field(
        None, description="The hex by its number (default: the party's)."
    )
    what: str = Field(
        "cleared", min_length=1, max_length=200, description="What the party did there."
    )

    def command(self, state: CampaignState) -> Command:
        return ClearHex(self.hex, self.what)
