"""Issue 41: a command made by this server reaches its own pages at once, as what changed.

The server polls its SQLite store once an hour here, so nothing but the command's own telling
(:meth:`turnkeeper.web.live.Watcher.moved`) can bring it to a page before the test's
ten-second read limit: no poll interval passes. A page that follows live (parts applied one
by one, as the page's script does) and a page that reconnects after the same commands end
with the display a fresh page is drawn with; the referee's page, whose own command's answer
carried the display, is not sent that version again by its stream.
"""

from __future__ import annotations

import asyncio
import html
import re
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from tests.conftest import serving
from tests.integration.web.conftest import SseEvents, plant_secrets

from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.app import create_app
from turnkeeper.web.live import Watcher
from turnkeeper.web.routes.pages import PAGE_HEADER
from turnkeeper.web.tokens import Role, issue_tokens

HOUR = 3600.0
WITHIN = 10.0
"""Seconds a test waits for an event: far below the hour between two polls."""

NOTE = {"verb": "note", "text": "The well's rope is frayed."}
_PART = re.compile(r"<!--part:([\w-]+)-->(.*?)<!--/part-->", re.S)


@dataclass
class Table:
    base: str
    store: SqlStore
    tokens: dict[Role, str]

    def command(self, body: dict[str, str]) -> int:
        """A referee command over the JSON API; the version it left."""
        answer = httpx.post(
            f"{self.base}/api/campaigns/Crypt/commands",
            json=body,
            headers={"Authorization": f"Bearer {self.tokens[Role.REFEREE]}"},
            timeout=WITHIN,
        )
        assert answer.status_code == 200, answer.text
        return int(answer.json()["version"])


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    store = SqlStore(f"sqlite:///{tmp_path / 'live.db'}")
    campaigns = Campaigns(store)
    plant_secrets(campaigns)
    tokens = issue_tokens(store, "Crypt")
    try:
        with serving(create_app(campaigns, poll=HOUR)) as url:
            yield Table(url, store, tokens)
    finally:
        store.close()


def opened(client: httpx.Client, table: Table, role: Role) -> tuple[str, str]:
    """A page as a browser opens it: its display, and its stream's link (since, page id)."""
    page = client.get(f"{table.base}/campaigns/Crypt?token={table.tokens[role]}")
    assert page.status_code == 200
    link = re.search(r'sse-connect="([^"]+)"', page.text)
    assert link is not None
    display = re.search(r'sse-swap="display">(.*?)</div>\s*<div id="parts"', page.text, re.S)
    assert display is not None
    return display[1], table.base + html.unescape(link[1])


def applied(display: str, kind: str, data: str) -> str:
    """The page's display after one event, as its script applies it: a whole display takes
    the place of the old; each changed part takes its part's place, and the display takes
    the new version and place from the parts' wrapper."""
    if kind == "display":
        return data
    assert kind == "parts"
    starts = [m.start() for m in re.finditer(r"<[a-z]+ [^>]*id=\"part-[\w-]+\" hx-swap-oob", data)]
    ends = [*starts[1:], data.rindex("</div>")]
    changed = {}
    for start, end in zip(starts, ends, strict=True):
        element = data[start:end].replace(' hx-swap-oob="true"', "", 1)
        name = re.search(r'id="part-([\w-]+)"', element)
        assert name is not None
        changed[name[1]] = element
    shown = _PART.sub(lambda m: f"<!--part:{m[1]}-->{changed.get(m[1], m[2])}<!--/part-->", display)
    wrapper = re.match(r'<div class="parts" data-base="\d+"([^>]*)>', data)
    assert wrapper is not None
    for name, value in re.findall(r'(data-[\w-]+)="([^"]*)"', wrapper[1]):
        attribute = rf'(<div class="display"[^>]*?{name}=")[^"]*"'
        shown = re.sub(attribute, rf'\g<1>{value}"', shown, count=1)
    return shown


def events(response: httpx.Response) -> Iterator[tuple[str, str, str]]:
    reader = SseEvents()
    for line in response.iter_lines():
        event = reader.feed(line)
        if event is not None:
            yield event
    raise AssertionError("the stream ended")


