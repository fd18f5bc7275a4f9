"""SVG drawing: readable without tooltips, the player view never leaks referee notes, unfound
features, unknown hexes or the map's true extent (TP-DISC-1), and any size draws compactly."""

from __future__ import annotations

import itertools
import math
import re
from xml.etree import ElementTree

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from turnkeeper.world.drawing import (
    INK,
    LEGEND_WIDTH,
    TERRAIN_COLOURS,
    TERRAIN_SYMBOLS,
    centre,
    contrast,
)
from turnkeeper.world.generate import generate_map
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import Concealment, Feature, HexMap, Road, Terrain
from turnkeeper.world.route import plan_route
from turnkeeper.world.svg import render_svg
from turnkeeper.world.travel import cost_grid

HERE, THERE, FAR = Hex.from_offset(0, 0), Hex.from_offset(1, 0), Hex.from_offset(2, 0)
MAP = HexMap.build(
    "Vale",
    np.array([[0, 4, 9], [6, 0, 0]], np.uint8),
    np.array([[Road.ROAD, Road.ROAD, 0], [0, 0, 0]], np.uint8),
    {
        HERE: (
            Feature(id="inn", name="Prancing Pony", notes="REFNOTE-innkeeper-is-a-spy"),
            Feature(id="cave", name="Hidden Cave", visibility=Concealment.HIDDEN),
        ),
        THERE: (Feature(id="vault", name="Secret Vault", visibility=Concealment.SECRET),),
    },
)


def labels(svg: str) -> set[str]:
    return set(re.findall(r">(\d{4,})</text>", svg))


def view_box(svg: str) -> tuple[float, float, float, float]:
    found = re.search(r'viewBox="([-\d. ]+)"', svg)
    assert found is not None
    left, top, width, height = (float(v) for v in found.group(1).split())
    return left, top, width, height


def test_referee_view_shows_every_hex_number_feature_road_and_the_legend() -> None:
    svg = render_svg(MAP, party_at=HERE)
    assert labels(svg) == {"0000", "0100", "0200", "0001", "0101", "0201"}
    for text in ("Prancing Pony", "REFNOTE-innkeeper-is-a-spy", "Hidden Cave", "Secret Vault"):
        assert text in svg
    assert 'stroke="#7a4a1a"' in svg  # the road
    assert ">party</text>" in svg
    for terrain in (Terrain.PLAINS, Terrain.FOREST, Terrain.WATER, Terrain.MOUNTAINS):
        assert terrain.key.replace("_", " ") in svg and TERRAIN_COLOURS[terrain] in svg
    assert TERRAIN_SYMBOLS[Terrain.FOREST] in svg and TERRAIN_SYMBOLS[Terrain.MOUNTAINS] in svg


def test_tp_disc_1_player_view_hides_notes_unfound_features_and_unknown_hexes() -> None:
    svg = render_svg(
        MAP,
        party_at=HERE,
        known={HERE, THERE},
        player=True,
        found_features={"inn"},
        route=[HERE, THERE],
    )
    assert "Prancing Pony" in svg
    assert "REFNOTE" not in svg
    assert "Hidden Cave" not in svg and "Secret Vault" not in svg
    assert labels(svg) == {"0000", "0100"}
    assert ">party</text>" in svg and "<polyline" in svg


def test_the_players_map_is_cropped_to_what_they_know_not_the_true_extent() -> None:
    big = generate_map(60, 40, seed=2)
    corner = {Hex.from_offset(c, r) for c in range(3) for r in range(2)}
    svg = render_svg(big, known=corner, player=True)
    referee = render_svg(big)
    _, _, width, height = view_box(svg)
    assert width <= 8 * 20 + LEGEND_WIDTH and height <= 6 * 20 * math.sqrt(3)
    assert f'width="{view_box(referee)[2]:.0f}"' not in svg
    assert labels(svg) == {h.label for h in corner}


def test_player_view_with_nothing_known_draws_no_hexes() -> None:
    svg = render_svg(MAP, player=True)
    assert "marker-mid" not in svg and "Prancing Pony" not in svg and not labels(svg)


def test_a_window_draws_only_the_hexes_within_its_radius() -> None:
    big = generate_map(40, 40, seed=3)
    middle = Hex.from_offset(20, 20)
    svg = render_svg(big, around=middle, radius=2)
    drawn = labels(svg)
    assert len(drawn) == 19 and middle.label in drawn
    assert all(Hex.parse(label).distance(middle) <= 2 for label in drawn)


