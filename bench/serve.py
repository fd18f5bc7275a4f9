"""Server benchmark: a bounded load over loopback HTTP against real ``turnkeeper serve`` processes.

    .venv/bin/python bench/serve.py [--pg URL | --no-pg | --pg-only] [--clients 20]
        [--many-clients 100] [--campaigns 10] [--pace 0.5] [--seconds 30] [--commands 1000]
        [--reads 5000] [--pages 10 | --pages-only] [--events 50000] [--page-clients 4]
        [--page-commands 1000] [--lanes | --lanes-only] [--lane-map 2000]

Three setups play tables, each on a fresh store holding its campaigns (``ex`` preset) and
their tokens:

- **sqlite**: one ``turnkeeper serve`` process over a new SQLite file in a temp folder, one
  campaign, ``--clients`` (20) clients.
- **sqlite, many tables**: the same server over ``--campaigns`` (10) campaigns and
  ``--many-clients`` (100) clients, each client at one campaign's table (``--campaigns 0``
  leaves it out).
- **postgresql**: ``turnkeeper serve --workers 2`` (two server processes on one port) sharing
  one PostgreSQL store, ``--many-clients`` over ``--campaigns``, in a schema made for the run
  and dropped after it (the server is pointed at it with the connection option
  ``search_path``), so runs never see each other. The URL is ``--pg``, else
  ``TURNKEEPER_TEST_PG``, else the local test server; ``--no-pg`` leaves this setup out,
  ``--pg-only`` runs it alone.

A client sends referee commands (``wait 10 minutes``, ``light`` a torch, ``rest``: legal in any
order) and reads of ``GET /api/campaigns/{name}/state`` (one in five with the player token),
one command then five reads, on one keep-alive HTTP/1.1 connection. Clients speak HTTP through
:class:`Http`, a minimal client over asyncio's streams (requests with JSON, answers by
``Content-Length`` or chunks, gzip taken as a browser takes it), not httpx: this process shares
the machine's cores with the servers, and httpx spent about as much CPU per request as the
server it measured, so the clients were half the load. A 409 (another writer appended first:
expected with two servers) is counted and the command sent again until it lands, so every
command is acknowledged once; a command's latency runs until it lands, retries included.

Each setup's server plays two rounds on the same store:

1. **capacity**: closed loops without a pause sharing ``--commands`` (1,000) commands and
   ``--reads`` (5,000) reads, each client sending its next request the moment the last is
   answered. That measures the most requests a second the server answers (saturation); its
   latencies are the queue and nothing else (Little's law: mean latency = clients /
   throughput), so they are printed without a target.
2. **paced**: the targets' round. Each client sends a request every ``--pace`` (0.5) seconds
   for ``--seconds`` (30), from a phase of its own drawn at random (seeded: the same in every
   run) in the first interval, and from a place of its own in its mix (its first command after
   0 to 5 reads), so the clients do not send in lockstep: were every client's first request its
   command, all the commands would come in the same half second of every three, a burst
   of twice the commands a second the servers answer at saturation; the offered load is
   clients / pace requests a second. Two requests a second per client is still several times
   what a table sends: a person at a table sends a command every few seconds, a phone reads
   its state when the live stream says it changed. A request is timed from the moment it was
   due, not from when it was sent: a client behind its schedule (its last answer came late)
   sends at once and skips nothing, and the wait counts against the requests held up too, so
   a stall is not hidden by the requests it kept from being sent (no coordinated omission).
   The timing includes this process's own lateness in waking a client, so it errs high. A
   client still has one request in flight at most, as a phone does; when the offered load
   passes what the server answers, the backlog grows for the whole round, the achieved load
   falls short of the offered and the p99s grow with ``--seconds``: the server is too slow
   for that load. It runs after the capacity round, on a server already warm.

Printed per round: for capacity, the requests a second at saturation (and the commands and
reads); for paced, the offered and achieved load (requests a second over the round); for both,
the load average before, the CPU time the servers (with their workers) and this process (the
clients) spent per request, p50 and p99 latency of reads and of commands, the responses by
status and the 409s.

Afterwards the journal is read back from the store and checked over both rounds: versions
contiguous 1..N, as many recorded commands as commands acknowledged, and every acknowledged
record in the journal exactly once (nothing lost, nothing doubled), for every campaign.

Targets, on the paced round: on SQLite at 20 clients, p99 of a state read at most 50 ms and
of a command at most 100 ms; 100 clients over 10 campaigns on two PostgreSQL workers, 100 and
200 ms (issue 41); on every setup and round, no lost or duplicated events and no 5xx. Exit
status 1 on any FAIL. The run takes about 3 minutes on a quiet 2-CPU machine (each setup's
capacity round as long as the servers take, its paced round ``--seconds``), and longer on a
busy one.

Another setup, **pages** (``--pages 10``, ``--pages 0`` leaves it out; ``--pages-only`` runs it
alone): does a table's open pages hold its commands up? One ``turnkeeper serve`` over a SQLite
file holding a campaign of ``--events`` (50,000) records, built as bench/growth.py builds its
campaigns (commands folded in memory, the records stored in one go with the snapshots a writer
keeps). ``--page-clients`` (4) clients share ``--page-commands`` (1,000) referee commands, no
reads, three times in the same run: with no page open, with ``--pages`` players' pages open
(each page read once, then its live stream followed and every ``display`` event read to the
end, as a browser does), and with none again. Printed: command p50 and p99 of each round, the
ratio of the p99 with the pages open to the worse of the two rounds without, and how many
displays the pages received. Target: the ratio at most 2 (issue 23: a page is drawn once per
version for all the players' pages, outside the campaign's lock).

And **lanes** (``--lanes``, or ``--lanes-only`` alone): does one campaign's heavy
reads hold up another's commands? One ``turnkeeper serve`` over a SQLite file holding two
campaigns: one whose party stands in the middle of a generated ``--lane-map`` (2000) square
wilderness, and one as the sqlite setup's. ``--lane-clients`` (2) clients share
``--lane-commands`` (300) commands on the second, three times: unloaded, while
``--lane-routes`` (2) clients price the route to the farthest hex a route reaches
(``GET /campaigns/NAME/route``) and ``--lane-maps`` (1) draw windows of radius
``--lane-radius`` (60) around the party (``map.svg``) on the first, again and again, and
unloaded again (the heavy reads under way answered first). Printed: command p50, p95 and max
of each round, the heavy reads answered meanwhile, and the ratio of the loaded p95 to the mean
of the unloaded ones. Target: at most 2 (issue 38: the heavy reads run in a worker process).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import os
import random
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import zlib
from collections import Counter
from collections.abc import Coroutine, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlsplit

import httpx
import numpy as np

from growth import CYCLE, PARTY
from growth import build as build_campaign
from turnkeeper.campaign import Note, Visibility
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.tokens import Role, issue_tokens

PG_ENV = "TURNKEEPER_TEST_PG"
PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
CAMPAIGN = "Bench Keep"
COMMANDS: list[dict[str, object]] = [
    {"verb": "wait", "duration": "10 minutes"},
    {"verb": "light", "source": "torch"},  # lit or not, a fresh torch: legal in any order
    {"verb": "wait", "duration": "10 minutes"},
    {"verb": "rest"},
]
BODIES = [json.dumps(body).encode() for body in COMMANDS]
SQLITE_TARGETS = (50.0, 100.0)  # p99 of a read and of a command, ms: 20 clients, SQLite
SHARED_TARGETS = (100.0, 200.0)  # 100 clients over 10 campaigns, two PostgreSQL workers
results: list[bool] = []


def report(label: str, figure: str, ok: bool | None = None, target: str = "") -> None:
    if ok is not None:
        results.append(ok)
    verdict = "" if ok is None else ("PASS" if ok else "FAIL")
    print(f"  {label:<46} {figure:>34}   {target:<10} {verdict}")


def turnkeeper(*args: str) -> list[str]:
    """The command line of the installed ``turnkeeper`` script (beside this Python)."""
    script = Path(sys.executable).with_name("turnkeeper")
    if script.exists():
        return [str(script), *args]
    return [sys.executable, "-m", "turnkeeper", *args]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """The CPU time (user + system) process ``pid`` and its children (a server's workers)
    have used so far; NaN off Linux."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return float("nan")
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(int(child)) for child in children)


