"""Surprise and initiative per ruleset (TP-INI-1, PG-SUR-1, PG-INI-1, CB-SUR-*, CB-INI-*)."""

from __future__ import annotations

import pytest

from turnkeeper.dice import TypedDice
from turnkeeper.kernel.combat_state import Action, ActionKind
from turnkeeper.procedures.combat import (
    BeginRound,
    CombatState,
    Condition,
    Declare,
    Pin,
    Resolve,
    Side,
    StartCombat,
    attack,
    execute,
    fold_combat,
    hungry_reaction_modifier,
)
from turnkeeper.procedures.combat.events import (
    CombatEnded,
    FaceEffect,
    InitiativeSettled,
    MoraleChecked,
    RoundBegan,
    SurpriseSettled,
)
from turnkeeper.procedures.combat.outcomes import Damaged, Moved
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import FaceEvent

TP, PG, CB, EX = preset("tp"), preset("pg"), preset("cb"), preset("ex")


def _round(state, rules, faces, adjustment=0):
    return execute(state, BeginRound(adjustment), rules, TypedDice(faces))


@pytest.mark.parametrize(
    ("face", "event", "side"),
    [
        (1, FaceEvent.NOISE, Side.OPPOSITION),
        (2, FaceEvent.FATIGUE, Side.OPPOSITION),
        (3, FaceEvent.DUNGEON_REACTS, Side.OPPOSITION),
        (4, FaceEvent.DUNGEON_REACTS, Side.PARTY),
        (5, FaceEvent.RESPITE, Side.PARTY),
        (6, FaceEvent.SECOND_WIND, Side.PARTY),
    ],
)
def test_tp_ini_1_each_face_gives_initiative(face, event, side, pc, foe, started):
    # rule: TP-INI-1
    faces = [face, 3, 4] if face == 1 else [face]  # face 1 rolls the newcomers' reaction
    state, events = _round(started(TP, pc("Ann"), foe("Orc")), TP, faces)
    settled = next(e for e in events if isinstance(e, InitiativeSettled))
    assert (settled.face, settled.face_event, state.initiative) == (face, event, side)
    assert state.second_wind is (face == 6)
    assert any(isinstance(e, FaceEffect) for e in events) is (face in (1, 3, 4, 6))


def _melee(state, first, second):
    return Moved(actor=first, engage=second).apply_combat(state)


def test_tp_ini_1_fatigue_hurts_everyone_in_melee(pc, foe, started):
    # rule: TP-INI-1 face 2: anyone in melee takes 1 damage; the archer out of melee does not.
    state = _melee(started(TP, pc("Ann"), pc("Bo"), foe("Orc")), "Ann", "Orc")
    state, events = _round(state, TP, [2])
    hurt = {e.target: e.amount for e in events if isinstance(e, Damaged)}
    assert hurt == {"Ann": 1, "Orc": 1}
    assert state.get("Ann").hp == 7 and state.get("Bo").hp == 8


def test_tp_ini_1_fatigue_spares_one_whose_foe_has_fallen(pc, foe, started):
    # rule: TP-INI-1 face 2: "anyone currently in melee": Bo's goblin is dead, so Bo is in
    # no melee now and takes no damage; Ann still fights the orc.
    fight = started(TP, pc("Ann"), pc("Bo"), foe("Orc"), foe("Goblin", hp=1))
    fight = _melee(_melee(fight, "Ann", "Orc"), "Bo", "Goblin")
    fight = fold_combat(attack(fight, "Bo", "Goblin", TP, TypedDice([20, 3])), fight)
    assert Condition.DEAD in fight.get("Goblin").conditions
    _, events = _round(fight, TP, [2])
    assert {e.target for e in events if isinstance(e, Damaged)} == {"Ann", "Orc"}


def test_tp_ini_1_noise_reaction_the_party_may_sway(pc, foe, started):
    # rule: TP-INI-1 face 1: 2d6 (3, 4) + the leader Ann's CHA 1 + the party's sway 2 = 10.
    state = started(TP, pc("Ann", stats={"CHA": 1}), pc("Bo", stats={"CHA": -1}), foe("Orc"))
    state, events = execute(state, BeginRound(influence=2), TP, TypedDice([1, 3, 4]))
    noise = next(e for e in events if isinstance(e, FaceEffect))
    assert "swayed +2" in noise.describe() and "(10)" in noise.describe()
    assert state.initiative is Side.OPPOSITION


def test_tp_ini_1_second_wind_adds_one_to_party_checks(pc, foe, started):
    # rule: TP-INI-1 face 6: 12 + STR 1 + 1 = 14 beats AC 13.
    state = started(TP, pc("Ann", stats={"STR": 1}), foe("Orc", ac=13))
    state, _ = _round(state, TP, [6])
    events = attack(state, "Ann", "Orc", TP, TypedDice([12, 3]))
    assert events[0].total == 14 and events[0].hit
    events = attack(state, "Orc", "Ann", TP, TypedDice([12]))
    assert events[0].total == 12  # the opposition gets no second wind


