"""Getting lost (TP-LOST-1): the seed says TODO; this is the project's default.

Once a day, when the party moves off road with no landmark in sight (TP-DISC-1), a d6 is
rolled against the chance in six of the terrain it enters (``[lost.chance_in_six]``). A lost
party drifts one side of its course (d2: left or right of the hex it meant to enter); if no
passable hex lies there it keeps its course. The rolls are the referee's.
"""

from __future__ import annotations

from turnkeeper.dice import DiceSource, roll
from turnkeeper.kernel.events import RollRecord
from turnkeeper.kernel.schedule import Draft
from turnkeeper.kernel.state import wilderness_of
from turnkeeper.procedures.wilderness.costs import (
    TERRAIN_KIN,
    HexCost,
    conditions_of,
    hex_cost_for,
)
from turnkeeper.procedures.wilderness.discovery import landmarks_in_sight
from turnkeeper.procedures.wilderness.events import LostChecked
from turnkeeper.world.hexes import Direction, Hex
from turnkeeper.world.hexmap import Road


def lost_check(draft: Draft, intended: Hex, dice: DiceSource) -> Hex:
    """TP-LOST-1 (the project's default): the day's check, off road with no landmark in sight.

    Lost, the party drifts one side of its course (d2: left or right of the intended hex);
    if no passable hex lies there, it keeps its course."""
    wild = wilderness_of(draft.state)
    rules = draft.state.ruleset
    hexmap = wild.hexmap
    if not rules.lost.enabled or wild.lost_checked or wild.vessel is not None:
        return intended
    if hexmap.road_at(intended) is not Road.NONE:
        return intended
    if landmarks_in_sight(hexmap, wild.position, rules.wilderness.landmark_sight_hexes):
        return intended
    key = hexmap.terrain_at(intended).key
    table = rules.lost.chance_in_six
    chance = table.get(key, table.get(TERRAIN_KIN.get(key, ""), 0))
    if chance <= 0:
        return intended
    check = roll("d6", dice)
    rolls = [RollRecord.of(check)]
    drift: Hex | None = None
    lost = check.total <= chance
    if lost:
        side = roll("d2", dice)
        rolls.append(RollRecord.of(side))
        order = list(Direction)
        course = next(d for d in order if wild.position.neighbour(d) == intended)
        turned = order[(order.index(course) + (1 if side.total == 2 else -1)) % len(order)]
        candidate = wild.position.neighbour(turned)
        if candidate in hexmap and not cost_here(draft, candidate).impassable:
            drift = candidate
    draft.add(
        LostChecked(
            chance_in_six=chance, lost=lost, intended=intended, drift=drift, rolls=tuple(rolls)
        )
    )
    return drift or intended


def cost_here(draft: Draft, hex_: Hex) -> HexCost:
    """What entering ``hex_`` costs the party now, in the weather over it (TP-WIL-3, -4)."""
    wild = wilderness_of(draft.state)
    hexmap = wild.hexmap
    return hex_cost_for(
        draft.state.ruleset,
        hexmap.terrain_at(hex_),
        hexmap.road_at(hex_),
        wild.weather_at(hex_, draft.state.ruleset.weather.start),
        conditions_of(draft.state),
        wild.vessel,
    )
