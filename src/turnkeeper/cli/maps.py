"""CLI verbs: ``turnkeeper map new | show | check`` (wilderness hex maps, issue 5).

``map show --out map.svg`` draws the current campaign's map: the one ``map load`` embedded,
with the party's hex, and with ``--player`` only the hexes the party has seen and the
features it has found. ``map show --map FILE`` draws a bare map file instead; the party's
position and what it knows then come from options or a small JSON "knowledge" file:

    {"party_at": "0304", "known": ["0304", "0404"], "found_features": ["village-1"]}

Those options draw the players' view, as ``--player`` does: a drawing of what the party
knows never carries the referee's notes or unfound features.
"""

from __future__ import annotations

import importlib.util
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from turnkeeper.campaign import CampaignState
from turnkeeper.cli.from_table import attach
from turnkeeper.cli.options import (
    PNG_MOST,
    PNG_PIXELS,
    CampaignOption,
    DbOption,
    ForceOption,
    PngSizeOption,
    check_out,
    check_seed,
)
from turnkeeper.cli.output import JsonOption, console, emit, say, text
from turnkeeper.cli.runner import open_campaigns
from turnkeeper.dice import format_fraction, format_mixed
from turnkeeper.errors import IllegalCommandError, NotFoundError, TurnkeeperError
from turnkeeper.files.keys import unknown_key
from turnkeeper.files.reading import parse_json, read_text
from turnkeeper.files.writing import write_bytes, write_text
from turnkeeper.kernel.wilderness_state import WildernessState
from turnkeeper.words import words
from turnkeeper.world.errors import MapError
from turnkeeper.world.generate import generate_map
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import HexMap, Terrain
from turnkeeper.world.mapfile import (
    MAX_MAP_SIDE,
    check_map_size,
    dumps_map,
    format_for,
    loads_map,
)
from turnkeeper.world.svg import render_svg

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

map_app = typer.Typer(
    help="Wilderness hex maps: make, check, load and draw them.\n\n"
    "Example: `turnkeeper map new --width 12 --height 10 --seed 7 --out wild.toml`.",
    no_args_is_help=True,
)
verbs.add_typer(map_app, name="map")

# Typer renders help as Rich markup: the backslashes keep the brackets on screen.
_KNOWN_HELP = 'JSON: {"party_at": hex, "known": \\[hexes], "found_features": \\[ids]}.'


def read_map(path: Path) -> HexMap:
    """Read a map file (.toml or .json); a missing or broken file is one clear error."""
    fmt = format_for(path)
    return loads_map(read_text(path, "map file", MapError), fmt, where=str(path))


@dataclass(frozen=True)
class CampaignMap:
    """A campaign's wilderness as the drawing needs it: the map, the party's hex, the hexes
    the party has seen or been in, and the ids of the features it has found."""

    campaign: str
    state: CampaignState
    wild: WildernessState
    known: frozenset[Hex]

    @property
    def hexmap(self) -> HexMap:
        """The campaign's map as the world layer's grids."""
        return self.wild.hexmap


def campaign_map(db: str | None, campaign: str | None) -> CampaignMap:
    """The chosen campaign's map and what its party knows; one clear error without a map."""
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        state = campaigns.state(name)
    wild = state.wilderness
    if wild is None:
        raise IllegalCommandError(
            f"campaign {name!r} has no wilderness map: load one first with "
            "`turnkeeper map load FILE --at HEX` (or draw a file with `map show --map FILE`)"
        )
    known = wild.seen | wild.visited | {wild.position}
    return CampaignMap(name, state, wild, frozenset(known))


def _summary(hexmap: HexMap) -> dict[str, Any]:
    terrain = Counter(Terrain(int(t)).key for t in hexmap.terrain.reshape(-1).tolist())
    visibility = Counter(f.visibility.value for _, f in hexmap.all_features())
    return {
        "name": hexmap.name,
        "width": hexmap.width,
        "height": hexmap.height,
        "terrain": dict(sorted(terrain.items())),
        "road_hexes": int((hexmap.road == 1).sum()),
        "trail_hexes": int((hexmap.road == 2).sum()),
        "features": dict(sorted(visibility.items())),
        "landmarks": sum(f.landmark for _, f in hexmap.all_features()),
    }


