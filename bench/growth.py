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

Then the whole-journal verbs, linear by nature, each in a new process (its interpreter's start
included) against its floor in a new process in the same run: ``export --format jsonl`` and
``log --json`` (stdout to /dev/null) against reading the stored JSON rows with sqlite3 and
writing them to /dev/null; ``import`` against one ``json.loads`` per line and a raw
``executemany`` into a scratch SQLite table. Target: at most 2x the floor, and the peak memory
(maxrss) of export and log flat between sizes (``--moving`` runs only these).

Two ratios are printed for each, because a new process pays its start-up (the interpreter,
then turnkeeper's imports: about a second and a half, more on a busy machine) while a floor
that imports sqlite3 alone pays next to none. The whole-process ratio (the verb's seconds over
its floor's, at each size) is mostly start-up at 1,000 events. The marginal ratio is the
verb's extra seconds from the smallest size to this one over its floor's extra seconds
between the same sizes: the cost per record, start-up left out, which is what "linear within
2x its floor" means. The verdict is on the marginal ratio at the largest size, and the
start-up is printed on its own (the verb at the smallest size less its floor there).
"""

from __future__ import annotations

import argparse
import contextlib
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
from turnkeeper.service import Campaigns, said
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
        store.create(name, [r.to_record() for r in journal.records], lines=said(journal.records))
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
    from turnkeeper.web.live import DRAW_GAP
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
            time.sleep(DRAW_GAP)  # the page's draws are paced: this one draws at once
            start = time.perf_counter()
            answer = client.get(f"/campaigns/{NAME}/display", headers=player)
            add("HTTP players' page drawn (display)", time.perf_counter() - start)
            assert answer.status_code == 200 and "Aldo" in answer.text
    store.close()
    return {key: statistics.median(values) for key, values in times.items()}


FLOOR_READ = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
with open("/dev/null", "w") as out:
    query = "SELECT data FROM events WHERE campaign = ? ORDER BY seq"
    for (text,) in conn.execute(query, (sys.argv[2],)):
        out.write(text + "\\n")
"""

FLOOR_IMPORT = """
import json, sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
conn.execute("CREATE TABLE scratch (seq INTEGER PRIMARY KEY, kind TEXT, data TEXT)")
with open(sys.argv[2], encoding="utf-8") as lines, conn:
    rows = [(r["seq"], r["kind"], line) for line in lines for r in (json.loads(line),)]
    conn.executemany("INSERT INTO scratch VALUES (?, ?, ?)", rows)
"""

PEAK = """
import runpy, sys
args = sys.argv[1:]
try:
    if args[0] == "-c":
        sys.argv = ["-c", *args[2:]]
        exec(args[1])
    else:
        sys.argv = args
        runpy.run_module(args[0], run_name="__main__", alter_sys=True)
except SystemExit as stop:
    if stop.code:
        raise
peak = [line for line in open("/proc/self/status") if line.startswith("VmHWM")][0]
sys.stderr.write(f"maxrss={peak.split()[1]}\\n")  # VmHWM: this program alone, not its parent
"""


def process(*args: str) -> tuple[float, float]:
    """Seconds and peak memory (MB) of a new process running ``args`` (stdout to /dev/null)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PEAK, *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    took = time.perf_counter() - start
    peak = int(done.stderr.rsplit("maxrss=", 1)[1]) / 1024
    return took, peak


def moving(url: str, folder: Path, repeats: int) -> dict[str, tuple[float, float]]:
    """Median seconds and peak MB of the whole-journal verbs and their floors."""
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
    runs: dict[str, list[tuple[float, float]]] = {}
    for _ in range(repeats):
        floor = process("-c", FLOOR_READ, file, NAME)
        runs.setdefault("floor: read rows to /dev/null", []).append(floor)
        export = process("turnkeeper", "export", "--format", "jsonl", *cli_args)
        runs.setdefault("export --format jsonl", []).append(export)
        runs.setdefault("log --json", []).append(process("turnkeeper", "log", "--json", *cli_args))
        scratch = folder / "scratch.db"
        scratch.unlink(missing_ok=True)
        runs.setdefault("floor: json.loads + executemany", []).append(
            process("-c", FLOOR_IMPORT, str(scratch), str(journal))
        )
        target = folder / "imported.db"
        for leftover in folder.glob("imported.db*"):
            leftover.unlink()
        imported = process("turnkeeper", "import", str(journal), "--db", str(target))
        runs.setdefault("import", []).append(imported)
    return {
        key: (statistics.median(t for t, _ in values), statistics.median(m for _, m in values))
        for key, values in runs.items()
    }


def report_moving(sizes: list[int], figures: dict[int, dict[str, tuple[float, float]]]) -> None:
    floors = {
        "export --format jsonl": "floor: read rows to /dev/null",
        "log --json": "floor: read rows to /dev/null",
        "import": "floor: json.loads + executemany",
    }
    small, large = sizes[0], sizes[-1]

    def marginal(key: str, size: int) -> float:
        """The verb's extra seconds from the smallest size over its floor's."""
        floor = floors[key]
        grew = figures[size][key][0] - figures[small][key][0]
        floor_grew = figures[size][floor][0] - figures[small][floor][0]
        return grew / floor_grew if floor_grew > 0 else float("inf")

    print(f"\n{'whole-journal verb (median, new process)':<42}", end="")
    print("".join(f"{f'{size:,}':>30}" for size in sizes))
    print(f"{'  seconds, peak MB, x floor (whole), x floor (marginal)':<42}")
    for key in figures[small]:
        cells = ""
        for size in sizes:
            seconds, peak = figures[size][key]
            cells += f"{seconds:>9.2f}s {peak:>6.0f}MB"
            if key in floors:
                whole = seconds / figures[size][floors[key]][0]
                margin = f"{marginal(key, size):>5.1f}x" if size != small else "     -"
                cells += f" {whole:>5.1f}x {margin}"
            else:
                cells += " " * 13
        print(f"{key:<42}{cells}")
    print(
        f"\nverdict at {large:,} events: marginal ratio <= {FLOOR_TARGET}x its floor, "
        f"peak memory of export and log <= {TARGET}x from {small:,}"
    )
    for key, floor in floors.items():
        ratio = marginal(key, large)
        ok = ratio <= FLOOR_TARGET
        startup = figures[small][key][0] - figures[small][floor][0]
        verdict = f"marginal {ratio:.1f}x, start-up {startup:.2f} s"
        if key != "import":
            grew = figures[large][key][1] / figures[small][key][1]
            ok = ok and grew <= TARGET
            verdict += f", memory {grew:.2f}x"
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
    whole: dict[int, dict[str, tuple[float, float]]] = {}
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
