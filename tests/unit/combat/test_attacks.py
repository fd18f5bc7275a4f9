"""Attack rolls, damage, saves, checks, magic, morale, treasure."""

from __future__ import annotations

import pytest

from turnkeeper.dice import TypedDice
from turnkeeper.errors import DiceInputError, IllegalCommandError
from turnkeeper.procedures.combat import (
    Attack,
    BeginRound,
    Condition,
    EndCombat,
    attack,
    attack_bonus,
    execute,
    fold_combat,
    magic,
    morale_check,
    opposed_check,
    save_target,
    saving_throw,
)
from turnkeeper.procedures.combat.events import CombatEnded
from turnkeeper.procedures.combat.outcomes import AttackMade, Damaged
from turnkeeper.rules.loader import preset

TP, PG = preset("tp"), preset("pg")


def _attack(rules, state, faces, attacker="Ann", target="Orc", ranged=False):
    """One attack roll and its damage, outside any round's order (the rule alone)."""
    events = attack(state, attacker, target, rules, TypedDice(faces), ranged=ranged)
    return fold_combat(events, state), events


def test_tp_atk_1_melee_must_roll_strictly_above_ac(pc, foe, started):
    # rule: TP-ATK-1: d20 12 + STR 1 = 13 against AC 13 misses; 13 + 1 = 14 hits.
    state = started(TP, pc("Ann", stats={"STR": 1}), foe("Orc", ac=13))
    _, events = _attack(TP, state, [12])
    assert isinstance(events[0], AttackMade) and events[0].total == 13 and not events[0].hit
    _, events = _attack(TP, state, [13, 4])
    assert events[0].total == 14 and events[0].hit
    assert isinstance(events[1], Damaged) and events[1].amount == 4


def test_tp_atk_1_ranged_adds_wis_not_str(pc, foe, started):
    # rule: TP-ATK-1
    state = started(TP, pc("Ann", stats={"STR": 3, "WIS": -1}), foe("Orc", ac=13))
    _, events = _attack(TP, state, [14], ranged=True)
    assert events[0].total == 13 and not events[0].hit


def test_pg_atk_2_hits_at_ac_and_monsters_add_hd(pc, foe, started):
    # rule: PG-ATK-2: 13 against AC 13 hits; a 3 HD monster adds +3.
    state = started(PG, pc("Ann", ac=15), foe("Ogre", hd=3, ac=13), pc("Bo", stats={"STR": 1}))
    _, events = _attack(PG, state, [12, 3], attacker="Bo", target="Ogre")
    assert events[0].total == 13 and events[0].hit
    _, events = _attack(PG, state, [12, 2], attacker="Ogre", target="Ann")
    assert events[0].total == 15 and events[0].hit
    _, events = _attack(PG, state, [11], attacker="Ogre", target="Ann")
    assert events[0].total == 14 and not events[0].hit


def test_pg_atk_2_hb_and_magic_weapon_add_to_the_roll(pc, foe, started):
    # rule: PG-ATK-2: d20 10 + DEX 1 + HB 1 and a +1 bow (attack_bonus 2) = 13 hits AC 13;
    # a 9 makes 12 and misses.
    archer = pc("Ann", stats={"STR": 3, "DEX": 1}, attack_bonus=2)
    state = started(PG, archer, foe("Ogre", ac=13))
    _, events = _attack(PG, state, [10, 1], target="Ogre", ranged=True)
    assert events[0].total == 13 and events[0].hit
    _, events = _attack(PG, state, [9], target="Ogre", ranged=True)
    assert events[0].total == 12 and not events[0].hit


def test_pg_atk_2_fighters_add_str_to_damage(pc, foe, started):
    # rule: PG-ATK-2: damage by the weapon's die, plus STR for fighters.
    fighter = pc("Ann", stats={"STR": 2}, character_class="fighter", damage="d8")
    thief = pc("Bo", stats={"STR": 2}, character_class="thief", damage="d8")
    state = started(PG, fighter, thief, foe("Ogre", hp=30, ac=10))
    _, events = _attack(PG, state, [15, 5], target="Ogre")
    assert events[1].amount == 7
    _, events = _attack(PG, state, [15, 5], attacker="Bo", target="Ogre")
    assert events[1].amount == 5


def test_pg_atk_1_ranged_into_melee_strikes_a_random_member(pc, foe, started):
    # rule: PG-ATK-1: "When firing ranged attacks into melee, randomly determine if friend or
    # foe is attacked": a d2, 1 a friend (a second die picks among Bo and Cy, sorted), 2 the
    # foe aimed at; the attack roll is still made against whoever is struck.
    state = started(PG, pc("Ann", stats={"DEX": 1}), pc("Bo", ac=10), pc("Cy"), foe("Orc", ac=18))
    state, _ = _attack(PG, state, [1], attacker="Bo", target="Orc")  # Bo closes in (misses)
    state, _ = _attack(PG, state, [1], attacker="Cy", target="Orc")
    _, events = _attack(PG, state, [1, 1, 9, 2], attacker="Ann", target="Orc", ranged=True)
    shot = events[0]
    assert shot.target == "Bo" and shot.aimed_at == "Orc"
    assert shot.total == 10 and shot.hit  # 9 + DEX 1 against Bo's AC 10
    assert [r.expression for r in shot.rolls] == ["1d2", "1d2", "d20 + 1"]
    _, events = _attack(PG, state, [1, 2, 5], attacker="Ann", target="Orc", ranged=True)
    assert events[0].target == "Cy"
    _, events = _attack(PG, state, [2, 16], attacker="Ann", target="Orc", ranged=True)
    assert (events[0].target, events[0].total, events[0].hit) == ("Orc", 17, False)
    # Three orcs on Bo alone: still one chance in two of Bo, not one in four.
    three = started(PG, pc("Ann"), pc("Bo"), foe("Orc 1"), foe("Orc 2"), foe("Orc 3"))
    for orc in ("Orc 1", "Orc 2", "Orc 3"):
        three, _ = _attack(PG, three, [1], attacker=orc, target="Bo")
    _, events = _attack(PG, three, [1, 20, 1], attacker="Ann", target="Orc 2", ranged=True)
    assert events[0].target == "Bo" and len(events[0].rolls) == 2  # one friend: no second die
    # No friend of the shooter's in that melee: nobody else to hit, no die.
    alone = started(PG, pc("Ann"), pc("Bo"), foe("Orc"))
    alone, _ = _attack(PG, alone, [1], attacker="Bo", target="Orc")
    _, events = _attack(PG, alone, [1], attacker="Bo", target="Orc", ranged=True)
    assert events[0].target == "Orc" and [r.expression for r in events[0].rolls] == ["d20"]
    # Under TP no random member: the shot goes where it was aimed.
    tp_state = started(TP, pc("Ann"), pc("Bo"), foe("Orc"))
    tp_state, _ = _attack(TP, tp_state, [1], attacker="Bo", target="Orc")
    _, events = _attack(TP, tp_state, [1], attacker="Ann", target="Orc", ranged=True)
    assert events[0].target == "Orc"


