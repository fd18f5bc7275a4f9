"""A campaign that stays fast as it grows (issue 23): reads never write, an undo folds from a
snapshot older than what it takes back, and a page of the log is read by index.

Cadences are lowered so short journals pass several snapshot marks. The store tests run on
SQLite, and on PostgreSQL with TURNKEEPER_TEST_PG (the ``backend`` fixture).
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from turnkeeper.campaign import (
    Command,
    CountdownAdd,
    Light,
    Note,
    Undo,
    Wait,
    fold,
    snapshots,
)
from turnkeeper.cli.app import app as cli
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import writes
from turnkeeper.store.sql import SqlStore
from turnkeeper.views.journal import player_log, undone_commands
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens

if TYPE_CHECKING:
    from tests.conftest import Backend

from tests.integration.store.test_service import PARTY

CADENCE = 40


class Counting:
    """A store that counts whole-journal reads (from seq 0, no limit)."""

    def __init__(self, inner: SqlStore) -> None:
        self.inner = inner
        self.whole = 0

    def read(self, campaign: str, since: int = 0, limit: int | None = None) -> list[object]:
        self.whole += since == 0 and limit is None
        paged = {} if limit is None else {"limit": limit}
        return self.inner.read(campaign, since, **paged)  # type: ignore[return-value]

    def read_json(self, campaign: str, since: int = 0, limit: int | None = None) -> str:
        self.whole += since == 0 and limit is None
        paged = {} if limit is None else {"limit": limit}
        return self.inner.read_json(campaign, since, **paged)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


def grow(campaigns: Campaigns, events: int) -> None:
    """Commands (some undone) until the journal holds ``events`` records."""
    mix: list[Command] = [Light("torch"), Wait(600), Note("a hall"), Undo(), Wait(3600)]
    step = 0
    while campaigns.state("Keep").version < events:
        with contextlib.suppress(TurnkeeperError):
            campaigns.execute("Keep", mix[step % len(mix)])
        step += 1


# -- reads never write ------------------------------------------------------------------------


def _digest(path: Path) -> dict[str, str]:
    """The bytes of the store and its write-ahead log (the -shm index is SQLite's own; a
    reader may leave an empty log behind, which holds no bytes)."""
    found = {}
    for name in (path.name, f"{path.name}-wal"):
        part = path.parent / name
        if part.exists() and part.stat().st_size:
            found[name] = hashlib.sha256(part.read_bytes()).hexdigest()
    return found


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite store holding a journal past several snapshot marks, and its tokens: grown
    once for the module (a second or two apiece), each test reading a copy of its own."""
    path = tmp_path_factory.mktemp("grown") / "keep.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(snapshots, "SNAPSHOT_EVERY", CADENCE)
        store = SqlStore(f"sqlite:///{path}")
        campaigns = Campaigns(store)
        campaigns.new("Keep", preset("ex"), PARTY, seed=5)
        grow(campaigns, 4 * CADENCE + 10)
        issue_tokens(store, "Keep")
        store.close()
    return path


