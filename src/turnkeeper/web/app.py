"""The HTTP API and the web pages: thin adapters over :class:`~turnkeeper.service.Campaigns`.

Nothing here knows a rule. A request is authorised by its campaign token, turned into a
service call, and the answer shaped by :mod:`turnkeeper.views` (the party's view goes
through :func:`~turnkeeper.views.player_state` and
:func:`~turnkeeper.views.player_record` only). Domain errors become status codes here and
nowhere else, each as one JSON message ``{"error": "...", "type": "IllegalCommandError"}``:

=========================================  ======
a malformed body or value, bad dice        400
no token, or a wrong one                   401
a player token on a referee route          403
no such campaign, map, feature, level      404
a stale ``expected_version`` or append     409
a body or field past its limit             413
a command the rules do not allow now       422
a store that cannot be written now         503
=========================================  ======

The pages are Jinja2 templates (:mod:`turnkeeper.web.render`) with htmx and a little CSS
served from the package (``/static``); a page's forms post with htmx and get back a fragment
beside the form (an error keeps the form as it was typed), and its display follows the table
live over server-sent events (:mod:`turnkeeper.web.live`).

The service keeps journals in memory and one campaign's journal is not thread-safe, so each
campaign has a lock that serialises the calls on it; two campaigns share nothing, so one
table's long command (a year's wait) never holds another's reads. The lock is the event
loop's (:class:`CampaignLocks`): a request waits for it as a coroutine, holding no worker
thread, so a hundred requests queued behind one campaign's long command leave the threads to
the other campaigns. Once it holds the lock, a command, a page, the journal's reading and a
pasted file's parsing run in a worker thread, off the loop; only a read of the state runs on
the loop, when its campaign is already read (a few milliseconds). Several processes share a
PostgreSQL store through its optimistic appends. Nothing holds a lock while it waits: the
live streams wait on the store's versions, outside it, and a display is drawn once per
version and role for all the open pages, outside the lock, which is held only to take the
state (:class:`turnkeeper.web.live.Displays`). Request limits and the safe headers are
:mod:`turnkeeper.web.guard`'s.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Annotated, Any, TypeVar
from urllib.parse import parse_qsl, quote, urlsplit

import anyio.to_thread
from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.security import APIKeyQuery, HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from pydantic import TypeAdapter, ValidationError
from sse_starlette import EventSourceResponse
from starlette.exceptions import HTTPException

from turnkeeper.campaign import CampaignState, Recorded, snapshots
from turnkeeper.campaign.glance import referee_state
from turnkeeper.dice import format_mixed
from turnkeeper.errors import (
    ConflictError,
    IllegalCommandError,
    NotFoundError,
    TurnkeeperError,
)
from turnkeeper.files import MAX_INT, MAX_NAME_LENGTH, decode, digits
from turnkeeper.procedures.wilderness.costs import best_route, conditions_of
from turnkeeper.service import Campaigns, gc_paused
from turnkeeper.store.base import StoreUnavailable, stale
from turnkeeper.verbs import CommandBody, problem
from turnkeeper.verbs.line import body_of_line, complete
from turnkeeper.views import (
    MAX_WINDOW_RADIUS,
    PAGE_WINDOW_RADIUS,
    map_svg,
    party_perceives,
    perceived_by,
    player_record,
    player_state,
    record_line,
    referee_record,
    stretch_data,
    timeline,
)
from turnkeeper.web import live, phone, render
from turnkeeper.web.controls import Control, by_verb, form_body
from turnkeeper.web.guard import Guard, answer, header_number
from turnkeeper.web.lanes import Lanes
from turnkeeper.web.squeeze import squeezed
from turnkeeper.web.tokens import Hand, Role, Seat, TokenCheck, issue_hand, renew_token
from turnkeeper.words import unknown
from turnkeeper.world.hexes import Hex
from turnkeeper.world.svg import centre

_bearer = HTTPBearer(auto_error=False, description="The campaign's referee or player token.")
_query = APIKeyQuery(name="token", auto_error=False, description="The token, for links.")
_command_body: TypeAdapter[Any] = TypeAdapter(CommandBody)
#: The command line's suggestions at most, for one word.
MOST_WORDS = 60
#: The header a page's forms carry its id in (the ``page`` of its stream's link).
PAGE_HEADER = "X-Turnkeeper-Page"


class Refused(Exception):
    """A request refused before it reaches the service (no token, wrong token, wrong role)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def status_of(error: TurnkeeperError) -> int:
    """The HTTP status of a domain error (the table in this module's docstring).

    >>> status_of(ConflictError("x")), status_of(IllegalCommandError("x"))
    (409, 422)
    """
    if isinstance(error, ConflictError):
        return 409
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, IllegalCommandError):
        return 422
    if isinstance(error, StoreUnavailable):
        return 503
    return 400


