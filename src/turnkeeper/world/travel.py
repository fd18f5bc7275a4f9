"""Travel-point arithmetic of the wilderness (TP-WIL-2, TP-WIL-5..8), pure and exact.

Costs are exact :class:`~fractions.Fraction` TP. The multiplier *values* are data (the
ruleset carries them); this module only multiplies and splits into days. The seed's
values are kept below as documented defaults for demos and tests.

>>> hex_cost([Fraction(2), Fraction(1, 2)])  # TP-WIL-5: mounted, escorting a carriage
Fraction(1, 1)
>>> [(d.carried_in, d.spent, d.carried_out) for d in plan_days([3, 3, 2])]
[(Fraction(0, 1), Fraction(3, 1), Fraction(1, 1)), (Fraction(1, 1), Fraction(4, 1), Fraction(0, 1))]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import lcm, prod
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from turnkeeper.errors import IllegalCommandError
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import HexMap, Road, Terrain

#: TP-WIL-1: land travel gives 4 TP a day.
DAILY_TP = 4
#: TP-WIL-7: at most twice the daily TP in movement points a day (the ruleset may differ).
MAX_MOVEMENT_FACTOR = 2
#: TP-WIL-8: a hex costing twice the daily TP or more is impassable (the ruleset may differ).
IMPASSABLE_FACTOR = 2

#: Seed defaults (TP-WIL-4), for demos and tests until the ruleset supplies them. Deep
#: forest and swamp take the forest and marsh values; desert x1 and water x0 (land travel
#: only, TP-WIL-9) are the project's defaults, not the seed's.
SEED_TERRAIN_MULTIPLIERS: Mapping[Terrain, Fraction] = {
    Terrain.PLAINS: Fraction(1),
    Terrain.HILLS: Fraction(2, 3),
    Terrain.MARSH: Fraction(1, 2),
    Terrain.SWAMP: Fraction(1, 2),
    Terrain.FOREST: Fraction(1, 2),
    Terrain.DEEP_FOREST: Fraction(1, 2),
    Terrain.MOUNTAINS: Fraction(1, 4),
    Terrain.HIGH_MOUNTAINS: Fraction(0),
    Terrain.DESERT: Fraction(1),
    Terrain.WATER: Fraction(0),
}
#: TP-WIL-4: well-maintained road x2, downtrodden road or trail x1.5.
SEED_ROAD_MULTIPLIERS: Mapping[Road, Fraction] = {
    Road.NONE: Fraction(1),
    Road.ROAD: Fraction(2),
    Road.TRAIL: Fraction(3, 2),
}


def hex_cost(multipliers: Iterable[Fraction | int]) -> Fraction | None:
    """TP to enter a hex: 1 / (product of all multipliers that apply), TP-WIL-2/6.

    ``None`` when a multiplier is 0 (high mountains): the hex cannot be entered at all.

    >>> hex_cost([1, Fraction(2, 3)]), hex_cost([2, 0])
    (Fraction(3, 2), None)
    """
    product = prod((Fraction(m) for m in multipliers), start=Fraction(1))
    if product < 0:
        raise ValueError(f"travel multipliers cannot be negative (product {product})")
    return None if product == 0 else 1 / product


def is_impassable(
    cost: Fraction | None, daily_tp: int = DAILY_TP, impassable_factor: int = IMPASSABLE_FACTOR
) -> bool:
    """TP-WIL-8: a hex costing at least ``impassable_factor`` (2) x the daily TP cannot be
    entered.

    >>> is_impassable(Fraction(8)), is_impassable(Fraction(15, 2)), is_impassable(None)
    (True, False, True)
    >>> is_impassable(Fraction(8), impassable_factor=3)
    False
    """
    return cost is None or cost >= impassable_factor * daily_tp


def movement_floor(daily_tp: int = DAILY_TP, max_movement_points: int = 2 * DAILY_TP) -> Fraction:
    """The share of a day's TP one hex takes from the TP-WIL-7 cap: ``daily_tp /
    max_movement_points`` (1/2 TP with 4 TP a day). Not a price (a hex costs its exact TP):
    the route search weighs hexes by at least this, so a day's TP never looks like more
    hexes than the cap allows.

    >>> movement_floor()
    Fraction(1, 2)
    """
    return Fraction(daily_tp, max_movement_points)


def effective_cost(
    cost: Fraction | None,
    daily_tp: int = DAILY_TP,
    impassable_factor: int = IMPASSABLE_FACTOR,
) -> Fraction | None:
    """What entering the hex takes from the day: ``None`` if impassable (TP-WIL-8), else its
    exact TP (TP-WIL-6): TP-WIL-7 caps the day's movement points, not the price of a hex.

    >>> effective_cost(Fraction(1, 4)), effective_cost(Fraction(8))
    (Fraction(1, 4), None)
    """
    if is_impassable(cost, daily_tp, impassable_factor):
        return None
    assert cost is not None
    return cost


@dataclass(frozen=True)
class DayPlan:
    """One travel day (TP-WIL-6).

    ``completed`` are the indices of the moves finished today (the party enters those
    hexes); ``carried_in`` are yesterday's points that paid part of today's first move;
    ``spent`` are today's own points on moves finished today; ``carried_out`` are today's
    points put into a move that finishes tomorrow (the party stays in its hex overnight);
    ``unused`` are points left idle at camp (the TP-WIL-7 cap may leave some).
    """

    day: int
    completed: tuple[int, ...]
    carried_in: Fraction
    spent: Fraction
    carried_out: Fraction
    unused: Fraction


class DaySplit(NamedTuple):
    """One travel day in whole units of a TP (see :func:`split_days`): the moves it
    completes are ``range(first, stop)``; the rest are :class:`DayPlan`'s, in units."""

    first: int
    stop: int
    carried_in: int
    spent: int
    carried_out: int
    unused: int


