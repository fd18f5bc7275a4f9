"""The action economy per ruleset: an illegal declaration is refused and changes nothing."""

from __future__ import annotations

import pytest

from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import Action, ActionKind, Condition
from turnkeeper.procedures.combat import BeginRound, Declare, decide_combat, execute
from turnkeeper.rules.loader import preset

TP, PG, CB = preset("tp"), preset("pg"), preset("cb")
A = ActionKind


def act(kind, target=None, **kw):
    return Action(kind=kind, target=target, **kw)


def _declaring(rules, started, *combatants, faces):
    state, _ = execute(started(rules, *combatants), BeginRound(), rules, TypedDice(faces))
    return state


def refused(state, rules, actor, *actions, match):
    """Assert the declaration is illegal, says why, and leaves the state equal."""
    before = state.model_copy()
    with pytest.raises(IllegalCommandError, match=match):
        decide_combat(state, Declare(actor, actions), rules, TypedDice([]))
    assert state == before


def accepted(state, rules, actor, *actions):
    state, events = execute(state, Declare(actor, actions), rules, TypedDice([]))
    assert events
    return state


def test_tp_act_1_one_spell_or_four_different_things_or_one_twice(pc, foe, started):
    # rule: TP-ACT-1
    state = _declaring(TP, started, pc("Ann"), pc("Bo"), pc("Cy"), foe("Orc"), faces=[5])
    accepted(state, TP, "Ann", act(A.OTHER), act(A.RANGED, "Orc"), act(A.MOVE), act(A.MANEUVER))
    accepted(state, TP, "Ann", act(A.ATTACK, "Orc"), act(A.ATTACK, "Orc"))
    refused(
        state,
        TP,
        "Ann",
        act(A.ATTACK, "Orc"),
        act(A.ATTACK, "Orc"),
        act(A.ATTACK, "Orc"),
        match="one thing 2 times",
    )
    refused(
        state,
        TP,
        "Ann",
        act(A.ATTACK, "Orc"),
        act(A.ATTACK, "Orc"),
        act(A.MOVE),
        match="up to 4 different things",
    )
    refused(
        state,
        TP,
        "Ann",
        act(A.OTHER),
        act(A.RANGED, "Orc"),
        act(A.MOVE),
        act(A.MANEUVER),
        act(A.ATTACK, "Orc"),
        match="up to 4 different",
    )
    refused(state, TP, "Ann", act(A.CAST), act(A.MOVE), match="casting is the whole round")


def test_tp_act_1_things_are_told_apart_by_what_the_player_describes(pc, foe, started):
    # rule: TP-ACT-1: "I take oil from my pouch and I throw it at the lizardmen and I throw
    # the torch in my hand in the puddle and I cower behind the Fighter": four different
    # things, two of them 'other'; "I shove a goblin to the ground, and another against the
    # wall": one thing twice.
    state = _declaring(
        TP, started, pc("Ann"), pc("Fighter"), foe("Lizardman"), foe("Goblin 1"), foe("Goblin 2"),
        faces=[2],
    )  # fmt: skip
    accepted(
        state,
        TP,
        "Ann",
        act(A.OTHER, note="take oil from my pouch"),
        act(A.RANGED, "Lizardman", note="throw it at the lizardmen"),
        act(A.OTHER, note="throw the torch in my hand in the puddle"),
        act(A.MOVE, "Fighter", note="cower behind the Fighter"),
    )
    accepted(
        state,
        TP,
        "Ann",
        act(A.MANEUVER, "Goblin 1", note="shove to the ground"),
        act(A.MANEUVER, "Goblin 2", note="shove against the wall"),
    )
    refused(
        state,
        TP,
        "Ann",
        act(A.ATTACK, "Goblin 1", note="stab"),
        act(A.ATTACK, "Goblin 2", note="slash"),
        act(A.MOVE),
        match="up to 4 different things",
    )
    refused(
        state,
        TP,
        "Ann",
        act(A.OTHER, note="hide"),
        act(A.OTHER, note="hide"),
        act(A.MOVE),
        match="up to 4 different things",
    )


