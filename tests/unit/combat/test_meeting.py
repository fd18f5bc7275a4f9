"""Surprise when a fight is started by hand: how the groups met, by the texts' rules.

EX-SUR-1 to EX-SUR-4 are settled by the shared surprise procedure the dungeon turn uses,
told the meeting (an encounter, an occupied place entered, an ambush, both unaware) and the
party's movement mode; CB-SUR-2's morale check is for every undisciplined group of
non-player characters that is surprised, the party's hirelings too.
"""

from __future__ import annotations

import pytest

from turnkeeper.campaign import Character, Journal, Party
from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.combat import (
    CombatState,
    Condition,
    Side,
    StartCombat,
    StartFight,
    execute,
)
from turnkeeper.procedures.combat.events import MoraleChecked, SurpriseSettled
from turnkeeper.procedures.dungeon import EnterSite, Turn
from turnkeeper.procedures.surprise import Meeting
from turnkeeper.rules.loader import preset
from turnkeeper.world.sites import parse_site

CRYPT = parse_site('[site]\nname = "Crypt"\nwandering = false\n[[levels]]\nnumber = 1\n')


def _party() -> Party:
    return Party(
        characters=(
            Character(name="Ana", hp=6, stats={"DEX": 1, "WIS": 0}),
            Character(name="Bo", hp=8, stats={"WIS": 1}),
        )
    )


def _journal(ruleset: str = "ex") -> Journal:
    return Journal.start("t", preset(ruleset), _party(), 1)


def _surprise(journal: Journal, fight: StartFight, faces: list[int]) -> SurpriseSettled:
    records = journal.execute(fight, TypedDice(faces))
    return next(r.event for r in records if isinstance(r.event, SurpriseSettled))


def _ghoul(pc, foe, **kw):  # type: ignore[no-untyped-def]
    return foe("Ghoul", stats={"DEX": 1, "WIS": 0}, **kw)


def test_ex_sur_3_a_running_party_is_always_surprised_in_a_fight_begun_by_hand(foe) -> None:
    """EX-SUR-3: "Those in running movement are always surprised whenever they encounter
    others": the fight started by hand with the party running loses the first round to the
    ghoul, and no die is rolled for it."""
    settled = _surprise(_journal(), StartFight(foes=(foe("Ghoul"),), mode="running"), [])
    assert settled.surprised == (Side.PARTY,) and settled.free_round is Side.OPPOSITION
    assert "EX-SUR-3" in settled.reason


def test_ex_sur_3_a_fight_begun_by_hand_in_a_site_takes_the_partys_pace(foe) -> None:
    """EX-SUR-3: the party's last turn in the site was running, so a fight the referee starts
    without naming the pace finds the party running, and surprised."""
    journal = _journal()
    journal.execute(EnterSite(CRYPT))
    journal.execute(Turn(mode="running"), TypedDice([]))
    settled = _surprise(journal, StartFight(foes=(foe("Ghoul"),)), [])
    assert settled.surprised == (Side.PARTY,)


def test_ex_sur_1_a_cautious_party_is_surprised_only_from_ambush(pc, foe) -> None:
    """EX-SUR-1: "Adventurers in cautious movement cannot be surprised unless the foes leap on
    them from ambush": met cautiously, nobody is surprised and nothing is rolled; from
    ambush, the ghoul's DEX/Stealth 2d6 (5, 4) + 1 = 10 beats Bo's WIS/Scout (3, 4) + 1 = 8
    (EX-SUR-4), and the party is surprised; with (2, 3) + 1 = 6 it is not."""
    ghoul = _ghoul(pc, foe)
    met = _surprise(_journal(), StartFight(foes=(ghoul,), mode="cautious"), [])
    assert met.surprised == () and not met.rolls and "EX-SUR-1" in met.reason
    ambush = StartFight(foes=(ghoul,), mode="cautious", meeting=Meeting.AMBUSH)
    leapt = _surprise(_journal(), ambush, [5, 4, 3, 4])
    assert leapt.surprised == (Side.PARTY,) and [r.total for r in leapt.rolls] == [10, 8]
    assert _surprise(_journal(), ambush, [2, 3, 3, 4]).surprised == ()


def test_ex_sur_2_a_swift_party_moving_into_an_occupied_place_risks_surprise(pc, foe) -> None:
    """EX-SUR-2: "Those in swift movement risk surprise whenever their movement carries them
    into an occupied place": the ghoul's 2d6 (3, 3) + 1 = 7 ties Bo's (3, 3) + 1 = 7, and the
    concealed party must beat it (EX-SUR-4): no surprise; (4, 3) + 1 = 8 beats it."""
    into = StartFight(foes=(_ghoul(pc, foe),), mode="swift", meeting=Meeting.OCCUPIED)
    assert _surprise(_journal(), into, [3, 3, 3, 3]).surprised == ()
    settled = _surprise(_journal(), into, [4, 3, 3, 3])
    assert settled.surprised == (Side.PARTY,) and "EX-SUR-2" in settled.reason


