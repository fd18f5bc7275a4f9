"""CLI: turnkeeper map new | check | show (exit codes, JSON, player view secrecy)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.cli.app import app
from turnkeeper.world.generate import generate_map

runner = CliRunner()


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("ext", ["toml", "json"])
def test_new_then_check(tmp_path: Path, ext: str) -> None:
    out = tmp_path / f"vale.{ext}"
    code, text = _run(
        "map", "new", "--width", "12", "--height", "9", "--seed", "3", "--out", str(out), "--json"
    )
    assert code == 0 and json.loads(text)["width"] == 12
    code, text = _run("map", "check", str(out), "--json")
    summary = json.loads(text)
    assert code == 0 and summary["ok"] and summary["height"] == 9
    assert sum(summary["terrain"].values()) == 12 * 9


def test_check_broken_file_is_one_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nwidth = 2\nheight = 1\nterrain = ["pq"]\n', encoding="utf-8")
    with pytest.raises(Exception, match=r"bad.toml: terrain\[0\]: unknown letter 'q'"):
        _run("map", "check", str(bad))


def test_show_player_view_keeps_secrets(tmp_path: Path) -> None:
    out = tmp_path / "vale.toml"
    _run("map", "new", "--width", "30", "--height", "20", "--seed", "8", "--out", str(out))
    hexmap = generate_map(30, 20, seed=8)
    hidden = next((h, f) for h, f in hexmap.all_features() if f.visibility.value != "overt")
    overt = next((h, f) for h, f in hexmap.all_features() if f.visibility.value == "overt")
    known = tmp_path / "known.json"
    known.write_text(
        json.dumps(
            {
                "party_at": overt[0].label,
                "known": [hidden[0].label, overt[0].label],
                "found_features": [overt[1].id],
            }
        ),
        encoding="utf-8",
    )
    svg_path = tmp_path / "player.svg"
    code, _ = _run(
        "map", "show", "--map", str(out), "--player", "--known", str(known), "--out", str(svg_path)
    )
    svg = svg_path.read_text(encoding="utf-8")
    assert code == 0
    assert overt[1].name in svg
    assert hidden[1].name not in svg or hidden[1].name == overt[1].name
    assert "Referee" not in svg and hidden[1].notes not in svg
    referee = tmp_path / "referee.svg"
    code, _ = _run("map", "show", "--map", str(out), "--out", str(referee), "--json")
    assert code == 0 and "Referee:" in referee.read_text(encoding="utf-8")


def test_subprocess_exit_code_two_on_a_user_mistake(tmp_path: Path) -> None:
    import subprocess
    import sys

    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "from turnkeeper.cli import main; main()",
            "map",
            "check",
            str(tmp_path / "nope.toml"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert "no such map file" in result.stderr and "Traceback" not in result.stderr


def test_map_show_around_a_hex_draws_only_its_window(tmp_path: Path) -> None:
    made = tmp_path / "wild.toml"
    assert runner.invoke(app, ["map", "new", "--width", "20", "--height", "15", "--seed", "4",
                               "--out", str(made)]).exit_code == 0  # fmt: skip
    out = tmp_path / "window.svg"
    done = runner.invoke(
        app,
        ["map", "show", "--map", str(made), "--out", str(out), "--around", "0505", "--radius", "1"],
    )
    assert done.exit_code == 0, done.output
    drawn = set(re.findall(r">(\d{4})</text>", out.read_text(encoding="utf-8")))
    assert drawn == {"0505", "0405", "0406", "0504", "0506", "0605", "0606"}


def test_a_csv_grid_made_elsewhere_loads_and_a_bad_cell_names_its_row_and_column(
    tmp_path: Path,
) -> None:
    grid = tmp_path / "vale.csv"
    grid.write_text("plains,hills,forest\nwater,Deep Forest,M\n", encoding="utf-8")
    done = runner.invoke(app, ["map", "check", str(grid), "--json"])
    assert done.exit_code == 0, done.output
    summary = json.loads(done.stdout)
    assert (summary["width"], summary["height"]) == (3, 2)
    grid.write_text("p,h\np,lava\n", encoding="utf-8")
    bad = runner.invoke(app, ["map", "check", str(grid)])
    assert bad.exit_code != 0
    assert "row 2, column 2: unknown terrain 'lava'" in str(bad.exception)


def test_map_show_writes_a_png_for_printing(tmp_path: Path) -> None:
    made = tmp_path / "wild.toml"
    assert runner.invoke(app, ["map", "new", "--width", "8", "--height", "6", "--seed", "4",
                               "--out", str(made)]).exit_code == 0  # fmt: skip
    out = tmp_path / "wild.png"
    done = runner.invoke(app, ["map", "show", "--map", str(made), "--out", str(out)])
    assert done.exit_code == 0, done.output
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n") and out.stat().st_size > 10_000


def _png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its header chunk."""
    head = path.read_bytes()[16:24]
    return int.from_bytes(head[:4], "big"), int.from_bytes(head[4:], "big")


