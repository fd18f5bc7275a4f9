"""``turnkeeper tokens`` and ``turnkeeper serve``: links printed once, tokens that open the API."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlparse

import pytest
from tests.conftest import Backend, free_port
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.campaign import parse_party
from turnkeeper.cli.app import app
from turnkeeper.errors import NotFoundError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.tokens import Role, issue_tokens, role_of


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "serve.db")
    store = open_store(path)
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6')
    Campaigns(store).new("Keep", preset("ex"), party, seed=1)
    store.close()
    return path


def _token(link: str) -> str:
    return parse_qs(urlparse(link).query)["token"][0]


def _json(*args: str) -> Any:
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_tokens_are_made_once_and_rotated_on_demand(db: str) -> None:
    first = _json("tokens", "Keep", "--db", db)
    store = open_store(db)
    try:
        assert role_of(store, "Keep", _token(first["referee"])) is Role.REFEREE
        assert role_of(store, "Keep", _token(first["player"])) is Role.PLAYER
        again = _json("tokens", "Keep", "--db", db)
        assert again["referee"] is None and again["player"] is None  # hashes only: not shown
        rotated = _json("tokens", "Keep", "--db", db, "--rotate")
        assert role_of(store, "Keep", _token(first["referee"])) is None
        assert role_of(store, "Keep", _token(rotated["referee"])) is Role.REFEREE
    finally:
        store.close()


def test_tokens_print_the_links_serve_prints(db: str) -> None:
    """`tokens` and `serve` print one address for the same server: localhost, as
    docs/http-api.md shows it (issue 42: `tokens` printed 127.0.0.1)."""
    made = _json("tokens", "Keep", "--db", db)
    assert made["referee"].startswith("http://localhost:8765/campaigns/Keep?token=")
    assert made["player"].startswith("http://localhost:8765/campaigns/Keep?token=")


def test_rotating_one_role_keeps_the_other_roles_link(db: str) -> None:
    """A leaked player link is replaced; the referee's link keeps working, and back again."""
    first = _json("tokens", "Keep", "--db", db)
    renewed = _json("tokens", "Keep", "--db", db, "--role", "player", "--rotate")
    assert renewed["referee"] is None and renewed["player"] is not None
    store = open_store(db)
    try:
        assert role_of(store, "Keep", _token(first["player"])) is None
        assert role_of(store, "Keep", _token(renewed["player"])) is Role.PLAYER
        assert role_of(store, "Keep", _token(first["referee"])) is Role.REFEREE
    finally:
        store.close()
    referee = _json("tokens", "Keep", "--db", db, "--role", "referee", "--rotate")
    store = open_store(db)
    try:
        assert referee["player"] is None
        assert role_of(store, "Keep", _token(first["referee"])) is None
        assert role_of(store, "Keep", _token(referee["referee"])) is Role.REFEREE
        assert role_of(store, "Keep", _token(renewed["player"])) is Role.PLAYER
    finally:
        store.close()


def test_the_hint_for_a_hidden_token_names_its_role(db: str) -> None:
    _json("tokens", "Keep", "--db", db)
    result = CliRunner().invoke(app, ["tokens", "Keep", "--db", db])
    assert result.exit_code == 0, result.output
    assert "--role player --rotate" in " ".join(result.output.split())


def test_renew_token_renews_one_role_only(db: str) -> None:
    from turnkeeper.web.tokens import issue_tokens, renew_token

    store = open_store(db)
    try:
        made = issue_tokens(store, "Keep")
        fresh = renew_token(store, "Keep", Role.PLAYER)
        assert fresh != made[Role.PLAYER]
        assert role_of(store, "Keep", fresh) is Role.PLAYER
        assert role_of(store, "Keep", made[Role.PLAYER]) is None
        assert role_of(store, "Keep", made[Role.REFEREE]) is Role.REFEREE
        with pytest.raises(NotFoundError):
            renew_token(store, "Nowhere", Role.PLAYER)
    finally:
        store.close()


def test_tokens_for_an_unknown_campaign_is_one_error(db: str) -> None:
    result = CliRunner().invoke(app, ["tokens", "Nowhere", "--db", db])
    assert result.exit_code != 0
    assert "no campaign named 'Nowhere'" in str(result.exception)


def test_serve_prints_the_links_and_runs_uvicorn(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.update(app=app, **kw))
    out = _json("serve", "--db", db, "--port", "9911")
    assert ran["port"] == 9911 and ran["host"] == "127.0.0.1"
    (keep,) = out["campaigns"]
    assert keep["referee"].startswith("http://localhost:9911/campaigns/Keep?token=")
    from fastapi.testclient import TestClient

    client = TestClient(ran["app"])
    state = client.get("/api/campaigns/Keep/state", params={"token": _token(keep["referee"])})
    assert state.status_code == 200 and state.json()["seed"] == 1
    page = client.get("/campaigns/Keep", params={"token": _token(keep["player"])})
    assert page.status_code == 200 and "the party's view" in page.text


#: /proc/net/tcp's names of the two states a socket of the server's port is looked for in
LISTEN, ESTABLISHED = "0A", "01"