def test_a_page_sees_its_servers_command_with_no_poll_and_ends_as_a_reconnecting_one(
    table: Table,
) -> None:
    timeout = httpx.Timeout(WITHIN)
    with httpx.Client(timeout=timeout) as client:
        first, link = opened(client, table, Role.PLAYER)
        seen = table.store.version("Crypt")
        shown = first
        with client.stream("GET", link) as response:
            got = events(response)
            for body in (NOTE, {"verb": "wait", "duration": "10 minutes"}):
                version = table.command(body)
                kind, ident, data = next(got)  # within WITHIN seconds, not an hour
                assert int(ident) == version
                assert kind == "parts", "a page that shows a kept version is sent what changed"
                assert 'id="part-map"' not in data  # one line of the journal: no map again
                shown = applied(shown, kind, data)
        fresh = client.get(
            f"{table.base}/campaigns/Crypt/display", params={"token": table.tokens[Role.PLAYER]}
        ).text
        assert shown == fresh
        # a page that slept through both commands reconnects and ends the same
        since = {"Last-Event-ID": str(seen)}
        with client.stream("GET", link.split("&since=")[0], headers=since) as response:
            kind, ident, data = next(events(response))
        assert int(ident) == version
        assert applied(first, kind, data) == fresh


def test_the_referees_own_command_is_not_sent_again_on_its_stream(table: Table) -> None:
    with httpx.Client(timeout=httpx.Timeout(WITHIN)) as client:
        _, link = opened(client, table, Role.REFEREE)
        page = re.search(r"[?&]page=([^&]+)", link)
        assert page is not None
        with client.stream("GET", link) as response:
            got = events(response)
            answer = client.post(
                f"{table.base}/campaigns/Crypt/commands?token={table.tokens[Role.REFEREE]}",
                data={"verb": "note", "text": NOTE["text"]},
                headers={"HX-Request": "true", PAGE_HEADER: page[1]},
            )
            assert answer.status_code == 200, answer.text
            own = table.store.version("Crypt")
            assert f'data-version="{own}"' in answer.text  # the answer carries the display
            later = table.command({"verb": "wait", "duration": "10 minutes"})
            kind, ident, data = next(got)
        assert int(ident) == later > own  # the own command's version was skipped
        assert kind == "parts" and f'data-base="{own}"' in data


def test_the_stream_and_the_answers_are_compressed_for_a_browser_that_takes_gzip(
    table: Table,
) -> None:
    headers = {"Accept-Encoding": "gzip"}
    with httpx.Client(timeout=httpx.Timeout(WITHIN), headers=headers) as client:
        _, link = opened(client, table, Role.PLAYER)
        page = client.get(f"{table.base}/campaigns/Crypt?token={table.tokens[Role.PLAYER]}")
        assert page.headers["content-encoding"] == "gzip"
        with client.stream("GET", link) as response:
            assert response.headers["content-encoding"] == "gzip"
            unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
            version = table.command(NOTE)
            text = ""
            for chunk in response.iter_raw():
                # each event arrives whole, flushed: it decodes before the stream goes on
                text += unpack.decompress(chunk).decode()
                if f"id: {version}" in text and text.endswith(("\r\n\r\n", "\n\n")):
                    break
        assert "event: parts" in text


class Versions:
    """A store that answers versions alone, as the watcher reads them."""

    def __init__(self) -> None:
        self.now = {"Keep": 3, "Vale": 5}

    def versions(self) -> dict[str, int]:
        return dict(self.now)

    def signals(self) -> bool:
        return False

    def wait_for_change(self, seen: object, timeout: float) -> dict[str, int]:
        raise AssertionError("a store that does not signal is polled by the watcher")


def test_a_move_wakes_the_pages_of_its_campaign_alone() -> None:
    """Issue 41: one campaign's busy table wakes no page of another's; its own command is
    told at once, with the poll an hour away."""
    watcher = Watcher(Versions(), poll=HOUR)  # type: ignore[arg-type]

    async def run() -> None:
        keep = asyncio.create_task(watcher.next_version("Keep", 3, timeout=HOUR))
        vale = asyncio.create_task(watcher.next_version("Vale", 5, timeout=HOUR))
        while watcher.version("Vale") is None:  # the watcher's first read
            await asyncio.sleep(0.01)
        for _ in range(20):
            await asyncio.sleep(0)
        assert not keep.done() and not vale.done()
        read = Counter(watcher.wakes)  # the first read woke both, to find nothing new
        watcher.moved("Keep", 4)
        assert await keep == 4
        for _ in range(20):
            await asyncio.sleep(0)
        assert not vale.done()
        assert watcher.wakes - read == {"Keep": 1}  # Vale's page slept on: Vale did not move
        watcher.moved("Vale", 6)
        assert await vale == 6
        assert watcher.wakes - read == {"Keep": 1, "Vale": 1}

    try:
        asyncio.run(run())
    finally:
        watcher.close()
