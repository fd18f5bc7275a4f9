"""What the web routers share: a campaign's lock, the token's role, the state now, a command
run, and the shaping of a seat's display and journal.

The service keeps journals in memory and one campaign's journal is not thread-safe, so each
campaign has a lock that serialises the calls on it; two campaigns share nothing, so one
table's long command (a year's wait) never holds another's reads. The lock is the event
loop's (:class:`CampaignLocks`): a request waits for it as a coroutine, holding no worker
thread, so a hundred requests queued behind one campaign's long command leave the threads to
the other campaigns. Once it holds the lock, a command, a page, the journal's reading and a
pasted file's parsing run in a worker thread, off the loop (:func:`on`); only a read of the
state runs on the loop, when its campaign is already read (a few milliseconds). Several
processes share a PostgreSQL store through its optimistic appends. Nothing holds a lock while
it waits: the live streams wait on the store's versions, outside it, and a display is drawn
once per version and role for all the open pages, outside the lock, which is held only to
take the state (:class:`turnkeeper.web.live.Displays`).

The server's parts live on ``app.state`` (made by :func:`turnkeeper.web.app.create_app`):
``campaigns``, ``locks``, ``tokens``, ``watcher``, ``lines``, ``displays``, ``lanes``,
``pages`` and ``answers``; a route reaches them through its request.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Annotated, Any, TypeVar
from urllib.parse import parse_qsl, quote

import anyio.to_thread
from fastapi import Depends, Request
from fastapi.security import APIKeyQuery, HTTPAuthorizationCredentials, HTTPBearer
from pydantic import TypeAdapter, ValidationError

from turnkeeper.campaign import CampaignState, Recorded
from turnkeeper.errors import TurnkeeperError
from turnkeeper.files import decode, digits
from turnkeeper.service import Campaigns
from turnkeeper.verbs import CommandBody, problem
from turnkeeper.verbs.line import body_of_line
from turnkeeper.web import render
from turnkeeper.web.controls import Control, by_verb, form_body
from turnkeeper.web.lines import LatestLines
from turnkeeper.web.squeeze import gzipped
from turnkeeper.web.tokens import Hand, Role, Seat, TokenCheck

_bearer = HTTPBearer(auto_error=False, description="The campaign's referee or player token.")
_query = APIKeyQuery(name="token", auto_error=False, description="The token, for links.")
_command_body: TypeAdapter[Any] = TypeAdapter(CommandBody)


class Refused(Exception):
    """A request refused before it reaches the service (no token, wrong token, wrong role)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class CampaignLocks:
    """One lock per campaign: its journal in memory is changed by one call at a time, and
    two campaigns never wait on each other.

    The locks are the event loop's: a request waits for its campaign as a coroutine, not in
    a worker thread, so requests queued behind one campaign's long command never take every
    thread from the others (60 waiting for campaign A's display once held a command on B for
    12 s). Taken on the loop only (:func:`on`); a lock belongs to the loop that made it, so
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


Answer = tuple[bytes, bool]
"""A kept answer: its bytes, and whether they are gzipped."""


class StateAnswers:
    """A state read's answer kept for each campaign's state now, one per seat.

    At a busy table the state is read far more often than it changes (a client reads it
    again and again between commands): shaping it and writing its JSON again for every
    read cost a read more than the rest of the route. An answer is kept with the very state
    it was made of and served while the campaign's state is that object: the state is read
    as before (its version from the store first, so another process's command is never
    missed), and a new state, from any writer, makes new answers. Only the state now is
    kept, once per campaign. An answer for a browser that takes gzip is kept compressed, so
    it is compressed once too. Used on the event loop alone (no thread shares it).
    """

    def __init__(self) -> None:
        self._kept: dict[str, tuple[CampaignState, dict[tuple[Seat, bool], Answer]]] = {}

    def answer(
        self, name: str, state: CampaignState, seat: Seat, make: Callable[[], str], packed: bool
    ) -> Answer:
        """``seat``'s answer for ``state`` (``packed``: compressed, for a browser that takes
        gzip, where it is long enough to gain): the one kept for it, else ``make``'s, kept."""
        kept = self._kept.get(name)
        if kept is None or kept[0] is not state:
            kept = self._kept[name] = (state, {})
        found = kept[1].get((seat, packed))
        if found is None:
            text = make().encode()
            found = kept[1][seat, packed] = gzipped(text) if packed else (text, False)
        return found


T = TypeVar("T")


async def on(request: Request, name: str, work: Callable[[Campaigns], T], quick: bool = False) -> T:
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


