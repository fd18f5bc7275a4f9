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
a command the rules do not allow now       422
=========================================  ======

The service keeps journals in memory and is not thread-safe, so one lock serialises the
calls of this process; several processes share a PostgreSQL store through its optimistic
appends.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any
from urllib.parse import parse_qsl, quote

from fastapi import Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.security import APIKeyQuery, HTTPAuthorizationCredentials, HTTPBearer
from pydantic import TypeAdapter, ValidationError
from starlette.exceptions import HTTPException

from turnkeeper.campaign import CampaignState, Recorded
from turnkeeper.errors import (
    ConflictError,
    IllegalCommandError,
    NotFoundError,
    TurnkeeperError,
)
from turnkeeper.service import Campaigns
from turnkeeper.store.base import stale
from turnkeeper.views import (
    PlayerState,
    map_svg,
    player_record,
    player_state,
    referee_record,
    referee_state,
)
from turnkeeper.web.commands import CommandBody
from turnkeeper.web.pages import dashboard, error_page
from turnkeeper.web.tokens import Role, role_of

_bearer = HTTPBearer(auto_error=False, description="The campaign's referee or player token.")
_query = APIKeyQuery(name="token", auto_error=False, description="The token, for links.")
_command_body: TypeAdapter[Any] = TypeAdapter(CommandBody)


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
    return 400


@contextmanager
def _service(request: Request) -> Iterator[Campaigns]:
    """The app's campaign service, one request at a time (it is not thread-safe)."""
    with request.app.state.lock:
        yield request.app.state.campaigns


def _token_of(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    token: Annotated[str | None, Depends(_query)],
) -> str | None:
    """The token a request carries: the Bearer header first, else ``?token=``."""
    if credentials is not None:
        return credentials.credentials
    return token


def _authorise(request: Request, name: str, token: str | None) -> Role:
    if not token:
        raise Refused(
            401,
            "no access token: send 'Authorization: Bearer TOKEN' or add ?token=TOKEN "
            "(turnkeeper serve prints the links)",
        )
    with _service(request) as c:
        role = role_of(c.store, name, token)
    if role is None:
        raise Refused(
            401,
            f"this token does not open campaign {name!r}: use the link the referee gave, "
            f"or make new ones with `turnkeeper tokens {name} --rotate`",
        )
    return role


def _any_role(
    request: Request, name: str, token: Annotated[str | None, Depends(_token_of)]
) -> Role:
    return _authorise(request, name, token)


def _referee_only(
    request: Request, name: str, token: Annotated[str | None, Depends(_token_of)]
) -> Role:
    role = _authorise(request, name, token)
    if role is not Role.REFEREE:
        raise Refused(403, "this is the referee's: a player token can only read the party view")
    return role


Reader = Annotated[Role, Depends(_any_role)]
Referee = Annotated[Role, Depends(_referee_only)]
Token = Annotated[str | None, Depends(_token_of)]


