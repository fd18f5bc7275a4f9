"""The hex map drawn as SVG, for the referee (everything) or the players (what they know).

The player drawing shows only hexes in ``known`` and only features in ``found_features``,
cropped to them with a margin of one hex: it never gives away the map's true extent, and
referee notes and unfound hidden or secret features never appear in it (design: views and
secrets). Flat-topped hexes, odd columns half a hex lower, as on the printed map.

A drawing is readable printed or on a touch screen, without tooltips: hex numbers (the
labels ``travel`` and ``route`` take) and terrain symbols on every hex of a drawing small
enough to read them (a window, a region, the players' map), feature names, the party, roads
and a legend of every kind of mark drawn. The palette stays distinct for readers with
deuteranopia (a test checks it). It is built to draw any size: each terrain is one invisible
path through its hexes' centres that carries the terrain's hex shape as a marker at every
point, so a hex costs only its relative step (about 6 bytes); roads and the route are drawn
in runs, hexes in line one stroke, worked out over the map's grids at once; ``around`` and
``radius`` draw a window.

What a drawing is made of (where a hex sits, the frame, type sizes, the palette) is
:mod:`~turnkeeper.world.drawing`; the marks and the legend that explains them are
:mod:`~turnkeeper.world.legend`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from xml.sax.saxutils import escape

import numpy as np

from turnkeeper.world.drawing import (
    FONTS,
    INK,
    LABELLED_HEXES,
    LEGEND_WIDTH,
    NOTE_SIZES,
    NUMBER_SIZE,
    PAGE_SCALE,
    SIZE,
    SPOTS,
    SQRT3,
    SYMBOL_SIZE,
    TERRAIN_COLOURS,
    TERRAIN_SYMBOLS,
    TILED_HEX_PX,
    UNIT_X,
    UNIT_Y,
    VISIBILITY_COLOURS,
    WORD_SIZES,
    Frame,
    centre,
    centres,
    legible,
)
from turnkeeper.world.hexes import Direction, Hex
from turnkeeper.world.hexmap import Concealment, Feature, HexMap, Road, Terrain
from turnkeeper.world.labels import Board, Box, Placed, Spot
from turnkeeper.world.legend import (
    DAY_KEY,
    KEY_HEIGHT,
    PARTY_KEY,
    ROAD_STROKES,
    ROUTE_KEY,
    ROUTE_STROKE,
    TRACK_KEY,
    TRACK_STROKE,
    Key,
    about,
    day_mark,
    feature_mark,
    legend_beside,
    line_mark,
    party_mark,
    terrain_key,
)

#: The outline of a hex in path units, from its west corner, back to it.
_HEX_PATH = "l1-1h2l1 1-1 1h-2z"


def render_svg(
    hexmap: HexMap,
    party_at: Hex | None = None,
    known: Iterable[Hex] | None = None,
    route: Sequence[Hex] | None = None,
    player: bool = False,
    found_features: Iterable[str] | None = None,
    around: Hex | None = None,
    radius: int | None = None,
    route_note: str | None = None,
    route_marks: Sequence[tuple[Hex, str]] = (),
    track: Sequence[Hex] = (),
    zoom: float | None = None,
    labels_up_to: int = LABELLED_HEXES,
) -> str:
    """The map as an SVG document.

    ``player=True`` draws only ``known`` hexes (none if not given), cropped to them, and only
    the features whose ids are in ``found_features``; referee notes are never drawn for
    players. The drawing's title says which view it is: "(the party’s map)" or "(the
    referee’s map)". ``around`` and ``radius`` draw only the hexes within ``radius`` of ``around``.
    ``route_note`` is written at the route's end (its days and TP), ``route_marks`` beside
    the hexes where its days end. ``track`` is the hexes the party left lately, oldest first:
    drawn as a dotted line to the party, where both ends of a step are in the drawing.
    ``zoom``: the pixels per drawing unit of the picture this becomes, if known: every hex's
    number and symbol is then drawn when it reads at that size (:func:`legible`), whatever
    the map's size; otherwise only on drawings of at most ``labels_up_to`` hexes.

    >>> import numpy as np
    >>> m = HexMap.build("Vale", np.zeros((1, 2), np.uint8))
    >>> svg = render_svg(m, player=True, known={Hex(0, 0)})
    >>> svg.startswith("<svg"), ">0000<" in svg, ">0100<" in svg
    (True, True, False)
    """
    cols, rows = _drawn(hexmap, set(known or ()) if player else None, around, radius)
    whole = not player and around is None
    frame = Frame.around(cols, rows, 0 if whole else 1)
    labelled = cols.size <= labels_up_to if zoom is None else legible(zoom)
    # On a picture drawn small, the route, its marks, the party and the legend keep the size
    # they have at 1:1 on the page, so a continent's route still reads; the names of places,
    # a speck each, are left to the marks.
    grow = 1.0 if zoom is None else max(1.0, PAGE_SCALE / zoom)
    named = zoom is None or legible(zoom)
    found = set(found_features or ())
    visible = _InDrawing(hexmap, cols, rows)
    legend: list[Key] = []  # what the drawing holds, each explained once

    codes = hexmap.terrain[rows, cols]
    body = []
    tiled = zoom is not None and 2 * SIZE * zoom < TILED_HEX_PX
    if tiled:
        body.append(_terrain_tiles(hexmap, cols, rows))
    else:
        body.append(_hex_markers())
        body.append(
            f'<g transform="translate({SIZE:.1f} {SIZE * SQRT3 / 2:.4f}) '
            f'scale({UNIT_X:.4f} {UNIT_Y:.4f})">'
        )
        for terrain in Terrain:
            chosen = codes == terrain.value
            if chosen.any():
                body.append(_terrain_path(terrain, cols[chosen], rows[chosen]))
        body.append("</g>")
    legend.extend(terrain_key(t) for t in Terrain if (codes == t.value).any())
    body.extend(_roads(hexmap, visible, legend, crisp=tiled))
    steps = _track(track, party_at, visible, grow)
    if steps:
        body.append(steps)
    if route:  # under the hex numbers, which stay readable through it
        body.append(_route(route, grow))
    # Marks first, on the board, so that the words placed after them cover none.
    board = Board()
    shown = [
        (hex_, feature)
        for hex_, feature in hexmap.all_features()
        if visible(hex_) and (not player or feature.id in found)
    ]
    marked = {hex_ for hex_, _ in shown}  # the hexes whose centre holds a feature's mark
    for hex_ in marked:
        board.fix(Box.around(*centre(hex_), 5, 6))
    party = None
    if party_at is not None and (not player or visible(party_at)):
        x, y = centre(party_at)
        if party_at in marked:  # beside the feature's mark, not over it
            x, y = x - 8, y + 5
        party = (x, y)
        board.fix(Box.around(x, y, 7 * grow, 7 * grow))
        board.fix(Box.of_text("party", x, y + 15 * grow, 7 * grow, "middle"))
    for hex_, _ in route_marks:
        board.fix(Box.around(*centre(hex_), 4 * grow, 4 * grow))
    spots = [Spot(spot.dx * grow, spot.dy * grow, spot.anchor) for spot in SPOTS]
    if labelled:
        body.extend(_labels(hexmap, cols, rows, board))
    names = [
        board.place(f.name, *centre(h), WORD_SIZES, SPOTS) if named else None for h, f in shown
    ]
    note = None
    if route and route_note:
        note = board.place(route_note, *centre(route[-1]), _grown(NOTE_SIZES, grow), spots)
    words = _grown(WORD_SIZES, grow)
    # a day's words where there is room for them; its mark always (a long route drawn small)
    days = [board.place(text, *centre(h), words, spots, crowded=False) for h, text in route_marks]
    if labelled:  # the symbols that kept their room
        body.append(_symbols(hexmap, cols, rows, board))
    body.extend(_features(shown, names, player, legend))
    if steps:
        legend.append(TRACK_KEY)
    if route:
        legend.append(ROUTE_KEY)
        if route_note and note is not None:
            body.append(_text(route_note, note, f'fill="#1040c0" stroke-width="{2 * grow:g}"'))
    for (hex_, text), placed in zip(route_marks, days, strict=True):
        body.append(about(*centre(hex_), grow, f"{day_mark(*centre(hex_))}/>"))
        if placed is not None:
            body.append(_text(text, placed, f'fill="#1040c0" stroke-width="{1.5 * grow:g}"'))
    if route_marks:
        legend.append(DAY_KEY)
    if party is not None and party_at is not None:
        x, y = party
        body.append(
            about(
                x,
                y,
                grow,
                f"{party_mark(x, y)}><title>the party, hex {party_at.label}</title>"
                f'</circle><text x="{x:.1f}" y="{y + 15:.1f}" font-size="7" '
                'text-anchor="middle" font-weight="bold" stroke="#fff" stroke-width="2" '
                'paint-order="stroke">party</text>',
            )
        )
        legend.append(PARTY_KEY)
    # the legend stands beside the map, never over it; a small map grows to hold it
    height = max(frame.height, (KEY_HEIGHT * len(legend) + 14) * grow)
    page = Frame(frame.left, frame.top, frame.width + LEGEND_WIDTH * grow, height)
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{page.width:.0f}" '
        f'height="{page.height:.0f}" viewBox="{page.left:.1f} {page.top:.1f} '
        f'{page.width:.1f} {page.height:.1f}" font-family="{FONTS}">',
        f"<title>{escape(hexmap.name)} ({'the party’s' if player else 'the referee’s'} map)"
        "</title>",
        f'<rect x="{page.left:.1f}" y="{page.top:.1f}" width="{page.width:.1f}" '
        f'height="{page.height:.1f}" fill="#f8f8f4"/>',
    ]
    out = [*head, *body, *legend_beside(frame, legend, grow), "</svg>"]
    return "\n".join(out) + "\n"


def _drawn(
    hexmap: HexMap, shown: set[Hex] | None, around: Hex | None, radius: int | None
) -> tuple[np.ndarray, np.ndarray]:
    """The columns and rows of the hexes to draw, column by column."""
    if shown is not None:
        inside = [h for h in shown if h in hexmap]
        if around is not None:
            inside = [h for h in inside if h.distance(around) <= (radius or 0)]
        inside.sort(key=lambda h: (h.col, h.row))
        return (
            np.array([h.col for h in inside], dtype=np.int64),
            np.array([h.row for h in inside], dtype=np.int64),
        )
    if around is None:
        col_grid, row_grid = np.meshgrid(
            np.arange(hexmap.width), np.arange(hexmap.height), indexing="ij"
        )
        return col_grid.ravel(), row_grid.ravel()
    reach = radius or 0
    window = [
        h
        for col in range(max(0, around.col - reach), min(hexmap.width, around.col + reach + 1))
        for row in range(max(0, around.row - reach - 1), min(hexmap.height, around.row + reach + 2))
        if (h := Hex.from_offset(col, row)).distance(around) <= reach
    ]
    return (
        np.array([h.col for h in window], dtype=np.int64),
        np.array([h.row for h in window], dtype=np.int64),
    )


class _InDrawing:
    """Whether a hex is in the drawing, for roads and features."""

    def __init__(self, hexmap: HexMap, cols: np.ndarray, rows: np.ndarray) -> None:
        self.mask = np.zeros((hexmap.height, hexmap.width), dtype=bool)
        self.mask[rows, cols] = True

    def __call__(self, hex_: Hex) -> bool:
        height, width = self.mask.shape
        return (
            0 <= hex_.row < height and 0 <= hex_.col < width and bool(self.mask[hex_.row, hex_.col])
        )


def _hex_markers() -> str:
    """One hex shape per terrain, drawn as a marker at each point of that terrain's path."""
    shapes = "".join(
        f'<marker id="t{t.value}" markerUnits="userSpaceOnUse" overflow="visible" orient="0" '
        f'markerWidth="4" markerHeight="2" refX="0" refY="0"><path d="M-2 0{_HEX_PATH}" '
        f'fill="{TERRAIN_COLOURS[t]}" stroke="#555" stroke-width="0.06"/></marker>'
        for t in Terrain
    )
    return f"<defs>{shapes}</defs>"


