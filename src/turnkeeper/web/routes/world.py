"""The world's own reads: its timeline, a character's time record (JSON, and the fragment
the referee's dashboard shows), and a month of its calendar (JSON, and a page)."""

from __future__ import annotations

from collections import deque
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from turnkeeper.campaign import Recorded
from turnkeeper.campaign.month_calendar import MonthCalendar
from turnkeeper.files import MAX_NAME_LENGTH
from turnkeeper.service import Campaigns
from turnkeeper.service.calendar import calendar_of
from turnkeeper.views.timeline import record_line, stretch_data, timeline
from turnkeeper.web import render
from turnkeeper.web.core import (
    Reader,
    Referee,
    Token,
    links,
    lived,
    on,
    seat_of,
    snapshot,
    to_json,
)
from turnkeeper.web.lines import keeps
from turnkeeper.web.tokens import Role, Seat

router = APIRouter()

#: A month as a referee types it: ``3``, ``2-03``; none, the party's month.
Month = Annotated[str, Query(max_length=20, description="3, or 2-03; none: the party's month")]


@router.get(
    "/api/campaigns/{name}/timeline",
    summary="The world's timeline: every party and character, where, when, how far behind",
)
async def get_timeline(request: Request, name: str, role: Referee) -> Response:
    state = await on(request, name, lambda c: c.state(name), quick=True)
    return Response(timeline(state).model_dump_json(), media_type="application/json")


@router.get(
    "/api/campaigns/{name}/characters/{character}/record",
    summary="A character's own time record: their activities and whereabouts",
)
async def get_character_record(
    request: Request, name: str, character: str, role: Referee
) -> Response:
    def read(c: Campaigns) -> str:
        found, undone, lines = c.character_record(name, character)
        state = c.state(name)
        shown = [record_line(party, r, state) for party, r in lines]
        _, _, stretches = c.character_whereabouts(name, found)
        told = [stretch_data(s, state, undone) for s in stretches]
        return to_json({"campaign": name, "character": found, "whereabouts": told, "record": shown})

    return Response(await on(request, name, read), media_type="application/json")


@router.get(
    "/campaigns/{name}/record",
    response_class=HTMLResponse,
    summary="A character's own time record, as the referee's dashboard shows it",
)
async def character_record_page(
    request: Request,
    name: str,
    role: Referee,
    character: Annotated[str, Query(min_length=1, max_length=MAX_NAME_LENGTH)],
) -> str:
    def read(c: Campaigns) -> str:
        found, _, lines = c.character_record(name, character)
        state = c.state(name)
        # the latest lines, the journal streamed past them: a page holds them alone
        latest: deque[tuple[str, Recorded]] = deque(maxlen=render.RECORD_LINES)
        total = 0
        for line in lines:
            latest.append(line)
            total += 1
        shown = [record_line(party, r, state) for party, r in latest]
        _, undone, stretches = c.character_whereabouts(name, found)
        told = deque(
            (stretch_data(s, state, undone) for s in stretches), maxlen=render.RECORD_STRETCHES
        )
        return render.fragment(
            "record",
            character=found,
            stretches=list(told),
            lines=shown,
            shown=len(shown),
            total=total,
        )

    return await on(request, name, read)


def _calendar(c: Campaigns, name: str, seat: Seat, month: str) -> MonthCalendar:
    """The month's calendar for ``seat``: every party's days for the referee; for a player
    their own party's (a character's link: the party the character is with) and the lines
    its players read, nothing else."""
    keep = None
    party = None
    if seat is not Role.REFEREE:
        state = c.state(name)
        undone = c.undone(name)
        keep = keeps(c, name, state, seat, undone, state.version)
        party = lived(state, seat).company
    return calendar_of(c, name, month, party=party, keep=keep)


@router.get(
    "/api/campaigns/{name}/calendar",
    summary="A month of the calendar: each day, each party's whereabouts, the world's events",
)
async def get_calendar(
    request: Request, name: str, role: Reader, token: Token, month: Month = ""
) -> Response:
    seat = seat_of(request, await snapshot(request.app, name), name, token, role)
    view = await on(request, name, lambda c: _calendar(c, name, seat, month))
    return Response(view.model_dump_json(), media_type="application/json")


@router.get(
    "/campaigns/{name}/calendar",
    response_class=HTMLResponse,
    summary="A month of the calendar as a page: the referee's every party, the players' own",
)
async def calendar_page(
    request: Request, name: str, role: Reader, token: Token, month: Month = ""
) -> str:
    seat = seat_of(request, await snapshot(request.app, name), name, token, role)
    view = await on(request, name, lambda c: _calendar(c, name, seat, month))
    return render.calendar_page(view, links(name, token or ""), token or "")
