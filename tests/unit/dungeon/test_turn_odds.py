"""Exact odds of the turn procedure, checked against formulas and a simulation."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnkeeper.analysis.turn_odds import turn_odds
from turnkeeper.dice import SeededDice
from turnkeeper.errors import NotFoundError
from turnkeeper.rules.loader import preset
from turnkeeper.tables import roll_overloaded


def test_ex_enc_1_an_hour_of_cautious_movement() -> None:
    """rule: EX-ENC-1 - 3 checks an hour at 1 in 6: at least one encounter 1 - (5/6)^3."""
    odds = turn_odds(preset("ex"), mode="cautious")
    encounter = odds.event("encounter")
    assert odds.turns == 6 and encounter.at_least_one == Fraction(91, 216)
    assert encounter.expected == Fraction(1, 2) and encounter.per_turn == Fraction(1, 12)


def test_ex_enc_4_running_hour_at_3_in_6() -> None:
    odds = turn_odds(preset("ex"), mode="running")
    assert odds.event("encounter").at_least_one == 1 - Fraction(1, 2) ** 3
    assert (
        turn_odds(preset("ex"), mode="swift", noisy=True).event("encounter").at_least_one
        == 1 - Fraction(2, 3) ** 3
    )


def test_tp_dun_1_each_face_one_in_six_every_turn() -> None:
    odds = turn_odds(preset("tp"), turns=6)
    for name in ("encounter", "dungeon_rouses", "waning_resources", "forced_rest", "slumber"):
        rate = odds.event(name)
        assert rate.per_turn == Fraction(1, 6) and rate.expected == 1
        assert rate.at_least_one == 1 - Fraction(5, 6) ** 6


def test_tp_enc_2_torch_lasts_until_waning_resources() -> None:
    """rule: TP-ENC-2 - no fixed duration: a torch burns 1/p = 6 turns on average."""
    odds = turn_odds(preset("tp"))
    torch = odds.light_source("torch")
    assert torch.expected_turns == 6 and torch.fixed_turns is None
    assert torch.lasts_span == Fraction(5, 6) ** 5


def test_ex_light_1_torch_lasts_3_turns_fixed() -> None:
    odds = turn_odds(preset("ex"))
    assert odds.light_source("torch").expected_turns == 3
    assert odds.light_source("lamp").expected_turns == 6  # EX-LIGHT-2
    assert odds.rest_turns == 1  # EX-REST-1: 1 turn in 6


def test_ex_rest_2_running_hour_makes_three_rests_due() -> None:
    assert turn_odds(preset("ex"), mode="running").rest_turns == 3


def test_tp_dun_1_simulated_rate_matches_the_exact_one() -> None:
    rules = preset("tp")
    die = rules.dice["dungeon"]
    dice = SeededDice(2024)
    n = 12000
    hits = sum(roll_overloaded(die, dice).face.event.value == "encounter" for _ in range(n))
    exact = turn_odds(rules, turns=1).event("encounter").per_turn
    assert abs(Fraction(hits, n) - exact) < Fraction(1, 60)


@settings(deadline=None)  # 30 turns of exact odds take ~0.2 s on a loaded machine
@given(st.sampled_from(["tp", "ex", "pg"]), st.integers(1, 30))
def test_counts_are_a_distribution(ruleset: str, turns: int) -> None:
    for rate in turn_odds(preset(ruleset), turns=turns).events:
        assert sum(rate.counts.values()) == 1
        assert sum(k * p for k, p in rate.counts.items()) == rate.expected


def test_unknown_mode_names_the_modes() -> None:
    with pytest.raises(NotFoundError, match="modes: cautious, swift, running"):
        turn_odds(preset("ex"), mode="flying")
