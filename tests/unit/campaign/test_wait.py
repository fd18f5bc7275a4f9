"""Wait: a scheduler over the frame ends in a span, running the hook list at each."""

from __future__ import annotations

from collections.abc import Callable

from turnkeeper.campaign import CountdownAdd, Journal, Light, MarkRunning, Rest, Wait
from turnkeeper.campaign.hooks import HOOKS
from turnkeeper.clock import Boundary
from turnkeeper.dice import DiceSource, SeededDice
from turnkeeper.kernel.events import NoteMade
from turnkeeper.kernel.schedule import Draft, Hook, wait

MakeJournal = Callable[..., Journal]
TURN = 600


def test_a_long_wait_fires_everything_due_in_time_order(make_journal: MakeJournal) -> None:
    """rule: TP-TIME-2: every turn that passes with something in it is recorded, in order."""
    journal = make_journal("ex")
    journal.execute(Light("torch"))
    journal.execute(CountdownAdd("patrol", "SC", "2"))
    journal.execute(CountdownAdd("omen", "DC", "2"))
    journal.execute(MarkRunning())  # EX-REST-2: a rest due now, in a site or not
    records = journal.execute(Wait(2 * 86400))
    at = {(r.event.kind, r.at) for r in records}
    # days pass out of a site: the torch is put out as they begin, never burnt by dungeon
    # turns in town (issue 39); the rest owed for running is the wait's first turn
    assert ("light.out", 0) in at and ("rest.done", 36000) in at
    meals = [r.at for r in records if getattr(r.event, "fed", ())]  # the day's meal, 18:00
    assert meals == [36000, 36000 + 86400]
    assert "rest.wearied" not in {kind for kind, _ in at}  # waiting is resting (EX-REST-1)
    # EX-REST-1: hours in no site are not exploration turns: no rest falls due by them.
    assert "rest.due" not in {kind for kind, _ in at}
    assert ("countdown.ended", 2 * TURN) in at  # the SC ran out after 2 exploration rounds
    midnight = 16 * 3600
    assert [r.at for r in records if r.event.kind == "countdown.ticked"][-2:] == [
        midnight,
        midnight + 86400,
    ]
    times = [r.at for r in records]
    assert times == sorted(times) and times[-1] == 2 * 86400
    assert journal.state.now == 2 * 86400 and journal.state.countdowns == ()


def test_quiet_boundaries_are_not_recorded(make_journal: MakeJournal) -> None:
    journal = make_journal("ex")  # outside a site: no light, no countdowns
    journal.execute(Rest())
    records = journal.execute(Wait(4 * 600))  # four quiet turns (and no rest cadence here)
    assert [r.event.kind for r in records] == ["clock.advanced"]


def test_a_new_hook_runs_at_its_frames_without_changing_wait(make_journal: MakeJournal) -> None:
    """The dungeon and wilderness procedures add per-turn or per-watch checks as hooks."""
    seen: list[int] = []

    def check(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
        seen.append(boundary.at)
        draft.add(NoteMade(text=f"watch check {dice.die(6)}"))

    watch_check = Hook("watch check", lambda state: frozenset({"watch"}), check)
    draft = Draft(make_journal("tp").state, (*HOOKS, watch_check))
    wait(draft, 86400, SeededDice(1))
    assert seen == [4 * 3600 * i for i in range(1, 7)]
    notes = [e for e in draft.events if e.kind == "note.made"]
    assert len(notes) == 6 and draft.state.now == 86400
