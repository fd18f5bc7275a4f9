"""A plausible demo map from a seed: terrain from smooth noise, settlements linked by roads
and trails, and features of every visibility (TP-DISC-1).

Everything grid-shaped is vectorised with numpy, so a 1000 x 1000 map takes a fraction of
a second; features are sparse. The same seed always gives the same map.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from turnkeeper.files.names import check_seed
from turnkeeper.world.errors import MapError
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import Concealment, Feature, HexMap, Road, Terrain
from turnkeeper.world.mapfile import check_map_size

_ADJECTIVES = ("Old", "Grey", "Broken", "Silent", "Red", "Hollow", "Sunken", "Black", "Pale")
_THINGS = (
    "Tower",
    "Barrow",
    "Shrine",
    "Standing Stone",
    "Ruin",
    "Cairn",
    "Spring",
    "Cave",
    "Watchpost",
    "Bridge",
    "Gallows",
    "Well",
)
_VILLAGES = (
    "Ashford",
    "Brindle",
    "Coldharbour",
    "Dunmere",
    "Eastwick",
    "Fallowby",
    "Greyholt",
    "Hartsend",
    "Ivybridge",
    "Kettering",
    "Lowmoor",
    "Marrowgate",
)
_SECRETS = (
    "a smugglers' cache",
    "a buried reliquary",
    "a sleeping wyrm",
    "a cult's meeting place",
    "a door to the underworld",
    "the lost heir's grave",
)


def _smooth_noise(
    rng: np.random.Generator, height: int, width: int, scale: float
) -> NDArray[np.float64]:
    """Value noise: random values on a coarse lattice, smoothly interpolated to each hex."""
    coarse = rng.random((int(height / scale) + 2, int(width / scale) + 2))
    y = np.arange(height) / scale
    x = np.arange(width) / scale
    y0, x0 = y.astype(np.int64), x.astype(np.int64)
    fy, fx = y - y0, x - x0
    fy, fx = (fy * fy * (3 - 2 * fy))[:, None], (fx * fx * (3 - 2 * fx))[None, :]
    a = coarse[np.ix_(y0, x0)]
    b = coarse[np.ix_(y0, x0 + 1)]
    c = coarse[np.ix_(y0 + 1, x0)]
    d = coarse[np.ix_(y0 + 1, x0 + 1)]
    top = a + (b - a) * fx
    return top + (c + (d - c) * fx - top) * fy


def _field(rng: np.random.Generator, height: int, width: int) -> NDArray[np.float64]:
    size = max(height, width)
    total = np.zeros((height, width))
    scale, weight = max(size / 3, 2.0), 1.0
    while scale >= 1.5 and weight > 0.1:
        total += weight * _smooth_noise(rng, height, width, scale)
        scale, weight = scale / 2, weight / 2
    return total


def _terrain(rng: np.random.Generator, height: int, width: int) -> NDArray[np.uint8]:
    elevation = _field(rng, height, width)
    moisture = _field(rng, height, width)
    e = np.quantile(elevation, [0.08, 0.25, 0.72, 0.88, 0.96])
    m = np.quantile(moisture, [0.1, 0.6, 0.68, 0.9])
    grid = np.full((height, width), Terrain.PLAINS, dtype=np.uint8)
    grid[moisture < m[0]] = Terrain.DESERT
    grid[moisture > m[2]] = Terrain.FOREST
    grid[moisture > m[3]] = Terrain.DEEP_FOREST
    low = elevation < e[1]
    grid[low & (moisture > m[1])] = Terrain.MARSH
    grid[low & (moisture > m[3])] = Terrain.SWAMP
    grid[elevation > e[2]] = Terrain.HILLS
    grid[elevation > e[3]] = Terrain.MOUNTAINS
    grid[elevation > e[4]] = Terrain.HIGH_MOUNTAINS
    grid[elevation < e[0]] = Terrain.WATER
    return grid


def _feature(rng: np.random.Generator, fid: str, hex_: Hex) -> Feature:
    visibility = Concealment(rng.choice(["overt", "hidden", "secret"], p=[0.55, 0.3, 0.15]))
    name = f"{rng.choice(_ADJECTIVES)} {rng.choice(_THINGS)}"
    landmark = visibility is Concealment.OVERT and bool(rng.random() < 1 / 6)  # TP-DISC-1
    notes = f"Referee: {rng.choice(_SECRETS)} near {hex_.label}."
    return Feature(
        id=fid,
        name=name,
        visibility=visibility,
        landmark=landmark,
        text=f"The {name.lower()} stands here.",
        notes=notes,
    )


def generate_map(width: int, height: int, seed: int, name: str | None = None) -> HexMap:
    """A demo wilderness of ``width`` x ``height`` hexes, the same for the same seed.

    >>> m = generate_map(12, 8, seed=7)
    >>> (m.width, m.height), m == generate_map(12, 8, seed=7)
    ((12, 8), True)
    """
    check_map_size(width, height)
    check_seed(seed, "the map's seed", MapError)
    rng = np.random.default_rng(seed)
    terrain = _terrain(rng, height, width)
    road = np.zeros_like(terrain)
    features: dict[Hex, tuple[Feature, ...]] = {}

    plains = np.flatnonzero(terrain.reshape(-1) == Terrain.PLAINS)
    count = int(np.clip(width * height // 150, 2, 40))
    homes: list[int] = (
        rng.choice(plains, size=min(count, plains.size), replace=False).tolist()
        if plains.size
        else []
    )
    settled: list[Hex] = []
    blocked = (Terrain.WATER, Terrain.HIGH_MOUNTAINS)
    for i, node in enumerate(homes):
        hex_ = Hex.from_offset(int(node) % width, int(node) // width)
        village = str(_VILLAGES[i % len(_VILLAGES)]) + ("" if i < len(_VILLAGES) else f" {i}")
        features[hex_] = (
            Feature(
                id=f"village-{i + 1}",
                name=village,
                landmark=i % 6 == 0,
                text=f"The village of {village}.",
                notes=f"Referee: {village} hides a spy.",
            ),
        )
        if settled:
            nearest = min(settled, key=hex_.distance)
            kind = Road.ROAD if i % 2 else Road.TRAIL
            for step in hex_.line_to(nearest):
                # a line between two hexes of the map may cut a corner off it (odd-q rounding
                # at an edge): no road there, and no negative index wrapping to the far side
                if not (0 <= step.row < height and 0 <= step.col < width):
                    continue
                if terrain[step.row, step.col] not in blocked and road[step.row, step.col] == 0:
                    road[step.row, step.col] = kind
        settled.append(hex_)

    n_features = int(np.clip(width * height // 25, 1, 3000))
    for j, node in enumerate(rng.choice(width * height, size=n_features, replace=False)):
        hex_ = Hex.from_offset(int(node) % width, int(node) // width)
        features[hex_] = (*features.get(hex_, ()), _feature(rng, f"site-{j + 1}", hex_))
    return HexMap.build(name or f"Demo wilderness {seed}", terrain, road, features)
