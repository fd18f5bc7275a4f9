"""The pages follow the table live: server-sent events driven by the store's versions.

Every command, from whichever front door and process (this server, the CLI, another server
on the same PostgreSQL), moves its campaign's version in the store. One :class:`Watcher` per
server waits on the store for versions to move (PostgreSQL's LISTEN/NOTIFY, or a cheap poll
of SQLite: :meth:`turnkeeper.store.sql.SqlStore.wait_for_change`) in a thread of its own, and
wakes every open page of the campaign that moved. Each page's stream then sends the display
of the new version (the referee's or the party's, as its token says) as one ``display``
event whose id is the version drawn, so a browser that reconnects says which version it last
saw (``Last-Event-ID``) and is sent the display at once if the table moved meanwhile: only
the parts that changed (:func:`changed_parts`) when the display of the version it saw is
still kept, so a phone waking from sleep is not sent its map again for a note.

A display is drawn once per campaign, version and role, however many pages show it
(:class:`Displays`): the first stream to want it draws it and the others await the same
drawing. The drawing holds no lock: the campaign's state is taken under its lock for a moment
(the state of a version never changes), and the display drawn from it in a worker thread,
its journal lines read from the store by seq. So ten players' pages cost one draw per command
(and at most five a second, :data:`DRAW_GAP`: a table moving faster is shown at its newest
version), and a command never waits for one.

The watcher holds no lock while it waits.

tests/integration/web/test_live.py shows it end to end, across processes and on both stores;
tests/integration/web/test_live_draws.py counts the draws and runs a command during one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping

import anyio.to_thread
from sse_starlette import ServerSentEvent

from turnkeeper.campaign import CampaignState
from turnkeeper.store import EventStore
from turnkeeper.store.base import WatchStore
from turnkeeper.web.tokens import Seat

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
        self._pokes: dict[str, int] = {}  # by campaign: how often its links changed
        self._loop: asyncio.AbstractEventLoop | None = None
        self._moved = asyncio.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def version(self, name: str) -> int | None:
        """The campaign's version as last seen (None before the first look, or if gone)."""
        return self._versions.get(name)

    async def next_version(self, name: str, seen: int | None, timeout: float) -> int | None:
        """The campaign's version once it is known and differs from ``seen``, or as it is
        when the campaign is poked (:meth:`poke`); None if ``timeout`` seconds pass first."""
        self._start()
        deadline = time.monotonic() + timeout
        pokes = self._pokes.get(name, 0)
        while True:
            version = self._versions.get(name)
            poked = self._pokes.get(name, 0) != pokes
            if version is not None and (version != seen or poked):
                return version
            moved = self._moved  # the event of this moment: a later move sets it
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                await asyncio.wait_for(moved.wait(), left)
            except TimeoutError:
                return None

    def poke(self, name: str) -> None:
        """Wake the streams of ``name`` though it did not move: its links changed, and each
        page must look at once whether its own link still opens it (from any thread)."""
        self._pokes[name] = self._pokes.get(name, 0) + 1
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake)

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

KEPT_VERSIONS = 4
"""How many versions behind a campaign's newest a drawn display is kept for a slow page."""

DRAW_GAP = 0.2
"""The least time, in seconds, between two drawings of a campaign's display for one role: a
table moving faster than a person reads (a script, a benchmark's thousand commands) is shown
at its newest version five times a second, not drawn again for every version between."""


