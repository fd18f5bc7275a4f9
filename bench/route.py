"""Benchmark: single-source route planning on a generated 1000 x 1000 hex map (a million hexes).

Compares, on the same graph and the same entry costs (TP-WIL-7 floor and TP-WIL-8 applied):
  ours     turnkeeper.world.route.route_costs (vectorised CSR build + scipy dijkstra)
  scipy    scipy.sparse.csgraph.dijkstra on a graph built the straightforward way
           (edge lists per direction -> COO -> CSR)
  networkx nx.single_source_dijkstra_path_length on the same graph as an nx.DiGraph
All three must agree on every cost. Targets: ours < 0.5 s including the graph build,
>= 40x faster than networkx, no slower than 1.5x scipy, peak memory < 1 GB.

Run: .venv/bin/python bench/route.py [--size 1000] [--small 250] [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import networkx as nx
import numpy as np
from scipy.sparse import coo_matrix
from scipy.sparse.csgraph import dijkstra

from turnkeeper.world.generate import generate_map
from turnkeeper.world.hexes import Direction, Hex
from turnkeeper.world.route import effective_grid, route_costs, travel_graph
from turnkeeper.world.travel import cost_grid


def best_of(repeat: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def scipy_straightforward(tp: np.ndarray, start: Hex) -> np.ndarray:
    """The obvious way: one edge list per direction, concatenated, COO -> CSR, dijkstra."""
    entry = effective_grid(tp)
    height, width = entry.shape
    rows, cols = np.indices((height, width))
    src, dst = [], []
    for direction in Direction:
        even = Hex.from_offset(0, 5).neighbour(direction)
        odd = Hex.from_offset(1, 5).neighbour(direction)
        nr = rows + np.where(cols % 2 == 1, odd.row - 5, even.row - 5)
        nc = cols + even.col
        ok = (nr >= 0) & (nr < height) & (nc >= 0) & (nc < width)
        ok[ok] &= np.isfinite(entry[nr[ok], nc[ok]])
        src.append((rows * width + cols)[ok])
        dst.append((nr * width + nc)[ok])
    s, d = np.concatenate(src), np.concatenate(dst)
    n = height * width
    graph = coo_matrix((entry.reshape(-1)[d], (s, d)), shape=(n, n)).tocsr()
    return dijkstra(graph, directed=True, indices=start.row * width + start.col).reshape(
        height, width
    )


def networkx_costs(tp: np.ndarray, start: Hex) -> tuple[float, float, np.ndarray]:
    """Build the same graph as an nx.DiGraph, then time only the search."""
    graph_csr = travel_graph(effective_grid(tp)).tocoo()
    t = time.perf_counter()
    g = nx.DiGraph()
    g.add_nodes_from(range(tp.size))
    g.add_weighted_edges_from(
        zip(graph_csr.row.tolist(), graph_csr.col.tolist(), graph_csr.data.tolist(), strict=True)
    )
    build = time.perf_counter() - t
    t = time.perf_counter()
    lengths = nx.single_source_dijkstra_path_length(g, start.row * tp.shape[1] + start.col)
    search = time.perf_counter() - t
    out = np.full(tp.size, np.inf)
    out[np.fromiter(lengths.keys(), dtype=np.int64)] = np.fromiter(
        lengths.values(), dtype=np.float64
    )
    return build, search, out.reshape(tp.shape)


def check(flag: bool) -> str:
    return "PASS" if flag else "FAIL"


def run(size: int, repeat: int, with_nx: bool) -> dict[str, float]:
    t = time.perf_counter()
    hexmap = generate_map(size, size, seed=2024)
    gen = time.perf_counter() - t
    tp = cost_grid(hexmap).tp
    # Start in the village nearest the centre, so the search reaches most of the map.
    centre = Hex.from_offset(size // 2, size // 2)
    start = min(
        (h for h, f in hexmap.all_features() if f.id.startswith("village")), key=centre.distance
    )
    print(f"\n== {size} x {size} map ({size * size:,} hexes), generated in {gen:.2f} s ==")

    tracemalloc.start()
    route_costs(tp, start)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    ours_t, ours = best_of(repeat, lambda: route_costs(tp, start))
    graph = travel_graph(effective_grid(tp))
    node = start.row * size + start.col
    search_t, _ = best_of(
        repeat, lambda: dijkstra(graph, directed=True, indices=node, min_only=True)
    )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sp_t, sp = best_of(repeat, lambda: scipy_straightforward(tp, start))
    reachable = np.isfinite(ours)
    assert reachable.mean() > 0.5, "the start should reach most of the map"
    assert np.array_equal(reachable, np.isfinite(sp))
    assert np.allclose(ours[reachable], sp[reachable], rtol=0, atol=1e-9)
    print(f"ours  route_costs (build + search)     {ours_t:8.3f} s   reachable {reachable.sum():,}")
    print(f"ours  search only (graph prebuilt)     {search_t:8.3f} s")
    print(f"scipy straightforward (build + search) {sp_t:8.3f} s")
    print(f"ours peak traced memory {peak / 2**20:7.1f} MiB; process max RSS so far {rss:7.1f} MiB")
    result = {
        "ours": ours_t,
        "search": search_t,
        "scipy": sp_t,
        "peak_mib": peak / 2**20,
        "rss_mib": rss,
    }
    if with_nx:
        nx_build, nx_t, nxc = networkx_costs(tp, start)
        assert np.array_equal(reachable, np.isfinite(nxc))
        assert np.allclose(ours[reachable], nxc[reachable], rtol=0, atol=1e-9)
        print(f"networkx DiGraph build {nx_build:.2f} s (not counted); search {nx_t:8.3f} s")
        result["nx"] = nx_t
        result["nx_total"] = nx_build + nx_t
    print("all engines agree on every hex's cost: PASS")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1000)
    parser.add_argument("--small", type=int, default=250, help="a smaller map, also timed")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-big-nx", action="store_true", help="skip networkx on the big map")
    args = parser.parse_args()

    small = run(args.small, args.repeat, with_nx=True) if args.small else None
    big = run(args.size, args.repeat, with_nx=not args.no_big_nx)

    print("\n== verdict (headline: the big map) ==")
    print(
        f"ours < 0.5 s including the graph build: {big['ours']:.3f} s  {check(big['ours'] < 0.5)}"
    )
    print(
        f"ours vs scipy straightforward: {big['ours'] / big['scipy']:.2f}x its time "
        "(target <= 1.5x)  "
        f"{check(big['ours'] <= 1.5 * big['scipy'])}"
    )
    for label, res in (("big", big), ("small", small)):
        if res and "nx" in res:
            for what, ratio in (
                ("search only vs search only", res["nx"] / res["search"]),
                ("nx search vs ours build + search", res["nx"] / res["ours"]),
                ("build + search vs build + search", res["nx_total"] / res["ours"]),
            ):
                print(
                    f"networkx / ours ({label} map, {what}): {ratio:.1f}x (target >= 40x)  "
                    f"{check(ratio >= 40)}"
                )
    print(
        f"peak memory of ours < 1 GB: traced {big['peak_mib']:.0f} MiB  "
        f"{check(big['peak_mib'] < 1024)}"
        f"  (process max RSS {big['rss_mib']:.0f} MiB before scipy/networkx ran)"
    )


if __name__ == "__main__":
    main()
