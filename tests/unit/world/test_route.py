"""Route planning: fewest days then fewest TP, checked against a plain reference Dijkstra."""

from __future__ import annotations

import heapq
import importlib.util
import subprocess
import sys
import threading
from collections.abc import Callable
from fractions import Fraction as F
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.world import _dijkstra
from turnkeeper.world._dijkstra import shortest_paths
from turnkeeper.world.generate import generate_map
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import HexMap, Road, Terrain
from turnkeeper.world.route import (
    _COL_STEPS,
    _ROW_STEPS,
    Route,
    effective_grid,
    offset_labels,
    plan_route,
    route_costs,
)
from turnkeeper.world.travel import cost_grid, plan_days

COSTS = [0.25, 0.5, 2 / 3, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, np.inf]


def reference(tp: np.ndarray, start: Hex) -> dict[Hex, float]:
    """Textbook Dijkstra over Hex objects, with the TP-WIL-7 floor and TP-WIL-8 rule."""
    height, width = tp.shape
    best = {start: 0.0}
    queue = [(0.0, start)]
    while queue:
        d, here = heapq.heappop(queue)
        if d > best[here]:
            continue
        for nxt in here.neighbours():
            if not (0 <= nxt.col < width and 0 <= nxt.row < height):
                continue
            cost = float(tp[nxt.row, nxt.col])
            if cost >= 8:
                continue
            nd = d + max(cost, 0.5)
            if nd < best.get(nxt, np.inf):
                best[nxt] = nd
                heapq.heappush(queue, (nd, nxt))
    return best


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_route_costs_equal_reference_dijkstra(data: st.DataObject) -> None:
    height = data.draw(st.integers(1, 7))
    width = data.draw(st.integers(1, 7))
    cells = data.draw(
        st.lists(st.sampled_from(COSTS), min_size=height * width, max_size=height * width)
    )
    tp = np.array(cells, dtype=np.float64).reshape(height, width)
    start = Hex.from_offset(
        data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1))
    )
    ours = route_costs(tp, start)
    ref = reference(tp, start)
    for row in range(height):
        for col in range(width):
            want = ref.get(Hex.from_offset(col, row), np.inf)
            assert ours[row, col] == pytest.approx(want)


