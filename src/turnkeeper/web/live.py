"""The pages follow the table live: server-sent events driven by the store's versions.

Every command, from whichever front door and process (this server, the CLI, another server
on the same PostgreSQL), moves its campaign's version in the store. A command this server
runs is told to its :class:`Watcher` as it lands (:meth:`Watcher.moved`), which wakes the
campaign's open pages at once; the commands of other processes are found by waiting on the
store in a thread of the watcher's own (PostgreSQL's LISTEN/NOTIFY, or a cheap poll of
SQLite's versions every :data:`POLL_SECONDS`). Each woken page's stream then sends what
changed in its display (the referee's or the party's, as its token says) since the version
the page shows: the parts that changed (:func:`changed_parts`, a ``parts`` event) while the
display of that version is still kept, else the whole display (a ``display`` event). Each
event's id is the version drawn, so a browser that reconnects says which version it last saw
(``Last-Event-ID``) and is caught up the same way: a phone waking from sleep is not sent its
map again for a note, and a reconnecting page and a live one end with the same display. The
answer to a page's own command carries its new display (the parts that changed since the
version its form said it shows, found once with the streams': :meth:`Displays.changes`), so
its stream does not send that version again (:class:`~turnkeeper.web.open_pages.Pages`).

A display is drawn once per campaign, version and role, however many pages show it
(:class:`Displays`): the first stream to want it draws it and the others await the same
drawing. That drawing holds no lock: the campaign's state is taken under its lock for a
moment (the state of a version never changes), and the display drawn from it in a worker
thread, its journal lines those drawn last and the records after them
(:mod:`turnkeeper.web.lines`). So ten players' pages cost one draw per command (one drawing
of a campaign and role at a time: a table moving faster is shown at its newest version). A
command of this server draws its followed seats itself, in its thread, before it wakes their
pages (:meth:`Displays.draw_ahead`). Two campaigns share no drawing and no lock; the watcher
holds none while it waits.

tests/integration/web/test_live.py shows it end to end, across processes and on both stores;
tests/integration/web/test_live_draws.py counts the draws and runs a command during one.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping

import anyio.to_thread
from sse_starlette import ServerSentEvent

from turnkeeper.campaign import CampaignState
from turnkeeper.store import EventStore
from turnkeeper.store.base import POLL_SECONDS, WatchStore
from turnkeeper.web.open_pages import Page
from turnkeeper.web.parts import changed_parts
from turnkeeper.web.tokens import Seat

log = logging.getLogger(__name__)

WAIT_SECONDS = 1.0
"""How long one wait on a store that signals lasts before the watcher looks whether it
should stop."""

RECONNECT = ServerSentEvent(retry=1000).encode()
"""A stream's first event: a page whose stream breaks (the server restarted, the phone left
the wifi) tries again after a second, not the three seconds Chromium waits when told
nothing; the page's own script backs off further when a try fails."""