def test_a_png_is_drawn_within_its_bound(tmp_path: Path) -> None:
    """Issue 27: a PNG is twice the drawing's size where that fits, or the longest side asked
    for; beyond 8,000 px it is one refusal before any drawing, never a renderer's abort."""
    made = tmp_path / "wild.toml"
    assert runner.invoke(app, ["map", "new", "--width", "8", "--height", "6", "--seed", "4",
                               "--out", str(made)]).exit_code == 0  # fmt: skip
    twice, small = tmp_path / "twice.png", tmp_path / "small.png"
    code, text = _run("map", "show", "--map", str(made), "--out", str(twice), "--json")
    width, height = json.loads(text)["pixels"]
    assert code == 0 and _png_size(twice) == (width, height)
    code, text = _run(
        "map", "show", "--map", str(made), "--out", str(small), "--png-size", "200", "--json"
    )
    assert code == 0 and max(_png_size(small)) == 200 and max(width, height) > 400
    # the route's picture takes the same bound
    route = tmp_path / "route.png"
    code, text = _run("route", "0101", "0405", "--map", str(made), "--out", str(route),
                      "--png-size", "150")  # fmt: skip
    pixels = "{} x {} px".format(*_png_size(route))
    assert code == 0 and max(_png_size(route)) == 150 and f"(referee view, {pixels})" in text
    for args, says in [
        (("--out", str(tmp_path / "huge.png"), "--png-size", "9000"), "at most 8,000 px"),
        (("--out", str(tmp_path / "map.svg"), "--png-size", "300"), "goes with an --out file"),
    ]:
        refused = runner.invoke(app, ["map", "show", "--map", str(made), *args])
        assert refused.exit_code != 0 and says in str(refused.exception)
    assert not (tmp_path / "huge.png").exists() and not (tmp_path / "map.svg").exists()


def test_a_drawing_larger_than_the_bound_is_scaled_down_to_it() -> None:
    from turnkeeper.cli.maps import PNG_MOST, PNG_PIXELS, png_zoom

    # the 1000x1000 map's drawing: 30,122 x 34,658 at zoom 2 asked the renderer for 16.7 GB
    zoom = png_zoom(30_122, 34_658)
    assert 30_122 * zoom * 34_658 * zoom <= PNG_PIXELS and 34_658 * zoom < PNG_MOST
    assert png_zoom(30_122, 34_658, longest=PNG_MOST) * 34_658 == PNG_MOST


def test_a_picture_of_small_hexes_tiles_its_terrain_in_runs(tmp_path: Path) -> None:
    """Issue 27: hexes drawn a few pixels wide show no outline: the terrain is drawn as runs
    of one terrain down each column (some thousands of rectangles), not a marker per hex,
    so a million-hex map rasterises in seconds. Where hexes are large, they keep outlines."""
    from turnkeeper.world.svg import render_svg

    hexmap = generate_map(60, 40, seed=3)
    tiled, outlined = render_svg(hexmap, zoom=0.3), render_svg(hexmap, zoom=1.0)
    assert 'shape-rendering="crispEdges"' in tiled and "marker-mid" not in tiled
    assert "marker-mid" in outlined and "crispEdges" not in outlined
    heights = [float(v) for v in re.findall(r"v([\d.]+)h-", tiled)]
    assert 60 <= len(heights) < 60 * 40 / 2  # a run a column at least, far fewer than hexes
    # every hex is inside exactly one run: the runs' heights add up to the columns' heights
    assert abs(sum(heights) - 60 * 40 * 20 * 3**0.5) < 0.05 * len(heights)


