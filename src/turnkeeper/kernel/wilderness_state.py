"""What the campaign knows of the wilderness: the map, where the party is, what it has found.

The campaign state holds a :class:`WildernessState`. The map is embedded as its file data
(:class:`~turnkeeper.world.mapfile.MapFile`), so replaying the journal needs no file; the
numpy :class:`~turnkeeper.world.hexmap.HexMap` is built from it once and cached.

- TP-WIL-1: ``tp_spent`` counts today's travel points, one per watch.
- TP-WIL-7: ``movement_points`` counts today's hexes entered, each 1 movement point.
- TP-WIL-6: ``pending`` is a move begun with the last points of a day; the party stays in
  its hex until the next day's first points finish it.
- TP-WIL-10: ``visited`` hexes and the hexes of ``found`` features are travel destinations;
  anywhere else is the uncharted, reached by exploring.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from enum import StrEnum
from fractions import Fraction

from pydantic import ConfigDict, Field

from turnkeeper.frozen import Frozen, Same
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import HexMap
from turnkeeper.world.mapfile import MapFile, map_from_data

#: The region of hexes the map puts in no region: weather is kept per region.
DEFAULT_REGION = "wilds"


class Movement(StrEnum):
    """TP-WIL-10: travel goes to a known destination, exploration into the uncharted."""

    TRAVEL = "travel"
    EXPLORE = "explore"


class PendingMove(Frozen):
    """TP-WIL-6: a move into ``to`` that costs ``cost`` TP, of which ``paid`` are spent."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    to: Hex
    cost: Fraction
    paid: Fraction
    movement: Movement = Movement.TRAVEL

    @property
    def remaining(self) -> Fraction:
        """TP still to pay before the party is in ``to``."""
        return self.cost - self.paid


_CACHE: OrderedDict[Same[MapFile], HexMap] = OrderedDict()
"""The maps built last, by their file data as the very object (:class:`~turnkeeper.frozen.Same`)."""
_BUILT: OrderedDict[bytes, HexMap] = OrderedDict()
"""The same maps by their data's content: a journal replayed, or a map loaded again, brings
the same data as a new object, and gets the map already built (which is immutable), so what
is cached per map (route grids, routes) serves it too."""


def hexmap_of(data: MapFile) -> HexMap:
    """The map built from its embedded file data; cached, since folding copies states often."""
    key = Same(data)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    content = hashlib.sha256(data.model_dump_json().encode()).digest()
    built = _BUILT.get(content)
    if built is None:
        built = map_from_data(data.model_dump(mode="json"), where=f"map {data.name!r}")
    _BUILT[content] = built
    _BUILT.move_to_end(content)
    _CACHE[key] = built
    for cache in (_CACHE, _BUILT):
        while len(cache) > 8:
            cache.popitem(last=False)
    return built


#: How many of the hexes the party left its track keeps: about a week of travel on foot.
TRACK_HEXES = 48


class WildernessState(Frozen):
    """The party in the wilderness: the map, its hex, today's travel points, what it knows.

    >>> from turnkeeper.world.mapfile import MapFile
    >>> m = MapFile(name="Vale", width=2, height=1, terrain=["ph"])
    >>> w = WildernessState(map=m, position=Hex(0, 0), visited=frozenset({Hex(0, 0)}))
    >>> w.tp_left(4), w.region_of(Hex(1, 0)), w.is_known_destination(Hex(1, 0))
    (Fraction(4, 1), 'wilds', False)
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    map: MapFile
    position: Hex
    visited: frozenset[Hex] = frozenset()
    track: tuple[Hex, ...] = Field(
        (), description="The hexes the party left lately, oldest first (at most TRACK_HEXES)."
    )
    seen: frozenset[Hex] = Field(frozenset(), description="Hexes whose terrain the party saw.")
    found: frozenset[str] = Field(frozenset(), description="Ids of the features the party knows.")
    charted: frozenset[Hex] = Field(
        frozenset(),
        description="TP-WIL-10: hexes put on the party's map (a bought map, a rumour).",
        # left out while empty, so the states of campaigns with none read as they did
        exclude_if=lambda charted: not charted,
    )
    weather: dict[str, str] = Field(default_factory=dict, description="Region -> weather state.")
    party: tuple[str, ...] = Field((), description="TP-WIL-3 conditions: mounted, carriage...")
    vessel: str | None = Field(None, description="TP-WIL-9: a boat, ship or flying mount.")
    milieu: str | None = Field(None, description="TP-WENC-3: the referee's milieu for the die.")
    day_started_at: int = Field(0, description="When today's travel began (game seconds).")
    tp_spent: Fraction = Fraction(0)
    movement_points: int = Field(0, description="TP-WIL-7: hexes entered today.")
    pending: PendingMove | None = None
    checks_done: tuple[str, ...] = Field((), description="Today's wilderness-die moments.")
    lost_checked: bool = Field(False, description="TP-LOST-1: rolled once a day.")
    forage_owed: bool = Field(False, description="TP-WENC-4 face 3: the next TP is foraging.")
    camp_rolled: int | None = Field(
        None, description="TP-WENC-1/-2: the night (night_of) whose camp die has been rolled."
    )

    @property
    def hexmap(self) -> HexMap:
        """The map as the world layer's grids."""
        return hexmap_of(self.map)

    def tp_left(self, daily_tp: int) -> Fraction:
        """Travel points still to spend today."""
        return max(Fraction(daily_tp) - self.tp_spent, Fraction(0))

    def region_of(self, hex_: Hex) -> str:
        """The weather region of a hex."""
        return self.hexmap.regions.get(hex_, DEFAULT_REGION)

    def weather_at(self, hex_: Hex, default: str = "clear") -> str:
        """The weather over a hex now."""
        return self.weather.get(self.region_of(hex_), default)

    def is_known_destination(self, hex_: Hex) -> bool:
        """TP-WIL-10: a hex the party has been to, one on the map it was given, or where it
        knows a feature lies: travel differs from exploring "simply by the knowledge of the
        destination", and "players should have access to a map of the region"."""
        if hex_ in self.visited or hex_ in self.charted:
            return True
        return any(feature.id in self.found for feature in self.hexmap.features.get(hex_, ()))

    def with_(self, **changes: object) -> WildernessState:
        """A copy with some fields changed (states never change in place)."""
        return self.model_copy(update=changes)
