"""Growth benchmark: what a command and a read cost as a campaign's journal grows.

    .venv/bin/python bench/growth.py [--full] [--repeats 5]

Builds campaigns of 1,000 and 50,000 events (and 200,000 with ``--full``) in SQLite files, the
way a campaign grows: commands folded in memory, the records stored in one go, and the
snapshots a writer keeps at its cadence written beside them. Then, on each size, with a fresh
service (a new store and service, cold caches: what a new CLI process pays after its imports):

- a command (``wait 10m``);
- an undo of the latest command when the newest snapshot already holds it (the worst case:
  the snapshot is at the head), and the command after that undo;
- ``status --json``, ``log --since N-20 --json`` (the CLI verbs in process, without the
  interpreter's start), and the HTTP log page (50 records, referee's token, the server warm).

Each figure is the median of ``--repeats`` and is printed with its ratio to the same figure at
1,000 events, measured in the same run: the target is a ratio of at most 1.5 (flat in the
journal's length). No absolute target: the machine is shared.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from turnkeeper.campaign import Journal, Light, Note, Rest, Undo, Wait, parse_party, snapshots
from turnkeeper.cli.app import app as cli
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens

PARTY = parse_party(
    '[[characters]]\nname = "Aldo"\nhp = 8\n[[characters]]\nname = "Bea"\nhp = 6\n'
    "[supplies]\ntorches = 100000\nrations = 100000\nwater = 100000\n"
)
NAME = "Keep"
TARGET = 1.5
results: list[bool] = []


def build(url: str, events: int) -> None:
    """A campaign of at least ``events`` records in the store at ``url``, with the snapshots
    a writer leaves behind (the newest few cadence marks)."""
    journal = Journal.start(NAME, preset("dg"), PARTY, seed=3)
    cycle = [Light("torch"), Wait(6 * 3600), Note("the party maps a hall"), Rest(), Wait(600)]
    step = 0
    while journal.version < events:
        with contextlib.suppress(TurnkeeperError):  # a refused command keeps nothing
            journal.execute(cycle[step % len(cycle)])
        step += 1
    store = SqlStore(url)
    try:
        store.create(NAME, [r.to_record() for r in journal.records])
        tag = snapshots.state_format()
        for checkpoint in journal.checkpoints[-4:]:
            text = snapshots.dump_state(checkpoint)
            assert text is not None
            store.save_snapshot(NAME, checkpoint.version, tag, text)
    finally:
        store.close()


def fresh(url: str, run: Callable[[Campaigns], object]) -> float:
    """``run`` timed on a new store and service (what a new process pays past its imports)."""
    store = SqlStore(url)
    try:
        start = time.perf_counter()
        run(Campaigns(store))
        return time.perf_counter() - start
    finally:
        store.close()


def head_snapshot(url: str) -> None:
    """A snapshot at the head: the worst case for an undo, whose command it already holds."""
    store = SqlStore(url)
    try:
        state = Campaigns(store).state(NAME)
        text = snapshots.dump_state(state)
        assert text is not None
        store.save_snapshot(NAME, state.version, snapshots.state_format(), text)
    finally:
        store.close()


def cli_time(url: str, *args: str) -> float:
    runner = CliRunner()
    start = time.perf_counter()
    result = runner.invoke(cli, [*args, "--campaign", NAME, "--db", url])
    took = time.perf_counter() - start
    assert result.exit_code == 0, result.output
    return took


def measure(url: str, repeats: int) -> dict[str, float]:
    """Median seconds of each operation on the campaign at ``url``."""
    times: dict[str, list[float]] = {}

    def add(key: str, seconds: float) -> None:
        times.setdefault(key, []).append(seconds)

    wait = Wait(600)
    for _ in range(repeats):
        add("command (fresh service)", fresh(url, lambda c: c.execute(NAME, wait)))
        head_snapshot(url)
        add("undo (fresh service)", fresh(url, lambda c: c.execute(NAME, Undo())))
        add("command after undo (fresh)", fresh(url, lambda c: c.execute(NAME, wait)))
        add("status --json", cli_time(url, "status", "--json"))
        store = SqlStore(url)
        version = store.version(NAME)
        store.close()
        add("log --since N-20 --json", cli_time(url, "log", "--since", str(version - 20), "--json"))
    store = SqlStore(url)
    tokens = issue_tokens(store, NAME, rotate=True)  # known tokens for this run
    version = store.version(NAME)
    with TestClient(create_app(Campaigns(store))) as client:
        headers = {"Authorization": f"Bearer {tokens[Role.REFEREE]}"}
        path = f"/api/campaigns/{NAME}/log?after={version - 60}&limit=50"
        assert client.get(path, headers=headers).status_code == 200  # the first read folds
        for _ in range(repeats * 10):
            start = time.perf_counter()
            answer = client.get(path, headers=headers)
            add("HTTP log page of 50 (warm server)", time.perf_counter() - start)
            assert answer.status_code == 200 and len(answer.json()["records"]) == 50
    store.close()
    return {key: statistics.median(values) for key, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="Also 200,000 events.")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    sizes = [1_000, 50_000, *([200_000] if args.full else [])]
    figures: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            url = f"sqlite:///{Path(folder) / f'growth-{size}.db'}"
            start = time.perf_counter()
            build(url, size)
            print(f"built {size:,} events in {time.perf_counter() - start:.1f} s", flush=True)
            if size == sizes[0]:
                measure(url, 1)  # warm up: the process's first reads build schemas, import
            figures[size] = measure(url, args.repeats)
    base = figures[sizes[0]]
    header = "".join(f"{f'{size:,}':>12}" for size in sizes)
    print(f"\n{'operation (median)':<36}{header}   ratio (largest / 1k, target <= {TARGET})")
    for key, seconds in base.items():
        cells = "".join(f"{figures[size][key] * 1e3:>10.1f}ms" for size in sizes)
        ratio = figures[sizes[-1]][key] / seconds
        ok = ratio <= TARGET
        results.append(ok)
        print(f"{key:<36}{cells}   {ratio:>5.2f}x {'PASS' if ok else 'FAIL'}")
    print(f"\n{sum(results)}/{len(results)} flat")


if __name__ == "__main__":
    main()
