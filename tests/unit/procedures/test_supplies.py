"""Supplies by hand: counted items and usage dice (PG-USE-1)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from turnkeeper.campaign import AddSupply, Journal, UseSupply
from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError

MakeJournal = Callable[..., Journal]


def test_counted_items_are_added_and_used(make_journal: MakeJournal) -> None:
    journal = make_journal()
    journal.execute(AddSupply("rations", 3))
    journal.execute(UseSupply("rations", 2))
    assert journal.state.supplies.count("rations") == 5


def test_pg_use_1_usage_die_steps_down_on_1_or_2_and_depletes_on_the_d4(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal("pg")
    journal.execute(UseSupply("arrows"), TypedDice([3]))
    assert journal.state.supplies.dice["arrows"] == 10
    journal.execute(UseSupply("arrows"), TypedDice([2]))
    assert journal.state.supplies.dice["arrows"] == 8
    journal.execute(UseSupply("arrows", 3), TypedDice([1, 1, 2]))
    assert "arrows" not in journal.state.supplies.dice  # d8 -> d6 -> d4 -> depleted
    with pytest.raises(IllegalCommandError, match="has 0 arrows"):
        journal.execute(UseSupply("arrows"))


def test_usage_die_roll_is_recorded_with_its_face(make_journal: MakeJournal) -> None:
    journal = make_journal("pg")
    (record,) = journal.execute(UseSupply("arrows"), TypedDice([1]))
    assert record.event.rolls[0].total == 1 and record.event.rolls[0].typed_in
    assert "d10 steps down to d8" in record.event.describe()


def test_adding_a_usage_die_item(make_journal: MakeJournal) -> None:
    journal = make_journal("pg")
    journal.execute(AddSupply("bolts", die="d12"))
    assert journal.state.supplies.dice["bolts"] == 12


@pytest.mark.parametrize(
    "command",
    [UseSupply("torches", 3), UseSupply("rope"), AddSupply("rations", 0),
     AddSupply("rations", die="d8"), AddSupply("arrows", 5), AddSupply("bolts", die="d7")],
)  # fmt: skip
def test_illegal_supply_commands_change_nothing(make_journal: MakeJournal, command: object) -> None:
    journal = make_journal()
    state = journal.state
    with pytest.raises(IllegalCommandError):
        journal.execute(command)  # type: ignore[arg-type]
    assert journal.state == state
