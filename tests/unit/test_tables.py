"""Roll tables: ranged tables, overloaded dice, saves, treasure and magic dice."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

import turnkeeper.tables as tables_module
from turnkeeper.dice import Roll, SeededDice, TypedDice, parse
from turnkeeper.dice.exact import distribution, mean
from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.rules import preset
from turnkeeper.rules.schema import FaceEvent, Side
from turnkeeper.tables import (
    faces_for,
    magic_dice,
    magic_expression,
    reaction,
    roll_overloaded,
    roll_ranged,
    save_chance,
    save_target,
    saving_throw,
    table_odds,
    treasure,
    treasure_mean,
)

TP = preset("tp")
PG = preset("pg")
REACTION = PG.tables["reaction"]


# --- PG-REA-1 ------------------------------------------------------------------


def test_pg_rea_1_exact_odds_with_cha_0() -> None:
    odds = table_odds(REACTION, {"CHA": 0})
    assert odds == {
        "hostile": Fraction(1, 36),  # 2d6 <= 2: (1,1)
        "unfriendly": Fraction(2 + 3 + 4, 36),  # 3, 4, 5
        "neutral": Fraction(16, 36),  # 6, 7, 8: 5 + 6 + 5
        "indifferent": Fraction(4 + 3 + 2, 36),  # 9, 10, 11
        "friendly": Fraction(1, 36),  # 12
    }
    assert sum(odds.values()) == 1


def test_pg_rea_1_cha_plus_1_shifts_the_bands() -> None:
    odds = table_odds(REACTION, {"CHA": 1})
    assert odds["hostile"] == 0  # 2d6+1 is at least 3
    assert odds["unfriendly"] == Fraction(1 + 2 + 3, 36)  # 2d6 = 2, 3, 4
    assert odds["neutral"] == Fraction(4 + 5 + 6, 36)  # 2d6 = 5, 6, 7
    assert odds["indifferent"] == Fraction(5 + 4 + 3, 36)  # 2d6 = 8, 9, 10
    assert odds["friendly"] == Fraction(2 + 1, 36)  # 2d6 = 11, 12
    # a CHA -1 leader: hostile on 2d6 <= 3
    assert table_odds(REACTION, {"CHA": -1})["hostile"] == Fraction(3, 36)


def test_pg_rea_1_reaction_reads_the_row() -> None:
    result = reaction(PG, TypedDice([1, 1]), cha_modifier=0)
    assert (result.total, result.result, result.table) == (2, "hostile", "reaction")
    result = reaction(PG, TypedDice([6, 5]), cha_modifier=1)
    assert (result.total, result.result) == (12, "friendly")
    assert result.roll.breakdown.endswith("= 12")
    # EX-SUR-5: a hungry foe's -2 lowers the total read
    hungry = reaction(PG, TypedDice([4, 4]), cha_modifier=0, modifier=-2)
    assert (hungry.roll.total, hungry.total, hungry.result) == (8, 6, "neutral")
    assert table_odds(REACTION, {"CHA": 0}, modifier=-2)["hostile"] == Fraction(6, 36)


def test_reaction_without_table_says_how_to_fix() -> None:
    with pytest.raises(NotFoundError, match=r"\[tables\.reaction\]"):
        reaction(preset("dg"), SeededDice(1), cha_modifier=0)


@given(st.integers(0, 2**32), st.integers(-3, 3))
def test_pg_rea_1_any_roll_lands_in_a_row_with_nonzero_odds(seed: int, cha: int) -> None:
    result = roll_ranged(REACTION, SeededDice(seed), {"CHA": cha})
    assert table_odds(REACTION, {"CHA": cha})[result.result] > 0
    assert Roll.from_record(result.roll.to_record()) == result.roll


# --- overloaded dice ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "face", "event"),
    [
        ("encounter", 1, FaceEvent.ENCOUNTER),  # TP-ENC-1
        ("encounter", 4, FaceEvent.WANING_RESOURCES),  # TP-ENC-1
        ("dungeon", 2, FaceEvent.DUNGEON_ROUSES),  # TP-DUN-1
        ("dungeon", 3, FaceEvent.WANING_RESOURCES),  # TP-DUN-2 default
        ("dungeon", 5, FaceEvent.SLUMBER),  # TP-DUN-1
        ("wilderness", 2, FaceEvent.HIDDEN_SITE),  # TP-WENC-4
        ("wilderness", 4, FaceEvent.WEATHER_CHANGE),  # TP-WENC-4
    ],
)
def test_tp_enc_1_tp_dun_1_tp_wenc_4_faces_read(die: str, face: int, event: FaceEvent) -> None:
    result = roll_overloaded(TP.dice[die], TypedDice([face]))
    assert (result.number, result.face.event) == (face, event)
    assert result.roll.dice[0].sides == 6


def test_tp_ini_1_initiative_face_says_who_acts() -> None:
    die = TP.dice["initiative"]
    assert roll_overloaded(die, TypedDice([3])).face.initiative is Side.OPPOSITION
    fourth = roll_overloaded(die, TypedDice([4])).face
    assert (fourth.event, fourth.initiative) == (FaceEvent.DUNGEON_REACTS, Side.PARTY)


def test_tp_wenc_3_milieus_swap_faces() -> None:
    die = TP.dice["wilderness"]
    assert roll_overloaded(die, TypedDice([5])).face.event is FaceEvent.FREE_TURN
    desert = roll_overloaded(die, TypedDice([5]), milieu="desert")
    assert (desert.face.event, desert.milieu) == (FaceEvent.WANING_RESOURCES, "desert")
    city = roll_overloaded(die, TypedDice([5]), milieu="civilisation")
    assert city.face.event is FaceEvent.GOOD_ENCOUNTER
    camp = faces_for(die, "night_camp")
    assert camp[2].event is FaceEvent.ENCOUNTER
    assert camp[1] == die.faces[1]  # unswapped faces stay


def test_unknown_milieu_lists_the_milieus() -> None:
    with pytest.raises(NotFoundError, match="civilisation, desert, night_camp"):
        roll_overloaded(TP.dice["wilderness"], SeededDice(1), milieu="jungle")


@given(st.integers(0, 2**32))
def test_tp_enc_1_overloaded_roll_is_a_face_of_the_die(seed: int) -> None:
    result = roll_overloaded(TP.dice["encounter"], SeededDice(seed))
    assert result.face == TP.dice["encounter"].faces[result.number]
    assert 1 <= result.number <= 6


# --- PG-SAVE-1 ------------------------------------------------------------------


def test_pg_save_1_monster_target_and_exact_chance() -> None:
    target = save_target(rules=PG, hd=3)
    assert target == 16  # 19 - 3
    assert save_chance(target, PG) == Fraction(5, 20)  # 16..20
    assert saving_throw(16, TypedDice([16]), PG).succeeded  # equal succeeds
    assert not saving_throw(16, TypedDice([15]), PG).succeeded


def test_pg_save_1_character_target_default_and_sheet() -> None:
    assert save_target(rules=PG, level=4) == 15  # the project's default: 19 - level
    assert save_target(rules=PG, level=4, explicit=11) == 11  # the sheet wins
    with pytest.raises(IllegalCommandError):
        save_target(rules=PG)


# --- PG-TRE-1 ------------------------------------------------------------------


def test_pg_tre_1_treasure_range_and_mean() -> None:
    golds = {treasure(100, TypedDice([face]), PG).gold for face in (1, 2, 3)}
    assert golds == {200, 300, 400}  # 100 XP x (1d3+1)
    assert treasure_mean(100, PG) == 300
    result = treasure(100, SeededDice(7), PG)
    assert result.gold == 100 * result.roll.total


# --- TP-MAG-1 ------------------------------------------------------------------


def test_tp_mag_1_three_magic_dice() -> None:
    expression = parse(magic_expression(3, TP))
    totals = distribution(expression)
    assert (min(totals), max(totals)) == (3, 18)
    assert mean(expression) == Fraction(21, 2)
    result = magic_dice(3, TypedDice([1, 4, 6]), TP)
    assert (result.count, result.total, len(result.roll.dice)) == (3, 11, 3)
    # TP-INI-1 face 6: second wind, +1 to the sum
    assert magic_dice(3, TypedDice([1, 4, 6]), TP, bonus=1).total == 12


@pytest.mark.parametrize("count", [0, 7, -1])
def test_tp_mag_1_count_must_be_within_the_ruleset(count: int) -> None:
    with pytest.raises(IllegalCommandError, match="1 to 6 magic dice"):
        magic_dice(count, SeededDice(1), TP)


def test_doctests() -> None:
    assert doctest.testmod(tables_module).failed == 0