def _terrain_tiles(hexmap: HexMap, cols: np.ndarray, rows: np.ndarray) -> str:
    """Every drawn hex as a tile: a column's hexes as rectangles as wide as the column's
    step and as tall as a hex, a run of one terrain down a column as one rectangle, one path
    per terrain, with crisp edges. For a picture whose hexes are drawn a few pixels wide,
    where their outlines could not be seen: the rasteriser fills some thousands of
    rectangles instead of a marker per hex (a million-hex map in a second, not a minute)."""
    drawn = np.full((hexmap.height + 1, hexmap.width), -1, np.int16)  # -1: not drawn
    drawn[rows, cols] = hexmap.terrain[rows, cols]
    tall, wide = SIZE * SQRT3, 1.5 * SIZE
    runs: dict[int, list[str]] = {}
    for col in range(hexmap.width):
        column = drawn[:, col]
        edges = np.flatnonzero(np.diff(column)) + 1
        starts = np.concatenate([[0], edges[:-1]]) if edges.size else np.array([], np.int64)
        x = SIZE / 4 + 1.5 * SIZE * col
        top = tall / 2 * (col & 1)
        for start, end in zip(starts.tolist(), edges.tolist(), strict=True):
            code = int(column[start])
            if code >= 0:
                y, down = top + start * tall, (end - start) * tall
                runs.setdefault(code, []).append(f"M{x:g} {y:.1f}h{wide:g}v{down:.1f}h-{wide:g}z")
    return "".join(
        f'<path fill="{TERRAIN_COLOURS[Terrain(code)]}" shape-rendering="crispEdges" '
        f'd="{"".join(parts)}"/>'
        for code, parts in sorted(runs.items())
    )


