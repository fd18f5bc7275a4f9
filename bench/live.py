"""Live delivery benchmark: from a referee's command to the change on N players' pages, against
the floor of this machine, measured in the same run.

    .venv/bin/python bench/live.py [--pages 1,10,50] [--commands 30] [--pause 0.25]

Two servers over loopback HTTP, each a process of its own started by this script:

- **turnkeeper**: ``turnkeeper serve`` over a fresh SQLite file holding one campaign (``ex``
  preset, two characters, a 24 x 24 wilderness map with the party on it) and its tokens.
- **bare forwarder**: a Starlette app on the same uvicorn and sse-starlette that forwards a
  posted message to every open event stream and does nothing else: no store, no state, no
  drawing. Its message is as long as the average event turnkeeper sent its pages in a warm-up,
  so both carry the same bytes. It is the floor: no server delivers faster on this machine.

For each N in ``--pages``, N players' pages are opened as a browser opens them (the page read
once, then its stream followed, gzip accepted, each event decoded as it arrives), and a
browser-like referee (the dashboard's form post, ``HX-Request``, the page's id, the version it
shows; its own page's stream open too) sends ``--commands`` commands, alternately ``wait 10
minutes`` (the clock, the light, the journal move) and a ``note`` (one line of the journal),
with ``--pause`` seconds between them, as a table does. A command's latency on a page is from
the moment its post is sent to the moment that page has decoded the event carrying its
version. The forwarder's rounds are the same with a post of the message. The rounds
alternate (forwarder, turnkeeper for each N) so a load that comes and goes hits both.

Printed per N: the median and 90th percentile of the latencies on every page, both servers,
and their ratios; and the bytes a player's page receives per note (as sent, compressed, with
the events' framing) against what it was sent before issue 41 (the whole display,
uncompressed), with the referee's answer the same way (before, the whole referee's display in
the answer and again on its stream). Targets (issue 41): at 10 pages, median at most 2x the
forwarder's and 90th percentile at most 3x; a player's bytes per note at most a quarter.
Exit status 1 on any FAIL.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import httpx

from growth import PARTY
from serve import cpu_seconds, free_port, percentile, server
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.tokens import Role, issue_tokens
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile

CAMPAIGN = "Live Keep"
MEDIAN_RATIO, P90_RATIO, BYTES_RATIO = 2.0, 3.0, 0.25
COMMANDS = ({"verb": "wait", "duration": "10 minutes"}, {"verb": "note", "text": "A rope frays."})
PAGE_HEADER = "X-Turnkeeper-Page"
results: list[bool] = []

FORWARDER = """
import asyncio, sys
import uvicorn
from sse_starlette import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

streams = set()

async def post(request):
    message = (await request.body()).decode()
    ident = request.query_params["id"]
    for queue in list(streams):
        queue.put_nowait((ident, message))
    return PlainTextResponse(ident)

async def events(request):
    queue = asyncio.Queue()
    streams.add(queue)
    async def sent():
        try:
            while True:
                ident, message = await queue.get()
                yield ServerSentEvent(data=message, event="parts", id=ident)
        finally:
            streams.discard(queue)
    return EventSourceResponse(sent(), ping=15)

app = Starlette(routes=[Route("/post", post, methods=["POST"]), Route("/events", events)])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def report(label: str, figure: str, ok: bool | None = None, target: str = "") -> None:
    if ok is not None:
        results.append(ok)
    verdict = "" if ok is None else ("PASS" if ok else "FAIL")
    print(f"  {label:<46} {figure:>34}   {target:<10} {verdict}")


