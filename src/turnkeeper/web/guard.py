"""What every request and response of the web server passes: size limits, and safe headers.

The limits (docs/http-api.md lists them) are checked on the raw request before a route
reads it, so a body too large to keep is never parsed and nothing reaches the service:

- a request body is at most :data:`BODY_LIMIT` bytes (413 beyond it, also when the declared
  ``Content-Length`` says so before a byte is read);
- a command's fields: a name (a countdown, a combatant, an item) is at most
  :data:`~turnkeeper.files.MAX_NAME_LENGTH` characters and any other text
  :data:`TEXT_LIMIT` (413 beyond them), except the site and map files a body may carry,
  bound by the body's own limit;
- JSON nests at most :data:`~turnkeeper.files.MAX_DEPTH` deep and a number is at most
  :data:`NUMBER_LIMIT` either way (400), so nothing a body says overflows the store;
- a form body is UTF-8 text (400 otherwise);
- a header holding a number (``Content-Length``, and ``Last-Event-ID`` read by the live
  route) holds ASCII digits within 64 bits (:func:`header_number`, 400 otherwise).

A fault of the server's own (an exception no handler took) is answered here as one generic
JSON 500, since Starlette's own 500 is sent outside this middleware and would lack the
headers below; the exception goes on to the server's log.

Every response carries ``Referrer-Policy: no-referrer`` (the pages' links hold their token),
``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff`` and a Content-Security-Policy
that lets a page run only the scripts and styles served from ``/static`` and never be framed;
the API's own documentation (``/docs``, ``/redoc``) also loads FastAPI's viewer from its CDN.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
from urllib.parse import parse_qsl

import anyio.to_thread
from starlette.datastructures import Headers
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from turnkeeper.errors import TurnkeeperError
from turnkeeper.files import MAX_INT, MAX_NAME_LENGTH, MAX_TEXT_LENGTH, decode, parse_json
from turnkeeper.web import phone, render
from turnkeeper.web.controls import as_controls

BODY_LIMIT = 1024 * 1024
"""The largest request body, in bytes: a site or map file as text, with room to spare."""

SMALL_BODY = 16 * 1024
"""A body up to this many bytes, naming no file field, is read on the event loop
(:func:`read_on_loop_if_small`): a form's few fields take a fraction of the hand-off to a
worker thread and back, which a command's every page waits for."""

TEXT_LIMIT = MAX_TEXT_LENGTH
"""The longest text field of a command (a note, a foe's stat lines), in characters."""

NUMBER_LIMIT = 1_000_000_000
"""The largest number a command may give, either way (hit points, ticks, a level)."""

NAME_FIELDS = frozenset(
    {
        "name",
        "item",
        "target",
        "actor",
        "attacker",
        "subject",
        "creature",
        "player",
        "giver",
        "receiver",
        "feature",
        "source",
        "region",
        "area",
        "weather",
        "kind",
    }
)
"""Fields that name something: what the journal keeps and the pages show as a name."""

FILE_FIELDS = frozenset({"site", "site_text", "map", "map_text"})
"""Fields carrying a whole site or map file: bound by :data:`BODY_LIMIT` alone."""

_FILE_NAMES = tuple(field.encode() for field in FILE_FIELDS)

PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; base-uri 'none'; object-src 'none'; "
    "frame-ancestors 'none'"
)
"""The pages' Content-Security-Policy: htmx, its SSE extension and turnkeeper.js, all from
``/static``, with no inline script or style anywhere (the templates have none)."""

DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "worker-src 'self' blob:; frame-ancestors 'none'"
)
"""FastAPI's ``/docs`` and ``/redoc`` are a page of inline script loading a viewer from a CDN."""

_DOCS = ("/docs", "/redoc")


T = TypeVar("T")


async def read_on_loop_if_small(work: Callable[[bytes], T], body: bytes) -> T:
    """``work(body)``: on the event loop for a body of at most :data:`SMALL_BODY` bytes that
    names none of :data:`FILE_FIELDS`, else in a worker thread (a pasted site or map is a
    file's parsing, and scanning a megabyte is milliseconds the other campaigns' requests
    need not wait for); a field's name in a note's text only sends it to the thread too."""
    if len(body) <= SMALL_BODY and not any(field in body for field in _FILE_NAMES):
        return work(body)
    return await anyio.to_thread.run_sync(work, body)


class TooLarge(TurnkeeperError):
    """A request body or field past its stated limit (413)."""


def answer(path: str, htmx: bool, status: int, message: str, kind: str) -> Response:
    """A refusal as the asker reads it: a fragment beside an htmx form, a small page for a
    browser on the pages, else one JSON message ``{"error", "type"}``."""
    if htmx:
        if path.endswith("/hand"):  # a player's phone says what is wrong in words alone
            problem = render.fragment("problem", status=None, message=phone.in_words(message))
            return HTMLResponse(problem, status_code=status)
        problem = render.fragment("problem", status=status, message=as_controls(message))
        return HTMLResponse(problem, status_code=status)
    if path.startswith(("/campaigns/", "/open")):
        return HTMLResponse(render.error_page(status, message), status_code=status)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse({"error": message, "type": kind}, status_code=status, headers=headers)


def check_body(body: bytes, content_type: str) -> None:
    """Refuse a command body whose fields pass their limits (TooLarge) or that cannot be read
    safely (TurnkeeperError): too deep, a number too large, a form not in UTF-8."""
    if not body:
        return
    if "json" in content_type:
        data = parse_json(decode(body, "the request body"), "the request body")
        if isinstance(data, dict):
            for key, value in data.items():
                _check_field(str(key), str(key), value)
        return
    # anything else is read as the dashboard's form is, whatever it says it is
    text = decode(body, "the form")
    for key, value in parse_qsl(text, keep_blank_values=True):
        _check_field(key, key, value)