def test_a_png_draws_its_words(tmp_path: Path) -> None:
    """The rasteriser knows no platform default font: a PNG once came out with every hex
    number, name and legend line missing. The same drawing without its text must differ."""
    from PIL import Image, ImageChops

    from turnkeeper.cli.maps import rasterise

    made = tmp_path / "wild.toml"
    assert runner.invoke(app, ["map", "new", "--width", "8", "--height", "6", "--seed", "4",
                               "--out", str(made)]).exit_code == 0  # fmt: skip
    png, svg = tmp_path / "wild.png", tmp_path / "wild.svg"
    for out in (png, svg):
        assert (
            runner.invoke(app, ["map", "show", "--map", str(made), "--out", str(out)]).exit_code
            == 0
        )
    wordless = re.sub(r"<text[^>]*>[^<]*</text>", "", svg.read_text(encoding="utf-8"))
    blank = tmp_path / "blank.png"
    blank.write_bytes(rasterise(wordless, 2.0))
    with Image.open(png) as drawn, Image.open(blank) as bare:
        changed = ImageChops.difference(drawn.convert("L"), bare.convert("L")).point(
            lambda v: 255 if v > 64 else 0
        )
        assert sum(changed.histogram()[255:]) > 5_000  # the words' pixels


def test_a_png_draws_its_words_with_no_font_of_the_machines() -> None:
    """Issue 42: with no system fonts, a PNG map said it was written and drew no word. The
    rasteriser never reads the machine's fonts, only those turnkeeper's dependencies ship:
    a word drawn with them has ink, and the same word with no font at all (what a machine
    without fonts gave) has none, which shows the check can fail."""
    from io import BytesIO

    from PIL import Image

    from turnkeeper.cli.maps import SHIPPED_FONTS, rasterise

    word = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="20" '
        'font-family="DejaVu Sans, sans-serif"><rect width="80" height="20" fill="#fff"/>'
        '<text x="4" y="15" font-size="14">0101</text></svg>'
    )

    def inked(fonts: Sequence[str]) -> int:
        with Image.open(BytesIO(rasterise(word, 2.0, fonts))) as picture:
            return sum(
                picture.convert("L").point(lambda v: 255 if v < 128 else 0).histogram()[255:]
            )

    assert [Path(font).name for font in SHIPPED_FONTS] == ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf"]
    assert all(Path(font).is_file() for font in SHIPPED_FONTS)
    assert inked(SHIPPED_FONTS) > 100
    assert inked(()) == 0


@pytest.mark.slow
def test_a_maps_png_numbers_every_hex_where_it_reads(tmp_path: Path) -> None:
    """Issue 27: a PNG numbers its hexes wherever the numbers read at its zoom, whatever the
    map's size; at 800 px an 80 x 60 map's numbers would be specks, and its hexes are tiled."""
    made = tmp_path / "wide.json"
    assert runner.invoke(app, ["map", "new", "--width", "80", "--height", "60", "--seed", "4",
                               "--out", str(made)]).exit_code == 0  # fmt: skip
    svg, png = tmp_path / "wide.svg", tmp_path / "wide.png"
    code, text = _run("map", "show", "--map", str(made), "--out", str(svg), "--json")
    assert code == 0 and ">0000<" in svg.read_text(encoding="utf-8")
    labelled = json.loads(text)["bytes"]
    code, text = _run("map", "show", "--map", str(made), "--out", str(png), "--json")
    assert code == 0 and json.loads(text)["bytes"] >= labelled  # its words, at 2 px a unit
    code, text = _run("map", "show", "--map", str(made), "--out", str(tmp_path / "small.png"),
                      "--png-size", "800", "--json")  # fmt: skip
    # 0.3 px a unit: numbers unreadable, hexes too small for outlines (tiled, fewer bytes)
    assert code == 0 and json.loads(text)["bytes"] < labelled - 4_800 * len("<text></text>")
