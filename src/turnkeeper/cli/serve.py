"""CLI verbs: ``turnkeeper serve`` (the HTTP API and web pages) and ``turnkeeper tokens``.

``serve`` makes the access tokens of every campaign that lacks them and prints, per campaign,
the referee's link and the players' link with their tokens, as notebook servers do. Only
hashes are kept, so a token is printed once, when it is made: ``turnkeeper tokens NAME
--rotate`` makes new ones (and the old links stop working); ``--role player`` renews only the
players' (a leaked player link), and the referee's link keeps working.
"""

from __future__ import annotations

import errno
import logging
import os
import socket
import sys
from typing import Annotated, Any
from urllib.parse import quote

import typer
from rich.markup import escape

from turnkeeper.cli.options import DbOption
from turnkeeper.cli.output import JsonOption, console, emit
from turnkeeper.cli.runner import open_campaigns
from turnkeeper.errors import TurnkeeperError
from turnkeeper.service import Campaigns, settled
from turnkeeper.web.tokens import Role, issue_tokens

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

GRACE_SECONDS = 3
"""How long a stopping server waits for open requests and live streams before it ends them."""

WORKERS_STORE = "TURNKEEPER_SERVE_STORE"
"""The environment variable that hands the store's URL to the workers ``serve --workers``
starts (each a process of its own, importing :func:`worker_app`)."""

MOST_WORKERS = 32

HEALTHCHECK_SECONDS = 60
"""How long a worker may take to answer its supervisor's check before it is restarted."""


def _links(
    base: str, campaigns: Campaigns, names: list[str], rotate: bool, role: Role | None = None
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for name in names:
        made = issue_tokens(campaigns.store, name, rotate, role)
        page = f"{base}/campaigns/{quote(name, safe='')}"
        entry: dict[str, Any] = {"campaign": name, "page": page}
        # its own name: `role` is the one asked for, for every campaign (issue 25: reusing it
        # left the second campaign with a player token only)
        for shown in Role:
            token = made.get(shown)
            entry[shown.value] = None if token is None else f"{page}?token={quote(token, safe='')}"
        out.append(entry)
    return out


def check_address(host: str, port: int) -> None:
    """Refuse a host this machine cannot listen on, or a port something already listens on,
    before the server makes any token: uvicorn finds out only as it starts, after them.

    The host is resolved and each of its addresses bound for a moment, as asyncio's server
    does when it starts (address reuse on, so a port left in TIME_WAIT is not called busy).
    """
    where = f"{host}:{port}"
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as failure:
        raise TurnkeeperError(
            f"cannot serve on {where}: no such host ({failure}); give --host an address of "
            "this machine, such as 127.0.0.1"
        ) from None
    for family, kind, proto, _name, address in dict.fromkeys(found):
        try:
            probe = socket.socket(family, kind, proto)
        except OSError:  # a family this machine lacks (IPv6): the server skips it too
            continue
        with probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                probe.bind(address)
            except OSError as failure:
                if failure.errno == errno.EADDRINUSE:
                    fix = f"port {port} is in use: stop what listens there, or give another --port"
                elif failure.errno == errno.EACCES:
                    fix = f"port {port} needs privileges: give --port 1024 or above"
                else:
                    fix = f"{failure.strerror}: give --host an address of this machine"
                raise TurnkeeperError(f"cannot serve on {where}: {fix}") from None


class WorkersPort(socket.socket):
    """The port ``serve --workers`` listens on, which each worker listens on by a socket of
    its own, so the kernel deals new connections among the workers (issue 41).

    uvicorn's supervisor hands its workers one listening socket, and the worker whose accept
    loop wakes first takes every connection waiting: a burst of clients opening their
    keep-alive connections at once landed on one worker, which did 98% of the work. Here
    the supervisor keeps the port bound, never listening (so it takes no connection), and
    hands this socket to each worker it starts, restarts or adds as uvicorn hands any: by
    pickling (its workers are spawned). Unpickled, it becomes :func:`worker_socket`, a new
    socket bound to the same address with ``SO_REUSEPORT``, which the worker listens on.
    """

    def __reduce__(self) -> tuple[Any, tuple[int, Any]]:
        return worker_socket, (self.family, self.getsockname())

    @classmethod
    def bind_to(cls, host: str, port: int) -> WorkersPort:
        """The supervisor's socket for ``host``:``port``, bound (uvicorn's choice of address
        family for its workers' socket)."""
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        held = cls(family, socket.SOCK_STREAM)
        try:
            _share_port(held)
            held.bind((host, port))
        except OSError as failure:
            held.close()
            raise TurnkeeperError(f"cannot serve on {host}:{port}: {failure.strerror}") from None
        return held


def _share_port(sock: socket.socket) -> None:
    # address reuse too, as asyncio's and uvicorn's servers bind: a port left in TIME_WAIT
    # by the last server is free
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)


