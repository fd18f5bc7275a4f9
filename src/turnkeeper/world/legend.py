"""The marks a map's drawing makes (features, the party, a day's end, roads, the route, the
party's track) and the legend beside the map that explains each kind drawn, once; marks grown
to stay readable on a picture drawn small."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from turnkeeper.world.drawing import LEGEND_WIDTH, TERRAIN_COLOURS, TERRAIN_SYMBOLS, Frame
from turnkeeper.world.hexmap import Road, Terrain


def scaled_about(x: float, y: float, grow: float) -> str:
    """An SVG transform that scales by ``grow`` about the point ``(x, y)``."""
    return f"translate({x:.1f} {y:.1f}) scale({grow:g}) translate({-x:.1f} {-y:.1f})"


def grown_about(x: float, y: float, grow: float) -> str:
    """A group's transform attribute that scales it by ``grow`` about ``(x, y)`` ("" for 1)."""
    return "" if grow == 1 else f' transform="{scaled_about(x, y, grow)}"'


def about(x: float, y: float, grow: float, mark: str) -> str:
    """``mark``, drawn around ``(x, y)``, ``grow`` times its size."""
    return mark if grow == 1 else f"<g{grown_about(x, y, grow)}>{mark}</g>"


Mark = Callable[[float, float], str]
"""A mark drawn around a point (the map's hex centre, or the legend line's mark column)."""


@dataclass(frozen=True)
class Key:
    """One line of the legend: what a mark means, and the mark."""

    meaning: str
    mark: Mark


KEY_HEIGHT = 11
ROAD_STROKES = {
    Road.ROAD: 'fill="none" stroke="#7a4a1a" stroke-width="3"',
    Road.TRAIL: 'fill="none" stroke="#7a4a1a" stroke-width="2" stroke-dasharray="3 2"',
}
ROUTE_STROKE = 'fill="none" stroke="#1040c0" stroke-width="3" stroke-dasharray="6 3"'
TRACK_STROKE = 'fill="none" stroke="#6a3d9a" stroke-width="2" stroke-dasharray="1 4"'


def feature_mark(colour: str, landmark: bool) -> Mark:
    """A feature's mark: a dot, or a triangle for a landmark."""

    def mark(x: float, y: float) -> str:
        if landmark:
            return (
                f'<polygon points="{x:.1f},{y - 6:.1f} {x - 5:.1f},{y + 4:.1f} '
                f'{x + 5:.1f},{y + 4:.1f}" fill="{colour}" stroke="#fff"'
            )
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}" stroke="#fff"'

    return mark


def party_mark(x: float, y: float) -> str:
    return (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="#ffd000" stroke="#000" stroke-width="1.5"'
    )


def day_mark(x: float, y: float) -> str:
    return (
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#fff" stroke="#1040c0" stroke-width="1.5"'
    )


def line_mark(stroke: str) -> Mark:
    return lambda x, y: f'<path d="M{x - 7:.1f} {y:.1f}h14" {stroke}'


def _closed(mark: Mark) -> Mark:
    """A mark as a whole element (the map's marks leave theirs open for a title)."""
    return lambda x, y: mark(x, y) + "/>"


def terrain_key(terrain: Terrain) -> Key:
    def swatch(x: float, y: float) -> str:
        return (
            f'<rect x="{x - 6:.1f}" y="{y - 4:.1f}" width="12" height="8" '
            f'fill="{TERRAIN_COLOURS[terrain]}" stroke="#555" stroke-width="0.4"'
        )

    return Key(f"{TERRAIN_SYMBOLS[terrain] or '·'} {terrain.key.replace('_', ' ')}", swatch)


ROUTE_KEY = Key("route", line_mark(ROUTE_STROKE))
TRACK_KEY = Key("the party's track", line_mark(TRACK_STROKE))
DAY_KEY = Key("a day's end", day_mark)
PARTY_KEY = Key("the party", party_mark)


def legend_beside(frame: Frame, keys: Sequence[Key], grow: float = 1.0) -> Iterator[str]:
    """What the drawing holds, a line each, beside the map (never over it); ``grow`` times
    its size at 1:1."""
    x, y = frame.left + frame.width + 4 * grow, frame.top + 4 * grow
    yield (
        f'<g font-size="8"{grown_about(x, y, grow)}>'
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{LEGEND_WIDTH - 8}" '
        f'height="{KEY_HEIGHT * len(keys) + 6}" fill="#fff" stroke="#999"/>'
    )
    for index, key in enumerate(keys):
        top = y + 4 + KEY_HEIGHT * index
        yield _closed(key.mark)(x + 9, top + 4)
        yield f'<text x="{x + 19:.1f}" y="{top + 7:.1f}">{escape(key.meaning)}</text>'
    yield "</g>"
