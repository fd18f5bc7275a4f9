"""Expedition simulation benchmark: every figure is a ratio against a baseline measured in the
same run, or a time on this machine.

    .venv/bin/python bench/simulate.py [--runs 1000000]

The question is a 3-hour delve (18 turns) under tp into the example site with the example
party (``examples/site.toml``, ``examples/party.toml``).

- expeditions/s of ``simulate_expedition`` (numpy over runs) against a plain-Python loop of
  the same model, written here, one expedition at a time. Target: at least 10x.
- the same against direct numpy sampling of the simplest sub-question, the turn the third
  torch is spent (the dungeon die for every turn of every run drawn at once, the waning
  faces counted). Target: within 3x of it (ours / direct >= 1/3).
- 1,000,000 expeditions of 18 turns, with a progress bar. Target: under 10 s.

Ctrl-C stops cleanly: the figures measured so far are printed, and the exit code is 130.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

from targets import report, verdict  # bench/targets.py, beside this script
from turnkeeper.analysis.expedition import (
    _ACTED_ON,
    MAX_RUNS,
    Expedition,
    _Model,
    simulate_expedition,
)
from turnkeeper.dice import SeededDice, roll
from turnkeeper.dice.usage import UsageDie
from turnkeeper.kernel.party import load_party
from turnkeeper.procedures.dungeon.wandering import wandering_chance
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import FaceEvent
from turnkeeper.world.sites import load_site

ROOT = Path(__file__).resolve().parent.parent
TURNS = 18


def plan() -> Expedition:
    rules = preset("tp")
    party = load_party(ROOT / "examples" / "party.toml", rules)
    return Expedition(rules, party, load_site(ROOT / "examples" / "site.toml"), turns=TURNS)


def plain_expedition(m: _Model, rand: Callable[[], float], dice: SeededDice) -> Counter[str]:
    """One expedition of the simulator's model, as a plain loop (the model's numbers are read
    from the same ``_Model``, so only the implementation differs)."""
    rest_rules = m.rules.rest
    light, left = -1, 0
    counted = dict(m.start_counted)
    usage = dict(m.start_dice)
    site_turns = resting = forced = due_at = since = 0
    due = wearied = False
    out: Counter[str] = Counter()

    def light_up(source: int) -> None:
        nonlocal light, left
        supply = m.sources[source].supply
        counted[supply] -= 1
        out[f"{supply}_used"] += 1
        light, left = source, m.fixed_turns[source]

    def meet(mode_surprise: str) -> None:
        out["encounters"] += 1
        if m.rules.surprise.method == "movement" and mode_surprise != "risk":
            out["surprised"] += mode_surprise == "always"
            return
        if m.rules.surprise.method == "in_six":
            out["surprised"] += int(rand() * 6) + 1 <= m.rules.surprise.chance_in_six
            return
        assert m.table is not None
        row = bisect_right(list(m.table.cumulative), rand())
        sneak = roll(str(m.check_dice), dice).total + int(m.table.stealth[row])
        spot = roll(str(m.check_dice), dice).total + int(m.notice[int(wearied)])
        out["surprised"] += sneak > spot

    def waning() -> None:
        nonlocal light
        if light < 0:
            return
        if counted[m.sources[light].supply] >= 1:
            light_up(light)
        else:
            light = -1

    def eat() -> None:
        for item, amount in m.food.items():
            if amount < 1:
                continue
            if item in usage:
                sides = usage[item]
                if sides:
                    chain = tuple(m.rules.usage_die)
                    usage[item] = UsageDie(sides, chain).use(dice)[0].sides or 0
            elif item in counted:
                counted[item] = max(counted[item] - amount, 0)

    def rested(at: int) -> None:
        nonlocal wearied, due, since
        out["rests"] += 1
        wearied = due = False
        since = at

    acted = (
        {e: [n for n, f in enumerate(m.faces) if f is e] for e in _ACTED_ON} if m.overloaded else {}
    )
    mode_kind = m.mode.surprise if m.mode is not None else "risk"
    chance = wandering_chance(m.rules.dungeon, m.mode_name)
    base = wandering_chance(m.rules.dungeon, None)
    every = m.rules.dungeon.check_every_turns
    for now in range(m.plan.turns):
        free = resting == 0 and forced == 0
        if free and light < 0:
            for index, source in enumerate(m.sources):
                if counted[source.supply] >= 1:
                    light_up(index)
                    break
        starting = free and due and m.plan.rests
        if starting:
            resting = rest_rules.rest_turns
        turning = free and not starting
        out["dark_turns"] += light < 0
        out["wearied_turns"] += wearied
        in_rest, in_forced, forced_now = resting > 0, forced > 0, False
        if turning:
            site_turns += 1
            if m.overloaded:
                face = int(rand() * len(m.faces))
                if face in acted[FaceEvent.ENCOUNTER]:
                    if m.table is not None:
                        meet(mode_kind)
                elif face in acted[FaceEvent.WANING_RESOURCES]:
                    waning()
                elif face in acted[FaceEvent.FORCED_REST]:
                    eat()
                    forced, forced_now = rest_rules.rest_turns, True
            elif m.wandering and site_turns % every == 0 and m.table is not None:
                met_now = int(rand() * m.rules.dungeon.check_die) + 1 <= chance
                if met_now:
                    meet(mode_kind)
        if m.burns_down and light >= 0:
            left -= 1
            if left <= 0:
                light = -1
        if in_rest:
            site_turns += 1
            met = False
            if m.overloaded:
                face = int(rand() * len(m.faces))
                if face in acted[FaceEvent.ENCOUNTER] and m.table is not None:
                    meet("risk")
                    met = True
                elif face in acted[FaceEvent.WANING_RESOURCES]:
                    waning()
                elif face in acted[FaceEvent.FORCED_REST]:
                    eat()
            elif m.wandering and site_turns % every == 0 and m.table is not None:
                met = int(rand() * m.rules.dungeon.check_die) + 1 <= base
                if met:
                    meet("risk")
            resting = 0 if met else resting - 1
            if not met and resting == 0:
                rested(now + 1)
        forced_any = in_forced or forced_now
        if forced_any:
            forced -= 1
            if forced == 0:
                rested(now + 1)
        if not m.rests_fall_due or in_rest or forced_any:
            continue
        active = rest_rules.active_turns
        if due:
            wearied = wearied or now + 1 >= due_at + 1
        elif active is not None and now + 1 - since >= active:
            due, due_at = True, now + 1
        running = m.mode is not None and m.mode.rest_after and rest_rules.after_running
        if running and turning and not forced_now and not due:
            due, due_at = True, now + 1
    for item, count in counted.items():
        out[f"{item}_left"] = count
    for item, sides in usage.items():
        out[f"{item}_die"] = sides
    return out


def plain_rate(delve: Expedition, runs: int) -> tuple[float, float]:
    """Expeditions/s of the plain loop, and its mean torches used (a check it is the model)."""
    model = _Model(delve)
    rand = random.Random(1).random
    dice = SeededDice(1)
    start = time.perf_counter()
    torches = sum(plain_expedition(model, rand, dice)["torches_used"] for _ in range(runs))
    return runs / (time.perf_counter() - start), torches / runs


def ours_rate(delve: Expedition, runs: int, repeat: int = 3) -> tuple[float, float]:
    best = float("inf")
    for attempt in range(repeat):
        start = time.perf_counter()
        odds = simulate_expedition(delve, runs=runs, seed=attempt)
        best = min(best, time.perf_counter() - start)
    return runs / best, float(odds.summary("torches_used")["mean"])


def direct_rate(delve: Expedition, runs: int, repeat: int = 3) -> float:
    """The turn the third torch is spent, by direct numpy sampling: every turn's dungeon die
    for every run at once, the waning faces counted (in chunks of the simulator's size)."""
    die = delve.ruleset.dice[delve.ruleset.dungeon.die]
    waning = [k for k, face in die.faces.items() if face.event is FaceEvent.WANING_RESOURCES]
    best = float("inf")
    for attempt in range(repeat):
        rng = np.random.default_rng(attempt)
        start = time.perf_counter()
        counts = np.zeros(TURNS + 2, dtype=np.int64)
        for size in [16_384] * (runs // 16_384) + [runs % 16_384]:
            faces = rng.integers(1, die.sides + 1, size=(size, TURNS))
            spent = np.isin(faces, waning).cumsum(axis=1)
            third = np.where(spent[:, -1] >= 3, (spent >= 3).argmax(axis=1) + 1, TURNS + 1)
            counts += np.bincount(third, minlength=TURNS + 2)
        best = min(best, time.perf_counter() - start)
    return runs / best


def million(delve: Expedition, runs: int) -> float:
    from rich.console import Console
    from rich.progress import Progress

    start = time.perf_counter()
    # Off a terminal (a pipe, a log) a bar would leave a blank line: none is drawn.
    with Progress(transient=True, disable=not Console().is_terminal) as progress:
        task = progress.add_task(f"{runs:,} expeditions", total=runs)
        simulate_expedition(
            delve, runs=runs, progress=lambda done: progress.update(task, completed=done)
        )
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1_000_000, help="runs of the timed batch")
    runs = parser.parse_args().runs
    if not 1 <= runs <= MAX_RUNS:
        parser.error(f"--runs {runs}: from 1 to {MAX_RUNS:,}")
    delve = plan()
    print(f"expeditions of {TURNS} turns under tp, examples/site.toml, examples/party.toml")
    try:
        plain, plain_torches = plain_rate(delve, 20_000)
        ours, our_torches = ours_rate(delve, 200_000)
        print(f"  (mean torches used: plain loop {plain_torches:.3f}, simulator {our_torches:.3f})")
        report(
            "simulator / plain-Python loop", f"{ours / plain:.1f}x", ours >= 10 * plain, ">= 10x"
        )
        direct = direct_rate(delve, 200_000)
        report(
            "simulator / direct numpy sampling (3rd torch)",
            f"{ours / direct:.2f} ({ours:,.0f}/s)",
            ours * 3 >= direct,
            ">= 0.33",
        )
        seconds = million(delve, runs)
        report(f"{runs:,} expeditions", f"{seconds:.2f} s", seconds < 10, "< 10 s")
    except KeyboardInterrupt:
        print("\ninterrupted: the figures above are all that was measured")
        return 130
    return verdict()


if __name__ == "__main__":
    sys.exit(main())
