"""Redo (issue 25): the latest undo taken back, as a recorded command; the command it undid
is live again as it was recorded, its dice not rolled again, and every fold agrees."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib.resources import files

import pytest

from turnkeeper.campaign import (
    Journal,
    Light,
    Note,
    Redo,
    Undo,
    Visibility,
    Wait,
    fold,
    load_party,
    render_markdown,
)
from turnkeeper.campaign.journal import fold_from, replay
from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.kernel.events import CommandRedone, Recorded
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.combat import Attack, BeginRound, Combatant, Side, StartFight
from turnkeeper.procedures.dungeon import EnterSite, Turn
from turnkeeper.rules import preset
from turnkeeper.views.journal import player_log, undone_commands
from turnkeeper.world.sites import load_site

MakeJournal = Callable[..., Journal]
EXAMPLES = files("turnkeeper.examples")


def _same(state: CampaignState) -> CampaignState:
    """``state`` but for its version (each undo and redo is a record of its own)."""
    return state.model_copy(update={"version": 0})


def _agrees(journal: Journal) -> None:
    """Every way of rebuilding the journal's state gives the live state."""
    stored = json.loads(json.dumps([r.to_record() for r in journal.records]))
    assert fold(stored) == journal.state
    assert Journal(stored).state == journal.state
    assert replay(journal.records).state == journal.state


def _refused(journal: Journal, match: str = "nothing to redo") -> None:
    before, count = journal.state, len(journal.records)
    with pytest.raises(IllegalCommandError, match=match):
        journal.execute(Redo())
    assert journal.state == before and len(journal.records) == count


def test_redo_brings_back_the_state_before_the_undo(make_journal: MakeJournal) -> None:
    journal = make_journal()
    journal.execute(Light("torch"))
    (waited, *_) = journal.execute(Wait(1800))
    before = journal.state
    journal.execute(Undo())
    assert journal.state.now == 0 and journal.state.redoable == (waited.seq,)
    (redo,) = journal.execute(Redo())
    assert isinstance(redo.event, CommandRedone) and redo.event.command == waited.seq
    assert redo.at == 1800 and not redo.event.rolls  # the time after it; nothing rolled
    assert _same(journal.state) == _same(before)
    assert journal.state.undoable == waited.seq and journal.state.redoable == ()
    _agrees(journal)


