"""The action economy: what one actor may declare in a round, per ruleset.

An illegal declaration raises :class:`~turnkeeper.errors.IllegalCommandError` with one line
saying why, and changes nothing.

* ``tp`` (TP-ACT-1, TP-CBT-1): one spell, announced in the casters' step before anyone
  else; or up to 4 different non-magical things; or one thing twice. The side without
  initiative announces before the side with it.
* ``cb`` (CB-ACT-1 to CB-ACT-5): one main and one move action in either order; the main
  may become a second move; a move is never split around the main; a move covers up to
  30 ft (or the actor's rate); on-turn actions are free; one instant action a round.
* ``pg`` (PG-MOV-1, PG-MOV-2): one action and a move near, or no action and a move far;
  more than 3000 coins cannot be carried, and from 1000 coins a character only moves near.
"""

from __future__ import annotations

from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.kernel.combat_state import (
    Action,
    ActionKind,
    Combatant,
    CombatState,
    Condition,
    Declaration,
    Phase,
)
from turnkeeper.rules.schema import Ruleset

__all__ = ["ACTION_WORDS", "MAIN_KINDS", "check_declaration", "check_load", "parse_action"]

#: The words a referee types for an action: each kind's own name, and the usual others.
ACTION_WORDS: dict[str, ActionKind] = {
    **{kind.value: kind for kind in ActionKind},
    "shoot": ActionKind.RANGED,
    "spell": ActionKind.CAST,
    "far": ActionKind.MOVE_FAR,
    "move-far": ActionKind.MOVE_FAR,
    "on-turn": ActionKind.ON_TURN,
    "tackle": ActionKind.MANEUVER,
    "shove": ActionKind.MANEUVER,
}


def parse_action(
    text: str, target: str | None = None, feet: int | None = None, magic_dice: int = 1
) -> Action:
    """One declared action as a referee writes it, ``ACTION`` or ``ACTION:TARGET``.

    >>> parse_action("shoot:Goblin 1").kind.value, parse_action("attack", "Orc").target
    ('ranged', 'Orc')
    """
    kind_text, _, inline = text.partition(":")
    kind = ACTION_WORDS.get(kind_text.strip().lower())
    if kind is None:
        choices = ", ".join(k.value for k in ActionKind)
        raise TurnkeeperError(f"unknown action {kind_text!r}: use one of {choices}")
    return Action(kind=kind, target=inline.strip() or target, feet=feet, dice=magic_dice, note="")


#: What a CB main action is (CB-ACT-1); in TP and PG these are the 'things' and 'actions'.
MAIN_KINDS = frozenset(
    {ActionKind.ATTACK, ActionKind.RANGED, ActionKind.CAST, ActionKind.MANEUVER, ActionKind.OTHER}
)
_MOVES = frozenset({ActionKind.MOVE, ActionKind.MOVE_FAR})


def _illegal(message: str) -> IllegalCommandError:
    return IllegalCommandError(message)


def check_load(combatant: Combatant, rules: Ruleset) -> None:
    """PG-MOV-2: more than ``max_coins`` coins cannot be carried.

    >>> from turnkeeper.rules.schema import RulesetInfo, Side
    >>> rules = Ruleset(ruleset=RulesetInfo(name="x", title="x"))
    >>> ann = Combatant(name="Ann", side=Side.PARTY, hp=5, max_hp=5, ac=12, coins=3001)
    >>> check_load(ann, rules)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    turnkeeper.errors.IllegalCommandError: Ann carries 3001 coins, more than the 3000 a ...
    """
    limit = rules.actions.max_coins
    if combatant.coins > limit:
        raise _illegal(
            f"{combatant.name} carries {combatant.coins} coins, more than the {limit} "
            "a character can carry: drop some"
        )


def check_declaration(state: CombatState, declaration: Declaration, rules: Ruleset) -> None:
    """Raise IllegalCommandError if ``declaration`` is not allowed now; return if it is."""
    if state.phase is Phase.ENDED:
        raise _illegal("the combat is over: start a new one")
    if state.phase is not Phase.DECLARE:
        raise _illegal("no round is running: start one with `combat round` before declaring")
    actor = state.get(declaration.actor)
    if not declaration.actions:
        raise _illegal(f"{actor.name} declares nothing: name at least one action")
    if not actor.standing:
        out = ", ".join(sorted(c.value for c in actor.conditions))
        raise _illegal(f"{actor.name} is {out} and cannot act")
    for action in declaration.actions:
        if action.target is not None:
            state.get(action.target)
    instants = [a for a in declaration.actions if a.kind is ActionKind.INSTANT]
    if instants:
        _check_instant(state, actor, declaration, rules)
        return
    if state.in_free_round and Condition.SURPRISED in actor.conditions:
        raise _illegal(f"{actor.name} is surprised and loses this round")
    if state.declaration(actor.name) is not None:
        raise _illegal(f"{actor.name} has already declared this round")
    economy = rules.actions.economy
    if economy == "tp":
        _check_tp(state, actor, declaration, rules)
    elif economy == "pg":
        _check_pg(actor, declaration, rules)
    else:
        _check_cb(actor, declaration, rules)