def worker_socket(family: int, address: Any) -> socket.socket:
    """A worker's own socket on the port its supervisor holds (:class:`WorkersPort`): run in
    the worker as its supervisor's socket is unpickled, before the server starts."""
    from uvicorn.config import STARTUP_FAILURE

    own = socket.socket(family, socket.SOCK_STREAM)
    try:
        _share_port(own)
        own.bind(address)
    except OSError as failure:
        # a worker that cannot bind would fail the same way on every restart: its
        # supervisor stops on this exit status rather than restarting it
        logging.getLogger("uvicorn.error").error("cannot serve on %s: %s", address, failure)
        sys.exit(STARTUP_FAILURE)
    return own


def _render(links: list[dict[str, Any]]) -> None:
    for entry in links:
        console().print(f"[bold]{escape(entry['campaign'])}[/]")
        for role in Role:
            link = entry[role.value]
            if link is None:
                shown = (
                    "token made earlier (kept as a hash, not shown): "
                    f"`turnkeeper tokens {escape(entry['campaign'])} --role {role.value} "
                    "--rotate` for a new one"
                )
            else:
                shown = escape(link)
            console().print(f"  {role.value:8} {shown}", highlight=False, soft_wrap=True)


def server_address(host: str, port: int) -> str:
    """The server's address as its links show it: a loopback or any-address host reads as
    ``localhost``, the name a browser on this machine opens."""
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    return f"http://{shown}:{port}"


@verbs.command("tokens")
def tokens_command(
    name: str = typer.Argument(..., help="The campaign whose web access tokens to make."),
    rotate: bool = typer.Option(
        False, "--rotate", help="Make new tokens; the old links stop working."
    ),
    role: Annotated[
        Role | None,
        typer.Option("--role", help="Only this role's token: referee or player (default: both)."),
    ] = None,
    base: str = typer.Option(
        server_address("127.0.0.1", 8765),
        "--base",
        help="The server's address, for the printed links (`serve`'s by default).",
    ),
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Make a campaign's referee and player tokens for the web server, and print their links."""
    with open_campaigns(db) as campaigns:
        links = _links(base.rstrip("/"), campaigns, [name], rotate, role)
    emit(links[0], as_json, lambda: _render(links))


@verbs.command("serve")
def serve_command(
    host: str = typer.Option("127.0.0.1", "--host", help="The address to listen on."),
    port: int = typer.Option(8765, "--port", min=1, max=65535, help="The port to listen on."),
    workers: int = typer.Option(
        1,
        "--workers",
        min=1,
        max=MOST_WORKERS,
        help="Server processes sharing the load, on one port (a PostgreSQL store: more "
        "than one needs it).",
    ),
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Serve the HTTP API (OpenAPI at /openapi.json) and the dashboard pages."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from turnkeeper.web.app import create_app

    url = server_address(host, port)
    check_address(host, port)
    with open_campaigns(db) as campaigns:
        store_url = getattr(campaigns.store, "url", "")
        if workers > 1 and not store_url.startswith("postgresql"):
            raise TurnkeeperError(
                f"--workers {workers}: several server processes share a PostgreSQL store "
                "(--db postgresql+psycopg://user@host/db); serve a SQLite file with one worker"
            )
        links = _links(url, campaigns, campaigns.names(), rotate=False)
        emit({"url": url, "campaigns": links}, as_json, lambda: _render(links))
        if not links and not as_json:
            console().print("No campaigns yet: start one with `turnkeeper new NAME --ruleset ex`.")
        # SIGTERM or Ctrl-C stops it: open pages' live streams are given a few seconds to
        # close, then the server ends whatever is still open
        if workers > 1:
            # each worker opens the store itself: the processes share it, and nothing else
            os.environ[WORKERS_STORE] = store_url
            config = uvicorn.Config(
                f"{__name__}:worker_app",
                factory=True,
                workers=workers,
                # a worker busy a few seconds on a loaded machine is slow, not dead: restarting
                # it would drop its open requests and pages
                timeout_worker_healthcheck=HEALTHCHECK_SECONDS,
                host=host,
                port=port,
                log_level="warning",
                timeout_graceful_shutdown=GRACE_SECONDS,
            )
            # Linux deals a port's connections among the sockets sharing it by SO_REUSEPORT;
            # elsewhere (macOS) the option shares the port but hands its connections to one
            # socket, so the workers share uvicorn's one socket as before
            port_socket = (
                WorkersPort.bind_to(host, port)
                if sys.platform.startswith("linux")
                else config.bind_socket()
            )
            with port_socket:
                Multiprocess(config, sockets=[port_socket]).run()
            return
        app = create_app(campaigns)
        settled()  # what the server made to start lives as long as it: out of the collector's way
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="warning",
            timeout_graceful_shutdown=GRACE_SECONDS,
        )


def worker_app() -> Any:
    """The web application of one worker of ``serve --workers``, over the store its parent
    named (:data:`WORKERS_STORE`); each worker follows the others' commands through the
    store's notifications, as two servers on one PostgreSQL do."""
    from turnkeeper.store import open_store
    from turnkeeper.web.app import create_app

    app = create_app(Campaigns(open_store(os.environ[WORKERS_STORE], create=False)))
    settled()  # as a single server does
    return app