def _check_field(field: str, where: str, value: Any) -> None:
    if field in FILE_FIELDS:
        for inner, part in _parts(where, value):  # the file's own numbers still fit the store
            if isinstance(part, int) and not isinstance(part, bool):
                _check_number(inner, part)
        return
    for inner, part in _parts(where, value):
        if isinstance(part, str):
            limit = MAX_NAME_LENGTH if field in NAME_FIELDS and inner == where else TEXT_LIMIT
            if len(part) > limit:
                raise TooLarge(
                    f"{inner}: {len(part):,} characters; a {_kind(limit)} is at most "
                    f"{limit:,} characters"
                )
        elif isinstance(part, int) and not isinstance(part, bool):
            _check_number(inner, part)


def _kind(limit: int) -> str:
    return "name" if limit == MAX_NAME_LENGTH else "field"


def _check_number(where: str, number: int) -> None:
    if abs(number) > NUMBER_LIMIT:
        raise TurnkeeperError(
            f"{where}: {number} is too large; a number in a command is at most "
            f"{NUMBER_LIMIT:,} either way"
        )


def _parts(where: str, value: Any) -> Iterator[tuple[str, Any]]:
    """Every value inside ``value`` with its place (``foes.2``, ``votes.Ann``), keys too."""
    stack = [(where, value)]
    while stack:
        place, item = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                yield f"{place}.{key}", str(key)
                stack.append((f"{place}.{key}", inner))
        elif isinstance(item, list):
            stack.extend((f"{place}.{n}", inner) for n, inner in enumerate(item))
        else:
            yield place, item


class Guard:
    """ASGI middleware: the request limits above, and the safe headers on every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        policy = DOCS_POLICY if path.startswith(_DOCS) else PAGE_POLICY

        started = False

        async def send_safely(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in _SAFE_HEADER_NAMES
                ]
                headers.extend((k.encode(), v.encode()) for k, v in _safe_headers(policy))
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self._guarded(scope, receive, send_safely)
        except Exception:
            # A fault of ours: Starlette's own 500 is sent outside this middleware, without the
            # safe headers. Answer it here, generic (a traceback may hold the journal's
            # secrets), and raise on so the server logs it.
            if not started:
                await JSONResponse(_FAULT, status_code=500)(scope, receive, send_safely)
            raise

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        htmx = headers.get("hx-request") == "true"
        try:
            body = await _read_body(headers, receive)
            if body is None:
                return  # the client went away
            kind = headers.get("content-type", "")
            await read_on_loop_if_small(lambda scanned: check_body(scanned, kind), body)
        except TooLarge as error:
            await answer(path, htmx, 413, str(error), "TooLarge")(scope, receive, send)
            return
        except TurnkeeperError as error:
            await answer(path, htmx, 400, str(error), "BadRequest")(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)


_DIGITS = re.compile(r"[0-9]+")
"""A whole number as a header writes it: ASCII digits only (``str.isdigit`` also takes ``²``,
which ``int`` refuses)."""


def header_number(header: str, value: str) -> int:
    """The whole number a header holds (a length, a version); a header holding anything else,
    or a number past :data:`~turnkeeper.files.MAX_INT`, is refused (400).

    >>> header_number("Last-Event-ID", "12")
    12
    >>> header_number("Last-Event-ID", "\u00b2")
    Traceback (most recent call last):
    ...
    turnkeeper.errors.TurnkeeperError: Last-Event-ID: '²' is not a whole number (digits 0 to 9)
    """
    if not _DIGITS.fullmatch(value):
        raise TurnkeeperError(f"{header}: {value[:20]!r} is not a whole number (digits 0 to 9)")
    # past 19 digits it is past MAX_INT, and int() refuses 4,300 digits and more
    if len(value.lstrip("0")) > 19 or int(value) > MAX_INT:
        raise TurnkeeperError(f"{header}: {value[:20]}... is past the largest number, {MAX_INT:,}")
    return int(value)


_FAULT = {
    "error": "the server failed on this request (its log says why); try again, or report it",
    "type": "InternalError",
}
"""The one answer to a fault of the server's own: nothing of the request or the campaign."""

_SAFE = (
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
    ("X-Content-Type-Options", "nosniff"),
)
_SAFE_HEADER_NAMES = frozenset(
    name.lower().encode() for name in (*(n for n, _ in _SAFE), "Content-Security-Policy")
)


def _safe_headers(policy: str) -> tuple[tuple[str, str], ...]:
    return (*_SAFE, ("Content-Security-Policy", policy))


async def _read_body(headers: Headers, receive: Receive) -> bytes | None:
    """The whole body, refused (TooLarge) as soon as it passes :data:`BODY_LIMIT`."""
    declared = headers.get("content-length")
    if declared is not None:
        size = header_number("Content-Length", declared)
        if size > BODY_LIMIT:
            raise TooLarge(_too_large(size))
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > BODY_LIMIT:
            raise TooLarge(_too_large(size, more=True))
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _too_large(size: int, more: bool = False) -> str:
    got = f"more than {BODY_LIMIT:,}" if more else f"{size:,}"
    return (
        f"the request body is {got} bytes; a request is at most {BODY_LIMIT:,} bytes "
        "(1 MiB): send a smaller site or map, or split the work"
    )


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the route the body read already, then the client's own."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again