def test_undo_undo_redo_redo_brings_back_both_in_the_reverse_order_of_undoing(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal()
    (lit,) = journal.execute(Light("torch"))[:1]
    after_light = journal.state
    (waited, *_) = journal.execute(Wait(1800))
    before = journal.state
    journal.execute(Undo())
    journal.execute(Undo())
    assert journal.state.redoable == (waited.seq, lit.seq)
    (first,) = journal.execute(Redo())
    assert first.event.command == lit.seq  # type: ignore[attr-defined]
    assert _same(journal.state) == _same(after_light).model_copy(
        update={"redoable": (waited.seq,)}  # and the wait is still to redo
    )
    _agrees(journal)
    (second,) = journal.execute(Redo())
    assert second.event.command == waited.seq  # type: ignore[attr-defined]
    assert _same(journal.state) == _same(before)
    _agrees(journal)
    _refused(journal)  # both brought back: nothing left to redo


def test_a_fight_and_a_turn_come_back_with_their_rolls_not_rolled_again() -> None:
    rules = preset("ex")
    party = load_party(str(EXAMPLES / "fighters.toml"), rules)
    journal = Journal.start("Keep", rules, party, seed=3)
    journal.execute(EnterSite(load_site(str(EXAMPLES / "site.toml"))))
    turn = journal.execute(Turn()) + journal.execute(Turn())  # the second checks (1 in 6)
    orc = Combatant(name="Orc", side=Side.OPPOSITION, hp=30, max_hp=30, ac=10, hd=1)
    journal.execute(StartFight(foes=(orc,), surprised=frozenset()))
    journal.execute(BeginRound(), TypedDice([6, 1]))  # the party acts first
    attack = journal.execute(Attack("Ann", "Orc"))
    assert any(r.event.rolls for r in turn) and any(r.event.rolls for r in attack)
    before, rolled = journal.state, [r for r in journal.records if r.event.rolls]
    for _ in range(5):
        journal.execute(Undo())
    assert journal.state.combat is None and journal.state.now == 0
    for _ in range(5):
        journal.execute(Redo())
    assert _same(journal.state) == _same(before)
    assert [r for r in journal.records if r.event.rolls] == rolled  # the same records live
    assert undone_commands(journal.records) == frozenset()
    _agrees(journal)


def test_redo_after_another_command_is_refused_and_changes_nothing(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal()
    _refused(journal)  # no undo at all
    journal.execute(Wait(600))
    _refused(journal)  # the last command was no undo
    journal.execute(Undo())
    journal.execute(Light("torch"))  # something done since the undo: its redo is gone
    _refused(journal, r"nothing to redo: the last command was not an undo")
    _agrees(journal)


def test_a_command_done_and_undone_after_an_undo_ends_that_undos_redo(
    make_journal: MakeJournal,
) -> None:
    """Wait, undo, light, undo, redo: the light comes back, the wait does not (the light
    was done after the wait's undo)."""
    journal = make_journal()
    journal.execute(Wait(600))
    journal.execute(Undo())
    (lit,) = journal.execute(Light("torch"))[:1]
    journal.execute(Undo())
    assert journal.state.redoable == (lit.seq,)
    journal.execute(Redo())
    assert journal.state.light.source == "torch" and journal.state.now == 0
    _refused(journal)
    _agrees(journal)


def test_undo_redo_undo_redo_keeps_the_last_word(make_journal: MakeJournal) -> None:
    journal = make_journal()
    (waited, *_) = journal.execute(Wait(1800))
    before = journal.state
    for _ in range(3):
        journal.execute(Undo())
        assert journal.state.now == 0
        _agrees(journal)
        journal.execute(Redo())
        assert _same(journal.state) == _same(before)
        _agrees(journal)
    journal.execute(Undo())
    assert undone_commands(journal.records) == {waited.seq}
    _agrees(journal)


def test_a_snapshot_behind_a_redone_command_is_not_used_for_it(make_journal: MakeJournal) -> None:
    """A snapshot taken after an undo lacks the undone command: a tail that redoes it needs
    an earlier state (None), and one that undoes and redoes a command it holds does not."""
    journal = make_journal()
    journal.execute(Wait(600))
    journal.execute(Undo())
    snapshot = journal.state
    journal.execute(Redo())
    tail = journal.records[snapshot.version :]
    assert fold_from(snapshot, tail) is None
    resumed = Journal.resume(snapshot, tail, lambda: journal.records)
    assert resumed is None or resumed.state == journal.state

    holding = journal.state  # holds the wait
    journal.execute(Undo())
    journal.execute(Redo())
    assert fold_from(holding, journal.records[holding.version :]) == journal.state


def test_logs_show_a_redone_command_live(make_journal: MakeJournal) -> None:
    journal = make_journal()
    journal.execute(Note("the door was barred"))
    journal.execute(Undo("the door was barred"))
    journal.execute(Redo("the door was barred"))
    referee = render_markdown(journal.records)
    assert "- 08:00 the door was barred\n" in referee and "~~" not in referee
    assert "undid command 2: the door was barred" in referee
    assert "redid command 2: the door was barred" in referee
    players = render_markdown(journal.records, player=True)
    assert "the door was barred" in players and "undid" not in players and "redid" not in players
    assert [r.seq for r in player_log(journal.records)] == [1, 2]
    (redo,) = [r for r in journal.records if isinstance(r.event, CommandRedone)]
    assert redo.event.visibility is Visibility.REFEREE  # it repeats what the command said


def test_an_imported_redo_must_bring_back_the_latest_undo(make_journal: MakeJournal) -> None:
    journal = make_journal()
    journal.execute(Wait(600))
    journal.execute(Light("torch"))
    journal.execute(Undo())
    records = list(journal.records)
    forged = Recorded(len(records) + 1, len(records) + 1, 600, CommandRedone(command=2))
    with pytest.raises(TurnkeeperError, match="redoes command 2, but the latest undo took back"):
        replay([*records, forged])