@contextlib.contextmanager
def forwarder() -> Iterator[tuple[str, int]]:
    """The bare forwarder in a process of its own, answering; its base URL and pid."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", FORWARDER, str(port)])
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(httpx.TransportError):
                if httpx.post(f"{base}/post?id=0", content=b"", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit("the forwarder did not answer in 30 s")
            time.sleep(0.1)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(10)


def setup(url: str) -> dict[Role, str]:
    """The campaign, on a map, and its tokens."""
    rows = ["".join("pfhmpfpp"[(x * 7 + y * 3) % 8] for x in range(24)) for y in range(24)]
    vale = MapFile(name="Vale", width=24, height=24, terrain=rows)
    store = SqlStore(url)
    try:
        campaigns = Campaigns(store)
        campaigns.new(CAMPAIGN, preset("ex"), PARTY, seed=11)
        campaigns.execute(CAMPAIGN, LoadMap(vale, Hex.from_label("1010")))
        return issue_tokens(store, CAMPAIGN)
    finally:
        store.close()


@dataclass
class Round:
    """What the pages of one round saw: when each version arrived, and the bytes."""

    arrived: dict[int, list[float]] = field(default_factory=dict)
    wire: dict[int, list[int]] = field(default_factory=dict)  # bytes on the wire, by version
    sizes: list[int] = field(default_factory=list)  # the events' data, decoded
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def arrive(self, version: int, wire: int, size: int) -> None:
        self.arrived.setdefault(version, []).append(time.perf_counter())
        self.wire.setdefault(version, []).append(wire)
        self.sizes.append(size)
        self.changed.set()

    async def all_arrived(self, version: int, pages: int, within: float = 60) -> list[float]:
        deadline = time.monotonic() + within
        while len(self.arrived.get(version, ())) < pages:
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise SystemExit(
                    f"version {version} reached {len(self.arrived.get(version, ()))}"
                    f" of {pages} pages in {within:.0f} s"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)
        return self.arrived[version]


async def events(response: httpx.Response) -> AsyncIterator[tuple[str, int, int]]:
    """Each event's id, its bytes on the wire and its data's length, as a browser decodes
    them: gzip undone chunk by chunk, an event complete at its blank line."""
    gzipped = response.headers.get("content-encoding") == "gzip"
    unpack = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzipped else None
    text, wire = "", 0
    async for chunk in response.aiter_raw():
        wire += len(chunk)
        text += (unpack.decompress(chunk) if unpack else chunk).decode()
        while True:
            end = min((i for i in (text.find("\r\n\r\n"), text.find("\n\n")) if i >= 0), default=-1)
            if end < 0:
                break
            event, text = text[:end], text[end:].lstrip("\r\n")
            ident = re.search(r"^id: ?(\d+)", event, re.M)
            if ident is not None:
                data = sum(len(line) - 5 for line in event.splitlines() if line.startswith("data:"))
                yield ident[1], wire, data
                wire = 0


async def follow(
    http: httpx.AsyncClient,
    url: str,
    seen: Round,
    ready: asyncio.Event,
    headers: dict[str, str] | None = None,
) -> None:
    async with http.stream("GET", url, headers=headers) as response:
        response.raise_for_status()
        ready.set()
        async for ident, wire, size in events(response):
            seen.arrive(int(ident), wire, size)


@contextlib.asynccontextmanager
async def opened(urls: list[str], seen: Round) -> AsyncIterator[None]:
    """Streams following ``urls``, each on its connection, until the block ends."""
    limits = httpx.Limits(max_connections=len(urls) + 8, max_keepalive_connections=len(urls) + 8)
    timeout = httpx.Timeout(60, read=None)
    async with httpx.AsyncClient(limits=limits, timeout=timeout) as http:
        tasks = []
        for url in urls:
            ready = asyncio.Event()
            tasks.append(asyncio.create_task(follow(http, url, seen, ready)))
            await ready.wait()
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


def page_links(http: httpx.Client, base: str, token: str) -> tuple[str, str, int]:
    """A page read as a browser reads it: its stream's link, its page id, its version."""
    page = http.get(f"{base}/campaigns/{quote(CAMPAIGN, safe='')}", params={"token": token})
    page.raise_for_status()
    link = re.search(r'sse-connect="([^"]+)"', page.text)
    version = re.search(r'data-version="(\d+)"', page.text)
    assert link is not None and version is not None
    url = base + link[1].replace("&amp;", "&")
    ident = re.search(r"[?&]page=([^&]+)", url)
    return url, ident[1] if ident else "", int(version[1])


@dataclass
class Timed:
    latencies: list[float] = field(default_factory=list)
    cpu: float = 0.0  # the server's CPU seconds per command
    player_wire: list[int] = field(default_factory=list)  # per note, one player's page
    referee_wire: list[int] = field(default_factory=list)  # per note: answer and stream
    sizes: list[int] = field(default_factory=list)


async def turnkeeper_round(
    base: str, tokens: dict[Role, str], pages: int, args: argparse.Namespace
) -> Timed:
    timed = Timed()
    with httpx.Client(timeout=60) as http:
        links = [page_links(http, base, tokens[Role.PLAYER])[0] for _ in range(pages)]
        referee_link, referee_page, version = page_links(http, base, tokens[Role.REFEREE])
    players, referee = Round(), Round()
    form = f"{base}/campaigns/{quote(CAMPAIGN, safe='')}/commands"
    async with (
        opened(links, players),
        opened([referee_link], referee),
        httpx.AsyncClient(timeout=60) as http,
    ):
        for n in range(args.commands):
            body = {**COMMANDS[n % 2], "expected_version": str(version)}
            headers = {"HX-Request": "true", PAGE_HEADER: referee_page}
            started = time.perf_counter()
            answer = await http.post(
                form, params={"token": tokens[Role.REFEREE]}, data=body, headers=headers
            )
            answer.raise_for_status()
            found = re.search(r'data-version="(\d+)"', answer.text)
            assert found is not None, answer.text[:300]
            version = int(found[1])
            for arrived in await players.all_arrived(version, pages):
                timed.latencies.append((arrived - started) * 1e3)
            if COMMANDS[n % 2]["verb"] == "note":
                timed.player_wire.append(players.wire[version][0])
                await asyncio.sleep(args.pause)  # a stream's copy, if it sends one, arrives
                again = sum(referee.wire.get(version, []))
                timed.referee_wire.append(answer.num_bytes_downloaded + again)
            await asyncio.sleep(args.pause)
    timed.sizes = players.sizes
    return timed


