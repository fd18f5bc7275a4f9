"""What a hex costs this party today, read from the ruleset, and the best route (TP-WIL-1..9).

The arithmetic (products, floors, days) is the world layer's
(:mod:`turnkeeper.world.travel`, :mod:`turnkeeper.world.route`); this module picks the
ruleset's numbers for a party, a terrain, a road, the weather and a vessel.

- TP-WIL-2: 1 TP buys ``movement_points_per_tp`` movement points; a hex is 1 movement point.
- TP-WIL-3, TP-WIL-4: party and environment multipliers all multiply.
- TP-WIL-6: a hex costs 1 / (product) TP.
- TP-WIL-7: at most ``max_movement_factor`` x daily TP movement points (hexes) a day, a
  daily cap counted by the travel procedure; a hex still costs its exact TP.
- TP-WIL-8: a hex costing ``impassable_factor`` x daily TP or more cannot be entered.
- TP-WIL-9 (the project's default): a vessel replaces the party's and the ground's
  multipliers by its own on the terrains it goes over, and brings its own TP a day; weather
  still applies.

Terrains the ruleset does not list borrow a kin's number (deep forest as forest, swamp as
marsh, woods as forest, desert as plains), then the seed's table: the project's defaults.

>>> from turnkeeper.rules import preset
>>> tp = preset("tp")
>>> tp_per_hex(tp, "plains", party=("mounted", "carriage"))  # TP-WIL-5
Fraction(1, 1)
>>> tp_per_hex(tp, "hills", weather="rain"), tp_per_hex(tp, "high_mountains")
(Fraction(3, 1), None)
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.frozen import Same
from turnkeeper.kernel.state import CampaignState
from turnkeeper.kernel.wilderness_state import DEFAULT_REGION
from turnkeeper.rules.schema import Ruleset, Vessel
from turnkeeper.words import did_you_mean, key_of, listed, unknown
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import HexMap, Road, Terrain
from turnkeeper.world.route import Route, plan_route
from turnkeeper.world.travel import SEED_TERRAIN_MULTIPLIERS, cost_grid, hex_cost

#: The project's defaults for terrains a ruleset leaves out: read them as their kin.
TERRAIN_KIN: Mapping[str, str] = {
    "deep_forest": "forest",
    "woods": "forest",
    "swamp": "marsh",
    "desert": "plains",
}


def vessel(rules: Ruleset, name: str | None) -> Vessel | None:
    """The ruleset's vessel called ``name`` (TP-WIL-9), or None when on foot or mounted."""
    if name is None:
        return None
    known = sorted(rules.travel.vessels)
    found = rules.travel.vessels.get(key_of(name, known))
    if found is None:
        raise NotFoundError(unknown("vessel", name, known, listing=True))
    return found


def daily_tp(rules: Ruleset, vessel_name: str | None = None) -> int:
    """TP a day: 4 on land (TP-WIL-1), or the vessel's (TP-WIL-9)."""
    chosen = vessel(rules, vessel_name)
    return chosen.travel_points_per_day if chosen else rules.travel.travel_points_per_day


def max_movement_points(rules: Ruleset, vessel_name: str | None = None) -> int:
    """TP-WIL-7: at most twice the daily TP in movement points a day."""
    return rules.travel.max_movement_factor * daily_tp(rules, vessel_name)


def terrain_multiplier(rules: Ruleset, terrain: str | Terrain) -> Fraction:
    """TP-WIL-4: the multiplier of a terrain (a map terrain or a ruleset key such as woods)."""
    table = rules.travel.terrain
    # the names are listed only for a name given as words (or a refusal): a cost grid asks
    # about every map terrain at each step of a route
    key = terrain.key if isinstance(terrain, Terrain) else key_of(terrain, _terrain_names(table))
    if key in table:
        return table[key]
    if TERRAIN_KIN.get(key) in table:
        return table[TERRAIN_KIN[key]]
    if key in _MAP_TERRAINS:
        return SEED_TERRAIN_MULTIPLIERS[_MAP_TERRAINS[key]]
    raise NotFoundError(unknown("terrain", key, _terrain_names(table), listing=True))


#: The map's terrains by key.
_MAP_TERRAINS: Mapping[str, Terrain] = {t.key: t for t in Terrain}