def split_days(
    units: Sequence[int | None],
    per_tp: int,
    daily_tp: int = DAILY_TP,
    max_movement_points: int = 2 * DAILY_TP,
    impassable_factor: int = IMPASSABLE_FACTOR,
) -> list[DaySplit]:
    """:func:`plan_days` over hex costs in whole units of ``1/per_tp`` TP (``None``: a
    multiplier of 0): the same days, counted in integers, so a route of a million hexes
    splits in a second (Fractions take a minute).

    >>> [(d.first, d.stop, d.carried_out) for d in split_days([12, 12, 8], per_tp=4)]
    [(0, 1, 4), (1, 3, 0)]
    """
    daily = daily_tp * per_tp
    dearest = impassable_factor * daily  # TP-WIL-8: this much or more is impassable
    splits: list[DaySplit] = []
    left, carried_in, spent, first = daily, 0, 0, 0
    for index, cost in enumerate(units):
        if cost is None or cost >= dearest:
            shown = "x0" if cost is None else f"{Fraction(cost, per_tp)} TP"
            raise IllegalCommandError(
                f"move {index + 1} enters an impassable hex ({shown}; at least "
                f"{impassable_factor * daily_tp} TP is impassable, TP-WIL-8): change the "
                "travel conditions"
            )
        need = cost
        if index - first >= max_movement_points:  # TP-WIL-7: the day's movement points are spent
            splits.append(DaySplit(first, index, carried_in, spent, 0, left))
            left, carried_in, spent, first = daily, 0, 0, index
        if need > left:
            if left + daily >= need and left > 0:
                need -= left
                splits.append(DaySplit(first, index, carried_in, spent, left, 0))
                left, carried_in, spent, first = daily, left, 0, index
            else:
                if left < daily:  # part of today is spent: camp, begin it fresh
                    splits.append(DaySplit(first, index, carried_in, spent, 0, left))
                    left, carried_in, spent, first = daily, 0, 0, index
                while need > daily:
                    need -= daily
                    splits.append(DaySplit(first, index, carried_in, spent, daily, 0))
                    left, carried_in, spent, first = daily, daily, 0, index
        left -= need
        spent += need
    if len(units) > first or carried_in:
        splits.append(DaySplit(first, len(units), carried_in, spent, 0, left))
    return splits