async def forwarder_round(base: str, pages: int, size: int, args: argparse.Namespace) -> Timed:
    timed = Timed()
    seen = Round()
    message = ("x" * 79 + "\n") * (size // 80) + "x" * (size % 80)
    async with opened([f"{base}/events"] * pages, seen), httpx.AsyncClient(timeout=60) as http:
        for n in range(1, args.commands + 1):
            started = time.perf_counter()
            answer = await http.post(f"{base}/post", params={"id": n}, content=message)
            answer.raise_for_status()
            for arrived in await seen.all_arrived(n, pages):
                timed.latencies.append((arrived - started) * 1e3)
            await asyncio.sleep(args.pause)
    return timed


def whole_displays(base: str, tokens: dict[Role, str]) -> dict[Role, int]:
    """The bytes of each role's whole display, uncompressed: what a command cost before."""
    sizes = {}
    for role in Role:
        answer = httpx.get(
            f"{base}/campaigns/{quote(CAMPAIGN, safe='')}/display",
            params={"token": tokens[role]},
            headers={"Accept-Encoding": "identity"},
            timeout=60,
        )
        answer.raise_for_status()
        sizes[role] = len(answer.content)
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", default="1,10,50", help="players' pages open, per round")
    parser.add_argument("--commands", type=int, default=30, help="commands per round")
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between commands")
    args = parser.parse_args()
    counts = [int(n) for n in args.pages.split(",")]
    with tempfile.TemporaryDirectory(prefix="tk-live-") as folder:
        url = f"sqlite:///{Path(folder) / 'live.db'}"
        tokens = setup(url)
        load_average = os.getloadavg()[0]
        with server(url, Path(folder) / "serve.log") as running, forwarder() as (bare, pid):
            whole = whole_displays(running.base, tokens)
            warm = asyncio.run(turnkeeper_round(running.base, tokens, 1, args))
            size = round(statistics.fmean(warm.sizes)) if warm.sizes else 1000
            rows = []
            for pages in counts:
                used = cpu_seconds(pid)
                floor = asyncio.run(forwarder_round(bare, pages, size, args))
                floor.cpu = (cpu_seconds(pid) - used) / args.commands
                used = cpu_seconds(running.pid)
                ours = asyncio.run(turnkeeper_round(running.base, tokens, pages, args))
                ours.cpu = (cpu_seconds(running.pid) - used) / args.commands
                rows.append((pages, floor, ours))
    print(
        f"live: a referee's command to N players' pages, {args.commands} commands a round, "
        f"{args.pause:g} s apart; the forwarder's events {size:,} bytes "
        f"(load average {load_average:.1f} on {os.cpu_count()} CPUs before)"
    )
    for pages, floor, ours in rows:
        medians = percentile(ours.latencies, 50), percentile(floor.latencies, 50)
        p90s = percentile(ours.latencies, 90), percentile(floor.latencies, 90)
        check = pages == 10
        ratio = medians[0] / medians[1]
        report(
            f"{pages} pages: median, turnkeeper / forwarder",
            f"{medians[0]:.1f} / {medians[1]:.1f} ms = {ratio:.1f}x",
            ratio <= MEDIAN_RATIO if check else None,
            f"<= {MEDIAN_RATIO:g}x" if check else "",
        )
        ratio = p90s[0] / p90s[1]
        report(
            f"{pages} pages: p90, turnkeeper / forwarder",
            f"{p90s[0]:.1f} / {p90s[1]:.1f} ms = {ratio:.1f}x",
            ratio <= P90_RATIO if check else None,
            f"<= {P90_RATIO:g}x" if check else "",
        )
        report(
            f"{pages} pages: worst, turnkeeper / forwarder",
            f"{max(ours.latencies):.1f} / {max(floor.latencies):.1f} ms",
        )
        report(
            f"{pages} pages: server CPU per command",
            f"{ours.cpu * 1e3:.1f} / {floor.cpu * 1e3:.1f} ms = {ours.cpu / floor.cpu:.1f}x",
        )
    last = rows[-1][2]
    player = statistics.median(last.player_wire)
    ratio = player / whole[Role.PLAYER]
    report(
        "a player's page, bytes per note / before",
        f"{player:,.0f} / {whole[Role.PLAYER]:,} = {ratio:.2f}",
        ratio <= BYTES_RATIO,
        f"<= {BYTES_RATIO:g}",
    )
    referee = statistics.median(last.referee_wire)
    before = 2 * whole[Role.REFEREE]
    report(
        "the referee, bytes per note / before",
        f"{referee:,.0f} / {before:,} = {referee / before:.2f}",
    )
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