def _terrain_names(table: Mapping[str, Fraction]) -> list[str]:
    """Every terrain name a ruleset's ``table`` lets a command give."""
    return sorted(set(table) | set(_MAP_TERRAINS) | set(TERRAIN_KIN))


def road_multiplier(rules: Ruleset, road: str | Road) -> Fraction:
    """TP-WIL-4: well-maintained road x2, trail x1.5, none x1."""
    known = ["none", *sorted(rules.travel.roads)]
    key = road.key if isinstance(road, Road) else key_of(road, known)
    if key == "none":
        return Fraction(1)
    if key not in rules.travel.roads:
        raise NotFoundError(unknown("road", key, known, listing=True))
    return rules.travel.roads[key]


def weather_multiplier(rules: Ruleset, weather: str) -> Fraction:
    """TP-WIL-4: rain x1/2, light snow x1/2, heavy snow x1/4; clear x1."""
    table = rules.travel.weather
    weather = weather_key(rules, weather)
    if weather not in table:
        if weather == "clear":
            return Fraction(1)
        known = sorted(table) or ["clear"]
        raise NotFoundError(
            f"no weather {weather!r} in ruleset {rules.name!r}{did_you_mean(weather, known)}"
            f" (expected {listed(known)})"
        )
    return table[weather]


def weather_key(rules: Ruleset, weather: str) -> str:
    """The ruleset's key of a weather given as words or as its key (``heavy snow``).

    >>> from turnkeeper.rules import preset
    >>> weather_key(preset("tp"), "Heavy snow")
    'heavy_snow'
    """
    return key_of(weather, ["clear", *rules.travel.weather])


#: TP-WIL-3: a party of more than 50 is also one of more than 20 (x1/4 in all).
IMPLIED_CONDITIONS: Mapping[str, tuple[str, ...]] = {"over_50": ("over_20",)}


def travel_conditions(rules: Ruleset, named: Iterable[str], people: int) -> tuple[str, ...]:
    """TP-WIL-3, "Apply each that matches the party": the conditions the referee named
    (mounted, carriage) and those the roster shows of itself, ``people`` living characters
    being more than ``travel.party_size`` says (over_20 for 21 and more).

    >>> from turnkeeper.rules import preset
    >>> travel_conditions(preset("tp"), ["mounted"], 21)
    ('mounted', 'over_20')
    """
    counted = (c for c, most in rules.travel.party_size.items() if people > most)
    return tuple(dict.fromkeys((*named, *counted)))


def conditions_of(state: CampaignState) -> tuple[str, ...]:
    """TP-WIL-3: how the campaign's party travels now, named and counted from its roster."""
    named = state.wilderness.party if state.wilderness is not None else ()
    return travel_conditions(state.ruleset, named, len(state.party.living))


def party_multipliers(rules: Ruleset, party: Iterable[str]) -> list[Fraction]:
    """TP-WIL-3: the multiplier of each condition that applies (mounted, carriage, over_20...).

    A condition applies once however often it is named, and over_50 brings over_20 with it.

    >>> from turnkeeper.rules import preset
    >>> party_multipliers(preset("tp"), ["over_50"])
    [Fraction(1, 2), Fraction(1, 2)]
    """
    named = list(dict.fromkeys(key_of(p, rules.travel.party) for p in party))
    for condition in list(named):
        for implied in IMPLIED_CONDITIONS.get(condition, ()):
            if implied in rules.travel.party and implied not in named:
                named.append(implied)
    out = []
    for condition in named:
        if condition not in rules.travel.party:
            known = sorted(rules.travel.party)
            raise NotFoundError(unknown("party condition", condition, known, listing=True))
        out.append(rules.travel.party[condition])
    return out


def tp_per_hex(
    rules: Ruleset,
    terrain: str | Terrain,
    road: str | Road = "none",
    weather: str = "clear",
    party: Iterable[str] = (),
    vessel_name: str | None = None,
) -> Fraction | None:
    """TP-WIL-6: TP to enter a hex, 1 / (product of every multiplier); None if one is x0."""
    per_tp = rules.travel.movement_points_per_tp
    chosen = vessel(rules, vessel_name)
    if chosen is not None:
        key = terrain.key if isinstance(terrain, Terrain) else terrain
        ground = chosen.multiplier if key in chosen.over else Fraction(0)
        return hex_cost([per_tp, ground, weather_multiplier(rules, weather)])
    return hex_cost(
        [
            per_tp,
            *party_multipliers(rules, party),
            terrain_multiplier(rules, terrain),
            road_multiplier(rules, road),
            weather_multiplier(rules, weather),
        ]
    )