def _terrain_path(terrain: Terrain, cols: np.ndarray, rows: np.ndarray) -> str:
    """Every hex of ``terrain``: an invisible path through their centres whose every point
    carries the terrain's hex marker, so a hex costs only its relative step (a few bytes)."""
    xs = 3 * cols
    ys = 2 * rows + (cols & 1)
    steps = np.stack([np.diff(xs), np.diff(ys)], axis=1).ravel().tolist()
    text = " ".join(map(str, steps)).replace(" -", "-") or "0 0"  # a lone hex: one marker
    marker = f"url(#t{terrain.value})"
    return (
        f'<path fill="none" stroke="none" marker-start="{marker}" marker-mid="{marker}" '
        f'marker-end="{marker}" d="M{xs[0]} {ys[0]}l{text}"/>'
    )


def _labels(hexmap: HexMap, cols: np.ndarray, rows: np.ndarray, board: Board) -> Iterator[str]:
    """Each hex's number at its top; its terrain symbol's room is asked for in its middle
    (:func:`_symbols` draws those that keep it)."""
    yield f'<g font-size="{NUMBER_SIZE}" text-anchor="middle" fill="{INK[Terrain.PLAINS]}">'
    for col, row in zip(cols.tolist(), rows.tolist(), strict=True):
        hex_ = Hex.from_offset(col, row)
        x, y = centre(hex_)
        terrain = hexmap.terrain_at(hex_)
        ink = "" if INK[terrain] == INK[Terrain.PLAINS] else f' fill="{INK[terrain]}"'
        board.fix(Box.of_text(hex_.label, x, y - 9, NUMBER_SIZE, "middle"))
        yield f'<text x="{x:.1f}" y="{y - 9:.1f}"{ink}>{hex_.label}</text>'
        symbol = TERRAIN_SYMBOLS[terrain]
        if symbol:
            board.soften(Box.of_text(symbol, x, y + 3, SYMBOL_SIZE, "middle"), hex_)
    yield "</g>"