def test_a_big_map_costs_few_bytes_a_hex_and_writes_no_labels() -> None:
    big = generate_map(250, 250, seed=1)  # 62,500 hexes: past the labelled drawing's bound
    svg = render_svg(big)
    assert len(svg) / 62_500 < 30 and not labels(svg)


def _road_pairs(svg: str, stroke: str) -> set[frozenset[Hex]]:
    """The neighbouring hexes a road path joins: each stroke's run cut at every hex."""
    path = re.search(rf'<path fill="none" stroke="#7a4a1a" {stroke}[^>]* d="([^"]*)"', svg)
    if path is None:
        return set()
    pairs = set()
    for x, y, dx, dy in re.findall(r"M([-\d.]+) ([-\d.]+)l([-\d.]+) ([-\d.]+)", path[1]):
        x0, y0, step_x, step_y = float(x), float(y), float(dx), float(dy)
        hexes = round(abs(step_x) / 30) if abs(step_x) > 1 else round(abs(step_y) / 34.641)
        along = [
            _hex_at(x0 + step_x * i / hexes, y0 + step_y * i / hexes) for i in range(hexes + 1)
        ]
        pairs |= {frozenset(pair) for pair in itertools.pairwise(along)}
    return pairs


def _hex_at(x: float, y: float) -> Hex:
    """The hex whose centre is nearest ``(x, y)``."""
    return min(_GRID, key=lambda h: math.dist(centre(h), (x, y)))


_GRID = [Hex.from_offset(col, row) for col in range(9) for row in range(9)]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(list(Road)), min_size=81, max_size=81),
    st.sets(st.sampled_from(_GRID)),
)
def test_roads_join_every_two_neighbouring_road_hexes_drawn_and_no_others(
    roads: list[Road], unknown: set[Hex]
) -> None:
    """Issue 38: a road is drawn in runs, a stroke for hexes in line; what it joins is every
    pair of neighbouring road hexes both in the drawing, in the kind of the hex it leaves
    northward (n, ne, se), in both views."""
    road = np.array(roads, np.uint8).reshape(9, 9)
    hexmap = HexMap.build("Roads", np.zeros((9, 9), np.uint8), road)
    known = set(_GRID) - unknown
    for svg, drawn in (
        (render_svg(hexmap), set(_GRID)),
        (render_svg(hexmap, known=known, player=True), known),
    ):
        on_road = {h for h in drawn if road[h.row, h.col]}
        for kind, stroke in ((Road.ROAD, 'stroke-width="3"'), (Road.TRAIL, 'stroke-width="2"')):
            expected = {
                frozenset((h, n))
                for h in on_road
                if road[h.row, h.col] == kind
                for n in h.neighbours()[:3]
                if n in on_road
            }
            assert _road_pairs(svg, stroke) == expected


def test_a_road_in_line_is_one_stroke_and_a_straight_route_two_points() -> None:
    """Issue 38: a map with a road in every hex drew a segment per pair of hexes (8 s for
    500 x 500, 189 s and 2 GB for 2000 x 2000); hexes in line are one stroke now."""
    column = HexMap.build("Column", np.zeros((40, 1), np.uint8), np.ones((40, 1), np.uint8))
    svg = render_svg(column, route=[Hex.from_offset(0, row) for row in range(40)])
    road = re.search(r'stroke-width="3" stroke-linecap="round" d="([^"]*)"', svg)
    assert road is not None and road[1].count("M") == 1
    route = re.search(r'<polyline points="([^"]*)"', svg)
    assert route is not None and len(route[1].split()) == 2
    everywhere = HexMap.build("Roads", np.zeros((30, 30), np.uint8), np.ones((30, 30), np.uint8))
    strokes = re.findall(r"M", render_svg(everywhere).split('stroke-width="3"')[1])
    assert len(strokes) < 200  # in line n, ne and se: 30 + 44 + 44 runs, not 2,581 pairs


def test_a_map_file_numbers_its_hexes_up_to_fifty_thousand_and_a_page_up_to_four() -> None:
    """Issue 27: a 200 x 200 map drawn to a file numbers every hex (about 95 bytes a hex);
    a page, sent again on every command, numbers a drawing of at most 4,000 hexes."""
    hexmap = generate_map(200, 200, seed=1)
    svg = render_svg(hexmap)
    assert len(labels(svg)) == 40_000 and len(svg) / 40_000 < 150
    assert not labels(render_svg(hexmap, labels_up_to=4_000))