async def snapshot(app: Any, name: str) -> CampaignState:
    """The campaign's state now, under its lock for a moment (a fold, the first time, in a
    worker thread); the state of a version never changes, so it is drawn after."""
    campaigns: Campaigns = app.state.campaigns
    async with app.state.locks(name):
        if campaigns.loaded(name):
            return campaigns.state(name)
        return await anyio.to_thread.run_sync(campaigns.state, name)


def execute(
    request: Request,
    c: Campaigns,
    name: str,
    body: Any,
    page: str | None = None,
    answered: Seat | None = None,
) -> tuple[list[Recorded], CampaignState]:
    """Run a command body (its campaign's lock held: the stale check, the command, the new
    state) and tell this server's pages at once, with the records it appended for their
    journal lines and the state they leave; the page that sent it (``page``, its id) is shown
    the new display by the answer, drawn for the seat ``answered``.

    The displays of the other seats whose pages follow the campaign are drawn here, in the
    command's worker thread, before the pages are woken
    (:meth:`turnkeeper.web.live.Displays.draw_ahead`): each page is sent its display as it
    wakes, with no hand-off to another thread and back between the command and its pages.
    The lock is held the while: a drawing is a few milliseconds, and the next command's
    pages would wait for it all the same."""
    records, state = c.run(name, body.build, body.dice, body.expected_version)
    shared = request.app.state
    shared.lines.told(name, records)
    shared.displays.told(name, state)
    shared.pages.showed(name, page, state.version)  # before the pages wake: its stream skips it
    shared.displays.draw_ahead(name, state, but=answered)
    shared.watcher.moved(name, state.version)
    return records, state


# -- who asks: the token and its role -----------------------------------------------------


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


def seat_of(
    request: Request, state: CampaignState, name: str, token: str | None, role: Role
) -> Seat:
    """Who a page or a response is for: the role, or a character's own link (its phone's
    display; in a world of several parties, its party's view, never the party the referee
    runs)."""
    if role is Role.REFEREE:
        return role
    hand = request.app.state.tokens.hand(name, token or "", state.everyone)
    return Role.PLAYER if hand is None else Hand(hand)


def links(name: str, token: str) -> render.Links:
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
        dice=f"{path}/dice{query}",
        calendar=f"{path}/calendar{query}",
    )


# -- what a seat is shown ------------------------------------------------------------------


def lived(state: CampaignState, seat: Seat) -> CampaignState:
    """The state as the seat's party lives it: a character's link shows the party the
    character is with (the party run now for every other seat)."""
    if isinstance(seat, Hand):
        party = state.party_of(seat.character)
        if party is not None and party != state.company:
            return state.as_party(party)
    return state


def display_of(
    c: Campaigns, lines: LatestLines, name: str, state: CampaignState, role: Seat
) -> str:
    """The role's display of ``state``: drawn from the state and the last journal lines it
    shows, read from the store (those drawn last and the records after them,
    :class:`~turnkeeper.web.lines.LatestLines`; never the whole journal). It reads the store
    alone, not the journal in memory, so it runs without the campaign's lock
    (:class:`live.Displays`)."""
    records, undone = lines.read(c, name, state, role)
    if role is not Role.REFEREE:
        hand = role.character if isinstance(role, Hand) else None
        return render.player_display(lived(state, role), records, undone, hand)
    return render.referee_display(state, records, undone)


# -- a page's forms ------------------------------------------------------------------------


def _control_of(pairs: list[tuple[str, str]]) -> Control:
    """The control a form belongs to, by its ``verb``; a clear 400 for an unknown one."""
    verbs = by_verb()
    verb = next((value for key, value in pairs if key == "verb"), "")
    control = verbs.get(verb)
    if control is None:
        known = ", ".join(verbs)
        raise TurnkeeperError(f"verb: unknown verb {verb!r}; the verbs are {known}")
    return control


def form_command(form: bytes) -> Any:
    """A dashboard form's command body: its verb's control reads the fields; a clear 400."""
    pairs = parse_qsl(decode(form, "the form"), keep_blank_values=True)
    control = _control_of(pairs)
    try:
        return _command_body.validate_python(form_body(control, pairs))
    except ValidationError as error:
        raise TurnkeeperError(first_problem(error.errors())) from None


def line_command(form: bytes) -> Any:
    """The command line's body: its line read as play reads it, with the version seen."""
    fields = dict(parse_qsl(decode(form, "the form"), keep_blank_values=True))
    seen = fields.get("expected_version", "")
    # ASCII digits: isdigit takes "²", which int refuses (a 500)
    shared = {"expected_version": int(seen)} if digits(seen) and len(seen) <= 19 else {}
    return body_of_line(fields.get("line", ""), **shared)


def to_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def first_problem(errors: Any) -> str:
    """One line from pydantic's list of problems (the verb table's words for them)."""
    return problem(errors)