def test_tp_cbt_1_spells_first_then_side_without_initiative_then_with(pc, foe, started):
    # rule: TP-CBT-1 steps 3 to 5 (face 5: the party has initiative, so announces last)
    state = _declaring(TP, started, pc("Ann"), pc("Bo"), foe("Orc"), foe("Imp"), faces=[5])
    state = accepted(state, TP, "Imp", act(A.CAST, dice=2))
    state = accepted(state, TP, "Orc", act(A.ATTACK, "Ann"))
    refused(state, TP, "Bo", act(A.CAST), match="casters' step is over")
    state = accepted(state, TP, "Ann", act(A.ATTACK, "Orc"))
    # the party announced knowing the foes' plan: the foes' declarations stand; the party's
    # own may change until the round is resolved
    refused(state, TP, "Orc", act(A.MOVE), match="announced knowing it")
    state, (changed,) = execute(state, Declare("Ann", (act(A.MOVE),)), TP, TypedDice([]))
    assert changed.describe() == "Ann changes the declaration to move"
    assert [(d.actor, str(d.actions[0])) for d in state.declarations] == [
        ("Imp", "cast"),
        ("Orc", "attack Ann"),
        ("Ann", "move"),
    ]


def test_tp_init_the_side_with_initiative_announces_last_whatever_order_it_is_typed_in(
    pc, foe, started
):
    # rule: TP-CBT-1 steps 4 and 5, TP-INI-1 face 2 (the opponents have initiative): the
    # referee types the orc's declaration first; it is held, not refused, until the party
    # has announced, and may be changed until then; the party's declaration is not lost.
    state = _declaring(TP, started, pc("Ann"), pc("Bo"), foe("Orc"), faces=[2])
    state, (orc,) = execute(state, Declare("Orc", (act(A.ATTACK, "Ann"),)), TP, TypedDice([]))
    assert orc.held and "held until the other side has announced" in orc.describe()
    state, _ = execute(state, Declare("Orc", (act(A.ATTACK, "Bo"),)), TP, TypedDice([]))
    assert [d.actions[0].target for d in state.declarations] == ["Bo"]  # changed, not added
    state = accepted(state, TP, "Ann", act(A.ATTACK, "Orc"))
    state, (bo,) = execute(state, Declare("Bo", (act(A.MOVE),)), TP, TypedDice([]))
    assert not bo.held  # the party has finished: now the orc's stands announced
    refused(state, TP, "Ann", act(A.MOVE), match="the foes \\(Orc\\) announced knowing it")
    state, (orc,) = execute(state, Declare("Orc", (act(A.MOVE),)), TP, TypedDice([]))
    assert orc.changed and not orc.held  # the side with initiative may still change its mind
    assert [d.actor for d in state.declarations] == ["Orc", "Ann", "Bo"]


def test_tp_init_announce_done_ends_a_sides_announcements(pc, foe, started):
    # rule: TP-CBT-1 step 4: Bo says nothing this round; once the party is done the orc's
    # held declaration stands, and Bo may no longer declare.
    from turnkeeper.procedures.combat import AnnounceDone, Side

    state = _declaring(TP, started, pc("Ann"), pc("Bo"), foe("Orc"), faces=[2])
    state, (orc,) = execute(state, Declare("Orc", (act(A.ATTACK, "Ann"),)), TP, TypedDice([]))
    assert orc.held
    state = accepted(state, TP, "Ann", act(A.ATTACK, "Orc"))
    state, (done,) = execute(state, AnnounceDone(Side.PARTY), TP, TypedDice([]))
    assert done.describe() == "the party side is done this round; Bo does nothing"
    refused(state, TP, "Bo", act(A.MOVE), match="party side said it was done")
    state = accepted(state, TP, "Orc", act(A.MOVE))
    assert str(state.declaration("Orc").actions[0]) == "move"
    with pytest.raises(IllegalCommandError, match="already done"):
        decide_combat(state, AnnounceDone(Side.PARTY), TP, TypedDice([]))


def test_cb_act_1_one_main_and_one_move_in_either_order(pc, foe, started):
    # rule: CB-ACT-1
    state = _declaring(CB, started, pc("Ann"), foe("Orc"), faces=[5, 1])
    accepted(state, CB, "Ann", act(A.MOVE, feet=20), act(A.ATTACK, "Orc"))
    accepted(state, CB, "Ann", act(A.ATTACK, "Orc"), act(A.MOVE, feet=20))
    refused(state, CB, "Ann", act(A.ATTACK, "Orc"), act(A.RANGED, "Orc"), match="one main action")


