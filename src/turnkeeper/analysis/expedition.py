"""The designer's view of a delve: many expeditions into a site at once (``simulate expedition``).

The model is the engine's site turn played out by a referee with one plain policy, every
number read from the ruleset, the party file and the site:

* Before each command the encounter met last is over (fought, if ``fights``: a rest falls
  due at once, EX-REST-2), a party in darkness lights the first light source of the ruleset
  it has the supply for, and a party whose rest is due rests (``rest_turns`` turns) unless
  it pushes on (``rests=False``); otherwise it takes a turn at its movement mode (EX-MOV-1).
* A turn under the overloaded die (TP-DUN-1, TP-DUN-2): a face at the turn's start; an
  encounter; waning resources relight the burning light from its supply or leave darkness
  (TP-ENC-1 face 4, TP-ENC-2); forced rest eats food and water per living character and
  the turn is a rest (TP-ENC-1 face 3). Classic (EX-ENC-1, EX-ENC-4): a wandering check on
  every ``check_every_turns``-th site turn at the mode's chance, if the site has them.
* Each turn's end: a light with fixed turns burns one down and goes out at 0 (EX-LIGHT-1,
  EX-LIGHT-2); a rest falls due after ``active_turns`` (EX-REST-1) or a turn of running
  (EX-REST-2); a turn ending a turn after a rest fell due wearies the party (EX-REST-3).
* Resting turns still run the site's check at the base chance, the party standing still;
  an encounter breaks the rest, which stays due.
* Surprise by the ruleset's method (EX-SUR-1 to EX-SUR-4, PG-SUR-1, CB-SUR-1): the row met
  on the level's encounter table gives the foes' stealth and whether they lurk in darkness
  (EX-LIGHT-3).

Runs step through the span together, one turn of game time per step, as numpy arrays;
runs are worked on in chunks so memory stays bounded, and every column is kept as a
histogram (whole numbers), so a summary is exact for the runs made. A multi-turn action
still under way when the span ends is cut at the span. A forced rest met while resting
eats its food and water but adds no turns of its own.

>>> from pathlib import Path
>>> from turnkeeper.kernel.party import load_party
>>> from turnkeeper.rules.loader import preset
>>> from turnkeeper.world.sites import load_site
>>> delve = Expedition(preset("ex"), load_party("examples/party.toml"),
...                    load_site("examples/site.toml"), mode="cautious", turns=18)
>>> odds = simulate_expedition(delve, runs=1000, seed=1)
>>> odds.summary("torches_used")["mean"], odds.summary("dark_turns")["mean"]
(6.0, 0.0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
from numpy.typing import NDArray

from turnkeeper.dice import parse
from turnkeeper.dice.exact import distribution, quartiles
from turnkeeper.dice.sampling import sample
from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.files.names import check_seed
from turnkeeper.kernel.party import Party
from turnkeeper.procedures.dungeon.wandering import wandering_chance
from turnkeeper.procedures.surprise import check_dice_for, pace_surprise
from turnkeeper.rules.schema import FaceEvent, MovementMode, Ruleset
from turnkeeper.world.sites import Site

__all__ = [
    "CHUNK",
    "MAX_RUNS",
    "MAX_TURNS",
    "Expedition",
    "ExpeditionOdds",
    "Histograms",
    "State",
    "check_bounds",
    "column_data",
    "in_chunks",
    "simulate_expedition",
    "summarise",
    "use_usage_dice",
]

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]
#: A run's state and tallies: 32 bits hold any count a span of turns can reach, in half the
#: memory traffic of 64 (the simulator is bound by memory, not by arithmetic).
State = NDArray[np.int32]

#: The most runs one simulation makes: enough for any table, small enough to finish.
MAX_RUNS = 10_000_000
#: The longest span in turns: about 70 days of 10-minute turns.
MAX_TURNS = 10_000
#: Runs worked on at once: a few dozen arrays of this size stay in the cache (measured best).
CHUNK = 16_384
#: The faces of the dungeon die a delve acts on; the others change nothing it counts.
_ACTED_ON = (FaceEvent.ENCOUNTER, FaceEvent.WANING_RESOURCES, FaceEvent.FORCED_REST)
#: A light with no fixed turns burns until a face puts it out (TP-ENC-2).
_FOREVER = np.iinfo(np.int32).max // 2


def check_bounds(runs: int, turns: int, seed: int = 0) -> None:
    """One clear error naming the limit, for runs, turns and seeds out of bounds."""
    check_seed(seed, "--seed", IllegalCommandError)
    if not 1 <= runs <= MAX_RUNS:
        raise IllegalCommandError(f"--runs {runs}: simulate from 1 to {MAX_RUNS:,} runs")
    if not 1 <= turns <= MAX_TURNS:
        raise IllegalCommandError(f"--turns {turns}: simulate from 1 to {MAX_TURNS:,} turns")


@dataclass(frozen=True)
class Expedition:
    """One delve: the rules, the party, the site and level, the pace and the span in turns."""

    ruleset: Ruleset
    party: Party
    site: Site
    level: int | None = None
    mode: str | None = None
    turns: int = 18
    rests: bool = True
    fights: bool = False
    """Every encounter is fought (else the party parleys or slips away): a fight makes a
    rest due at once (EX-REST-2)."""

    def __post_init__(self) -> None:
        self.mode_name  # noqa: B018 - an unknown mode is one clear error before any run

    @property
    def mode_name(self) -> str | None:
        """The movement mode walked: the one asked for, else the ruleset's first."""
        modes = self.ruleset.dungeon.movement
        if self.mode is None:
            return next(iter(modes), None)
        if self.mode not in modes:
            known = ", ".join(modes) or "none"
            raise NotFoundError(
                f"--mode {self.mode}: ruleset {self.ruleset.name!r} has no such movement mode; "
                f"modes: {known}"
            )
        return self.mode


