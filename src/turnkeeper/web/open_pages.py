"""The open pages of this server: what each one's display shows, moved on by its live stream
(:func:`turnkeeper.web.live.stream`) and by the answer to its own command."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


class Page:
    """One open page's stream: the version its display shows (``seen``, None before the
    first), moved on by its stream and by the answer to the page's own command, which
    carries the new display (:meth:`Pages.showed`): the stream then does not send it again."""

    def __init__(self, seen: int | None) -> None:
        self.seen = seen

    def showed(self, version: int) -> None:
        if self.seen is None or version > self.seen:
            self.seen = version


SENDING_TURNS = 16
"""The most turns of the event loop the answer to a page's command waits for the other pages
to be sent its version (:meth:`Pages.sent`): a woken page sends within three or four."""


class Pages:
    """The open pages of this server by campaign and id (a page's id is in its stream's link
    and sent with its forms), so the answer to a page's command can say what its page shows;
    an id sent with another campaign's command moves no page."""

    def __init__(self) -> None:
        self._open: dict[tuple[str, str], Page] = {}
        self._following: dict[str, set[Page]] = {}  # every open page, by campaign

    @contextlib.contextmanager
    def opened(self, name: str, ident: str | None, seen: int | None) -> Iterator[Page]:
        page = Page(seen)
        if ident:
            self._open[name, ident] = page
        self._following.setdefault(name, set()).add(page)
        try:
            yield page
        finally:
            if ident and self._open.get((name, ident)) is page:
                del self._open[name, ident]
            following = self._following.get(name, set())
            following.discard(page)
            if not following:
                self._following.pop(name, None)

    async def sent(self, name: str, version: int) -> None:
        """Wait until every open page of ``name`` shows ``version`` or later (for
        :data:`SENDING_TURNS` turns of the loop at most): the answer to a page's command is
        drawn after the other pages are sent, not beside their sends."""
        for _ in range(SENDING_TURNS):
            pages = self._following.get(name, set())
            if all(page.seen is not None and page.seen >= version for page in pages):
                return
            await asyncio.sleep(0)

    def showed(self, name: str, ident: str | None, version: int) -> None:
        """Campaign ``name``'s page ``ident`` (if open here) shows ``version`` now (from any
        thread)."""
        page = self._open.get((name, ident)) if ident else None
        if page is not None:
            page.showed(version)