def _symbols(hexmap: HexMap, cols: np.ndarray, rows: np.ndarray, board: Board) -> str:
    """Each hex's terrain symbol in its middle, but where a mark or a name took the room
    (the hex's colour and the legend still say its terrain)."""
    out = [f'<g font-size="{SYMBOL_SIZE}" text-anchor="middle" fill="{INK[Terrain.PLAINS]}">']
    for col, row in zip(cols.tolist(), rows.tolist(), strict=True):
        hex_ = Hex.from_offset(col, row)
        terrain = hexmap.terrain_at(hex_)
        symbol = TERRAIN_SYMBOLS[terrain]
        if symbol and not board.gave_way(hex_):
            x, y = centre(hex_)
            ink = "" if INK[terrain] == INK[Terrain.PLAINS] else f' fill="{INK[terrain]}"'
            out.append(f'<text x="{x:.1f}" y="{y + 3:.1f}"{ink}>{symbol}</text>')
    out.append("</g>")
    return "\n".join(out)


def _roads(
    hexmap: HexMap, visible: _InDrawing, legend: list[Key], crisp: bool = False
) -> Iterator[str]:
    """One path per kind of road, with a segment between neighbouring road hexes both in
    the drawing, drawn from the hex of that kind; each kind drawn is added to ``legend``.
    Segments in line are one stroke (:func:`_runs`): a road across a continent is a few
    strokes, not one a hex. ``crisp``: for a picture of tiles (hexes a few pixels wide),
    strokes as sharp as the tiles: smoothing the edges of roads under a pixel wide there
    cost the rasteriser ten times the rest of the picture."""
    edges = ' shape-rendering="crispEdges"' if crisp else ' stroke-linecap="round"'
    road = np.where(visible.mask, hexmap.road, 0)
    on_road = road != 0
    for kind in sorted(Road, key=lambda k: k.value):
        if kind is Road.NONE:
            continue
        parts = []
        for direction in (Direction.N, Direction.NE, Direction.SE):  # each pair drawn once
            goes = (road == kind) & _shifted(on_road, direction)
            parts.extend(_runs(goes, direction))
        if parts:
            yield f'<path {ROAD_STROKES[kind]}{edges} d="{"".join(parts)}"/>'
            legend.append(Key(kind.name.lower(), line_mark(ROAD_STROKES[kind])))


