"""Map drawing benchmark: a 1000 x 1000 hex map drawn as SVG.

    .venv/bin/python bench/maps.py

Targets: the whole referee map drawn in under 5 s, under 500 MB of peak memory, into under
30 MB of SVG. The baseline, measured in the same run, is making the same map
(``generate_map``), so the draw time also prints as a ratio of it; a 21-hex window
(``--around --radius``) is timed beside it.
"""

from __future__ import annotations

import resource
import sys
import time
import tracemalloc

from turnkeeper.world.generate import generate_map
from turnkeeper.world.hexes import Hex
from turnkeeper.world.svg import render_svg

SIDE = 1000
TARGET_S, TARGET_MB, TARGET_FILE_MB = 5.0, 500.0, 30.0


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

    checks = [
        ("draw the whole map", f"{drawn:6.2f} s", drawn < TARGET_S, f"< {TARGET_S:g} s"),
        ("  against making the map", f"{drawn / made:6.2f}x", True, "baseline"),
        ("peak memory of the draw", f"{peak_mb:6.0f} MB", peak_mb < TARGET_MB, "< 500 MB"),
        ("  the process's peak", f"{rss_mb:6.0f} MB", rss_mb < TARGET_MB, "< 500 MB"),
        ("SVG size", f"{file_mb:6.1f} MB", file_mb < TARGET_FILE_MB, "< 30 MB"),
        ("a window of radius 10", f"{windowed:6.3f} s ({len(window):,} bytes)", True, ""),
    ]
    print(f"a {SIDE} x {SIDE} map ({SIDE * SIDE:,} hexes); making it took {made:.2f} s")
    for label, figure, ok, target in checks:
        verdict = "" if target in ("", "baseline") else ("PASS" if ok else "FAIL")
        print(f"  {label:<28} {figure:>24}   {target:<9} {verdict}")
    return 0 if all(ok for _, _, ok, _ in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
