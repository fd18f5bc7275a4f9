"""The pages' live stream: a command from another process reaches an open page within a second.

A real server (uvicorn in a thread) streams server-sent events; another process writes to the
same store (SQLite, and PostgreSQL with TURNKEEPER_TEST_PG, through LISTEN/NOTIFY). The
players' stream carries the party's display only, and a reconnecting client catches up from
the version it last saw (``Last-Event-ID``).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from tests.conftest import Backend, serving
from tests.integration.web.conftest import SECRETS, SseEvents, plant_secrets

from turnkeeper.campaign import Wait
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.app import create_app
from turnkeeper.web.live import Watcher
from turnkeeper.web.tokens import Role, issue_tokens

WRITER = """
import sys
from turnkeeper.campaign import Wait
from turnkeeper.campaign import Wait
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
store = SqlStore(sys.argv[1], schema=sys.argv[2] or None)
Campaigns(store).execute("Crypt", Wait(60))
store.close()
"""


def write_from_another_process(backend: Backend) -> None:
    """A minute passes in campaign Crypt, run by a process of its own (a turn's end would
    bring more records than a page's display is kept for: the torch, the countdowns)."""
    command = [sys.executable, "-c", WRITER, backend.url, backend.schema or ""]
    subprocess.run(command, check=True, capture_output=True, timeout=60)


def write_through_a_store_of_its_own(backend: Backend) -> None:
    """The same minute, written in this process through a store of its own (a connection
    the server does not hold, which tells the server's pages nothing): the server learns of
    it as it does another process's write, for the tests whose point is what a page is sent,
    not that a write crosses processes (that is the first test's, and the watcher's)."""
    store = SqlStore(backend.url, schema=backend.schema)
    try:
        Campaigns(store).execute("Crypt", Wait(60))
    finally:
        store.close()


@dataclass
class Live:
    base: str
    store: SqlStore
    tokens: dict[Role, str]
    backend: Backend

    def stream(self, role: Role) -> str:
        return f"{self.base}/campaigns/Crypt/live?token={self.tokens[role]}"


@pytest.fixture
def live(backend: Backend) -> Iterator[Live]:
    store = SqlStore(backend.url, schema=backend.schema)
    campaigns = Campaigns(store)
    plant_secrets(campaigns)
    tokens = issue_tokens(store, "Crypt")
    try:
        with serving(create_app(campaigns)) as url:
            yield Live(url, store, tokens, backend)
    finally:
        store.close()


def events(response: httpx.Response, within: float) -> Iterator[tuple[str, str, str]]:
    """The kind, id and data of each event on an open stream, within ``within`` seconds."""
    deadline = time.monotonic() + within
    reader = SseEvents()
    for line in response.iter_lines():
        assert time.monotonic() < deadline, "no event in time"
        event = reader.feed(line)
        if event is not None:
            yield event
    raise AssertionError("the stream ended")


def first_event(response: httpx.Response, within: float) -> tuple[str, str, str]:
    """The kind, id and data of the first event on an open stream."""
    return next(events(response, within))


def first_display(response: httpx.Response, within: float) -> tuple[str, str]:
    """The id and data of the first ``display`` event on an open stream."""
    return next(
        (ident, data) for kind, ident, data in events(response, within) if kind == "display"
    )


def test_a_command_from_another_process_reaches_an_open_players_stream(live: Live) -> None:
    version = live.store.version("Crypt")
    with (
        httpx.Client(timeout=10) as client,
        client.stream("GET", live.stream(Role.PLAYER) + f"&since={version}") as response,
    ):
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        writer = threading.Thread(target=write_from_another_process, args=(live.backend,))
        writer.start()
        writer.join()
        started = time.monotonic()
        ident, data = first_display(response, within=30)
        # heard at the watcher's next look (a quarter second on SQLite, the NOTIFY on
        # PostgreSQL), not left to wait; loose, so a busy machine is not read as a miss
        assert time.monotonic() - started < 10
    assert int(ident) == live.store.version("Crypt") > version
    assert f'data-version="{ident}"' in data
    leaked = [what for what, marker in SECRETS.items() if marker in data]
    assert not leaked, f"the players' stream carries {leaked}"


def test_a_stream_first_tells_its_page_to_reconnect_after_a_second(live: Live) -> None:
    """A page whose stream breaks tries again after a second, not the browser's own three."""
    with (
        httpx.Client(timeout=10) as client,
        client.stream("GET", live.stream(Role.PLAYER)) as response,
    ):
        assert next(response.iter_lines()) == "retry: 1000"


def test_a_reconnecting_page_catches_up_from_the_version_it_last_saw(live: Live) -> None:
    version = live.store.version("Crypt")
    with (
        httpx.Client(timeout=10) as client,
        client.stream(
            "GET", live.stream(Role.REFEREE), headers={"Last-Event-ID": str(version - 1)}
        ) as response,
    ):
        ident, data = first_display(response, within=5)
    assert int(ident) == version
    assert SECRETS["referee note"] in data  # the referee's display carries the secrets


@pytest.mark.parametrize("role", [Role.REFEREE, Role.PLAYER])
def test_a_reconnecting_page_is_sent_only_the_parts_that_changed(live: Live, role: Role) -> None:
    """Issue 23: a page that saw version v (its display still kept by the server) and
    reconnects after a note is sent the parts that changed (the journal, the bar), not the
    map nor the party; a page whose version is no longer kept gets the whole display."""
    seen = live.store.version("Crypt")
    with httpx.Client(timeout=10) as client:
        page = client.get(f"{live.base}/campaigns/Crypt?token={live.tokens[role]}")
        assert page.status_code == 200 and f'data-version="{seen}"' in page.text
        write_through_a_store_of_its_own(live.backend)  # a minute passes
        now = live.store.version("Crypt")
        headers = {"Last-Event-ID": str(seen)}
        with client.stream("GET", live.stream(role), headers=headers) as response:
            kind, ident, data = first_event(response, within=5)
    assert kind == "parts" and int(ident) == now > seen
    assert f'data-base="{seen}" data-version="{now}"' in data
    assert 'id="part-journal" hx-swap-oob="true"' in data and 'id="part-bar"' in data
    assert 'id="part-map"' not in data and 'id="part-party"' not in data
    if role is Role.PLAYER:
        assert not [what for what, marker in SECRETS.items() if marker in data]
    with (
        httpx.Client(timeout=10) as client,
        client.stream("GET", live.stream(role), headers={"Last-Event-ID": "1"}) as response,
    ):
        kind, ident, data = first_event(response, within=5)
    assert kind == "display" and 'class="display"' in data


def test_the_watcher_hears_a_write_from_another_process(backend: Backend) -> None:
    """SQLite by its poll, PostgreSQL by the NOTIFY the writer's commit sends."""
    store = SqlStore(backend.url, schema=backend.schema)
    store.create("Crypt")
    store.append("Crypt", 0, [{"kind": "clock.waited"}])

    async def hear() -> int | None:
        watcher = Watcher(store)
        try:
            assert await watcher.next_version("Crypt", None, timeout=5) == 1
            writer = asyncio.create_task(asyncio.to_thread(_append_elsewhere, backend))
            heard = await watcher.next_version("Crypt", 1, timeout=30)
            await writer
            return heard
        finally:
            watcher.close()

    try:
        assert asyncio.run(hear()) == 2
    finally:
        store.close()


APPEND = """
import sys
from turnkeeper.store.sql import SqlStore
store = SqlStore(sys.argv[1], schema=sys.argv[2] or None)
store.append("Crypt", 1, [{"kind": "clock.waited"}])
store.close()
"""


def _append_elsewhere(backend: Backend) -> None:
    command = [sys.executable, "-c", APPEND, backend.url, backend.schema or ""]
    subprocess.run(command, check=True, capture_output=True, timeout=60)
