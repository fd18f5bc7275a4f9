"""The pages: the front door, a campaign's dashboard page and its older journal lines, and
the dashboard's forms and command line (a fragment beside the form, or back to the page)."""

from __future__ import annotations

import secrets
from dataclasses import replace
from typing import Annotated, Any
from urllib.parse import urlsplit

import anyio.to_thread
from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from turnkeeper.campaign import CampaignState
from turnkeeper.errors import TurnkeeperError
from turnkeeper.files import MAX_INT
from turnkeeper.service import Campaigns
from turnkeeper.verbs.line import complete
from turnkeeper.web import render
from turnkeeper.web.controls import as_controls
from turnkeeper.web.core import (
    Reader,
    Referee,
    Token,
    execute,
    form_command,
    line_command,
    links,
    lived,
    on,
    seat_of,
    snapshot,
)
from turnkeeper.web.guard import read_on_loop_if_small
from turnkeeper.web.lines import journal_of
from turnkeeper.web.live import Displays
from turnkeeper.web.tokens import Role

#: The command line's suggestions at most, for one word.
MOST_WORDS = 60
#: The header a page's forms carry its id in (the ``page`` of its stream's link).
PAGE_HEADER = "X-Turnkeeper-Page"

router = APIRouter()


@router.get("/", response_class=HTMLResponse, summary="The front door: paste your link")
def front_door() -> str:
    return render.page("index", title="turnkeeper", problem=None)


@router.get("/open", summary="Open the campaign a pasted link names")
def open_link(link: str = "") -> Response:
    target = _campaign_link(link)
    if target is None:
        page = render.page(
            "index",
            title="turnkeeper",
            problem="that is not a campaign link: it looks like "
            "http://host:8765/campaigns/NAME?token=... (ask the referee for yours)",
        )
        return HTMLResponse(page, status_code=400)
    return RedirectResponse(target, status_code=303)


@router.get("/campaigns/{name}", response_class=HTMLResponse, summary="The dashboard page")
async def page(request: Request, name: str, role: Reader, token: Token) -> str:
    shown_links = links(name, token or "")
    # the page's own id: its forms send it, so its stream skips what their answers show
    shown_links = replace(shown_links, live=f"{shown_links.live}&page={secrets.token_urlsafe(9)}")
    state = await snapshot(request.app, name)
    seat = seat_of(request, state, name, token, role)
    # drawn outside the lock
    shown, _ = await request.app.state.displays.display(name, seat, state=state)
    if role is Role.PLAYER:
        hand = request.app.state.tokens.hand(name, token or "", state.everyone)
        return render.player_page(lived(state, seat), shown_links, shown, hand)
    return render.referee_page(state, shown_links, shown)


@router.get(
    "/campaigns/{name}/journal",
    response_class=HTMLResponse,
    summary="The role's journal lines before a record, a page at a time (newest first)",
)
async def older_journal(
    request: Request,
    name: str,
    role: Reader,
    token: Token,
    before: Annotated[int, Query(ge=1, le=MAX_INT)],
) -> str:
    state = await snapshot(request.app, name)  # for the calendar; the lines are read from the store
    seat = seat_of(request, state, name, token, role)
    campaigns: Campaigns = request.app.state.campaigns

    def read() -> str:
        until = min(before - 1, state.version)
        records, undone = journal_of(campaigns, name, state, seat, until)
        return render.older_lines(lived(state, seat), records, undone, referee=role is Role.REFEREE)

    return await anyio.to_thread.run_sync(read)


@router.post(
    "/campaigns/{name}/commands",
    response_class=HTMLResponse,
    summary="A dashboard form's command: a fragment beside the form (htmx), else back",
)
async def page_command(
    name: str,
    request: Request,
    role: Referee,
    token: Token,
    hx_request: Annotated[str | None, Header()] = None,
) -> Response:
    form = await request.body()  # the guard read it, within limits
    # a pasted site or map is a file's parsing: off the loop
    body = await read_on_loop_if_small(form_command, form)
    return await _done(request, name, token, body, plain=hx_request != "true")


