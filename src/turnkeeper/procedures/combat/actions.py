"""The action economy: what one actor may declare in a round, per ruleset.

An illegal declaration raises :class:`~turnkeeper.errors.IllegalCommandError` with one line
saying why, and changes nothing.

* ``tp`` (TP-ACT-1, TP-CBT-1): one spell, announced in the casters' step before anyone
  else; or up to 4 different non-magical things; or one thing twice. Two ``other`` actions
  the player describes differently are two things; attacks, shots, shoves or moves at
  different targets are one thing done again. The side
  without initiative announces before the side with it, whatever order the referee types
  them in: a declaration from the side with initiative waits until the other side is done.
* ``cb`` (CB-ACT-1 to CB-ACT-5): one main and one move action in either order; the main
  may become a second move; a move is never split around the main; a move covers up to
  30 ft (or the actor's rate); on-turn actions are free; one instant action a round.

Which kinds of action a ruleset has is its data (``actions.kinds``, else its economy's).
* ``pg`` (PG-MOV-1, PG-MOV-2): one action and a move near, or no action and a move far;
  more than 3000 coins cannot be carried, and from 1000 coins a character only moves near.
"""

from __future__ import annotations

from turnkeeper.dice import TypedDice, roll
from turnkeeper.errors import DiceInputError, IllegalCommandError, TurnkeeperError
from turnkeeper.kernel.combat_state import (
    OUT_OF_FIGHT,
    Action,
    ActionKind,
    Combatant,
    CombatState,
    Condition,
    Declaration,
    Phase,
    Side,
    other_side,
)
from turnkeeper.rules.schema import Ruleset
from turnkeeper.words import counted

__all__ = [
    "ACTION_WORDS",
    "MAIN_KINDS",
    "STRIKES",
    "check_declaration",
    "check_load",
    "check_target",
    "everything_at_once",
    "held",
    "in_reach",
    "parse_action",
    "same_beat",
]

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
    text: str,
    target: str | None = None,
    feet: int | None = None,
    magic_dice: int = 1,
    own_side: bool = False,
) -> Action:
    """One declared action as a referee writes it: ``ACTION`` or ``ACTION:TARGET``, either
    followed by what the player describes in brackets, ``other (take oil from my pouch)``;
    ``own_side``: a blow at a friend is meant.

    >>> parse_action("shoot:Goblin 1").kind.value, parse_action("attack", "Orc").target
    ('ranged', 'Orc')
    >>> parse_action("move:Fighter (cower behind the Fighter)").note
    'cower behind the Fighter'
    """
    text, note = text.strip(), ""
    if text.endswith(")") and "(" in text:
        text, _, described = text[:-1].partition("(")
        note = described.strip()
    kind_text, _, inline = text.partition(":")
    kind = ACTION_WORDS.get(kind_text.strip().lower())
    if kind is None:
        choices = ", ".join(k.value for k in ActionKind)
        raise TurnkeeperError(
            f"unknown action {kind_text.strip()!r}: use one of {choices}, then the target "
            "after a colon and what the player describes in brackets, e.g. "
            "'ranged:Lizardman 1 (throw the oil at them)'"
        )
    return Action(
        kind=kind,
        target=inline.strip() or target,
        feet=feet,
        dice=magic_dice,
        note=note,
        own_side=own_side and kind in STRIKES,
    )


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


def held(state: CombatState, declaration: Declaration, rules: Ruleset) -> bool:
    """TP-CBT-1 steps 4 and 5: the side with initiative announces last, knowing what the
    others announced. Its declaration, typed in before the other side has finished, waits."""
    if rules.actions.economy != "tp" or state.initiative is None or declaration.casts:
        return False
    side = state.get(declaration.actor).side
    return side is state.initiative and bool(state.still_to_act(other_side(side)))


def _side_word(side: Side) -> str:
    return "foes" if side is Side.OPPOSITION else side.value