#: Per-column histograms: ``counts[k]`` runs ended with the value ``k``.
Histograms = dict[str, Ints]


def summarise(counts: Ints) -> dict[str, Any]:
    """Mean, quartiles, least and most of a histogram of whole numbers."""
    runs = int(counts.sum())
    values = np.flatnonzero(counts)
    shares = {int(v): Fraction(int(counts[v]), runs) for v in values}
    low, middle, high = quartiles(shares)
    return {
        "mean": round(float((np.arange(counts.size) * counts).sum() / runs), 6),
        "lower_quartile": low,
        "median": middle,
        "upper_quartile": high,
        "least": int(values[0]),
        "most": int(values[-1]),
    }


class ColumnOdds:
    """Many runs' histograms, one per column, as a simulator gives them back."""

    runs: int
    columns: Histograms

    def summary(self, column: str) -> dict[str, Any]:
        """The column's mean, quartiles, least and most."""
        return summarise(self.columns[column])

    def shares(self, column: str) -> dict[int, Fraction]:
        """The column's histogram as shares of the runs, for a plot."""
        counts = self.columns[column]
        return {int(v): Fraction(int(counts[v]), self.runs) for v in np.flatnonzero(counts)}


@dataclass(frozen=True)
class ExpeditionOdds(ColumnOdds):
    """What many expeditions say: a histogram per column (encounters, torches used...)."""

    ruleset: str
    mode: str | None
    turns: int
    turn_minutes: int
    runs: int
    seed: int
    columns: Histograms = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able, for ``--json``: every column's summary and histogram."""
        return {
            "ruleset": self.ruleset,
            "mode": self.mode,
            "turns": self.turns,
            "turn_minutes": self.turn_minutes,
            "runs": self.runs,
            "seed": self.seed,
            "columns": column_data(self.columns),
        }


def use_usage_dice(sides: State, chain: tuple[int, ...], rng: np.random.Generator) -> State:
    """PG-USE-1 for many resources at once: each die (0 is depleted) is rolled and steps down
    the chain on a 1 or 2; depleted resources stay depleted."""
    rolled = (rng.random(sides.size) * np.maximum(sides, 1)).astype(np.int64) + 1
    down = (sides > 0) & (rolled <= 2)
    smaller = np.array([*chain[1:], 0], dtype=np.int64)
    position = np.searchsorted(-np.array(chain), -sides)  # chain is largest first
    stepped = smaller[np.minimum(position, len(chain) - 1)]
    return np.where(down, stepped, sides).astype(sides.dtype)