def _render_summary(summary: dict[str, Any], title: str) -> None:
    table = Table(title=text(title))
    table.add_column("what")
    table.add_column("value")
    for key, value in summary.items():
        if key == "ok":
            continue  # the title says so (issue 25: a row "ok │ True")
        if isinstance(value, dict):
            value = ", ".join(f"{words(k)} {v}" for k, v in value.items()) or "none"
        table.add_row(words(key), text(str(value)))
    console().print(table)


@map_app.command("new")
def new(
    width: Annotated[
        int, typer.Option("--width", help=f"Columns of hexes (at most {MAX_MAP_SIDE:,}).")
    ],
    height: Annotated[
        int, typer.Option("--height", help=f"Rows of hexes (at most {MAX_MAP_SIDE:,}).")
    ],
    seed: Annotated[int, typer.Option("--seed", help="The same seed makes the same map.")],
    out: Annotated[Path, typer.Option("--out", help="Map file to write (.toml or .json).")],
    force: bool = ForceOption,
    as_json: bool = JsonOption,
) -> None:
    """Generate a demo wilderness map and write it as a map file.

    Example: `turnkeeper map new --width 12 --height 10 --seed 7 --out wild.toml`.
    """
    fmt = format_for(out)
    check_seed(seed)
    check_map_size(width, height, "--width and --height")
    check_out(out, "map file", force)
    with working(width * height, as_json, f"making a {width} x {height} map"):
        hexmap = generate_map(width, height, seed)
        write_text(out, dumps_map(hexmap, fmt), "map file")
    summary = {"file": str(out), "seed": seed, **_summary(hexmap)}
    emit(summary, as_json, lambda: _render_summary(summary, f"wrote {out}"))


@map_app.command("check")
def check(
    file: Annotated[Path, typer.Argument(help="Map file to check (.toml or .json).")],
    as_json: bool = JsonOption,
) -> None:
    """Check a map file against the map format and summarise it.

    Example: `turnkeeper map check wild.toml`.
    """
    summary = {"file": str(file), "ok": True, **_summary(read_map(file))}
    emit(summary, as_json, lambda: _render_summary(summary, f"{file}: OK"))


def _hex_option(text: str, what: str) -> Hex:
    try:
        return Hex.parse(text)
    except TurnkeeperError as error:
        raise TurnkeeperError(f"{what}: {error}") from None


def _from_file(
    map_file: Path, known_file: Path | None, party: str | None
) -> tuple[HexMap, Hex | None, set[Hex], set[str]]:
    """A bare map file, with the party's hex and knowledge from ``--party`` / ``--known``."""
    hexmap = read_map(map_file)
    knowledge: dict[str, Any] = {}
    if known_file is not None:
        knowledge = parse_json(read_text(known_file, "knowledge file"), str(known_file))
        if not isinstance(knowledge, dict):
            raise TurnkeeperError(
                f"{known_file}: expected an object with party_at, known, found_features"
            )
    where = str(known_file)
    stray = sorted(set(knowledge) - {"party_at", "known", "found_features"})
    if stray:
        raise TurnkeeperError(
            f"{where}: {unknown_key(stray[0], ['party_at', 'known', 'found_features'])}"
        )
    for key in ("known", "found_features"):
        if not isinstance(knowledge.get(key, []), list):
            raise TurnkeeperError(f'{where}: {key}: expected a list, e.g. ["0304"]')
    party_text = party if party is not None else knowledge.get("party_at")
    if not isinstance(party_text, str | None):
        raise TurnkeeperError(f'{where}: party_at: expected a hex such as "0304"')
    known = {_hex_option(str(h), f"{where}: known") for h in knowledge.get("known", [])}
    found = {str(f) for f in knowledge.get("found_features", [])}
    party_at = None if party_text is None else _hex_option(str(party_text), "party")
    if party_at is not None and party_at not in hexmap:
        raise NotFoundError(f"party hex {party_at.label} is not on map {hexmap.name!r}")
    if party_at is not None:
        known.add(party_at)
    return hexmap, party_at, known, found