LOG_PAGE = 500
"""How many records one ``/log`` answer holds unless ``limit`` asks fewer."""

LOG_PAGE_MOST = 5000
"""The most records one ``/log`` answer holds (``limit``'s maximum)."""


class CampaignLocks:
    """One lock per campaign: its journal in memory is changed by one call at a time, and
    two campaigns never wait on each other.

    The locks are the event loop's: a request waits for its campaign as a coroutine, not in
    a worker thread, so requests queued behind one campaign's long command never take every
    thread from the others (60 waiting for campaign A's display once held a command on B for
    12 s). Taken on the loop only (:func:`_on`); a lock belongs to the loop that made it, so
    a new loop (a test client's) gets new locks.
    """

    def __init__(self) -> None:
        self._locks: dict[str, asyncio.Lock] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def __call__(self, name: str) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if loop is not self._loop:
            self._loop, self._locks = loop, {}
        lock = self._locks.get(name)
        if lock is None:
            lock = self._locks[name] = asyncio.Lock()
        return lock


T = TypeVar("T")


async def _on(
    request: Request, name: str, work: Callable[[Campaigns], T], quick: bool = False
) -> T:
    """``work`` on the service with campaign ``name``'s lock held, without stalling the loop.

    The lock is awaited on the loop; then ``work`` runs in a worker thread, so the other
    campaigns' requests go on meanwhile. A ``quick`` work (reading the state, a few
    milliseconds) runs on the loop itself when the campaign is already read, saving the
    thread hand-off; its first read (a fold of the journal) goes to a thread too.
    """
    campaigns: Campaigns = request.app.state.campaigns
    async with request.app.state.locks(name):
        if quick and campaigns.loaded(name):
            return work(campaigns)
        return await anyio.to_thread.run_sync(work, campaigns)


async def _token_of(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    token: Annotated[str | None, Depends(_query)],
) -> str | None:
    """The token a request carries: the Bearer header first, else ``?token=``."""
    if credentials is not None:
        return credentials.credentials
    return token


def _authorise(request: Request, name: str, token: str | None) -> Role:
    if "\x00" in name or (token is not None and "\x00" in token):
        raise Refused(401, "a campaign name or token holds a NUL character: check the link")
    if not token:
        raise Refused(
            401,
            "no access token: send 'Authorization: Bearer TOKEN' or add ?token=TOKEN "
            "(turnkeeper serve prints the links)",
        )
    tokens: TokenCheck = request.app.state.tokens
    role = tokens.role(name, token)  # the digests are read from the store: no campaign lock
    if role is None:
        raise Refused(
            401,
            f"this token does not open campaign {name!r}: use the link the referee gave, "
            f"or make new ones with `turnkeeper tokens {name} --rotate`",
        )
    return role


async def _any_role(
    request: Request, name: str, token: Annotated[str | None, Depends(_token_of)]
) -> Role:
    return _authorise(request, name, token)


async def _referee_only(
    request: Request, name: str, token: Annotated[str | None, Depends(_token_of)]
) -> Role:
    role = _authorise(request, name, token)
    if role is not Role.REFEREE:
        raise Refused(403, "this is the referee's: a player token can only read the party view")
    return role


Reader = Annotated[Role, Depends(_any_role)]
Referee = Annotated[Role, Depends(_referee_only)]
Token = Annotated[str | None, Depends(_token_of)]


