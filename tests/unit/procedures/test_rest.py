"""Rest and weariness (EX-REST-1 to EX-REST-3) and forced rest (TP-ENC-1 face 3)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from turnkeeper.campaign import ForcedRest, Journal, MarkFight, MarkRunning, Rest, Wait
from turnkeeper.campaign.hooks import HOOKS
from turnkeeper.dice import SeededDice
from turnkeeper.kernel.party import Character
from turnkeeper.kernel.schedule import Draft
from turnkeeper.procedures.dungeon import EnterSite, LeaveSite, Turn
from turnkeeper.procedures.rest import forced_rest, mark_fight, weariness_penalty
from turnkeeper.procedures.wilderness import Camp
from turnkeeper.world.sites import load_site

MakeJournal = Callable[..., Journal]
TURN = 600
HOUR = 3600
SITE = load_site(Path(__file__).resolve().parents[3] / "examples" / "site.toml")


def wearied(journal: Journal) -> list[str]:
    return [c.name for c in journal.state.party.characters if c.has("wearied")]


def explore(journal: Journal, turns: int) -> None:
    """Active turns in the Cells (cautious, off the lanes): a wait would be rest."""
    for _ in range(turns):
        journal.execute(Turn(mode="cautious"))


def in_site(journal: Journal) -> Journal:
    """The party enters the example site's Cells, off the lanes (EX-ENC-3): no wandering
    check breaks the waits, so only the rest cadence is tested."""
    journal.execute(EnterSite(SITE, 1, "3"))
    return journal


def test_ex_rest_1_rest_due_after_5_active_turns_wearied_after_the_6th(
    make_journal: MakeJournal,
) -> None:
    journal = in_site(make_journal("ex"))
    explore(journal, 5)
    assert journal.state.rest.due_at == 5 * TURN
    assert wearied(journal) == []
    records = journal.execute(Turn(mode="cautious"))
    assert [r.at for r in records if r.event.kind == "rest.wearied"] == [6 * TURN]
    assert wearied(journal) == ["Aldo", "Bea"]


def test_ex_rest_1_resting_in_the_sixth_turn_keeps_the_party_fresh(
    make_journal: MakeJournal,
) -> None:
    journal = in_site(make_journal("ex"))
    explore(journal, 5)
    journal.execute(Rest())
    explore(journal, 4)
    assert wearied(journal) == [] and journal.state.now == 10 * TURN
    assert journal.state.rest.due_at is None
    # The count starts again after the rest: the next rest is due after 5 more active turns.
    explore(journal, 1)
    assert journal.state.rest.due_at == 11 * TURN
    records = journal.execute(Turn(mode="cautious"))
    assert [r.at for r in records if r.event.kind == "rest.wearied"] == [12 * TURN]


def test_ex_rest_2_running_and_fights_need_a_rest_at_once(make_journal: MakeJournal) -> None:
    journal = in_site(make_journal("ex"))
    journal.execute(Turn(mode="running"))
    assert journal.state.rest.due_at == TURN
    journal.execute(Turn(mode="cautious"))  # a turn on the move, not the rest it needed
    assert wearied(journal) == ["Aldo", "Bea"]
    journal.execute(Rest())
    journal.execute(MarkFight())
    journal.execute(Rest())
    assert wearied(journal) == [] and journal.state.rest.due_at is None
    assert mark_fight(journal.state)[0].kind == "rest.due"
    # In no site too: after running, the party sitting still for a turn is its rest.
    journal.execute(LeaveSite())
    journal.execute(MarkRunning())
    records = journal.execute(Wait(TURN))
    assert "rest.done" in [r.event.kind for r in records] and wearied(journal) == []


def test_ex_rest_3_wearied_minus_2_skill_minus_4_to_hit_until_a_turn_of_rest(
    make_journal: MakeJournal,
) -> None:
    journal = in_site(make_journal("ex"))
    explore(journal, 6)
    aldo = journal.state.character("Aldo")
    rest = journal.state.ruleset.rest
    assert weariness_penalty(aldo, "skill", rest) == -2
    assert weariness_penalty(aldo, "to_hit", rest) == -4
    journal.execute(Rest())
    aldo = journal.state.character("Aldo")
    assert weariness_penalty(aldo, "skill", rest) == 0
    assert weariness_penalty(aldo, "to_hit", rest) == 0
    assert weariness_penalty(Character(name="X", hp=1), "to_hit", journal.state.ruleset.rest) == 0


def test_ex_rest_1_an_hour_in_no_site_is_not_exploration(make_journal: MakeJournal) -> None:
    """EX-REST-1 (1 turn in 6 *when exploring*, EX-TIME-1): an hour in town makes no rest
    due and wearies no one."""
    journal = make_journal("ex")
    records = journal.execute(Wait(HOUR))
    kinds = [r.event.kind for r in records]
    assert "rest.due" not in kinds and "rest.wearied" not in kinds
    assert journal.state.rest.due_at is None and wearied(journal) == []
    # The hour outside does not count once in a site: 5 turns inside, then the rest is due.
    in_site(journal)
    explore(journal, 5)
    assert journal.state.rest.due_at == HOUR + 5 * TURN
    records = journal.execute(Turn(mode="cautious"))
    assert [r.at for r in records if r.event.kind == "rest.wearied"] == [HOUR + 6 * TURN]


def test_ex_rest_1_leaving_the_site_lapses_the_due_rest_and_resets_the_count(
    make_journal: MakeJournal,
) -> None:
    journal = in_site(make_journal("ex"))
    explore(journal, 5)
    assert journal.state.rest.due_at == 5 * TURN
    journal.execute(LeaveSite())
    records = journal.execute(Wait(HOUR))
    assert [r.at for r in records if r.event.kind == "rest.lapsed"] == [6 * TURN]
    assert "rest.wearied" not in [r.event.kind for r in records]
    assert journal.state.rest.due_at is None and wearied(journal) == []
    # Back inside, the count starts at the entry: 4 turns in, no rest due yet.
    in_site(journal)
    explore(journal, 4)
    assert journal.state.rest.due_at is None


def test_ex_rest_2_a_fight_s_rest_does_not_lapse_out_of_the_site(
    make_journal: MakeJournal,
) -> None:
    journal = in_site(make_journal("ex"))
    explore(journal, 5)  # due by the count of active turns...
    journal.execute(MarkFight())  # ...and by a fight: it must be taken, in the site or not
    journal.execute(LeaveSite())
    records = journal.execute(Wait(TURN))  # outside, sitting still a turn is that rest
    kinds = [r.event.kind for r in records]
    assert "rest.lapsed" not in kinds and "rest.done" in kinds and wearied(journal) == []


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
    draft = Draft(journal.state, HOOKS)
    forced_rest(draft, SeededDice(1))
    shortfalls = [e for e in draft.events if e.kind == "supply.shortfall"]
    assert {e.item for e in shortfalls} == {"rations", "water"}  # type: ignore[attr-defined]
    journal.execute(ForcedRest())
    assert journal.state.supplies.count("rations") == 0


def test_ex_rest_1_waiting_three_hours_in_a_site_is_resting(make_journal: MakeJournal) -> None:
    """The issue's case: `wait 3h` in a site used to count 18 turns of exploration, so a
    party that sat still for three hours ended up wearied (-2 skill, -4 to hit). Sitting
    still is resting: nobody is wearied and no rest is due after the wait."""
    journal = in_site(make_journal("ex"))
    records = journal.execute(Wait(3 * HOUR))
    kinds = [r.event.kind for r in records]
    assert "rest.wearied" not in kinds and "rest.due" not in kinds
    assert kinds[0] == "rest.started" and kinds[-1] == "rest.done"
    assert wearied(journal) == [] and journal.state.rest.due_at is None
    assert journal.state.site is not None and journal.state.site.turns == 18  # checks ran
    # The count of active turns starts at the wait's end: 5 more turns, then a rest is due.
    explore(journal, 5)
    assert journal.state.rest.due_at == 3 * HOUR + 5 * TURN


def test_ex_rest_3_a_wait_of_a_turn_recovers_weariness(make_journal: MakeJournal) -> None:
    """EX-REST-3: "until they spend a turn recovering": a wait of a full turn is that turn;
    a shorter wait is not, and the party stays wearied."""
    journal = in_site(make_journal("ex"))
    explore(journal, 6)
    assert wearied(journal) == ["Aldo", "Bea"]
    journal.execute(Wait(TURN // 2))
    assert wearied(journal) == ["Aldo", "Bea"]
    journal.execute(Wait(TURN))
    assert wearied(journal) == [] and journal.state.rest.due_at is None


def test_ex_rest_1_camping_in_a_site_is_a_rest_until_morning(make_journal: MakeJournal) -> None:
    """Camping in a site, a map loaded or not, is resting: the wearied recover by morning."""
    journal = in_site(make_journal("ex"))
    explore(journal, 6)
    assert wearied(journal) == ["Aldo", "Bea"]
    records = journal.execute(Camp())
    # the night is PG-HEAL-1's too: the evening meal, then the night's rest
    assert [r.event.describe() for r in records[:2]] == [
        "2 rations spent (the evening meal)",
        "the party rests (a night's rest)",
    ]
    assert wearied(journal) == [] and journal.state.date == "1-01-02 08:00"
    assert journal.state.site is not None and journal.state.site.turns == 6 + 138  # 09:00 to 08:00
