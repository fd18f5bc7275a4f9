"""Route planning over the hex map: fewest travel days, then fewest TP, then fewest hexes
(TP-WIL-6..8).

A hex costs its exact TP (1 / the product of the multipliers, TP-WIL-6); a day has
``daily_tp`` TP and enters at most ``max_movement_points`` hexes (TP-WIL-7, 2 x daily TP in
the text), and TP-WIL-6 lets a move start with the points left at the end of a day and
finish with the next day's. TP-WIL-8's limit (``impassable_factor`` x daily TP, 2 in the
text) is a parameter too: a ruleset that raises it lets routes cross dearer hexes.

Days do not add up hex by hex: how many a route takes depends on where each day's points and
hexes run out. So :func:`plan_route` searches ways of reaching a hex with the day, the TP left
that day and the hexes entered that day, splitting days exactly as
:func:`~turnkeeper.world.travel.plan_days` does, in whole units of the map's costs
(:func:`~turnkeeper.world._dijkstra.fewest_days_path`). A mounted party's day may mix four
road hexes at 1/4 TP with dear forest: only such a search sees that day.

The cheaper search below it (:func:`route_costs`, a Dijkstra over the hex grid, compiled
with numba, with no graph built) weighs each hex by the share of a day it takes at least:
its TP, or ``daily_tp / max_movement_points`` (1/2 TP) when cheaper. Its route is a real
route, so its days and TP bound the exact search, which leaves aside every way that cannot
beat it; that keeps a route across a million hexes in a fraction of a second.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np
from numpy.typing import NDArray

from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.world._dijkstra import IntGrid, fewest_days_path, shortest_paths
from turnkeeper.world.hexes import Direction, Hex
from turnkeeper.world.hexmap import HexMap
from turnkeeper.world.travel import (
    DAILY_TP,
    IMPASSABLE_FACTOR,
    CostGrid,
    effective_cost,
    split_days,
)

FloatGrid = NDArray[np.float64]
IntArray = NDArray[np.int64]


def _offset_steps() -> list[tuple[int, int, int]]:
    """Per direction: column step, row step from an even column, row step from an odd one."""
    steps = []
    for direction in Direction:
        even = Hex.from_offset(0, 5).neighbour(direction)
        odd = Hex.from_offset(1, 5).neighbour(direction)
        steps.append((even.col, even.row - 5, odd.row - 5))
    return steps


_STEPS = _offset_steps()
_COL_STEPS = np.array([s[0] for s in _STEPS], dtype=np.int32)
_ROW_STEPS = np.array([[s[1] for s in _STEPS], [s[2] for s in _STEPS]], dtype=np.int32)


def effective_grid(
    tp: FloatGrid,
    daily_tp: int = DAILY_TP,
    max_movement_points: int = 2 * DAILY_TP,
    impassable_factor: int = IMPASSABLE_FACTOR,
) -> FloatGrid:
    """Per-hex weight of the route search: TP-WIL-8 impassable as ``inf``, else the TP, at
    least the share of a day the TP-WIL-7 cap gives a hex (see the module docstring).

    >>> effective_grid(np.array([[0.25, 8.0]])).tolist()
    [[0.5, inf]]
    >>> effective_grid(np.array([[0.25, 8.0]]), impassable_factor=3).tolist()
    [[0.5, 8.0]]
    """
    floor = daily_tp / max_movement_points
    out = np.maximum(np.asarray(tp, dtype=np.float64), floor)
    # The raw TP, not the weight, decides impassability, as effective_cost does.
    out[np.asarray(tp, dtype=np.float64) >= impassable_factor * daily_tp] = np.inf
    return out


def _node(shape: tuple[int, ...], hex_: Hex, what: str) -> int:
    height, width = shape
    if not (0 <= hex_.col < width and 0 <= hex_.row < height):
        raise NotFoundError(f"the {what} hex {hex_} is not on the map ({width} x {height})")
    return hex_.row * width + hex_.col


def _search(
    tp: FloatGrid,
    start: Hex,
    daily_tp: int,
    max_mp: int,
    impassable_factor: int,
    predecessors: bool = False,
    goal: Hex | None = None,
) -> tuple[FloatGrid, IntGrid | None]:
    entry = effective_grid(tp, daily_tp, max_mp, impassable_factor)
    _node(entry.shape, start, "start")
    target = None
    if goal is not None:
        _node(entry.shape, goal, "goal")
        target = (goal.row, goal.col)
    return shortest_paths(
        entry,
        (start.row, start.col),
        _COL_STEPS,
        _ROW_STEPS,
        predecessors=predecessors,
        target=target,
    )


def route_costs(
    cost_grid: FloatGrid | CostGrid,
    start: Hex,
    daily_tp: int = DAILY_TP,
    max_movement_points: int = 2 * DAILY_TP,
    impassable_factor: int = IMPASSABLE_FACTOR,
) -> FloatGrid:
    """Least route weight (TP, each hex at least 1/2 TP under TP-WIL-7) from ``start`` to
    every hex, as a ``[row, col]`` grid (``inf`` = unreachable).

    >>> import numpy as np
    >>> route_costs(np.array([[1.0, 1.0, 3.0]]), Hex(0, 0)).tolist()
    [[0.0, 1.0, 4.0]]
    """
    tp = cost_grid.tp if isinstance(cost_grid, CostGrid) else cost_grid
    return _search(tp, start, daily_tp, max_movement_points, impassable_factor)[0]


@dataclass(frozen=True)
class Route:
    """A planned journey: the hexes from start to goal (both included), its exact TP and
    the travel days it takes (TP-WIL-6, TP-WIL-7)."""

    hexes: tuple[Hex, ...]
    tp: Fraction
    days: int
    day_ends: tuple[tuple[Hex, Fraction], ...] = ()
    """Where the party camps at each day's end, and the TP that day spent (its own points,
    those put into a move it finishes tomorrow included)."""

    def labels(self) -> list[str]:
        """The printed-map labels of the route's hexes, as :attr:`Hex.label` writes each,
        made together: a route may cross a million hexes.

        >>> Route((Hex(0, 0), Hex(1, 0), Hex(120, -26)), Fraction(3), 1).labels()
        ['0000', '0100', '120034']
        """
        qs = np.fromiter((h.q for h in self.hexes), np.int64, len(self.hexes))
        rs = np.fromiter((h.r for h in self.hexes), np.int64, len(self.hexes))
        return offset_labels(qs, rs + (qs - (qs & 1)) // 2)


def offset_labels(cols: IntArray, rows: IntArray) -> list[str]:
    """:attr:`Hex.label` of the hexes at printed-map ``cols`` and ``rows``, in one pass of
    numpy: column then row digits, each as wide as the wider of the two and at least two.

    >>> offset_labels(np.array([3, 5, 120]), np.array([4, 100, 34]))
    ['0304', '005100', '120034']
    """
    if cols.size and min(int(cols.min()), int(rows.min())) < 0:  # Hex.label names the one
        pairs = zip(cols.tolist(), rows.tolist(), strict=True)
        return [Hex.from_offset(col, row).label for col, row in pairs]
    larger = np.maximum(cols, rows)
    widths = np.full(cols.shape, 2, np.int64)
    width = 2
    while (longer := larger >= 10**width).any():
        width += 1
        widths[longer] = width
    out = np.empty(cols.shape, object)
    for width in np.unique(widths).tolist():
        chosen = widths == width
        places = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
        digits = np.concatenate(
            [cols[chosen, None] // places % 10, rows[chosen, None] // places % 10], axis=1
        )
        text = (digits + ord("0")).astype(np.uint8).view(f"S{2 * width}").ravel()
        out[chosen] = text.astype(f"U{2 * width}")
    labels: list[str] = out.tolist()
    return labels


def _exact_units(
    costs: FloatGrid | CostGrid,
    rows: IntArray,
    cols: IntArray,
    daily_tp: int,
    impassable_factor: int,
) -> tuple[list[int | None], int]:
    """The exact TP of entering each hex at ``rows`` and ``cols``, as whole units of
    ``1/per_tp`` TP (``None`` where TP-WIL-8 forbids it), and ``per_tp``: the few distinct
    costs of a route are made exact once each, not once a hex.

    >>> _exact_units(np.array([[0.5, 2 / 3, 9.0]]), np.zeros(3, int), np.arange(3), 4, 2)
    ([3, 4, None], 6)
    """
    if isinstance(costs, CostGrid):
        kinds, which = np.unique(costs.codes[rows, cols], return_inverse=True)
        exact = [costs.exact[int(code)] for code in kinds]
    else:
        kinds, which = np.unique(costs[rows, cols], return_inverse=True)
        # Float grids come from small rationals (1/2, 2/3, 3/4, ...): recover them exactly.
        exact = [
            Fraction(float(v)).limit_denominator(10**6) if np.isfinite(v) else None for v in kinds
        ]
    entered = [effective_cost(cost, daily_tp, impassable_factor) for cost in exact]
    per_tp = lcm(1, *(cost.denominator for cost in entered if cost is not None))
    lookup = [None if c is None else c.numerator * (per_tp // c.denominator) for c in entered]
    return [lookup[kind] for kind in which.tolist()], per_tp


#: The finest part of a TP the route search counts in: the costs of one map under one set of
#: conditions share a denominator no larger (1/2, 2/3, 3/4 and their products share 24).
FINEST = 10**9
#: The most units a route's TP may count, with room for two of them summed in 64 bits.
COUNTABLE = np.iinfo(np.int64).max // 4


def _tp_units(tp: FloatGrid, daily_tp: int, impassable_factor: int) -> tuple[IntGrid, int]:
    """Each hex's exact TP in whole units of 1/``per_tp`` TP (``-1`` where TP-WIL-8 forbids
    entering), and ``per_tp``: the day-aware search counts in integers, exactly.

    >>> units, per_tp = _tp_units(np.array([[0.25, 1.5, 2 / 3, 9.0]]), 4, 2)
    >>> units.tolist(), per_tp
    ([[3, 18, 8, -1]], 12)
    """
    passable = np.isfinite(tp) & (tp < impassable_factor * daily_tp)
    # A map has a handful of distinct costs, each a small rational (1/2, 2/3, 3/4, ...).
    values = np.unique(tp[passable])
    exact = [Fraction(float(v)).limit_denominator(10**6) for v in values]
    per_tp = lcm(1, *(f.denominator for f in exact))
    if per_tp > FINEST:  # a day's units times a long route would overflow the counts
        shown = ", ".join(str(f) for f in exact if FINEST % f.denominator)[:200]
        raise IllegalCommandError(
            f"the travel costs here ({shown} TP) are fractions too fine to count exactly "
            "together: write the ruleset's travel multipliers as simple fractions (3/2, 2/3)"
        )
    # A route's TP in these units must fit the search's 64-bit counts, with room for the
    # sum of two (a way so far plus the way to go): a ruleset's bounds keep a day's units
    # near 10^12 at most, but a huge map of dear hexes in fine parts could pass 2^63.
    dearest = max(exact, default=Fraction(0)) * per_tp
    if dearest * int(np.count_nonzero(passable)) > COUNTABLE:
        raise IllegalCommandError(
            f"the travel costs here (up to {max(exact)} TP a hex, in parts of 1/{per_tp} TP) "
            f"are too many units to count over this map's {np.count_nonzero(passable)} "
            "passable hexes: write the ruleset's travel multipliers as simpler fractions or "
            "lower its impassable_factor"
        )
    units = np.full(tp.shape, -1, np.int64)
    lookup = np.array([f.numerator * (per_tp // f.denominator) for f in exact], np.int64)
    units[passable] = lookup[np.searchsorted(values, tp[passable])]
    return units, per_tp


def plan_route(
    hexmap: HexMap,
    start: Hex,
    goal: Hex,
    cost_grid: FloatGrid | CostGrid,
    daily_tp: int = DAILY_TP,
    max_movement_points: int = 2 * DAILY_TP,
    impassable_factor: int = IMPASSABLE_FACTOR,
) -> Route:
    """The fewest-days, then fewest-TP route from ``start`` to ``goal``; ``daily_tp``,
    ``max_movement_points`` (TP-WIL-7) and ``impassable_factor`` (TP-WIL-8) come from the
    ruleset.

    >>> import numpy as np
    >>> m = HexMap.build("v", np.array([[0, 1, 0]], np.uint8))
    >>> route = plan_route(m, Hex(0, 0), Hex(2, -1), np.array([[1.0, 1.5, 1.0]]))
    >>> route.hexes, route.tp, route.days
    ((Hex(q=0, r=0), Hex(q=1, r=0), Hex(q=2, r=-1)), Fraction(5, 2), 1)
    >>> route.day_ends
    ((Hex(q=2, r=-1), Fraction(5, 2)),)
    """
    tp = cost_grid.tp if isinstance(cost_grid, CostGrid) else cost_grid
    if tp.shape != (hexmap.height, hexmap.width):
        raise ValueError(
            f"cost grid {tp.shape} does not match the map {hexmap.height, hexmap.width}"
        )
    dist, pred = _search(
        tp, start, daily_tp, max_movement_points, impassable_factor, predecessors=True, goal=goal
    )
    assert pred is not None
    if not np.isfinite(dist[goal.row, goal.col]):
        raise IllegalCommandError(
            f"no passable route from {start.label} to {goal.label} under these travel "
            "conditions (TP-WIL-8): change the conditions or the destination"
        )
    # The least-weight way is a route: its days and TP bound the exact search. Its hexes
    # are walked back as grid indices, not Hexes: a route may cross a million of them.
    units, per_tp = _tp_units(tp, daily_tp, impassable_factor)
    # memoryviews index to Python ints several times faster than arrays
    flat_pred, flat_units = pred.reshape(-1).data, units.reshape(-1).data
    node, first = goal.row * hexmap.width + goal.col, start.row * hexmap.width + start.col
    weighed_units = []
    while node != first:
        weighed_units.append(flat_units[node])
        node = flat_pred[node]
    weighed_units.reverse()  # walked from the goal: the days are split from the start
    days = len(
        split_days(weighed_units, 1, daily_tp * per_tp, max_movement_points, impassable_factor)
    )
    way = fewest_days_path(
        units,
        (start.row, start.col),
        (goal.row, goal.col),
        _COL_STEPS,
        _ROW_STEPS,
        daily_tp * per_tp,
        max_movement_points,
        bound=(days, sum(weighed_units)),
    )
    assert way is not None, "the exact search finds at least the least-weight route"
    rows, cols = way
    qs, rs = cols, rows - (cols - (cols & 1)) // 2  # Hex.from_offset, a whole way at once
    hexes = tuple(map(Hex, qs.tolist(), rs.tolist()))
    moves, per_move = _exact_units(cost_grid, rows[1:], cols[1:], daily_tp, impassable_factor)
    splits = split_days(moves, per_move, daily_tp, max_movement_points, impassable_factor)
    spent: dict[int, Fraction] = {}  # a route's days spend a few amounts, each made once
    ends: list[tuple[Hex, Fraction]] = []
    where = hexes[0]
    for split in splits:
        if split.stop > split.first:
            where = hexes[split.stop]  # move i enters hexes[i + 1]
        amount = split.spent + split.carried_out
        if amount not in spent:
            spent[amount] = Fraction(amount, per_move)
        ends.append((where, spent[amount]))
    total = Fraction(sum(m for m in moves if m is not None), per_move)
    return Route(hexes, total, len(splits), tuple(ends))