def _random_grid(data: st.DataObject) -> tuple[np.ndarray, Hex]:
    height = data.draw(st.integers(1, 9))
    width = data.draw(st.integers(1, 9))
    cells = data.draw(
        st.lists(st.sampled_from(COSTS), min_size=height * width, max_size=height * width)
    )
    tp = np.array(cells, dtype=np.float64).reshape(height, width)
    start = Hex.from_offset(
        data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1))
    )
    return tp, start


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(["buckets", "heap"]))
def test_both_queues_equal_reference_and_predecessors_add_up(
    data: st.DataObject, queue: str
) -> None:
    """Each kernel's costs match the textbook Dijkstra, and walking a hex's predecessors
    back to the start gives a path of neighbouring hexes whose entry costs (TP-WIL-7 floor
    applied, TP-WIL-8 hexes never entered) sum to the hex's cost."""
    tp, start = _random_grid(data)
    entry = effective_grid(tp)
    height, width = tp.shape
    dist, pred = shortest_paths(
        entry, (start.row, start.col), _COL_STEPS, _ROW_STEPS, predecessors=True, queue=queue
    )
    assert pred is not None
    ref = reference(tp, start)
    for row in range(height):
        for col in range(width):
            here = Hex.from_offset(col, row)
            assert dist[row, col] == pytest.approx(ref.get(here, np.inf))
            if here == start or not np.isfinite(dist[row, col]):
                assert pred[row, col] == -1
                continue
            total, steps = 0.0, 0
            while here != start:
                node = int(pred[here.row, here.col])
                back = Hex.from_offset(node % width, node // width)
                assert back in here.neighbours() and np.isfinite(entry[here.row, here.col])
                total += entry[here.row, here.col]
                here, steps = back, steps + 1
                assert steps <= height * width
            assert total == pytest.approx(dist[row, col])


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_route_exists_where_the_search_reaches_and_costs_its_hexes_exactly(
    data: st.DataObject,
) -> None:
    # rule: TP-WIL-6 (a route's TP is the sum of its hexes' exact costs)
    tp, start = _random_grid(data)
    height, width = tp.shape
    goal = Hex.from_offset(
        data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1))
    )
    hexmap = HexMap.build("r", np.zeros(tp.shape, np.uint8))
    best = route_costs(tp, start)[goal.row, goal.col]
    if not np.isfinite(best):
        with pytest.raises(IllegalCommandError):
            plan_route(hexmap, start, goal, tp)
        return
    route = plan_route(hexmap, start, goal, tp)
    assert route.hexes[0] == start and route.hexes[-1] == goal
    assert all(b in a.neighbours() for a, b in zip(route.hexes, route.hexes[1:], strict=False))
    assert float(route.tp) == pytest.approx(sum(float(tp[h.row, h.col]) for h in route.hexes[1:]))


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from([[], [F(2)], [F(1, 2)]]))
def test_a_routes_days_split_as_plan_days_splits_its_exact_costs(
    data: st.DataObject, party: list[F]
) -> None:
    # rule: TP-WIL-6 (a move may carry into tomorrow), TP-WIL-7 (at most 8 hexes a day): the
    # route splits its days in whole units of a TP; they are the days plan_days makes of the
    # same hexes' exact Fractions, day for day, camp for camp.
    height, width = data.draw(st.integers(1, 8)), data.draw(st.integers(2, 8))
    terrain = np.array(
        data.draw(
            st.lists(
                st.sampled_from(list(Terrain)), min_size=height * width, max_size=height * width
            )
        ),
        np.uint8,
    ).reshape(height, width)
    road = np.array(
        data.draw(
            st.lists(st.sampled_from(list(Road)), min_size=height * width, max_size=height * width)
        ),
        np.uint8,
    ).reshape(height, width)
    hexmap = HexMap.build("r", terrain, road)
    grid = cost_grid(hexmap, party=party)
    start, goal = Hex.from_offset(0, 0), Hex.from_offset(width - 1, height - 1)
    try:
        route = plan_route(hexmap, start, goal, grid)
    except IllegalCommandError:
        return
    costs = [grid.exact_at(h) for h in route.hexes[1:]]
    plans = plan_days(costs)
    assert route.tp == sum(c for c in costs if c is not None) and route.days == len(plans)
    where, ends = start, []
    for plan in plans:
        where = route.hexes[plan.completed[-1] + 1] if plan.completed else where
        ends.append((where, plan.spent + plan.carried_out))
    assert list(route.day_ends) == ends


@given(st.lists(st.tuples(st.integers(0, 12_000), st.integers(0, 12_000)), max_size=40))
def test_a_routes_labels_are_its_hexes_labels(places: list[tuple[int, int]]) -> None:
    hexes = tuple(Hex.from_offset(col, row) for col, row in places)
    assert Route(hexes, F(0), 0).labels() == [h.label for h in hexes]


def test_a_label_off_the_printed_map_is_refused_as_hex_label_refuses_it() -> None:
    with pytest.raises(TurnkeeperError, match="off the printed map"):
        offset_labels(np.array([0, 3]), np.array([1, -1]))


def test_bucket_queue_refuses_free_hexes_and_auto_falls_back_to_the_heap() -> None:
    free = np.array([[0.0, 0.0, 1.0]])
    with pytest.raises(ValueError, match="positive"):
        shortest_paths(free, (0, 0), _COL_STEPS, _ROW_STEPS, queue="buckets")
    dist, _ = shortest_paths(free, (0, 0), _COL_STEPS, _ROW_STEPS)
    assert dist.tolist() == [[0.0, 0.0, 1.0]]


def _map(rows: list[str]) -> HexMap:
    letters = {
        "p": Terrain.PLAINS,
        "h": Terrain.HILLS,
        "H": Terrain.HIGH_MOUNTAINS,
        "f": Terrain.FOREST,
    }
    return HexMap.build("t", np.array([[letters[c] for c in r] for r in rows], np.uint8))


