"""A page's display: drawn alone, and followed live over server-sent events each time the
campaign moves (:mod:`turnkeeper.web.live`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import HTMLResponse
from sse_starlette import EventSourceResponse

from turnkeeper.errors import NotFoundError
from turnkeeper.files import MAX_INT
from turnkeeper.web import live, render
from turnkeeper.web.core import Reader, Token, seat_of, snapshot
from turnkeeper.web.guard import header_number
from turnkeeper.web.tokens import Role, Seat

router = APIRouter()


@router.get(
    "/campaigns/{name}/display",
    response_class=HTMLResponse,
    summary="The page's display alone (what the live stream sends)",
)
async def display(request: Request, name: str, role: Reader, token: Token) -> str:
    # only a player's seat depends on the world's shape: the referee's needs no look
    seat: Seat = role
    if role is Role.PLAYER:
        seat = seat_of(request, await snapshot(request.app, name), name, token, role)
    displays: live.Displays = request.app.state.displays
    return (await displays.display(name, seat))[0]


@router.get(
    "/campaigns/{name}/live",
    response_class=EventSourceResponse,
    summary="Server-sent events: the page's display each time the campaign moves",
)
async def follow(
    request: Request,
    name: str,
    role: Reader,
    token: Token,
    since: Annotated[int | None, Query(ge=0, le=MAX_INT)] = None,
    page: Annotated[str | None, Query(max_length=40)] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> EventSourceResponse:
    # a browser that reconnects says what it saw last; a fresh page, what it was drawn at
    seen = header_number("Last-Event-ID", last_event_id) if last_event_id else since
    given = token or ""
    shared = request.app.state
    displays: live.Displays = shared.displays

    seated: list[Seat] = [role]

    async def draw(version: int) -> live.Drawn:
        # the digests are read from the store at most once a second: no campaign lock
        if shared.tokens.role(name, given) is not role:
            return None  # the link was renewed: this page no longer follows
        try:
            if role is Role.PLAYER:  # a character's party may have split off or joined
                now = await displays.state(name, version)  # one look for every page
                seated[0] = seat_of(request, now, name, given, role)
            return await displays.display(name, seated[0], version)  # one draw a seat
        except NotFoundError:
            return None

    async def events() -> AsyncIterator[Any]:
        with shared.pages.opened(name, page, seen) as shown:
            async for event in live.stream(
                shared.watcher,
                name,
                shown,
                draw,
                render.fragment("revoked"),
                changes=lambda base, version: displays.changes(name, seated[0], base, version),
            ):
                yield event

    return EventSourceResponse(events(), ping=15)
