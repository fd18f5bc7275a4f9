"""A night's rest inside a site (PG-HEAL-1): "Characters recover 1 hit point per day if they
eat a meal and have a night of uninterrupted rest", wherever the night is spent; the
site's turns and wandering checks pass through the night as the site's rules say."""

from __future__ import annotations

from collections.abc import Callable

from turnkeeper.campaign import Damage, Journal, Recorded
from turnkeeper.dice import TypedDice
from turnkeeper.procedures.wilderness import Camp

Inside = Callable[..., Journal]
TURN = 600
NIGHT = 24 * 3600  # from 08:00 to the next morning's 08:00: 144 site turns


def of(records: list[Recorded], kind: str) -> list[Recorded]:
    return [r for r in records if r.event.kind == kind]


def test_pg_heal_1_a_night_camped_in_a_quiet_site_is_a_meal_a_rest_and_1_hp(
    inside: Inside,
) -> None:
    journal = inside("pg")
    journal.execute(Damage("Ana", 3))  # 6 - 3: 3 hp
    turns = journal.state.site.turns  # type: ignore[union-attr]
    records = journal.execute(Camp(), TypedDice([6] * 72))  # every wandering check: nothing
    assert journal.state.now == NIGHT and journal.state.date == "1-01-02 08:00"
    # the evening meal: a ration each
    assert journal.state.supplies.count("rations") == 8
    assert [r.event.describe() for r in of(records, "rest.started")] == [
        "the party rests (a night's rest)"
    ]
    assert of(records, "rest.done")
    healed = of(records, "hp.changed")
    assert [(r.event.target, r.event.change) for r in healed] == [("Ana", 1)]
    assert journal.state.character("Ana").hp == 4
    # the site's turns pass as its rules say: 144 turns, a wandering check every second one
    assert journal.state.site.turns == turns + 144  # type: ignore[union-attr]
    assert len(of(records, "dungeon.check")) == 72


def test_pg_heal_1_a_night_in_a_site_broken_by_a_wandering_encounter_heals_nothing(
    inside: Inside,
) -> None:
    journal = inside("pg")
    journal.execute(Damage("Ana", 3))
    # turn 2's check: d6 1, an encounter; then the encounter's own dice (seeded after)
    records = journal.execute(Camp(), TypedDice([1, 1, 2, 3, 1, 1, 4, 4, 3, 4, 5, 5, 5, 5]))
    assert of(records, "dungeon.encounter") and of(records, "clock.wait_broken")
    assert not of(records, "hp.changed") and journal.state.character("Ana").hp == 3
    assert journal.state.now == 2 * TURN  # the night is broken off at 08:20
    # the quiet turn before the encounter was rest all the same (EX-REST-1), as in any wait
    assert records[-1].event.kind == "rest.done"


def test_pg_heal_1_a_night_in_a_haven_broken_by_an_encounter_heals_nothing(
    make_journal: Callable[..., Journal],
) -> None:
    """PG-HEAL-1 "a night of uninterrupted rest": out of any site under tp, the downtime
    day's encounter die (TP-ENC-1) that meets something at midnight breaks the night."""
    journal = make_journal("tp")
    journal.execute(Damage("Aldo", 3))
    records = journal.execute(Camp(), TypedDice([1]))  # midnight: face 1, an encounter
    assert of(records, "clock.wait_broken") and journal.state.date == "1-01-02 00:00"
    assert not of(records, "hp.changed") and journal.state.character("Aldo").hp == 7
