"""The route search's inner loop: Dijkstra over the implicit hex grid, compiled with numba.

No graph is built. The entry-cost grid is padded with a border of impassable (``inf``)
hexes, so every hex of the real map has six neighbours at fixed flat offsets (one set for
even columns, one for odd: the "odd-q" layout) and the loop needs no bounds checks.

The queue is a bucket queue whose buckets are as wide as the cheapest hex (Dinitz's
refinement of Dial's algorithm): every hex in the lowest non-empty bucket already has its
final cost, since reaching it through any other hex still waiting costs at least one more
cheapest hex. That is exact for any positive costs, needs no heap, and suits the route
search, where the TP-WIL-7 floor (1/2 TP) bounds every hex from below and TP-WIL-8
(under 8 TP) from above, so there are only a few buckets, used round-robin. When the
costs would need too many buckets (or a hex costs nothing) a binary heap with lazy
deletion takes over.

The install compiles the kernels ahead of time (numba's pycc, run by ``setup.py``) into an
extension module beside this one, which loads in a millisecond and needs no numba: the first
route of a process pays nothing to start. Where the install could not (no C compiler), numba
loads (and the kernels are compiled) on the first route or cost search of a process, never
when the map or the campaign merely loads; ``cache=True`` stores the machine code next to
this file (or in numba's user-wide cache dir), and when neither is writable (a read-only
install) the kernels are compiled once per process instead. Compiled either way, a kernel
lets go of the interpreter's lock while it runs (:func:`compile_ahead`).

This module holds the untyped jitted kernels; :func:`shortest_paths` is their typed face.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

FloatGrid = NDArray[np.float64]
IntGrid = NDArray[np.int64]
Queue = Literal["auto", "buckets", "heap"]

#: Above this many buckets the heap is cheaper than sweeping empty buckets.
MAX_BUCKETS = 1 << 12

# The columns of a label of the day-aware search (:func:`_day_kernel`).
_NODE, _DAY, _LEFT, _TODAY, _TP, _HEXES, _FROM = range(7)
_FIELDS = 7


def _heap_kernel(
    entry: Any, width: Any, source: Any, target: Any, offsets: Any, dist: Any, pred: Any
) -> None:
    """Fill ``dist`` (and ``pred`` unless it is empty) over the padded flat grid.

    ``entry``, ``dist`` and ``pred`` are flat over the padded grid (``width`` columns of it,
    the border included); ``offsets[p]`` are the six flat steps from a hex whose *map*
    column has parity ``p``. ``pred`` receives map (unpadded) node numbers
    ``row * (width - 2) + col``. The search stops early once ``target`` is settled
    (``-1``: search everything).
    """
    keep_pred = pred.shape[0] > 0
    map_width = width - 2
    capacity = 1024
    heap_key = np.empty(capacity, np.float64)
    heap_node = np.empty(capacity, np.int64)
    dist[source] = 0.0
    heap_key[0] = 0.0
    heap_node[0] = source
    size = 1
    while size > 0:
        d = heap_key[0]
        u = heap_node[0]
        # pop: move the last entry to the root and sift it down
        size -= 1
        if size > 0:
            key = heap_key[size]
            node = heap_node[size]
            i = 0
            while True:
                child = 2 * i + 1
                if child >= size:
                    break
                if child + 1 < size and heap_key[child + 1] < heap_key[child]:
                    child += 1
                if heap_key[child] >= key:
                    break
                heap_key[i] = heap_key[child]
                heap_node[i] = heap_node[child]
                i = child
            heap_key[i] = key
            heap_node[i] = node
        if d > dist[u]:
            continue  # a stale entry: u was reached more cheaply since
        if u == target:
            break
        row = u // width
        col = u - row * width
        map_node = (row - 1) * map_width + (col - 1)
        steps = offsets[(col - 1) & 1]
        for k in range(6):
            v = u + steps[k]
            nd = d + entry[v]
            if nd < dist[v]:
                dist[v] = nd
                if keep_pred:
                    pred[v] = map_node
                if size == capacity:
                    capacity *= 2
                    grown_key = np.empty(capacity, np.float64)
                    grown_node = np.empty(capacity, np.int64)
                    for j in range(size):
                        grown_key[j] = heap_key[j]
                        grown_node[j] = heap_node[j]
                    heap_key = grown_key
                    heap_node = grown_node
                # push: sift the new entry up from the end
                i = size
                size += 1
                while i > 0:
                    parent = (i - 1) >> 1
                    if heap_key[parent] <= nd:
                        break
                    heap_key[i] = heap_key[parent]
                    heap_node[i] = heap_node[parent]
                    i = parent
                heap_key[i] = nd
                heap_node[i] = v


def _bucket_kernel(
    entry: Any,
    width: Any,
    source: Any,
    target: Any,
    offsets: Any,
    dist: Any,
    pred: Any,
    width_of_bucket: Any,
    buckets: Any,
) -> None:
    """As :func:`_heap_kernel`, with a round-robin of ``buckets`` buckets, each
    ``width_of_bucket`` wide (at most the cheapest entry cost; see the module docstring)."""
    keep_pred = pred.shape[0] > 0
    map_width = width - 2
    settled = np.zeros(dist.shape[0], np.bool_)
    capacity = 64  # per bucket; bucket b holds queue[b * capacity : b * capacity + count[b]]
    queue = np.empty(buckets * capacity, np.int64)
    count = np.zeros(buckets, np.int64)
    scale = 1.0 / width_of_bucket
    dist[source] = 0.0
    queue[0] = source
    count[0] = 1
    waiting = 1
    current = 0
    while waiting > 0:
        while count[current] == 0:
            current += 1
            if current == buckets:
                current = 0
        count[current] -= 1
        waiting -= 1
        u = queue[current * capacity + count[current]]
        if settled[u]:
            continue  # a stale entry: u was queued again more cheaply and is done
        settled[u] = True
        if u == target:
            break
        d = dist[u]
        row = u // width
        col = u - row * width
        map_node = (row - 1) * map_width + (col - 1)
        steps = offsets[(col - 1) & 1]
        for k in range(6):
            v = u + steps[k]
            nd = d + entry[v]
            if nd < dist[v]:
                dist[v] = nd
                if keep_pred:
                    pred[v] = map_node
                b = np.int64(nd * scale) % buckets
                if count[b] == capacity:
                    grown = np.empty(buckets * 2 * capacity, np.int64)
                    for i in range(buckets):
                        for j in range(count[i]):
                            grown[2 * capacity * i + j] = queue[capacity * i + j]
                    queue = grown
                    capacity *= 2
                queue[b * capacity + count[b]] = v
                count[b] += 1
                waiting += 1


def _day_kernel(
    entry: Any,
    width: Any,
    source: Any,
    target: Any,
    offsets: Any,
    daily: Any,
    cap: Any,
    tp_to_go: Any,
    hexes_to_go: Any,
    day_bound: Any,
    tp_bound: Any,
) -> Any:
    """The fewest-days, then fewest-TP, then fewest-hexes way from ``source`` to ``target``
    over the padded flat grid, as the flat nodes from the target back to the source (empty:
    unreachable).

    ``entry`` holds each hex's exact TP in whole units (``-1``: never entered); ``daily`` is
    a day's TP and ``cap`` its most hexes (TP-WIL-7). A label is one way of reaching a hex:
    its day, the TP left that day, the hexes entered that day, the TP and hexes so far and
    the label it came from. Each step follows :func:`~turnkeeper.world.travel.plan_days`
    move for move; labels are settled in order (day, TP, hexes), so the first one settled at
    the target is the answer. A label is dropped when one settled at its hex is as good in
    every respect that decides the rest of the way (``dominated``), and when it cannot
    beat a way already known (``day_bound`` days and ``tp_bound`` TP): the least TP and
    hexes from each hex to the target (``tp_to_go``, ``hexes_to_go``) need at least so many
    more days, since a day adds at most ``daily`` TP and ``cap`` hexes to what is left today.
    """

    # Helpers of this kernel alone, defined inside it: numba compiles (and inlines) a nested
    # function with its caller, ahead of time as on first use.
    def later(labels: Any, a: Any, b: Any) -> Any:
        """Whether label ``a`` comes after label ``b`` in the order of the day-aware search:
        more days, then more TP, then more hexes."""
        if labels[a, _DAY] != labels[b, _DAY]:
            return labels[a, _DAY] > labels[b, _DAY]
        if labels[a, _TP] != labels[b, _TP]:
            return labels[a, _TP] > labels[b, _TP]
        return labels[a, _HEXES] > labels[b, _HEXES]

    def dominated(
        labels: Any, settled: Any, first: Any, day: Any, left: Any, today: Any, tp: Any, hexes: Any
    ) -> Any:
        """Whether a label settled at this hex (the list from ``first``) is at least as good as
        (day, left, today, tp, hexes) whatever the rest of the way: never more days (an earlier
        day, or the same day with as many TP left and as few hexes entered), and no more TP
        and hexes so far."""
        other = first
        while other >= 0:
            cheaper = labels[other, _TP] < tp or (
                labels[other, _TP] == tp and labels[other, _HEXES] <= hexes
            )
            d = labels[other, _DAY]
            ahead = d < day or (
                d == day and labels[other, _LEFT] >= left and labels[other, _TODAY] <= today
            )
            if cheaper and ahead:
                return True
            other = settled[other]
        return False

    capacity = 1 << 16
    labels = np.empty((capacity, _FIELDS), np.int64)
    settled = np.empty(capacity, np.int64)  # next label settled at the same hex
    first = np.full(entry.shape[0], -1, np.int64)  # first label settled at each hex
    heap = np.empty(capacity, np.int64)
    labels[0, _NODE] = source
    labels[0, _DAY] = 1
    labels[0, _LEFT] = daily
    labels[0, _TODAY] = 0
    labels[0, _TP] = 0
    labels[0, _HEXES] = 0
    labels[0, _FROM] = -1
    count = 1
    heap[0] = 0
    size = 1
    while size > 0:
        top = heap[0]
        size -= 1
        if size > 0:
            last = heap[size]
            i = 0
            while True:
                child = 2 * i + 1
                if child >= size:
                    break
                if child + 1 < size and later(labels, heap[child], heap[child + 1]):
                    child += 1
                if not later(labels, last, heap[child]):
                    break
                heap[i] = heap[child]
                i = child
            heap[i] = last
        u = labels[top, _NODE]
        if dominated(
            labels,
            settled,
            first[u],
            labels[top, _DAY],
            labels[top, _LEFT],
            labels[top, _TODAY],
            labels[top, _TP],
            labels[top, _HEXES],
        ):
            continue
        settled[top] = first[u]
        first[u] = top
        if u == target:
            path = [u]
            back = labels[top, _FROM]
            while back >= 0:
                path.append(labels[back, _NODE])
                back = labels[back, _FROM]
            return np.array(path, np.int64)
        col = u % width
        steps = offsets[(col - 1) & 1]
        for k in range(6):
            v = u + steps[k]
            need = entry[v]
            if need < 0:
                continue
            day = labels[top, _DAY]
            left = labels[top, _LEFT]
            today = labels[top, _TODAY]
            if today >= cap:  # TP-WIL-7: the day's movement is spent, camp
                day, left, today = day + 1, daily, 0
            if need > left:
                if left + daily >= need and left > 0:  # finish it with tomorrow's points
                    need -= left
                    day, left, today = day + 1, daily, 0
                else:
                    if left < daily:  # camp, start it fresh in the morning
                        day, left, today = day + 1, daily, 0
                    while need > daily:
                        need -= daily
                        day += 1
            left -= need
            today += 1
            tp = labels[top, _TP] + entry[v]
            hexes = labels[top, _HEXES] + 1
            more = max(
                0,
                (tp_to_go[v] - left + daily - 1) // daily,
                (hexes_to_go[v] - (cap - today) + cap - 1) // cap,
            )
            if day + more > day_bound or (day + more == day_bound and tp + tp_to_go[v] > tp_bound):
                continue
            if dominated(labels, settled, first[v], day, left, today, tp, hexes):
                continue
            if count == capacity:
                capacity *= 2
                grown = np.empty((capacity, _FIELDS), np.int64)
                grown[:count] = labels
                labels = grown
                grown_settled = np.empty(capacity, np.int64)
                grown_settled[:count] = settled
                settled = grown_settled
                grown_heap = np.empty(capacity, np.int64)
                grown_heap[:size] = heap[:size]
                heap = grown_heap
            labels[count, _NODE] = v
            labels[count, _DAY] = day
            labels[count, _LEFT] = left
            labels[count, _TODAY] = today
            labels[count, _TP] = tp
            labels[count, _HEXES] = hexes
            labels[count, _FROM] = top
            i = size
            size += 1
            while i > 0:
                parent = (i - 1) >> 1
                if not later(labels, heap[parent], count):
                    break
                heap[i] = heap[parent]
                i = parent
            heap[i] = count
            count += 1
    return np.empty(0, np.int64)


@dataclass(frozen=True)
class _Kernels:
    heap: Callable[..., None]
    buckets: Callable[..., None]
    days: Callable[..., NDArray[np.int64]]


#: The kernels' types, for compiling them ahead of time: every caller passes these.
SIGNATURES = {
    "heap": "void(f8[:], i8, i8, i8, i8[:, :], f8[:], i8[:])",
    "buckets": "void(f8[:], i8, i8, i8, i8[:, :], f8[:], i8[:], f8, i8)",
    "days": "i8[:](i8[:], i8, i8, i8, i8[:, :], i8, i8, i8[:], i8[:], i8, i8)",
}
_KERNELS = {"heap": _heap_kernel, "buckets": _bucket_kernel, "days": _day_kernel}
#: The module the install compiles the kernels into (``setup.py``), beside this one.
AHEAD_OF_TIME = "turnkeeper.world._route_kernels"


def compile_ahead(cc: Any) -> Any:
    """Export every kernel to numba's ahead-of-time compiler ``cc`` (a ``numba.pycc.CC``),
    for the install to build as an extension module that needs no numba to load.

    Each kernel lets go of the interpreter's lock while it runs, as the kernels compiled on
    first use do (``nogil``): a route across a big map takes seconds, and a server's other
    threads (another campaign's commands, its event loop) must go on meanwhile. pycc has no
    option for it, so its compile flags are made to ask for it (numba's ``release_gil``, the
    flag ``nogil`` sets)."""
    # the install's alone: the package never loads pycc
    from numba.core.compiler import Flags
    from numba.pycc import compiler

    class ReleasingFlags(Flags):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[no-untyped-call]
            self.release_gil = True  # type: ignore[assignment]

    compiler.Flags = ReleasingFlags  # type: ignore[attr-defined]
    for name, signature in SIGNATURES.items():
        cc.export(name, signature)(_KERNELS[name])
    return cc


@cache
def _kernels() -> _Kernels:
    """The kernels: those the install compiled ahead of time, which load at once; else (no
    compiler at install, a source checkout) compiled with numba on the first search of the
    process, and cached on disk for the next one."""
    try:
        ahead = importlib.import_module(AHEAD_OF_TIME)
    except ImportError:
        return _compiled_now()
    return _Kernels(heap=ahead.heap, buckets=ahead.buckets, days=ahead.days)


@cache
def _compiled_now() -> _Kernels:
    """The kernels compiled with numba in this process (or loaded from its disk cache)."""
    import numba  # heavy: loaded only when a route or a cost grid is asked for

    def jit(fn: Callable[..., Any]) -> Any:
        try:
            return numba.njit(cache=True, nogil=True)(fn)
        except RuntimeError:  # "cannot cache function ...: no locator available" (read-only)
            return numba.njit(cache=False, nogil=True)(fn)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numba.NumbaWarning)
        return _Kernels(heap=jit(_heap_kernel), buckets=jit(_bucket_kernel), days=jit(_day_kernel))


def _offsets(col_steps: NDArray[np.int32], row_steps: NDArray[np.int32], width: int) -> IntGrid:
    """Flat steps over a padded grid ``width`` wide, per map-column parity and direction."""
    return row_steps.astype(np.int64) * width + col_steps.astype(np.int64)[None, :]


def shortest_paths(
    entry: FloatGrid,
    source: tuple[int, int],
    col_steps: NDArray[np.int32],
    row_steps: NDArray[np.int32],
    *,
    predecessors: bool = False,
    target: tuple[int, int] | None = None,
    queue: Queue = "auto",
) -> tuple[FloatGrid, IntGrid | None]:
    """Least cost from ``source`` (``(row, col)``) to every hex of ``entry``, the per-hex
    cost of entering it (``inf`` = never; never negative), as a ``[row, col]`` grid; with
    ``predecessors``, also each hex's previous hex as a node number ``row * width + col``
    (``-1`` for the source and unreached hexes). With ``target`` the search stops once the
    target's cost is final: only hexes no dearer than it are then final.

    ``col_steps[k]`` and ``row_steps[parity, k]`` give direction ``k``'s offset step from a
    hex in an even (``parity`` 0) or odd column. ``queue`` picks the kernel (for tests and
    benchmarks; ``"auto"`` takes the buckets whenever they apply).

    >>> import numpy as np
    >>> cols, rows = np.array([0, 1, 1, 0, -1, -1]), np.array([[-1, -1, 0, 1, 0, -1],
    ...                                                         [-1, 0, 1, 1, 1, 0]])
    >>> dist, pred = shortest_paths(np.array([[1.0, 2.0, np.inf, 1.0]]), (0, 0), cols, rows,
    ...                             predecessors=True)
    >>> dist.tolist(), pred.tolist()
    ([[0.0, 2.0, inf, inf]], [[-1, 0, -1, -1]])
    """
    height, width = entry.shape
    padded = np.full((height + 2, width + 2), np.inf)
    padded[1:-1, 1:-1] = entry
    dist = np.full(padded.shape, np.inf)
    pred = np.full(padded.shape if predecessors else (0, 0), -1, dtype=np.int64)
    flat_width = width + 2
    args = (
        padded.reshape(-1),
        flat_width,
        (source[0] + 1) * flat_width + source[1] + 1,
        -1 if target is None else (target[0] + 1) * flat_width + target[1] + 1,
        _offsets(col_steps, row_steps, flat_width),
        dist.reshape(-1),
        pred.reshape(-1),
    )
    cheapest = float(entry.min()) if entry.size else np.inf
    dearest = float(np.max(entry, where=np.isfinite(entry), initial=0.0))
    # +3: one bucket for the hex being expanded, one for rounding at a bucket's edge.
    buckets = int(dearest / cheapest) + 3 if 0 < cheapest < np.inf else MAX_BUCKETS + 1
    if queue == "buckets" or (queue == "auto" and buckets <= MAX_BUCKETS):
        if not cheapest > 0:
            raise ValueError("the bucket queue needs every entry cost to be positive")
        _kernels().buckets(*args, cheapest, buckets)
    else:
        _kernels().heap(*args)
    return dist[1:-1, 1:-1].copy(), (pred[1:-1, 1:-1].copy() if predecessors else None)


def fewest_days_path(
    entry: IntGrid,
    source: tuple[int, int],
    target: tuple[int, int],
    col_steps: NDArray[np.int32],
    row_steps: NDArray[np.int32],
    daily: int,
    cap: int,
    bound: tuple[int, int] | None = None,
) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """The rows and columns of the hexes (source first) of the way from ``source`` to ``target``
    that takes fewest travel days, then fewest TP, then fewest hexes, or ``None`` if there
    is none. ``entry`` is each hex's exact TP in whole units of some fraction of a TP
    (``-1``: never entered), ``daily`` a day's TP in those units and ``cap`` the most hexes
    a day enters (TP-WIL-7); the days are split as
    :func:`~turnkeeper.world.travel.plan_days` splits them. ``bound``: the days and TP of a
    way known to exist, which lets the search leave aside whatever cannot beat it.

    >>> import numpy as np
    >>> cols, rows = np.array([0, 1, 1, 0, -1, -1]), np.array([[-1, -1, 0, 1, 0, -1],
    ...                                                         [-1, 0, 1, 1, 1, 0]])
    >>> way = fewest_days_path(np.array([[2, 3, -1, 2]]), (0, 0), (0, 1), cols, rows, 8, 8)
    >>> [hexes.tolist() for hexes in way]
    [[0, 0], [0, 1]]
    """
    height, width = entry.shape
    padded = np.full((height + 2, width + 2), -1, np.int64)
    padded[1:-1, 1:-1] = entry
    flat_width = width + 2
    # The least TP and hexes from each hex to the target, its own entry excluded: the
    # search from the target (the grid's steps go both ways) counts entering the hex, not
    # the target.
    passable = entry >= 0
    tp_from_target = shortest_paths(
        np.where(passable, entry, np.inf), target, col_steps, row_steps
    )[0]
    hexes_from_target = shortest_paths(
        np.where(passable, 1.0, np.inf), target, col_steps, row_steps
    )[0]
    unreachable = np.iinfo(np.int64).max // 4
    to_go = []
    for grid, own in ((tp_from_target, entry), (hexes_from_target, passable.astype(np.int64))):
        ahead = np.full(padded.shape, unreachable, np.int64)
        reached = np.isfinite(grid)
        ahead[1:-1, 1:-1][reached] = grid[reached].astype(np.int64) - own[reached] + own[target]
        to_go.append(ahead.reshape(-1))
    days, tp = bound if bound is not None else (unreachable, unreachable)
    nodes = _kernels().days(
        padded.reshape(-1),
        flat_width,
        (source[0] + 1) * flat_width + source[1] + 1,
        (target[0] + 1) * flat_width + target[1] + 1,
        _offsets(col_steps, row_steps, flat_width),
        daily,
        cap,
        to_go[0],
        to_go[1],
        days,
        tp,
    )
    if nodes.size == 0:
        return None
    # arrays, not a tuple a hex: a way may cross a million hexes
    nodes = nodes[::-1].astype(np.int64)
    return nodes // flat_width - 1, nodes % flat_width - 1
