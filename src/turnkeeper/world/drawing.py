"""What a map's drawing is made of: where each hex sits in drawing units (flat-topped hexes,
odd columns half a hex lower, as on the printed map), the part of the map a drawing frames,
its type sizes and where words may go, and its palette: terrain colours and symbols whose ink
reads on them (WCAG contrast), and the colours of features by how well they are hidden."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import Concealment, Terrain
from turnkeeper.world.labels import Spot

SIZE = 20.0
SQRT3 = math.sqrt(3)
#: One unit of the terrain paths: hex centres sit at ``(3 col, 2 row + col % 2)`` units.
UNIT_X, UNIT_Y = SIZE / 2, SIZE * SQRT3 / 2
#: The legend's column, to the right of the map.
LEGEND_WIDTH = 112
#: A drawing of at most this many hexes writes every hex's number and terrain symbol (about
#: 95 bytes a hex: more would swell an SVG file past a few megabytes; a raster of known zoom
#: draws them wherever they read, see :func:`legible`). A page, redrawn on every command,
#: asks for fewer (``labels_up_to``).
LABELLED_HEXES = 50_000
#: Fonts named in order, a generic family last: the PNG rasteriser has no notion of the
#: platform's default sans-serif, and draws no text at all when none of the names is found.
FONTS = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
#: The hex numbers' font size, in drawing units.
NUMBER_SIZE = 5.5
#: The smallest hex number, in pixels, that reads on a printed or phone-sized picture.
LEGIBLE_PX = 7.0


#: Terrain symbols' font size, in drawing units.
SYMBOL_SIZE = 8.0
#: Where a word by a mark may go, in a flat-topped hex 20 units from centre to corner: the
#: band beside the mark, right then left, between the hex's own number above and the
#: numbers of the hexes below-left and below-right; then under the mark, centred or to a
#: side; then over the hex's number. The first that is clear is taken.
SPOTS = (
    Spot(6, 2, "start"),
    Spot(-6, 2, "end"),
    Spot(0, 13, "middle"),
    Spot(6, 13, "start"),
    Spot(-6, 13, "end"),
    Spot(0, -15, "middle"),
)
#: A feature's name and a day's end: at 6 units, smaller where none is clear.
WORD_SIZES = (6.0, 5.0, 4.5)
#: The route's days and TP, at its end.
NOTE_SIZES = (7.0, 6.0, 5.0)


#: On a picture drawn smaller than this (pixels per drawing unit), the route, its marks, the
#: party and the legend are drawn as large as at this scale.
PAGE_SCALE = 1.5
#: A picture whose hexes are drawn narrower than this (in pixels) tiles its terrain
#: (:func:`_terrain_tiles`) instead of drawing a marker per hex.
TILED_HEX_PX = 16.0


def legible(zoom: float) -> bool:
    """Whether hex numbers read in a picture drawn at ``zoom`` pixels per drawing unit.

    >>> legible(2.0), legible(1.3), legible(1.2)
    (True, True, False)
    """
    return NUMBER_SIZE * zoom >= LEGIBLE_PX


TERRAIN_COLOURS: dict[Terrain, str] = {
    Terrain.PLAINS: "#dfe8a0",
    Terrain.HILLS: "#c8864a",
    Terrain.MARSH: "#9ed0c8",
    Terrain.SWAMP: "#4e6a5c",
    Terrain.FOREST: "#2f7a48",
    Terrain.DEEP_FOREST: "#1f4a28",
    Terrain.MOUNTAINS: "#a59cba",
    Terrain.HIGH_MOUNTAINS: "#ffffff",
    Terrain.DESERT: "#f5c986",
    Terrain.WATER: "#3a6fc0",
}
#: A symbol per terrain, so the map reads without colour too.
TERRAIN_SYMBOLS: dict[Terrain, str] = {
    Terrain.PLAINS: "",
    Terrain.HILLS: "∩",
    Terrain.MARSH: "≈",
    Terrain.SWAMP: "≋",
    Terrain.FOREST: "♣",
    Terrain.DEEP_FOREST: "♣♣",
    Terrain.MOUNTAINS: "▲",
    Terrain.HIGH_MOUNTAINS: "▲▲",
    Terrain.DESERT: "∴",
    Terrain.WATER: "~",
}


def luminance(colour: str) -> float:
    """WCAG 2's relative luminance of a ``#rrggbb`` colour."""
    linear = [
        value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
        for value in (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    """WCAG 2's contrast ratio of two colours, from 1 to 21.

    >>> round(contrast("#ffffff", "#000000"), 1), round(contrast("#777777", "#ffffff"), 2)
    (21.0, 4.48)
    """
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


#: The ink of a hex's number and symbol: dark or white, whichever reads better on its colour.
INK = {
    terrain: max(("#222222", "#ffffff"), key=lambda ink: contrast(ink, colour))
    for terrain, colour in TERRAIN_COLOURS.items()
}
VISIBILITY_COLOURS = {
    Concealment.OVERT: "#222222",
    Concealment.HIDDEN: "#a85a00",
    Concealment.SECRET: "#c00000",
}


def centre(hex_: Hex) -> tuple[float, float]:
    """Pixel centre of a hex in the drawing."""
    x, y = centres(hex_.col, hex_.row)
    return float(x), float(y)


def centres(cols: Any, rows: Any) -> tuple[Any, Any]:
    """Pixel centres of the hexes at printed-map ``cols`` and ``rows``: numbers, or numpy
    arrays of them (a road or a route across a continent is drawn in one pass).

    >>> centres(np.array([0, 1]), np.array([0, 0]))[1].round(2).tolist()
    [17.32, 34.64]
    """
    x = SIZE * (1 + 1.5 * cols)
    y = SIZE * SQRT3 * (0.5 + rows + 0.5 * (cols & 1))
    return x, y


@dataclass(frozen=True)
class Frame:
    """The part of the map a drawing shows: its box in pixels, and which hexes it holds."""

    left: float
    top: float
    width: float
    height: float

    @classmethod
    def around(cls, cols: np.ndarray, rows: np.ndarray, margin: int) -> Frame:
        """The box of the hexes at ``cols``/``rows``, with ``margin`` hexes around them."""
        if cols.size == 0:
            return cls(0.0, 0.0, 3 * SIZE, 2 * SIZE)
        col0, col1 = int(cols.min()) - margin, int(cols.max()) + margin
        row0, row1 = int(rows.min()) - margin, int(rows.max()) + margin
        left = SIZE * (1.5 * col0)
        top = SIZE * SQRT3 * row0
        width = SIZE * (1.5 * (col1 - col0) + 2)
        height = SIZE * SQRT3 * (row1 - row0 + 1.5)
        return cls(left, top, width, height)