def test_ex_rest_3_wearied_is_minus_4_to_hit(pc):
    # rule: EX-REST-3
    tired = pc("Ann", stats={"STR": 1}, conditions=[Condition.WEARIED])
    assert attack_bonus(tired, preset("ex"), ranged=False, second_wind=False) == 1 - 4


def test_pg_hp_1_unconscious_at_zero_dead_at_minus_level_monsters_at_zero(pc, foe, started):
    # rule: PG-HP-1
    state = started(PG, pc("Ann", hp=8, ac=1, level=3), foe("Orc", hp=4, ac=1, damage="d8"))
    state, _events = _attack(PG, state, [10, 8], attacker="Orc", target="Ann")
    assert state.get("Ann").hp == 0 and Condition.UNCONSCIOUS in state.get("Ann").conditions
    state, _ = _attack(PG, state, [10, 2], attacker="Orc", target="Ann")
    assert Condition.DEAD not in state.get("Ann").conditions  # -2 > -3
    state, _ = _attack(PG, state, [10, 1], attacker="Orc", target="Ann")
    assert state.get("Ann").conditions == {Condition.DEAD}  # -3: dead, no longer unconscious
    state2 = started(PG, pc("Bo", damage="d4"), foe("Orc", hp=4, ac=1))
    state2, _ = _attack(PG, state2, [10, 4], attacker="Bo", target="Orc")
    assert state2.get("Orc").conditions == {Condition.DEAD}


def test_pg_save_1_monster_target_is_19_minus_hd_and_equal_succeeds(pc, foe):
    # rule: PG-SAVE-1
    troll = foe("Troll", hd=6)
    assert save_target(troll, PG) == 13
    assert saving_throw(troll, PG, TypedDice([13])).success
    assert not saving_throw(troll, PG, TypedDice([12])).success
    # The project's default for characters: the sheet, else 19 - level.
    assert save_target(pc("Ann", level=4), PG) == 15
    assert save_target(pc("Ann", level=4, save=11), PG) == 11


def test_tp_opp_1_opposed_check_must_beat_the_defence(pc):
    # rule: TP-OPP-1: d20 + stat, success only if higher than the defence.
    ann = pc("Ann", stats={"DEX": 2})
    ok, thrown = opposed_check(ann, "DEX", 14, TP, TypedDice([12]))
    assert thrown.total == 14 and not ok
    ok, _ = opposed_check(ann, "DEX", 14, TP, TypedDice([13]))
    assert ok


def test_tp_mag_1_magic_dice_are_chosen_and_summed(pc):
    # rule: TP-MAG-1
    caster = pc("Ann")
    assert magic(caster, 3, TP, TypedDice([2, 5, 6])).total == 13
    assert magic(caster, 3, TP, TypedDice([2, 5, 6]), second_wind=True).total == 14
    with pytest.raises(IllegalCommandError):
        magic(caster, 0, TP, TypedDice([]))


def test_morale_2d6_at_or_under_holds():
    assert morale_check(("Orc",), 7, TypedDice([3, 4])).holds
    assert not morale_check(("Orc",), 7, TypedDice([4, 4])).holds


def test_pg_tre_1_treasure_is_xp_times_1d3_plus_1(pc, foe, started):
    # rule: PG-TRE-1: two orcs of 10 XP overcome, d3 shows 2: 20 x 3 = 60 gp.
    state = started(
        PG, pc("Ann", damage="d6"), foe("Orc 1", hp=1, xp=10), foe("Orc 2", hp=1, xp=10)
    )
    state, _ = _attack(PG, state, [20, 3], target="Orc 1")
    state, _ = _attack(PG, state, [20, 3], target="Orc 2")
    state, events = execute(state, EndCombat(), PG, TypedDice([2]))
    (ended,) = events
    assert isinstance(ended, CombatEnded) and ended.treasure == 60
    assert ended.rest_due is PG.rest.after_fight


def test_typed_dice_too_few_is_one_clear_error_and_nothing_changes(pc, foe, started):
    state, _ = execute(started(TP, pc("Ann"), foe("Orc")), BeginRound(), TP, TypedDice([2]))
    with pytest.raises(DiceInputError, match="not enough typed-in dice"):
        execute(state, Attack("Ann", "Orc"), TP, TypedDice([20]))
