"""Growth benchmark: what a command and a read cost as a campaign's journal grows.

    .venv/bin/python bench/growth.py [--quick | --million] [--repeats 5]

Builds campaigns of 1,000 and 200,000 events (1,000 and 50,000 with ``--quick``; 1,000,000 as
well with ``--million``) in SQLite files, the way a campaign grows: commands folded in memory,
the records stored in one go, and the snapshots a writer keeps at its cadence written beside
them. Then, on each size, with a fresh
service (a new store and service, cold caches: what a new CLI process pays after its imports):

- a command (``wait 10m``);
- an undo of the latest command when the newest snapshot already holds it (the worst case:
  the snapshot is at the head), and the command after that undo;
- ``status --json``, ``log --since N-20 --json`` (the CLI verbs in process, without the
  interpreter's start);
- over HTTP, the server warm: the log page (50 records) with the referee's token and with the
  players' (their projection: what they may see, undone commands left out), a state read with
  each token, and the players' page drawn after a command (``display``: a new version, so
  drawn, not served from the drawn pages kept; the draws of a page are paced, so the read
  waits out the pace first).

Each figure is the median of ``--repeats`` and is printed with its ratio to the same figure at
1,000 events, measured in the same run: the target is a ratio of at most 1.5 (flat in the
journal's length). No absolute target: the machine is shared.

Then the whole-journal verbs, linear by nature, against their floors in the same run:
``export --format jsonl`` and ``log --json`` (stdout to /dev/null) against reading with sqlite3
what their output is made of and writing it to /dev/null (the stored JSON of each record, and
for the log the line kept beside it, which it writes as the record's text); ``import``
against one ``json.loads``
per line and a raw ``executemany`` into a new store (the store's own tables: an import
pays the keys and the index by kind that reads use, which a bare table would count as the
import's overhead). Their seconds are measured in
this process, the verbs run as the CLI runs them (its parsing of arguments, its store and
output), warm: a new process's start (the interpreter and turnkeeper's imports, about a second
on a quiet machine and a second more on a busy one) is the same at every size, and measured
with the rest it buried the cost per record in its own noise. The ratio to the floor is
marginal: the verb's extra seconds from the smallest size to this one over its floor's extra
seconds between the same sizes, which is what "linear within 2x its floor" means. Peak memory
(VmHWM) is measured in a new process running the verb alone. Target: a marginal ratio of at
most 2, and the peak memory of export and log flat between sizes (``--moving`` runs only
these).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from turnkeeper.campaign import (
    Command,
    Journal,
    Light,
    Note,
    Rest,
    Undo,
    Wait,
    parse_party,
    snapshots,
)
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.service.moving import lines_said
from turnkeeper.store.sql import SqlStore

PARTY = parse_party(
    '[[characters]]\nname = "Aldo"\nhp = 8\n[[characters]]\nname = "Bea"\nhp = 6\n'
    "[supplies]\ntorches = 100000\nrations = 100000\nwater = 100000\n"
)
NAME = "Keep"
TARGET = 1.5
FLOOR_TARGET = 2.0
results: list[bool] = []


#: The commands a bench campaign repeats: a day of light, rest, notes and waiting.
CYCLE: tuple[Command, ...] = (
    Light("torch"),
    Wait(6 * 3600),
    Note("the party maps a hall"),
    Rest(),
    Wait(600),
)


def build(
    url: str,
    events: int,
    *,
    name: str = NAME,
    ruleset: str = "dg",
    seed: int = 3,
    cycle: Sequence[Command] = CYCLE,
) -> None:
    """A campaign of at least ``events`` records in the store at ``url``, the way a campaign
    grows: ``cycle`` folded in memory, the records stored in one go with their lines, and the
    snapshots a writer leaves behind (the newest few cadence marks) beside them."""
    journal = Journal.start(name, preset(ruleset), PARTY, seed=seed)
    step = 0
    while journal.version < events:
        with contextlib.suppress(TurnkeeperError):  # a refused command keeps nothing
            journal.execute(cycle[step % len(cycle)])
        step += 1
    store = SqlStore(url)
    try:
        store.create(
            name, [r.to_record() for r in journal.records], lines=lines_said(journal.records)
        )
        tag = snapshots.state_format()
        for checkpoint in journal.checkpoints[-4:]:
            text = snapshots.dump_state(checkpoint)
            assert text is not None
            store.save_snapshot(name, checkpoint.version, tag, text)
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
    from typer.testing import CliRunner

    from turnkeeper.cli.app import app as cli

    runner = CliRunner()
    start = time.perf_counter()
    result = runner.invoke(cli, [*args, "--campaign", NAME, "--db", url])
    took = time.perf_counter() - start
    assert result.exit_code == 0, result.output
    return took


def measure(url: str, repeats: int) -> dict[str, float]:
    """Median seconds of each operation on the campaign at ``url``."""
    # the web server and the CLI load only here: --moving runs every verb in its own process
    from fastapi.testclient import TestClient

    from turnkeeper.web.app import create_app
    from turnkeeper.web.tokens import Role, issue_tokens

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
    referee = {"Authorization": f"Bearer {tokens[Role.REFEREE]}"}
    player = {"Authorization": f"Bearer {tokens[Role.PLAYER]}"}
    api = f"/api/campaigns/{NAME}"
    log_page = f"{api}/log?after={version - 60}&limit=50"
    reads = {
        "HTTP log page of 50, referee": (log_page, referee),
        "HTTP log page of 50, players'": (log_page, player),
        "HTTP state read, referee": (f"{api}/state", referee),
        "HTTP state read, players'": (f"{api}/state", player),
    }
    with TestClient(create_app(Campaigns(store))) as client:
        for path, headers in reads.values():  # the first reads fold, draw the templates
            assert client.get(path, headers=headers).status_code == 200
        for _ in range(repeats * 10):
            for key, (path, headers) in reads.items():
                start = time.perf_counter()
                answer = client.get(path, headers=headers)
                add(key, time.perf_counter() - start)
                assert answer.status_code == 200
        for _ in range(repeats * 4):
            command = client.post(
                f"{api}/commands", json={"verb": "wait", "duration": "10m"}, headers=referee
            )
            assert command.status_code == 200, command.text
            start = time.perf_counter()
            answer = client.get(f"/campaigns/{NAME}/display", headers=player)
            add("HTTP players' page drawn (display)", time.perf_counter() - start)
            assert answer.status_code == 200 and "Aldo" in answer.text
    store.close()
    return {key: statistics.median(values) for key, values in times.items()}


def floor_read(file: str, name: str, columns: str = "data") -> None:
    """The read floor: every stored record's ``columns``, as they are, to /dev/null."""
    conn = sqlite3.connect(file)
    try:
        with open(os.devnull, "w") as out:
            query = f"SELECT {columns} FROM events WHERE campaign = ? ORDER BY seq"
            for row in conn.execute(query, (name,)):
                out.write("".join(row) + "\n")
    finally:
        conn.close()