def create_app(campaigns: Campaigns, poll: float = live.POLL_SECONDS) -> FastAPI:
    """The web application over ``campaigns`` (its store keeps the tokens too); ``poll`` is
    how often a SQLite store is read for other processes' commands (this server's own reach
    its pages at once)."""
    watcher = live.Watcher(campaigns.store, poll=poll)
    pages = live.Pages()

    async def snapshot(name: str) -> CampaignState:
        """The campaign's state now, under its lock for a moment (a fold, the first time,
        in a worker thread); the state of a version never changes, so it is drawn after."""
        async with app.state.locks(name):
            if campaigns.loaded(name):
                return campaigns.state(name)
            return await anyio.to_thread.run_sync(campaigns.state, name)

    displays = live.Displays(
        snapshot, lambda name, state, role: _display(campaigns, name, state, role)
    )
    lanes = Lanes()  # a route or a map drawn runs there: never on another campaign's time

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The snapshot format's tag is the state's JSON schema: made now, not under the lock
        # by the first request that takes a snapshot.
        await anyio.to_thread.run_sync(snapshots.state_format)
        yield
        watcher.close()
        lanes.close()

    app = FastAPI(
        title="turnkeeper",
        summary="The referee's engine for old-school turn-based play, over HTTP.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.campaigns = campaigns
    app.state.locks = CampaignLocks()
    app.state.tokens = TokenCheck(campaigns.store)
    app.state.watcher = watcher
    app.state.displays = displays
    app.state.lanes = lanes
    app.state.pages = pages
    app.add_middleware(Guard)
    app.add_middleware(squeezed)
    app.mount("/static", StaticFiles(packages=[("turnkeeper.web", "static")]), name="static")

    # -- errors: one JSON message (an HTML page, or a fragment beside a form) ----------------

    def refuse(request: Request, status: int, message: str, kind: str) -> Response:
        htmx = request.headers.get("HX-Request") == "true"
        return answer(request.url.path, htmx, status, message, kind)

    @app.exception_handler(Refused)
    def refused(request: Request, error: Refused) -> Response:
        kind = "Unauthorized" if error.status == 401 else "Forbidden"
        return refuse(request, error.status, error.message, kind)

    @app.exception_handler(TurnkeeperError)
    def domain(request: Request, error: TurnkeeperError) -> Response:
        return refuse(request, status_of(error), str(error), type(error).__name__)

    @app.exception_handler(RequestValidationError)
    def malformed(request: Request, error: RequestValidationError) -> Response:
        return refuse(request, 400, _first_problem(error.errors()), "BadRequest")

    @app.exception_handler(HTTPException)
    def http(request: Request, error: HTTPException) -> Response:
        return refuse(request, error.status_code, str(error.detail), "HTTPError")

    def execute(
        c: Campaigns, name: str, body: Any, page: str | None = None
    ) -> tuple[list[Recorded], CampaignState]:
        """Run a command (:func:`_execute`) and tell this server's pages at once; the page
        that sent it (``page``, its id) is shown the new display by the answer."""
        records, state = _execute(c, name, body)
        pages.showed(name, page, state.version)  # before the pages wake: its stream skips it
        watcher.moved(name, state.version)
        return records, state

    # -- the JSON API ----------------------------------------------------------------------

    def seat_of(state: CampaignState, name: str, token: str | None, role: Role) -> Seat:
        """Who a page or a response is for: the role, or a character's own link (its phone's
        display; in a world of several parties, its party's view, never the party the
        referee runs)."""
        if role is Role.REFEREE:
            return role
        hand = app.state.tokens.hand(name, token or "", state.everyone)
        return Role.PLAYER if hand is None else Hand(hand)

    @app.get(
        "/api/campaigns/{name}/state",
        response_model=None,
        summary="The campaign now: the whole state (referee) or the party's view (player)",
    )
    async def get_state(request: Request, name: str, role: Reader, token: Token) -> Response:
        state = await _on(request, name, lambda c: c.state(name), quick=True)
        # Serialised here, not by FastAPI's generic encoder: ten times quicker for a state.
        if role is Role.REFEREE:
            text = json.dumps(referee_state(state), ensure_ascii=False, default=str)
        else:
            text = player_state(_lived(state, seat_of(state, name, token, role))).model_dump_json()
        return Response(text, media_type="application/json")

    @app.get(
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
        since: Annotated[
            int, Query(ge=0, le=MAX_INT, description="The older name of `after`.")
        ] = 0,
        limit: Annotated[
            int, Query(ge=1, le=LOG_PAGE_MOST, description="The most records in this page.")
        ] = LOG_PAGE,
    ) -> Response:
        start = since if after is None else after

        def page(c: Campaigns) -> str:
            # the page alone read by seq, the undos by their index: not the whole journal
            state, undone = c.state(name), c.undone(name)
            seat = seat_of(state, name, token, role)
            player = role is Role.PLAYER
            keep = _keeps(c, name, state, seat, undone, state.version)
            chosen, more = c.page(name, start, limit, keep, until=state.version)
            if player:
                lived = _lived(state, seat)
                shaped = [player_record(r, lived) for r in chosen]
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

        return Response(await _on(request, name, page), media_type="application/json")

    @app.get(
        "/api/campaigns/{name}/timeline",
        summary="The world's timeline: every party and character, where, when, how far behind",
    )
    async def get_timeline(request: Request, name: str, role: Referee) -> Response:
        state = await _on(request, name, lambda c: c.state(name), quick=True)
        return Response(timeline(state).model_dump_json(), media_type="application/json")

    @app.get(
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
            return _json(
                {"campaign": name, "character": found, "whereabouts": told, "record": shown}
            )

        return Response(await _on(request, name, read), media_type="application/json")

    @app.post(
        "/api/campaigns/{name}/commands",
        response_model=None,
        summary="Run one referee command (see docs/http-api.md)",
    )
    async def post_command(
        request: Request, name: str, body: CommandBody, role: Referee
    ) -> Response:
        def run(c: Campaigns) -> bytes:
            records, state = execute(c, name, body)
            head = {"campaign": name, "version": state.version, "date": state.date}
            with gc_paused():
                # a record at a time, so a year's wait never holds the other threads long
                shaped = ",".join(_json(referee_record(r, state)) for r in records)
            return f'{_json(head)[:-1]},"records":[{shaped}]}}'.encode()

        # in a worker thread: a long command never holds the loop, nor another campaign
        return Response(await _on(request, name, run), media_type="application/json")

    @app.get(
        "/api/campaigns/{name}/map.svg",
        response_class=Response,
        responses={200: {"content": {"image/svg+xml": {}}}},
        summary="The wilderness map as SVG: the referee's, or only what the party knows",
    )
    async def get_map(
        request: Request,
        name: str,
        role: Reader,
        token: Token,
        around: Annotated[
            str | None,
            Query(max_length=12, description="Draw only a window around this hex: 0304."),
        ] = None,
        radius: Annotated[
            int, Query(ge=0, le=MAX_WINDOW_RADIUS, description="The window's radius in hexes.")
        ] = PAGE_WINDOW_RADIUS,
    ) -> Response:
        middle = Hex.parse(around) if around is not None else None
        state = await _on(request, name, lambda c: c.state(name), quick=True)
        # drawn outside the lock (the state does not change) and in a worker process: a
        # large map is seconds of work that would hold every other campaign's commands
        player = role is Role.PLAYER
        lived = _lived(state, seat_of(state, name, token, role))
        svg = await app.state.lanes.run(map_svg, lived, player=player, around=middle, radius=radius)
        return Response(svg, media_type="image/svg+xml")

    # -- the pages -------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, summary="The front door: paste your link")
    def front_door() -> str:
        return render.page("index", title="turnkeeper", problem=None)

    @app.get("/open", summary="Open the campaign a pasted link names")
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

    @app.get("/campaigns/{name}", response_class=HTMLResponse, summary="The dashboard page")
    async def page(request: Request, name: str, role: Reader, token: Token) -> str:
        links = _links(name, token or "")
        # the page's own id: its forms send it, so its stream skips what their answers show
        links = replace(links, live=f"{links.live}&page={secrets.token_urlsafe(9)}")
        state = await snapshot(name)
        seat = seat_of(state, name, token, role)
        shown, _ = await displays.display(name, seat, state=state)  # drawn outside the lock
        if role is Role.PLAYER:
            hand = app.state.tokens.hand(name, token or "", state.everyone)
            return render.player_page(_lived(state, seat), links, shown, hand)
        return render.referee_page(state, links, shown)

    @app.get(
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
        state = await snapshot(name)  # for the calendar; the lines are read from the store
        seat = seat_of(state, name, token, role)

        def read() -> str:
            until = min(before - 1, state.version)
            records, undone = _journal(campaigns, name, state, seat, until)
            lived = _lived(state, seat)
            return render.older_lines(lived, records, undone, referee=role is Role.REFEREE)

        return await anyio.to_thread.run_sync(read)

    @app.get(
        "/campaigns/{name}/display",
        response_class=HTMLResponse,
        summary="The page's display alone (what the live stream sends)",
    )
    async def display(request: Request, name: str, role: Reader, token: Token) -> str:
        # only a player's seat depends on the world's shape: the referee's needs no look
        seat = seat_of(await snapshot(name), name, token, role) if role is Role.PLAYER else role
        return (await displays.display(name, seat))[0]

    @app.get(
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

        seated: list[Seat] = [role]

        async def draw(version: int) -> live.Drawn:
            # the digests are read from the store at most once a second: no campaign lock
            if app.state.tokens.role(name, given) is not role:
                return None  # the link was renewed: this page no longer follows
            try:
                if role is Role.PLAYER:  # a character's party may have split off or joined
                    now = await displays.state(name, version)  # one look for every page
                    seated[0] = seat_of(now, name, given, role)
                return await displays.display(name, seated[0], version)  # one draw a seat
            except NotFoundError:
                return None

        async def events() -> AsyncIterator[Any]:
            with pages.opened(name, page, seen) as shown:
                async for event in live.stream(
                    watcher,
                    name,
                    shown,
                    draw,
                    render.fragment("revoked"),
                    changes=lambda base, version: displays.changes(name, seated[0], base, version),
                ):
                    yield event

        return EventSourceResponse(events(), ping=15)

    @app.post(
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
        # read off the loop: a pasted site or map is a file's parsing
        body = await anyio.to_thread.run_sync(_form_command, form)
        return await done(request, name, token, body, plain=hx_request != "true")

    @app.post(
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
        body = _line_command(await request.body())
        return await done(request, name, token, body, plain=hx_request != "true")

    @app.get(
        "/campaigns/{name}/complete",
        summary="What may come next on the dashboard's command line, as play's Tab offers",
    )
    async def complete_line(
        name: str, role: Referee, line: Annotated[str, Query(max_length=2000)] = ""
    ) -> dict[str, Any]:
        start, words = complete(line, await snapshot(name))
        return {"start": start, "words": words[:MOST_WORDS]}

    @app.get(
        "/campaigns/{name}/route",
        summary="The route from the party's hex to a hex clicked on the map: its days and TP",
    )
    async def route_preview(
        name: str, role: Referee, to: Annotated[str, Query(max_length=20)]
    ) -> dict[str, Any]:
        state = await snapshot(name)
        wild = state.wilderness
        if wild is None:
            raise IllegalCommandError("the party is not in the wilderness: no route to price")
        goal = Hex.parse(to)
        if goal == wild.position:
            return {"to": goal.label, "days": 0, "tp": "0", "hexes": 0}
        # in a worker process: a route across a big map is seconds of work
        route = await app.state.lanes.run(
            best_route,
            state.ruleset,
            wild.hexmap,
            wild.position,
            goal,
            wild.weather,
            conditions_of(state),
            wild.vessel,
        )
        return {
            "to": goal.label,
            "days": route.days,
            "tp": format_mixed(route.tp),
            "hexes": len(route.hexes) - 1,
            # TP-WIL-10: the move that works there, travel to a known hex, else explore
            "travel": wild.is_known_destination(goal),
            # the route as the map draws it: the hexes' centres, in the drawing's units
            "line": " ".join(f"{x:.1f},{y:.1f}" for x, y in map(centre, route.hexes)),
        }

    async def done(
        request: Request, name: str, token: str | None, body: Any, plain: bool
    ) -> Response:
        """Run a page's command: the done fragment beside its form (htmx), else back to the
        page (a plain form, without JavaScript)."""

        page = None if plain else request.headers.get(PAGE_HEADER)

        def run(c: Campaigns) -> tuple[list[str], CampaignState]:
            records, state = execute(c, name, body, page)
            return [r.event.describe() for r in records][:3], state

        lines, state = await _on(request, name, run)
        if plain:
            return RedirectResponse(_links(name, token or "").page, status_code=303)
        # drawn outside the lock, once for this answer and the other referee pages' streams
        shown, _ = await displays.display(name, Role.REFEREE, state=state)
        return HTMLResponse(render.done(state.version, lines, shown))

    @app.post(
        "/campaigns/{name}/hand",
        response_class=HTMLResponse,
        summary="A character's own command, from its player's link: a declaration",
    )
    async def hand_command(request: Request, name: str, role: Reader, token: Token) -> str:
        form = await request.body()  # the guard read it, within limits
        body = await anyio.to_thread.run_sync(_form_command, form)
        if body.verb not in phone.HAND_VERBS:
            raise Refused(403, "a character's link declares that character's actions only")

        def run(c: Campaigns) -> str:
            now = c.state(name)
            character = app.state.tokens.hand(name, token or "", now.everyone)
            if character is None:
                raise Refused(403, "this is not a character's link: ask the referee for yours")
            acting = getattr(body, phone.HAND_VERBS[body.verb])
            if acting.casefold() != character.casefold():
                raise Refused(403, f"this link acts for {character} alone")
            party = now.party_of(character)
            mine = body if party == now.company else body.model_copy(update={"as_party": party})
            records, _ = execute(c, name, mine)
            undone = c.undone(name)
            lines = [r.event.describe() for r in records if party_perceives(r, undone)]
            return render.fragment("said", lines=lines[:3])

        return await _on(request, name, run)  # the players' display comes by the live stream

    @app.post(
        "/campaigns/{name}/hand-link",
        response_class=HTMLResponse,
        summary="A new link for one character's player; its old one stops working",
    )
    async def new_hand_link(request: Request, name: str, role: Referee) -> str:
        form = parse_qsl(decode(await request.body(), "the form"), keep_blank_values=True)
        asked = dict(form).get("character", "")

        def make(c: Campaigns) -> tuple[str, str]:
            names = list(c.state(name).everyone)  # a world's every party's characters
            character = next((n for n in names if n.casefold() == asked.casefold()), None)
            if character is None:
                raise TurnkeeperError(unknown("character", asked, names, listing=True))
            fresh = issue_hand(c.store, name, character)
            app.state.tokens.forget(name)
            return character, fresh

        character, fresh = await _on(request, name, make)
        watcher.poke(name)  # the old link's open page is shut now
        base = str(request.base_url).rstrip("/")
        link = base + _links(name, fresh).page
        return render.fragment("hand_link", link=link, character=character)

    @app.get(
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

        return await _on(request, name, read)

    @app.post(
        "/campaigns/{name}/player-link",
        response_class=HTMLResponse,
        summary="A new players' link; the old one stops working, the referee's stays",
    )
    async def new_player_link(request: Request, name: str, role: Referee) -> str:
        def renew(c: Campaigns) -> str:
            fresh = renew_token(c.store, name, Role.PLAYER)
            app.state.tokens.forget(name)
            return fresh

        fresh = await _on(request, name, renew)
        watcher.poke(name)  # the old link's open pages are shut now, not at the next move
        base = str(request.base_url).rstrip("/")
        return render.fragment("player_link", link=base + _links(name, fresh).page)

    return app


def _links(name: str, token: str) -> render.Links:
    """The URLs of a campaign's page, forms and stream, each carrying ``token``."""
    path = f"/campaigns/{quote(name, safe='')}"
    query = f"?token={quote(token, safe='')}"
    return render.Links(
        page=path + query,
        commands=f"{path}/commands{query}",
        live=f"{path}/live{query}",
        player_link=f"{path}/player-link{query}",
        journal=f"{path}/journal{query}",
        hand=f"{path}/hand{query}",
        hand_link=f"{path}/hand-link{query}",
        record=f"{path}/record{query}",
        line=f"{path}/line{query}",
        complete=f"{path}/complete{query}",
        route=f"{path}/route{query}",
    )


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


def _lived(state: CampaignState, seat: Seat) -> CampaignState:
    """The state as the seat's party lives it: a character's link shows the party the
    character is with (the party run now for every other seat)."""
    if isinstance(seat, Hand):
        party = state.party_of(seat.character)
        if party is not None and party != state.company:
            return state.as_party(party)
    return state


def _keeps(
    c: Campaigns,
    name: str,
    state: CampaignState,
    seat: Seat,
    undone: frozenset[int],
    until: int,
) -> Callable[[Recorded], bool] | None:
    """Which records the seat reads: every one (the referee); the players' those their own
    party perceives (:func:`~turnkeeper.views.perceived_by`): a character's link the party the
    character is with, the table's link the party run now."""
    if seat is Role.REFEREE:
        return None
    mine = state.company
    if isinstance(seat, Hand):
        mine = state.party_of(seat.character) or mine
    return perceived_by(c.party_lines(name, mine, until, undone), undone)


def _display(c: Campaigns, name: str, state: CampaignState, role: Seat) -> str:
    """The role's display of ``state``: drawn from the state and the last journal lines it
    shows, read from the store by seq back from the state's version (never the whole
    journal), the undone commands from the undos' index. It reads the store alone, not the
    journal in memory, so it runs without the campaign's lock (:class:`live.Displays`)."""
    records, undone = _journal(c, name, state, role, state.version)
    if role is not Role.REFEREE:
        hand = role.character if isinstance(role, Hand) else None
        return render.player_display(_lived(state, role), records, undone, hand)
    return render.referee_display(state, records, undone)


def _journal(
    c: Campaigns, name: str, state: CampaignState, role: Seat, until: int
) -> tuple[list[Recorded], frozenset[int]]:
    """The role's last :data:`render.JOURNAL_LINES` records up to seq ``until`` (the players':
    those the party perceives), read from the store by seq backwards, and the commands
    undone up to there."""
    undone = c.undone(name, until=until)
    keep = _keeps(c, name, state, role, undone, until)
    return c.latest(name, render.JOURNAL_LINES, keep, until=until), undone


def _control_of(pairs: list[tuple[str, str]]) -> Control:
    """The control a form belongs to, by its ``verb``; a clear 400 for an unknown one."""
    verbs = by_verb()
    verb = next((value for key, value in pairs if key == "verb"), "")
    control = verbs.get(verb)
    if control is None:
        known = ", ".join(verbs)
        raise TurnkeeperError(f"verb: unknown verb {verb!r}; the verbs are {known}")
    return control


def _form_command(form: bytes) -> Any:
    """A dashboard form's command body: its verb's control reads the fields; a clear 400."""
    pairs = parse_qsl(decode(form, "the form"), keep_blank_values=True)
    control = _control_of(pairs)
    try:
        return _command_body.validate_python(form_body(control, pairs))
    except ValidationError as error:
        raise TurnkeeperError(_first_problem(error.errors())) from None


def _line_command(form: bytes) -> Any:
    """The command line's body: its line read as play reads it, with the version seen."""
    fields = dict(parse_qsl(decode(form, "the form"), keep_blank_values=True))
    seen = fields.get("expected_version", "")
    # ASCII digits: isdigit takes "²", which int refuses (a 500)
    shared = {"expected_version": int(seen)} if digits(seen) and len(seen) <= 19 else {}
    return body_of_line(fields.get("line", ""), **shared)


def _execute(c: Campaigns, name: str, body: Any) -> tuple[list[Recorded], CampaignState]:
    """Run a command body through the service (its campaign's lock held): the stale check,
    the command, the new state."""
    state = c.state(name)
    if body.expected_version is not None and body.expected_version != state.version:
        raise stale(name, state.version, body.expected_version)
    records = c.execute(name, body.build(state), body.dice)
    return records, c.state(name)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def _first_problem(errors: Any) -> str:
    """One line from pydantic's list of problems (the verb table's words for them)."""
    return problem(errors)
