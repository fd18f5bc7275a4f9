"""The designer's view of a journey: many parties walking a map at once (``simulate journey``).

The model is the engine's wilderness travel (``travel`` then ``camp`` until the party is
there) for every run at once, every number read from the ruleset, the party and the map:

* Each step enters the next hex of the engine's own best route from where the party stands
  under the weather of each region (TP-WIL-6 to TP-WIL-8); a hex costs its exact TP
  (TP-WIL-3, TP-WIL-4); a move that does not fit in today's TP is begun and finished with
  tomorrow's first points, unless it would need a third day (TP-WIL-6); a day's moves stop at
  the movement cap (TP-WIL-7). Camp when the TP run out.
* Getting lost (TP-LOST-1, the project's default): once a day, off road with no landmark in
  sight, a chance in six by terrain; a lost party drifts to the side of its course.
* The wilderness die (TP-WENC-4) at the moments of the schedule (TP-WENC-1 travelling,
  TP-WENC-2 exploring) and at the night camp, with the faces a terrain's milieu and the night
  camp swap in (TP-WENC-3): encounters are counted and the party goes on; waning resources
  are eaten from the supplies if they suffice, else the next TP is spent foraging; a change
  of weather rolls the table of the party's climate and season.

Runs are worked on in chunks; in each pass every run still under way takes one action (a
step, a TP of foraging, or the night camp). TP are counted exactly in units of the least
common denominator of every hex cost. A journey still under way after ``max_days`` stops.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

import numpy as np
from numpy.typing import NDArray

from turnkeeper.analysis.expedition import (
    ColumnOdds,
    Histograms,
    State,
    check_bounds,
    column_data,
    in_chunks,
    use_usage_dice,
)
from turnkeeper.clock.calendar import date_at
from turnkeeper.dice import parse
from turnkeeper.dice.exact import distribution
from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.kernel.party import Party
from turnkeeper.kernel.wilderness_state import DEFAULT_REGION
from turnkeeper.procedures.wilderness.costs import (
    TERRAIN_KIN,
    best_route,
    daily_tp,
    hex_cost_for,
    max_movement_points,
    travel_conditions,
)
from turnkeeper.procedures.wilderness.discovery import landmarks_in_sight
from turnkeeper.rules.schema import FaceEvent, Ruleset
from turnkeeper.tables import row_for
from turnkeeper.world.hexes import Direction, Hex
from turnkeeper.world.hexmap import HexMap, Road

__all__ = ["MAX_DAYS", "Journey", "JourneyOdds", "in_season", "simulate_journey"]

Bools = NDArray[np.bool_]
Idx = NDArray[np.int64]

#: The longest journey simulated: a run not there after this many days stops, not arrived.
MAX_DAYS = 1000
#: Runs worked on at once (each pass is a handful of array operations on them).
CHUNK = 16_384

_MOMENTS = ("first", "half", "last")
# What a face does to a journey, in the die's own words (TP-WENC-4).
_MEET, _GOOD, _WANE, _WEATHER, _NOTHING = range(5)
_ACTS = {
    FaceEvent.ENCOUNTER: _MEET,
    FaceEvent.GOOD_ENCOUNTER: _GOOD,
    FaceEvent.WANING_RESOURCES: _WANE,
    FaceEvent.FORCED_REST: _WANE,
    FaceEvent.WEATHER_CHANGE: _WEATHER,
    FaceEvent.ENVIRONMENT: _WEATHER,
}


def in_season(rules: Ruleset, season: str | None) -> Ruleset:
    """The ruleset with its calendar starting on the first day of ``season``'s first month
    (the hour kept), so the weather tables read that season; None leaves it as it is."""
    if season is None:
        return rules
    months = rules.weather.seasons.get(season)
    if not months:
        known = ", ".join(rules.weather.seasons) or "none"
        raise NotFoundError(f"--season {season}: no such season in the ruleset; seasons: {known}")
    year_and_day, _, hour = rules.time.calendar_start.partition("T")
    year = year_and_day.split("-")[0]
    start = f"{year}-{months[0]:02d}-01" + (f"T{hour}" if hour else "")
    return rules.model_copy(
        update={"time": rules.time.model_copy(update={"calendar_start": start})}
    )


@dataclass(frozen=True)
class Journey:
    """One journey: the rules, the party, the map, from and to, the party's conditions
    (TP-WIL-3: mounted, carriage...) and whether it explores (TP-WIL-10)."""

    ruleset: Ruleset
    party: Party
    hexmap: HexMap
    start: Hex
    goal: Hex
    conditions: tuple[str, ...] = ()
    explore: bool = False
    max_days: int = 100

    def __post_init__(self) -> None:
        for end, name in ((self.start, "--from"), (self.goal, "--to")):
            if end not in self.hexmap:
                raise NotFoundError(
                    f"{name} {end.label}: no such hex on the map "
                    f"({self.hexmap.width} x {self.hexmap.height})"
                )
        if self.start == self.goal:
            raise IllegalCommandError("--from and --to are the same hex: pick another")
        if not 1 <= self.max_days <= MAX_DAYS:
            raise IllegalCommandError(f"--days {self.max_days}: from 1 to {MAX_DAYS:,} days")

    @property
    def travel_conditions(self) -> tuple[str, ...]:
        """TP-WIL-3: the conditions given and those the party's roster shows (over_20...)."""
        return travel_conditions(self.ruleset, self.conditions, len(self.party.living))


