"""The designer's view of the world's months: many runs of the factions' month turns at once
(``simulate months``).

The model is the engine's month turn (:mod:`turnkeeper.procedures.factions`, TP-TIME-1's
"Faction Turn: 1 month", every number the ruleset's ``factions``) played for every run at
once. Each month each faction, in the file's order, rolls ``factions.roll`` with RESOURCES
the sum of its resources, and the table's row for the total says what it does:

* trouble: its goal's clock loses a segment (never below none);
* lie low: nothing;
* advance: its clock gains a segment; a full clock gains none (it lies low);
* expand: it seizes the first hex it covets that it does not hold, from its holder if one
  holds it (that faction holds it no longer);
* strike: its first rival (in the file's order of its rivals) with a filled segment loses one;
* with nothing to act on (nothing coveted left to seize, no rival with a segment to lose),
  it advances instead.

A faction acts on the world as the factions before it that month left it, so the runs are
arrays and the months and factions a loop. A goal is reached by a month when the faction's
clock has been full at some moment up to that month's end (the engine's "has reached its
goal"), or was full from the start; a clock may fall again later (trouble, a rival's strike),
and its goal stays reached. Every share comes with its standard error,
``sqrt(p (1 - p) / runs)``.

>>> from turnkeeper.rules.loader import preset
>>> from turnkeeper.world.factions import parse_factions
>>> world = parse_factions('''
... [[factions]]
... name = "Red Hand"
... goal = "rule the ford"
... segments = 4
... resources = { force = 2 }
... ''')
>>> odds = simulate_months(Months(preset("tp"), world, months=24), runs=2000, seed=1)
>>> odds.share(0, 1), odds.share(0, 24) > 0.9
(0.0, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from turnkeeper.analysis.expedition import Histograms, check_bounds, in_chunks
from turnkeeper.dice import parse
from turnkeeper.dice.sampling import sample
from turnkeeper.errors import IllegalCommandError
from turnkeeper.rules.schema import Ruleset
from turnkeeper.rules.schema.months import RESOURCES, FactionAct
from turnkeeper.world.factions import FactionsFile

__all__ = ["CHUNK", "MAX_MONTHS", "Months", "MonthsOdds", "milestones", "simulate_months"]

Ints = NDArray[np.int64]
Bools = NDArray[np.bool_]

#: The longest span simulated: a hundred years of month turns.
MAX_MONTHS = 1200
#: Runs worked on at once.
CHUNK = 16_384
#: The most rolls drawn at once (a block of months for every faction): about 32 MB.
_MOST_ROLLS = 1 << 22
#: The table's acts as numbers, for arrays.
_ACTS: dict[FactionAct, int] = {"trouble": 0, "lie_low": 1, "advance": 2, "expand": 3, "strike": 4}
_TROUBLE, _LIE_LOW, _ADVANCE, _EXPAND, _STRIKE = range(5)


@dataclass(frozen=True)
class Months:
    """One question: the rules, the world's factions, and how many month turns to play."""

    ruleset: Ruleset
    world: FactionsFile
    months: int = 120

    def __post_init__(self) -> None:
        if not 1 <= self.months <= MAX_MONTHS:
            raise IllegalCommandError(
                f"--months {self.months}: simulate from 1 to {MAX_MONTHS:,} months"
            )
        stray = sorted(parse(self.ruleset.factions.roll).names - {RESOURCES})
        if stray:
            raise IllegalCommandError(
                f"ruleset {self.ruleset.name!r}: factions.roll {self.ruleset.factions.roll!r} "
                f"names {stray[0]}; a faction's roll knows only {RESOURCES}, the sum of its "
                "resources"
            )


@dataclass(frozen=True)
class MonthsOdds:
    """What many runs of the months say: per faction and month, how many runs had reached the
    faction's goal by that month's end, and its clock's filled segments summed over the runs.
    Column 0 of each is the start, before any month turn."""

    ruleset: str
    factions: tuple[str, ...]
    goals: tuple[str, ...]
    segments: tuple[int, ...]
    months: int
    runs: int
    seed: int
    reached: Ints = field(repr=False)  # (factions, months + 1) counts of runs
    filled: Ints = field(repr=False)  # (factions, months + 1) filled segments, summed

    def share(self, faction: int, month: int) -> float:
        """The share of runs in which ``faction``'s goal was reached by ``month``'s end."""
        return float(self.reached[faction, month]) / self.runs

    def standard_error(self, faction: int, month: int) -> float:
        """The standard error of :meth:`share`: ``sqrt(p (1 - p) / runs)``."""
        p = self.share(faction, month)
        return float(np.sqrt(p * (1 - p) / self.runs))

    def shares(self, faction: int) -> NDArray[np.float64]:
        """The faction's share for every month, the start first (month 0)."""
        shares: NDArray[np.float64] = self.reached[faction] / self.runs
        return shares

    def half_by(self, faction: int) -> int | None:
        """The first month by which at least half the runs had reached the goal, if any."""
        over = np.flatnonzero(2 * self.reached[faction] >= self.runs)
        return int(over[0]) if over.size else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able, for ``--json``: per faction, its share for months 1 to ``months``, their
        standard errors and the mean filled segments at each month's end."""
        factions = []
        for i, name in enumerate(self.factions):
            shares = self.shares(i)[1:]
            errors = np.sqrt(shares * (1 - shares) / self.runs)
            factions.append(
                {
                    "name": name,
                    "goal": self.goals[i],
                    "segments": self.segments[i],
                    "reached_at_start": bool(self.reached[i, 0]),
                    "half_by": self.half_by(i),
                    "reached": [round(float(p), 6) for p in shares],
                    "standard_error": [round(float(e), 6) for e in errors],
                    "mean_filled": [round(float(s) / self.runs, 6) for s in self.filled[i, 1:]],
                }
            )
        return {
            "ruleset": self.ruleset,
            "months": self.months,
            "runs": self.runs,
            "seed": self.seed,
            "factions": factions,
        }