def test_cb_act_2_main_turned_into_a_second_move(pc, foe, started):
    # rule: CB-ACT-2
    state = _declaring(CB, started, pc("Ann"), foe("Orc"), faces=[5, 1])
    accepted(state, CB, "Ann", act(A.MOVE, feet=30), act(A.MOVE, feet=30))
    refused(
        state,
        CB,
        "Ann",
        act(A.MOVE),
        act(A.MOVE),
        act(A.ATTACK, "Orc"),
        match="two by giving up the main",
    )
    refused(state, CB, "Ann", act(A.MOVE_FAR), match="cb has no move_far actions: declare")


def test_cb_act_3_move_up_to_30_ft_and_never_split_around_the_main(pc, foe, started):
    # rule: CB-ACT-3: 10 ft, shoot, 20 ft is the text's forbidden example.
    state = _declaring(CB, started, pc("Ann"), pc("Dwarf", move_feet=20), foe("Orc"), faces=[5, 1])
    refused(
        state,
        CB,
        "Ann",
        act(A.MOVE, feet=10),
        act(A.RANGED, "Orc"),
        act(A.MOVE, feet=20),
        match="cannot be split",
    )
    refused(state, CB, "Ann", act(A.MOVE, feet=35), match="0 to 30 ft")
    accepted(state, CB, "Ann", act(A.MOVE, feet=30))
    refused(state, CB, "Dwarf", act(A.MOVE, feet=25), match="0 to 20 ft")


def test_cb_act_4_on_turn_actions_are_free(pc, foe, started):
    # rule: CB-ACT-4
    state = _declaring(CB, started, pc("Ann"), foe("Orc"), faces=[5, 1])
    accepted(
        state,
        CB,
        "Ann",
        act(A.ON_TURN, note="shout"),
        act(A.ON_TURN, note="draw"),
        act(A.MOVE, feet=5),
        act(A.ON_TURN, note="reload"),
        act(A.RANGED, "Orc"),
    )


def test_cb_act_5_one_instant_action_a_round(pc, foe, started):
    # rule: CB-ACT-5 (the project's default)
    state = _declaring(CB, started, pc("Ann"), foe("Orc"), faces=[5, 1])
    state = accepted(state, CB, "Ann", act(A.ATTACK, "Orc"))
    state = accepted(state, CB, "Ann", act(A.INSTANT, note="parry"))
    refused(state, CB, "Ann", act(A.INSTANT, note="dodge"), match="instant action")
    refused(state, CB, "Orc", act(A.INSTANT), act(A.ATTACK, "Ann"), match="on its own")


def test_pg_mov_1_act_and_move_near_or_move_far(pc, foe, started):
    # rule: PG-MOV-1
    state = _declaring(PG, started, pc("Ann"), foe("Orc"), faces=[5, 1])
    accepted(state, PG, "Ann", act(A.MOVE, "Orc"), act(A.ATTACK, "Orc"))
    accepted(state, PG, "Ann", act(A.MOVE_FAR))
    refused(state, PG, "Ann", act(A.MOVE_FAR), act(A.ATTACK, "Orc"), match="gives up the action")
    refused(state, PG, "Ann", act(A.ATTACK, "Orc"), act(A.RANGED, "Orc"), match="one action")


def test_pg_mov_2_coins_limit_movement(pc, foe, started):
    # rule: PG-MOV-2 (the project's defaults: over 3000 cannot carry; from 1000 near only)
    state = _declaring(
        PG, started, pc("Ann", coins=1000), pc("Bo", coins=999), foe("Orc"), faces=[5, 1]
    )
    refused(state, PG, "Ann", act(A.MOVE_FAR), match="only moves near")
    accepted(state, PG, "Ann", act(A.MOVE))
    accepted(state, PG, "Bo", act(A.MOVE_FAR))
    with pytest.raises(IllegalCommandError, match="more than the 3000"):
        started(PG, pc("Cy", coins=3001), foe("Orc"))
    started(PG, pc("Cy", coins=3000), foe("Orc"))  # at most 3000: exactly 3000 is carried