def _port_sockets(port: int) -> dict[int, tuple[str, int]]:
    """Every IPv4 TCP socket on this machine whose own port is ``port``, by inode: its state
    and the port at its other end (a client's, for a connection the server accepted)."""
    found: dict[int, tuple[str, int]] = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        _slot, local, remote, state, *_queues, inode = line.split()[:10]
        if int(local.rsplit(":", 1)[1], 16) == port:
            found[int(inode)] = (state, int(remote.rsplit(":", 1)[1], 16))
    return found


def _held_sockets(pid: int) -> set[int]:
    """The inodes of the sockets process ``pid`` holds open."""
    held: set[int] = set()
    try:
        files = os.listdir(f"/proc/{pid}/fd")
    except FileNotFoundError:  # a process ended since its parent was asked
        return held
    for fd in files:
        with contextlib.suppress(OSError):  # closed since the listing
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
            if link.startswith("socket:["):
                held.add(int(link.removeprefix("socket:[").removesuffix("]")))
    return held


def _children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def test_serve_starts_workers_over_a_postgresql_store_and_refuses_them_a_sqlite_file(
    db: str, monkeypatch: pytest.MonkeyPatch, backend: Backend, tmp_path: Path
) -> None:
    """Issue 41: ``serve --workers 2`` starts two processes sharing the store, each opening
    it itself from the address its parent names, and sharing the connections: a burst of
    clients opening their keep-alive connections at once is dealt among the workers (one
    listening socket shared by all of them gave one worker nearly every connection). A
    SQLite file is served by one.

    Which worker holds each connection is read from /proc: the server's end of the
    connection is a socket in that worker's open files."""
    from uvicorn.supervisors import Multiprocess

    ran: list[Any] = []
    monkeypatch.setattr(Multiprocess, "run", lambda self: ran.append(self))
    result = CliRunner().invoke(app, ["serve", "--db", db, "--workers", "2"])
    assert result.exit_code != 0 and not ran
    assert "several server processes share a PostgreSQL store" in str(result.exception)
    if backend.schema is None:
        return  # the SQLite backend: the refusal alone
    if not Path("/proc/net/tcp").exists():
        pytest.skip("which worker holds a connection is read from Linux's /proc")
    joiner = "&" if "?" in backend.url else "?"
    url = f"{backend.url}{joiner}options={quote(f'-csearch_path={backend.schema}', safe='')}"
    store = SqlStore(url)  # the test's own schema, as the workers open it: by the address
    try:
        party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6')
        Campaigns(store).new("Keep", preset("ex"), party, seed=1)
        token = issue_tokens(store, "Keep")[Role.REFEREE]
    finally:
        store.close()
    port = free_port()
    log = tmp_path / "serve.log"
    serve = ["serve", "--db", url, "--workers", "2", "--port", str(port), "--json"]
    with log.open("wb") as out:
        served = subprocess.Popen(
            [sys.executable, "-m", "turnkeeper", *serve], stdout=subprocess.DEVNULL, stderr=out
        )
    connections: list[http.client.HTTPConnection] = []
    try:
        deadline = time.monotonic() + 120  # a hang guard: a loaded machine starts it slowly
        while True:  # until both workers listen: one still starting would get no connection
            listeners = {
                inode for inode, (state, _) in _port_sockets(port).items() if state == LISTEN
            }
            listening = {
                child: held
                for child in _children(served.pid)
                if (held := _held_sockets(child) & listeners)
            }
            if len(listening) == 2:
                break
            assert served.poll() is None, f"the server exited:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"the workers did not listen:\n{log.read_text()}"
            time.sleep(0.1)
        first, second = listening.values()
        assert first.isdisjoint(second), "the workers share one listening socket"
        assert not _held_sockets(served.pid) & listeners, "the supervisor listens too"
        # all opened before any is used, as a burst of clients at the tables opens them
        connections = [http.client.HTTPConnection("127.0.0.1", port, timeout=60) for _ in range(20)]
        for connection in connections:
            connection.connect()
        answered: Counter[int] = Counter()
        for connection in connections:
            connection.request(
                "GET", "/api/campaigns/Keep/state", headers={"Authorization": f"Bearer {token}"}
            )
            response = connection.getresponse()
            assert response.status == 200 and json.loads(response.read())["seed"] == 1
            # answered, so accepted: the server's end is in one worker's open files (asked
            # at once, well within the keep-alive that keeps it open)
            assert connection.sock is not None
            client_port = connection.sock.getsockname()[1]
            (inode,) = [
                inode
                for inode, (state, remote) in _port_sockets(port).items()
                if remote == client_port and state == ESTABLISHED
            ]
            (worker,) = [worker for worker in listening if inode in _held_sockets(worker)]
            answered[worker] += 1
        # the kernel deals each connection to a worker by a hash of its addresses: all 20
        # on one worker is a chance of 2 in 2**20
        assert len(answered) == 2, f"one worker took every connection: {dict(answered)}"
    finally:
        for connection in connections:
            connection.close()
        served.terminate()
        try:
            served.wait(timeout=30)
        except subprocess.TimeoutExpired:
            served.kill()
            served.wait()
    assert served.returncode == 0, log.read_text()
