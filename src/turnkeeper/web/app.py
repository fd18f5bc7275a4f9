"""The HTTP API and the web pages: thin adapters over :class:`~turnkeeper.service.Campaigns`.

Nothing here knows a rule. A request is authorised by its campaign token, turned into a
service call, and the answer shaped by :mod:`turnkeeper.views` (the party's view goes
through :func:`~turnkeeper.views.party.player_state` and
:func:`~turnkeeper.views.journal.player_record` only). Domain errors become status codes here and
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

:func:`create_app` assembles the application: the server's parts on ``app.state``, the
request guard and compression, the error handlers, the static files and the routers, one per
area (:mod:`turnkeeper.web.routes`), which share :mod:`turnkeeper.web.core` (a campaign's
lock, the token's role, the state now, a command run).

The pages are Jinja2 templates (:mod:`turnkeeper.web.render`) with htmx and a little CSS
served from the package (``/static``); a page's forms post with htmx and get back a fragment
beside the form (an error keeps the form as it was typed), and its display follows the table
live over server-sent events (:mod:`turnkeeper.web.live`). Request limits and the safe
headers are :mod:`turnkeeper.web.guard`'s.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from turnkeeper.campaign import snapshots
from turnkeeper.errors import (
    ConflictError,
    IllegalCommandError,
    NotFoundError,
    TurnkeeperError,
)
from turnkeeper.service import Campaigns
from turnkeeper.store.base import POLL_SECONDS, StoreUnavailable
from turnkeeper.web import live
from turnkeeper.web.core import (
    CampaignLocks,
    Refused,
    StateAnswers,
    display_of,
    first_problem,
    snapshot,
)
from turnkeeper.web.guard import Guard, answer
from turnkeeper.web.lanes import Lanes
from turnkeeper.web.lines import LatestLines
from turnkeeper.web.open_pages import Pages
from turnkeeper.web.routes import campaign, maps, pages, seats, stream, world
from turnkeeper.web.squeeze import squeezed
from turnkeeper.web.tokens import TokenCheck


def http_status(error: TurnkeeperError) -> int:
    """The HTTP status of a domain error (the table in this module's docstring).

    >>> http_status(ConflictError("x")), http_status(IllegalCommandError("x"))
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


def create_app(
    campaigns: Campaigns, poll: float = POLL_SECONDS, lanes: Lanes | None = None
) -> FastAPI:
    """The web application over ``campaigns`` (its store keeps the tokens too); ``poll`` is
    how often a SQLite store is read for other processes' commands (this server's own reach
    its pages at once). ``lanes``: worker processes to share with other apps of this process
    (a test run serving many), left open when the app stops; else the app starts its own."""
    watcher = live.Watcher(campaigns.store, poll=poll)
    own_lanes = lanes is None
    # a route or a map drawn runs there: never on another campaign's time
    lanes = Lanes() if lanes is None else lanes

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The snapshot format's tag is the state's JSON schema: made now, not under the lock
        # by the first request that takes a snapshot.
        await anyio.to_thread.run_sync(snapshots.state_format)
        yield
        watcher.close()
        if own_lanes:
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
    app.state.lines = LatestLines()
    app.state.displays = live.Displays(
        partial(snapshot, app), partial(display_of, campaigns, app.state.lines)
    )
    app.state.lanes = lanes
    app.state.pages = Pages()
    app.state.answers = StateAnswers()
    app.add_middleware(Guard)
    app.add_middleware(squeezed)
    app.mount("/static", StaticFiles(packages=[("turnkeeper.web", "static")]), name="static")
    app.exception_handler(Refused)(_refused)
    app.exception_handler(TurnkeeperError)(_domain)
    app.exception_handler(RequestValidationError)(_malformed)
    app.exception_handler(HTTPException)(_http)
    for area in (campaign, world, maps, pages, stream, seats):
        app.include_router(area.router)
    return app


# -- errors: one JSON message (an HTML page, or a fragment beside a form) --------------------


def _refuse(request: Request, status: int, message: str, kind: str) -> Response:
    htmx = request.headers.get("HX-Request") == "true"
    return answer(request.url.path, htmx, status, message, kind)


def _refused(request: Request, error: Refused) -> Response:
    kind = "Unauthorized" if error.status == 401 else "Forbidden"
    return _refuse(request, error.status, error.message, kind)


def _domain(request: Request, error: TurnkeeperError) -> Response:
    return _refuse(request, http_status(error), str(error), type(error).__name__)


def _malformed(request: Request, error: RequestValidationError) -> Response:
    return _refuse(request, 400, first_problem(error.errors()), "BadRequest")


def _http(request: Request, error: HTTPException) -> Response:
    return _refuse(request, error.status_code, str(error.detail), "HTTPError")
