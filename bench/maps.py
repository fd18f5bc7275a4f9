"""Map drawing benchmark: a 1000 x 1000 hex map drawn as SVG, then with a 600-hex route as
SVG and as PNG.

    .venv/bin/python bench/maps.py

Targets: the whole referee map drawn in under 5 s, under 500 MB of peak memory, into under
30 MB of SVG; the same with a route of 600 hexes or more (its day marks and note) as SVG and
as PNG (the CLI's own writer, bounded to 8,000 px; drawn in a process of its own, whose peak
memory is the rasteriser's too). The baseline, measured in the same run, is making the same
map (``generate_map``), so the draw time also prints as a ratio of it; a 21-hex window
(``--around --radius``) is timed beside it.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from turnkeeper.cli.maps import write_picture
from turnkeeper.world.generate import generate_map
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import HexMap
from turnkeeper.world.route import Route, plan_route
from turnkeeper.world.svg import render_svg
from turnkeeper.world.travel import cost_grid

SIDE = 1000
TARGET_S, TARGET_MB, TARGET_FILE_MB = 5.0, 500.0, 30.0


def long_route(hexmap: HexMap) -> Route:
    """A route across the middle of the map, on foot: 600 hexes or more."""
    route = plan_route(
        hexmap, Hex.from_offset(150, 480), Hex.from_offset(850, 520), cost_grid(hexmap)
    )
    assert len(route.hexes) > 600, len(route.hexes)
    return route


def draw_route(hexmap: HexMap, route: Route, zoom: float | None = None) -> str:
    return render_svg(
        hexmap,
        party_at=route.hexes[0],
        route=route.hexes,
        route_note=f"{route.days} days, {route.tp} TP",
        route_marks=[(h, f"day {d}: {tp} TP") for d, (h, tp) in enumerate(route.day_ends, 1)],
        zoom=zoom,
    )


def png_child(out: str) -> None:
    """In a process of its own: the map with its route written as a PNG; prints the seconds
    the drawing took and the process's peak memory."""
    hexmap = generate_map(SIDE, SIDE, seed=1)
    route = long_route(hexmap)
    start = time.perf_counter()
    picture = write_picture(lambda zoom: draw_route(hexmap, route, zoom), Path(out))
    took = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(took, rss, *(picture.pixels or (0, 0)))


def main() -> int:
    start = time.perf_counter()
    hexmap = generate_map(SIDE, SIDE, seed=1)
    made = time.perf_counter() - start

    start = time.perf_counter()
    svg = render_svg(hexmap, party_at=Hex.from_offset(500, 500))
    drawn = time.perf_counter() - start
    tracemalloc.start()  # a second draw, traced: tracing slows it, so it is not timed
    render_svg(hexmap, party_at=Hex.from_offset(500, 500))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    peak_mb = peak / 1e6
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    file_mb = len(svg.encode()) / 1e6

    start = time.perf_counter()
    window = render_svg(hexmap, around=Hex.from_offset(500, 500), radius=10)
    windowed = time.perf_counter() - start

    route = long_route(hexmap)
    start = time.perf_counter()
    with_route = draw_route(hexmap, route)
    routed = time.perf_counter() - start
    tracemalloc.start()
    draw_route(hexmap, route)
    _, routed_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    routed_mb = len(with_route.encode()) / 1e6
    with tempfile.TemporaryDirectory() as folder:
        png = Path(folder) / "route.png"
        child = subprocess.run(
            [sys.executable, __file__, "--png", str(png)],
            capture_output=True,
            text=True,
            check=True,
        )
        png_s, png_rss, *pixels = (float(v) for v in child.stdout.split())
        png_mb = png.stat().st_size / 1e6

    checks = [
        ("draw the whole map", f"{drawn:6.2f} s", drawn < TARGET_S, f"< {TARGET_S:g} s"),
        ("  against making the map", f"{drawn / made:6.2f}x", True, "baseline"),
        ("peak memory of the draw", f"{peak_mb:6.0f} MB", peak_mb < TARGET_MB, "< 500 MB"),
        ("  the process's peak", f"{rss_mb:6.0f} MB", rss_mb < TARGET_MB, "< 500 MB"),
        ("SVG size", f"{file_mb:6.1f} MB", file_mb < TARGET_FILE_MB, "< 30 MB"),
        ("a window of radius 10", f"{windowed:6.3f} s ({len(window):,} bytes)", True, ""),
        (
            f"with a {len(route.hexes)}-hex route, SVG",
            f"{routed:6.2f} s",
            routed < TARGET_S,
            "< 5 s",
        ),
        (
            "  peak memory of the draw",
            f"{routed_peak / 1e6:6.0f} MB",
            routed_peak / 1e6 < TARGET_MB,
            "< 500 MB",
        ),
        ("  SVG size", f"{routed_mb:6.1f} MB", routed_mb < TARGET_FILE_MB, "< 30 MB"),
        (
            f"  as PNG ({pixels[0]:,.0f} x {pixels[1]:,.0f} px)",
            f"{png_s:6.2f} s",
            png_s < TARGET_S,
            "< 5 s",
        ),
        ("  the PNG process's peak", f"{png_rss:6.0f} MB", png_rss < TARGET_MB, "< 500 MB"),
        ("  PNG size", f"{png_mb:6.1f} MB", png_mb < TARGET_FILE_MB, "< 30 MB"),
    ]
    print(f"a {SIDE} x {SIDE} map ({SIDE * SIDE:,} hexes); making it took {made:.2f} s")
    for label, figure, ok, target in checks:
        verdict = "" if target in ("", "baseline") else ("PASS" if ok else "FAIL")
        print(f"  {label:<28} {figure:>24}   {target:<9} {verdict}")
    return 0 if all(ok for _, _, ok, _ in checks) else 1


if __name__ == "__main__":
    if sys.argv[1:2] == ["--png"]:
        png_child(sys.argv[2])
        sys.exit(0)
    sys.exit(main())
