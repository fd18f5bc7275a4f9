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

numba is a heavy import, so it loads (and the kernels are compiled) on the first route or
cost search of a process, never when the map or the campaign merely loads. ``cache=True``
stores the machine code next to this file (or in numba's user-wide cache dir); when neither
is writable (a read-only install) the kernels are compiled once per process instead, which
only costs the first call its compile time.

This module holds the untyped jitted kernels; :func:`shortest_paths` is their typed face.
"""

from __future__ import annotations

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


@dataclass(frozen=True)
class _Kernels:
    heap: Callable[..., None]
    buckets: Callable[..., None]


@cache
def _kernels() -> _Kernels:
    """The kernels compiled with numba, loaded on the first search of the process."""
    import numba  # heavy: loaded only when a route or a cost grid is asked for

    def jit(fn: Callable[..., Any]) -> Any:
        try:
            return numba.njit(cache=True, nogil=True)(fn)
        except RuntimeError:  # "cannot cache function ...: no locator available" (read-only)
            return numba.njit(cache=False, nogil=True)(fn)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numba.NumbaWarning)
        return _Kernels(heap=jit(_heap_kernel), buckets=jit(_bucket_kernel))


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
