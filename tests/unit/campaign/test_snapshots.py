"""Snapshots are a cache: a snapshot plus the records after it folds to the whole journal's state.

Over random command sequences (undo included), for every cut: the state folded up to the cut,
then the rest folded onto it, equals the fold of the whole journal; or, exactly when the rest
changes whether a command the snapshot holds is live (an undo of it that no redo takes back,
or a redo of one undone before it), :func:`fold_from` declines and the caller folds in full.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.unit.campaign.test_fold_property import PARTY, commands, play

from turnkeeper.campaign import Command, Journal, Light, Recorded, Undo, Wait, fold, snapshots
from turnkeeper.campaign.journal import fold_from
from turnkeeper.campaign.snapshots import dump_state, load_state
from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.rules.loader import preset


def _standing(records: list[Recorded]) -> dict[int, bool]:
    """Whether each command an undo or redo named is live after ``records``."""
    live: dict[int, bool] = {}
    for record in records:
        if record.event.kind in ("command.undone", "command.redone"):
            command = record.event.data()["command"]
            assert isinstance(command, int)
            live[command] = record.event.kind == "command.redone"
    return live


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["ex", "tp", "pg", "dg"]),
    st.integers(0, 2**32),
    st.lists(commands, max_size=14),
)
def test_snapshot_plus_tail_is_the_whole_fold(
    ruleset: str, seed: int, sequence: list[Command]
) -> None:
    journal = play(ruleset, seed, sequence)
    records = journal.records
    whole = fold(records)
    for cut in range(1, len(records) + 1):
        snapshot = load_state(dump_state(fold(records[:cut])) or "")
        assert snapshot is not None, "a folded state reads back from its snapshot JSON"
        resumed = fold_from(snapshot, records[cut:])
        # declined exactly when the tail changes whether a command the snapshot holds is live
        # (an undo of it; not an undo its redo takes back again)
        held, now = _standing(records[:cut]), _standing(records)
        behind = any(held.get(c, True) != now.get(c, True) for c in range(1, cut + 1))
        assert (resumed is None) == behind
        if resumed is not None:
            assert resumed == whole


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.lists(commands, min_size=4, max_size=20))
def test_checkpoints_and_resumed_journals_agree_with_the_fold(
    seed: int, sequence: list[Command]
) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(snapshots, "SNAPSHOT_EVERY", 3)
        journal = play("ex", seed, [Wait(600), Wait(60), Wait(6), *sequence, Undo(), Undo()])
    assert journal.checkpoints, "a checkpoint every 3 records"
    assert journal.state == fold(journal.records)
    stored = [r.to_record() for r in journal.records]
    for checkpoint in journal.checkpoints:
        cut = checkpoint.version
        read: list[int] = []

        def earlier(cut: int = cut, read: list[int] = read) -> list[dict[str, object]]:
            read.append(cut)
            return stored[:cut]

        resumed = Journal.resume(checkpoint, stored[cut:], earlier)
        if resumed is None:
            continue
        assert resumed.state == journal.state and resumed.version == journal.version
        assert not read, "the records before a snapshot are read only when asked for"
        whole = Journal(stored)
        for command in (Wait(600), Undo(), Undo(), Undo()):
            try:
                expected = whole.execute(command)
            except IllegalCommandError:  # nothing left to undo: the resumed journal agrees
                with pytest.raises(IllegalCommandError):
                    resumed.execute(command)
                continue
            assert resumed.execute(command) == expected
            assert resumed.state == whole.state
        assert resumed.records == whole.records and read == [cut]


def test_undo_behind_a_snapshot_falls_back_to_the_whole_fold() -> None:
    journal = Journal.start("snap", preset("ex"), PARTY, seed=5)
    journal.execute(Light("torch"))
    snapshot = journal.state
    journal.execute(Undo())  # takes back the torch, lit before the snapshot
    assert fold_from(snapshot, journal.records[snapshot.version :]) is None
    assert Journal.resume(snapshot, journal.records[snapshot.version :], lambda: []) is None
    assert journal.state.light.dark and journal.state == fold(journal.records)


def test_a_tail_must_follow_its_snapshot() -> None:
    journal = Journal.start("snap", preset("ex"), PARTY, seed=5)
    journal.execute(Wait(600))
    journal.execute(Wait(600))
    with pytest.raises(TurnkeeperError, match="start at 2, not 3"):
        fold_from(fold(journal.records[:1]), journal.records[2:])


def test_a_snapshot_of_another_shape_is_ignored() -> None:
    assert load_state('{"name": "snap"}') is None
    assert len(snapshots.state_format()) == 16
