"""Light: torches and lamps (EX-LIGHT-1, EX-LIGHT-2) and the waning face (TP-ENC-2)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from turnkeeper.campaign import Journal, Light, SetLight, Visibility, Wait, WaningResources
from turnkeeper.errors import IllegalCommandError
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import Ruleset

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


MINUTE = 60


def test_ex_light_1_a_torch_lit_at_08_05_lasts_thirty_minutes_to_08_35(
    make_journal: MakeJournal,
) -> None:
    """EX-LIGHT-1, "a pitch torch ... lasts 3 turns" of ten minutes: lit at 08:05 it burns
    down on its own turns (08:15, 08:25) and goes out at 08:35, thirty minutes on, not at
    the site's 08:30 turn boundary (the project's reading, ``light.burns_down``)."""
    journal = make_journal("ex")
    journal.execute(Wait(5 * MINUTE))
    journal.execute(Light("torch"))
    records = journal.execute(Wait(40 * MINUTE))
    burned = [(r.at, r.event.turns_left) for r in records if r.event.kind == "light.burned"]
    assert burned == [(15 * MINUTE, 2), (25 * MINUTE, 1), (35 * MINUTE, 0)]
    (out,) = [r for r in records if r.event.kind == "light.out"]
    assert out.at == 35 * MINUTE and journal.state.light.dark


def test_ex_light_2_a_lamp_lit_at_08_05_lasts_sixty_minutes_not_fifty_five(
    make_journal: MakeJournal,
) -> None:
    """EX-LIGHT-2, "lasts 6 turns": a lamp lit at 08:05 goes out at 09:05."""
    journal = make_journal("ex")
    journal.execute(Wait(5 * MINUTE))
    journal.execute(Light("lamp"))
    records = journal.execute(Wait(90 * MINUTE))
    (out,) = [r for r in records if r.event.kind == "light.out"]
    assert out.at == 65 * MINUTE


def test_ex_light_1_the_turn_boundary_reading_is_a_ruleset_option(
    make_journal: MakeJournal,
) -> None:
    """EX-LIGHT-1 read the other way (``light.burns_down = "at_turn_ends"``): a light loses
    a turn at each of the site's turn boundaries, so a torch lit at 08:05 is out at 08:30."""
    data = preset("ex").model_dump(mode="json")
    data["light"]["burns_down"] = "at_turn_ends"
    party = make_journal("ex").state.party
    journal = Journal.start("turns", Ruleset.model_validate(data), party, 1)
    journal.execute(Wait(5 * MINUTE))
    journal.execute(Light("torch"))
    records = journal.execute(Wait(40 * MINUTE))
    (out,) = [r for r in records if r.event.kind == "light.out"]
    assert out.at == 30 * MINUTE
