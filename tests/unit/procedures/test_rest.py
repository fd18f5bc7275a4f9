"""Rest and weariness (EX-REST-1 to EX-REST-3) and forced rest (TP-ENC-1 face 3)."""

from __future__ import annotations

from collections.abc import Callable

from turnkeeper.campaign import ForcedRest, Journal, MarkFight, MarkRunning, Rest, Wait
from turnkeeper.campaign.party import Character
from turnkeeper.dice import SeededDice
from turnkeeper.procedures.rest import forced_rest, mark_fight, weariness_penalty

MakeJournal = Callable[..., Journal]
TURN = 600


def wearied(journal: Journal) -> list[str]:
    return [c.name for c in journal.state.party.characters if c.has("wearied")]


def test_ex_rest_1_rest_due_after_5_active_turns_wearied_after_the_6th(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal("ex")
    records = journal.execute(Wait(5 * TURN))
    assert [r.at for r in records if r.event.kind == "rest.due"] == [5 * TURN]
    assert wearied(journal) == []
    records = journal.execute(Wait(TURN))
    assert [r.at for r in records if r.event.kind == "rest.wearied"] == [6 * TURN]
    assert wearied(journal) == ["Aldo", "Bea"]


def test_ex_rest_1_resting_in_the_sixth_turn_keeps_the_party_fresh(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal("ex")
    journal.execute(Wait(5 * TURN))
    journal.execute(Rest())
    journal.execute(Wait(4 * TURN))
    assert wearied(journal) == [] and journal.state.now == 10 * TURN
    assert journal.state.rest.due_at is None
    # The count starts again after the rest: the next rest is due after 5 more active turns.
    records = journal.execute(Wait(2 * TURN))
    assert [r.at for r in records if r.event.kind == "rest.due"] == [11 * TURN]
    assert [r.at for r in records if r.event.kind == "rest.wearied"] == [12 * TURN]


def test_ex_rest_2_running_and_fights_need_a_rest_at_once(make_journal: MakeJournal) -> None:
    journal = make_journal("ex")
    journal.execute(MarkRunning())
    assert journal.state.rest.due_at == 0
    journal.execute(Wait(TURN))
    assert wearied(journal) == ["Aldo", "Bea"]
    journal.execute(Rest())
    journal.execute(MarkFight())
    journal.execute(Rest())
    assert wearied(journal) == [] and journal.state.rest.due_at is None
    assert mark_fight(journal.state)[0].kind == "rest.due"


def test_ex_rest_3_wearied_minus_2_skill_minus_4_to_hit_until_a_turn_of_rest(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal("ex")
    journal.execute(Wait(6 * TURN))
    aldo = journal.state.character("Aldo")
    rest = journal.state.ruleset.rest
    assert weariness_penalty(aldo, "skill", rest) == -2
    assert weariness_penalty(aldo, "to_hit", rest) == -4
    journal.execute(Rest())
    aldo = journal.state.character("Aldo")
    assert weariness_penalty(aldo, "skill", rest) == 0
    assert weariness_penalty(aldo, "to_hit", rest) == 0
    assert weariness_penalty(Character(name="X", hp=1), "to_hit", journal.state.ruleset.rest) == 0


def test_tp_enc_1_forced_rest_spends_a_turn_and_eats_and_drinks(make_journal: MakeJournal) -> None:
    journal = make_journal("tp")
    records = journal.execute(ForcedRest())
    assert journal.state.now == TURN
    assert (
        journal.state.supplies.count("rations") == 2 and journal.state.supplies.count("water") == 2
    )
    assert "rest.done" in [r.event.kind for r in records]


def test_forced_rest_shortfall_is_recorded_not_refused(make_journal: MakeJournal) -> None:
    journal = make_journal("tp")
    journal.execute(ForcedRest())
    journal.execute(ForcedRest())
    events = forced_rest(journal.state, SeededDice(1))
    shortfalls = [e for e in events if e.kind == "supply.shortfall"]
    assert {e.item for e in shortfalls} == {"rations", "water"}  # type: ignore[attr-defined]
    journal.execute(ForcedRest())
    assert journal.state.supplies.count("rations") == 0
