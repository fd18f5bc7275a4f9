"""Surprise by movement mode (EX-SUR-*), in six (PG-SUR-1), opposed (CB-SUR-*), EX-LIGHT-3."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnkeeper.dice import SeededDice, TypedDice
from turnkeeper.procedures.surprise import (
    Approach,
    SurpriseSituation,
    contested_check,
    in_six,
    mutual_check,
    settle_surprise,
)
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import Side

EX = preset("ex")
MODES = EX.dungeon.movement


def situation(mode: str, **kw: object) -> SurpriseSituation:
    return SurpriseSituation(mode_name=mode, mode=MODES[mode], **kw)  # type: ignore[arg-type]


def test_ex_sur_1_cautious_party_is_not_surprised_without_rolling() -> None:
    result = settle_surprise(EX.surprise, situation("cautious"), TypedDice([]))
    assert not result.party_surprised and result.rolls == () and result.rule == "EX-SUR-1"


def test_ex_sur_1_ambush_on_a_cautious_party_is_uncertain() -> None:
    # foes 2d6 (6, 5) = 11 beat the party's 2d6 (2, 3) = 5: the ambush surprises
    result = settle_surprise(
        EX.surprise, situation("cautious", approach=Approach.AMBUSH), TypedDice([6, 5, 2, 3])
    )
    assert result.party_surprised and result.rule == "EX-SUR-1" and len(result.rolls) == 2


def test_ex_sur_2_swift_party_risks_surprise_entering_an_occupied_place() -> None:
    entering = situation("swift", approach=Approach.ENTERING)
    assert settle_surprise(EX.surprise, entering, TypedDice([6, 6, 1, 1])).party_surprised
    assert not settle_surprise(EX.surprise, entering, TypedDice([1, 1, 6, 6])).party_surprised
    assert settle_surprise(EX.surprise, entering, TypedDice([1, 1, 6, 6])).rule == "EX-SUR-2"


def test_ex_sur_3_running_party_is_always_surprised() -> None:
    result = settle_surprise(EX.surprise, situation("running"), TypedDice([]))
    assert result.party_surprised and result.rule == "EX-SUR-3"
    assert result.free_round is Side.OPPOSITION


def test_ex_sur_4_concealed_side_must_beat_not_tie() -> None:
    # DEX/Stealth +1 against WIS/Scout +0: 2d6 (3, 3) + 1 = 7 against 2d6 (4, 3) = 7: a tie
    won, sneak, spot = contested_check(1, 0, TypedDice([3, 3, 4, 3]))
    assert (sneak.total, spot.total, won) == (7, 7, False)
    won, _, _ = contested_check(1, 0, TypedDice([3, 4, 4, 3]))
    assert won


def test_ex_sur_4_both_may_be_surprised_difficulty_9() -> None:
    # each member rolls 2d6 + WIS/Scout; 9 or more is not surprised
    losers, rolls = mutual_check([("Ana", 0), ("Bo", 1)], 9, TypedDice([4, 4, 4, 4]))
    assert [r.total for r in rolls] == [8, 9] and losers == ("Ana",)
    s = situation("swift", both_may_be_surprised=True, party_notice_each=(("Ana", 0), ("Bo", 1)))
    result = settle_surprise(EX.surprise, s, TypedDice([4, 4, 4, 4, 1, 1]))
    assert result.surprised_members == ("Ana",) and not result.party_surprised
    assert result.foes_surprised and result.foes_surprised_count == 1 and result.rule == "EX-SUR-4"


def test_ex_sur_5_hungry_foe_with_surprise_gets_reaction_minus_2() -> None:
    hungry = settle_surprise(EX.surprise, situation("running", foes_hungry=True), TypedDice([]))
    assert hungry.reaction_modifier == -2
    fed = settle_surprise(EX.surprise, situation("running"), TypedDice([]))
    assert fed.reaction_modifier == 0


def test_ex_light_3_a_party_bearing_light_never_surprises_foes_in_darkness() -> None:
    lying_in_wait = situation("cautious", approach=Approach.PARTY_AMBUSH, party_has_light=True)
    result = settle_surprise(EX.surprise, lying_in_wait, TypedDice([]))
    assert not result.foes_surprised and "EX-LIGHT-3" in result.reason
    dark = situation("cautious", approach=Approach.PARTY_AMBUSH, party_has_light=False)
    assert settle_surprise(EX.surprise, dark, TypedDice([6, 6, 1, 1])).foes_surprised
    lit_foes = situation(
        "cautious", approach=Approach.PARTY_AMBUSH, party_has_light=True, foes_in_darkness=False
    )
    assert settle_surprise(EX.surprise, lit_foes, TypedDice([6, 6, 1, 1])).foes_surprised


def test_pg_sur_1_unaware_group_surprised_on_2_in_6() -> None:
    assert [in_six(2, TypedDice([face]))[0] for face in range(1, 7)] == [
        True, True, False, False, False, False
    ]  # fmt: skip
    pg = preset("pg")
    aware = settle_surprise(pg.surprise, SurpriseSituation(party_aware=True), TypedDice([1]))
    assert not aware.party_surprised and aware.foes_surprised and len(aware.rolls) == 1
    assert aware.free_round is Side.PARTY and aware.rule == "PG-SUR-1"


def test_pg_sur_1_rate_is_one_third() -> None:
    dice = SeededDice(5)
    hits = sum(in_six(2, dice)[0] for _ in range(6000))
    assert abs(Fraction(hits, 6000) - Fraction(1, 3)) < Fraction(1, 30)


def test_cb_sur_1_attackers_sneak_against_notice_d20() -> None:
    cb = preset("cb")
    foes_attack = SurpriseSituation(foe_stealth=2, party_notice=0)
    result = settle_surprise(cb.surprise, foes_attack, TypedDice([11, 12]))
    assert result.party_surprised and result.rule == "CB-SUR-1"
    assert [r.expression for r in result.rolls] == ["d20 + STEALTH", "d20 + NOTICE"]
    tie = settle_surprise(cb.surprise, foes_attack, TypedDice([10, 12]))
    assert not tie.party_surprised


def test_cb_sur_2_surprised_undisciplined_group_checks_morale() -> None:
    rules = preset("cb").surprise.model_copy(update={"morale_when_surprised": True})
    ambush = SurpriseSituation(approach=Approach.PARTY_AMBUSH, foes_undisciplined=True)
    assert settle_surprise(rules, ambush, TypedDice([20, 1])).morale_check
    drilled = SurpriseSituation(approach=Approach.PARTY_AMBUSH)
    assert not settle_surprise(rules, drilled, TypedDice([20, 1])).morale_check


@given(st.integers(-3, 3), st.integers(-3, 3), st.integers(0, 2**32))
def test_contested_check_is_strictly_higher(stealth: int, notice: int, seed: int) -> None:
    won, sneak, spot = contested_check(stealth, notice, SeededDice(seed))
    assert won == (sneak.total > spot.total)


def test_ex_sur_1_a_cautious_party_unaware_of_the_foes_is_still_not_surprised() -> None:
    """EX-SUR-1: "Adventurers in cautious movement cannot be surprised unless the foes leap on
    them from ambush or otherwise have some great advantage in concealment"; EX-SUR-4's "both
    groups might be surprised" does not lift that. Ana and Bo roll nothing and lose nothing;
    the foe rolls WIS/Scout 2d6 (4, 4) = 8 against 9 and is surprised."""
    both = situation(
        "cautious", both_may_be_surprised=True, party_notice_each=(("Ana", 0), ("Bo", 1))
    )
    result = settle_surprise(EX.surprise, both, TypedDice([4, 4]))
    assert not result.party_surprised and result.surprised_members == ()
    assert [r.total for r in result.rolls] == [8] and result.roll_names == ("foe 1's Scout",)
    assert result.foes_surprised and "cannot be surprised (EX-SUR-1)" in result.reason
    # EX-SUR-3: "Those in running movement are always surprised": both unaware, still so
    running = settle_surprise(
        EX.surprise, replace(both, mode_name="running", mode=MODES["running"]), TypedDice([6, 6])
    )
    assert running.party_surprised and running.surprised_members == ("Ana", "Bo")
    assert not running.foes_surprised and len(running.rolls) == 1
    # EX-SUR-1's exception stands: from ambush, the cautious party rolls as well
    ambushed = settle_surprise(
        EX.surprise, replace(both, approach=Approach.AMBUSH), TypedDice([4, 4, 4, 4, 4, 4])
    )
    assert ambushed.surprised_members == ("Ana",) and len(ambushed.rolls) == 3


@pytest.mark.parametrize(
    ("at_rest", "surprised", "rolled"),
    [("risk", True, 2), ("never", False, 0), ("always", True, 0)],
)
def test_ex_sur_1_a_party_at_rest_is_read_by_the_ruleset(
    at_rest: str, surprised: bool, rolled: int
) -> None:
    """EX-SUR-1 to EX-SUR-3 name the pace of a moving party; a party resting or waiting has
    none, and how it meets what comes is the project's reading, a ruleset key
    (``surprise.at_rest``, DEFAULT "risk": "when one group comes suddenly on another, there
    is a chance of surprise", the EX-SUR-4 contest). The rats' 2d6 (6, 5) = 11 beat the
    party's 2d6 (2, 3) = 5 under "risk"; "never" reads the party at rest as cautious."""
    assert EX.surprise.at_rest == "risk"
    rules = EX.surprise.model_copy(update={"at_rest": at_rest})
    result = settle_surprise(rules, SurpriseSituation(still=True), TypedDice([6, 5, 2, 3]))
    assert (result.party_surprised, len(result.rolls)) == (surprised, rolled)
    assert "the party at rest" in result.reason
    # a pace nobody knows (not resting) stays uncertain, whatever the key
    assert len(settle_surprise(rules, SurpriseSituation(), TypedDice([6, 5, 2, 3])).rolls) == 2