def test_route_goes_round_what_costs_more_and_is_exact() -> None:
    # rule: TP-WIL-6 (exact cost per hex), TP-WIL-8 (high mountains impassable)
    m = _map(["pHpp", "pHpp", "pppp"])
    route = plan_route(m, Hex.from_offset(0, 0), Hex.from_offset(2, 0), cost_grid(m))
    assert Terrain.HIGH_MOUNTAINS not in {m.terrain_at(h) for h in route.hexes}
    assert route.tp == len(route.hexes) - 1
    assert route.days == 2  # 5 plains hexes at 1 TP: 4 on day 1, 1 on day 2


def test_route_tp_is_exact_fraction_from_the_cost_grid() -> None:
    m = _map(["phhp"])
    road = np.array([[Road.NONE, Road.TRAIL, Road.TRAIL, Road.NONE]], np.uint8)
    m = HexMap.build("t", m.terrain, road)
    route = plan_route(m, Hex.from_offset(0, 0), Hex.from_offset(3, 0), cost_grid(m))
    # hills on a trail: 1 / (2/3 * 3/2) = 1 TP each, plains 1 TP
    assert route.tp == F(3) and isinstance(route.tp, F)
    slow = plan_route(
        m, Hex.from_offset(0, 0), Hex.from_offset(3, 0), cost_grid(m, weather=[F(1, 2)])
    )
    assert slow.tp == F(6) and slow.days == 2


def test_tp_wil_7_caps_a_routes_day_at_eight_hexes() -> None:
    m = _map(["p" * 10])
    mounted_road = cost_grid(
        HexMap.build("t", m.terrain, np.full((1, 10), Road.ROAD, np.uint8)), party=[2]
    )
    route = plan_route(m, Hex.from_offset(0, 0), Hex.from_offset(9, 0), mounted_road)
    assert route.tp == F(9, 4) and route.days == 2  # 9 hexes at 1/4 TP: 8 on day 1 at most


def test_unreachable_goal_is_an_illegal_command() -> None:
    m = _map(["pHp"])
    with pytest.raises(IllegalCommandError, match="no passable route"):
        plan_route(m, Hex.from_offset(0, 0), Hex.from_offset(2, 0), cost_grid(m))


# Exact TP values a hex can cost (TP-WIL-3/4/5): 1 / products of the seed's multipliers.
EXACT_COSTS = [F(1, 4), F(1, 3), F(3, 8), F(1, 2), F(2, 3), F(3, 4), F(1), F(3, 2), F(2)]
EXACT_COSTS += [F(3), F(4), F(9, 2), F(6), F(8)]


def _every_way(tp: list[list[F]], start: Hex, goal: Hex) -> tuple[int, F, int] | None:
    """The least (days, TP, hexes) over every simple path, each split by plan_days."""
    height, width = len(tp), len(tp[0])
    best: tuple[int, F, int] | None = None
    # the hexes a step may enter from each hex (on the map, dearer than 8 TP left out), and
    # what entering each costs, found once: the walk goes through them thousands of times
    onto = {
        here: [
            (nxt, tp[nxt.row][nxt.col])
            for nxt in here.neighbours()
            if 0 <= nxt.col < width and 0 <= nxt.row < height and tp[nxt.row][nxt.col] < 8
        ]
        for here in (Hex.from_offset(col, row) for row in range(height) for col in range(width))
    }

    def walk(here: Hex, costs: list[F], seen: set[Hex]) -> None:
        nonlocal best
        if here == goal:
            key = (len(plan_days(costs)), sum(costs, F(0)), len(costs))
            best = key if best is None or key < best else best
            return
        for nxt, cost in onto[here]:
            if nxt not in seen:
                walk(nxt, [*costs, cost], seen | {nxt})

    walk(start, [], {start})
    return best


