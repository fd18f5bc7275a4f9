"""Countdowns (DG-CD-1 to DG-CD-5, DG-FCD-1, DG-FCD-2) under the DG preset."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from tests.unit.conftest import PARTY

from turnkeeper.campaign import (
    CountdownAdd,
    CountdownEnd,
    CountdownOutcome,
    CountdownTick,
    CountdownTrigger,
    Damage,
    Journal,
    Wait,
    parse_party,
)
from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.scene_state import SceneKind
from turnkeeper.procedures.combat import StartFight
from turnkeeper.procedures.combat.roster import parse_monster
from turnkeeper.procedures.scenes import GmAct, OpenScene
from turnkeeper.rules.loader import preset

MakeJournal = Callable[..., Journal]
ROUND, EXPLORATION, DAY = 6, 600, 86400


def left(journal: Journal, name: str) -> int:
    return journal.state.countdown(name).left


def names(journal: Journal) -> list[str]:
    return [c.name for c in journal.state.countdowns]


def test_dg_cd_1_each_type_ticks_at_the_end_of_its_frame(make_journal: MakeJournal) -> None:
    journal = make_journal("dg")
    journal.execute(CountdownAdd("poison", "RC", "5"))
    journal.execute(CountdownAdd("patrol", "SC", "4"))
    journal.execute(CountdownAdd("curse", "DC", "3"))
    journal.execute(CountdownAdd("ritual", "GC", "2"))
    journal.execute(Wait(2 * ROUND))
    assert (left(journal, "poison"), left(journal, "patrol"), left(journal, "curse")) == (3, 4, 3)
    assert left(journal, "ritual") == 2  # generic: only when a rule says so
    journal.execute(CountdownTick("ritual"))
    assert left(journal, "ritual") == 1


def test_dg_cd_2_exploration_round_end_ends_rapid_countdowns(make_journal: MakeJournal) -> None:
    journal = make_journal("dg")
    journal.execute(CountdownAdd("poison", "RC", "1d8"), TypedDice([6]))
    journal.execute(Wait(2 * ROUND))
    assert left(journal, "poison") == 4  # the seed's example: 6, then 5, then 4 (DG-CD-5: an RC)
    journal.execute(CountdownAdd("sermon", "RC", "200"))
    records = journal.execute(Wait(EXPLORATION))
    assert names(journal) == []
    ended = [r for r in records if r.event.kind == "countdown.ended"][-1]
    assert ended.at == EXPLORATION and "longer frame" in ended.event.describe()


def test_dg_cd_2_day_end_ends_short_countdowns(make_journal: MakeJournal) -> None:
    journal = make_journal("dg")
    journal.execute(Wait(16 * 3600 - 3 * EXPLORATION))  # 23:30
    journal.execute(CountdownAdd("patrol", "SC", "10"))
    journal.execute(CountdownAdd("curse", "DC", "3"))
    records = journal.execute(Wait(4 * EXPLORATION))
    assert names(journal) == ["curse"] and left(journal, "curse") == 2
    ticks = [r.at for r in records if r.event.kind == "countdown.ticked"]
    midnight = 16 * 3600
    # the SC ticked at 23:40, 23:50, 00:00, then the DC at 00:00; nothing at 00:10
    assert ticks == [midnight - 2 * EXPLORATION, midnight - EXPLORATION, midnight, midnight]
    ended = [r.at for r in records if r.event.kind == "countdown.ended"]
    assert ended == [midnight]  # the day's end ended the SC (DG-CD-2)


def test_dg_cd_2_a_longer_countdown_ticked_by_hand_ends_every_shorter_one(
    make_journal: MakeJournal,
) -> None:
    """DG-CD-2, "When a longer-lasting countdown ticks, all shorter-lasting countdowns end":
    an extra tick by hand of DC(3) ends RC(5) and SC(4) at once, though no day has ended; a
    generic countdown lasts no time frame, so it is neither longer nor shorter and runs on."""
    journal = make_journal("dg")
    journal.execute(CountdownAdd("poison", "RC", "5"))
    journal.execute(CountdownAdd("patrol", "SC", "4"))
    journal.execute(CountdownAdd("ritual", "GC", "2"))
    journal.execute(CountdownAdd("curse", "DC", "3"))
    records = journal.execute(CountdownTick("curse"))
    assert names(journal) == ["ritual", "curse"]
    assert (left(journal, "curse"), left(journal, "ritual")) == (2, 2)
    ended = [r.event.describe() for r in records if r.event.kind == "countdown.ended"]
    assert ended == [
        "countdown poison ends (a longer countdown, curse, ticked)",
        "countdown patrol ends (a longer countdown, curse, ticked)",
    ]
    journal.execute(CountdownAdd("fuse", "RC", "5"))
    journal.execute(CountdownTick("ritual"))  # a generic tick ends nothing
    assert names(journal) == ["ritual", "curse", "fuse"]


def test_dg_cd_2_a_short_countdown_ticked_by_hand_ends_the_rapid_not_the_day(
    make_journal: MakeJournal,
) -> None:
    """DG-CD-2: SC(4) ticked by hand ends the shorter RC(5); the longer DC(3) runs on."""
    journal = make_journal("dg")
    journal.execute(CountdownAdd("poison", "RC", "5"))
    journal.execute(CountdownAdd("curse", "DC", "3"))
    journal.execute(CountdownAdd("patrol", "SC", "4"))
    journal.execute(CountdownTick("patrol", 2))
    assert names(journal) == ["curse", "patrol"]
    assert (left(journal, "curse"), left(journal, "patrol")) == (3, 2)


def test_dg_cd_2_the_frame_end_reading_is_a_ruleset_option(make_journal: MakeJournal) -> None:
    """DG-CD-2 read the other way (countdowns.longer_ticks_end_shorter = "frame_end"): only
    the end of a longer time frame ends shorter countdowns; a tick by hand of DC(3) ends
    none, and the exploration round's end still ends the rapid one."""
    rules = preset("dg")
    countdowns = rules.countdowns.model_copy(update={"longer_ticks_end_shorter": "frame_end"})
    journal = Journal.start(
        "test", rules.model_copy(update={"countdowns": countdowns}), parse_party(PARTY), 1
    )
    journal.execute(CountdownAdd("poison", "RC", "5"))
    journal.execute(CountdownAdd("curse", "DC", "3"))
    journal.execute(CountdownTick("curse"))
    assert names(journal) == ["poison", "curse"] and left(journal, "curse") == 2
    journal.execute(Wait(EXPLORATION))
    assert names(journal) == ["curse"]