def _offset_step(direction: Direction) -> tuple[int, int, int]:
    """A step to the neighbour on side ``direction`` in the map's grid: the column's step,
    and the row's from an even column and from an odd one."""
    even = Hex.from_offset(0, 5).neighbour(direction)
    odd = Hex.from_offset(1, 5).neighbour(direction)
    return even.col, even.row - 5, odd.row - 5


def _shifted(grid: np.ndarray, direction: Direction) -> np.ndarray:
    """``grid`` at each hex's neighbour on side ``direction`` (``False`` off the map)."""
    height, width = grid.shape
    padded = np.pad(grid, 1)
    out = np.zeros_like(grid)
    step, even, odd = _offset_step(direction)
    for parity, down in ((0, even), (1, odd)):
        out[:, parity::2] = padded[1 + down : 1 + down + height, 1 + step + parity :: 2][
            :, : (width - parity + 1) // 2
        ]
    return out


def _runs(goes: np.ndarray, direction: Direction) -> list[str]:
    """The strokes of the segments from each hex marked in ``goes`` to its neighbour on
    side ``direction``, those in line joined: one ``M`` and ``l`` for each unbroken run."""
    back = {Direction.N: Direction.S, Direction.NE: Direction.SW, Direction.SE: Direction.NW}
    starts = goes & ~_shifted(goes, back[direction])
    ends = goes & ~_shifted(goes, direction)
    # Along a side's direction one axial coordinate holds (its line) and q or r counts on.
    lines = []
    for marked in (starts, ends):
        row, col = np.nonzero(marked)
        q = col
        r = row - (col - (col & 1)) // 2
        line, along = {Direction.N: (q, -r), Direction.NE: (q + r, q), Direction.SE: (r, q)}[
            direction
        ]
        order = np.lexsort((along, line))
        lines.append((col[order], row[order], along[order]))
    (col, row, first), (_, _, last) = lines
    xs, ys = centres(col, row)
    dq, dr = direction.step
    step_x, step_y = SIZE * 1.5 * dq, SIZE * SQRT3 * (dr + dq / 2)
    hexes = last - first + 1
    return [
        f"M{x:.1f} {y:.1f}l{n * step_x:.1f} {n * step_y:.1f}"
        for x, y, n in zip(xs.tolist(), ys.tolist(), hexes.tolist(), strict=True)
    ]