@router.post(
    "/campaigns/{name}/line",
    response_class=HTMLResponse,
    summary="The dashboard's command line: a verb as play takes it (`turn --mode swift`)",
)
async def page_line(
    name: str,
    request: Request,
    role: Referee,
    token: Token,
    hx_request: Annotated[str | None, Header()] = None,
) -> Response:
    body = line_command(await request.body())
    return await _done(request, name, token, body, plain=hx_request != "true")


@router.post(
    "/campaigns/{name}/dice",
    response_class=HTMLResponse,
    summary="The dice a dashboard form's command will roll, before they are typed in",
)
async def form_dice(name: str, request: Request, role: Referee) -> str:
    """The form as it would be posted (its ``dice`` the faces typed so far, if any): how many
    dice of which kinds its command rolls now, "5 dice: d6, d6, d4, d20, d20". Nothing is run
    or recorded; a form that does not make a command yet answers why, in words."""
    form = await request.body()  # the guard read it, within limits

    def count(c: Campaigns) -> str:
        try:
            body = form_command(form)
            asked = c.dice_asked(name, body.build(c.state(name)), body.dice or ())
        except TurnkeeperError as error:
            return render.fragment("dice_asked", asked=None, problem=as_controls(str(error)))
        return render.fragment("dice_asked", asked=asked, typed=len(body.dice or ()))

    return await on(request, name, count)


@router.get(
    "/campaigns/{name}/complete",
    summary="What may come next on the dashboard's command line, as play's Tab offers",
)
async def complete_line(
    request: Request, name: str, role: Referee, line: Annotated[str, Query(max_length=2000)] = ""
) -> dict[str, Any]:
    start, words = complete(line, await snapshot(request.app, name))
    return {"start": start, "words": words[:MOST_WORDS]}


async def _done(request: Request, name: str, token: str | None, body: Any, plain: bool) -> Response:
    """Run a page's command: the done fragment beside its form (htmx), else back to the page
    (a plain form, without JavaScript)."""

    page = None if plain else request.headers.get(PAGE_HEADER)

    def run(c: Campaigns) -> tuple[list[str], CampaignState]:
        records, state = execute(request, c, name, body, page, answered=Role.REFEREE)
        return [r.event.describe() for r in records][:3], state

    lines, state = await on(request, name, run)
    if plain:
        return RedirectResponse(links(name, token or "").page, status_code=303)
    displays: Displays = request.app.state.displays
    # the players' pages first: they see the move, then the referee its answer
    await displays.followed_first(name, state, but=Role.REFEREE)
    await request.app.state.pages.sent(name, state.version)
    # drawn outside the lock, once for this answer and the other referee pages' streams
    shown, _ = await displays.display(name, Role.REFEREE, state=state)
    # the form said which version its page shows (the command ran on it, or was refused):
    # the answer carries what changed since, as the page's stream would, found once for both
    seen = body.expected_version
    changed = None if seen is None else displays.changes(name, Role.REFEREE, seen, state.version)
    return HTMLResponse(render.done(state.version, lines, shown, changed))


def _campaign_link(link: str) -> str | None:
    """The path and query of a pasted campaign link, to open on this server; None for
    anything else (so the front door never sends a browser to another site).

    >>> _campaign_link("http://localhost:8765/campaigns/Old%20Keep?token=abc")
    '/campaigns/Old%20Keep?token=abc'
    >>> _campaign_link("https://evil.example/x?token=abc") is None
    True
    """
    parts = urlsplit(link.strip())
    segments = parts.path.split("/")
    if len(segments) != 3 or segments[1] != "campaigns" or not segments[2]:
        return None
    if "token=" not in parts.query:
        return None
    return f"{parts.path}?{parts.query}"