@pytest.fixture
def long_store(grown: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the :func:`grown` store (with its write-ahead log, if one was left), read at
    the lowered snapshot cadence."""
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", CADENCE)
    for part in grown.parent.glob(f"{grown.name}*"):
        shutil.copy(part, tmp_path / part.name)
    return tmp_path / grown.name


VERBS = [
    ["log"],
    ["log", "--json"],
    ["log", "--since", "30", "--player", "--json"],
    ["export"],
    ["export", "--format", "markdown", "--player"],
    ["status"],
    ["status", "--json"],
    ["campaigns"],
    ["party", "show"],
    ["combat", "status"],
    ["calendar"],
    ["calendar", "--player", "--json"],
]


@pytest.mark.parametrize("verb", VERBS, ids=" ".join)
def test_a_read_only_verb_leaves_the_store_byte_for_byte(long_store: Path, verb: list[str]) -> None:
    before = _digest(long_store)
    chosen = [] if verb[0] == "campaigns" else ["-c", "Keep"]
    for _ in range(2):  # a second read finds whatever the first one might have left
        result = CliRunner().invoke(cli, [*verb, *chosen, "--db", str(long_store)])
        if verb[0] != "combat":  # no fight: a clear refusal, still a read
            assert result.exit_code == 0, result.output
        assert _digest(long_store) == before, f"{' '.join(verb)} wrote to the store"


def test_every_get_leaves_the_store_byte_for_byte(long_store: Path) -> None:
    store = SqlStore(f"sqlite:///{long_store}")
    tokens = issue_tokens(store, "Keep", rotate=True)  # known tokens: a write, before the digest
    store.close()
    before = _digest(long_store)
    store = SqlStore(f"sqlite:///{long_store}")
    app = create_app(Campaigns(store))

    def every(routes: list[Any]) -> Iterator[Any]:
        # the areas' routers are included whole (FastAPI keeps each as one entry)
        for route in routes:
            inner = getattr(route, "original_router", None)
            yield from every(inner.routes) if inner is not None else (route,)

    gets = [
        route.path
        for route in every(app.routes)
        if "GET" in getattr(route, "methods", ()) and not route.path.endswith("/live")
    ]
    assert "/api/campaigns/{name}/log" in gets
    with TestClient(app) as client:
        for role in (Role.REFEREE, Role.PLAYER):
            headers = {"Authorization": f"Bearer {tokens[role]}"}
            for path in gets:
                answer = client.get(path.replace("{name}", "Keep"), headers=headers)
                assert answer.status_code < 500, path
            log = client.get("/api/campaigns/Keep/log?after=5&limit=7", headers=headers)
            assert log.status_code == 200
    store.close()
    assert _digest(long_store) == before


# -- undo without a refold --------------------------------------------------------------------


@pytest.fixture
def store(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> Iterator[SqlStore]:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 5)
    opened = SqlStore(backend.url, schema=backend.schema)
    yield opened
    opened.close()


SMALL: list[Command] = [
    Wait(600),
    Note("a hall"),
    Light("torch"),
    Wait(60),
    CountdownAdd("F", "short", "d6"),
]


def test_an_undo_behind_the_newest_snapshot_folds_from_an_older_one(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=3)
    for command in SMALL * 6:
        with contextlib.suppress(TurnkeeperError):
            campaigns.execute("Keep", command)
    for _ in range(4):  # each time the newest snapshot holds the command the undo takes back
        state = campaigns.state("Keep")
        store.save_snapshot(
            "Keep", state.version, snapshots.state_format(), state.model_dump_json()
        )
        counting = Counting(store)
        Campaigns(counting).execute("Keep", Undo())  # type: ignore[arg-type]  # a new process
        assert counting.whole == 0, "the undo read the whole journal"
        after = Counting(store)
        fresh = Campaigns(after)  # type: ignore[arg-type]
        assert fresh.state("Keep") == fold(store.read("Keep"))
        fresh.execute("Keep", Wait(600))  # the command after the undo
        assert after.whole == 0, "the command after the undo refolded the whole journal"
        campaigns = Campaigns(store)


PREFIX: list[Command] = [Wait(600)] * 8


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**16), steps=st.lists(st.integers(0, len(SMALL)), max_size=14))
def test_undos_in_new_processes_give_the_fold_of_the_journal(
    store: SqlStore, seed: int, steps: list[int]
) -> None:
    """Random commands and undos, each run by a new service: its state is the fold of the
    journal, and no step reads the whole journal once it has a snapshot to start from."""
    name = f"Keep{seed}-{len(steps)}-{abs(hash(tuple(steps))) % 10**6}"
    with contextlib.suppress(TurnkeeperError):
        store.delete(name)
    campaigns = Campaigns(store)
    campaigns.new(name, preset("ex"), PARTY, seed=seed)
    for command in PREFIX:
        campaigns.execute(name, command)
    live = 0  # commands after the prefix not yet undone: undos never reach into the prefix
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            writes, "SNAPSHOTS_KEPT", 100, raising=False
        )  # every undo finds the snapshot it needs
        for step in steps:
            undo = step == len(SMALL) and live > 0
            command = Undo() if undo else SMALL[step % len(SMALL)]
            counting = Counting(store)
            fresh = Campaigns(counting)  # type: ignore[arg-type]
            try:
                fresh.execute(name, command)
            except TurnkeeperError:
                continue
            live += -1 if undo else 1
            assert counting.whole == 0, f"{command} read the whole journal"
            assert fresh.state(name) == fold(store.read(name))
            assert Campaigns(store).state(name) == fold(store.read(name))


# -- a page of the log by index ---------------------------------------------------------------


def test_a_page_is_what_the_whole_read_gave(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=9)
    grow(campaigns, 60)
    whole = campaigns.log("Keep")
    undone = undone_commands(whole)
    assert undone, "the journal holds undone commands"
    counting = Counting(store)
    fresh = Campaigns(counting)  # type: ignore[arg-type]
    assert fresh.undone("Keep") == undone
    for after in (0, 1, 17, len(whole) - 20, len(whole) - 1, len(whole)):
        for limit in (None, 1, 7, 50):
            # the whole journal (after 0, no limit) is a whole read: asked of another service
            service = campaigns if (after, limit) == (0, None) else fresh
            page, more = service.page("Keep", after, limit)
            expected = whole[after:]
            assert page == expected[:limit]
            assert more == (limit is not None and len(expected) > limit)
            keep = player_log(whole, after)
            page, more = service.page("Keep", after, limit, keep.__contains__)
            assert page == keep[:limit]
            assert more == (limit is not None and len(keep) > limit)
    assert counting.whole == 0


def test_the_http_log_page_reads_no_more_than_the_page(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=9)
    grow(campaigns, 60)
    whole = campaigns.log("Keep")
    undone = undone_commands(whole)
    tokens = issue_tokens(store, "Keep")
    counting = Counting(store)
    with TestClient(create_app(Campaigns(counting))) as client:  # type: ignore[arg-type]
        referee = {"Authorization": f"Bearer {tokens[Role.REFEREE]}"}
        player = {"Authorization": f"Bearer {tokens[Role.PLAYER]}"}
        for after in (0, 11, len(whole) - 9):
            answer = client.get(f"/api/campaigns/Keep/log?after={after}&limit=8", headers=referee)
            records = answer.json()["records"]
            assert [r["seq"] for r in records] == [r.seq for r in whole[after : after + 8]]
            assert [r["undone"] for r in records] == [
                r.command in undone for r in whole[after : after + 8]
            ]
            answer = client.get(f"/api/campaigns/Keep/log?after={after}&limit=8", headers=player)
            assert [r["seq"] for r in answer.json()["records"]] == [
                r.seq for r in player_log(whole, after)[:8]
            ]
    assert counting.whole == 0, "a page read the whole journal"