# -- colour-blind readers: the palette stays distinct under deuteranopia ----------------------

#: Machado, Oliveira and Fernandes (2009): deuteranopia, severity 1, on linear RGB.
DEUTERANOPIA = np.array(
    [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.01182, 0.04294, 1.968881]]
)


def _lab(linear: np.ndarray) -> np.ndarray:
    xyz = (
        np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
        @ linear
    )
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _linear(colour: str) -> np.ndarray:
    rgb = np.array([int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def test_terrain_colours_stay_apart_for_normal_and_deuteranope_eyes() -> None:
    seen = {t: _linear(c) for t, c in TERRAIN_COLOURS.items()}
    for a, b in itertools.combinations(Terrain, 2):
        normal = np.linalg.norm(_lab(seen[a]) - _lab(seen[b]))
        deuteranope = np.linalg.norm(
            _lab(np.clip(DEUTERANOPIA @ seen[a], 0, 1))
            - _lab(np.clip(DEUTERANOPIA @ seen[b], 0, 1))
        )
        assert normal >= 15, (a, b, normal)
        assert deuteranope >= 10, (a, b, deuteranope)


def _features(hexmap: HexMap) -> dict[Hex, tuple[Feature, ...]]:
    by_hex: dict[Hex, tuple[Feature, ...]] = {}
    for hex_, feature in hexmap.all_features():
        by_hex[hex_] = (*by_hex.get(hex_, ()), feature)
    return by_hex


def legend(svg: str) -> list[str]:
    """The legend's lines, in order: what each of its marks means."""
    box = svg[svg.rindex('<g font-size="8">') :]
    return re.findall(r'<text x="[-\d.]+" y="[-\d.]+">([^<]+)</text>', box)


def test_the_legend_explains_everything_drawn_and_nothing_else() -> None:
    """Issue 27: the legend showed terrain only; it now names every kind of mark the drawing
    holds (roads, the features by visibility, landmarks, the party, the route and its day
    marks), in both views, and in the players' only what they may see."""
    landmark = HexMap.build(
        "Vale",
        MAP.terrain,
        MAP.road,
        {**dict(_features(MAP)), FAR: (Feature(id="tor", name="Tor", landmark=True),)},
    )
    svg = render_svg(landmark, party_at=HERE, route=[HERE, THERE], route_marks=[(THERE, "d1")])
    keys = legend(svg)
    assert keys[:4] == ["· plains", "♣ forest", "▲ mountains", "~ water"]
    assert keys[4:] == [
        "road",
        "feature",
        "landmark",
        "hidden feature",
        "secret feature",
        "route",
        "a day's end",
        "the party",
    ]
    players = legend(
        render_svg(
            landmark, party_at=HERE, known={HERE, THERE}, player=True, found_features={"inn"}
        )
    )
    assert players == ["· plains", "♣ forest", "road", "found feature", "the party"]
    bare = legend(render_svg(HexMap.build("Bare", np.zeros((1, 2), np.uint8))))
    assert bare == ["· plains"]


def test_the_legend_stands_beside_the_map_and_a_small_map_grows_to_hold_it() -> None:
    tiny = HexMap.build("Tiny", np.array([[0, 4]], np.uint8), np.array([[1, 1]], np.uint8))
    svg = render_svg(tiny, party_at=HERE, route=[HERE, THERE], route_marks=[(THERE, "d1")])
    _, top, _, height = view_box(svg)
    box = re.search(r'<g font-size="8"><rect x="([-\d.]+)" y="([-\d.]+)" width="[\d.]+" '
                    r'height="([\d.]+)"', svg)  # fmt: skip
    assert box is not None
    assert float(box[2]) + float(box[3]) <= top + height  # the whole legend is on the page
    hexes_end = max(float(x) for x in re.findall(r'<text x="([-\d.]+)"[^>]*>\d{4}</text>', svg))
    assert float(box[1]) > hexes_end  # right of every hex number: it covers none


#: WCAG 2's AA contrast for text.
AA = 4.5


def test_every_text_reads_at_aa_contrast_on_what_it_stands_on() -> None:
    """Issue 27: hex numbers and symbols in their ink on every terrain colour, and the texts
    drawn over the map with a white halo (feature names in their visibility's colour, the
    route's day marks and note, the party) against that halo, all at 4.5:1 or more; the
    hidden features' orange once read at 3.5:1."""
    for terrain, colour in TERRAIN_COLOURS.items():
        assert contrast(INK[terrain], colour) >= AA, (terrain, INK[terrain], colour)
    svg = render_svg(MAP, party_at=HERE, route=[HERE, THERE], route_note="1 day",
                     route_marks=[(THERE, "day 1")])  # fmt: skip
    haloed = re.findall(r'<text [^>]*fill="(#[0-9a-f]{6})"[^>]*stroke="#fff"', svg)
    assert set(haloed) >= {"#222222", "#a85a00", "#c00000", "#1040c0"}
    for ink in haloed:
        assert contrast(ink, "#ffffff") >= AA, ink
    inks = set(re.findall(r'<text x="[-\d.]+" y="[-\d.]+" fill="(#[0-9a-f]{6})">\d{4}<', svg))
    assert inks <= set(INK.values())


def test_the_party_stands_beside_a_features_mark_and_the_route_runs_under_the_numbers() -> None:
    """Issue 27: the party's dot hid the mark of a feature in its hex, and the route line
    covered the hex numbers."""
    svg = render_svg(MAP, party_at=HERE, route=[HERE, THERE], route_note="1 day")
    party = re.search(r'<circle cx="([-\d.]+)" cy="([-\d.]+)" r="6"', svg)
    assert party is not None
    x, y = centre(HERE)
    assert (float(party[1]), float(party[2])) != (round(x, 1), round(y, 1))
    assert f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5"' in svg  # the inn's mark, uncovered
    assert svg.index("<polyline") < svg.index('<g font-size="5.5"')  # under the numbers
    assert svg.index('<g font-size="5.5"') < svg.index(">1 day</text>")  # its note on top
    alone = render_svg(MAP, party_at=FAR)
    far = centre(FAR)
    assert f'<circle cx="{far[0]:.1f}" cy="{far[1]:.1f}" r="6"' in alone  # centred when alone


def test_the_partys_track_is_drawn_to_where_it_stands_in_both_views() -> None:
    """Issue 27: the party's past track was not drawn. Its steps between hexes both in the
    drawing run to the party as a dotted line, named in the legend; in the players' view only
    where they know the hexes."""
    svg = render_svg(MAP, party_at=FAR, track=[HERE, THERE])
    steps = re.search(r'<path d="([^"]+)" fill="none" stroke="#6a3d9a"', svg)
    assert steps is not None and steps[1].count("M") == 2
    assert "the party's track" in legend(svg)
    players = render_svg(MAP, party_at=THERE, track=[FAR, HERE], known={HERE, THERE}, player=True)
    steps = re.search(r'<path d="([^"]+)" fill="none" stroke="#6a3d9a"', players)
    assert steps is not None and steps[1].count("M") == 1  # FAR is unknown to them
    assert "the party's track" not in legend(render_svg(MAP, party_at=HERE))


def _drawn_words(svg: str) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every text of the drawing with its ink box, measured in DejaVu Sans (the drawing's
    first font; matplotlib ships it), each text's size and anchor inherited as SVG does."""
    from matplotlib import font_manager
    from PIL import ImageFont

    font = ImageFont.truetype(font_manager.findfont("DejaVu Sans"), 100)
    words = []

    def walk(node: ElementTree.Element, size: float, anchor: str) -> None:
        size = float(node.get("font-size", size))
        anchor = node.get("text-anchor", anchor)
        if node.tag.endswith("text") and node.text:
            x, y, scale = float(node.get("x", 0)), float(node.get("y", 0)), size / 100
            left, top, right, bottom = font.getbbox(node.text, anchor="ls")
            shift = {"start": 0.0, "middle": 0.5, "end": 1.0}[anchor]
            x -= font.getlength(node.text) * scale * shift
            box = (x + left * scale, y + top * scale, x + right * scale, y + bottom * scale)
            words.append((node.text, box))
        for child in node:
            walk(child, size, anchor)

    walk(ElementTree.fromstring(svg), 16.0, "start")
    return words


def _overlaps(
    boxes: list[tuple[str, tuple[float, float, float, float]]],
) -> list[tuple[str, str]]:
    """The pairs of boxes that share more than a hair (0.05 units)."""
    cells: dict[tuple[int, int], list[int]] = {}
    for index, (_, (left, top, right, bottom)) in enumerate(boxes):
        for i in range(int(left // 40), int(right // 40) + 1):
            for j in range(int(top // 40), int(bottom // 40) + 1):
                cells.setdefault((i, j), []).append(index)
    pairs = set()
    for members in cells.values():
        for a, b in itertools.combinations(members, 2):
            (_, one), (_, other) = boxes[a], boxes[b]
            if (
                min(one[2], other[2]) - max(one[0], other[0]) > 0.05
                and min(one[3], other[3]) - max(one[1], other[1]) > 0.05
            ):
                pairs.add((boxes[a][0], boxes[b][0]))
    return sorted(pairs)


def test_no_two_words_of_the_medium_map_overlap_nor_cover_a_mark() -> None:
    # Issue 27: the README's map (40 x 30, seed 4) with a party, a route, its day marks and
    # its note: every hex number, terrain symbol, name and note in its own room.
    hexmap = generate_map(40, 30, seed=4)
    tp = cost_grid(hexmap)
    route = plan_route(hexmap, Hex.parse("0505"), Hex.parse("1019"), tp)
    village = next(h for h, f in hexmap.all_features() if f.id.startswith("village"))
    svg = render_svg(
        hexmap,
        party_at=village,
        route=route.hexes,
        route_note=f"{route.days} days, {route.tp} TP",
        route_marks=[(h, f"day {d}: {tp} TP") for d, (h, tp) in enumerate(route.day_ends, 1)],
    )
    words = _drawn_words(svg)
    assert sum(1 for text, _ in words if re.fullmatch(r"\d{4}", text)) == 1200
    assert _overlaps(words) == []
    marks = [
        (
            f"mark {m[1]},{m[2]}",
            (float(m[1]) - 3.5, float(m[2]) - 3.5, float(m[1]) + 3.5, float(m[2]) + 3.5),
        )
        for m in re.finditer(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="3.5"', svg)
    ]
    assert marks and not [pair for pair in _overlaps(words + marks) if pair[1].startswith("mark")]


def test_a_picture_drawn_small_keeps_its_route_and_legend_at_page_size() -> None:
    """Issue 27: drawn small (a continent in a PNG), the route, its day marks and the legend
    are as large as on a page at 1.5 px a unit, so they read; the places' names, specks at
    that size, are left to their marks, and a day's words go only where there is room."""
    hexmap = generate_map(60, 40, seed=3)
    route = plan_route(hexmap, Hex.parse("3737"), Hex.parse("1007"), cost_grid(hexmap))
    marks = [(h, f"day {d}: {tp} TP") for d, (h, tp) in enumerate(route.day_ends, 1)]
    args = {"route": route.hexes, "route_note": "a long way", "route_marks": marks}
    small, page = render_svg(hexmap, zoom=0.1, **args), render_svg(hexmap, **args)  # type: ignore[arg-type]
    grow = 1.5 / 0.1
    assert f'stroke-width="{3 * grow:g}"' in small and 'stroke-width="3"' in page
    assert f") scale({grow:g}) translate(" in small and ") scale(15) translate(" not in page
    name = next(f.name for _, f in hexmap.all_features())
    assert f">{name}<" in page and f">{name}<" not in small
    assert small.count('r="3"') == page.count('r="3"') == len(marks) + 1  # + the legend's
    assert 0 < len(re.findall(r">day \d+:", small)) <= len(marks)
    assert _overlaps(_drawn_words(small)) == []


def test_a_picture_of_tiles_draws_its_roads_as_sharp_as_its_tiles() -> None:
    """Issue 38: an 8,000 px PNG of 2000 x 2000 with a road in every hex took minutes, most
    of it smoothing the edges of roads drawn under a pixel wide; where the hexes are tiles,
    the roads are as crisp as they are, and drawn in full only at a size that reads."""
    roads = HexMap.build("Roads", np.zeros((6, 6), np.uint8), np.ones((6, 6), np.uint8))
    small, large = render_svg(roads, zoom=0.2), render_svg(roads, zoom=2.0)
    for svg, edges in ((small, 'shape-rendering="crispEdges"'), (large, 'stroke-linecap="round"')):
        assert re.search(rf'<path fill="none" stroke="#7a4a1a" [^>]*{edges} d="M', svg)
