"""The factions' months benchmark (``simulate months``): every figure is a ratio against a
baseline measured in the same run, or a rate on this machine.

    .venv/bin/python bench/months.py [--months 120] [--runs 20000]

The question is three factions of a world (the shipped examples/factions.toml: hexes coveted
by two, rivals who strike) over ``--months`` month turns under tp.

- worlds/s of ``simulate_months`` (numpy over runs) against a plain-Python loop of the same
  model, written here from the rule's text, one world at a time, rolling with the engine's
  roller. Target: at least 10x.
- the two agree: each faction's share of worlds with its goal reached by month 12, within
  4 combined standard errors (a check that the loop is the model, not a timing: the loop's
  few hundred worlds are a small sample, and 3 errors are passed by chance now and then).

Ctrl-C stops cleanly: the figures measured so far are printed, and the exit code is 130.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from importlib.resources import files

from targets import report, verdict  # bench/targets.py, beside this script
from turnkeeper.analysis.months import MAX_MONTHS, Months, MonthsOdds, simulate_months
from turnkeeper.dice import SeededDice, roll
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema.months import RESOURCES
from turnkeeper.world.factions import FactionsFile, parse_factions

WORLD = files("turnkeeper.examples").joinpath("factions.toml").read_text(encoding="utf-8")
CHECKED_MONTH = 12


def plain_world(plan: Months, dice: SeededDice) -> list[int]:
    """One world's months, as the rule's text says them: the month each faction's goal was
    first reached (0: full from the start; past the span: never)."""
    rules = plan.ruleset.factions
    factions = plan.world.factions
    filled = {f.name: f.filled for f in factions}
    hexes = {f.name: set(f.hexes) for f in factions}
    named = {f.name.casefold(): f.name for f in factions}
    reached = {f.name: 0 if f.goal_reached else plan.months + 1 for f in factions}
    for month in range(1, plan.months + 1):
        for f in factions:
            act = rules.act_for(roll(rules.roll, dice, {RESOURCES: f.modifier}).total)
            if act == "trouble":
                filled[f.name] = max(0, filled[f.name] - 1)
                continue
            if act == "lie_low":
                continue
            if act == "expand":
                target = next((h for h in f.covets if h not in hexes[f.name]), None)
                if target is not None:
                    for held in hexes.values():
                        held.discard(target)
                    hexes[f.name].add(target)
                    continue
            if act == "strike":
                rival = next(
                    (named[r.casefold()] for r in f.rivals if filled[named[r.casefold()]] > 0), None
                )
                if rival is not None:
                    filled[rival] -= 1
                    continue
            # advance, or nothing to act on: advance
            if filled[f.name] < f.segments:
                filled[f.name] += 1
                if filled[f.name] == f.segments:
                    reached[f.name] = min(reached[f.name], month)
    return [reached[f.name] for f in factions]


def plain_rate(plan: Months, runs: int) -> tuple[float, list[float]]:
    """Worlds/s of the plain loop, and each faction's share reached by the checked month."""
    dice = SeededDice(1)
    start = time.perf_counter()
    firsts = [plain_world(plan, dice) for _ in range(runs)]
    rate = runs / (time.perf_counter() - start)
    shares = [sum(w[i] <= CHECKED_MONTH for w in firsts) / runs for i in range(len(firsts[0]))]
    return rate, shares


def ours_rate(plan: Months, runs: int, repeat: int = 3) -> tuple[float, MonthsOdds]:
    best = float("inf")
    for attempt in range(repeat):
        start = time.perf_counter()
        odds = simulate_months(plan, runs=runs, seed=attempt)
        best = min(best, time.perf_counter() - start)
    return runs / best, odds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--months", type=int, default=120, help="month turns of each world")
    parser.add_argument("--runs", type=int, default=20_000, help="worlds of the simulator")
    args = parser.parse_args()
    if not 1 <= args.months <= MAX_MONTHS:
        parser.error(f"--months {args.months}: from 1 to {MAX_MONTHS:,}")
    if args.months < CHECKED_MONTH:
        parser.error(f"--months {args.months}: at least {CHECKED_MONTH}, the month checked")
    world: FactionsFile = parse_factions(WORLD)
    plan = Months(preset("tp"), world, args.months)
    plain_runs = max(100, args.runs // 50)
    print(f"{len(world.factions)} factions over {args.months} months under tp")
    try:
        plain, plain_shares = plain_rate(plan, plain_runs)
        ours, odds = ours_rate(plan, args.runs)
        report(
            "simulator / plain-Python loop",
            f"{ours / plain:.1f}x ({ours:,.0f}/s)",
            ours >= 10 * plain,
            ">= 10x",
        )
        gaps = []
        for i, share in enumerate(plain_shares):
            fast = odds.share(i, CHECKED_MONTH)
            pooled = (fast * odds.runs + share * plain_runs) / (odds.runs + plain_runs)
            spread = math.sqrt(pooled * (1 - pooled) * (1 / odds.runs + 1 / plain_runs))
            gaps.append(abs(fast - share) / spread if spread else 0.0)
            said = f"{odds.factions[i]} by month {CHECKED_MONTH}"
            print(f"  ({said}: plain {share:.3f}, simulator {fast:.3f})")
        report(
            f"agreement by month {CHECKED_MONTH} (standard errors)",
            f"{max(gaps):.2f}",
            max(gaps) <= 4,
            "<= 4",
        )
    except KeyboardInterrupt:
        print("\ninterrupted: the figures above are all that was measured")
        return 130
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
