"""A ruleset file that says something meaningless fails on load with one message.

The message names the designer's file, the dotted key path and what was expected:
negative multipliers and counts, ``true`` where a whole number belongs, turns on a light
that burns until a Waning Resources face (TP-ENC-2), and a named die missing from ``[dice]``.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from turnkeeper.errors import RulesetError
from turnkeeper.rules.loader import load_ruleset, preset


def failure(folder: Path, text: str, name: str = "mine.toml") -> tuple[Path, str]:
    """Load a file that must fail; its path and the one message."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    message = str(caught.value)
    assert "\n" not in message
    return path, message


# --- 1. negative multipliers and counts -----------------------------------------------------


def test_tp_wil_4_negative_terrain_multiplier_is_refused(tmp_path: Path) -> None:
    path, message = failure(tmp_path, 'extends = "tp"\n[travel.terrain]\nhills = "-1/2"\n')
    assert message == f"{path}: travel.terrain.hills: expected 0 or more, got '-1/2'"


def test_tp_wil_4_zero_multiplier_is_impassable_and_allowed(tmp_path: Path) -> None:
    path = tmp_path / "flat.toml"
    path.write_text('extends = "tp"\n[travel.terrain]\nhills = 0\n', encoding="utf-8")
    assert load_ruleset(path).travel.terrain["hills"] == Fraction(0)
    assert preset("tp").travel.terrain["high_mountains"] == 0  # TP-WIL-4 high mountains x0


@pytest.mark.parametrize(
    ("toml", "key_path", "expected"),
    [
        ("[travel]\ntravel_points_per_day = 0\n", "travel.travel_points_per_day", "more than 0"),
        ("[travel]\nmovement_points_per_tp = 0\n", "travel.movement_points_per_tp", "more than 0"),
        ('[travel.party]\nmounted = "-2"\n', "travel.party.mounted", "0 or more"),
        (
            '[travel.vessels.raft]\ntravel_points_per_day = -1\nover = ["water"]\n',
            "travel.vessels.raft.travel_points_per_day",
            "more than 0",
        ),
        (
            '[light.sources.torch]\nradius_ft = 0\nsupply = "torch"\n',
            "light.sources.torch.radius_ft",
            "more than 0",
        ),
        ("[lost.chance_in_six]\nforest = 7\n", "lost.chance_in_six.forest", "6 or less"),
        ("[rest]\nactive_turns = -5\n", "rest.active_turns", "more than 0"),
        ("[rest.consumes]\nrations = -1\n", "rest.consumes.rations", "0 or more"),
        ("[weather.seasons]\nwinter = [13]\n", "weather.seasons.winter.0", "12 or less"),
        ("usage_die = [6, 4, 1]\n", "usage_die", "end with a die of 2 sides or more, not d1"),
    ],
)
def test_meaningless_count_names_file_key_and_expectation(
    tmp_path: Path, toml: str, key_path: str, expected: str
) -> None:
    path, message = failure(tmp_path, f'extends = "tp"\n{toml}')
    assert message.startswith(f"{path}: {key_path}: ")
    assert expected in message


# --- 2. true/false is not a whole number -----------------------------------------------------


@pytest.mark.parametrize(
    ("toml", "key_path"),
    [
        ("[travel]\ntravel_points_per_day = true\n", "travel.travel_points_per_day"),
        ("[time]\nround_seconds = true\n", "time.round_seconds"),
        ("[dungeon]\ncheck_every_turns = true\n", "dungeon.check_every_turns"),
        ("[magic]\nmax_dice = true\n", "magic.max_dice"),
        ("[surprise]\nchance_in_six = false\n", "surprise.chance_in_six"),
        ("[hit_points]\nunconscious_at = false\n", "hit_points.unconscious_at"),
    ],
)
def test_a_boolean_is_not_a_whole_number(tmp_path: Path, toml: str, key_path: str) -> None:
    path, message = failure(tmp_path, f'extends = "tp"\n{toml}')
    value = "true" if "true" in toml else "false"
    assert message == f"{path}: {key_path}: expected a whole number, got {value}"