class Watcher:
    """Waits on the store for versions to move and wakes the streams of the campaigns that did.

    The waiting runs in a daemon thread started by the first stream; the streams wait on an
    asyncio event of their campaign in the server's loop, so a thousand open pages cost one
    thread, and a move wakes the pages of the campaign that moved alone.
    """

    def __init__(
        self, store: EventStore, poll: float = POLL_SECONDS, wait: float = WAIT_SECONDS
    ) -> None:
        self.store = store
        self.poll = poll
        self.wait = wait
        self._versions: dict[str, int] = {}
        self._pokes: dict[str, int] = {}  # by campaign: how often its links changed
        # the versions this server's own commands left, by campaign, with the count of reads
        # begun when each was told: a read begun later has seen it in the store
        self._told: dict[str, tuple[int, int]] = {}
        self._reads = 0
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        # by campaign: the event its streams wait on now (set and dropped when it moves)
        self._moved: dict[str, asyncio.Event] = {}
        self.wakes: Counter[str] = Counter()  # by campaign: how often its streams were woken
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def version(self, name: str) -> int | None:
        """The campaign's version as last seen (None before the first look, or if gone)."""
        return self._versions.get(name)

    async def next_version(self, name: str, seen: int | None, timeout: float) -> int | None:
        """The campaign's version once it is known and past ``seen``, or as it is when the
        campaign is poked (:meth:`poke`); None if ``timeout`` seconds pass first."""
        self._start()
        deadline = time.monotonic() + timeout
        pokes = self._pokes.get(name, 0)
        while True:
            version = self._versions.get(name)
            poked = self._pokes.get(name, 0) != pokes
            if version is not None and (seen is None or version > seen or poked):
                return version
            # the campaign's event of this moment: a later move of this campaign sets it (no
            # await since the look above, so no move slips between)
            moved = self._moved.setdefault(name, asyncio.Event())
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                await asyncio.wait_for(moved.wait(), left)
            except TimeoutError:
                return None

    def pokes(self, name: str) -> int:
        """How often ``name`` was poked (:meth:`poke`) so far."""
        return self._pokes.get(name, 0)

    def poke(self, name: str) -> None:
        """Wake the streams of ``name`` though it did not move: its links changed, and each
        page must look at once whether its own link still opens it (from any thread)."""
        self._pokes[name] = self._pokes.get(name, 0) + 1
        self._wake_soon([name])

    def moved(self, name: str, version: int) -> None:
        """This server's own command left ``name`` at ``version``: wake its pages now, not
        at the store's next signal or poll (from any thread, after the command's commit)."""
        with self._lock:
            self._told[name] = (version, self._reads)
            if version > self._versions.get(name, -1):
                self._versions = {**self._versions, name: version}
        self._wake_soon([name])

    def _wake_soon(self, names: list[str]) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            # the loop may close meanwhile: then there is nobody left to wake
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake, names)

    def close(self) -> None:
        """Stop the watching thread (it ends within one wait)."""
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=min(self.wait, self.poll) * 3)

    # -- the watching thread ---------------------------------------------------------------

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        with self._start_lock:
            if self._loop is not loop:
                # a new loop (a test client's, say): events belong to the loop that made them
                self._loop = loop
                self._moved = {}
            if self._thread is None or not self._thread.is_alive():
                self._stop.clear()
                self._thread = threading.Thread(
                    target=self._run, name="turnkeeper-watcher", daemon=True
                )
                self._thread.start()

    def _run(self) -> None:
        known: dict[str, int] = {}
        while not self._stop.is_set():
            with self._lock:
                self._reads += 1
                begun = self._reads
            try:
                now = self._wait(known, self.wait)
            except Exception:  # a dropped connection, say: keep watching, do not kill the pages
                log.exception("watching the store for changes failed; trying again")
                self._stop.wait(self.wait)
                continue
            if now != known:
                moved = [
                    name for name in now.keys() | known.keys() if now.get(name) != known.get(name)
                ]
                known = now
                with self._lock:
                    self._versions = self._with_told(now, begun)  # readers see old or new
                self._wake_soon(moved)

    def _with_told(self, now: dict[str, int], begun: int) -> dict[str, int]:
        """The versions read, with those this server's commands told since the read began
        (a read may start before a commit and end after the command told of it)."""
        merged = dict(now)
        for name, (version, told_at) in list(self._told.items()):
            if told_at < begun or name not in now:
                del self._told[name]  # the read began after it was told: the store knows
            elif version > now[name]:
                merged[name] = version
        return merged

    def _wake(self, names: list[str]) -> None:
        """Wake the streams of the campaigns ``names`` waiting now (in the loop); later ones
        wait on a fresh event. Another campaign's streams sleep on: a busy table costs the
        others nothing."""
        for name in names:
            moved = self._moved.pop(name, None)
            if moved is not None:
                self.wakes[name] += 1
                moved.set()

    def _wait(self, seen: Mapping[str, int], timeout: float) -> dict[str, int]:
        store = self.store
        if isinstance(store, WatchStore) and store.signals():
            return store.wait_for_change(seen, timeout)
        # a store that cannot signal: read every version now and then; this server's own
        # commands are told at once (:meth:`moved`), the polls are for other processes'
        while True:
            if isinstance(store, WatchStore):
                now = store.versions()
            else:
                now = {name: store.version(name) for name in store.campaigns()}
            if now != seen or self._stop.wait(self.poll):
                return now


Drawn = tuple[str, int] | None
"""A display drawn for a stream, with the version it shows; None when the page's token no
longer opens the campaign."""

KEPT_VERSIONS = 4
"""How many drawn versions of a campaign (the newest first) are kept for a slow page: counted
in drawings, not in version numbers, since one command may write many records (a wait's
meals and checks) and a page behind by one command must still be sent only what changed."""


