"""Whole rounds: simultaneous resolution, opposed saves, side order, the end of a fight."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnkeeper.dice import SeededDice, TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import Action, ActionKind
from turnkeeper.procedures.combat import (
    BeginRound,
    Combatant,
    CombatState,
    Declare,
    EndCombat,
    Phase,
    Resolve,
    Side,
    StartCombat,
    execute,
    fold_combat,
    winner_of,
)
from turnkeeper.procedures.combat.events import CombatEnded
from turnkeeper.procedures.combat.outcomes import ActionTaken, AttackMade, MagicRolled, OpposedSave
from turnkeeper.rules.loader import preset

TP, PG, CB = preset("tp"), preset("pg"), preset("cb")
A = ActionKind


def _declare(state, rules, actor, *actions):
    state, _ = execute(state, Declare(actor, actions), rules, TypedDice([]))
    return state


def test_tp_ini_2_attacks_on_each_other_both_resolve(pc, foe, started):
    # rule: TP-INI-2: both hit and both drop; no opposed save between two attacks.
    state = started(TP, pc("Ann", hp=3, ac=5, damage="d6"), foe("Orc", hp=3, ac=5, damage="d6"))
    state, _ = execute(state, BeginRound(), TP, TypedDice([5]))
    state = _declare(state, TP, "Orc", Action(kind=A.ATTACK, target="Ann"))
    state = _declare(state, TP, "Ann", Action(kind=A.ATTACK, target="Orc"))
    state, events = execute(state, Resolve(), TP, TypedDice([15, 6, 15, 6]))
    assert [type(e) for e in events].count(AttackMade) == 2
    assert not any(isinstance(e, OpposedSave) for e in events)
    assert not state.get("Ann").standing and not state.get("Orc").standing
    assert winner_of(state) is None


def test_tp_ini_2_incompatible_actions_opposed_save_winner_first(pc, foe, started):
    # rule: TP-INI-2: the fighter tackles the orc while the orc attacks the magic user.
    # Opposed save: fighter 14 + STR 2 = 16 against orc 15 + 0: the fighter acts first.
    state = started(TP, pc("Fighter", stats={"STR": 2}), pc("Mage", hp=2, ac=5), foe("Orc"))
    state, _ = execute(state, BeginRound(), TP, TypedDice([5]))
    state = _declare(state, TP, "Orc", Action(kind=A.ATTACK, target="Mage"))
    state = _declare(state, TP, "Fighter", Action(kind=A.MANEUVER, target="Orc", note="tackle"))
    state, events = execute(state, Resolve(), TP, TypedDice([14, 15, 20, 6]))
    save = events[0]
    assert isinstance(save, OpposedSave) and save.totals == (16, 15)
    assert save.winner == "Fighter"
    acted = [e for e in events if isinstance(e, ActionTaken | AttackMade)]
    assert isinstance(acted[0], ActionTaken) and acted[0].actor == "Fighter"
    assert isinstance(acted[1], AttackMade) and acted[1].attacker == "Orc"
    # A tie: both act at once, in one beat.
    state2 = started(TP, pc("Fighter"), pc("Mage"), foe("Orc"))
    state2, _ = execute(state2, BeginRound(), TP, TypedDice([5]))
    state2 = _declare(state2, TP, "Orc", Action(kind=A.ATTACK, target="Mage"))
    state2 = _declare(state2, TP, "Fighter", Action(kind=A.MANEUVER, target="Orc"))
    _, events = execute(state2, Resolve(), TP, TypedDice([10, 10, 1]))
    assert events[0].winner is None


def test_tp_mag_1_cast_rolls_the_chosen_magic_dice(pc, foe, started):
    # rule: TP-MAG-1, TP-CBT-1 step 3
    state = started(TP, pc("Mage"), foe("Orc"))
    state, _ = execute(state, BeginRound(), TP, TypedDice([6]))
    state = _declare(state, TP, "Mage", Action(kind=A.CAST, dice=2, note="sleep"))
    _, events = execute(state, Resolve(), TP, TypedDice([3, 4]))
    magic = next(e for e in events if isinstance(e, MagicRolled))
    assert magic.total == 3 + 4 + 1  # face 6, second wind: +1 to the sum


def test_pg_cbt_1_winning_side_acts_first_and_its_results_take_effect(pc, foe, started):
    # rule: PG-CBT-1, PG-INI-1: the party wins 5 to 2, kills the orc, which never swings;
    # with nobody left standing against it the combat "has been resolved": it ends there,
    # and no step two (initiative) follows.
    state = started(PG, pc("Ann", damage="d6"), foe("Orc", hp=3, ac=10))
    state, _ = execute(state, BeginRound(), PG, TypedDice([5, 2]))
    state = _declare(state, PG, "Orc", Action(kind=A.ATTACK, target="Ann"))
    state = _declare(state, PG, "Ann", Action(kind=A.ATTACK, target="Orc"))
    state, events = execute(state, Resolve(), PG, TypedDice([15, 4]))
    assert [e.describe() for e in events if isinstance(e, ActionTaken)] == [
        "Orc: is down and does not act"
    ]
    assert winner_of(state) is Side.PARTY
    assert [e.describe() for e in events[-2:]] == [
        "the round is resolved",
        "combat over: party wins",
    ]
    assert state.phase is Phase.ENDED and state.rest_due is PG.rest.after_fight
    with pytest.raises(IllegalCommandError, match="combat is over"):
        execute(state, BeginRound(), PG, TypedDice([]))
    with pytest.raises(IllegalCommandError, match="combat is over"):
        execute(state, EndCombat(), PG, TypedDice([]))


def test_cb_side_1_two_sides_and_distinct_names(pc, foe):
    # rule: CB-SIDE-1
    ally = Combatant(name="Hireling", side=Side.PARTY, hp=4, max_hp=4, ac=11, hd=1)
    state, _ = execute(
        CombatState(),
        StartCombat((pc("Ann"), ally, foe("Orc")), surprised=frozenset()),
        CB,
        TypedDice([]),
    )
    assert [c.name for c in state.members(Side.PARTY)] == ["Ann", "Hireling"]
    with pytest.raises(IllegalCommandError, match="distinct name"):
        execute(CombatState(), StartCombat((pc("Orc"), foe("orc"))), CB, TypedDice([]))


def _party() -> tuple[Combatant, ...]:
    return (
        Combatant(
            name="Ann", side=Side.PARTY, hp=8, max_hp=8, ac=13, stats={"STR": 1}, damage="d8"
        ),
        Combatant(name="Bo", side=Side.PARTY, hp=6, max_hp=6, ac=12, damage="d6"),
        Combatant(name="Orc 1", side=Side.OPPOSITION, hp=5, max_hp=5, ac=12, hd=1),
        Combatant(name="Orc 2", side=Side.OPPOSITION, hp=5, max_hp=5, ac=12, hd=1),
    )


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), name=st.sampled_from(["tp", "pg", "cb"]))
def test_a_seeded_fight_folds_back_to_the_same_state(seed, name):
    """Any fight: its events rebuild its state, and hit points only go down."""
    rules = preset(name)
    dice = SeededDice(seed)
    state, events = execute(
        CombatState(), StartCombat(_party(), surprised=frozenset()), rules, dice
    )
    log = list(events)
    for _ in range(30):
        if state.phase is Phase.ENDED:
            break
        state, events = execute(state, BeginRound(), rules, dice)
        log += events
        if state.phase is Phase.ENDED:  # TP-INI-1 face 2's fatigue felled the last one
            break
        # The side without initiative announces first (TP-CBT-1).
        for c in sorted(state.combatants, key=lambda c: c.side is state.initiative):
            if not c.standing:
                continue
            enemies = [e for e in state.combatants if e.side is not c.side and e.standing]
            if enemies:
                state, events = execute(
                    state,
                    Declare(c.name, (Action(kind=A.ATTACK, target=enemies[0].name),)),
                    rules,
                    dice,
                )
                log += events
        state, events = execute(state, Resolve(), rules, dice)
        log += events
    assert fold_combat(log) == state
    for before, after in zip(_party(), state.combatants, strict=True):
        assert after.hp <= before.hp
    assert state.seconds == state.round * rules.time.round_seconds
    # PG-CBT-1: a fight ends by itself when, and only when, a side has nobody standing
    both_stand = state.side_standing(Side.PARTY) and state.side_standing(Side.OPPOSITION)
    assert (state.phase is Phase.ENDED) is not both_stand
    if both_stand:
        state, events = execute(state, EndCombat(), rules, dice)
        assert isinstance(events[-1], CombatEnded)


def test_ex_rest_2_a_fight_is_followed_by_a_turn_of_rest(pc, foe, started):
    # rule: EX-REST-2
    ex = preset("ex")
    state, events = execute(started(ex, pc("Ann"), foe("Orc")), EndCombat(), ex, TypedDice([]))
    assert events[-1].rest_due and state.rest_due
    assert "a turn of rest is due" in events[-1].describe()


def test_tp_roll_1_only_risky_actions_are_rolled(pc, foe, started):
    # rule: TP-ROLL-1: hiding behind the fighter simply happens; only the attack is rolled.
    state = started(TP, pc("Ann"), pc("Bo"), foe("Orc", ac=25))
    state, _ = execute(state, BeginRound(), TP, TypedDice([5]))
    state = _declare(state, TP, "Bo", Action(kind=A.OTHER, note="cower behind Ann"))
    state = _declare(state, TP, "Ann", Action(kind=A.ATTACK, target="Orc"))
    dice = TypedDice([7])
    _, events = execute(state, Resolve(), TP, dice)
    assert dice.remaining == 0
    taken = [e for e in events if isinstance(e, ActionTaken)]
    assert [(e.actor, e.rolls) for e in taken] == [("Bo", ())]