@dataclass
class _Runs:
    """The state of a chunk of expeditions, one entry per run."""

    n: int
    light: State  # index of the burning source, -1 in darkness
    light_left: State
    counted: dict[str, State]
    dice: dict[str, State]
    site_turns: State
    resting: State  # turns of a rest still to come (the policy's rest, with checks)
    forced: State  # further turns of a forced rest (no checks)
    due: Bools
    due_at: State
    active_since: State
    wearied: Bools
    out: dict[str, State]


@dataclass(frozen=True)
class _Table:
    """A level's encounter table as arrays: each row's share of the chance, the foes' stealth."""

    cumulative: NDArray[np.float64]  # where each row's share of [0, 1) ends
    stealth: Ints


def _encounter_table(site: Site, level: int | None) -> _Table | None:
    number = site.levels[0].number if level is None else level
    table = site.level(number).encounters
    if table is None:
        return None  # the engine notes "the referee improvises": no encounter to count
    chances = np.zeros(len(table.rows))
    for total, chance in distribution(parse(table.dice)).items():
        chances[table.rows.index(table.row_for(total))] += float(chance)
    ends = np.cumsum(chances / chances.sum())
    ends[-1] = 1.0  # the last row ends exactly at 1, whatever the rounding
    return _Table(
        cumulative=ends,
        stealth=np.array([row.stealth for row in table.rows], dtype=np.int64),
    )