def _features(
    shown: Sequence[tuple[Hex, Feature]],
    names: Sequence[Placed | None],
    player: bool,
    legend: list[Key],
) -> Iterator[str]:
    """Each feature drawn: a mark (a triangle for a landmark) and its name where the board
    placed it; each kind of mark drawn is added to ``legend`` (in the players' view, only
    "found")."""
    marks: set[tuple[Concealment, bool]] = set()
    for (hex_, feature), name in zip(shown, names, strict=True):
        x, y = centre(hex_)
        seen_as = Concealment.OVERT if player else feature.visibility
        colour = VISIBILITY_COLOURS[seen_as]
        marks.add((seen_as, feature.landmark))
        tip = f"{feature.name}: {feature.text}" if feature.text else feature.name
        if not player and feature.notes:
            tip += f" [{feature.visibility.value}] {feature.notes}"
        shape = feature_mark(colour, feature.landmark)(x, y)
        tag = shape[1 : shape.index(" ")]
        yield f"{shape}><title>{escape(tip)}</title></{tag}>"
        if name is not None:  # None: too small to read on this picture
            yield _text(feature.name, name, f'fill="{colour}" stroke-width="1.5"')
    for seen_as, landmark in sorted(marks, key=lambda m: (list(Concealment).index(m[0]), m[1])):
        thing = "landmark" if landmark else "feature"
        shown_as = "found" if player else "" if seen_as is Concealment.OVERT else seen_as.value
        meaning = f"{shown_as} {thing}".strip()
        legend.append(Key(meaning, feature_mark(VISIBILITY_COLOURS[seen_as], landmark)))


def _text(text: str, where: Placed, paint: str) -> str:
    """A free label where the board placed it, on a white halo."""
    anchor = "" if where.anchor == "start" else f' text-anchor="{where.anchor}"'
    return (
        f'<text x="{where.x:.1f}" y="{where.y:.1f}" font-size="{where.size:g}"{anchor} {paint} '
        f'stroke="#fff" paint-order="stroke">{escape(text)}</text>'
    )


def _grown(sizes: Sequence[float], grow: float) -> tuple[float, ...]:
    return tuple(size * grow for size in sizes)


def _stroke(stroke: str, grow: float) -> str:
    """A stroke's widths and dashes ``grow`` times as wide."""
    if grow == 1:
        return stroke
    return re.sub(
        r'(stroke-width|stroke-dasharray)="([^"]+)"',
        lambda m: f'{m[1]}="' + " ".join(f"{float(v) * grow:g}" for v in m[2].split()) + '"',
        stroke,
    )


def _track(
    track: Sequence[Hex], party_at: Hex | None, visible: _InDrawing, grow: float = 1.0
) -> str | None:
    """The party's track as one path: a step for each move between hexes both drawn."""
    hexes = [*track, party_at] if party_at is not None else list(track)
    parts = []
    for here, there in itertools.pairwise(hexes):
        if visible(here) and visible(there) and here != there:
            (x1, y1), (x2, y2) = centre(here), centre(there)
            parts.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
    if not parts:
        return None
    return f'<path d="{"".join(parts)}" {_stroke(TRACK_STROKE, grow)} stroke-linecap="round"/>'


def _route(route: Sequence[Hex], grow: float = 1.0) -> str:
    """The route as one line through its turns: the hexes it crosses in a straight line
    between two turns add no point (a route across a continent turns some thousands of
    times, not a million)."""
    qs = np.fromiter((h.q for h in route), np.int64, len(route))
    rs = np.fromiter((h.r for h in route), np.int64, len(route))
    steps = np.stack([np.diff(qs), np.diff(rs)], axis=1)
    turns = np.flatnonzero((np.diff(steps, axis=0) != 0).any(axis=1)) + 1
    kept = np.unique(np.concatenate([[0], turns, [len(route) - 1]]))
    xs, ys = centres(qs[kept], rs[kept] + (qs[kept] - (qs[kept] & 1)) // 2)
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs.tolist(), ys.tolist(), strict=True))
    return f'<polyline points="{points}" {_stroke(ROUTE_STROKE, grow)} stroke-linecap="round"/>'