def create_app(campaigns: Campaigns) -> FastAPI:
    """The web application over ``campaigns`` (its store keeps the tokens too)."""
    app = FastAPI(
        title="turnkeeper",
        summary="The referee's engine for old-school turn-based play, over HTTP.",
        version="0.1.0",
    )
    app.state.campaigns = campaigns
    app.state.lock = threading.Lock()

    # -- errors: one JSON message (one HTML page for the pages) ------------------------------

    def answer(request: Request, status: int, message: str, kind: str) -> Response:
        if request.url.path.startswith("/campaigns/"):
            return HTMLResponse(error_page(status, message), status_code=status)
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        body = {"error": message, "type": kind}
        return JSONResponse(body, status_code=status, headers=headers)

    @app.exception_handler(Refused)
    def refused(request: Request, error: Refused) -> Response:
        kind = "Unauthorized" if error.status == 401 else "Forbidden"
        return answer(request, error.status, error.message, kind)

    @app.exception_handler(TurnkeeperError)
    def domain(request: Request, error: TurnkeeperError) -> Response:
        return answer(request, status_of(error), str(error), type(error).__name__)

    @app.exception_handler(RequestValidationError)
    def malformed(request: Request, error: RequestValidationError) -> Response:
        return answer(request, 400, _first_problem(error.errors()), "BadRequest")

    @app.exception_handler(HTTPException)
    def http(request: Request, error: HTTPException) -> Response:
        return answer(request, error.status_code, str(error.detail), "HTTPError")

    # -- the JSON API ----------------------------------------------------------------------

    @app.get(
        "/api/campaigns/{name}/state",
        response_model=None,
        summary="The campaign now: the whole state (referee) or the party's view (player)",
    )
    def get_state(request: Request, name: str, role: Reader) -> dict[str, Any] | PlayerState:
        with _service(request) as c:
            state = c.state(name)
        return referee_state(state) if role is Role.REFEREE else player_state(state)

    @app.get("/api/campaigns/{name}/log", summary="The journal after seq `since`")
    def get_log(
        request: Request, name: str, role: Reader, since: Annotated[int, Query(ge=0)] = 0
    ) -> dict[str, Any]:
        player = role is Role.PLAYER
        with _service(request) as c:
            records, state = c.log(name, since, player=player), c.state(name)
        shape = player_record if player else referee_record
        return {
            "campaign": name,
            "version": state.version,
            "records": [shape(r, state) for r in records],
        }

    @app.post(
        "/api/campaigns/{name}/commands", summary="Run one referee command (see docs/http-api.md)"
    )
    def post_command(
        request: Request, name: str, body: CommandBody, role: Referee
    ) -> dict[str, Any]:
        records, state = _execute(request, name, body)
        return {
            "campaign": name,
            "version": state.version,
            "date": state.date,
            "records": [referee_record(r, state) for r in records],
        }

    @app.get(
        "/api/campaigns/{name}/map.svg",
        response_class=Response,
        responses={200: {"content": {"image/svg+xml": {}}}},
        summary="The wilderness map as SVG: the referee's, or only what the party knows",
    )
    def get_map(request: Request, name: str, role: Reader) -> Response:
        with _service(request) as c:
            state = c.state(name)
        svg = map_svg(state, player=role is Role.PLAYER)
        return Response(svg, media_type="image/svg+xml")

    # -- the pages -------------------------------------------------------------------------

    @app.get("/campaigns/{name}", response_class=HTMLResponse, summary="The dashboard page")
    def page(request: Request, name: str, role: Reader, token: Token) -> str:
        with _service(request) as c:
            state = c.state(name)
            records = c.log(name, max(0, state.version - 40), player=role is Role.PLAYER)
        return dashboard(state, records, role, token or "")

    @app.post(
        "/campaigns/{name}/commands",
        response_class=RedirectResponse,
        status_code=303,
        summary="A dashboard form's command; back to the dashboard",
    )
    async def page_command(
        name: str,
        request: Request,
        role: Referee,
        token: Token,
    ) -> RedirectResponse:
        form = {k: v for k, v in parse_qsl((await request.body()).decode("utf-8")) if v != ""}
        try:
            body = _command_body.validate_python(form)
        except ValidationError as error:
            raise TurnkeeperError(_first_problem(error.errors())) from None
        _execute(request, name, body)
        back = f"/campaigns/{quote(name, safe='')}?token={quote(token or '', safe='')}"
        return RedirectResponse(back, status_code=303)

    return app


def _execute(request: Request, name: str, body: Any) -> tuple[list[Recorded], CampaignState]:
    """Run a command body through the service: the stale check, the command, the new state."""
    with _service(request) as c:
        state = c.state(name)
        if body.expected_version is not None and body.expected_version != state.version:
            raise stale(name, state.version, body.expected_version)
        records = c.execute(name, body.command(state), body.dice)
        return records, c.state(name)


def _first_problem(errors: Any) -> str:
    """One line from pydantic's list of problems: where, and what was expected."""
    problems = list(errors)
    if not problems:
        return "the request is malformed"
    first = problems[0]
    where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{where or 'request'}: {first.get('msg', 'invalid')}{more}"