def floor_import(scratch: Path, journal: Path) -> None:
    """The import floor: one JSON parse per line, then one raw batch insert of the records
    and their columns, in one transaction, into a new store: a table of the store's own
    shape, with the keys and the index by kind that every read by index needs."""
    SqlStore(f"sqlite:///{scratch}").close()  # the store's tables, as an import makes them
    conn = sqlite3.connect(scratch)
    try:
        with journal.open(encoding="utf-8") as lines, conn:
            rows = [
                (NAME, r["seq"], r["command"], r["at"], r["kind"], r["visibility"], line, None)
                for line in lines
                for r in (json.loads(line),)
            ]
            conn.execute("INSERT INTO campaigns VALUES (?, ?, ?)", (NAME, len(rows), "now"))
            conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    finally:
        conn.close()


def verb(*args: str) -> None:
    """The CLI verb ``args``, run in this process as ``turnkeeper`` runs it, to /dev/null."""
    import typer

    from turnkeeper.cli.app import app as cli

    with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
        typer.main.get_command(cli).main(list(args), prog_name="turnkeeper", standalone_mode=False)


def seconds(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


PEAK = """
import sys
from turnkeeper.cli.app import main
try:
    sys.argv = ["turnkeeper", *sys.argv[1:]]
    main()
except SystemExit as stop:
    if stop.code:
        raise
peak = [line for line in open("/proc/self/status") if line.startswith("VmHWM")][0]
sys.stderr.write(f"maxrss={peak.split()[1]}\\n")  # VmHWM: this program alone, not its parent
"""


def peak_mb(*args: str) -> float:
    """Peak memory (MB) of a new process running the CLI verb ``args``, stdout to /dev/null."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    return int(done.stderr.rsplit("maxrss=", 1)[1]) / 1024


def moving(url: str, folder: Path, repeats: int) -> dict[str, tuple[float, float | None]]:
    """Median seconds (warm, in this process) and peak MB (a new process, None for the
    floors) of the whole-journal verbs and their floors."""
    file = url.removeprefix("sqlite:///")
    journal = folder / "journal.jsonl"
    with journal.open("w", encoding="utf-8") as out:
        store = SqlStore(url)
        try:
            for piece in Campaigns(store).export_lines(NAME):
                out.write(piece)
        finally:
            store.close()
    cli_args = ["--campaign", NAME, "--db", url]
    scratch, target = folder / "scratch.db", folder / "imported.db"

    def clean() -> None:
        for leftover in [*folder.glob("scratch.db*"), *folder.glob("imported.db*")]:
            leftover.unlink()

    def imported() -> None:
        clean()
        verb("import", str(journal), "--db", str(target))

    runs: dict[str, Callable[[], object]] = {
        "floor: read rows to /dev/null": lambda: floor_read(file, NAME),
        "export --format jsonl": lambda: verb("export", "--format", "jsonl", *cli_args),
        "floor: read rows and lines": lambda: floor_read(file, NAME, "data, line"),
        "log --json": lambda: verb("log", "--json", *cli_args),
        "floor: json.loads + executemany": lambda: floor_import(scratch, journal),
        "import": imported,
    }
    times: dict[str, list[float]] = {key: [] for key in runs}
    for _ in range(repeats):
        for key, run in runs.items():
            clean()
            times[key].append(seconds(run))
    clean()
    peaks: dict[str, float | None] = {key: None for key in runs}
    peaks["export --format jsonl"] = peak_mb("export", "--format", "jsonl", *cli_args)
    peaks["log --json"] = peak_mb("log", "--json", *cli_args)
    peaks["import"] = peak_mb("import", str(journal), "--db", str(target))
    clean()
    return {key: (statistics.median(values), peaks[key]) for key, values in times.items()}


def report_moving(
    sizes: list[int], figures: dict[int, dict[str, tuple[float, float | None]]]
) -> None:
    floors = {
        "export --format jsonl": "floor: read rows to /dev/null",
        "log --json": "floor: read rows and lines",
        "import": "floor: json.loads + executemany",
    }
    small, large = sizes[0], sizes[-1]

    def marginal(key: str, size: int) -> float:
        """The verb's extra seconds from the smallest size over its floor's."""
        floor = floors[key]
        grew = figures[size][key][0] - figures[small][key][0]
        floor_grew = figures[size][floor][0] - figures[small][floor][0]
        return grew / floor_grew if floor_grew > 0 else float("inf")

    print(f"\n{'whole-journal verb (median, warm)':<36}", end="")
    print("".join(f"{f'{size:,}':>26}" for size in sizes))
    print("  seconds, peak MB (a new process), x floor (marginal)")
    for key in figures[small]:
        cells = ""
        for size in sizes:
            took, peak = figures[size][key]
            cells += f"{took:>10.3f}s" + (f" {peak:>6.0f}MB" if peak is not None else " " * 9)
            margin = marginal(key, size) if key in floors and size != small else None
            cells += f" {margin:>5.1f}x" if margin is not None else " " * 7
        print(f"{key:<36}{cells}")
    print(
        f"\nverdict at {large:,} events: marginal ratio <= {FLOOR_TARGET}x its floor, "
        f"peak memory of export and log <= {TARGET}x from {small:,}"
    )
    for key in floors:
        ratio = marginal(key, large)
        ok = ratio <= FLOOR_TARGET
        verdict = f"marginal {ratio:.1f}x"
        large_peak, small_peak = figures[large][key][1], figures[small][key][1]
        assert large_peak is not None and small_peak is not None
        if key != "import":
            grew = large_peak / small_peak
            ok = ok and grew <= TARGET
            verdict += f", memory {grew:.2f}x"
        else:
            verdict += f", memory {small_peak:.0f} MB to {large_peak:.0f} MB"
        results.append(ok)
        print(f"  {key:<40}{verdict}  {'PASS' if ok else 'FAIL'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sized = parser.add_mutually_exclusive_group()
    sized.add_argument("--quick", action="store_true", help="50,000 events, not 200,000.")
    sized.add_argument("--million", action="store_true", help="Also 1,000,000 events.")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--moving", action="store_true", help="Only export, log --json and import.")
    args = parser.parse_args()
    sizes = [1_000, 50_000 if args.quick else 200_000, *([1_000_000] if args.million else [])]
    figures: dict[int, dict[str, float]] = {}
    whole: dict[int, dict[str, tuple[float, float | None]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            url = f"sqlite:///{Path(folder) / f'growth-{size}.db'}"
            start = time.perf_counter()
            build(url, size)
            print(f"built {size:,} events in {time.perf_counter() - start:.1f} s", flush=True)
            whole[size] = moving(url, Path(folder), min(args.repeats, 3))
            if args.moving:
                continue
            if size == sizes[0]:
                measure(url, 1)  # warm up: the process's first reads build schemas, import
            figures[size] = measure(url, args.repeats)
    report_moving(sizes, whole)
    if args.moving:
        print(f"\n{sum(results)}/{len(results)} within their floors")
        return
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
