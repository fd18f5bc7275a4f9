"""Light: torches and lamps (EX-LIGHT-1, EX-LIGHT-2) and the waning face (TP-ENC-2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from turnkeeper.campaign import Journal, Light, SetLight, Visibility, Wait, WaningResources
from turnkeeper.errors import IllegalCommandError

MakeJournal = Callable[..., Journal]
TURN = 600


def kinds(records: list) -> list[str]:  # type: ignore[type-arg]
    return [r.event.kind for r in records]


def test_ex_light_1_torch_lasts_3_turns_and_lights_30_ft(make_journal: MakeJournal) -> None:
    journal = make_journal("ex")
    journal.execute(Light("torch"))
    assert (journal.state.light.radius_ft, journal.state.light.turns_left) == (30, 3)
    assert journal.state.supplies.count("torches") == 1
    journal.execute(Wait(2 * TURN))
    assert journal.state.light.turns_left == 1 and not journal.state.light.dark
    records = journal.execute(Wait(TURN))
    assert "light.out" in kinds(records) and journal.state.light.dark
    assert [r.at for r in records if r.event.kind == "light.out"] == [3 * TURN]


def test_ex_light_2_lamp_lasts_6_turns_and_lights_10_ft(make_journal: MakeJournal) -> None:
    journal = make_journal("ex")
    journal.execute(Light("lamp"))
    assert (journal.state.light.radius_ft, journal.state.light.turns_left) == (10, 6)
    assert journal.state.supplies.count("oil") == 0
    records = journal.execute(Wait(8 * TURN))
    (out,) = [r for r in records if r.event.kind == "light.out"]
    assert out.at == 6 * TURN


def test_warning_on_the_last_turn_of_light(make_journal: MakeJournal) -> None:
    journal = make_journal("ex")
    journal.execute(Light("torch"))
    records = journal.execute(Wait(3 * TURN))
    warnings = [r for r in records if r.event.kind == "light.warning"]
    assert [w.at for w in warnings] == [2 * TURN]
    assert "last turn" in warnings[0].event.describe()


def test_lighting_without_supplies_is_illegal_and_changes_nothing(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal("ex")
    journal.execute(Light("lamp"))
    state = journal.state
    with pytest.raises(IllegalCommandError, match="no oil left"):
        journal.execute(Light("lamp"))
    with pytest.raises(IllegalCommandError, match="no light source called 'candle'"):
        journal.execute(Light("candle"))
    assert journal.state == state


def test_referee_sets_time_left_recorded_for_the_referee(make_journal: MakeJournal) -> None:
    journal = make_journal("ex")
    with pytest.raises(IllegalCommandError):
        journal.execute(SetLight(2))
    journal.execute(Light("torch"))
    (record,) = journal.execute(SetLight(1))
    assert record.event.visibility is Visibility.REFEREE
    journal.execute(Wait(TURN))
    assert journal.state.light.dark


def test_tp_enc_2_light_lasts_until_a_waning_resources_face(make_journal: MakeJournal) -> None:
    journal = make_journal("tp")
    journal.execute(Light("torch"))
    assert journal.state.light.turns_left is None
    journal.execute(Wait(10 * TURN))
    assert journal.state.light.source == "torch"  # no fixed duration under the overloaded die
    journal.execute(WaningResources())  # relights from supplies: the last torch
    assert journal.state.light.source == "torch" and journal.state.supplies.count("torches") == 0
    records = journal.execute(WaningResources())  # none left: darkness
    assert kinds(records) == ["light.out"] and journal.state.light.dark