def test_ex_sur_4_both_unaware_any_who_lose_against_9_are_surprised(pc, foe) -> None:
    """EX-SUR-4: "let both groups make WIS/Scout checks against a difficulty 9, and any who
    lose are surprised": Ana 2d6 (4, 4) + 0 = 8 loses, Bo (4, 4) + 1 = 9 holds; Ghoul 1
    (5, 4) = 9 holds, Ghoul 2 (2, 2) = 4 loses. Neither side as a whole is surprised: Ana
    and Ghoul 2 each lose the first round."""
    ghouls = (foe("Ghoul 1"), foe("Ghoul 2"))
    journal = _journal()
    both = StartFight(foes=ghouls, meeting=Meeting.BOTH_UNAWARE)
    settled = _surprise(journal, both, [4, 4, 4, 4, 5, 4, 2, 2])
    assert settled.surprised == () and settled.members == ("Ana", "Ghoul 2")
    combat = journal.state.combat
    assert combat is not None
    assert Condition.SURPRISED in combat.get("Ana").conditions
    assert Condition.SURPRISED in combat.get("Ghoul 2").conditions
    assert Condition.SURPRISED not in combat.get("Bo").conditions


def test_ex_sur_1_with_no_pace_known_a_fight_by_hand_surprises_nobody(foe) -> None:
    """EX-SUR-1 to EX-SUR-3 hang on the party's pace ("Adventurers in cautious movement"):
    outside a site, with no mode named and no meeting told, the fight starts with nobody
    surprised and no die rolled."""
    assert _surprise(_journal(), StartFight(foes=(foe("Ghoul"),)), []).surprised == ()


def test_ex_sur_1_a_pace_or_meeting_that_cannot_apply_is_refused(foe) -> None:
    """EX-SUR-1: a mode the ruleset lacks, a mode under a ruleset without surprise by
    movement, and a meeting told beside surprise given by hand: one clear error each."""
    ghoul = (foe("Ghoul"),)
    with pytest.raises(IllegalCommandError, match="modes: cautious, swift, running"):
        _journal().execute(StartFight(foes=ghoul, mode="flying"), TypedDice([]))
    with pytest.raises(IllegalCommandError, match="movement mode"):
        _journal("pg").execute(StartFight(foes=ghoul, mode="running"), TypedDice([]))
    by_hand = StartFight(foes=ghoul, surprised=frozenset(), meeting=Meeting.AMBUSH)
    with pytest.raises(IllegalCommandError, match="already given by hand"):
        _journal().execute(by_hand, TypedDice([]))
    with pytest.raises(IllegalCommandError, match="say one of encounter, occupied"):
        Meeting.parse("sneak attack", "--meeting")


def test_cb_sur_1_foes_in_ambush_are_the_attackers(pc, foe) -> None:
    """CB-SUR-1: "Attackers always try to achieve surprise": under cb, foes leaping from
    ambush are the attackers: the orc's d20 10 + DEX 2 = 12 beats Bo's 5 + WIS 1 = 6."""
    orc = foe("Orc", stats={"DEX": 2})
    settled = _surprise(_journal("cb"), StartFight(foes=(orc,), meeting=Meeting.AMBUSH), [10, 5])
    assert settled.surprised == (Side.PARTY,) and settled.free_round is Side.OPPOSITION


def test_cb_sur_2_undisciplined_hirelings_check_morale_when_the_party_is_surprised(pc, foe) -> None:
    """CB-SUR-2: "If a group of undisciplined and/or poorly trained non-player characters is
    surprised, the referee might make a Morale check for them": the party's hired torchbearer
    is such a one. The orc's d20 15 + DEX 2 = 17 beats Ann's 3: the party is surprised, and
    the torchbearer's 2d6 (5, 4) = 9 is over his morale 6: he flees; Ann checks nothing."""
    hireling = pc("Torchbearer", disciplined=False, morale=6)
    start = StartCombat(
        (pc("Ann"), hireling, foe("Orc", stats={"DEX": 2})), attackers=Side.OPPOSITION
    )
    state, events = execute(CombatState(), start, preset("cb"), TypedDice([15, 3, 5, 4]))
    morale = events[-1]
    assert isinstance(morale, MoraleChecked) and morale.names == ("Torchbearer",)
    assert not morale.holds and Condition.FLED in state.get("Torchbearer").conditions
    assert Condition.FLED not in state.get("Ann").conditions