@map_app.command("show")
def show(
    out: Annotated[Path, typer.Option("--out", help="SVG file to write.")],
    map_file: Annotated[
        Path | None,
        typer.Option("--map", help="Draw this map file (.toml or .json), not the campaign's."),
    ] = None,
    player: Annotated[bool, typer.Option("--player", help="Only what the party knows.")] = False,
    known_file: Annotated[
        Path | None,
        typer.Option("--known", help=f"With --map, the players' view (as --player): {_KNOWN_HELP}"),
    ] = None,
    party: Annotated[
        str | None,
        typer.Option(
            "--party",
            help="With --map, the players' view (as --player): the party hex, '0304' or 'q,r'.",
        ),
    ] = None,
    around: Annotated[
        str | None, typer.Option("--around", help="Draw only a window around this hex: 0304.")
    ] = None,
    radius: Annotated[
        int, typer.Option("--radius", min=0, help="With --around: the window's radius in hexes.")
    ] = 10,
    png_size: int | None = PngSizeOption,
    force: bool = ForceOption,
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """Draw the campaign's map as SVG (or PNG): the referee's view, or what the party knows.

    With --player, only the hexes it has seen and the features it has found.
    With --map, a map file instead of the campaign's map; --known or --party with it draws
    the players' view, as --player does: what the party knows never comes with the
    referee's notes and secrets. The drawing's title says which view it is.

    Example: `turnkeeper map show --player --out party.svg`.
    """
    check_out(out, "drawing", force, db, [(map_file, "map file"), (known_file, "knowledge file")])
    check_picture(out, png_size)
    result: dict[str, Any] = {}
    if map_file is not None:
        hexmap, party_at, known, found = _from_file(map_file, known_file, party)
        track: tuple[Hex, ...] = ()
        # the party's knowledge is the players' view: never drawn with the referee's secrets
        player = player or known_file is not None or party is not None
    else:
        if known_file is not None or party is not None:
            raise IllegalCommandError(
                "map show: --known and --party go with --map FILE; a campaign's map already "
                "knows where its party is and what it has found"
            )
        drawn = campaign_map(db, campaign)
        hexmap, party_at = drawn.hexmap, drawn.wild.position
        known, found = set(drawn.known), set(drawn.wild.found)
        track = drawn.wild.track
        result["campaign"] = drawn.campaign
    middle = Hex.parse(around) if around is not None else None
    if middle is not None and middle not in hexmap:
        raise NotFoundError(f"hex {around} is off the map {hexmap.name!r}")
    with working(hexmap.width * hexmap.height, as_json, f"drawing {hexmap.name}"):
        picture = write_picture(
            lambda zoom: render_svg(
                hexmap,
                party_at,
                known,
                player=player,
                found_features=found,
                around=middle,
                radius=radius if middle is not None else None,
                track=track,
                zoom=zoom,
            ),
            out,
            png_size,
        )
    pixels = picture.pixels
    result |= {
        "file": str(out),
        "player": player,
        "known_hexes": len(known),
        "bytes": len(picture.svg),
    }
    if pixels is not None:
        result["pixels"] = list(pixels)
    emit(
        result,
        as_json,
        lambda: say(f"wrote {out} ({'player' if player else 'referee'} view{drawn_at(pixels)})"),
    )


def exact_tp(value: Fraction) -> str:
    """An exact TP for ``--json``: ``"p/q"``, or ``"p"`` when whole (``"2"``, not ``"2/1"``)."""
    return format_fraction(value)


def wilderness_details(name: str, state: CampaignState) -> dict[str, Any]:
    """Where the party is and what the day has cost, for ``--json``."""
    wild = state.wilderness
    if wild is None:
        return {}
    return {
        "at": wild.position.label,
        "tp_spent": exact_tp(wild.tp_spent),
        "pending": wild.pending.to.label if wild.pending else None,
    }


def wilderness_where(state: CampaignState) -> str:
    wild = state.wilderness
    return f" · hex {wild.position.label} · {format_mixed(wild.tp_spent)} TP spent" if wild else ""


#: A PNG is drawn at twice the drawing's size, for print, when that fits within the bound.
PNG_ZOOM = 2.0
_SVG_SIZE = re.compile(r'<svg[^>]*? width="(\d+(?:\.\d+)?)" height="(\d+(?:\.\d+)?)"')


def check_picture(out: Path, longest: int | None) -> None:
    """Refuse, before any drawing, a PNG size beyond the bound or one asked of an SVG."""
    if longest is None:
        return
    if out.suffix.lower() != ".png":
        raise IllegalCommandError("--png-size goes with an --out file ending in .png")
    if longest > PNG_MOST:
        raise IllegalCommandError(
            f"--png-size {longest:,}: a PNG is at most {PNG_MOST:,} px on its longest side; "
            "ask for less, draw a window with --around HEX, or write an .svg, which has no bound"
        )


def png_zoom(width: float, height: float, longest: int | None = None) -> float:
    """The zoom that draws a ``width`` x ``height`` drawing as a PNG within the bound: the
    longest side asked for, else twice the size or :data:`PNG_PIXELS` pixels, whichever is
    smaller.

    >>> png_zoom(1000, 500), round(png_zoom(30_122, 34_658), 3), png_zoom(1000, 500, longest=250)
    (2.0, 0.124, 0.25)
    """
    if longest is not None:
        return longest / max(width, height, 1.0)
    return min(PNG_ZOOM, math.sqrt(PNG_PIXELS / max(width * height, 1.0)))


@dataclass(frozen=True)
class Picture:
    """A map drawing written to a file: the SVG drawn, and a PNG's size in pixels (None for
    an SVG)."""

    svg: str
    pixels: tuple[int, int] | None


def write_picture(
    draw: Callable[[float | None], str], out: Path, longest: int | None = None
) -> Picture:
    """Write a map drawing: SVG, or PNG for printing when ``out`` ends in .png (resvg), drawn
    within :data:`PNG_MOST` pixels (``longest``: its longest side). ``draw(zoom)`` makes the
    SVG; a PNG is drawn again at its zoom, with every hex's number and symbol where they
    read, whatever the map's size (:func:`~turnkeeper.world.drawing.legible`)."""
    check_picture(out, longest)
    svg = draw(None)
    if out.suffix.lower() != ".png":
        write_text(out, svg, "drawing")
        return Picture(svg, None)
    # Drawn again for the zoom it is seen at: every word that reads there, the hexes as tiles
    # where they are too small for outlines, and on a picture drawn small the route and the
    # legend at their size on the page (the legend's column grows, so the zoom is taken again
    # from the drawing's new size).
    svg = draw(png_zoom(*_size(svg), longest))
    width, height = _size(svg)
    zoom = png_zoom(width, height, longest)
    write_bytes(out, rasterise(svg, zoom), "drawing")
    return Picture(svg, (max(1, round(width * zoom)), max(1, round(height * zoom))))


def _shipped_fonts() -> tuple[str, ...]:
    """DejaVu Sans and its bold, as matplotlib (a dependency) ships them, found without
    importing it (a second's load for two file names)."""
    spec = importlib.util.find_spec("matplotlib")
    folders = spec.submodule_search_locations if spec is not None else None
    if not folders:
        return ()
    fonts = Path(next(iter(folders))) / "mpl-data" / "fonts" / "ttf"
    return tuple(str(fonts / name) for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"))


#: The fonts a PNG's words are drawn in, and the only ones: a machine with no fonts of its own
#: (a server, a container) once drew maps with no word on them, and every machine now draws
#: the same picture of the same map.
SHIPPED_FONTS = _shipped_fonts()


def rasterise(svg: str, zoom: float, fonts: Sequence[str] = SHIPPED_FONTS) -> bytes:
    """The PNG of ``svg`` at ``zoom``, its words in ``fonts`` (never the system's)."""
    import resvg_py  # a rasteriser, loaded only when a PNG is asked for

    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            zoom=zoom,
            skip_system_fonts=True,
            font_files=list(fonts),
            sans_serif_family="DejaVu Sans",
        )
    )


def _size(svg: str) -> tuple[float, float]:
    """A drawing's width and height, from the head render_svg writes first."""
    size = _SVG_SIZE.search(svg[:1000])
    assert size is not None, "render_svg writes its width and height first"
    return float(size[1]), float(size[2])


def drawn_at(pixels: Sequence[int] | None) -> str:
    """A PNG's size in pixels, as the line that names its file ends: ``, 800 x 600 px``."""
    return "" if pixels is None else f", {pixels[0]:,} x {pixels[1]:,} px"


#: Maps of more hexes than this take over a second to make or draw: a spinner says so.
SLOW_HEXES = 100_000


def working(hexes: int, as_json: bool, what: str) -> AbstractContextManager[object]:
    """A spinner on the terminal while a big map is made or drawn (none for --json)."""
    if as_json or hexes < SLOW_HEXES:
        return nullcontext()
    return console().status(f"{what} ({hexes:,} hexes)...")


# the table's map verbs not written above: load, reveal and hide
attach(map_app, "map", details=wilderness_details, where=wilderness_where)
