"""Journal benchmark: the store's cost against the in-memory journal, measured in the same run.

    .venv/bin/python bench/journal.py [--events 100000] [--commands 400] [--profile]

- commands through the SQLite store (the service: fold, decide with command dice, append with
  the expected version) against the same commands on an in-memory ``Journal``. Target: median
  under 2 ms per command through the store (default ``synchronous=NORMAL``); the opt-in
  ``synchronous=full`` (an fsync per command) is shown beside it.
- rebuilding a campaign's state from a 100,000-event journal, against folding the same records
  already in memory. Target: under 1 s. Shown both ways: the full refold (read every record,
  make typed events, fold) and the service's usual path, the newest snapshot plus the records
  after it (the snapshot about 1000 records back, the worst case). Both are timed until the
  state is there (the service kept alive, so freeing the journal afterwards is not counted).
  Every rebuild figure is taken with the cyclic GC paused, as the service pauses it.
  ``--profile`` prints where the full refold's time goes (cProfile, top functions by own time).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import gc
import pstats
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from turnkeeper.campaign import (
    CampaignState,
    Command,
    CountdownAdd,
    CountdownTick,
    Journal,
    Light,
    Note,
    Recorded,
    Rest,
    Wait,
    command_dice,
    fold,
    parse_party,
    snapshots,
)
from turnkeeper.campaign.registry import EVENTS
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore

PARTY = parse_party(
    '[[characters]]\nname = "Aldo"\nhp = 8\n[[characters]]\nname = "Bea"\nhp = 6\n'
    "[supplies]\ntorches = 100000\nrations = 100000\nwater = 100000\n"
)
RULESET = "dg"
results: list[bool] = []


def report(label: str, figure: str, ok: bool | None, target: str = "") -> None:
    if ok is not None:
        results.append(ok)
    verdict = "" if ok is None else ("PASS" if ok else "FAIL")
    print(f"  {label:<44} {figure:>22}   {target:<10} {verdict}")


def commands(count: int) -> list[Command]:
    """A table's mix: mostly time passing, with light, rests, countdowns and notes."""
    cycle: list[Command] = [
        Light("torch"),
        Wait(600),
        Wait(1200),
        Note("the party maps the corridor"),
        CountdownAdd("Flood", "short", "d6"),
        CountdownTick("Flood"),
        Rest(),
        Wait(600),
    ]
    return [cycle[i % len(cycle)] for i in range(count)]


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def paused(run: Callable[[], object]) -> Callable[[], float]:
    """``run`` timed with the cyclic GC paused, as the service pauses it for a rebuild."""

    def timing() -> float:
        gc.disable()
        try:
            return timed(run)
        finally:
            gc.enable()

    return timing


def per_command(folder: Path, count: int) -> None:
    print(f"Commands ({count}, {RULESET} preset, one campaign, the same mix each way)")
    ruleset = preset(RULESET)
    mix = commands(count)
    journal = Journal.start("Keep", ruleset, PARTY, seed=1)
    stores = {
        "normal": SqlStore(f"sqlite:///{folder / 'normal.db'}"),
        "full": SqlStore(f"sqlite:///{folder / 'full.db'}?synchronous=full"),
    }
    services = {mode: Campaigns(store) for mode, store in stores.items()}
    for service in services.values():
        service.new("Keep", ruleset, PARTY, seed=1)
    times: dict[str, list[float]] = {"memory": [], "normal": [], "full": []}

    def attempt(key: str, run: Callable[[], object]) -> None:
        # a countdown that already ran out, say, is refused and keeps nothing
        with contextlib.suppress(TurnkeeperError):
            times[key].append(timed(run))

    for command in mix:
        attempt("memory", lambda c=command: journal.execute(c, command_dice(1, journal.version)))
        for mode, service in services.items():
            attempt(mode, lambda c=command, s=service: s.execute("Keep", c))
    for service in services.values():
        assert service.journal("Keep").records == journal.records, "the journals differ"
    median = {key: statistics.median(values) * 1e3 for key, values in times.items()}
    report("in-memory Journal, median per command", f"{median['memory']:.3f} ms", None, "baseline")
    ok = median["normal"] < 2
    report("SQLite store (WAL, NORMAL), median", f"{median['normal']:.3f} ms", ok, "< 2 ms")
    report("  commands per second", f"{1e3 / median['normal']:,.0f}/s", None)
    report("  store / memory", f"{median['normal'] / median['memory']:.1f}x", None)
    report("SQLite store (WAL, FULL: fsync), median", f"{median['full']:.3f} ms", None, "opt-in")
    report("  store / memory", f"{median['full'] / median['memory']:.1f}x", None)
    for store in stores.values():
        store.close()