class Displays:
    """Each role's display of each campaign, drawn once per version and shared by every page
    that shows it.

    ``snapshot(name)`` is the campaign's state now, read under its lock (a moment: the state
    is already folded); ``draw(name, state, role)`` draws the role's display of that state in a
    worker thread, with no lock held (a state never changes once folded, and the journal lines
    are read from the store). A drawing is an asyncio task: a stream woken at version 12 finds
    the drawing of 12 another page started (kept by campaign, version and role), or the one
    about to look at the state (which will find 12 or later), and awaits it without the lock;
    a page that leaves does not cancel it for the others. One drawing of a campaign and role
    runs at a time: the next looks at the state when the one before is drawn, so a table
    moving faster than it draws (a script, a benchmark's thousand commands) is shown at its
    newest version, not drawn again for every version between, and the first command after a
    pause is drawn at once, with no gap waited out. The state a command of this server left
    is told (:meth:`told`): a look for its version takes it, with no lock and no read.

    A command of this server draws its state for the seats whose pages follow the campaign
    in its own worker thread, before they are woken (:meth:`draw_ahead`): a page woken takes
    its drawing at once, with no hand-off to a thread and back between its wake and its send.

    ``changes(name, role, base, version)`` is the part of the display of ``version`` that
    differs from the display of ``base`` (:func:`changed_parts`), found once for every page
    that saw ``base``.

    ``draws`` counts the drawings by campaign and role (the tests read it). The tasks belong
    to the event loop that made them: a new loop (a test client's) starts afresh.
    """

    def __init__(
        self,
        snapshot: Callable[[str], Awaitable[CampaignState]],
        draw: Callable[[str, CampaignState, Seat], str],
    ) -> None:
        self._snapshot = snapshot
        self._draw = draw
        self._loop: asyncio.AbstractEventLoop | None = None
        # the drawings of a known version, by campaign, version and role
        self._tasks: dict[tuple[str, int, Seat], asyncio.Future[tuple[str, int]]] = {}
        # the drawing of a campaign and role that has not yet looked at the state
        self._pending: dict[tuple[str, Seat], asyncio.Task[tuple[str, int]]] = {}
        # the drawing of a campaign and role that looked at the state last
        self._drawing: dict[tuple[str, Seat], asyncio.Task[tuple[str, int]]] = {}
        # what changed between two kept versions, by campaign, base, version and role
        self._changes: dict[tuple[str, int, int, Seat], str | None] = {}
        # the state taken for the pages woken at a version, by campaign and version
        self._states: dict[tuple[str, int], asyncio.Task[CampaignState]] = {}
        # by campaign: the state this server's last command left (:meth:`told`)
        self._told: dict[str, CampaignState] = {}
        # by campaign and role: the version the pages awaiting the pending drawing saw (None:
        # a page asked for the state now, whatever the watcher saw)
        self._wanted: dict[tuple[str, Seat], int | None] = {}
        # by campaign and role: the last version a page's stream asked for
        self._followed: dict[tuple[str, Seat], int] = {}
        # by campaign: the state a command drew ahead and its seats' displays not yet taken
        # (:meth:`draw_ahead`; written by the command's thread, one assignment at a time)
        self._ahead: dict[str, tuple[CampaignState, dict[Seat, str]]] = {}
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
            self._fresh(loop)
        if state is not None:
            task = self._kept_task(name, state.version, role)
            if task is None:
                task = loop.create_task(self._drawn(name, role, state))
        else:
            task = None
            if version is not None:
                self._followed[name, role] = version
                task = self._kept_task(name, version, role)
            if task is None:
                task = self._pending.get((name, role))
                if task is not None:
                    was = self._wanted.get((name, role))
                    later = None if was is None or version is None else max(was, version)
                    self._wanted[name, role] = later
            if task is None:
                self._wanted[name, role] = version
                task = self._pending[name, role] = loop.create_task(self._drawn(name, role))
        # shielded: a page that leaves (its stream cancelled) leaves the drawing to the others
        return await asyncio.shield(task)

    async def _drawn(
        self, name: str, role: Seat, state: CampaignState | None = None
    ) -> tuple[str, int]:
        this = asyncio.current_task()
        assert this is not None
        if state is None:
            try:
                busy = self._drawing.get((name, role))
                if busy is not None and not busy.done():
                    # the pages woken meanwhile wait here together: one look when it is drawn
                    await asyncio.wait([busy])
                state = self._told_at(name, self._wanted.get((name, role)))
                if state is None:
                    state = await self._snapshot(name)
            finally:
                if self._pending.get((name, role)) is this:
                    del self._pending[name, role]  # a later page wants a later look
                    self._wanted.pop((name, role), None)
        key = (name, state.version, role)
        other = self._kept_task(*key)
        if other is not None and other is not this:
            return await asyncio.shield(other)  # another page's drawing of this version
        self._keep(key, this)
        self._drawing[name, role] = this
        self.draws[name, role] += 1
        html = await anyio.to_thread.run_sync(self._draw, name, state, role)
        return html, state.version

    def draw_ahead(self, name: str, state: CampaignState, but: Seat | None) -> None:
        """Draw ``state`` now, in the caller's thread (the worker thread of the command that
        left it, before its pages are woken), for the seats other than ``but`` (the one the
        command's answer draws) whose pages follow ``name`` here: each page woken then takes
        its drawing at once (:meth:`display`). A seat being drawn now is left to its pages
        (they look at the state when that drawing is done: the command does not wait for
        it), and so is a drawing that fails (the page draws it again and says why)."""
        drawn = {}
        for seat in self._following(name, state.version) - {but}:
            busy = self._drawing.get((name, seat))
            if busy is not None and not busy.done():
                continue
            try:
                drawn[seat] = self._draw(name, state, seat)
            except Exception:
                log.exception("drawing %s's display ahead of its pages failed", name)
        if drawn:
            self._ahead[name] = (state, drawn)

    async def followed_first(self, name: str, state: CampaignState, but: Seat) -> None:
        """Draw ``state`` for the seats other than ``but`` whose pages follow ``name`` here
        and were not drawn ahead (:meth:`draw_ahead`): the answer to the referee's own
        command is drawn after, not beside, the players' display (two drawings at once share
        one interpreter, so the phones would wait for the referee's too)."""
        seats = self._following(name, state.version) - {but}
        drawings = [self.display(name, seat, state=state) for seat in seats]
        await asyncio.gather(*drawings, return_exceptions=True)  # each page says its own

    def _following(self, name: str, version: int) -> set[Seat]:
        """The seats whose pages follow ``name`` here: a stream asked for a version still
        kept (from any thread: each table is copied at once)."""
        kept = [drawn for n, drawn, _ in list(self._tasks) if n == name]
        oldest = min(kept, default=version)
        followed = list(self._followed.items())
        return {seat for (n, seat), asked in followed if n == name and asked >= oldest}

    def _kept_task(
        self, name: str, version: int, role: Seat
    ) -> asyncio.Future[tuple[str, int]] | None:
        """The drawing of that version and role kept, or drawn ahead by its command (then
        kept from now on, a drawing counted); None if neither."""
        key = (name, version, role)
        task = self._tasks.get(key)
        if task is not None:
            return task
        ahead = self._ahead.get(name)
        if ahead is None or ahead[0].version != version or role not in ahead[1]:
            return None
        done: asyncio.Future[tuple[str, int]] = asyncio.get_running_loop().create_future()
        done.set_result((ahead[1].pop(role), version))
        self._keep(key, done)
        self.draws[name, role] += 1
        return done

    def kept(self, name: str, version: int, role: Seat) -> str | None:
        """The role's display of that version, if it is drawn and still kept."""
        task = self._tasks.get((name, version, role))
        if task is None or not task.done() or task.cancelled() or task.exception() is not None:
            return None
        return task.result()[0]

    def _fresh(self, loop: asyncio.AbstractEventLoop) -> None:
        """Forget the tasks of another loop (a test client's, closed since)."""
        self._loop, self._tasks, self._pending, self._drawing = loop, {}, {}, {}
        self._changes, self._states, self._wanted, self._followed = {}, {}, {}, {}
        self._ahead = {}

    async def state(self, name: str, version: int) -> CampaignState:
        """The campaign's state for the pages the watcher woke at ``version`` (that version or
        a later one), taken once for all of them: a hundred pages cost one look, not a
        hundred turns of the campaign's lock."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._fresh(loop)
        told = self._told_at(name, version)
        if told is not None:
            return told
        task = self._states.get((name, version))
        if task is None:
            for old in [k for k in self._states if k[0] == name and k[1] != version]:
                if self._states[old].done():
                    del self._states[old]  # a later version's pages look afresh
            task = self._states[name, version] = loop.create_task(self._looked(name))

            def failed(done: asyncio.Task[CampaignState]) -> None:
                if done.cancelled() or done.exception() is not None:
                    self._states.pop((name, version), None)

            task.add_done_callback(failed)
        return await asyncio.shield(task)

    async def _looked(self, name: str) -> CampaignState:
        return await self._snapshot(name)

    def told(self, name: str, state: CampaignState) -> None:
        """This server's command left ``name`` at ``state`` (from any thread, before its pages
        are woken): the pages woken at its version draw it without a look at the campaign,
        which would wait for its lock and ask the store its version again."""
        self._told[name] = state

    def _told_at(self, name: str, version: int | None) -> CampaignState | None:
        """The state told for exactly ``version`` (a campaign made again at another version,
        or a later command of another process, is looked at)."""
        told = self._told.get(name)
        return told if told is not None and told.version == version else None

    def changes(self, name: str, role: Seat, base: int, version: int) -> str | None:
        """The parts of the role's display of ``version`` that differ from its display of
        ``base``, as :func:`changed_parts` marks them; None when either display is no longer
        kept, or the two are not made of the same parts (then the whole display goes)."""
        key = (name, base, version, role)
        if key not in self._changes:
            before, after = self.kept(name, base, role), self.kept(name, version, role)
            if before is None or after is None:
                return None
            self._changes[key] = changed_parts(before, after, base)
        return self._changes[key]

    def _keep(self, key: tuple[str, int, Seat], task: asyncio.Future[tuple[str, int]]) -> None:
        """Keep ``task`` under ``key``, forget the versions long past (and every drawing of
        a campaign whose version went back: deleted and made anew), and forget a drawing
        that failed, so the next page draws again."""
        name, version, _ = key
        drawn = sorted({k[1] for k in self._tasks if k[0] == name and k[1] <= version})
        oldest = ([*drawn, version] if version not in drawn else drawn)[-KEPT_VERSIONS - 1 :][0]
        for old in [k for k in self._tasks if k[0] == name]:
            if old[1] > version or old[1] < oldest:
                del self._tasks[old]
        for gone in [k for k in self._changes if k[0] == name]:
            if gone[2] > version or gone[1] < oldest:
                del self._changes[gone]
        self._tasks[key] = task

        def failed(done: asyncio.Future[tuple[str, int]]) -> None:
            if (done.cancelled() or done.exception() is not None) and self._tasks.get(key) is done:
                del self._tasks[key]

        task.add_done_callback(failed)


async def stream(
    watcher: Watcher,
    name: str,
    page: Page,
    draw: Callable[[int], Awaitable[Drawn]],
    revoked: str,
    idle: float = 30.0,
    changes: Callable[[int, int], str | None] = lambda base, version: None,
) -> AsyncIterator[ServerSentEvent | bytes]:
    """A page's events: its display each time the campaign moves past what ``page`` shows.

    ``draw(version)`` answers the display of the version the watcher saw (or a later one),
    shared with the other pages of the role (:class:`Displays`); when it answers None (the
    link was renewed, the campaign deleted) the page is sent ``revoked`` and the stream ends:
    at once when the link is renewed, which pokes the campaign's streams. A page that shows
    a version is sent only the parts that changed since (a ``parts`` event), when
    ``changes(seen, version)`` still has them; else the whole display. A version the page
    was shown by the answer to its own command is neither drawn nor sent again. The first
    event says how soon to reconnect (:data:`RECONNECT`).
    """
    yield RECONNECT
    while True:
        pokes = watcher.pokes(name)
        version = await watcher.next_version(name, page.seen, timeout=idle)
        if version is None:
            continue  # nothing moved; sse-starlette's pings keep the connection open
        seen = page.seen
        if seen is not None and version <= seen and watcher.pokes(name) == pokes:
            # the answer to the page's own command showed it: nothing to draw, and a drawing
            # now would take the interpreter from the other pages' sends (the answer draws it
            # after them)
            continue
        drawn = await draw(version)
        if drawn is None:
            yield ServerSentEvent(data=revoked, event="revoked")
            return
        html, shown = drawn
        seen = page.seen  # read again: the page's own command may have shown it meanwhile
        if seen is not None and shown <= seen:
            continue  # poked, not moved, or shown already: this page's link still opens it
        parts = None if seen is None else changes(seen, shown)
        page.showed(shown)
        if parts is not None:
            yield sent(parts, "parts", str(shown))
        else:
            yield sent(html, "display", str(shown))


@functools.lru_cache(maxsize=KEPT_VERSIONS * 16)
def sent(data: str, kind: str, ident: str) -> bytes:
    """An event as the stream sends it, encoded once for all the pages sent the same drawing
    (the drawings and their changes are shared: :class:`Displays`), not once a page.

    >>> sent("<p>1</p>", "parts", "4")
    b'id: 4\\r\\nevent: parts\\r\\ndata: <p>1</p>\\r\\n\\r\\n'
    """
    return ServerSentEvent(data=data, event=kind, id=ident).encode()
