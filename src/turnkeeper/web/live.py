"""The pages follow the table live: server-sent events driven by the store's versions.

Every command, from whichever front door and process (this server, the CLI, another server
on the same PostgreSQL), moves its campaign's version in the store. One :class:`Watcher` per
server waits on the store for versions to move (PostgreSQL's LISTEN/NOTIFY, or a cheap poll
of SQLite: :meth:`turnkeeper.store.sql.SqlStore.wait_for_change`) in a thread of its own, and
wakes every open page of the campaign that moved. Each page's stream then draws its display
afresh (the referee's or the party's, as its token says) and sends it as one ``display``
event whose id is the version drawn, so a browser that reconnects says which version it last
saw (``Last-Event-ID``) and is sent the display at once if the table moved meanwhile.

The watcher holds no lock while it waits; a stream takes the service's lock only to draw.

tests/integration/web/test_live.py shows it end to end, across processes and on both stores.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping

from sse_starlette import ServerSentEvent

from turnkeeper.store import EventStore
from turnkeeper.store.base import WatchStore

log = logging.getLogger(__name__)

WAIT_SECONDS = 1.0
"""How long one wait on the store lasts before the watcher looks whether it should stop."""

POLL_SECONDS = 0.25
"""How often a store that cannot signal changes is read (a store without ``WatchStore``)."""


class Watcher:
    """Waits on the store for versions to move and wakes the streams of the campaigns that did.

    The waiting runs in a daemon thread started by the first stream; the streams wait on an
    asyncio event in the server's loop, so a thousand open pages cost one thread.
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._versions: dict[str, int] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._moved = asyncio.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def version(self, name: str) -> int | None:
        """The campaign's version as last seen (None before the first look, or if gone)."""
        return self._versions.get(name)

    async def next_version(self, name: str, seen: int | None, timeout: float) -> int | None:
        """The campaign's version once it is known and differs from ``seen``; None if
        ``timeout`` seconds pass first."""
        self._start()
        deadline = time.monotonic() + timeout
        while True:
            version = self._versions.get(name)
            if version is not None and version != seen:
                return version
            moved = self._moved  # the event of this moment: a later move sets it
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                await asyncio.wait_for(moved.wait(), left)
            except TimeoutError:
                return None

    def close(self) -> None:
        """Stop the watching thread (it ends within one wait)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=WAIT_SECONDS * 3)

    # -- the watching thread ---------------------------------------------------------------

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        with self._start_lock:
            if self._loop is not loop:
                # a new loop (a test client's, say): events belong to the loop that made them
                self._loop = loop
                self._moved = asyncio.Event()
            if self._thread is None or not self._thread.is_alive():
                self._stop.clear()
                self._thread = threading.Thread(
                    target=self._run, name="turnkeeper-watcher", daemon=True
                )
                self._thread.start()

    def _run(self) -> None:
        known: dict[str, int] = {}
        while not self._stop.is_set():
            try:
                now = self._wait(known, WAIT_SECONDS)
            except Exception:  # a dropped connection, say: keep watching, do not kill the pages
                log.exception("watching the store for changes failed; trying again")
                self._stop.wait(WAIT_SECONDS)
                continue
            if now != known:
                known = now
                self._versions = now  # one assignment: readers see the old dict or the new
                loop = self._loop
                if loop is not None and not loop.is_closed():
                    # the loop may close meanwhile: then there is nobody left to wake
                    with contextlib.suppress(RuntimeError):
                        loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        """Wake every stream waiting now, and give later ones a fresh event (in the loop)."""
        moved, self._moved = self._moved, asyncio.Event()
        moved.set()

    def _wait(self, seen: Mapping[str, int], timeout: float) -> dict[str, int]:
        store = self.store
        if isinstance(store, WatchStore):
            return store.wait_for_change(seen, timeout)
        # a store that cannot signal: read every version, a few times a second
        deadline = time.monotonic() + timeout
        while True:
            now = {name: store.version(name) for name in store.campaigns()}
            if now != seen or time.monotonic() >= deadline or self._stop.is_set():
                return now
            time.sleep(POLL_SECONDS)


Drawn = tuple[str, int] | None
"""A display drawn for a stream, with the version it shows; None when the page's token no
longer opens the campaign."""


async def stream(
    watcher: Watcher,
    name: str,
    seen: int | None,
    draw: Callable[[], Awaitable[Drawn]],
    revoked: str,
    idle: float = 30.0,
) -> AsyncIterator[ServerSentEvent]:
    """A page's events: its display each time the campaign moves past ``seen``.

    ``draw`` waits for the campaign's lock on the loop and draws in a worker thread (it reads
    the store); when it answers None (the link was renewed) the page is sent ``revoked`` and
    the stream ends.
    """
    while True:
        version = await watcher.next_version(name, seen, timeout=idle)
        if version is None:
            continue  # nothing moved; sse-starlette's pings keep the connection open
        drawn = await draw()
        if drawn is None:
            yield ServerSentEvent(data=revoked, event="revoked")
            return
        html, seen = drawn
        yield ServerSentEvent(data=html, event="display", id=str(seen))
