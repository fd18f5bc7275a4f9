"""Rolls a preset makes that its own text does not give: each is borrowed from another
text's rule and has an entry of its own in the rule reference (issue 39). The Exploration
text says only "Initiative is rolled as normal" and names attack rolls (EX-REST-3's -4 to
hit) without defining them; the combat text names an attack without its roll."""

from __future__ import annotations

import pytest

from turnkeeper.dice import TypedDice
from turnkeeper.procedures.combat import BeginRound, Side, attack, execute
from turnkeeper.procedures.combat.events import InitiativeSettled
from turnkeeper.procedures.combat.outcomes import AttackMade
from turnkeeper.rules.loader import preset

EX, CB, PG = preset("ex"), preset("cb"), preset("pg")


def test_ex_ini_1_initiative_under_ex_is_pg_ini_1s_side_d6(pc, foe, started):
    # rule: EX-INI-1, borrowed from PG-INI-1: each side a d6, the higher first, a tie at once.
    assert EX.initiative.model_dump() == PG.initiative.model_dump()
    state = started(EX, pc("Ann"), foe("Orc"))
    _, events = execute(state, BeginRound(), EX, TypedDice([5, 2]))
    settled = next(e for e in events if isinstance(e, InitiativeSettled))
    assert settled.initiative is Side.PARTY
    _, events = execute(state, BeginRound(), EX, TypedDice([3, 3]))
    assert next(e for e in events if isinstance(e, InitiativeSettled)).initiative is None


@pytest.mark.parametrize(("rules", "rule_id"), [(EX, "EX-ATK-1"), (CB, "CB-ATK-1")])
def test_ex_atk_1_cb_atk_1_the_attack_roll_is_pg_atk_2s_without_its_hd_bonus(
    pc, foe, started, rules, rule_id
):
    # rule: EX-ATK-1, CB-ATK-1, borrowed from PG-ATK-2: d20 + STR in melee, + DEX at range,
    # a hit at or above AC; no +1 per HD for monsters, no STR on a fighter's damage.
    # PG-USE-1's arrows are pg's own usage die: no preset borrows them (unset, not written)
    pg_roll = {k: v for k, v in PG.attack.model_dump().items() if k != "ammunition"}
    assert rules.attack.ammunition is None, rule_id
    assert rules.attack.model_dump() == {
        **pg_roll,
        "monster_bonus_per_hd": 0,
        "strength_damage_classes": [],
        "ranged_into_melee_random": False,
    }, rule_id
    state = started(rules, pc("Ann", stats={"STR": 1, "DEX": -1}), foe("Orc", ac=13, hd=3))
    made = attack(state, "Ann", "Orc", rules, TypedDice([12, 4]))[0]
    assert isinstance(made, AttackMade) and (made.total, made.hit) == (13, True)  # 12 + 1
    made = attack(state, "Ann", "Orc", rules, TypedDice([13]), ranged=True)[0]
    assert isinstance(made, AttackMade) and (made.total, made.hit) == (12, False)  # 13 - 1
    made = attack(state, "Orc", "Ann", rules, TypedDice([10]))[0]
    assert isinstance(made, AttackMade) and made.total == 10  # no HD bonus
