"""Snapshots in the store are a cache: with them, without them, or stale, the state is the fold.

Runs on SQLite, and on PostgreSQL with TURNKEEPER_TEST_PG (the ``backend`` fixture).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from turnkeeper.campaign import (
    Command,
    CountdownAdd,
    Light,
    Note,
    Rest,
    Undo,
    Wait,
    fold,
    snapshots,
)
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore

if TYPE_CHECKING:
    from tests.conftest import Backend

from tests.integration.store.test_service import PARTY

MIX: list[Command] = [
    Light("torch"),
    Wait(600),
    Note("the party maps the corridor"),
    Undo(),
    CountdownAdd("Flood", "short", "d6"),
    Rest(),
    Wait(1800),
    Undo(),
    Undo(),
    Wait(600),
]


@pytest.fixture
def store(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> Iterator[SqlStore]:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 4)  # many snapshots in a short journal
    opened = SqlStore(backend.url, schema=backend.schema)
    yield opened
    opened.close()


class Reads:
    """A store that counts whole-journal reads (``since=0``)."""

    def __init__(self, inner: SqlStore) -> None:
        self.inner = inner
        self.whole = 0

    def read(self, campaign: str, since: int = 0) -> list[dict[str, object]]:
        self.whole += since == 0
        return self.inner.read(campaign, since)

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)


def play(campaigns: Campaigns, commands: list[Command]) -> None:
    for command in commands:
        with contextlib.suppress(TurnkeeperError):  # nothing to undo: refused, nothing kept
            campaigns.execute("Keep", command)


def test_state_from_snapshot_and_tail_is_the_whole_fold(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("dg"), PARTY, seed=4)
    resumed = 0
    for cut in range(1, len(MIX) * 3):
        play(campaigns, [MIX[cut % len(MIX)]])
        whole = fold(store.read("Keep"))
        assert campaigns.state("Keep") == whole
        reads = Reads(store)
        fresh = Campaigns(reads)  # type: ignore[arg-type]  # another process
        assert fresh.state("Keep") == whole
        found = store.load_snapshot("Keep", snapshots.state_format())
        if found is not None and fresh.journal("Keep").checkpoints:
            assert reads.whole == 0, "resumed from the snapshot without reading it all"
            resumed += 1
        assert fresh.log("Keep") == campaigns.log("Keep")  # earlier records read on demand
    assert resumed > len(MIX), "most fresh reads resume from a snapshot"


def test_dropping_or_staling_snapshots_changes_nothing(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=8)
    play(campaigns, MIX * 2)
    whole = fold(store.read("Keep"))
    version, text = store.load_snapshot("Keep", snapshots.state_format()) or (0, "")
    assert 0 < version <= store.version("Keep")
    store.drop_snapshots("Keep")
    assert Campaigns(store).state("Keep") == whole
    # a snapshot in another format (an older turnkeeper) is not read
    store.drop_snapshots()
    store.save_snapshot("Keep", version, "older", text.replace('"now":', '"now":1+'))
    assert Campaigns(store).state("Keep") == whole
    # a whole fold for want of a snapshot writes none (reads never write); the next
    # command keeps one, in its append, for the next process
    assert store.load_snapshot("Keep", snapshots.state_format()) is None
    writer = Campaigns(store)
    writer.execute("Keep", Wait(600))
    assert store.load_snapshot("Keep", snapshots.state_format()) is not None
    assert Campaigns(store).state("Keep") == fold(store.read("Keep")) == writer.state("Keep")
    campaigns.delete("Keep")
    assert store.load_snapshot("Keep", snapshots.state_format()) is None


def test_undo_behind_the_snapshot_falls_back_to_the_whole_fold(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=2)
    play(campaigns, [Wait(600), Wait(600), Light("torch")])  # version 4 (+ events): a snapshot
    version, _ = store.load_snapshot("Keep", snapshots.state_format()) or (0, "")
    assert version >= 4
    store.drop_snapshots("Keep")
    store.save_snapshot(
        "Keep", version, snapshots.state_format(), campaigns.state("Keep").model_dump_json()
    )
    Campaigns(store).execute("Keep", Undo())  # takes back the torch, held by the snapshot
    fresh = Campaigns(store)
    assert fresh.state("Keep") == fold(store.read("Keep"))
    assert fresh.state("Keep").light.dark