def test_dg_cd_3_length_rolled_at_start_and_recorded(make_journal: MakeJournal) -> None:
    journal = make_journal("dg")
    (record,) = journal.execute(CountdownAdd("fuse", "SC", "1d8"), TypedDice([6]))
    assert left(journal, "fuse") == 6
    assert record.event.rolls[0].breakdown == "1d8 (6) = 6" and record.event.rolls[0].typed_in


# rule: DG-CD-4
def test_dg_cd_4_suffocating_ticks_on_wounds_and_actions_then_wounds(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal("dg")
    suffocating = CountdownAdd(
        "suffocating", "RC", "CON", subject="Aldo", listens=("wound", "action"), after_end="wound"
    )
    with pytest.raises(IllegalCommandError, match="no value given for CON"):
        journal.execute(suffocating)  # RC(body): the subject's stat; Aldo has no CON
    journal.execute(replace(suffocating, length="STR"))  # Aldo's STR is 2
    assert left(journal, "suffocating") == 2
    journal.execute(Damage("Aldo", 1))
    assert left(journal, "suffocating") == 1
    journal.execute(CountdownTrigger("action", "Aldo"))
    assert journal.state.countdown("suffocating").spent
    records = journal.execute(Wait(ROUND))
    assert [r.event.kind for r in records if r.event.kind.startswith("countdown")] == [
        "countdown.precision_wound"
    ]


# rule: DG-CD-4
def test_dg_cd_4_a_scene_creature_and_a_fights_monster_may_suffocate(
    make_journal: MakeJournal,
) -> None:
    """DG-CD-4: "A creature who is suffocating starts a Countdown: RC(body). Taking a wound or
    taking an action ticks the countdown by 1": any creature, not only a character. The
    scene's ogre (RC(4)) ticks to 3 on its GM action; the fight's eel (body: CON 3), named
    in any case, to 2 on a wound; a name nobody answers to is one error naming who does."""
    suffocating = CountdownAdd(
        "suffocating", "RC", "4", subject="ogre", listens=("wound", "action"), after_end="wound"
    )
    journal = make_journal("dg")
    scene = OpenScene(SceneKind.COMBAT, players=("Aldo",), creatures=("ogre",), gm_first=True)
    journal.execute(scene)
    journal.execute(suffocating)
    journal.execute(GmAct("the ogre heaves at the door", creature="ogre"))
    assert left(journal, "suffocating") == 3

    journal = make_journal("dg")
    journal.execute(StartFight(foes=tuple(parse_monster("Eel:hd=1,hp=9,ac=10,CON=3"))))
    journal.execute(replace(suffocating, length="CON", subject="eel"))
    assert left(journal, "suffocating") == 3
    journal.execute(Damage("Eel", 1))
    assert left(journal, "suffocating") == 2
    with pytest.raises(IllegalCommandError, match=r"no creature called 'ogre'.*\(Aldo, Bea, Eel\)"):
        journal.execute(replace(suffocating, name="other", subject="ogre"))


def test_dg_fcd_1_four_outcomes(make_journal: MakeJournal) -> None:
    journal = make_journal("dg")
    journal.execute(CountdownAdd("chase", "GC", "10", failure="10"))
    expected = {"-2": (10, 8), "partial": (9, 7), "0": (8, 7), "+1": (6, 7)}
    for outcome, (regular, failure) in expected.items():
        journal.execute(CountdownOutcome("chase", outcome))
        assert (left(journal, "chase"), left(journal, "chase (failure)")) == (regular, failure)


def test_dg_fcd_2_failure_countdown_running_out_first_fails_the_task(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal("dg")
    journal.execute(CountdownAdd("pick lock", "GC", "3", failure="2"))
    records = journal.execute(CountdownOutcome("pick lock", "failure"))
    resolved = [r.event for r in records if r.event.kind == "countdown.task_resolved"]
    assert [e.describe() for e in resolved] == ["task pick lock failed"]
    assert names(journal) == []


def test_dg_fcd_2_regular_countdown_running_out_first_succeeds(make_journal: MakeJournal) -> None:
    journal = make_journal("dg")
    journal.execute(CountdownAdd("climb", "GC", "2", failure="3"))
    journal.execute(CountdownOutcome("climb", "partial"))
    records = journal.execute(CountdownOutcome("climb", "partial"))
    resolved = [r.event.describe() for r in records if r.event.kind == "countdown.task_resolved"]
    assert resolved == ["task climb succeeded"] and names(journal) == []


def test_failure_countdowns_tick_only_on_outcomes(make_journal: MakeJournal) -> None:
    journal = make_journal("dg")
    journal.execute(CountdownAdd("craft", "DC", "3", failure="2"))
    journal.execute(Wait(16 * 3600))
    assert (left(journal, "craft"), left(journal, "craft (failure)")) == (2, 2)


@pytest.mark.parametrize(
    "command",
    [CountdownAdd("x", "XC", "3"), CountdownAdd("x", "SC", "0"), CountdownAdd("x", "SC", "d"),
     CountdownTick("nope"), CountdownEnd("nope"), CountdownOutcome("lone", "success"),
     CountdownOutcome("pair", "fumble"), CountdownAdd("lone", "SC", "2"),
     CountdownTick("lone", 0), CountdownTick("lone", 1001), CountdownTrigger("wound")],
)  # fmt: skip
def test_illegal_countdown_commands_change_nothing(
    make_journal: MakeJournal, command: object
) -> None:
    journal = make_journal("dg")
    journal.execute(CountdownAdd("lone", "SC", "3"))
    journal.execute(CountdownAdd("pair", "SC", "3", failure="3"))
    state = journal.state
    with pytest.raises(IllegalCommandError):
        journal.execute(command)  # type: ignore[arg-type]
    assert journal.state == state


def test_ending_a_countdown_by_hand_ends_its_failure_partner(make_journal: MakeJournal) -> None:
    journal = make_journal("dg")
    journal.execute(CountdownAdd("chase", "RC", "4", failure="3"))
    journal.execute(CountdownEnd("chase"))
    assert names(journal) == []


def test_dg_fcd_1_a_failure_countdown_ends_with_its_type_s_longer_frame(
    make_journal: MakeJournal,
) -> None:
    """rule: DG-FCD-1 - a rapid pair never ticks on time but ends with the exploration round."""
    journal = make_journal("dg")
    journal.execute(CountdownAdd("chase", "RC", "10", failure="10"))
    journal.execute(CountdownOutcome("chase", "partial"))
    journal.execute(Wait(ROUND))
    assert (left(journal, "chase"), left(journal, "chase (failure)")) == (8, 9)
    journal.execute(Wait(EXPLORATION))
    assert names(journal) == []


def test_dg_cd_1_wait_1m_ticks_a_rapid_countdown_as_rounds_of_one_kind(
    make_journal: MakeJournal,
) -> None:
    """DG-CD-1: an RC "ticks at the end of a combat round or social round", and a round is
    of one kind (DG-RND-1): a minute out of any scene is 10 combat rounds of 6 s, 10 ticks,
    not 11 (the social round of the same minute counted too); in an open social scene the
    minute is one social round, 1 tick."""
    journal = make_journal("dg")
    journal.execute(CountdownAdd("fuse", "RC", "20"))
    records = journal.execute(Wait(60))
    assert len([r for r in records if r.event.kind == "countdown.ticked"]) == 10
    assert left(journal, "fuse") == 10
    journal.execute(OpenScene(SceneKind.SOCIAL, ("freya",)))
    journal.execute(Wait(60))
    assert left(journal, "fuse") == 9


def test_dg_cd_4_a_suffocating_creature_takes_a_wound_a_combat_round_not_two(
    make_journal: MakeJournal,
) -> None:
    """DG-CD-4: once the RC runs out, "1 precision wound whenever the countdown would tick":
    in a combat scene a minute is 10 rounds, 10 wounds; the social round ending at the same
    instant as the 10th combat round no longer adds an 11th."""
    journal = make_journal("dg")
    journal.execute(CountdownAdd("suffocating", "RC", "1", subject="Aldo", after_end="wound"))
    journal.execute(CountdownTick("suffocating"))
    assert journal.state.countdown("suffocating").spent
    journal.execute(OpenScene(SceneKind.COMBAT, ("freya",)))
    records = journal.execute(Wait(60))
    assert len([r for r in records if r.event.kind == "countdown.precision_wound"]) == 10
