"""The hex map drawn as SVG, for the referee (everything) or the players (what they know).

The player drawing shows only hexes in ``known`` and only features in ``found_features``;
referee notes and unfound hidden or secret features never appear in it (design: views and
secrets). Flat-topped hexes, odd columns half a hex lower, as on the printed map.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from xml.sax.saxutils import escape

import numpy as np

from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import HexMap, Road, Terrain, Visibility

SIZE = 20.0
_SQRT3 = math.sqrt(3)

TERRAIN_COLOURS: dict[Terrain, str] = {
    Terrain.PLAINS: "#d8e8a0",
    Terrain.HILLS: "#c8b070",
    Terrain.MARSH: "#9cc0a0",
    Terrain.SWAMP: "#6f8f6a",
    Terrain.FOREST: "#5e9e4e",
    Terrain.DEEP_FOREST: "#2f6b32",
    Terrain.MOUNTAINS: "#a08a78",
    Terrain.HIGH_MOUNTAINS: "#f2f2f2",
    Terrain.DESERT: "#f0d890",
    Terrain.WATER: "#6aa6d8",
}
_VISIBILITY_COLOURS = {
    Visibility.OVERT: "#222222",
    Visibility.HIDDEN: "#d07000",
    Visibility.SECRET: "#c00000",
}


def centre(hex_: Hex) -> tuple[float, float]:
    """Pixel centre of a hex in the drawing."""
    x = SIZE * (1 + 1.5 * hex_.col)
    y = SIZE * _SQRT3 * (0.5 + hex_.row + 0.5 * (hex_.col & 1))
    return x, y


def _corners(x: float, y: float) -> str:
    return " ".join(
        f"{x + SIZE * math.cos(math.pi / 3 * k):.1f},{y + SIZE * math.sin(math.pi / 3 * k):.1f}"
        for k in range(6)
    )


def render_svg(
    hexmap: HexMap,
    party_at: Hex | None = None,
    known: Iterable[Hex] | None = None,
    route: Sequence[Hex] | None = None,
    player: bool = False,
    found_features: Iterable[str] | None = None,
) -> str:
    """The map as an SVG document.

    ``player=True`` draws only ``known`` hexes (none if not given) and only the features
    whose ids are in ``found_features``; referee notes are never drawn for players.

    >>> import numpy as np
    >>> m = HexMap.build("Vale", np.zeros((1, 2), np.uint8))
    >>> svg = render_svg(m, player=True, known={Hex(0, 0)})
    >>> svg.startswith("<svg"), svg.count("<polygon")
    (True, 1)
    """
    shown = set(known or ()) if player else None
    found = set(found_features or ())

    def visible(hex_: Hex) -> bool:
        return shown is None or hex_ in shown

    width = SIZE * (1.5 * hexmap.width + 0.5)
    height = SIZE * _SQRT3 * (hexmap.height + 0.5)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.1f} {height:.1f}">',
        f"<title>{escape(hexmap.name)}{' (player view)' if player else ''}</title>",
    ]
    cells = hexmap.hexes() if shown is None else (h for h in shown if h in hexmap)
    for hex_ in cells:
        x, y = centre(hex_)
        colour = TERRAIN_COLOURS[hexmap.terrain_at(hex_)]
        out.append(
            f'<polygon points="{_corners(x, y)}" fill="{colour}" stroke="#777" '
            f'stroke-width="0.5"><title>{hex_.label} {hexmap.terrain_at(hex_).key}</title>'
            "</polygon>"
        )
    out.extend(_roads(hexmap, visible))
    for hex_, feature in hexmap.all_features():
        if player and (feature.id not in found or not visible(hex_)):
            continue
        x, y = centre(hex_)
        colour = _VISIBILITY_COLOURS[feature.visibility]
        tip = f"{feature.name}: {feature.text}" if feature.text else feature.name
        if not player and feature.notes:
            tip += f" [{feature.visibility.value}] {feature.notes}"
        shape = (
            f'<polygon points="{x:.1f},{y - 7:.1f} {x - 6:.1f},{y + 5:.1f} {x + 6:.1f},{y + 5:.1f}"'
            if feature.landmark
            else f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4"'
        )
        out.append(
            f'{shape} fill="{colour}"><title>{escape(tip)}</title></{shape[1 : shape.index(" ")]}>'
        )
    if route:
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in map(centre, route))
        out.append(
            f'<polyline points="{points}" fill="none" stroke="#1040c0" stroke-width="3" '
            'stroke-dasharray="6 3"/>'
        )
    if party_at is not None:
        x, y = centre(party_at)
        out.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="#ffd000" stroke="#000" '
            f'stroke-width="1.5"><title>party at {party_at.label}</title></circle>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _roads(hexmap: HexMap, visible: Callable[[Hex], bool]) -> list[str]:
    """Road and trail segments between neighbouring road hexes (each pair once)."""
    lines = []
    rows, cols = np.nonzero(hexmap.road)
    for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
        hex_ = Hex.from_offset(col, row)
        if not visible(hex_):
            continue
        kind = Road(int(hexmap.road[row, col]))
        for other in hex_.neighbours()[:3]:  # n, ne, se: each pair drawn once
            if other in hexmap and hexmap.road[other.row, other.col] and visible(other):
                (x1, y1), (x2, y2) = centre(hex_), centre(other)
                dash = "" if kind is Road.ROAD else ' stroke-dasharray="3 2"'
                lines.append(
                    f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                    f'stroke="#7a4a1a" stroke-width="{3 if kind is Road.ROAD else 2}"{dash}/>'
                )
    return lines