class Displays:
    """Each role's display of each campaign, drawn once per version and shared by every page
    that shows it.

    ``snapshot(name)`` is the campaign's state now, read under its lock (a moment: the state
    is already folded); ``draw(name, state, role)`` draws the role's display of that state in a
    worker thread, with no lock held (a state never changes once folded, and the journal lines
    are read from the store). A drawing is an asyncio task: a stream woken at version 12 finds
    the drawing of 12 another page started (kept by campaign, version and role), or the one
    about to look at the state (which will find 12 or later), and awaits it without the lock;
    a page that leaves does not cancel it for the others. A drawing looks at the state at
    least ``gap`` seconds after the role's last one did (:data:`DRAW_GAP`).

    ``draws`` counts the drawings by campaign and role (the tests read it). The tasks belong
    to the event loop that made them: a new loop (a test client's) starts afresh.
    """

    def __init__(
        self,
        snapshot: Callable[[str], Awaitable[CampaignState]],
        draw: Callable[[str, CampaignState, Seat], str],
        gap: float = DRAW_GAP,
    ) -> None:
        self._snapshot = snapshot
        self._draw = draw
        self._gap = gap
        self._loop: asyncio.AbstractEventLoop | None = None
        # the drawings of a known version, by campaign, version and role
        self._tasks: dict[tuple[str, int, Seat], asyncio.Task[tuple[str, int]]] = {}
        # the drawing of a campaign and role that has not yet looked at the state
        self._pending: dict[tuple[str, Seat], asyncio.Task[tuple[str, int]]] = {}
        # when the last drawing of a campaign and role looked at the state (the loop's clock)
        self._looked: dict[tuple[str, Seat], float] = {}
        self.draws: Counter[tuple[str, Seat]] = Counter()

    async def display(
        self,
        name: str,
        role: Seat,
        version: int | None = None,
        state: CampaignState | None = None,
    ) -> tuple[str, int]:
        """The role's display of the campaign and the version it shows: of ``state`` if
        given, else of the state now (at least ``version``, the one the watcher saw: a
        display drawn for it is shared without a look at the state). Raises what reading the
        state raises (NotFoundError for a campaign deleted)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._tasks, self._pending, self._looked = loop, {}, {}, {}
        if state is not None:
            task = self._tasks.get((name, state.version, role))
            if task is None:
                task = loop.create_task(self._drawn(name, role, state))
        else:
            task = self._tasks.get((name, version, role)) if version is not None else None
            if task is None:
                task = self._pending.get((name, role))
            if task is None:
                task = self._pending[name, role] = loop.create_task(self._drawn(name, role))
        # shielded: a page that leaves (its stream cancelled) leaves the drawing to the others
        return await asyncio.shield(task)

    async def _drawn(
        self, name: str, role: Seat, state: CampaignState | None = None
    ) -> tuple[str, int]:
        this = asyncio.current_task()
        assert this is not None
        loop = asyncio.get_running_loop()
        if state is None:
            try:
                wait = self._looked.get((name, role), -self._gap) + self._gap - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                state = await self._snapshot(name)
            finally:
                if self._pending.get((name, role)) is this:
                    del self._pending[name, role]  # a later page wants a later look
        key = (name, state.version, role)
        other = self._tasks.get(key)
        if other is not None and other is not this:
            return await asyncio.shield(other)  # another page's drawing of this version
        self._keep(key, this)
        self._looked[name, role] = loop.time()
        self.draws[name, role] += 1
        html = await anyio.to_thread.run_sync(self._draw, name, state, role)
        return html, state.version

    def kept(self, name: str, version: int, role: Seat) -> str | None:
        """The role's display of that version, if it is drawn and still kept."""
        task = self._tasks.get((name, version, role))
        if task is None or not task.done() or task.cancelled() or task.exception() is not None:
            return None
        return task.result()[0]

    def _keep(self, key: tuple[str, int, Seat], task: asyncio.Task[tuple[str, int]]) -> None:
        """Keep ``task`` under ``key``, forget the versions long past (and every drawing of
        a campaign whose version went back: deleted and made anew), and forget a drawing
        that failed, so the next page draws again."""
        name, version, _ = key
        for old in [k for k in self._tasks if k[0] == name]:
            if old[1] > version or old[1] < version - KEPT_VERSIONS:
                del self._tasks[old]
        self._tasks[key] = task

        def failed(done: asyncio.Task[tuple[str, int]]) -> None:
            if (done.cancelled() or done.exception() is not None) and self._tasks.get(key) is done:
                del self._tasks[key]

        task.add_done_callback(failed)


_PART = re.compile(r"<!--part:([\w-]+)-->(.*?)<!--/part-->", re.S)
_ROOT = re.compile(r'<div class="display"([^>]*)>')


def changed_parts(before: str, after: str, base: int) -> str | None:
    """The parts of display ``after`` that differ from display ``before`` (of version
    ``base``), each marked to take its part's place (htmx's out-of-band swap), under the
    new display's own attributes (its version, where the party is); None when the two do
    not hold the same parts in the same order (a site entered, a fight begun): then the
    whole display goes.

    >>> old = '<div class="display" data-version="3"><!--part:a--><p id="part-a">1</p><!--/part-->'
    >>> new = old.replace('"3"', '"4"').replace(">1<", ">2<")
    >>> print(changed_parts(old, new, 3))
    <div class="parts" data-base="3" data-version="4"><p id="part-a" hx-swap-oob="true">2</p></div>
    """
    old, new = _PART.findall(before), _PART.findall(after)
    root = _ROOT.search(after)
    if root is None or [n for n, _ in old] != [n for n, _ in new]:
        return None
    changed = "".join(
        html.replace(f'id="part-{name}"', f'id="part-{name}" hx-swap-oob="true"', 1)
        for (name, html), (_, was) in zip(new, old, strict=True)
        if html != was
    )
    return f'<div class="parts" data-base="{base}"{root[1]}>{changed}</div>'


async def stream(
    watcher: Watcher,
    name: str,
    seen: int | None,
    draw: Callable[[int], Awaitable[Drawn]],
    revoked: str,
    idle: float = 30.0,
    kept: Callable[[int], str | None] = lambda version: None,
) -> AsyncIterator[ServerSentEvent]:
    """A page's events: its display each time the campaign moves past ``seen``.

    ``draw(version)`` answers the display of the version the watcher saw (or a later one),
    shared with the other pages of the role (:class:`Displays`); when it answers None (the
    link was renewed, the campaign deleted) the page is sent ``revoked`` and the stream ends:
    at once when the link is renewed, which pokes the campaign's streams. The first event
    to a page that says what it saw is the parts that changed (a ``parts`` event) when
    ``kept(seen)`` still has the display it saw.
    """
    catching_up = seen is not None
    while True:
        version = await watcher.next_version(name, seen, timeout=idle)
        if version is None:
            continue  # nothing moved; sse-starlette's pings keep the connection open
        drawn = await draw(version)
        if drawn is None:
            yield ServerSentEvent(data=revoked, event="revoked")
            return
        html, shown = drawn
        if shown == seen:
            continue  # poked, not moved: this page's link still opens it
        parts = None
        if catching_up and seen is not None:
            before = kept(seen)
            if before is not None:
                parts = changed_parts(before, html, seen)
        catching_up, seen = False, shown
        if parts is not None:
            yield ServerSentEvent(data=parts, event="parts", id=str(seen))
        else:
            yield ServerSentEvent(data=html, event="display", id=str(seen))