class _Model:
    """The expedition's numbers, read once from the ruleset, the party and the site."""

    def __init__(self, plan: Expedition) -> None:
        rules = plan.ruleset
        self.plan = plan
        self.rules = rules
        self.mode_name = plan.mode_name
        self.mode: MovementMode | None = (
            rules.dungeon.movement[self.mode_name] if self.mode_name else None
        )
        self.sources = list(rules.light.sources.values())
        self.fixed_turns = [
            s.turns if rules.light.burns == "turns" and s.turns is not None else _FOREVER
            for s in self.sources
        ]
        self.burns_down = any(turns < _FOREVER for turns in self.fixed_turns)
        running = self.mode is not None and self.mode.rest_after and rules.rest.after_running
        # Without a cadence or running no rest ever falls due: nothing to watch each turn.
        self.fought = plan.fights and rules.rest.after_fight
        self.rests_fall_due = rules.rest.active_turns is not None or running or self.fought
        self.overloaded = rules.dungeon.procedure == "overloaded"
        if self.overloaded:
            die = rules.dice[rules.dungeon.die]
            self.faces = [die.faces[k].event for k in range(1, die.sides + 1)]
        self.table = _encounter_table(plan.site, plan.level)
        self.wandering = plan.site.site.wandering
        living = plan.party.living
        surprise = rules.surprise
        # The keenest member's WIS/Scout, a skill check: lower when wearied (EX-REST-3).
        self.notice = np.array(
            [
                max((c.stats.get(surprise.notice_stat, 0) + penalty for c in living), default=0)
                for penalty in (0, rules.rest.wearied_skill)
            ],
            dtype=np.int64,
        )
        self.eaters = len(living)
        self.check_dice = parse(check_dice_for(surprise))
        supplies = plan.party.supplies
        self.supply_items = list(
            dict.fromkeys([*supplies.counted, *(s.supply for s in self.sources)])
        )
        self.start_counted = {item: supplies.count(item) for item in self.supply_items}
        self.food = {item: each * self.eaters for item, each in rules.rest.consumes.items()}
        self.start_dice = {item: supplies.dice[item] for item in self.food if item in supplies.dice}
        self.columns = [
            "encounters",
            "surprised",
            *dict.fromkeys(f"{s.supply}_used" for s in self.sources),
            "dark_turns",
            "rests",
            "wearied_turns",
            *(f"{item}_left" for item in self.supply_items),
            *(f"{item}_die" for item in self.start_dice),
        ]

    # --- one chunk of runs -------------------------------------------------------------------

    def fresh(self, n: int) -> _Runs:
        zeros = np.zeros(n, dtype=np.int32)
        return _Runs(
            n=n,
            light=np.full(n, -1, dtype=np.int32),
            light_left=zeros.copy(),
            counted={item: np.full(n, c, dtype=np.int32) for item, c in self.start_counted.items()},
            dice={item: np.full(n, s, dtype=np.int32) for item, s in self.start_dice.items()},
            site_turns=zeros.copy(),
            resting=zeros.copy(),
            forced=zeros.copy(),
            due=np.zeros(n, dtype=bool),
            due_at=zeros.copy(),
            active_since=zeros.copy(),
            wearied=np.zeros(n, dtype=bool),
            out={name: zeros.copy() for name in self.columns},
        )

    def light_up(self, r: _Runs, who: Ints, source: int) -> None:
        """Light ``source`` for the runs numbered in ``who`` (their supply was checked).

        Events touch few runs a turn: they are worked on by run number, not by mask."""
        if not who.size:
            return
        supply = self.sources[source].supply
        r.counted[supply][who] -= 1
        r.out[f"{supply}_used"][who] += 1
        r.light[who] = source
        r.light_left[who] = self.fixed_turns[source]

    def relight_dark(self, r: _Runs, free: Bools) -> None:
        """The policy: a party in darkness lights the first source it has the supply for."""
        dark = np.flatnonzero(free & (r.light < 0))
        for index, source in enumerate(self.sources):
            if not dark.size:
                return
            can = r.counted[source.supply][dark] >= 1
            self.light_up(r, dark[can], index)
            dark = dark[~can]

    def waning(self, r: _Runs, who: Bools) -> None:
        """TP-ENC-1 face 4: the burning light goes out and is relit from its own supply."""
        runs = np.flatnonzero(who)
        for index, source in enumerate(self.sources):
            burning = runs[r.light[runs] == index]
            has = r.counted[source.supply][burning] >= 1
            self.light_up(r, burning[has], index)
            r.light[burning[~has]] = -1

    def eat(self, r: _Runs, who: Bools, rng: np.random.Generator) -> None:
        """TP-ENC-1 face 3: food and water for every living character; short is short."""
        runs = np.flatnonzero(who)
        for item, amount in self.food.items():
            if amount < 1 or not runs.size:
                continue
            if item in r.dice:
                chain = tuple(self.rules.usage_die)
                r.dice[item][runs] = use_usage_dice(r.dice[item][runs], chain, rng)
            elif item in r.counted:
                r.counted[item][runs] = np.maximum(r.counted[item][runs] - amount, 0)

    def meet(
        self,
        r: _Runs,
        who: Bools,
        mode: MovementMode | None,
        rng: np.random.Generator,
        still: bool = False,
    ) -> Bools:
        """An encounter for the runs in ``who``: counted, and whether it surprises the party.
        ``still``: the party rests where it is (the ruleset's ``surprise.at_rest``).
        Returns the runs that met one (none without an encounter table)."""
        if self.table is None or not who.any():
            return np.zeros(r.n, dtype=bool)
        index = np.flatnonzero(who)
        r.out["encounters"][index] += 1
        rules = self.rules.surprise
        m = index.size
        kind = pace_surprise(rules, mode, still)
        if rules.method == "movement" and kind != "risk":
            if kind == "always":  # EX-SUR-3
                r.out["surprised"][index] += 1
            return who  # EX-SUR-1: a cautious party is not surprised by wanderers
        if rules.method == "in_six":  # PG-SUR-1: the party is never aware of wanderers
            surprised = rng.integers(1, 7, m) <= rules.chance_in_six
        else:  # EX-SUR-2, EX-SUR-4, CB-SUR-1: the foes' stealth against the party's keenest
            row = np.searchsorted(self.table.cumulative, rng.random(m), side="right")
            sneak = sample(self.check_dice, m, rng) + self.table.stealth[row]
            spot = sample(self.check_dice, m, rng) + self.notice[r.wearied[index].astype(np.int64)]
            surprised = sneak > spot
        r.out["surprised"][index] += surprised
        return who

    def face_masks(self, who: Bools, rng: np.random.Generator) -> dict[FaceEvent, Bools]:
        """The dungeon die for the runs in ``who``: which of them shows each event the
        delve acts on (encounter, waning resources, forced rest)."""
        faces = rng.integers(0, len(self.faces), who.size, dtype=np.int8)
        masks: dict[FaceEvent, Bools] = {}
        for event in _ACTED_ON:
            numbers = [n for n, e in enumerate(self.faces) if e is event]
            mask = np.zeros(who.size, dtype=bool)
            for number in numbers:
                mask |= faces == number
            masks[event] = mask & who
        return masks

    def step(self, r: _Runs, now: int, rng: np.random.Generator) -> None:
        """One turn of game time, from ``now`` to ``now + 1`` turns, for every run."""
        rest_rules = self.rules.rest
        free = (r.resting == 0) & (r.forced == 0)
        self.relight_dark(r, free)
        starting = free & r.due if self.plan.rests else np.zeros(r.n, dtype=bool)
        np.putmask(r.resting, starting, rest_rules.rest_turns)
        turning = free & ~starting
        r.out["dark_turns"] += r.light < 0
        r.out["wearied_turns"] += r.wearied
        in_rest = r.resting > 0
        in_forced = r.forced > 0
        # The turn's own check, at the turn's start, with the light as it is.
        forced_now = met = np.zeros(r.n, dtype=bool)
        r.site_turns += turning
        if self.overloaded:
            face = self.face_masks(turning, rng)
            none = np.zeros(r.n, dtype=bool)
            met = self.meet(r, face.get(FaceEvent.ENCOUNTER, none), self.mode, rng)
            self.waning(r, face.get(FaceEvent.WANING_RESOURCES, none))
            forced_now = face.get(FaceEvent.FORCED_REST, none)
            self.eat(r, forced_now, rng)
            np.putmask(r.forced, forced_now, rest_rules.rest_turns)
        elif self.wandering:
            due = turning & (r.site_turns % self.rules.dungeon.check_every_turns == 0)
            chance = wandering_chance(self.rules.dungeon, self.mode_name)
            hit = due & (rng.integers(1, self.rules.dungeon.check_die + 1, r.n) <= chance)
            met = self.meet(r, hit, self.mode, rng)
        # The turn's end: the light burns down first (EX-LIGHT-1, EX-LIGHT-2).
        if self.burns_down:
            burning = r.light >= 0
            r.light_left -= burning
            np.putmask(r.light, burning & (r.light_left <= 0), -1)
        # A resting party's turn: the site's check at the base chance, standing still.
        met = met | self.rest_turn(r, in_rest, now, rng)
        # A forced rest's turns pass without checks; it ends rested.
        forced_any = in_forced | forced_now
        r.forced -= forced_any
        done = forced_any & (r.forced == 0)
        self.rested(r, done, now + 1)
        if not self.rests_fall_due:
            return
        # The rest cadence and weariness, for parties not resting (EX-REST-1, EX-REST-3).
        watched = ~(in_rest | forced_any)
        if rest_rules.active_turns is not None:
            falls = watched & ~r.due & (now + 1 - r.active_since >= rest_rules.active_turns)
        else:
            falls = np.zeros(r.n, dtype=bool)
        tired = watched & r.due & (now + 1 >= r.due_at + 1)
        r.wearied |= tired
        np.putmask(r.due_at, falls, now + 1)
        r.due |= falls
        # EX-REST-2: a turn of running makes a rest due at once, after the turn; a turn the
        # die made a forced rest was spent standing still.
        if self.mode is not None and self.mode.rest_after and rest_rules.after_running:
            ran = turning & ~forced_now
            np.putmask(r.due_at, ran & ~r.due, now + 1)
            r.due |= ran
        # EX-REST-2: the encounter is fought, and a fight makes a rest due at once after it.
        if self.fought:
            np.putmask(r.due_at, met & ~r.due, now + 1)
            r.due |= met

    def rest_turn(self, r: _Runs, who: Bools, now: int, rng: np.random.Generator) -> Bools:
        """A turn of the policy's rest: the site turn is counted and checked; an encounter
        breaks the rest (it stays due), else the rest's last turn ends it. Returns the runs
        that met an encounter."""
        met = np.zeros(r.n, dtype=bool)
        if not who.any():
            return met
        r.site_turns += who
        if self.overloaded:
            face = self.face_masks(who, rng)
            none = np.zeros(r.n, dtype=bool)
            met = self.meet(r, face.get(FaceEvent.ENCOUNTER, none), None, rng, still=True)
            self.waning(r, face.get(FaceEvent.WANING_RESOURCES, none))
            self.eat(r, face.get(FaceEvent.FORCED_REST, none), rng)
        elif self.wandering:
            every = self.rules.dungeon.check_every_turns
            due = who & (r.site_turns % every == 0)
            chance = wandering_chance(self.rules.dungeon, None)
            hit = due & (rng.integers(1, self.rules.dungeon.check_die + 1, r.n) <= chance)
            met = self.meet(r, hit, None, rng, still=True)
        r.resting -= who
        np.putmask(r.resting, met, 0)
        self.rested(r, who & ~met & (r.resting == 0), now + 1)
        return met

    def rested(self, r: _Runs, who: Bools, at: int) -> None:
        runs = np.flatnonzero(who)
        r.out["rests"][runs] += 1
        r.wearied[runs] = False
        r.due[runs] = False
        r.active_since[runs] = at

    def chunk(self, n: int, rng: np.random.Generator) -> Histograms:
        r = self.fresh(n)
        for now in range(self.plan.turns):
            self.step(r, now, rng)
        for item in self.supply_items:
            r.out[f"{item}_left"] = r.counted[item]
        for item in self.start_dice:
            r.out[f"{item}_die"] = r.dice[item]
        return {name: np.bincount(r.out[name]) for name in self.columns}


