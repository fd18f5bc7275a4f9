"""The wilderness hex map: terrain, roads, features, and what blocks the view.

A map is a rectangle of ``width`` columns by ``height`` rows of hexes in the printed-map
(odd-q offset) layout. Terrain and road are numpy ``uint8`` grids indexed ``[row, col]``,
so a million-hex map is three small arrays, not a million Python objects; features,
view-blocking overrides, regions and climates are sparse dictionaries keyed by :class:`Hex`.

Features follow TP-DISC-1: overt (known on entering the hex; some are landmarks, seen from
2 hexes away unless the view is blocked), hidden, or secret.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field

from turnkeeper.errors import NotFoundError
from turnkeeper.world.hexes import Hex


class Terrain(IntEnum):
    """Terrain of a hex; the value is its code in the map's ``uint8`` grid."""

    PLAINS = 0
    HILLS = 1
    MARSH = 2
    SWAMP = 3
    FOREST = 4
    DEEP_FOREST = 5
    MOUNTAINS = 6
    HIGH_MOUNTAINS = 7
    DESERT = 8
    WATER = 9

    @property
    def key(self) -> str:
        """The name used in files and rulesets (``deep_forest``)."""
        return self.name.lower()

    @property
    def letter(self) -> str:
        """The one-letter code of the map file's terrain rows."""
        return TERRAIN_LETTERS[self]


TERRAIN_LETTERS: dict[Terrain, str] = {
    Terrain.PLAINS: "p",
    Terrain.HILLS: "h",
    Terrain.MARSH: "m",
    Terrain.SWAMP: "s",
    Terrain.FOREST: "f",
    Terrain.DEEP_FOREST: "F",
    Terrain.MOUNTAINS: "M",
    Terrain.HIGH_MOUNTAINS: "H",
    Terrain.DESERT: "d",
    Terrain.WATER: "w",
}


class Road(IntEnum):
    """What road runs through a hex (TP-WIL-4: well-maintained road, or trail)."""

    NONE = 0
    ROAD = 1
    TRAIL = 2

    @property
    def key(self) -> str:
        """The name used in files and rulesets."""
        return self.name.lower()

    @property
    def letter(self) -> str:
        """The one-letter code of the map file's road rows."""
        return ROAD_LETTERS[self]


ROAD_LETTERS: dict[Road, str] = {Road.NONE: ".", Road.ROAD: "R", Road.TRAIL: "t"}

#: Terrain that blocks the view of landmarks (TP-DISC-1: high mountains, deep forest).
#: Canopy is not a terrain: mark such a hex with a ``blocks_view`` override.
VIEW_BLOCKING_TERRAIN: frozenset[Terrain] = frozenset({Terrain.HIGH_MOUNTAINS, Terrain.DEEP_FOREST})


class Concealment(StrEnum):
    """How a feature is found (TP-DISC-1..3)."""

    OVERT = "overt"
    HIDDEN = "hidden"
    SECRET = "secret"