@pytest.mark.parametrize("kernels", ["installed", "compiled now"])
@settings(max_examples=150, deadline=None)
@given(st.data())
def test_route_takes_fewest_days_then_fewest_tp_of_every_way(
    kernels: str, data: st.DataObject
) -> None:
    # rule: TP-WIL-6 (a move may finish with tomorrow's points), TP-WIL-7 (at most 8 hexes a
    # day), TP-WIL-8 (8 TP or more is impassable): every simple path on a small map, split
    # into days by plan_days, against the route found
    height, width = data.draw(st.integers(1, 3)), data.draw(st.integers(2, 4))
    pool = data.draw(st.lists(st.sampled_from(EXACT_COSTS), min_size=1, max_size=4))
    tp = [[data.draw(st.sampled_from(pool)) for _ in range(width)] for _ in range(height)]
    start, goal = (
        Hex.from_offset(data.draw(st.integers(0, width - 1)), data.draw(st.integers(0, height - 1)))
        for _ in range(2)
    )
    if start == goal:
        return
    with pytest.MonkeyPatch.context() as patch:
        if kernels == "compiled now":  # numba's JIT, as where the install compiled none
            patch.setattr(_dijkstra, "_kernels", _dijkstra._compiled_now)
        _plans_the_best_way(tp, start, goal, height, width)


def _plans_the_best_way(tp: list[list[F]], start: Hex, goal: Hex, height: int, width: int) -> None:
    best = _every_way(tp, start, goal)
    hexmap = HexMap.build("x", np.zeros((height, width), np.uint8))
    grid = np.array([[float(c) for c in row] for row in tp])
    if best is None:
        with pytest.raises(IllegalCommandError):
            plan_route(hexmap, start, goal, grid)
        return
    route = plan_route(hexmap, start, goal, grid)
    assert (route.days, route.tp, len(route.hexes) - 1) == best