@dataclass(frozen=True)
class JourneyOdds(ColumnOdds):
    """What many journeys say: a histogram per column (days, TP, encounters, times lost...)."""

    ruleset: str
    start: str
    goal: str
    runs: int
    seed: int
    columns: Histograms

    def to_dict(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "from": self.start,
            "to": self.goal,
            "runs": self.runs,
            "seed": self.seed,
            "columns": column_data(self.columns),
        }


@dataclass
class _Runs:
    n: int
    pos: Idx
    spent: Idx  # today's TP, in units
    moved: Idx  # today's movement points (TP-WIL-7)
    pend_to: Idx  # -1: no move under way (TP-WIL-6)
    pend_cost: Idx
    pend_paid: Idx
    done_moments: Idx  # bit per moment of today's schedule already rolled
    lost_checked: Bools
    forage_owed: Bools
    weather: Idx  # (n, regions): index of each region's weather
    day: Idx
    finished: Bools
    counted: dict[str, State]
    dice: dict[str, State]
    out: dict[str, Idx]


class _Model:
    """The journey's numbers, read once from the ruleset, the party and the map."""

    def __init__(self, plan: Journey) -> None:
        rules = plan.ruleset
        hexmap = plan.hexmap
        self.plan, self.rules, self.hexmap = plan, rules, hexmap
        self.width = hexmap.width
        hexes = list(hexmap.hexes())
        self.hexes = {self.index(h): h for h in hexes}
        size = hexmap.width * hexmap.height
        self.states = list(dict.fromkeys([rules.weather.start, *rules.travel.weather]))
        self.regions = sorted({DEFAULT_REGION, *hexmap.regions.values()})
        self.region = np.zeros(size, dtype=np.int64)
        self.climate: dict[int, str] = {}
        self.terrain: dict[int, str] = {}
        self.road = np.zeros(size, dtype=bool)
        self.landmark = np.zeros(size, dtype=bool)
        self.lost_chance = np.zeros(size, dtype=np.int64)
        self.neighbours = np.full((size, 6), -1, dtype=np.int64)
        radius = rules.wilderness.landmark_sight_hexes
        table = rules.lost.chance_in_six
        for i, h in self.hexes.items():
            self.region[i] = self.regions.index(hexmap.regions.get(h, DEFAULT_REGION))
            self.climate[i] = hexmap.climates.get(h, rules.weather.default_climate)
            key = hexmap.terrain_at(h).key
            self.terrain[i] = key
            self.road[i] = hexmap.road_at(h) is not Road.NONE
            self.landmark[i] = bool(landmarks_in_sight(hexmap, h, radius))
            self.lost_chance[i] = table.get(key, table.get(TERRAIN_KIN.get(key, ""), 0))
            for d, direction in enumerate(Direction):
                beside = h.neighbour(direction)
                if beside in hexmap:
                    self.neighbours[i, d] = self.index(beside)
        # Exact TP of every hex under every weather, in units of their common denominator.
        exact: dict[tuple[int, int], Fraction | None] = {}
        for i, h in self.hexes.items():
            for w, state in enumerate(self.states):
                cost = hex_cost_for(
                    rules, hexmap.terrain_at(h), hexmap.road_at(h), state, plan.travel_conditions
                )
                exact[i, w] = cost.tp_spent
        daily = daily_tp(rules)
        self.unit = lcm(2, *(c.denominator for c in exact.values() if c is not None))
        self.cost = np.full((size, len(self.states)), -1, dtype=np.int64)
        for (i, w), c in exact.items():
            if c is not None:
                self.cost[i, w] = int(c * self.unit)
        self.daily = daily * self.unit
        self.cap = max_movement_points(rules)
        self.thresholds = {
            "first": self.unit,
            "half": daily * self.unit // 2,
            "last": daily * self.unit,
        }
        wild = rules.wilderness
        self.schedule = wild.explore_checks if plan.explore else wild.travel_checks
        die = rules.dice.get(wild.die)
        # What each face does, by the milieu of the party's hex (a desert) and the moment.
        milieus: list[str | None] = [None, *(die.milieus if die is not None else ())]
        self.sides = die.sides if die is not None else 0
        self.faces = np.full((len(milieus), 2, max(self.sides, 1)), _NOTHING, dtype=np.int64)
        if die is not None:
            for m, milieu in enumerate(milieus):
                for camp in (0, 1):
                    faces = {**die.faces, **(die.milieus.get(milieu, {}) if milieu else {})}
                    if camp and "night_camp" in die.milieus:
                        faces.update(die.milieus["night_camp"])
                    for k in range(1, die.sides + 1):
                        self.faces[m, camp, k - 1] = _ACTS.get(faces[k].event, _NOTHING)
        self.milieu = np.array(
            [
                milieus.index(self.terrain[i]) if self.terrain.get(i) in milieus else 0
                for i in range(size)
            ],
            dtype=np.int64,
        )
        living = plan.party.living
        self.food = {item: each * len(living) for item, each in rules.rest.consumes.items()}
        supplies = plan.party.supplies
        self.start_counted = {item: supplies.count(item) for item in self.food}
        self.start_dice = {i: supplies.dice[i] for i in self.food if i in supplies.dice}
        self.weather_tables: dict[tuple[str, str], tuple[NDArray[np.float64], Idx]] = {}
        self.next_hops: dict[tuple[int, ...], int] = {}
        self.columns = [
            "days",
            "tp",
            "encounters",
            "good_encounters",
            "times_lost",
            "forages",
            *(f"{item}_used" for item in self.food),
            "arrived",
        ]

    def index(self, h: Hex) -> int:
        return h.row * self.width + h.col

    # --- lookups the runs share -----------------------------------------------------------

    def next_hop(self, position: int, weather: tuple[int, ...]) -> int:
        """The next hex of the engine's best route from ``position`` to the goal under this
        weather (the route is planned afresh at every step, as the engine does); -1 when no
        route is passable under it."""
        key = (position, *weather)
        hop = self.next_hops.get(key)
        if hop is None:
            try:
                route = best_route(
                    self.rules,
                    self.hexmap,
                    self.hexes[position],
                    self.plan.goal,
                    {r: self.states[w] for r, w in zip(self.regions, weather, strict=True)},
                    self.plan.travel_conditions,
                )
                hop = self.index(route.hexes[1])
            except IllegalCommandError:
                hop = -1  # no passable way today (snow): camp and wait for the weather
            self.next_hops[key] = hop
        return hop

    def season(self, day: int, spent: int) -> str:
        """The season at the moment ``spent`` units into travel day ``day``."""
        rules = self.rules
        seconds = rules.time.day_hours * 3600
        watch = rules.time.watch_hours * 3600
        now = day * seconds + (spent * watch) // self.unit
        month = date_at(now, rules.time).month
        return next(s for s, months in rules.weather.seasons.items() if month in months)

    def weather_table(self, climate: str, season: str) -> tuple[NDArray[np.float64], Idx] | None:
        key = (climate, season)
        if key not in self.weather_tables:
            table = self.rules.weather.tables.get(climate, {}).get(season)
            if table is None:
                return None
            ends: list[float] = []
            results: list[int] = []
            running = 0.0
            for total, chance in sorted(distribution(parse(table.dice)).items()):
                running += float(chance)
                ends.append(running)
                results.append(self.states.index(row_for(table, total).result))
            ends[-1] = 1.0
            self.weather_tables[key] = (np.array(ends), np.array(results, dtype=np.int64))
        return self.weather_tables[key]

    # --- one chunk ------------------------------------------------------------------------

    def fresh(self, n: int) -> _Runs:
        start = self.rules.weather.start
        zeros = np.zeros(n, dtype=np.int64)
        return _Runs(
            n=n,
            pos=np.full(n, self.index(self.plan.start), dtype=np.int64),
            spent=zeros.copy(),
            moved=zeros.copy(),
            pend_to=np.full(n, -1, dtype=np.int64),
            pend_cost=zeros.copy(),
            pend_paid=zeros.copy(),
            done_moments=zeros.copy(),
            lost_checked=np.zeros(n, dtype=bool),
            forage_owed=np.zeros(n, dtype=bool),
            weather=np.full((n, len(self.regions)), self.states.index(start), dtype=np.int64),
            day=zeros.copy(),
            finished=np.zeros(n, dtype=bool),
            counted={i: np.full(n, c, dtype=np.int32) for i, c in self.start_counted.items()},
            dice={i: np.full(n, s, dtype=np.int32) for i, s in self.start_dice.items()},
            out={name: zeros.copy() for name in self.columns},
        )

    def roll(self, r: _Runs, runs: Idx, camp: bool, rng: np.random.Generator) -> None:
        """The wilderness die for ``runs`` at a moment of the day or at the night camp."""
        if not self.sides or not runs.size:
            return
        faces = rng.integers(0, self.sides, runs.size)
        acts = self.faces[self.milieu[r.pos[runs]], int(camp), faces]
        r.out["encounters"][runs[acts == _MEET]] += 1
        r.out["good_encounters"][runs[acts == _GOOD]] += 1
        self.waning(r, runs[acts == _WANE], rng)
        for run in runs[acts == _WEATHER].tolist():
            self.new_weather(r, run, rng)

    def waning(self, r: _Runs, runs: Idx, rng: np.random.Generator) -> None:
        """TP-WENC-4 face 3: eat from the supplies if they suffice, else forage the next TP."""
        if not runs.size:
            return
        enough = np.ones(runs.size, dtype=bool)
        for item, need in self.food.items():
            if item in r.dice:  # a depleted usage die is an item the party has none of
                enough &= (r.dice[item][runs] > 0) | (need < 1)
            else:
                enough &= r.counted[item][runs] >= need
        r.forage_owed[runs[~enough]] = True
        eating = runs[enough]
        for item, need in self.food.items():
            if need < 1 or not eating.size:
                continue
            if item in r.dice:
                live = eating[r.dice[item][eating] > 0]
                chain = tuple(self.rules.usage_die)
                r.dice[item][live] = use_usage_dice(r.dice[item][live], chain, rng)
                r.out[f"{item}_used"][live] += 1
            else:
                r.counted[item][eating] -= need
                r.out[f"{item}_used"][eating] += need

    def new_weather(self, r: _Runs, run: int, rng: np.random.Generator) -> None:
        where = int(r.pos[run])
        found = self.weather_table(
            self.climate[where], self.season(int(r.day[run]), int(r.spent[run]))
        )
        if found is None:
            return  # the engine asks the referee to set it: nothing changes by itself
        ends, results = found
        r.weather[run, self.region[where]] = results[np.searchsorted(ends, rng.random())]

    def checks(self, r: _Runs, runs: Idx, before: Idx, rng: np.random.Generator) -> None:
        """TP-WENC-1/-2: the die at each moment of the schedule the TP spent crossed."""
        for bit, moment in enumerate(_MOMENTS):
            if moment not in self.schedule:
                continue
            mark = self.thresholds[moment]
            crossed = (before < mark) & (r.spent[runs] >= mark)
            crossed &= (r.done_moments[runs] >> bit) & 1 == 0
            hit = runs[crossed]
            r.done_moments[hit] |= 1 << bit
            self.roll(r, hit, False, rng)

    def step(self, r: _Runs, rng: np.random.Generator) -> None:
        """Every run still under way takes its next action."""
        there = (r.pos == self.index(self.plan.goal)) & (r.pend_to < 0)
        r.finished |= there
        r.out["arrived"][there] = 1
        r.finished |= r.day >= self.plan.max_days
        active = ~r.finished
        left = self.daily - r.spent
        camp = active & ((left <= 0) | (r.moved >= self.cap))
        forage = active & ~camp & r.forage_owed
        camp |= forage & (left < self.unit)
        forage &= ~camp
        runs = np.flatnonzero(forage)
        if runs.size:
            before = r.spent[runs].copy()
            r.spent[runs] += self.unit
            r.out["tp"][runs] += self.unit
            r.out["forages"][runs] += 1
            r.forage_owed[runs] = False
            self.checks(r, runs, before, rng)
        moving = active & ~camp & ~forage
        self.move(r, np.flatnonzero(moving), camp, rng)
        self.camp(r, np.flatnonzero(camp), rng)

    def move(self, r: _Runs, runs: Idx, camp: Bools, rng: np.random.Generator) -> None:
        if not runs.size:
            return
        pending = r.pend_to[runs] >= 0
        nxt = r.pend_to[runs].copy()
        cost = r.pend_cost[runs].copy()
        remaining = cost - r.pend_paid[runs]
        fresh = np.flatnonzero(~pending)
        if fresh.size:
            # Runs standing in the same hex under the same weather take the same next step.
            keys = np.column_stack([r.pos[runs[fresh]], r.weather[runs[fresh]]])
            unique, inverse = np.unique(keys, axis=0, return_inverse=True)
            hops = np.array(
                [self.next_hop(int(k[0]), tuple(int(w) for w in k[1:])) for k in unique]
            )
            nxt[fresh] = hops[inverse.reshape(-1)]
            stuck = np.flatnonzero(nxt < 0)
            if stuck.size:
                camp[runs[stuck]] = True
                keep = nxt >= 0
                runs, nxt, cost, remaining, pending = (
                    runs[keep],
                    nxt[keep],
                    cost[keep],
                    remaining[keep],
                    pending[keep],
                )
                fresh = np.flatnonzero(~pending)
        # TP-LOST-1: once a day, off road, no landmark in sight, a chance by terrain.
        if self.rules.lost.enabled and fresh.size:
            at = runs[fresh]
            chance = self.lost_chance[nxt[fresh]]
            checked = (
                ~r.lost_checked[at]
                & ~self.road[nxt[fresh]]
                & ~self.landmark[r.pos[at]]
                & (chance > 0)
            )
            r.lost_checked[at[checked]] = True
            lost = checked & (rng.integers(1, 7, fresh.size) <= chance)
            r.out["times_lost"][at[lost]] += 1
            side = np.where(rng.integers(1, 3, fresh.size) == 2, 1, -1)
            for j in np.flatnonzero(lost).tolist():
                run, k = int(at[j]), int(fresh[j])
                course = int(np.flatnonzero(self.neighbours[r.pos[run]] == nxt[k])[0])
                beside = int(self.neighbours[r.pos[run], (course + side[j]) % 6])
                if beside >= 0 and self.cost[beside, r.weather[run, self.region[beside]]] >= 0:
                    nxt[k] = beside
        if fresh.size:
            into = nxt[fresh]
            price = self.cost[into, r.weather[runs[fresh], self.region[into]]]
            cost[fresh] = remaining[fresh] = price
        left = self.daily - r.spent[runs]
        # TP-WIL-6: a move that would need a third day is not begun: camp, begin it fresh.
        wait = ~pending & (remaining > left + self.daily) & (left < self.daily)
        camp[runs[wait]] = True
        go = ~wait
        runs, nxt, cost, remaining, left = runs[go], nxt[go], cost[go], remaining[go], left[go]
        pay = np.minimum(left, remaining)
        before = r.spent[runs].copy()
        r.spent[runs] += pay
        r.out["tp"][runs] += pay
        arrived = pay == remaining
        r.pos[runs[arrived]] = nxt[arrived]
        r.moved[runs[arrived]] += 1
        r.pend_to[runs[arrived]] = -1
        r.pend_paid[runs[arrived]] = 0
        under_way = runs[~arrived]
        r.pend_paid[under_way] += pay[~arrived]
        r.pend_to[under_way] = nxt[~arrived]
        r.pend_cost[under_way] = cost[~arrived]
        self.checks(r, runs, before, rng)

    def camp(self, r: _Runs, runs: Idx, rng: np.random.Generator) -> None:
        """The night camp: its die, then a new travel day (TP-WIL-1)."""
        if not runs.size:
            return
        if "camp" in self.schedule:
            self.roll(r, runs, True, rng)
        r.day[runs] += 1
        r.spent[runs] = 0
        r.moved[runs] = 0
        r.done_moments[runs] = 0
        r.lost_checked[runs] = False

    def chunk(self, n: int, rng: np.random.Generator) -> Histograms:
        r = self.fresh(n)
        while not r.finished.all():
            self.step(r, rng)
        r.out["days"] = np.minimum(r.day + 1, self.plan.max_days)
        r.out["tp"] = np.ceil(r.out["tp"] / self.unit).astype(np.int64)
        return {name: np.bincount(r.out[name]) for name in self.columns}


def simulate_journey(
    plan: Journey,
    *,
    runs: int = 10_000,
    seed: int = 0,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
) -> JourneyOdds:
    """Walk ``runs`` journeys at once; ``progress`` is told how many are done per chunk."""
    check_bounds(runs, 1, seed)
    model = _Model(plan)
    total = in_chunks(model.chunk, runs, seed, chunk, progress)
    return JourneyOdds(
        ruleset=plan.ruleset.name,
        start=plan.start.label,
        goal=plan.goal.label,
        runs=runs,
        seed=seed,
        columns={name: total[name] for name in model.columns},
    )
