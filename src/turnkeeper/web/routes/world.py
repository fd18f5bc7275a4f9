"""The world's own reads: its timeline, and a character's time record (JSON, and the
fragment the referee's dashboard shows)."""

from __future__ import annotations

from collections import deque
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from turnkeeper.campaign import Recorded
from turnkeeper.files import MAX_NAME_LENGTH
from turnkeeper.service import Campaigns
from turnkeeper.views.timeline import record_line, stretch_data, timeline
from turnkeeper.web import render
from turnkeeper.web.core import Referee, on, to_json

router = APIRouter()


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