def plan_days(
    costs: Iterable[Fraction | int | None],
    daily_tp: int = DAILY_TP,
    max_movement_points: int = 2 * DAILY_TP,
    impassable_factor: int = IMPASSABLE_FACTOR,
) -> list[DayPlan]:
    """Split a sequence of hex costs into travel days (TP-WIL-6, TP-WIL-7, TP-WIL-8).

    A day never spends more than ``daily_tp`` of its own points, and never enters more than
    ``max_movement_points`` hexes (each hex is 1 movement point, TP-WIL-2): at the cap the
    party camps, whatever TP remain. A move that does not fit in what is left today may be
    started with today's remaining points and finished with tomorrow's first points (it
    counts on the day the party enters the hex); if even today's rest plus all of tomorrow
    would not pay it, the party camps with the rest unused and starts the move fresh in the
    morning. A move dearer than two days (only when a ruleset's ``impassable_factor`` is
    above 2) takes whole days from a fresh morning. An impassable hex raises.

    >>> [d.completed for d in plan_days([Fraction(1, 4)] * 10)]  # TP-WIL-7: 8 hexes a day
    [(0, 1, 2, 3, 4, 5, 6, 7), (8, 9)]
    >>> [(len(d.completed), d.spent) for d in plan_days([Fraction(1, 4)] * 4 + [1] * 3)]
    [(7, Fraction(4, 1))]
    """
    exact = [None if raw is None else Fraction(raw) for raw in costs]
    per_tp = lcm(1, *{cost.denominator for cost in exact if cost is not None})
    units = [None if c is None else c.numerator * (per_tp // c.denominator) for c in exact]
    splits = split_days(units, per_tp, daily_tp, max_movement_points, impassable_factor)
    return [
        DayPlan(
            day,
            tuple(range(split.first, split.stop)),
            Fraction(split.carried_in, per_tp),
            Fraction(split.spent, per_tp),
            Fraction(split.carried_out, per_tp),
            Fraction(split.unused, per_tp),
        )
        for day, split in enumerate(splits, start=1)
    ]


@dataclass(frozen=True, eq=False)
class CostGrid:
    """Per-hex TP to enter each hex under one travel condition.

    ``tp`` is a float ``[row, col]`` grid (``inf`` where the product of multipliers is 0)
    for the route engine; ``codes`` and ``exact`` give each hex's exact Fraction, since a
    map has few terrain/road combinations.
    """

    tp: NDArray[np.float64]
    codes: NDArray[np.uint8]
    exact: tuple[Fraction | None, ...]

    def exact_at(self, hex_: Hex) -> Fraction | None:
        """The exact TP to enter ``hex_`` (``None`` if a multiplier is 0)."""
        return self.exact[int(self.codes[hex_.row, hex_.col])]


def cost_grid(
    hexmap: HexMap,
    party: Iterable[Fraction | int] = (),
    terrain: Mapping[Terrain, Fraction] = SEED_TERRAIN_MULTIPLIERS,
    road: Mapping[Road, Fraction] = SEED_ROAD_MULTIPLIERS,
    weather: Iterable[Fraction | int] = (),
) -> CostGrid:
    """Every hex's TP cost for a party (TP-WIL-3) in some weather (TP-WIL-4) on this map.

    >>> import numpy as np
    >>> m = HexMap.build("v", np.array([[0, 1]], np.uint8), np.array([[1, 0]], np.uint8))
    >>> g = cost_grid(m, party=[2])
    >>> g.tp.tolist(), g.exact_at(Hex(1, 0))
    ([[0.25, 0.75]], Fraction(3, 4))
    """
    exact = _costs_by_code(
        (*party, *weather),
        tuple(terrain.get(t, Fraction(1)) for t in Terrain),
        tuple(road.get(r, 1) for r in Road),
    )
    lookup = np.array([np.inf if c is None else float(c) for c in exact], dtype=np.float64)
    codes = (hexmap.terrain.astype(np.uint8) * np.uint8(len(Road)) + hexmap.road).astype(np.uint8)
    return CostGrid(lookup[codes], codes, exact)


@lru_cache(maxsize=256)
def _costs_by_code(
    common: tuple[Fraction | int, ...],
    terrain: tuple[Fraction, ...],
    road: tuple[Fraction | int, ...],
) -> tuple[Fraction | None, ...]:
    """The exact TP of each terrain and road (terrain-major, as :class:`CostGrid` codes them)
    under the ``common`` multipliers. Kept: a journey prices a route at every step, and its
    multipliers change only with the weather, so the same few products of fractions would be
    worked out again and again."""
    return tuple(hex_cost([*common, t, r]) for t in terrain for r in road)