def workers_cpu(pid: int) -> dict[int, float]:
    """The CPU time each worker process of server ``pid`` has used so far (none for a server
    of one process)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return {}
    return {int(child): cpu_seconds(int(child)) for child in children}


@dataclass
class Server:
    base: str
    pid: int


@contextlib.contextmanager
def server(url: str, log: Path, workers: int = 1) -> Iterator[Server]:
    """A ``turnkeeper serve`` process over the store at ``url`` (``workers`` of them on one
    port: ``serve --workers``), answering."""
    port = free_port()
    argv = turnkeeper("serve", "--host", "127.0.0.1", "--port", str(port), "--db", url, "--json")
    argv += ["--workers", str(workers)] if workers > 1 else []
    with log.open("wb") as out:
        process = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # a loaded machine starts a server slowly
        while True:
            if process.poll() is not None:
                raise SystemExit(f"the server exited ({process.returncode}):\n{log.read_text()}")
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{base}/openapi.json", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise SystemExit(f"the server did not answer in 120 s:\n{log.read_text()}")
            time.sleep(0.1)
        yield Server(base, process.pid)
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def pg_schema(url: str) -> Iterator[str]:
    """A fresh PostgreSQL schema; yields a store URL whose connections use only it."""
    from sqlalchemy import create_engine, text

    schema = f"tk_bench_{uuid.uuid4().hex[:12]}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        joiner = "&" if "?" in url else "?"
        yield f"{url}{joiner}options={quote(f'-csearch_path={schema}', safe='')}"
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@dataclass
class Table:
    """A campaign of the run: its name, tokens and version before the load."""

    name: str
    tokens: dict[Role, str]
    start: int


def setup(url: str, count: int) -> list[Table]:
    """Start ``count`` campaigns and make their tokens."""
    store = SqlStore(url)
    try:
        tables = []
        for n in range(count):
            name = CAMPAIGN if count == 1 else f"{CAMPAIGN} {n + 1}"
            state = Campaigns(store).new(name, preset("ex"), PARTY, seed=11 + n)
            tables.append(Table(name, issue_tokens(store, name), state.version))
        return tables
    finally:
        store.close()


@dataclass
class Tally:
    """What the clients saw."""

    reads_ms: list[float] = field(default_factory=list)
    commands_ms: list[float] = field(default_factory=list)
    read_status: Counter[str] = field(default_factory=Counter)
    command_status: Counter[str] = field(default_factory=Counter)
    commands_sent: int = 0  # each once, however many times a 409 sent it again
    acknowledged: int = 0
    acked: Counter[str] = field(default_factory=Counter)  # by campaign
    acked_seqs: list[tuple[str, int]] = field(default_factory=list)
    acked_kinds: dict[tuple[str, int], str] = field(default_factory=dict)


class Http:
    """One keep-alive HTTP/1.1 connection, as a program's client holds it: a request written,
    its answer read by its ``Content-Length`` (or its chunks), gunzipped where the server
    compressed it. Nothing more, so the load costs this process little: httpx spent as much
    CPU per request here as the server did (2.7 ms against 2.9 on the 2-core machine, which
    the two share), so the figures measured the client as much as the server."""

    def __init__(self, base: str) -> None:
        where = urlsplit(base)
        self.host, self.port, self.netloc = where.hostname or "", where.port or 80, where.netloc
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(
        self, method: str, path: str, token: str, body: bytes | None = None
    ) -> tuple[int, bytes]:
        """The status and body of one request; an OSError or EOFError when the connection
        fails (it is opened again by the next request)."""
        if self._streams is None:
            self._streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self._streams
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.netloc}\r\n"
            f"Authorization: Bearer {token}\r\nAccept-Encoding: gzip\r\n"
        )
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        try:
            async with asyncio.timeout(60):
                writer.write(head.encode() + b"\r\n" + (body or b""))
                status, answer, keep = await self._answer(reader)
        except BaseException:
            self.close()
            raise
        if not keep:
            self.close()
        return status, answer

    @staticmethod
    async def _answer(reader: asyncio.StreamReader) -> tuple[int, bytes, bool]:
        lines = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip().lower()
        if headers.get("transfer-encoding") == "chunked":
            parts = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                parts.append((await reader.readexactly(size + 2))[:-2])
            while await reader.readuntil(b"\r\n") != b"\r\n":  # the trailers, if any
                pass
            answer = b"".join(parts)
        else:
            answer = await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("content-encoding") == "gzip":
            answer = zlib.decompress(answer, 16 + zlib.MAX_WBITS)
        return status, answer, headers.get("connection") != "close"

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


FAILED = (OSError, EOFError, asyncio.LimitOverrunError)
"""What a request that got no answer raises (:class:`Http`): counted by its class's name."""

