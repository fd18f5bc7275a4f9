"""``turnkeeper tokens`` and ``turnkeeper serve``: links printed once, tokens that open the API."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlparse

import pytest
from tests.conftest import Backend
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.campaign import parse_party
from turnkeeper.cli.app import app
from turnkeeper.cli.serve import WORKERS_STORE, worker_app
from turnkeeper.errors import NotFoundError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.tokens import Role, role_of


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
    import json

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


def test_serve_starts_workers_over_a_postgresql_store_and_refuses_them_a_sqlite_file(
    db: str, monkeypatch: pytest.MonkeyPatch, backend: Backend
) -> None:
    """Issue 41: ``serve --workers 2`` starts two processes sharing the store, each opening
    it itself from the address its parent names; a SQLite file is served by one."""
    import uvicorn

    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: ran.update(app=app, **kw))
    result = CliRunner().invoke(app, ["serve", "--db", db, "--workers", "2"])
    assert result.exit_code != 0 and not ran
    assert "several server processes share a PostgreSQL store" in str(result.exception)
    if backend.schema is None:
        return  # the SQLite backend: the refusal alone
    joiner = "&" if "?" in backend.url else "?"
    url = f"{backend.url}{joiner}options={quote(f'-csearch_path={backend.schema}', safe='')}"
    store = SqlStore(url)  # the test's own schema, as the workers open it: by the address
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6')
    Campaigns(store).new("Keep", preset("ex"), party, seed=1)
    store.close()
    monkeypatch.setenv(WORKERS_STORE, "")
    out = _json("serve", "--db", url, "--workers", "2", "--port", "9912")
    assert ran["workers"] == 2 and ran["factory"] is True and ran["port"] == 9912
    assert ran["app"] == "turnkeeper.cli.serve:worker_app"
    assert os.environ[WORKERS_STORE] == url
    (keep,) = out["campaigns"]
    from fastapi.testclient import TestClient

    with TestClient(worker_app()) as client:  # one worker, as uvicorn starts it
        state = client.get("/api/campaigns/Keep/state", params={"token": _token(keep["referee"])})
        assert state.status_code == 200 and state.json()["seed"] == 1