def test_tp_cbt_1_referee_adjustment_is_recorded(pc, foe, started):
    # rule: TP-CBT-1 step 2: a 5 adjusted by -3 reads as face 2 (fatigue, opponents).
    state, events = _round(started(TP, pc("Ann"), foe("Orc")), TP, [5], adjustment=-3)
    settled = next(e for e in events if isinstance(e, InitiativeSettled))
    assert (settled.rolled, settled.adjustment, settled.face) == (5, -3, 2)
    assert state.initiative is Side.OPPOSITION
    assert "adjusted -3" in settled.describe()
    _, events = _round(started(TP, pc("Ann"), foe("Orc")), TP, [5])
    assert next(e for e in events if isinstance(e, InitiativeSettled)).adjustment == 0


def test_round_length_advances_the_clock_per_ruleset(pc, foe, started):
    # rule: CB-RND-1 (6 s), TP-TIME-1 (10 s), PG-TIME-1 (60 s)
    for rules, faces, seconds in ((TP, [5], 10), (PG, [3, 4], 60), (CB, [3, 4], 6)):
        state, events = _round(started(rules, pc("Ann"), foe("Orc")), rules, faces)
        assert isinstance(events[0], RoundBegan) and state.seconds == seconds


def test_pg_ini_1_each_side_d6_higher_first_tie_simultaneous(pc, foe, started):
    # rule: PG-INI-1
    state = started(PG, pc("Ann"), foe("Orc"))
    after, _ = _round(state, PG, [2, 5])
    assert after.initiative is Side.OPPOSITION and after.order == (("Orc",), ("Ann",))
    after, _ = _round(state, PG, [4, 4])
    assert after.initiative is None and after.order == (("Ann", "Orc"),)


def test_pg_sur_1_unaware_groups_surprised_on_2_in_6(pc, foe):
    # rule: PG-SUR-1: party rolls 3 (not surprised), foes roll 2 (surprised): a free round.
    start = StartCombat((pc("Ann"), foe("Orc")))
    state, events = execute(CombatState(), start, PG, TypedDice([3, 2]))
    surprise = events[1]
    assert isinstance(surprise, SurpriseSettled)
    assert surprise.surprised == (Side.OPPOSITION,) and surprise.free_round is Side.PARTY
    # A group aware of its adversaries is never surprised: no die rolled for it.
    aware = StartCombat((pc("Ann"), foe("Orc")), aware=frozenset({Side.PARTY}))
    _state2, events = execute(CombatState(), aware, PG, TypedDice([1]))
    assert events[1].surprised == (Side.OPPOSITION,)
    # Both surprised: nobody gets the free round.
    _, events = execute(CombatState(), start, PG, TypedDice([1, 2]))
    assert events[1].free_round is None
    # The free round: only the party acts, no initiative rolled; then initiative as normal.
    state, events = _round(state, PG, [])
    assert state.in_free_round and state.initiative is Side.PARTY
    with pytest.raises(Exception, match="surprised and loses this round"):
        execute(
            state,
            Declare("Orc", (Action(kind=ActionKind.ATTACK, target="Ann"),)),
            PG,
            TypedDice([]),
        )
    state, _ = execute(state, Resolve(), PG, TypedDice([]))
    assert Condition.SURPRISED not in state.get("Orc").conditions
    state, events = _round(state, PG, [6, 1])
    assert state.initiative is Side.PARTY and not state.in_free_round


def test_ex_sur_5_surprised_group_loses_a_full_round(pc, foe):
    # rule: EX-SUR-5: surprise decided by movement; the ambushed party loses the round.
    start = StartCombat((pc("Ann"), foe("Orc")), surprised=frozenset({Side.PARTY}))
    state, _ = execute(CombatState(), start, EX, TypedDice([]))
    state, _ = _round(state, EX, [])
    assert state.in_free_round and state.initiative is Side.OPPOSITION
    state, _ = execute(state, Resolve(), EX, TypedDice([]))
    state, events = _round(state, EX, [4, 2])
    assert any(isinstance(e, InitiativeSettled) and e.rolls for e in events)
    assert hungry_reaction_modifier(EX, hungry=True, won_surprise=True) == -2
    assert hungry_reaction_modifier(EX, hungry=True, won_surprise=False) == 0


def test_cb_sur_1_opposed_sneak_against_notice(pc, foe):
    # rule: CB-SUR-1: attackers d20 10 + DEX 2 = 12 against 11 + WIS 0 = 11: surprise.
    combatants = (pc("Ann"), foe("Orc", stats={"DEX": 2}, morale=7))
    start = StartCombat(combatants, attackers=Side.OPPOSITION)
    _, events = execute(CombatState(), start, CB, TypedDice([10, 11]))
    assert events[1].surprised == (Side.PARTY,) and events[1].free_round is Side.OPPOSITION
    _, events = execute(CombatState(), start, CB, TypedDice([9, 11]))  # 11 against 11: no
    assert events[1].surprised == ()