READS_PER_COMMAND = 5  # a table's mix when paced: a command, then five reads of its state
PLAYER_READS = 5  # one state read in five with the player token, the others the referee's


def mix(index: int, commands: int | None = None, reads: int = 0) -> Iterator[bytes | None]:
    """A client's requests in turn: a command's body, then its share of state reads (``None``
    each); the commands taken in turn from the ``index``-th. ``reads`` shared over ``commands``
    (the rest after the last); endless, ``READS_PER_COMMAND`` reads a command, when
    ``commands`` is None."""
    per_command = READS_PER_COMMAND if commands is None else reads // max(1, commands)
    done = 0
    for n in itertools.count() if commands is None else range(commands):
        yield BODIES[(index + n) % len(BODIES)]
        share = per_command if commands is None or n < commands - 1 else reads - done
        yield from itertools.repeat(None, share)
        done += share


async def read_state(http: Http, path: str, token: str, due: float, tally: Tally) -> None:
    """One state read, timed from ``due`` (a ``perf_counter`` time)."""
    try:
        status, _ = await http.request("GET", f"{path}/state", token)
    except FAILED as error:
        tally.read_status[type(error).__name__] += 1
        return
    tally.reads_ms.append((time.perf_counter() - due) * 1e3)
    tally.read_status[str(status)] += 1


async def command(
    http: Http, table: Table, path: str, body: bytes, due: float, tally: Tally
) -> None:
    """One referee command, sent again after each 409 until it lands; timed from ``due`` until
    it lands, its records remembered for the journal's check."""
    tally.commands_sent += 1
    while True:
        try:
            status, answer = await http.request(
                "POST", f"{path}/commands", table.tokens[Role.REFEREE], body
            )
        except FAILED as error:
            tally.command_status[type(error).__name__] += 1
            return
        tally.command_status[str(status)] += 1
        if status != 409:
            break
    if status != 200:
        return
    tally.commands_ms.append((time.perf_counter() - due) * 1e3)
    tally.acknowledged += 1
    tally.acked[table.name] += 1
    for record in json.loads(answer)["records"]:
        tally.acked_seqs.append((table.name, record["seq"]))
        tally.acked_kinds[table.name, record["seq"]] = record["kind"]


async def client(
    base: str,
    table: Table,
    requests: Iterable[bytes | None],
    schedule: Iterable[float | None],
    tally: Tally,
) -> None:
    """One client of a campaign sending ``requests`` (:func:`mix`) on one connection, each at
    its time in ``schedule`` (``perf_counter`` seconds; ``None``: the moment the last is
    answered, a closed loop), until either ends. A client behind its schedule sends at once and
    skips nothing, and a request is timed from the time it was due, not from when it went: an
    answer that comes late counts against the requests it held up too (no coordinated
    omission)."""
    path = f"/api/campaigns/{quote(table.name, safe='')}"
    tokens = itertools.cycle([Role.REFEREE] * (PLAYER_READS - 1) + [Role.PLAYER])
    http = Http(base)
    try:
        for body, due in zip(requests, schedule, strict=False):
            if due is None:
                due = time.perf_counter()
            else:
                await asyncio.sleep(due - time.perf_counter())  # at once when behind
            if body is None:
                await read_state(http, path, table.tokens[next(tokens)], due, tally)
            else:
                await command(http, table, path, body, due, tally)
    finally:
        http.close()


