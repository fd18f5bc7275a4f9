"""Downtime: the generic encounter die (TP-ENC-1) once for each day a wait passes."""

from __future__ import annotations

from collections.abc import Callable

from turnkeeper.campaign import Journal, Wait
from turnkeeper.dice import TypedDice
from turnkeeper.rules.schema import FaceEvent

MakeJournal = Callable[..., Journal]
DAY = 86400


def _face(journal: Journal, event: FaceEvent) -> int:
    die = journal.state.ruleset.dice["encounter"]
    return next(n for n, face in die.faces.items() if face.event is event)


def test_tp_enc_1_a_downtime_wait_of_3_days_rolls_the_die_3_times(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal("tp")
    free = _face(journal, FaceEvent.FREE_TURN)
    start = journal.state.now  # day 1, 08:00: the days end at midnight
    records = journal.execute(Wait(3 * DAY), TypedDice([free, free, free]))
    die = [r for r in records if r.event.kind == "encounter.die"]
    assert [r.at - start for r in die] == [16 * 3600, 40 * 3600, 64 * 3600]
    assert all(r.event.rolls[0].total == free for r in die)
    assert journal.state.now == start + 3 * DAY


def test_tp_enc_1_an_encounter_face_breaks_a_downtime_wait(make_journal: MakeJournal) -> None:
    journal = make_journal("tp")
    encounter = _face(journal, FaceEvent.ENCOUNTER)
    records = journal.execute(Wait(3 * DAY), TypedDice([encounter]))
    broken = records[-1].event
    assert broken.describe() == "the wait is broken at 00:00 by an encounter: 2d8h not waited"
    assert journal.state.date == "1-01-02 00:00"


def test_tp_enc_1_rulesets_without_the_die_roll_nothing_in_downtime(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal("ex")
    records = journal.execute(Wait(2 * DAY), TypedDice([]))
    assert not [r for r in records if r.event.kind == "encounter.die"]
