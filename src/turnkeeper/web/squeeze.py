"""Responses and live streams compressed where the browser accepts it (``Accept-Encoding: gzip``).

A display is HTML that repeats itself (a map's hexes, a journal's lines), so gzip takes a
page's 33 KB to a few. An answer is compressed whole by Starlette's GZip middleware, which
leaves server-sent events alone because it would hold them back until a buffer fills. A
live stream is compressed here instead, one deflate stream for the connection's life, each
event flushed out whole as it is sent (``Z_SYNC_FLUSH``): the browser decodes every event the
moment it arrives, nothing waits for the next one, and the stream's window remembers the
events before it, so a ``parts`` event like the last one costs a few bytes.
"""

from __future__ import annotations

import gzip
import zlib

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SMALLEST = 500
"""Answers shorter than this many bytes go as they are: gzip's header would eat the gain."""

LEVEL = 4
"""zlib's level: on the referee's 45 KB display a fifth of level 9's time (Starlette's
default; 2 ms against 10 on the loaded 2-core machine) for 6 per cent more bytes."""


def squeezed(app: ASGIApp) -> ASGIApp:
    """``app`` with its answers and its live streams compressed for browsers that take gzip."""
    return GZipMiddleware(Streams(app), minimum_size=SMALLEST, compresslevel=LEVEL)


GZIPPED = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
"""The headers of an answer compressed ahead (:func:`gzipped`); the middleware passes it on."""


def takes_gzip(headers: Headers) -> bool:
    """Whether the request's browser takes gzip (as the middleware reads it)."""
    return "gzip" in headers.get("accept-encoding", "")


def gzipped(body: bytes) -> tuple[bytes, bool]:
    """``body`` compressed as the middleware would compress it, and whether it was (not below
    :data:`SMALLEST`): for an answer kept and sent many times, compressed once. A compressor
    is made anew for every answer the middleware sends, which for a state read of 1 KB cost a
    fifth of the read."""
    if len(body) < SMALLEST:
        return body, False
    return gzip.compress(body, compresslevel=LEVEL, mtime=0), True


class Streams:
    """Compresses ``text/event-stream`` responses event by event (see the module's text)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "gzip" not in Headers(scope=scope).get("accept-encoding", ""):
            await self.app(scope, receive, send)
            return
        packer: zlib._Compress | None = None

        async def send_packed(message: Message) -> None:
            nonlocal packer
            if message["type"] == "http.response.start":
                headers = MutableHeaders(raw=list(message.get("headers", [])))
                streamed = headers.get("content-type", "").startswith("text/event-stream")
                if streamed and "content-encoding" not in headers:
                    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
                    headers["Content-Encoding"] = "gzip"
                    headers.add_vary_header("Accept-Encoding")
                    if "content-length" in headers:
                        del headers["content-length"]
                    message = {**message, "headers": headers.raw}
            elif message["type"] == "http.response.body" and packer is not None:
                body = packer.compress(message.get("body", b""))
                more = message.get("more_body", False)
                body += packer.flush(zlib.Z_SYNC_FLUSH if more else zlib.Z_FINISH)
                message = {**message, "body": body}
            await send(message)

        await self.app(scope, receive, send_packed)