@dataclass(frozen=True)
class Pace:
    """Paced clients: each sends a request every ``every`` seconds for ``seconds``, from a
    phase of its own in the first interval (drawn from ``seed``: the same in every run), so
    that the clients do not send together."""

    every: float
    seconds: float
    seed: int = 41

    def schedules(self, clients: int, start: float) -> list[Iterator[float]]:
        """Each client's due times (``perf_counter`` seconds) in the round from ``start``."""
        phases, end = random.Random(self.seed), start + self.seconds
        return [
            itertools.takewhile(end.__gt__, itertools.count(start + phase, self.every))
            for phase in (phases.uniform(0, self.every) for _ in range(clients))
        ]

    def places(self, clients: int) -> list[int]:
        """How far into its mix (:func:`mix`) each client starts, so that its first command
        comes after 0 to 5 reads (drawn from ``seed``, the same in every run): the commands,
        not only the requests, are spread over the round."""
        draws = random.Random(self.seed + 1)
        return [draws.randrange(READS_PER_COMMAND + 1) for _ in range(clients)]


async def load(
    bases: list[str],
    tables: list[Table],
    clients: int,
    commands: int = 0,
    reads: int = 0,
    pace: Pace | None = None,
) -> tuple[Tally, float]:
    """``clients`` clients, each on one campaign (in turn) and one server: closed loops
    sharing ``commands`` and ``reads``, or, with ``pace``, paced clients sending the endless
    mix; what they saw, and the seconds from the start until the last answer."""
    tally = Tally()
    started = time.perf_counter()
    schedules: Sequence[Iterable[float | None]] = (
        # None: due the moment the last is answered (a closed loop)
        pace.schedules(clients, started) if pace else [itertools.repeat(None)] * clients
    )
    places = pace.places(clients) if pace else [0] * clients
    runs = []
    for i, schedule in enumerate(schedules):
        quota = commands // clients + (i < commands % clients)
        requests = (
            itertools.islice(mix(i), places[i], None)
            if pace
            else mix(i, quota, reads // clients + (i < reads % clients))
        )
        runs.append(
            client(bases[i % len(bases)], tables[i % len(tables)], requests, schedule, tally)
        )
    await asyncio.gather(*runs)
    return tally, time.perf_counter() - started


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank) of ``values``; NaN for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def check_journal(url: str, tables: list[Table], *tallies: Tally) -> bool:
    """Each campaign's versions contiguous, as many commands recorded as acknowledged over
    the ``tallies`` (the rounds run on the store), each ack's records once."""
    store = SqlStore(url)
    contiguous, recorded, lost, unacked, total = True, 0, 0, 0, 0
    acked_seqs = [seq for tally in tallies for seq in tally.acked_seqs]
    acked = set(acked_seqs)
    acknowledged = sum(tally.acknowledged for tally in tallies)
    try:
        for table in tables:
            records = store.read(table.name)
            version = store.version(table.name)
            total += version
            seqs = [int(str(r["seq"])) for r in records]
            contiguous &= seqs == list(range(1, len(seqs) + 1)) and version == len(seqs)
            commands = {int(str(r["command"])) for r in records if int(str(r["seq"])) > table.start}
            recorded += len(commands)
            kinds = {int(str(r["seq"])): r["kind"] for r in records}
            lost += sum(
                1
                for tally in tallies
                for (name, seq), kind in tally.acked_kinds.items()
                if name == table.name and kinds.get(seq) != kind
            )
            mine = {seq for name, seq in acked if name == table.name}
            unacked += len(set(seqs) - mine - set(range(1, table.start + 1)))
    finally:
        store.close()
    report("journal versions contiguous 1..N", f"{total:,} records", contiguous, "contiguous")
    ok = recorded == acknowledged
    report("commands recorded / acknowledged", f"{recorded:,} / {acknowledged:,}", ok, "equal")
    doubled = len(acked_seqs) - len(acked)
    ok = doubled == 0 and lost == 0 and unacked == 0
    figure = f"{lost} lost, {doubled} doubled, {unacked} unacked"
    report("acknowledged records in the journal once", figure, ok, "0 each")
    return contiguous and ok


@dataclass
class Round:
    """One round of load on a server: what the clients saw, its seconds, the load average
    before it, and the CPU time the servers, each worker and this process (the clients) spent."""

    tally: Tally
    seconds: float
    load_average: float
    server_cpu: float
    worker_cpu: list[float]
    client_cpu: float

    @property
    def requests(self) -> int:
        """The requests answered or failed, each retry of a command one more."""
        return sum(self.tally.read_status.values()) + sum(self.tally.command_status.values())


def timed(
    running: Server, workers: int, clients: Coroutine[None, None, tuple[Tally, float]]
) -> Round:
    """The ``clients`` (:func:`load`) run against ``running``, with the CPU each side spent."""
    load_average = os.getloadavg()[0]
    server_cpu = -cpu_seconds(running.pid)
    before = workers_cpu(running.pid) if workers > 1 else {}
    client_cpu = -sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
    tally, seconds = asyncio.run(clients)
    server_cpu += cpu_seconds(running.pid)
    spent = [cpu - before[pid] for pid, cpu in workers_cpu(running.pid).items() if pid in before]
    client_cpu += sum(resource.getrusage(resource.RUSAGE_SELF)[:2])
    return Round(tally, seconds, load_average, server_cpu, spent, client_cpu)