class Feature(BaseModel):
    """Something in a hex: a site, a ruin, a village. Referee notes never reach players."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str = Field(min_length=1, description="Unique across the map, e.g. 'f-0304-1'.")
    name: str = Field(min_length=1, description="What the party calls it once found.")
    # the file's word for a feature's concealment, kept so that maps written already load
    visibility: Concealment = Field(
        default=Concealment.OVERT, description="overt, hidden or secret (TP-DISC-1)."
    )
    landmark: bool = Field(
        default=False,
        description="An overt feature seen from 2 hexes away unless the view is blocked.",
    )
    text: str = Field(default="", description="Player-facing description.")
    notes: str = Field(default="", description="Referee-only notes; never shown to players.")


Grid = NDArray[np.uint8]


def _frozen(grid: Grid) -> Grid:
    out = np.ascontiguousarray(grid, dtype=np.uint8).copy()
    out.setflags(write=False)
    return out


@dataclass(frozen=True, eq=False)
class HexMap:
    """A wilderness map. Build it with :meth:`build`; it never changes afterwards.

    >>> m = HexMap.build("Vale", np.zeros((2, 3), np.uint8))
    >>> m.width, m.height, m.terrain_at(Hex(2, -1)).key, Hex(2, -1) in m
    (3, 2, 'plains', True)
    """

    name: str
    terrain: Grid
    road: Grid
    features: Mapping[Hex, tuple[Feature, ...]] = field(default_factory=dict)
    blocks_view_overrides: Mapping[Hex, bool] = field(default_factory=dict)
    regions: Mapping[Hex, str] = field(default_factory=dict)
    climates: Mapping[Hex, str] = field(default_factory=dict)

    @classmethod
    def build(
        cls,
        name: str,
        terrain: Grid,
        road: Grid | None = None,
        features: Mapping[Hex, tuple[Feature, ...]] | None = None,
        blocks_view_overrides: Mapping[Hex, bool] | None = None,
        regions: Mapping[Hex, str] | None = None,
        climates: Mapping[Hex, str] | None = None,
    ) -> HexMap:
        """Make a map from ``[row, col]`` grids of terrain and road codes (copied, read-only)."""
        terrain = _frozen(terrain)
        road = _frozen(np.zeros_like(terrain) if road is None else road)
        if terrain.ndim != 2 or road.shape != terrain.shape:
            raise ValueError("terrain and road must be 2-D grids of the same shape")
        return cls(
            name,
            terrain,
            road,
            dict(features or {}),
            dict(blocks_view_overrides or {}),
            dict(regions or {}),
            dict(climates or {}),
        )

    @property
    def height(self) -> int:
        """Rows of hexes."""
        return int(self.terrain.shape[0])

    @property
    def width(self) -> int:
        """Columns of hexes."""
        return int(self.terrain.shape[1])

    def __contains__(self, hex_: object) -> bool:
        return isinstance(hex_, Hex) and 0 <= hex_.col < self.width and 0 <= hex_.row < self.height

    def _cell(self, hex_: Hex) -> tuple[int, int]:
        if hex_ not in self:
            raise NotFoundError(
                f"hex {hex_} is not on map {self.name!r} "
                f"(columns 0..{self.width - 1}, rows 0..{self.height - 1})"
            )
        return hex_.row, hex_.col

    def terrain_at(self, hex_: Hex) -> Terrain:
        """The terrain of a hex on the map."""
        return Terrain(int(self.terrain[self._cell(hex_)]))

    def road_at(self, hex_: Hex) -> Road:
        """The road through a hex on the map."""
        return Road(int(self.road[self._cell(hex_)]))

    def features_at(self, hex_: Hex) -> tuple[Feature, ...]:
        """The features of a hex, in map order (empty if none)."""
        self._cell(hex_)
        return tuple(self.features.get(hex_, ()))

    def blocks_view_at(self, hex_: Hex) -> bool:
        """Whether this hex blocks the view of landmarks beyond it (TP-DISC-1).

        Derived from terrain (high mountains, deep forest) unless overridden, e.g. canopy.
        """
        override = self.blocks_view_overrides.get(hex_)
        if override is not None:
            return override
        return self.terrain_at(hex_) in VIEW_BLOCKING_TERRAIN

    def blocks_view_grid(self) -> NDArray[np.bool_]:
        """The whole map's view-blocking as a ``[row, col]`` boolean grid."""
        codes = np.array(sorted(int(t) for t in VIEW_BLOCKING_TERRAIN), dtype=np.uint8)
        grid = np.isin(self.terrain, codes)
        for hex_, value in self.blocks_view_overrides.items():
            grid[hex_.row, hex_.col] = value
        return grid

    def hexes(self) -> Iterator[Hex]:
        """Every hex of the map, row by row (slow on huge maps: prefer the grids)."""
        for row in range(self.height):
            for col in range(self.width):
                yield Hex.from_offset(col, row)

    def all_features(self) -> Iterator[tuple[Hex, Feature]]:
        """Every feature with its hex."""
        for hex_, features in self.features.items():
            for feature in features:
                yield hex_, feature

    def find_feature(self, feature_id: str) -> tuple[Hex, Feature]:
        """The feature with this id, and where it is."""
        for hex_, feature in self.all_features():
            if feature.id == feature_id:
                return hex_, feature
        raise NotFoundError(f"no feature {feature_id!r} on map {self.name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HexMap):
            return NotImplemented
        return (
            self.name == other.name
            and np.array_equal(self.terrain, other.terrain)
            and np.array_equal(self.road, other.road)
            and dict(self.features) == dict(other.features)
            and dict(self.blocks_view_overrides) == dict(other.blocks_view_overrides)
            and dict(self.regions) == dict(other.regions)
            and dict(self.climates) == dict(other.climates)
        )

    __hash__ = None  # type: ignore[assignment]