def check_declaration(
    state: CombatState, declaration: Declaration, rules: Ruleset, *, at_once: bool = False
) -> None:
    """Raise IllegalCommandError if ``declaration`` is not allowed now; return if it is.

    ``at_once``: the actions are taken as soon as declared (`combat attack`); they add to
    what the actor did at once earlier this round, under the same limits, and wait for
    those who act before the actor this round (PG-CBT-1, CB-RND-1, TP-CBT-1).
    """
    if state.phase is Phase.ENDED:
        raise _illegal("the combat is over: start a new one")
    if state.phase is not Phase.DECLARE:
        raise _illegal("no round is running: start one with `combat round` before declaring")
    actor = state.get(declaration.actor)
    if not declaration.actions:
        raise _illegal(f"{actor.name} declares nothing: name at least one action")
    if not actor.standing and actor.name not in state.fell_at_once:
        out = ", ".join(sorted(c.value for c in actor.conditions))
        raise _illegal(f"{actor.name} is {out} and cannot act")
    for action in declaration.actions:
        if action.target is not None:
            check_target(state, actor, action, rules)
        if action.rolled:
            _check_rolled(action, rules)
    allowed = rules.actions.allowed_kinds
    for action in declaration.actions:
        if action.kind not in allowed:
            raise _illegal(
                f"{rules.name} has no {action.kind.value} actions: "
                f"declare {', '.join(k.value for k in allowed)}"
            )
    if not state.can_act(actor):
        # The others get a full round to themselves: no instant reaction either (CB-SUR-1).
        raise _illegal(f"{actor.name} is surprised and loses this round")
    if declaration.instant:
        _check_instant(state, actor, declaration, rules)
        return
    if actor.side in state.done:
        raise _illegal(
            f"the {actor.side.value} side said it was done this round: {actor.name} acts next round"
        )
    earlier = state.declaration(actor.name)
    actions = declaration.actions
    if at_once:
        if earlier is not None and actor.name not in state.acted:
            raise _illegal(
                f"{actor.name} has declared {_listed(earlier.actions)} this round: "
                "`combat resolve` rolls it"
            )
        actions = (*earlier.actions, *actions) if earlier is not None else actions
        _check_order(state, actor, rules)
    elif earlier is not None:
        _check_change(state, actor, rules)
    economy = rules.actions.economy
    if economy == "tp":
        _check_tp(state, actor, actions, rules)
    elif economy == "pg":
        _check_pg(actor, actions, rules)
    else:
        _check_cb(actor, actions, rules)


#: The actions that strike their target.
STRIKES = frozenset({ActionKind.ATTACK, ActionKind.RANGED})


def everything_at_once(rules: Ruleset) -> bool:
    """TP-INI-2: "In a combat turn, everything happens at once" (the overloaded initiative of
    TP-INI-1); the other presets' sides, or beats, act in turn."""
    return rules.initiative.method == "overloaded"


def same_beat(state: CombatState, first: str, second: str) -> bool:
    """Whether ``first`` and ``second`` act at the same time this round."""
    return any(first in beat and second in beat for beat in state.order)


def in_reach(
    state: CombatState, striker: str, target: Combatant, rules: Ruleset, *, struck_at_once: bool
) -> bool:
    """Whether a blow of ``striker``'s may strike ``target`` (PG-HP-1, TP-INI-2).

    One standing, always. One fallen to a blow struck at the same time as this one
    (``struck_at_once``, and ``striker`` acting with the target where the sides or beats
    act in turn): "resolve both attacks, then check who is still standing" (TP-INI-2). And
    one fallen the ruleset's ``attack.strikes_fallen`` names (the project's reading: the
    unconscious, whose hit points fall on towards death at minus their level, PG-HP-1);
    the dead never.
    """
    if target.standing:
        return True
    if struck_at_once and (everything_at_once(rules) or same_beat(state, striker, target.name)):
        return True
    fallen = target.conditions & OUT_OF_FIGHT
    return Condition.DEAD not in fallen and fallen <= set(rules.attack.strikes_fallen)


def check_target(state: CombatState, actor: Combatant, action: Action, rules: Ruleset) -> None:
    """Raise IllegalCommandError unless ``action``'s target may be struck (:func:`in_reach`:
    the dead and, as the ruleset reads them, the fallen are out of the fight and no longer
    targets, PG-HP-1), and a blow at one's own side must be meant (``own_side``), never a
    misspelt foe's name."""
    target = state.get(action.target or "")
    if action.kind not in STRIKES:
        return
    fell_at_once = target.name in state.fell_at_once
    if not in_reach(state, actor.name, target, rules, struck_at_once=fell_at_once):
        out = " and ".join(sorted(c.value for c in target.conditions & OUT_OF_FIGHT))
        standing = [c.name for c in state.members(other_side(actor.side)) if c.standing]
        rest = f"; still standing: {', '.join(standing)}" if standing else ""
        raise _illegal(f"{target.name} is {out}, out of the fight and no target{rest}")
    if target.side is actor.side and not action.own_side and target.name != actor.name:
        raise _illegal(
            f"{target.name} is on {actor.name}'s side: to strike a friend on purpose, "
            "say so (--own-side)"
        )


def _check_rolled(action: Action, rules: Ruleset) -> None:
    """A player's own roll is an attack die's faces: as many as the ruleset's attack die
    (``attack.die``) rolls, each a face that die shows."""
    if action.kind not in STRIKES or action.target is None:
        raise _illegal(
            f"a roll goes with an attack on someone, not with {action.kind.value}: "
            "the referee rolls what else the round needs"
        )
    faces = TypedDice(action.rolled)
    try:
        roll(rules.attack.die, faces)
    except DiceInputError as error:
        raise _illegal(f"the attack roll is {rules.attack.die}: {error}") from None
    if faces.remaining:
        raise _illegal(
            f"the attack roll is {rules.attack.die}, {len(action.rolled)} dice given: "
            "give its faces alone"
        )