def report_round(turn: Round, targets: tuple[float, float] | None = None) -> None:
    """A round's CPU per request, latencies and answers; ``targets`` (the p99 of a read and of
    a command, in ms) checked when given."""
    tally, requests = turn.tally, turn.requests
    report("server CPU per request (all servers)", f"{turn.server_cpu / requests * 1e3:.2f} ms")
    if turn.worker_cpu:  # do the workers share the load? (each client keeps its connection's)
        shares = " / ".join(
            f"{cpu / max(1e-9, sum(turn.worker_cpu)):.0%}" for cpu in turn.worker_cpu
        )
        report("  share of the CPU by child process", shares)
    report("client CPU per request (this process)", f"{turn.client_cpu / requests * 1e3:.2f} ms")
    for (kind, times), most in zip(
        (("state read", tally.reads_ms), ("command (until it lands)", tally.commands_ms)),
        targets or (None, None),
        strict=True,
    ):
        report(f"{kind} p50", f"{percentile(times, 50):.1f} ms")
        p99 = percentile(times, 99)
        ok, target = (None, "") if most is None else (p99 <= most, f"<= {most:g} ms")
        report(f"{kind} p99", f"{p99:.1f} ms", ok, target)
    for kind, statuses in (("reads", tally.read_status), ("commands", tally.command_status)):
        shown = ", ".join(f"{status}: {count:,}" for status, count in sorted(statuses.items()))
        report(f"{kind} by status", shown)
    conflicts = tally.command_status.get("409", 0)
    report("409 conflicts (retried until landed)", f"{conflicts:,}")
    errors = sum(
        count
        for statuses in (tally.read_status, tally.command_status)
        for status, count in statuses.items()
        if status not in ("200", "409")
    )
    ok = errors == 0 and tally.acknowledged == tally.commands_sent
    figure = f"{errors} errors, {tally.acknowledged:,} of {tally.commands_sent:,} landed"
    report("every request answered, every command landed", figure, ok, "0, all")


def run(
    label: str,
    url: str,
    args: argparse.Namespace,
    folder: Path,
    clients: int,
    campaigns: int = 1,
    workers: int = 1,
    targets: tuple[float, float] | None = None,
) -> None:
    """``clients`` clients over ``campaigns`` campaigns on ``serve --workers workers``: the
    capacity round (closed loops), then the paced round, on one store; ``targets``: the paced
    round's p99 of a read and of a command, in ms, checked."""
    tables = setup(url, campaigns)
    pace = Pace(args.pace, args.seconds)
    with server(url, folder / f"{label}.log", workers) as running:
        bases = [running.base]
        capacity = timed(running, workers, load(bases, tables, clients, args.commands, args.reads))
        paced = timed(running, workers, load(bases, tables, clients, pace=pace))
    print(
        f"{label}: {workers} server process{'es' if workers > 1 else ''}, {clients} clients "
        f"over {campaigns} campaign{'s' if campaigns > 1 else ''} on {os.cpu_count()} CPUs"
    )
    print(
        f" capacity: closed loops without a pause, {args.commands:,} commands and "
        f"{args.reads:,} state reads in {capacity.seconds:.1f} s (load average "
        f"{capacity.load_average:.1f} before); latency here is the queue (clients / throughput)"
        f", no target"
    )
    tally, seconds = capacity.tally, capacity.seconds
    report("requests per second at saturation", f"{capacity.requests / seconds:,.0f}/s")
    figure = f"{tally.acknowledged / seconds:,.0f} / {len(tally.reads_ms) / seconds:,.0f}/s"
    report("  commands / reads per second", figure)
    report_round(capacity)
    sent = paced.tally.commands_sent + sum(paced.tally.read_status.values())
    print(
        f" paced: each client a request every {args.pace:g} s from a phase of its own, for "
        f"{args.seconds:g} s (load average {paced.load_average:.1f} before); latency from "
        f"each request's due time"
    )
    report("offered load (clients / pace)", f"{clients / args.pace:,.1f} requests/s")
    span = max(args.seconds, paced.seconds)  # longer when the last answers came late
    report("achieved load", f"{sent / span:,.1f} requests/s ({sent:,} in {span:.1f} s)")
    report_round(paced, targets)
    print(" journal, after both rounds")
    check_journal(url, tables, capacity.tally, paced.tally)


# -- pages: does a table's open pages hold its commands up? ----------------------------------

PAGES_RATIO = 2.0


def build(url: str, events: int) -> dict[Role, str]:
    """A campaign of at least ``events`` records at ``url``, built as bench/growth.py builds
    its own (so the server's first read folds only the tail), and its links' tokens. Some
    notes are the referee's, so the players' pages have records to leave out."""
    cycle = (*CYCLE, Note("the referee's own: the vault is behind the altar", Visibility.REFEREE))
    build_campaign(url, events, name=CAMPAIGN, ruleset="ex", seed=11, cycle=cycle)
    store = SqlStore(url)
    try:
        return issue_tokens(store, CAMPAIGN)
    finally:
        store.close()