def _check_instant(
    state: CombatState, actor: Combatant, declaration: Declaration, rules: Ruleset
) -> None:
    """CB-ACT-5 (the project's default): one reaction outside one's turn per round."""
    if any(a.kind is not ActionKind.INSTANT for a in declaration.actions):
        raise _illegal("an instant action is declared on its own, outside the actor's turn")
    allowed = rules.actions.instant_actions_per_round
    used = state.instants_used.count(actor.name) + len(declaration.actions)
    if used > allowed:
        raise _illegal(f"{actor.name} has used the {allowed} instant action(s) of this round")


def _check_tp(
    state: CombatState, actor: Combatant, declaration: Declaration, rules: Ruleset
) -> None:
    kinds = [a.kind for a in declaration.actions]
    if ActionKind.CAST in kinds:
        if len(kinds) != 1:
            raise _illegal(
                f"{actor.name} casts a spell: casting is the whole round, nothing else with it"
            )
        if any(not d.casts for d in state.declarations):
            raise _illegal(
                "spells are announced before everyone else: the casters' step is over this round"
            )
        return
    different, repeats = rules.actions.max_different_things, rules.actions.max_repeats
    all_different = len(set(kinds)) == len(kinds) and len(kinds) <= different
    one_repeated = len(set(kinds)) == 1 and len(kinds) <= repeats
    if not (all_different or one_repeated):
        raise _illegal(
            f"{actor.name} may do up to {different} different things or one thing "
            f"{repeats} times in a round, not {', '.join(k.value for k in kinds)}"
        )
    if state.initiative is not None and actor.side is not state.initiative:
        announced = [
            d
            for d in state.declarations
            if not d.casts and state.get(d.actor).side is state.initiative
        ]
        if announced:
            raise _illegal(
                f"the {state.initiative.value} side has initiative and has begun to announce; "
                f"the {actor.side.value} side announces first"
            )


def _check_cb(actor: Combatant, declaration: Declaration, rules: Ruleset) -> None:
    actions = [a for a in declaration.actions if a.kind is not ActionKind.ON_TURN]
    mains = [i for i, a in enumerate(actions) if a.kind in MAIN_KINDS]
    moves = [i for i, a in enumerate(actions) if a.kind in _MOVES]
    if any(a.kind is ActionKind.MOVE_FAR for a in actions):
        raise _illegal("a move action covers a set distance: declare two move actions instead")
    if len(mains) > 1:
        raise _illegal(f"{actor.name} has one main action a turn, not {len(mains)}")
    if mains and moves and min(moves) < mains[0] < max(moves):
        raise _illegal("a move action cannot be split around the main action")
    if len(moves) > 2 - len(mains):
        raise _illegal(f"{actor.name} has one move action, or two by giving up the main action")
    rate = actor.move_feet if actor.move_feet is not None else rules.actions.move_feet
    for action in actions:
        if (
            action.kind is ActionKind.MOVE
            and action.feet is not None
            and not 0 <= action.feet <= rate
        ):
            raise _illegal(f"{actor.name} moves 0 to {rate} ft in a move action, not {action.feet}")


def _check_pg(actor: Combatant, declaration: Declaration, rules: Ruleset) -> None:
    actions = [a for a in declaration.actions if a.kind is not ActionKind.ON_TURN]
    mains = [a for a in actions if a.kind in MAIN_KINDS]
    near = [a for a in actions if a.kind is ActionKind.MOVE]
    far = [a for a in actions if a.kind is ActionKind.MOVE_FAR]
    if near or far:
        check_load(actor, rules)
    if far:
        if mains or near or len(far) > 1:
            raise _illegal(f"{actor.name} gives up the action to move far: nothing else with it")
        if actor.coins >= rules.actions.heavy_coins:
            raise _illegal(
                f"{actor.name} carries {actor.coins} coins: from {rules.actions.heavy_coins} "
                "a character only moves near"
            )
        return
    if len(mains) > 1:
        raise _illegal(f"{actor.name} takes one action a round, not {len(mains)}")
    if len(near) > 1:
        raise _illegal(f"{actor.name} moves near once with an action, or far without one")