def test_a_float_is_not_a_whole_number(tmp_path: Path) -> None:
    path, message = failure(tmp_path, 'extends = "tp"\n[time]\nwatch_hours = 4.0\n')
    assert message == f"{path}: time.watch_hours: expected a whole number, got 4.0"


def test_tp_wil_4_a_boolean_is_not_a_multiplier(tmp_path: Path) -> None:
    path, message = failure(tmp_path, 'extends = "tp"\n[travel.terrain]\nhills = true\n')
    assert message == f"{path}: travel.terrain.hills: expected a fraction such as 2/3, got true"


def test_fractions_as_strings_and_whole_numbers_still_load(tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(
        'extends = "tp"\n[travel]\nmovement_points_per_tp = "3/2"\n[travel.terrain]\nhills = 2\n',
        encoding="utf-8",
    )
    rules = load_ruleset(path)
    assert rules.travel.movement_points_per_tp == Fraction(3, 2)
    assert rules.travel.terrain["hills"] == Fraction(2)


# --- 3. turns of a light that burns until a Waning Resources face (TP-ENC-2) ------------------


def test_tp_enc_2_turns_under_waning_face_are_refused(tmp_path: Path) -> None:
    path, message = failure(tmp_path, 'extends = "tp"\n[light.sources.torch]\nturns = 3\n')
    assert message.startswith(f"{path}: light.sources.torch.turns: ")
    assert 'turns only count under burns = "turns"' in message
    assert "TP-ENC-2" in message


def test_tp_enc_2_switching_burns_blames_the_file_that_switched(tmp_path: Path) -> None:
    # ex's torch has 3 turns (EX-LIGHT-1): it is this file's burns that makes them meaningless
    path, message = failure(tmp_path, 'extends = "ex"\n[light]\nburns = "waning_face"\n')
    assert message.startswith(f"{path}: light.sources.")
    assert ".turns: turns only count under burns" in message


def test_tp_enc_2_the_tp_preset_gives_its_lights_no_turns() -> None:
    rules = preset("tp")
    assert rules.light.burns == "waning_face"
    assert rules.light.sources
    assert all(source.turns is None for source in rules.light.sources.values())


# --- 4. a named die missing from [dice] names the key that names it ---------------------------


@pytest.mark.parametrize(
    ("toml", "key_path", "die"),
    [
        ('[wilderness]\ndie = "wildrness"\n', "wilderness.die", "wildrness"),
        ('[dungeon]\ndie = "dungen"\n', "dungeon.die", "dungen"),
        ('[initiative]\noverloaded_die = "init"\n', "initiative.overloaded_die", "init"),
    ],
)
def test_tp_enc_1_named_die_missing_from_dice(
    tmp_path: Path, toml: str, key_path: str, die: str
) -> None:
    path, message = failure(tmp_path, f'extends = "tp"\n{toml}')
    assert message.startswith(f"{path}: {key_path}: no overloaded die {die!r} in [dice]; ")
    assert "expected one of the dice there (dungeon, encounter, initiative, wilderness)" in message
    assert "(top level)" not in message


def test_named_die_missing_from_a_file_with_no_extends(tmp_path: Path) -> None:
    _, message = failure(
        tmp_path,
        '[ruleset]\nname = "w"\ntitle = "W"\n[wilderness]\ndie = "wild"\n',
    )
    assert message.endswith(
        "mine.toml: wilderness.die: no overloaded die 'wild' in [dice]; "
        "expected one of the dice there (none), or add [dice.wild]"
    )


def test_tp_time_2_the_days_meal_hour_lies_within_the_day(tmp_path: Path) -> None:
    """TP-TIME-2 (issue 39): days.meal_hour names an hour of the ruleset's day."""
    path, message = failure(tmp_path, 'extends = "ex"\n[days]\nmeal_hour = 24\n')
    assert message.startswith(f"{path}: days.meal_hour: ")
    assert "a day has hours 0 to 23 (time.day_hours)" in message
    path.write_text('extends = "ex"\n[time]\nday_hours = 20\n[days]\nmeal_hour = 19\n')
    assert load_ruleset(path).days.meal_hour == 19
    assert preset("tp").days.meals == "die" and preset("pg").days.meals == "daily"