@dataclass
class Pages:
    """What the open pages saw."""

    opened: int = 0
    displays: int = 0
    leaked: int = 0
    errors: Counter[str] = field(default_factory=Counter)


async def follow_page(base: str, token: str, pages: Pages, ready: asyncio.Event) -> None:
    """One players' page: read once, then its live stream followed until cancelled, every
    ``display`` event read whole."""
    path = f"/campaigns/{quote(CAMPAIGN, safe='')}"
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(60, read=None)) as http:
        try:
            answer = await http.get(path, params={"token": token})
            answer.raise_for_status()
            found = re.search(r'data-version="(\d+)"', answer.text)
            since = found.group(1) if found else "0"
            live = f"{path}/live"
            params = {"token": token, "since": since}
            async with http.stream("GET", live, params=params) as response:
                response.raise_for_status()
                pages.opened += 1
                ready.set()
                event = ""
                async for line in response.aiter_lines():
                    if line.startswith("event:"):
                        event = line.split(":", 1)[1].strip()
                    elif line.startswith("data:") and "vault is behind the altar" in line:
                        pages.leaked += 1
                    elif line == "" and event:
                        pages.displays += event in ("display", "parts")  # whole, or what changed
                        event = ""
        except httpx.HTTPError as error:
            pages.errors[type(error).__name__] += 1
            ready.set()


async def pages_round(
    base: str, tokens: dict[Role, str], open_pages: int, args: argparse.Namespace
) -> tuple[Tally, Pages]:
    """The commands, with ``open_pages`` players' pages following the table meanwhile."""
    pages = Pages()
    followers: list[asyncio.Task[None]] = []
    for _ in range(open_pages):
        ready = asyncio.Event()
        followers.append(asyncio.create_task(follow_page(base, tokens[Role.PLAYER], pages, ready)))
        await ready.wait()
    try:
        await asyncio.sleep(0.5)  # the streams settled: the watcher has seen the campaign
        tally, _ = await load(
            [base], [Table(CAMPAIGN, tokens, 0)], args.page_clients, args.page_commands, 0
        )
        await asyncio.sleep(1.0)  # the last versions' displays arrive
    finally:
        for follower in followers:
            follower.cancel()
        await asyncio.gather(*followers, return_exceptions=True)
    return tally, pages


def run_pages(args: argparse.Namespace, folder: Path) -> None:
    url = f"sqlite:///{folder / 'pages.db'}"
    started = time.perf_counter()
    tokens = build(url, args.events)
    store = SqlStore(url)
    try:
        events = store.version(CAMPAIGN)
    finally:
        store.close()
    built = time.perf_counter() - started
    load_average = os.getloadavg()[0]
    rounds: list[tuple[str, int, Tally, Pages, float]] = []
    with server(url, folder / "pages.log") as running:
        # warm: the journal read (from its snapshot) and a page drawn before anything is timed
        warm = httpx.get(
            f"{running.base}/campaigns/{quote(CAMPAIGN, safe='')}",
            params={"token": tokens[Role.PLAYER]},
            timeout=120,
        )
        warm.raise_for_status()
        for label, open_pages in (
            ("no page open", 0),
            (f"{args.pages} players' pages open", args.pages),
            ("no page open, again", 0),
        ):
            cpu = cpu_seconds(running.pid)
            tally, pages = asyncio.run(pages_round(running.base, tokens, open_pages, args))
            rounds.append((label, open_pages, tally, pages, cpu_seconds(running.pid) - cpu))
    print(
        f"pages: 1 server process, a campaign of {events:,} events (built in {built:.0f} s), "
        f"{args.page_clients} clients sharing {args.page_commands:,} commands per round "
        f"(load average {load_average:.1f} on {os.cpu_count()} CPUs before)"
    )
    quiet: list[float] = []
    loud = float("nan")
    for label, open_pages, tally, pages, cpu in rounds:
        p99 = percentile(tally.commands_ms, 99)
        p50 = percentile(tally.commands_ms, 50)
        report(f"command p50 / p99, {label}", f"{p50:.1f} / {p99:.1f} ms")
        report(
            f"  server CPU per command, {label}", f"{cpu / max(1, tally.acknowledged) * 1e3:.2f} ms"
        )
        errors = sum(
            n for status, n in tally.command_status.items() if status not in ("200", "409")
        )
        ok = errors == 0 and tally.acknowledged == args.page_commands
        report(
            f"  every command landed, {label}",
            f"{errors} errors, {tally.acknowledged:,}",
            ok,
            "0, all",
        )
        if open_pages:
            loud = p99
            figure = f"{pages.opened} open, {pages.displays:,} displays"
            ok = pages.opened == open_pages and not pages.errors and pages.displays > 0
            report("  pages followed the table", figure, ok, "all open")
            report("  referee's note on a players' page", f"{pages.leaked}", pages.leaked == 0, "0")
        else:
            quiet.append(p99)
    baseline = statistics.fmean(quiet)
    ratio = loud / baseline
    figure = f"{loud:.1f} / {baseline:.1f} ms = {ratio:.2f}x"
    report(
        "command p99 with pages / without (mean)",
        figure,
        ratio <= PAGES_RATIO,
        f"<= {PAGES_RATIO:g}x",
    )


# -- lanes: does one campaign's heavy reads hold up another's commands? ----------------------