def is_impassable(rules: Ruleset, cost: Fraction | None, vessel_name: str | None = None) -> bool:
    """TP-WIL-8: a hex costing ``impassable_factor`` x daily TP (8 on land) or more."""
    return cost is None or cost >= rules.travel.impassable_factor * daily_tp(rules, vessel_name)


@dataclass(frozen=True)
class HexCost:
    """A hex's cost for a party: the exact TP, what the day pays (the same TP, or None when
    impassable), and whether it is passable."""

    tp_per_hex: Fraction | None
    tp_spent: Fraction | None
    impassable: bool


def hex_cost_for(
    rules: Ruleset,
    terrain: str | Terrain,
    road: str | Road = "none",
    weather: str = "clear",
    party: Iterable[str] = (),
    vessel_name: str | None = None,
) -> HexCost:
    """The cost of one hex, with TP-WIL-8 applied: a mounted party on a road pays 1/4 TP a
    hex (TP-WIL-7 caps the hexes of a day, not what one costs).

    >>> from turnkeeper.rules import preset
    >>> hex_cost_for(preset("tp"), "plains", "road", party=["mounted"])
    HexCost(tp_per_hex=Fraction(1, 4), tp_spent=Fraction(1, 4), impassable=False)
    """
    return _hex_cost_for(Same(rules), terrain, road, weather, tuple(party), vessel_name)


# A ruleset never changes: a journey prices every hex it enters (and the lost check its
# drift) from the same few terrains, roads and weathers, so each price is worked out once.
@lru_cache(maxsize=256)
def _hex_cost_for(
    ruleset: Same[Ruleset],
    terrain: str | Terrain,
    road: str | Road,
    weather: str,
    party: tuple[str, ...],
    vessel_name: str | None,
) -> HexCost:
    rules = ruleset.it
    cost = tp_per_hex(rules, terrain, road, weather, party, vessel_name)
    if is_impassable(rules, cost, vessel_name):
        return HexCost(cost, None, True)
    assert cost is not None
    return HexCost(cost, cost, False)


def region_grid(hexmap: HexMap, weather: Mapping[str, str], default: str) -> NDArray[np.object_]:
    """The weather over each hex as a ``[row, col]`` grid of state names."""
    grid = np.full((hexmap.height, hexmap.width), weather.get(DEFAULT_REGION, default), object)
    for hex_, region in hexmap.regions.items():
        grid[hex_.row, hex_.col] = weather.get(region, default)
    return grid


def route_grid(
    rules: Ruleset,
    hexmap: HexMap,
    weather: Mapping[str, str] | None = None,
    party: Iterable[str] = (),
    vessel_name: str | None = None,
) -> NDArray[np.float64]:
    """TP to enter each hex under the weather of its region, for the route search."""
    party = tuple(party)
    key = (Same(rules), Same(hexmap), _weather_key(weather), party, vessel_name)
    hit = _GRIDS.get(key)
    if hit is not None:
        _GRIDS.move_to_end(key)
        return hit.copy()
    tp = _route_grid(rules, hexmap, weather, party, vessel_name)
    _GRIDS[key] = tp
    while len(_GRIDS) > 8:
        _GRIDS.popitem(last=False)
    return tp.copy()


#: The grids made last, by what they were made from (the ruleset and the map as the very
#: objects, :class:`~turnkeeper.frozen.Same`): a journey asks again at every hex it enters,
#: mostly under the same weather.
_GRIDS: OrderedDict[tuple[object, ...], NDArray[np.float64]] = OrderedDict()