def build(events: int) -> list[Recorded]:
    """A journal of at least ``events`` records, made by real commands."""
    journal = Journal.start("Deep", preset(RULESET), PARTY, seed=2)
    mix = commands(64)
    i = 0
    while journal.version < events:
        with contextlib.suppress(TurnkeeperError):
            journal.execute(mix[i % len(mix)], command_dice(2, journal.version))
        i += 1
    return journal.records[:events]


def boundary(records: list[Recorded], at_most: int) -> int:
    """The last command boundary at or before version ``at_most`` (where a snapshot is kept)."""
    version = max(at_most, 1)
    while version > 1 and records[version].command == records[version - 1].command:
        version -= 1
    return version


def rebuild(folder: Path, events: int, profile: bool) -> None:
    print(f"Rebuild from a {events:,}-event journal")
    started = time.perf_counter()
    records = build(events)
    print(f"  (made by real commands in {time.perf_counter() - started:.1f} s)")
    store = SqlStore(f"sqlite:///{folder / 'rebuild.db'}")
    store.create("Deep")
    version = 0
    for start in range(0, len(records), 5000):
        chunk = [r.to_record() for r in records[start : start + 5000]]
        version = store.append("Deep", version, chunk)

    # best of three while a fold is quick; once only when it is slow (it was 38 s for 100k)
    repeats = 3 if timed(lambda: fold(records[:10_000])) < 0.5 else 1
    baseline = min(paused(lambda: fold(records))() for _ in range(repeats))
    read_s = min(paused(lambda: store.read_json("Deep"))() for _ in range(3))
    text = store.read_json("Deep")
    parse_s = min(paused(lambda: EVENTS.records_json(text))() for _ in range(repeats))

    def full() -> CampaignState:
        store.drop_snapshots("Deep")  # a cache: without it the service folds every record
        service = Campaigns(store)  # kept alive: freeing the journal afterwards is not timed
        started = time.perf_counter()
        state = service.state("Deep")
        times.append(time.perf_counter() - started)
        return state

    times: list[float] = []
    for _ in range(repeats):
        full_state = full()
    total = min(times)
    whole = fold(records)
    assert full_state == whole

    # the snapshot the service would have kept, about SNAPSHOT_EVERY records back (worst case)
    version = boundary(records, len(records) - snapshots.SNAPSHOT_EVERY)
    snapshot = snapshots.dump_state(fold(records[:version]))
    assert snapshot is not None, "the state reads back from its snapshot"
    tail_n = len(records) - version

    def resumed() -> CampaignState:
        store.drop_snapshots("Deep")
        store.save_snapshot("Deep", version, snapshots.state_format(), snapshot)
        service = Campaigns(store)
        started = time.perf_counter()
        state = service.state("Deep")
        times.append(time.perf_counter() - started)
        return state

    times.clear()
    for _ in range(3):
        assert resumed() == whole, "snapshot + tail folds to the whole journal's state"
    snap = min(times)
    report("fold of in-memory Recorded (baseline)", f"{baseline:.3f} s", None, "baseline")
    report("  read the records' JSON from SQLite", f"{read_s:.3f} s", None)
    report("  JSON -> typed records (one validation)", f"{parse_s:.3f} s", None)
    report("FULL refold: read + validate + fold (store)", f"{total:.3f} s", total < 1, "< 1 s")
    report("  full refold / in-memory fold", f"{total / baseline:.1f}x", None)
    report(f"snapshot + tail ({tail_n:,} records)", f"{snap:.3f} s", snap < 1, "< 1 s")
    report("  snapshot + tail / in-memory fold", f"{snap / baseline:.2f}x", None)
    if profile:
        profiler = cProfile.Profile()
        store.drop_snapshots("Deep")
        profiler.runcall(lambda: Campaigns(store).state("Deep"))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)
    store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--commands", type=int, default=400)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        per_command(Path(tmp), args.commands)
        rebuild(Path(tmp), args.events, args.profile)
    print("PASS" if all(results) else "FAIL")


if __name__ == "__main__":
    main()