def _check_change(state: CombatState, actor: Combatant, rules: Ruleset) -> None:
    """A declaration may be changed until the round is resolved (the new one replaces it,
    recorded as an event of its own); not once the actor has acted. Under TP-CBT-1 the side
    with initiative announces knowing what the other side announced, so once it has, the
    other side's declarations stand."""
    if actor.name in state.acted:
        raise _illegal(f"{actor.name} has already acted this round")
    leading = state.initiative
    if rules.actions.economy != "tp" or leading is None or actor.side is leading:
        return
    heard = [
        d.actor
        for d in state.declarations
        if state.get(d.actor).side is leading and not d.instant and not held(state, d, rules)
    ]
    if heard:
        raise _illegal(
            f"{actor.name} has already declared this round, and the {_side_word(leading)} "
            f"({', '.join(heard)}) announced knowing it: it stands until the round is resolved"
        )


def _listed(actions: tuple[Action, ...]) -> str:
    return "(" + ", ".join(str(a) for a in actions) + ")"


def _check_order(state: CombatState, actor: Combatant, rules: Ruleset) -> None:
    """An action taken at once waits for those who come first this round: under TP-CBT-1
    the side with initiative announces last; under PG-CBT-1 and CB-RND-1 the beats act in
    turn, each after the ones before it."""
    if rules.initiative.method == "overloaded":
        other = other_side(actor.side)
        waiting = state.still_to_act(other) if actor.side is state.initiative else ()
        if waiting:
            raise _illegal(
                f"the {actor.side.value} side has initiative and announces last: "
                f"{', '.join(waiting)} of the {other.value} side have not announced; "
                f"declare theirs, or say they are done with "
                f"`combat announce-done {_side_word(other)}`"
            )
        return
    for beat in state.order:
        if actor.name in beat:
            return
        for name in beat:
            first = state.get(name)
            if not state.can_act(first) or first.name in state.acted:
                continue
            if first.side in state.done:
                continue
            theirs = state.declaration(first.name)
            if theirs is not None:
                raise _illegal(
                    f"{first.name} acts before {actor.name} this round and has declared "
                    f"{_listed(theirs.actions)}: declare {actor.name}'s actions too and "
                    "resolve the round with `combat resolve`"
                )
            raise _illegal(
                f"{first.name} acts before {actor.name} this round and has not acted: "
                f"act with {first.name} first, or say the {first.side.value} side is done "
                f"with `combat announce-done {_side_word(first.side)}`"
            )


def _check_instant(
    state: CombatState, actor: Combatant, declaration: Declaration, rules: Ruleset
) -> None:
    """CB-ACT-5 (the project's default): one reaction outside one's turn per round."""
    if any(a.kind is not ActionKind.INSTANT for a in declaration.actions):
        raise _illegal("an instant action is declared on its own, outside the actor's turn")
    allowed = rules.actions.instant_actions_per_round
    used = state.instants_used.count(actor.name) + len(declaration.actions)
    if used > allowed:
        raise _illegal(
            f"{actor.name} has used the {counted(allowed, 'instant action')} of this round"
        )


def _thing(action: Action) -> tuple[ActionKind, str]:
    """TP-ACT-1: which thing an action is. Attacking, shooting, shoving, moving are one thing
    each, whoever they aim at and however they are put ("I shove a goblin to the ground, and
    another against the wall" is one thing twice); the other deeds are told apart by what
    the player describes (taking oil from a pouch, throwing a torch in a puddle)."""
    if action.kind is not ActionKind.OTHER:
        return action.kind, ""
    return action.kind, " ".join(action.note.casefold().split())


def _check_tp(
    state: CombatState, actor: Combatant, actions: tuple[Action, ...], rules: Ruleset
) -> None:
    kinds = [a.kind for a in actions]
    if ActionKind.CAST in kinds:
        if len(kinds) != 1:
            raise _illegal(
                f"{actor.name} casts a spell: casting is the whole round, nothing else with it"
            )
        announced = [
            d
            for d in state.declarations
            if not d.casts
            and not d.instant
            and not held(state, d, rules)
            and d.actor != actor.name  # a caster changing their mind to a spell
        ]
        if announced:
            raise _illegal(
                "spells are announced before everyone else: the casters' step is over this round"
            )
        return
    different, repeats = rules.actions.max_different_things, rules.actions.max_repeats
    things = {_thing(a) for a in actions}
    all_different = len(things) == len(actions) <= different
    one_repeated = len(things) == 1 and len(actions) <= repeats
    if not (all_different or one_repeated):
        raise _illegal(
            f"{actor.name} may do up to {different} different things or one thing "
            f"{repeats} times in a round, not {', '.join(str(a) for a in actions)} "
            "(tell things of one kind apart by what the player describes, in brackets)"
        )


def _check_cb(actor: Combatant, declared: tuple[Action, ...], rules: Ruleset) -> None:
    actions = [a for a in declared if a.kind is not ActionKind.ON_TURN]
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


def _check_pg(actor: Combatant, declared: tuple[Action, ...], rules: Ruleset) -> None:
    actions = [a for a in declared if a.kind is not ActionKind.ON_TURN]
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