def milestones(months: int) -> list[int]:
    """The months a table shows of a span: about six, whole years once the span is six years
    or more, and always the last.

    >>> milestones(120), milestones(30), milestones(12), milestones(1)
    ([24, 48, 72, 96, 120], [5, 10, 15, 20, 25, 30], [2, 4, 6, 8, 10, 12], [1])
    """
    step = -(-months // 6)
    if months >= 72:
        step = -(-step // 12) * 12
    return sorted({*range(step, months + 1, step), months})


class _Model:
    """The month turn's numbers, read once from the ruleset and the factions file."""

    def __init__(self, plan: Months) -> None:
        self.plan = plan
        rules = plan.ruleset.factions
        self.expression = parse(rules.roll)
        self.tops = np.array([row.up_to for row in rules.table[:-1]], dtype=np.int64)
        self.acts = np.array([_ACTS[row.act] for row in rules.table], dtype=np.int64)
        factions = plan.world.factions
        self.count = len(factions)
        index = {f.name.casefold(): i for i, f in enumerate(factions)}
        self.modifiers = [f.modifier for f in factions]
        self.segments = np.array([f.segments for f in factions], dtype=np.int64)
        self.start = np.array([f.filled for f in factions], dtype=np.int64)
        labels = list(dict.fromkeys(h for f in factions for h in (*f.hexes, *f.covets)))
        place = {label: i for i, label in enumerate(labels)}
        self.holders = np.full(len(labels), -1, dtype=np.int64)
        for i, f in enumerate(factions):
            self.holders[[place[h] for h in f.hexes]] = i
        self.covets = [np.array([place[h] for h in f.covets], dtype=np.int64) for f in factions]
        self.rivals = [[index[r.casefold()] for r in f.rivals] for f in factions]

    def rolls(self, n: int, months: int, rng: np.random.Generator) -> Ints:
        """Every faction's totals for ``months`` months: shape (months, factions, n)."""
        drawn = np.empty((months, self.count, n), dtype=np.int64)
        for i, modifier in enumerate(self.modifiers):
            drawn[:, i, :] = sample(
                self.expression, months * n, rng, {RESOURCES: modifier}
            ).reshape(months, n)
        return drawn

    def chunk(self, n: int, rng: np.random.Generator) -> Histograms:
        months = self.plan.months
        filled = np.repeat(self.start[:, None], n, axis=1)  # (factions, n)
        holders = np.repeat(self.holders[:, None], n, axis=1)  # (hexes, n)
        reached = filled >= self.segments[:, None]
        counts = np.zeros((self.count, months + 1), dtype=np.int64)
        sums = np.zeros((self.count, months + 1), dtype=np.int64)
        counts[:, 0] = reached.sum(axis=1)
        sums[:, 0] = filled.sum(axis=1)
        block = max(1, _MOST_ROLLS // (self.count * n))
        for first in range(0, months, block):
            rolled = self.rolls(n, min(block, months - first), rng)
            acts = self.acts[np.searchsorted(self.tops, rolled, side="left")]
            for offset in range(rolled.shape[0]):
                for f in range(self.count):
                    self.act(f, acts[offset, f], filled, holders, reached)
                month = first + offset + 1
                counts[:, month] = reached.sum(axis=1)
                sums[:, month] = filled.sum(axis=1)
        return {"reached": counts.ravel(), "filled": sums.ravel()}

    def act(self, f: int, act: Ints, filled: Ints, holders: Ints, reached: Bools) -> None:
        """Faction ``f``'s month in every run, its table's ``act`` per run."""
        mine = filled[f]
        np.putmask(mine, (act == _TROUBLE) & (mine > 0), mine - 1)
        advance = act == _ADVANCE
        expand = act == _EXPAND
        if expand.any():
            covets = self.covets[f]
            open_ = holders[covets] != f  # (coveted, n): not its own yet
            has = open_.any(axis=0)
            seize = np.flatnonzero(expand & has)
            if seize.size:
                target = covets[open_[:, seize].argmax(axis=0)]
                holders[target, seize] = f
            advance |= expand & ~has
        strike = act == _STRIKE
        if strike.any():
            for r in self.rivals[f]:
                hit = strike & (filled[r] > 0)
                filled[r] -= hit
                strike &= ~hit
            advance |= strike
        np.putmask(mine, advance & (mine < self.segments[f]), mine + 1)
        reached[f] |= mine >= self.segments[f]


def simulate_months(
    plan: Months,
    *,
    runs: int = 10_000,
    seed: int = 0,
    chunk: int = CHUNK,
    progress: Callable[[int], None] | None = None,
) -> MonthsOdds:
    """Play ``plan.months`` month turns in ``runs`` worlds at once (in chunks of ``chunk``);
    ``progress`` is told how many runs are done. The same seed and chunk give the same
    figures."""
    check_bounds(runs, 1, seed)
    model = _Model(plan)
    total = in_chunks(model.chunk, runs, seed, chunk, progress)
    shape = (model.count, plan.months + 1)
    factions = plan.world.factions
    return MonthsOdds(
        ruleset=plan.ruleset.name,
        factions=tuple(f.name for f in factions),
        goals=tuple(f.goal for f in factions),
        segments=tuple(f.segments for f in factions),
        months=plan.months,
        runs=runs,
        seed=seed,
        reached=total["reached"].reshape(shape),
        filled=total["filled"].reshape(shape),
    )
