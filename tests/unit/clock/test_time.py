"""The clock: time scales per ruleset, the calendar, durations and frame boundaries."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnkeeper.clock import (
    Scales,
    boundaries,
    calendar,
    day_number,
    format_duration,
    parse_duration,
    start_offset,
)
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.loader import preset


def test_tp_time_1_turn_lengths() -> None:
    """rule: TP-TIME-1: round 10 s, turn 10 min, watch 4 h (1 TP), day, month of 30 days."""
    scales = Scales.of(preset("tp").time)
    assert (scales.combat_round, scales.turn, scales.watch) == (10, 600, 4 * 3600)
    assert (scales.day, scales.month) == (86400, 30 * 86400)
    assert parse_duration("1 round", preset("tp").time) == 10


def test_ex_time_1_site_turn_is_ten_minutes() -> None:
    assert Scales.of(preset("ex").time).turn == 600
    assert parse_duration("3 turns", preset("ex").time) == 1800


def test_pg_time_1_turn_10_min_round_1_min() -> None:
    time = preset("pg").time
    assert (Scales.of(time).turn, Scales.of(time).combat_round) == (600, 60)
    assert parse_duration("1 round", time) == 60


@pytest.mark.parametrize("name", ["dg", "cb"])
def test_dg_rnd_1_and_cb_rnd_1_combat_round_is_6_seconds(name: str) -> None:
    """rule: DG-RND-1, CB-RND-1."""
    time = preset(name).time
    assert Scales.of(time).combat_round == 6
    assert parse_duration("10 rounds", time) == 60


def test_dg_rnd_1_exploration_and_social_rounds_within_the_texts_ranges() -> None:
    scales = Scales.of(preset("dg").time)
    assert 2 * 60 <= scales.exploration_round <= 8 * 3600
    assert 60 <= scales.social_round <= 600


def test_calendar_starts_at_calendar_start_and_rolls_over_months_and_years() -> None:
    time = preset("ex").time
    assert calendar(0, time) == "1-01-01 08:00"
    assert calendar(16 * 3600, time) == "1-01-02 00:00"
    assert calendar(16 * 3600 + 29 * 86400, time) == "1-02-01 00:00"
    assert calendar(16 * 3600 + 359 * 86400, time) == "2-01-01 00:00"
    assert day_number(16 * 3600 - 1, time) == 1
    assert day_number(16 * 3600, time) == 2
    assert start_offset(time) == 8 * 3600


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("3h", 10800), ("2d", 172800), ("10m", 600), ("90s", 90), ("1w", 604800),
     ("3 turns", 1800), ("2 watches", 28800), ("1 round", 10), ("1d2h30m", 95400),
     ("1 exploration round", 600), ("2 hours 5 minutes", 7500), ("1 month", 2592000)],
)  # fmt: skip
def test_parse_duration(text: str, seconds: int) -> None:
    assert parse_duration(text, preset("tp").time) == seconds


@pytest.mark.parametrize("text", ["3h", "2d", "10m", "45s", "1w", "1d2h30m", "1w1d1h1m1s"])
def test_canonical_durations_round_trip(text: str) -> None:
    assert format_duration(parse_duration(text)) == text


@given(st.integers(min_value=0, max_value=10**9))
def test_format_then_parse_is_the_same_number_of_seconds(seconds: int) -> None:
    assert parse_duration(format_duration(seconds)) == seconds


@pytest.mark.parametrize("text", ["", "3", "3x", "h3", "3 fortnights", "-1h"])
def test_bad_durations_say_how_to_write_one(text: str) -> None:
    with pytest.raises(TurnkeeperError, match=r"duration|unit"):
        parse_duration(text)


def test_boundaries_are_in_time_order_and_list_every_frame_ending_there() -> None:
    scales = Scales.of(preset("dg").time)
    offset = start_offset(preset("dg").time)
    found = list(boundaries(0, 16 * 3600, frozenset({"turn", "day"}), scales, offset))
    assert [b.at for b in found] == [600 * i for i in range(1, 97)]
    assert found[-1].frames == ("turn", "day")  # midnight ends the turn and the day
    assert all(b.frames == ("turn",) for b in found[:-1])
