"""The event store contract, run on SQLite and (with TURNKEEPER_TEST_PG) on PostgreSQL."""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import insert

from turnkeeper.errors import ConflictError, NotFoundError, TurnkeeperError
from turnkeeper.store import open_store, resolve_url
from turnkeeper.store.base import Caches
from turnkeeper.store.schema import events_table
from turnkeeper.store.sql import SqlStore

if TYPE_CHECKING:
    from tests.conftest import Backend

APPENDER = Path(__file__).with_name("appender.py")
_spec = importlib.util.spec_from_file_location("store_appender", APPENDER)
assert _spec is not None and _spec.loader is not None
_appender = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_appender)
record = _appender.record


@pytest.fixture
def store(backend: Backend) -> Iterator[SqlStore]:
    opened = SqlStore(backend.url, schema=backend.schema)
    yield opened
    opened.close()


def records(first: int, count: int) -> list[dict[str, object]]:
    return [record(seq) for seq in range(first, first + count)]


def test_create_append_read_version(store: SqlStore) -> None:
    store.create("keep")
    assert store.version("keep") == 0
    assert store.read("keep") == []
    assert store.append("keep", 0, records(1, 3)) == 3
    assert store.append("keep", 3, records(4, 2)) == 5
    assert store.version("keep") == 5
    assert store.read("keep") == [{"seq": s, **record(s)} for s in range(1, 6)]
    assert [r["seq"] for r in store.read("keep", since=3)] == [4, 5]
    assert store.read("keep", since=5) == []


def test_records_round_trip_opaque_fields(store: SqlStore) -> None:
    store.create("keep")
    odd = {"kind": "note", "data": {"text": "naïve ☃", "n": None}, "extra": [1, 2.5, True]}
    store.append("keep", 0, [odd, {"data": {}}])
    assert store.read("keep") == [{"seq": 1, **odd}, {"seq": 2, "data": {}}]


def test_records_keep_their_key_order_on_every_backend(store: SqlStore) -> None:
    """A ruleset's light sources are listed torch first: "the first source" must stay the
    torch when the journal is read back (PostgreSQL's jsonb would sort the keys)."""
    store.create("keep")
    sources = {"torch": {"radius_ft": 30}, "lamp": {"radius_ft": 30}, "candle": {}}
    store.append("keep", 0, [{"kind": "x", "data": {"sources": sources, "b": 1, "a": 2}}])
    (back,) = store.read("keep")
    assert list(back["data"]["sources"]) == ["torch", "lamp", "candle"]
    assert list(back["data"]) == ["sources", "b", "a"]
    (text,) = json.loads(store.read_json("keep"))
    assert list(text["data"]["sources"]) == ["torch", "lamp", "candle"]


def test_campaigns_and_delete(store: SqlStore) -> None:
    for name in ["b", "a", "c"]:
        store.create(name)
    store.append("a", 0, records(1, 2))
    assert store.campaigns() == ["a", "b", "c"]
    store.set_current("a")
    store.delete("a")
    assert store.campaigns() == ["b", "c"]
    assert store.current() is None
    with pytest.raises(NotFoundError, match="no campaign named 'a'"):
        store.read("a")
    with pytest.raises(NotFoundError):
        store.delete("a")
    store.create("a")  # the name is free again, with an empty journal
    assert store.read("a") == []


def test_create_twice_is_a_conflict(store: SqlStore) -> None:
    store.create("keep")
    with pytest.raises(ConflictError, match="already exists"):
        store.create("keep")


def test_unknown_campaign(store: SqlStore) -> None:
    with pytest.raises(NotFoundError):
        store.version("nowhere")
    with pytest.raises(NotFoundError):
        store.append("nowhere", 0, records(1, 1))


def test_current_pointer(store: SqlStore) -> None:
    assert store.current() is None
    store.set_current("keep")
    store.set_current("hall")
    assert store.current() == "hall"
    store.set_current(None)
    assert store.current() is None


def test_stale_writer_gets_conflict_and_first_writer_is_intact(store: SqlStore) -> None:
    store.create("keep")
    first, second = records(1, 3), [{"kind": "other", "data": {}}]
    store.append("keep", 0, first)
    with pytest.raises(ConflictError, match="keep is at version 3, you expected 0"):
        store.append("keep", 0, second)
    assert store.version("keep") == 3
    assert store.read("keep") == [{"seq": s, **r} for s, r in zip([1, 2, 3], first, strict=True)]


def test_taken_seq_is_a_conflict_even_past_the_version_check(
    store: SqlStore, backend: Backend
) -> None:
    """The second guard: if a row at the next seq exists, the whole append rolls back."""
    store.create("keep")
    # Write behind the store's back so campaigns.version stays 0 while seq 1 is taken.
    with store._engine.begin() as conn:
        conn.execute(insert(events_table).values(campaign="keep", seq=1, data={"seq": 1, "x": 1}))
    with pytest.raises(ConflictError):
        store.append("keep", 0, records(1, 2))
    assert store.version("keep") == 0
    assert store.read("keep") == [{"seq": 1, "x": 1}]


