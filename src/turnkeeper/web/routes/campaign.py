"""The JSON API on a campaign: its state, its journal a page at a time, a referee's command."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from turnkeeper.campaign.glance import referee_state
from turnkeeper.files import MAX_INT
from turnkeeper.service import Campaigns, gc_paused
from turnkeeper.verbs import CommandBody
from turnkeeper.views.journal import player_record, referee_record
from turnkeeper.views.party import player_state
from turnkeeper.web.core import (
    Reader,
    Referee,
    StateAnswers,
    Token,
    execute,
    lived,
    on,
    seat_of,
    to_json,
)
from turnkeeper.web.lines import keeps
from turnkeeper.web.squeeze import GZIPPED, takes_gzip
from turnkeeper.web.tokens import Role

LOG_PAGE = 500
"""How many records one ``/log`` answer holds unless ``limit`` asks fewer."""

LOG_PAGE_MOST = 5000
"""The most records one ``/log`` answer holds (``limit``'s maximum)."""

router = APIRouter()


@router.get(
    "/api/campaigns/{name}/state",
    response_model=None,
    summary="The campaign now: the whole state (referee) or the party's view (player)",
)
async def get_state(request: Request, name: str, role: Reader, token: Token) -> Response:
    campaigns: Campaigns = request.app.state.campaigns
    # the state in memory, if the store is at it, without waiting for a command under way
    state = campaigns.current(name)
    if state is None:
        state = await on(request, name, lambda c: c.state(name), quick=True)
    seat = seat_of(request, state, name, token, role)

    def shaped() -> str:
        # Serialised here, not by FastAPI's generic encoder: ten times quicker for a state.
        if seat is Role.REFEREE:
            return json.dumps(referee_state(state), ensure_ascii=False, default=str)
        return player_state(lived(state, seat)).model_dump_json()

    answers: StateAnswers = request.app.state.answers
    packed = takes_gzip(request.headers)
    body, gzip = answers.answer(name, state, seat, shaped, packed)
    return Response(body, media_type="application/json", headers=GZIPPED if gzip else None)


@router.get(
    "/api/campaigns/{name}/log",
    summary="The journal after seq `after`, a page of at most `limit` records",
)
async def get_log(
    request: Request,
    name: str,
    role: Reader,
    token: Token,
    after: Annotated[
        int | None,
        Query(ge=0, le=MAX_INT, description="The seq to start after (the last page's `next`)."),
    ] = None,
    since: Annotated[int, Query(ge=0, le=MAX_INT, description="The older name of `after`.")] = 0,
    limit: Annotated[
        int, Query(ge=1, le=LOG_PAGE_MOST, description="The most records in this page.")
    ] = LOG_PAGE,
) -> Response:
    start = since if after is None else after

    def page(c: Campaigns) -> str:
        # the page alone read by seq, the undos by their index: not the whole journal
        state, undone = c.state(name), c.undone(name)
        seat = seat_of(request, state, name, token, role)
        player = role is Role.PLAYER
        keep = keeps(c, name, state, seat, undone, state.version)
        chosen, more = c.page(name, start, limit, keep, until=state.version)
        if player:
            as_lived = lived(state, seat)
            shaped = [player_record(r, as_lived) for r in chosen]
        else:
            shaped = [referee_record(r, state, undone) for r in chosen]
        following = chosen[-1].seq if more and chosen else None
        answer = {
            "campaign": name,
            "version": state.version,
            "records": shaped,
            "next": following,
        }
        return json.dumps(answer, ensure_ascii=False, default=str)

    return Response(await on(request, name, page), media_type="application/json")


@router.post(
    "/api/campaigns/{name}/commands",
    response_model=None,
    summary="Run one referee command (see docs/http-api.md)",
)
async def post_command(request: Request, name: str, body: CommandBody, role: Referee) -> Response:
    def run(c: Campaigns) -> bytes:
        records, state = execute(request, c, name, body)
        head = {"campaign": name, "version": state.version, "date": state.date}
        with gc_paused():
            # a record at a time, so a year's wait never holds the other threads long
            shaped = ",".join(to_json(referee_record(r, state)) for r in records)
        return f'{to_json(head)[:-1]},"records":[{shaped}]}}'.encode()

    # in a worker thread: a long command never holds the loop, nor another campaign
    return Response(await on(request, name, run), media_type="application/json")