def _route_grid(
    rules: Ruleset,
    hexmap: HexMap,
    weather: Mapping[str, str] | None,
    party: tuple[str, ...],
    vessel_name: str | None,
) -> NDArray[np.float64]:
    chosen = vessel(rules, vessel_name)
    per_tp = [rules.travel.movement_points_per_tp]
    if chosen is None:
        terrain = {t: terrain_multiplier(rules, t) for t in Terrain}
        roads = {r: road_multiplier(rules, r) for r in Road}
        multipliers = per_tp + party_multipliers(rules, party)
    else:
        terrain = {t: chosen.multiplier if t.key in chosen.over else Fraction(0) for t in Terrain}
        roads = {r: Fraction(1) for r in Road}
        multipliers = per_tp
    tp = cost_grid(hexmap, multipliers, terrain, roads).tp.copy()
    states = region_grid(hexmap, weather or {}, rules.weather.start)
    for state in set(states.reshape(-1).tolist()):
        factor = weather_multiplier(rules, str(state))
        if factor != 1:
            mask = states == state
            tp[mask] = np.inf if factor == 0 else tp[mask] / float(factor)
    return tp


def best_route(
    rules: Ruleset,
    hexmap: HexMap,
    start: Hex,
    goal: Hex,
    weather: Mapping[str, str] | None = None,
    party: Iterable[str] = (),
    vessel_name: str | None = None,
    known: Collection[Hex] | None = None,
) -> Route:
    """The route that takes fewest days, then fewest TP, under today's weather (TP-WIL-6..8),
    with the ruleset's TP a day, TP-WIL-7 movement cap and TP-WIL-8 impassable factor.

    ``known``: plan over these hexes only (the party's view: the hexes it has seen or
    visited); the rest count as impassable, so the plan reveals no unseen ground.
    """
    if start == goal:
        raise IllegalCommandError(f"the route starts and ends at {start.label}: pick another hex")
    party = tuple(party)
    if known is not None:
        return _best_route(rules, hexmap, start, goal, weather, party, vessel_name, known)
    # A journey plans again at every hex it enters, and a journey played again (a replay, a
    # simulation's seeds) plans the same routes: the route is the same for the same
    # ruleset, map, ends, weather and party, and is immutable, so it is kept.
    key = (Same(rules), Same(hexmap), start, goal, _weather_key(weather), party, vessel_name)
    hit = _ROUTES.get(key)
    if hit is not None:
        _ROUTES.move_to_end(key)
        return hit
    route = _best_route(rules, hexmap, start, goal, weather, party, vessel_name, None)
    _ROUTES[key] = route
    # a route across a huge map holds a million hexes: the kept routes' hexes are bounded too
    while len(_ROUTES) > 64 or sum(len(r.hexes) for r in _ROUTES.values()) > 100_000:
        _ROUTES.popitem(last=False)
    return route


#: The routes planned last, by what they were planned from (the ruleset and the map as the
#: very objects, :class:`~turnkeeper.frozen.Same`).
_ROUTES: OrderedDict[tuple[object, ...], Route] = OrderedDict()


def _weather_key(weather: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    """The weather over each region as a key: no weather is no region's."""
    return tuple(sorted((weather or {}).items()))


def _best_route(
    rules: Ruleset,
    hexmap: HexMap,
    start: Hex,
    goal: Hex,
    weather: Mapping[str, str] | None,
    party: tuple[str, ...],
    vessel_name: str | None,
    known: Collection[Hex] | None,
) -> Route:
    """:func:`best_route`, planned now."""
    grid = route_grid(rules, hexmap, weather, party, vessel_name)
    if known is not None:
        for end in (start, goal):
            if end not in known:
                raise IllegalCommandError(
                    f"no known route: the party has not seen {end.label}; plan between hexes "
                    "it knows, or leave out --player (the referee's plan)"
                )
        unknown = np.ones(grid.shape, dtype=bool)
        for hex_ in known:
            if hex_ in hexmap:
                unknown[hex_.row, hex_.col] = False
        grid = np.where(unknown, np.inf, grid)
    try:
        return plan_route(
            hexmap,
            start,
            goal,
            grid,
            daily_tp(rules, vessel_name),
            max_movement_points(rules, vessel_name),
            rules.travel.impassable_factor,
        )
    except IllegalCommandError:
        if known is None:
            raise
        raise IllegalCommandError(
            f"no known route from {start.label} to {goal.label} over the hexes the party has "
            "seen or visited: explore, or ask the referee"
        ) from None