def test_ex_rest_3_a_wearied_sneak_rolls_at_minus_2(pc, foe):
    # rule: EX-REST-3, CB-SUR-1: a skill check at -2 when wearied: the wearied orc's d20 10
    # + DEX 2 - 2 = 10 no longer beats Ann's 9 + WIS 1 = 10; rested, its 12 does.
    rules = CB.model_copy(update={"rest": CB.rest.model_copy(update={"wearied_skill": -2})})
    tired = foe("Orc", stats={"DEX": 2}, conditions=[Condition.WEARIED])
    start = StartCombat((pc("Ann", stats={"WIS": 1}), tired), attackers=Side.OPPOSITION)
    _, events = execute(CombatState(), start, rules, TypedDice([10, 9]))
    assert events[1].surprised == ()
    rested = StartCombat(
        (pc("Ann", stats={"WIS": 1}), foe("Orc", stats={"DEX": 2})), attackers=Side.OPPOSITION
    )
    _, events = execute(CombatState(), rested, rules, TypedDice([10, 9]))
    assert events[1].surprised == (Side.PARTY,)


def test_cb_sur_2_undisciplined_surprised_group_checks_morale(pc, foe):
    # rule: CB-SUR-2: the rabble is surprised and breaks on 2d6 = 9 against morale 7.
    rabble = (foe("Bandit 1", disciplined=False, morale=7), foe("Bandit 2", disciplined=False))
    start = StartCombat((pc("Ann", stats={"DEX": 1}), *rabble), attackers=Side.PARTY)
    state, events = execute(CombatState(), start, CB, TypedDice([15, 3, 4, 5]))
    morale = next(e for e in events if isinstance(e, MoraleChecked))
    assert not morale.holds
    assert all(Condition.FLED in c.conditions for c in state.members(Side.OPPOSITION))
    # PG-CBT-1: with every foe fled, the fight is resolved at once, won by the party
    assert isinstance(events[-1], CombatEnded) and events[-1].winner is Side.PARTY
    disciplined = StartCombat(
        (pc("Ann", stats={"DEX": 1}), foe("Guard", morale=7)), attackers=Side.PARTY
    )
    _, events = execute(CombatState(), disciplined, CB, TypedDice([15, 3]))
    assert not any(isinstance(e, MoraleChecked) for e in events)


def test_cb_ini_1_side_d8_plus_best_dex_ties_to_party(pc, foe, started):
    # rule: CB-INI-1: party 3 + best DEX 2 = 5 against 4 + 1 = 5: tie goes to the party.
    state = started(
        CB, pc("Ann", stats={"DEX": 2}), pc("Bo", stats={"DEX": -1}), foe("Orc", stats={"DEX": 1})
    )
    after, events = _round(state, CB, [3, 4])
    settled = events[1]
    assert settled.totals == {"party": 5, "opposition": 5}
    assert after.initiative is Side.PARTY
    after, _ = _round(state, CB, [2, 5])
    assert after.initiative is Side.OPPOSITION


def test_cb_ini_2_order_of_sides_holds_in_later_rounds(pc, foe, started):
    # rule: CB-INI-2, CB-RND-1: no initiative dice after the first round.
    state = started(CB, pc("Ann"), foe("Orc"))
    state, _ = _round(state, CB, [1, 8])
    state, _ = execute(state, Resolve(), CB, TypedDice([]))
    state, _events = _round(state, CB, [])
    assert state.initiative is Side.OPPOSITION and state.order == (("Orc",), ("Ann",))
    # PG rerolls every round (PG-CBT-1: repeat from initiative).
    pg = started(PG, pc("Ann"), foe("Orc"))
    pg, _ = _round(pg, PG, [1, 6])
    pg, _ = execute(pg, Resolve(), PG, TypedDice([]))
    pg, _ = _round(pg, PG, [6, 1])
    assert pg.initiative is Side.PARTY


def test_cb_ini_3_individual_one_order_ties_to_party(pc, foe, started):
    # rule: CB-INI-3: Ann 6+1 = 7, Bo 2+0 = 2, opposition 6+1 = 7: Ann, Orcs, Bo.
    rules = CB.model_copy(
        update={"initiative": CB.initiative.model_copy(update={"method": "individual"})}
    )
    state = started(
        rules, pc("Ann", stats={"DEX": 1}), pc("Bo"), foe("Orc 1", stats={"DEX": 1}), foe("Orc 2")
    )
    state, _events = _round(state, rules, [6, 2, 6])
    assert state.order == (("Ann",), ("Orc 1", "Orc 2"), ("Bo",))


def test_pin_a_combatant_to_a_place(pc, foe, started):
    state = started(PG, pc("Ann"), pc("Bo"), foe("Orc"))
    state, _ = _round(state, PG, [5, 2])
    state, _ = execute(state, Pin("Bo", 3), PG, TypedDice([]))
    assert state.order == (("Ann",), ("Orc",), ("Bo",))
    state, _ = execute(state, Resolve(), PG, TypedDice([]))
    state, _ = _round(state, PG, [5, 2])  # the pin holds in later rounds
    assert state.order == (("Ann",), ("Orc",), ("Bo",))