def test_postgresql_listeners_hear_of_an_append_that_landed_and_of_none_that_did_not(
    store: SqlStore, backend: Backend
) -> None:
    """On PostgreSQL an append with no snapshot is one statement (``append_at_once``): its
    notification leaves with it, and a stale one, which writes nothing, sends none; one that
    keeps a snapshot (a transaction of its own) notifies as well."""
    if backend.schema is None:
        pytest.skip("SQLite has no notifications")
    # the channel is the database's: other schemas' campaigns are heard too, by their names
    name = f"keep {uuid.uuid4().hex}"
    listener = store._listen()

    def heard() -> int:
        return sum(n.payload == name for n in listener.notifies(timeout=0.3))

    store.create(name)
    assert heard() == 1
    store.append(name, 0, records(1, 2))
    assert heard() == 1
    with pytest.raises(ConflictError):
        store.append(name, 0, records(1, 1))
    assert heard() == 0
    store.append(name, 2, records(3, 1), caches=Caches(snapshot=("tag", "{}")))
    assert heard() == 1
    assert store.load_snapshot(name, "tag") == (3, "{}")


def test_records_must_carry_the_next_seqs(store: SqlStore) -> None:
    store.create("keep")
    with pytest.raises(ValueError, match="must be numbered 1"):
        store.append("keep", 0, [{"seq": 2}])
    assert store.version("keep") == 0


def test_records_written_already_are_stored_as_they_are_and_numbered_from_one(
    store: SqlStore,
) -> None:
    written = [
        (1, 1, 0, "note.made", "party", '{"seq":1,"text":"as given"}', "a note"),
        (2, 2, 60, "note.made", "referee", '{"seq":2}', "another"),
    ]
    with pytest.raises(ValueError, match="numbered 1, 2, 3"):
        store.create("gap", written=[written[1]])
    with pytest.raises(ValueError, match="written already or not"):
        store.create("both", records(1, 1), written=written)
    assert store.campaigns() == []
    store.create("keep", written=written)
    assert store.version("keep") == 2
    assert store.read("keep") == [{"seq": 1, "text": "as given"}, {"seq": 2}]
    (page,) = store.read_lines("keep", 0, 2, 10)
    assert page == [
        (1, 0, '{"seq":1,"text":"as given"}', "a note"),
        (2, 60, '{"seq":2}', "another"),
    ]


def test_threads_appending_lose_and_duplicate_nothing(backend: Backend) -> None:
    """Writers that reload and retry on conflict: every batch lands once, seqs stay dense."""
    writers, appends, batch = 6, 15, 3
    setup = SqlStore(backend.url, schema=backend.schema)
    setup.create("keep")
    errors: list[BaseException] = []

    def writer(who: int) -> None:
        store = SqlStore(backend.url, schema=backend.schema)
        try:
            for n in range(appends):
                while True:
                    version = store.version("keep")
                    body = [{"data": {"who": who, "n": n, "i": i}} for i in range(batch)]
                    try:
                        store.append("keep", version, body)
                        break
                    except ConflictError:
                        continue
        except BaseException as error:  # surfaced in the main thread below
            errors.append(error)
        finally:
            store.close()

    threads = [threading.Thread(target=writer, args=(who,)) for who in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    got = setup.read("keep")
    setup.close()
    assert [r["seq"] for r in got] == list(range(1, writers * appends * batch + 1))
    payloads = [(r["data"]["who"], r["data"]["n"], r["data"]["i"]) for r in got]  # type: ignore[index]
    assert sorted(payloads) == sorted(
        (w, n, i) for w in range(writers) for n in range(appends) for i in range(batch)
    )
    # a batch is contiguous: nobody's append interleaves with another's
    for start in range(0, len(payloads), batch):
        assert len({p[:2] for p in payloads[start : start + batch]}) == 1


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.4, 0.9])
def test_sigkill_mid_appends_leaves_only_whole_batches(backend: Backend, delay: float) -> None:
    """A real process killed with SIGKILL while appending: every acknowledged append is kept,
    no partial batch is visible, and every record's JSON is intact."""
    batch = 5
    store = SqlStore(backend.url, schema=backend.schema)
    store.create("keep")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen(
        [sys.executable, str(APPENDER), backend.url, backend.schema or "-", "keep", str(batch)],
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert child.stdout is not None
    first = child.stdout.readline()  # wait until it is really appending
    assert first.strip() == str(batch)
    time.sleep(delay)
    child.send_signal(signal.SIGKILL)
    acknowledged = [int(line) for line in child.stdout.read().split()] or [batch]
    child.wait()
    assert child.returncode == -signal.SIGKILL

    got = store.read("keep")
    count = len(got)
    assert count >= acknowledged[-1] > batch  # every append the child saw commit is there
    assert count % batch == 0
    assert store.version("keep") == count
    assert [r["seq"] for r in got] == list(range(1, count + 1))
    assert got == [{"seq": s, **record(s)} for s in range(1, count + 1)]
    store.close()


def test_open_store_url_choice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURNKEEPER_DB", str(tmp_path / "env.db"))
    assert resolve_url() == f"sqlite:///{tmp_path / 'env.db'}"
    assert resolve_url(str(tmp_path / "x" / "given.db")) == f"sqlite:///{tmp_path}/x/given.db"
    monkeypatch.delenv("TURNKEEPER_DB")
    monkeypatch.setattr("platformdirs.user_data_dir", lambda _app: str(tmp_path / "data"))
    assert resolve_url() == f"sqlite:///{tmp_path / 'data' / 'turnkeeper.db'}"
    store = open_store()
    store.create("keep")
    assert (tmp_path / "data" / "turnkeeper.db").exists()
    store.close()


def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'w.db'}")
    with store._engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    store.close()
    full = SqlStore(f"sqlite:///{tmp_path / 'w.db'}?synchronous=full")
    with full._engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2
    full.close()
    with pytest.raises(TurnkeeperError, match="choose normal or full"):
        SqlStore(f"sqlite:///{tmp_path / 'w.db'}?synchronous=off")
