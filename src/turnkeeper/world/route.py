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
    plan_days,
)

FloatGrid = NDArray[np.float64]


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


def _exact(costs: FloatGrid | CostGrid, hex_: Hex) -> Fraction | None:
    if isinstance(costs, CostGrid):
        return costs.exact_at(hex_)
    value = float(costs[hex_.row, hex_.col])
    # Float grids come from small rationals (1/2, 2/3, 3/4, ...): recover them exactly.
    return None if not np.isfinite(value) else Fraction(value).limit_denominator(10**6)


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
    # The least-weight way is a route: its days and TP bound the exact search.
    weighed = [goal]
    while weighed[-1] != start:
        node = int(pred[weighed[-1].row, weighed[-1].col])
        weighed.append(Hex.from_offset(node % hexmap.width, node // hexmap.width))
    units, per_tp = _tp_units(tp, daily_tp, impassable_factor)
    weighed_units = [int(units[h.row, h.col]) for h in weighed[:-1]]
    days = len(plan_days(weighed_units, daily_tp * per_tp, max_movement_points, impassable_factor))
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
    hexes = tuple(Hex.from_offset(col, row) for row, col in way)
    costs = [effective_cost(_exact(cost_grid, h), daily_tp, impassable_factor) for h in hexes[1:]]
    total = sum((c for c in costs if c is not None), start=Fraction(0))
    plans = plan_days(costs, daily_tp, max_movement_points, impassable_factor)
    ends: list[tuple[Hex, Fraction]] = []
    where = hexes[0]
    for plan in plans:
        if plan.completed:
            where = hexes[plan.completed[-1] + 1]  # move i enters hexes[i + 1]
        ends.append((where, plan.spent + plan.carried_out))
    return Route(hexes, total, len(plans), tuple(ends))
