"""Travel-point arithmetic with the seed's numbers (TP-WIL-2, TP-WIL-5..8).

The multipliers of TP-WIL-3 (party) and TP-WIL-4 (environment) are test data here.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from turnkeeper.errors import IllegalCommandError
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import HexMap, Road, Terrain
from turnkeeper.world.travel import (
    cost_grid,
    effective_cost,
    hex_cost,
    is_impassable,
    plan_days,
)

# TP-WIL-3 party multipliers, TP-WIL-4 environment multipliers (test data).
ON_FOOT, MOUNTED, CARRIAGE, OVER_20, OVER_50 = F(1), F(2), F(1, 2), F(1, 2), F(1, 2)
PLAINS, HILLS, MARSH, FOREST, MOUNTAINS, HIGH = F(1), F(2, 3), F(1, 2), F(1, 2), F(1, 4), F(0)
ROAD, TRAIL, RAIN, SNOW, HEAVY_SNOW = F(2), F(3, 2), F(1, 2), F(1, 2), F(1, 4)


def test_tp_wil_2_one_tp_buys_one_hex_by_default() -> None:
    assert hex_cost([ON_FOOT, PLAINS]) == 1
    assert hex_cost([]) == 1


def test_tp_wil_5_mounted_escorting_a_carriage_moves_one_hex_per_tp() -> None:
    assert hex_cost([MOUNTED, CARRIAGE]) == 1
    assert hex_cost([MOUNTED, CARRIAGE, PLAINS]) == 1


def test_tp_wil_6_cost_is_one_over_the_product() -> None:
    assert hex_cost([ON_FOOT, HILLS]) == F(3, 2)
    assert hex_cost([ON_FOOT, MOUNTAINS]) == 4
    assert hex_cost([OVER_20, OVER_50, MOUNTAINS, TRAIL]) == F(32, 3)
    assert hex_cost([MOUNTED, FOREST, RAIN]) == 2
    assert hex_cost([ON_FOOT, HIGH, ROAD]) is None  # x0 is impassable whatever else applies


def test_tp_wil_6_three_then_three_and_two() -> None:
    day1, day2 = plan_days([3, 3, 2])
    # Day 1 spends 3 and keeps 1, which pays part of day 2's first 3-point move.
    assert (day1.completed, day1.spent, day1.carried_out) == ((0,), 3, 1)
    # Day 2 spends its own 4 points: 2 to finish that move, then 2 for the next.
    assert (day2.completed, day2.carried_in, day2.spent, day2.unused) == ((1, 2), 1, 4, 0)


def test_tp_wil_6_never_five_in_one_day() -> None:
    plans = plan_days([5, 3])
    assert all(d.spent + d.carried_out <= 4 for d in plans)
    assert plans[0].completed == ()  # the party stays in its hex until the move completes
    assert [d.completed for d in plans] == [(), (0, 1)]  # 4 + (1 + 3)


def test_tp_wil_6_a_move_spans_at_most_two_days() -> None:
    # 3 TP spent, 1 left; a 6 TP move cannot be paid by 1 + 4, so the party camps.
    day1, day2, day3 = plan_days([3, 6])
    assert (day1.unused, day1.carried_out) == (1, 0)
    assert (day2.carried_out, day3.carried_in, day3.spent, day3.completed) == (4, 4, 2, (1,))


def test_tp_wil_7_at_most_eight_hexes_a_day() -> None:
    mounted_on_road = hex_cost([MOUNTED, ROAD])
    assert mounted_on_road == F(1, 4)
    assert effective_cost(mounted_on_road) == F(1, 4)  # a daily cap, not a per-hex price
    plans = plan_days([mounted_on_road] * 20)
    assert [len(d.completed) for d in plans] == [8, 8, 4]
    assert [(d.spent, d.unused) for d in plans] == [(2, 2), (2, 2), (1, 3)]
    # The text's numbers: mounted, 4 road hexes (1 TP), then forest at 1 TP: 7 in the day.
    assert [len(d.completed) for d in plan_days([mounted_on_road] * 4 + [1] * 4)] == [7, 1]
    assert [
        len(d.completed) for d in plan_days([F(1, 3)] * 9, daily_tp=3, max_movement_points=6)
    ] == [6, 3]


def test_tp_wil_8_twice_the_daily_tp_is_impassable() -> None:
    assert is_impassable(hex_cost([ON_FOOT, MOUNTAINS, RAIN])) is True  # 8 TP
    assert is_impassable(hex_cost([ON_FOOT, MOUNTAINS])) is False  # 4 TP
    assert is_impassable(F(7)) is False
    assert is_impassable(F(6), daily_tp=3) is True
    assert effective_cost(F(8)) is None
    with pytest.raises(IllegalCommandError, match="TP-WIL-8"):
        plan_days([1, 8])
    with pytest.raises(IllegalCommandError, match="impassable"):
        plan_days([None])


def test_cost_grid_exact_per_terrain_road_weather() -> None:
    terrain = np.array([[Terrain.PLAINS, Terrain.HILLS, Terrain.HIGH_MOUNTAINS]], np.uint8)
    road = np.array([[Road.ROAD, Road.TRAIL, Road.NONE]], np.uint8)
    grid = cost_grid(HexMap.build("t", terrain, road), party=[MOUNTED], weather=[RAIN])
    assert grid.exact_at(Hex(0, 0)) == F(1, 2)  # 1 / (2 * 1 * 2 * 1/2)
    assert grid.exact_at(Hex(1, 0)) == 1  # 1 / (2 * 2/3 * 3/2 * 1/2)
    assert grid.exact_at(Hex(2, -1)) is None
    assert grid.tp.tolist() == [[0.5, 1.0, float("inf")]]


def test_tp_wil_8_the_impassable_factor_is_a_parameter() -> None:
    # A ruleset may raise TP-WIL-8's 2 x daily TP; 8 TP is then a two-day hex.
    assert is_impassable(F(8), impassable_factor=3) is False
    assert is_impassable(F(12), impassable_factor=3) is True
    assert effective_cost(F(8), impassable_factor=3) == 8
    day1, day2 = plan_days([8], impassable_factor=3)
    assert (day1.carried_out, day2.carried_in, day2.completed, day2.unused) == (4, 4, (0,), 0)


def test_tp_wil_6_a_move_dearer_than_two_days_takes_whole_days_from_a_fresh_morning() -> None:
    # Only possible with impassable_factor above 2: 1 TP, then a 10-TP hex.
    plans = plan_days([1, 10], impassable_factor=3)
    assert [(d.completed, d.spent, d.carried_out, d.unused) for d in plans] == [
        ((0,), 1, 0, 3),  # camp: the rest of day 1 cannot begin a three-day move
        ((), 0, 4, 0),
        ((), 0, 4, 0),
        ((1,), 2, 0, 2),
    ]
    assert sum(d.spent + d.carried_out for d in plans) == 11
