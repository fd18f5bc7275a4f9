"""The journal: records round-trip, fold rebuilds the live state, undo is recorded."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import ClassVar

import pytest

from turnkeeper.campaign import (
    EVENTS,
    AddSupply,
    CountdownAdd,
    Damage,
    Journal,
    Light,
    Note,
    Undo,
    UseSupply,
    Visibility,
    Wait,
    command_dice,
    fold,
)
from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.events import Event, Shown

MakeJournal = Callable[..., Journal]


def test_records_are_json_and_round_trip(make_journal: MakeJournal) -> None:
    journal = make_journal()
    journal.execute(Light("torch"))
    journal.execute(Wait(1800))
    journal.execute(UseSupply("arrows"), TypedDice([2]))
    for record in journal.records:
        data = json.loads(json.dumps(record.to_record()))
        assert set(data) == {"seq", "command", "at", "kind", "visibility", "data", "rolls"}
        assert EVENTS.record(data) == record
    assert fold(r.to_record() for r in journal.records) == journal.state


def test_seq_is_dense_and_command_groups_a_commands_events(make_journal: MakeJournal) -> None:
    journal = make_journal()
    light = journal.execute(Light("torch"))
    waited = journal.execute(Wait(1800))
    assert [r.seq for r in journal.records] == list(range(1, journal.version + 1))
    assert {r.command for r in waited} == {waited[0].seq}
    assert {r.command for r in light} == {light[0].seq}
    assert waited[-1].at == 1800
    assert journal.state.version == journal.version


def test_typed_in_rolls_are_marked_in_the_record(make_journal: MakeJournal) -> None:
    journal = make_journal()
    (record,) = journal.execute(UseSupply("arrows"), TypedDice([7]))
    assert record.to_record()["rolls"] == [
        {
            "expression": "d10",
            "total": 7,
            "dice": [[10, 7, True]],
            "breakdown": "d10 (7) = 7",
            "typed_in": True,
        }
    ]


def test_undo_keeps_the_record_and_forgets_the_effects(make_journal: MakeJournal) -> None:
    journal = make_journal()
    before = journal.state
    journal.execute(Light("torch"))
    journal.execute(Wait(600))
    (undo,) = journal.execute(Undo())
    assert undo.event.kind == "command.undone" and undo.at == 0  # the time after the undo
    assert journal.state.now == 0 and journal.state.light.source == "torch"
    journal.execute(Undo())
    assert journal.state.light.dark and journal.state.supplies == before.supplies
    assert len(journal.records) > 2  # everything is still in the record
    assert fold(journal.records) == journal.state


def test_undo_of_nothing_is_illegal_and_changes_nothing(make_journal: MakeJournal) -> None:
    journal = make_journal()
    state, records = journal.state, list(journal.records)
    with pytest.raises(IllegalCommandError, match="nothing to undo"):
        journal.execute(Undo())
    assert journal.state == state and journal.records == records


def test_command_dice_depend_only_on_seed_and_version() -> None:
    assert [command_dice(5, 9).die(100) for _ in range(3)] == [
        command_dice(5, 9).die(100) for _ in range(3)
    ]
    assert [command_dice(5, 9).die(10**6) for _ in range(3)] != [
        command_dice(5, 10).die(10**6) for _ in range(3)
    ]


def test_referee_visibility_is_recorded(make_journal: MakeJournal) -> None:
    journal = make_journal("dg")
    (note,) = journal.execute(Note("the ogre is asleep", Visibility.REFEREE))
    (started,) = journal.execute(
        CountdownAdd("ogre wakes", "SC", "1d6", visibility=Visibility.REFEREE)
    )
    assert note.to_record()["visibility"] == "referee"
    assert started.event.visibility is Visibility.REFEREE and len(started.event.rolls) == 1


def test_illegal_commands_change_nothing(make_journal: MakeJournal) -> None:
    journal = make_journal()
    state = journal.state
    for command in (Damage("Nobody", 3), AddSupply("rations"), UseSupply("oil", 5), Wait(0)):
        with pytest.raises(IllegalCommandError):
            journal.execute(command)
        assert journal.state == state


def test_an_event_class_declares_who_sees_it_once() -> None:
    """Who sees an event is its class's ``shown``, once (issue 37): a class that declares
    nothing, or declares a visibility field beside it, is refused when it is defined; the
    visibility it records by default follows from ``shown``, written beside its data."""
    with pytest.raises(TypeError, match="declares no shown"):

        class Silent(Event):
            kind: ClassVar[str] = "test.silent"

    with pytest.raises(TypeError, match="not a visibility field"):

        class Plain(Event):
            kind: ClassVar[str] = "test.plain"
            shown: ClassVar[Shown] = Shown.REFEREE
            visibility: Visibility = Visibility.REFEREE

    class Secret(Event):
        kind: ClassVar[str] = "test.secret"
        shown: ClassVar[Shown] = Shown.REFEREE
        clue: str = "the idol is false"

    class Told(Secret):
        kind: ClassVar[str] = "test.told"
        shown: ClassVar[Shown] = Shown.PARTY

    assert Secret().data() == {"clue": "the idol is false"}
    assert Secret().visibility is Visibility.REFEREE
    assert Told().visibility is Visibility.PARTY