def plan_route_by_weight(hexmap: HexMap, start: Hex, goal: Hex, tp: np.ndarray) -> list[Hex]:
    """The route the search took before it knew days: least weight, each hex at least 1/2 TP."""
    where = (start.row, start.col)
    _, pred = shortest_paths(effective_grid(tp), where, _COL_STEPS, _ROW_STEPS, predecessors=True)
    assert pred is not None
    way = [goal]
    while way[-1] != start:
        node = int(pred[way[-1].row, way[-1].col])
        way.append(Hex.from_offset(node % hexmap.width, node // hexmap.width))
    return way[::-1]


@pytest.mark.parametrize(
    ("seed", "start", "goal", "days"), [(102, "5518", "4177", 9), (103, "1066", "0725", 6)]
)
def test_a_mounted_route_takes_the_fewest_days(seed: int, start: str, goal: str, days: int) -> None:
    # rule: TP-WIL-7 (a day enters at most 8 hexes, whatever they cost)
    # Mounted, a road hex costs 1/4 TP: a day may mix 4 road hexes with dear ones. Weighing
    # every hex at least 1/2 TP took 10 and 7 days on these generated maps (`map new --width
    # 80 --height 80 --seed N`), where 9 and 6 suffice.
    hexmap = generate_map(80, 80, seed=seed)
    tp = cost_grid(hexmap, party=[2])
    route = plan_route(hexmap, Hex.parse(start), Hex.parse(goal), tp)
    assert route.days == days
    weighed = plan_route_by_weight(hexmap, Hex.parse(start), Hex.parse(goal), tp.tp)
    assert len(plan_days([tp.exact_at(h) for h in weighed[1:]])) == days + 1


def test_the_first_route_of_a_process_loads_no_compiler() -> None:
    """Issue 27: the install compiles the route kernels ahead of time, so a fresh process
    plans its first route without importing numba (which alone costs about 0.3 s of CPU, and
    its first kernel as much again; bench/route.py times it)."""
    if importlib.util.find_spec(_dijkstra.AHEAD_OF_TIME) is None:
        pytest.skip("the install compiled no route kernels (no C compiler): they compile on use")
    script = (
        "import sys; from turnkeeper.world.generate import generate_map; "
        "from turnkeeper.world.hexes import Hex; from turnkeeper.world.route import plan_route; "
        "from turnkeeper.world.travel import cost_grid; m = generate_map(30, 30, seed=5); "
        "r = plan_route(m, Hex.from_offset(1, 1), Hex.from_offset(25, 27), cost_grid(m)); "
        "print(r.days, 'numba' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    days, numba_loaded = done.stdout.split()
    assert int(days) > 0 and numba_loaded == "False"


def test_costs_too_fine_to_count_together_are_one_clear_refusal() -> None:
    # two costs whose denominators are large primes: no common unit under 1/10^9 TP
    hexmap = HexMap.build("x", np.zeros((1, 3), np.uint8))
    tp = np.array([[1.0, 1 / 999_983 * 7, 1 / 999_979 * 11]])
    with pytest.raises(IllegalCommandError, match="too fine to count exactly together"):
        plan_route(hexmap, Hex.from_offset(0, 0), Hex.from_offset(2, 0), tp)


def test_a_routes_units_past_64_bits_are_one_clear_refusal() -> None:
    """At a ruleset's bounds (1000 TP a day, impassable at 100 x), a 2000 x 2000 map whose
    costs share parts of a billionth of a TP could count past 2^63 along a route: refused
    before the search, where the kernel's counts would wrap round unseen (issue 38)."""
    side = 2000
    hexmap = HexMap.build("x", np.zeros((side, side), np.uint8))
    tp = np.full((side, side), 99_000.0)
    tp[0, 0], tp[0, 1], tp[0, 2] = 1 / 997, 1 / 991, 1 / 983  # parts of 1/971,230,141 TP
    with pytest.raises(IllegalCommandError, match="too many units to count over this map"):
        plan_route(hexmap, Hex.from_offset(0, 0), Hex.from_offset(2, 0), tp, 1000, 100_000, 100)


def _kernels_of(kind: str) -> _dijkstra._Kernels:
    if kind == "compiled now":  # numba's JIT, as where the install compiled none
        return _dijkstra._compiled_now()
    if importlib.util.find_spec(_dijkstra.AHEAD_OF_TIME) is None:
        pytest.skip("the install compiled no route kernels (no C compiler): they compile on use")
    return _dijkstra._kernels()


def _search_with(kernel: str) -> None:
    """A search on a 400 x 400 map that runs ``kernel`` for a good part of a second."""
    if kernel == "days":
        units = np.full((400, 400), 3, np.int64)
        _dijkstra.fewest_days_path(units, (0, 0), (399, 399), _COL_STEPS, _ROW_STEPS, 8, 8)
    else:
        shortest_paths(np.ones((400, 400)), (0, 0), _COL_STEPS, _ROW_STEPS, queue=kernel)  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["ahead of time", "compiled now"])
@pytest.mark.parametrize("kernel", ["buckets", "heap", "days"])
def test_a_route_kernel_lets_the_other_threads_run_while_it_searches(
    kind: str, kernel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 38: a route across a 2000 x 2000 map held the interpreter's lock for its whole
    search (the kernels compiled ahead of time held it), so a server's other campaigns
    waited a second for their commands. Threads here change hands only where one lets go of
    the lock (a switch interval of an hour), so this thread reads the search unfinished only
    if the kernel let go of it while it ran; a kernel that holds it is never seen unfinished.
    Three tries: a kernel that lets go fails a try only if this thread was not given the CPU
    at all while the kernel ran."""
    real = _kernels_of(kind)
    started, finished = threading.Event(), threading.Event()

    def watched(fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            started.set()
            try:
                return fn(*args)
            finally:
                finished.set()  # before the search's own numpy work, which may let go too

        return call

    kernels = {name: getattr(real, name) for name in ("heap", "buckets", "days")}
    kernels[kernel] = watched(kernels[kernel])
    monkeypatch.setattr(_dijkstra, "_kernels", lambda: _dijkstra._Kernels(**kernels))
    seen_running = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(3600)
    try:
        for _ in range(3):
            started.clear()
            finished.clear()
            search = threading.Thread(target=_search_with, args=(kernel,))
            search.start()
            started.wait()
            seen_running.append(not finished.is_set())
            search.join()
            if seen_running[-1]:
                break
    finally:
        sys.setswitchinterval(interval)
    assert seen_running[-1], "the kernel held the interpreter's lock while it searched"