LANES_RATIO = 2.0
HUGE = "Huge Wilds"


def build_lanes(url: str, size: int) -> tuple[dict[Role, str], dict[Role, str], str, str]:
    """Two campaigns at ``url``: ``CAMPAIGN`` (the ``ex`` preset, as the sqlite setup's) and
    ``HUGE``, its party in the middle of a generated ``size`` x ``size`` wilderness; their
    tokens, the hex farthest from the party that a route reaches, and the party's hex."""
    from turnkeeper.procedures.wilderness import LoadMap
    from turnkeeper.procedures.wilderness.costs import route_grid
    from turnkeeper.world.generate import generate_map
    from turnkeeper.world.hexes import Hex
    from turnkeeper.world.mapfile import MapFile, map_to_data
    from turnkeeper.world.route import route_costs

    hexmap = generate_map(size, size, seed=3)
    middle = Hex.from_offset(size // 2, size // 2)
    rules = preset("tp")
    reach = route_costs(route_grid(rules, hexmap), middle)
    farthest = int(np.argmax(np.where(np.isfinite(reach), reach, -1)))
    goal = Hex.from_offset(farthest % size, farthest // size)
    store = SqlStore(url)
    try:
        campaigns = Campaigns(store)
        campaigns.new(CAMPAIGN, preset("ex"), PARTY, seed=11)
        campaigns.new(HUGE, rules, PARTY, seed=12)
        campaigns.execute(HUGE, LoadMap(MapFile.model_validate(map_to_data(hexmap)), middle))
        return issue_tokens(store, CAMPAIGN), issue_tokens(store, HUGE), goal.label, middle.label
    finally:
        store.close()


@dataclass
class Heavy:
    """What the heavy readers saw."""

    routes_ms: list[float] = field(default_factory=list)
    maps_ms: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


async def heavy_reader(
    base: str,
    token: str,
    path: str,
    params: dict[str, str],
    times: list[float],
    heavy: Heavy,
    stop: asyncio.Event,
) -> None:
    """One client asking ``path`` of the huge campaign again and again, until ``stop``."""
    async with httpx.AsyncClient(base_url=base, timeout=300) as http:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                answer = await http.get(path, params={"token": token, **params})
            except httpx.TransportError as error:
                heavy.errors[type(error).__name__] += 1
                continue
            if answer.status_code != 200:
                heavy.errors[f"{path} {answer.status_code}"] += 1
            else:
                times.append((time.perf_counter() - started) * 1e3)


async def lanes_round(
    base: str,
    tokens: dict[Role, str],
    huge: str,
    goal: str,
    middle: str,
    args: argparse.Namespace,
) -> tuple[Tally, Heavy]:
    """The commands on ``CAMPAIGN``, with the huge campaign's routes and map windows asked
    meanwhile when ``huge`` (its referee's token) is given."""
    heavy, stop = Heavy(), asyncio.Event()
    readers: list[asyncio.Task[None]] = []
    if huge:
        page = f"/campaigns/{quote(HUGE, safe='')}"
        window = {"around": middle, "radius": str(args.lane_radius)}
        for _ in range(args.lane_routes):
            reader = heavy_reader(
                base, huge, f"{page}/route", {"to": goal}, heavy.routes_ms, heavy, stop
            )
            readers.append(asyncio.create_task(reader))
        for _ in range(args.lane_maps):
            path = f"/api/campaigns/{quote(HUGE, safe='')}/map.svg"
            readers.append(
                asyncio.create_task(
                    heavy_reader(base, huge, path, window, heavy.maps_ms, heavy, stop)
                )
            )
        await asyncio.sleep(1.0)  # the heavy reads are under way
    try:
        tables = [Table(CAMPAIGN, tokens, 0)]
        tally, _ = await load([base], tables, args.lane_clients, args.lane_commands, 0)
    finally:
        stop.set()  # the reads under way are answered: the next round starts unloaded
        await asyncio.gather(*readers, return_exceptions=True)
    return tally, heavy


def run_lanes(args: argparse.Namespace, folder: Path) -> None:
    url = f"sqlite:///{folder / 'lanes.db'}"
    started = time.perf_counter()
    tokens, huge, goal, middle = build_lanes(url, args.lane_map)
    built = time.perf_counter() - started
    load_average = os.getloadavg()[0]
    rounds: list[tuple[str, bool, Tally, Heavy]] = []
    with server(url, folder / "lanes.log") as running:
        # warm: both campaigns read, a route priced and a window drawn before anything is timed
        keep, wilds = (f"/campaigns/{quote(name, safe='')}" for name in (CAMPAIGN, HUGE))
        for path, token, params in (
            (f"/api{keep}/state", tokens[Role.REFEREE], {}),
            (f"{wilds}/route", huge[Role.REFEREE], {"to": goal}),
            (f"/api{wilds}/map.svg", huge[Role.REFEREE], {"around": middle, "radius": "5"}),
        ):
            warm = httpx.get(
                f"{running.base}{path}", params={"token": token, **params}, timeout=300
            )
            warm.raise_for_status()
        for label, loaded in (
            ("unloaded", False),
            ("under route and map load", True),
            ("unloaded, again", False),
        ):
            heavy_token = huge[Role.REFEREE] if loaded else ""
            tally, heavy = asyncio.run(
                lanes_round(running.base, tokens, heavy_token, goal, middle, args)
            )
            rounds.append((label, loaded, tally, heavy))
    print(
        f"lanes: 1 server process, campaign {HUGE!r} on a {args.lane_map:,} x {args.lane_map:,} "
        f"map (built in {built:.0f} s); {args.lane_clients} clients sharing "
        f"{args.lane_commands:,} commands on another campaign per round, under {args.lane_routes} "
        f"route clients (to {goal}) and {args.lane_maps} map clients (radius {args.lane_radius}) "
        f"(load average {load_average:.1f} on {os.cpu_count()} CPUs before)"
    )
    quiet: list[float] = []
    loud = float("nan")
    for label, loaded, tally, heavy in rounds:
        p95 = percentile(tally.commands_ms, 95)
        figure = (
            f"{percentile(tally.commands_ms, 50):.1f} / {p95:.1f} / {max(tally.commands_ms):.1f} ms"
        )
        report(f"command p50 / p95 / max, {label}", figure)
        errors = sum(n for status, n in tally.command_status.items() if status != "200")
        ok = errors == 0 and tally.acknowledged == args.lane_commands
        report(
            f"  every command landed, {label}",
            f"{errors} errors, {tally.acknowledged:,}",
            ok,
            "0, all",
        )
        if loaded:
            loud = p95
            routes, maps = heavy.routes_ms, heavy.maps_ms
            report(
                "  routes priced meanwhile (p50)",
                f"{len(routes)} ({percentile(routes, 50):,.0f} ms)",
            )
            report(
                "  map windows drawn meanwhile (p50)",
                f"{len(maps)} ({percentile(maps, 50):,.0f} ms)",
            )
            ok = not heavy.errors and bool(routes) and bool(maps)
            report(
                "  heavy reads answered",
                ", ".join(f"{k}: {n}" for k, n in heavy.errors.items()) or "all",
                ok,
                "all",
            )
        else:
            quiet.append(p95)
    baseline = statistics.fmean(quiet)
    ratio = loud / baseline
    figure = f"{loud:.1f} / {baseline:.1f} ms = {ratio:.2f}x"
    report(
        "command p95 under load / unloaded (mean)",
        figure,
        ratio <= LANES_RATIO,
        f"<= {LANES_RATIO:g}x",
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="The module's docstring says what each setup measures and its targets.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    add = parser.add_argument
    add("--pg", default=os.environ.get(PG_ENV) or PG_DEFAULT, help=f"PostgreSQL (else ${PG_ENV})")
    add("--no-pg", action="store_true", help="leave the PostgreSQL setup out")
    add("--pg-only", action="store_true", help="run the PostgreSQL setup alone")
    add("--clients", type=int, default=20, help="clients of the sqlite setup")
    add("--many-clients", type=int, default=100, help="clients over --campaigns")
    add("--campaigns", type=int, default=10, help="0: no many-tables setup")
    add("--pace", type=float, default=0.5, help="paced round: seconds between a client's requests")
    add("--seconds", type=float, default=30, help="paced round: how long it lasts")
    add("--commands", type=int, default=1000, help="capacity round: commands shared")
    add("--reads", type=int, default=5000, help="capacity round: state reads shared")
    add("--pages", type=int, default=10, help="players' pages open; 0: no pages setup")
    add("--pages-only", action="store_true", help="run the pages setup alone")
    add("--events", type=int, default=50_000, help="the pages setup's journal")
    add("--page-clients", type=int, default=4, help="pages setup: clients")
    add("--page-commands", type=int, default=1000, help="pages setup: commands per round")
    add("--lanes", action="store_true", help="run the lanes setup as well")
    add("--lanes-only", action="store_true", help="run the lanes setup alone")
    add("--lane-map", type=int, default=2000, help="the huge map's side")
    add("--lane-clients", type=int, default=2, help="lanes setup: clients sending commands")
    add("--lane-commands", type=int, default=300, help="lanes setup: commands per round")
    add("--lane-routes", type=int, default=2, help="clients asking routes")
    add("--lane-maps", type=int, default=1, help="clients asking map windows")
    add("--lane-radius", type=int, default=60, help="a map window's radius")
    args = parser.parse_args()
    if args.pace <= 0 or args.seconds <= 0:
        parser.error("--pace and --seconds: a number of seconds above 0")
    folder = Path(tempfile.mkdtemp(prefix="tk-bench-serve-"))
    try:
        if args.lanes_only:
            run_lanes(args, folder)
            return 0 if all(results) else 1
        if not args.pages_only:
            many, tables = args.many_clients, args.campaigns
            if args.pg_only:
                with pg_schema(args.pg) as url:
                    run("postgresql", url, args, folder, many, max(1, tables), 2, SHARED_TARGETS)
                return 0 if all(results) else 1
            sqlite = f"sqlite:///{folder / 'serve.db'}"
            run("sqlite", sqlite, args, folder, args.clients, targets=SQLITE_TARGETS)
            if tables > 0:
                tens = f"sqlite:///{folder / 'tables.db'}"
                run("sqlite, many tables", tens, args, folder, many, tables)
            if args.no_pg:
                print("postgresql: left out (--no-pg)")
            else:
                with pg_schema(args.pg) as url:
                    run("postgresql", url, args, folder, many, max(1, tables), 2, SHARED_TARGETS)
        if args.pages > 0:
            run_pages(args, folder)
        else:
            print("pages: left out (--pages 0)")
        if args.lanes:
            run_lanes(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