def _merge(total: Histograms, part: Mapping[str, Ints]) -> None:
    for name, counts in part.items():
        have = total.get(name)
        if have is None:
            total[name] = counts.copy()
            continue
        size = max(have.size, counts.size)
        merged = np.zeros(size, dtype=np.int64)
        merged[: have.size] += have
        merged[: counts.size] += counts
        total[name] = merged


def in_chunks(
    work: Callable[[int, np.random.Generator], Histograms],
    runs: int,
    seed: int,
    chunk: int,
    progress: Callable[[int], None] | None = None,
) -> Histograms:
    """``work(size, rng)`` over the runs in chunks of ``chunk``, its histograms added up;
    each chunk has its own generator from the seed and the chunk's number, so the same seed
    and chunk give the same figures. ``progress`` is told how many runs are done."""
    total: Histograms = {}
    done = 0
    while done < runs:
        size = min(chunk, runs - done)
        _merge(total, work(size, np.random.default_rng([seed, done // chunk])))
        done += size
        if progress is not None:
            progress(done)
    return total


def column_data(columns: Mapping[str, Ints]) -> dict[str, Any]:
    """Every column's summary and histogram, for ``--json``."""
    return {
        name: {
            **summarise(counts),
            "histogram": {str(int(v)): int(counts[v]) for v in np.flatnonzero(counts)},
        }
        for name, counts in columns.items()
    }


def simulate_expedition(
    plan: Expedition,
    *,
    runs: int = 10_000,
    seed: int = 0,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
) -> ExpeditionOdds:
    """Run ``runs`` expeditions at once (in chunks of ``chunk``); ``progress`` is told how
    many runs are done after each chunk. The same seed and chunk give the same figures."""
    check_bounds(runs, plan.turns, seed)
    model = _Model(plan)
    total = in_chunks(model.chunk, runs, seed, chunk, progress)
    return ExpeditionOdds(
        ruleset=plan.ruleset.name,
        mode=model.mode_name,
        turns=plan.turns,
        turn_minutes=plan.ruleset.time.turn_minutes,
        runs=runs,
        seed=seed,
        columns={name: total[name] for name in model.columns},
    )