def test_declaring_needs_a_running_round_and_a_standing_actor(pc, foe, started):
    state = started(TP, pc("Ann"), foe("Orc", hp=1), foe("Ogre", hp=50))
    refused(state, TP, "Ann", act(A.ATTACK, "Orc"), match="no round is running")
    state, _ = execute(state, BeginRound(), TP, TypedDice([2]))
    from turnkeeper.procedures.combat import Attack

    state, _ = execute(state, Attack("Ann", "Orc"), TP, TypedDice([20, 3]))
    state, _ = execute(state, BeginRound(), TP, TypedDice([2]))
    refused(state, TP, "Orc", act(A.ATTACK, "Ann"), match="dead and cannot act")
    with pytest.raises(Exception, match="no combatant named 'Zed'"):
        decide_combat(state, Declare("Ann", (act(A.ATTACK, "Zed"),)), TP, TypedDice([]))


def test_tp_cbt_1_the_dashboard_calls_the_side_without_initiative_first(pc, foe, started):
    # rule: TP-CBT-1 steps 4 and 5: face 5 gives the party initiative, so the orc announces
    # first; then Ann; Bo, who has gone down, is not called.
    from turnkeeper.web.render import next_actor

    state = _declaring(TP, started, pc("Ann"), pc("Bo", hp=0), foe("Orc"), faces=[5])
    state = state.with_conditions(["Bo"], add=[Condition.UNCONSCIOUS])
    assert next_actor(state) == "Orc"
    state = accepted(state, TP, "Orc", act(A.ATTACK, "Ann"))
    assert next_actor(state) == "Ann"
    state = accepted(state, TP, "Ann", act(A.ATTACK, "Orc"))
    assert next_actor(state) is None


def test_tp_atk_1_a_player_rolls_their_own_attack_die(pc, foe, started):
    # rule: TP-ATK-1 (d20 + STR, a hit above the AC): Ann's player rolls 11 on the phone.
    # Ann (STR 0) at the orc's AC 12 misses with 11 + 0; changed to 13, she hits, and the
    # record keeps her faces as typed in, the damage the referee's dice.
    state = _declaring(TP, started, pc("Ann"), foe("Orc", ac=12), faces=[2])
    state = accepted(state, TP, "Ann", act(A.ATTACK, "Orc", rolled=(11,)))
    missed, _ = decide_and_resolve(state)
    assert (missed.total, missed.hit, missed.rolls[0].typed_in) == (11, False, True)
    state, (changed,) = execute(
        state, Declare("Ann", (act(A.ATTACK, "Orc", rolled=(13,)),)), TP, TypedDice([])
    )
    assert changed.describe() == "Ann changes the declaration to attack Orc, rolling 13"
    hit, rest = decide_and_resolve(state, damage=[4])
    assert (hit.total, hit.hit, hit.rolls[0].text()) == (13, True, "d20 (13) = 13 (typed in)")
    assert rest[0].amount == 4 and not rest[0].rolls[0].typed_in


def decide_and_resolve(state, damage=()):
    from turnkeeper.procedures.combat import Resolve
    from turnkeeper.procedures.combat.outcomes import AttackMade

    events = decide_combat(state, Resolve(), TP, _Seeded(damage))
    made = next(i for i, e in enumerate(events) if isinstance(e, AttackMade))
    return events[made], events[made + 1 :]


class _Seeded(TypedDice):
    """The referee's dice: not typed in (the record tells a player's faces from them)."""

    @property
    def typed_in(self) -> bool:
        return False


def test_a_players_roll_must_be_the_attack_die_faces(pc, foe, started):
    # rule: TP-ATK-1: the attack die is one d20
    state = _declaring(TP, started, pc("Ann"), foe("Orc"), faces=[5])
    refused(state, TP, "Ann", act(A.ATTACK, "Orc", rolled=(21,)), match="a d20 shows 1 to 20")
    refused(state, TP, "Ann", act(A.ATTACK, "Orc", rolled=(3, 4)), match="2 dice given")
    refused(state, TP, "Ann", act(A.MOVE, rolled=(3,)), match="not with move")
