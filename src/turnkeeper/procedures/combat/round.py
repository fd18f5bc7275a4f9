"""The combat round as commands: start, begin a round, declare, resolve, attack, pin, end.

``decide_combat(state, command, rules, dice)`` returns the events a command causes and never
changes ``state``; ``execute`` folds them in. Every round follows its ruleset:

* TP-CBT-1: overloaded initiative die, the referee's adjustment, casters announce, the side
  without initiative, then the side with it; then everything resolves at once (TP-INI-2),
  except that incompatible actions are settled by an opposed save whose winner acts first.
* PG-CBT-1: surprise, initiative each round, the winning side acts and its results take
  effect, then the losing side.
* CB-RND-1: reaction, surprise round, initiative once, and the same order every round.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from turnkeeper.dice import DiceSource, Roll
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import (
    Action,
    ActionKind,
    Combatant,
    CombatState,
    Declaration,
    Phase,
    Side,
)
from turnkeeper.procedures.combat.actions import (
    STRIKES,
    check_declaration,
    check_load,
    everything_at_once,
    held,
    in_reach,
    same_beat,
)
from turnkeeper.procedures.combat.attacks import (
    attack,
    magic,
    opposed_check,
    opposed_save,
    saving_throw,
    treasure,
)
from turnkeeper.procedures.combat.events import (
    CombatEnded,
    CombatEvent,
    CombatStarted,
    PlacePinned,
    RoundBegan,
    RoundResolved,
    SideDone,
    fold_combat,
)
from turnkeeper.procedures.combat.initiative import roll_initiative, settle_surprise
from turnkeeper.procedures.combat.outcomes import (
    ActionTaken,
    CheckRolled,
    Damaged,
    Declared,
    Moved,
    Surrendered,
)
from turnkeeper.procedures.combat.roster import MAX_COMBATANTS
from turnkeeper.procedures.surprise import SurpriseSituation
from turnkeeper.rules.schema import Ruleset
from turnkeeper.world.sites import SiteLevel

__all__ = [
    "DOWN",
    "AnnounceDone",
    "Attack",
    "BeginRound",
    "Check",
    "CombatCommand",
    "Declare",
    "EndCombat",
    "Pin",
    "Resolve",
    "Save",
    "StartCombat",
    "Surrender",
    "able",
    "decide_combat",
    "execute",
    "settle",
    "winner_of",
]


#: What one who is down does with the action they declared: nothing.
DOWN = "is down and does not act"


@dataclass(frozen=True)
class StartCombat:
    """Start a fight. ``surprised`` given settles surprise by hand (or from the encounter);
    otherwise the ruleset's surprise method rolls for groups not ``aware``, and surprise by
    movement settles the ``meeting`` (EX-SUR-1 to EX-SUR-4)."""

    combatants: tuple[Combatant, ...]
    surprised: frozenset[Side] | None = None
    aware: frozenset[Side] = frozenset()
    attackers: Side | None = None
    reaction: str | None = None
    surprised_members: tuple[str, ...] = ()
    meeting: SurpriseSituation | None = None


@dataclass(frozen=True)
class BeginRound:
    """Start the next round: the clock moves on, initiative is rolled (or kept).

    ``adjustment``: the referee's step on the initiative face (TP-CBT-1); ``influence``: the
    party's sway on the reaction of what a noise brings (TP-INI-1 face 1); ``level``: the
    site level the fight is in, whose wandering table says what that is (a campaign fills
    it in from its site; None: not in a site); ``leader_cha``: the party leader's CHA, which
    the noise's reaction roll adds as every reaction roll does (PG-REA-1; a campaign fills
    it in from its party; None: a fight on its own, led by the party side's first member).
    """

    adjustment: int = 0
    influence: int = 0
    level: SiteLevel | None = None
    leader_cha: int | None = None


@dataclass(frozen=True)
class Declare:
    """An actor announces this round's actions."""

    actor: str
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class Resolve:
    """Resolve every declared action in the round's order of beats."""


@dataclass(frozen=True)
class Attack:
    """One attack rolled at once (the referee's shortcut): declared and resolved in one
    step, so it counts against the actor's actions this round and waits its turn."""

    attacker: str
    target: str
    ranged: bool = False
    own_side: bool = False


@dataclass(frozen=True)
class Save:
    """A combatant forced to a saving throw by a spell, a trap, a poison (PG-SAVE-1): it
    takes no action of theirs and may come at any moment of the round."""

    name: str


@dataclass(frozen=True)
class Check:
    """A risky action the referee asks to be rolled (TP-ROLL-1) as an opposed check: d20 +
    ``stat`` against the target's ``defence`` in it (TP-OPP-1). It is part of what the actor
    does this round, not an action of its own."""

    actor: str
    stat: str
    defence: int


@dataclass(frozen=True)
class AnnounceDone:
    """A side has finished announcing (or acting) this round: its members who declared
    nothing do nothing, and those who come after it need not wait for them."""

    side: Side


@dataclass(frozen=True)
class Pin:
    """Pin a combatant to a place in the order (1 is first); it keeps it in later rounds."""

    name: str
    place: int


@dataclass(frozen=True)
class Surrender:
    """Combatants yield (a parley, a rout): out of the fight, and when their side has nobody
    left fighting, the fight is over (PG-CBT-1)."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class EndCombat:
    """End the fight; the winner is worked out when one side is down."""

    winner: Side | None = field(default=None)


CombatCommand = (
    StartCombat
    | BeginRound
    | Declare
    | Resolve
    | Attack
    | Save
    | Check
    | AnnounceDone
    | Pin
    | Surrender
    | EndCombat
)


def winner_of(state: CombatState) -> Side | None:
    """The side still standing when the other is not; None while both (or neither) stand."""
    party, opposition = state.side_standing(Side.PARTY), state.side_standing(Side.OPPOSITION)
    if party and not opposition:
        return Side.PARTY
    if opposition and not party:
        return Side.OPPOSITION
    return None


def execute(
    state: CombatState, command: CombatCommand, rules: Ruleset, dice: DiceSource
) -> tuple[CombatState, list[CombatEvent]]:
    """Decide a command and fold its events: the new state and what happened."""
    events = decide_combat(state, command, rules, dice)
    for event in events:
        state = event.apply_combat(state)
    return state, events


def decide_combat(
    state: CombatState, command: CombatCommand, rules: Ruleset, dice: DiceSource
) -> list[CombatEvent]:
    """The events ``command`` causes in this fight, by the ruleset, with dice from ``dice``;
    when they leave a side with nobody able to fight, the fight's end follows them."""
    events = _decide(state, command, rules, dice)
    if isinstance(command, EndCombat):
        return events
    return events + settle(fold_combat(events, state), rules, dice)


def able(state: CombatState, side: Side) -> bool:
    """Someone of ``side`` still fights: standing, or struck down this round where everything
    happens at once and so still acting in it (TP-INI-2)."""
    return any(c.standing or c.name in state.fell_at_once for c in state.members(side))


def settle(state: CombatState, rules: Ruleset, dice: DiceSource) -> list[CombatEvent]:
    """The fight's end once a side has nobody able to fight (dead, unconscious, fled): the
    fight "has been resolved" (PG-CBT-1), whatever the referee types next. The round running
    ends with it, so what ticks at a round's end ticks (DG-CD-1). Nothing while both fight."""
    if not state.combatants or state.phase is Phase.ENDED:
        return []
    if able(state, Side.PARTY) and able(state, Side.OPPOSITION):
        return []
    return _end(state, winner_of(state), rules, dice)


def _end(
    state: CombatState, winner: Side | None, rules: Ruleset, dice: DiceSource
) -> list[CombatEvent]:
    """The round running resolved (what was declared and not done is dropped: the fight is
    over), treasure when the party overcame foes worth experience (PG-TRE-1), the rest due."""
    events: list[CombatEvent] = [RoundResolved()] if state.phase is Phase.DECLARE else []
    gold = None
    rolls: tuple[Roll, ...] = ()
    if winner is Side.PARTY and any(c.xp for c in state.members(Side.OPPOSITION)):
        gold, multiplier = treasure(state, rules, dice)
        rolls = (multiplier,)
    events.append(
        CombatEnded(winner=winner, treasure=gold, rest_due=rules.rest.after_fight, rolls=rolls)
    )
    return events


def _decide(
    state: CombatState, command: CombatCommand, rules: Ruleset, dice: DiceSource
) -> list[CombatEvent]:
    if isinstance(command, StartCombat):
        return _start(command, rules, dice)
    if not state.combatants:
        raise IllegalCommandError("no combat is running: start one with `combat start`")
    if state.phase is Phase.ENDED:
        raise IllegalCommandError("the combat is over: start a new one with `combat start`")
    if isinstance(command, BeginRound):
        ended: list[CombatEvent] = []
        if state.phase is Phase.DECLARE:
            if state.pending():
                waiting = "; ".join(
                    f"{d.actor}: {', '.join(str(a) for a in d.actions)}" for d in state.pending()
                )
                raise IllegalCommandError(
                    f"round {state.round} still has declared actions to resolve ({waiting}): "
                    "resolve them with `combat resolve`"
                )
            # Every action this round was taken at once (`combat attack`): the round is over,
            # and with it the fight if a side fell in it (settled by decide_combat).
            ended = _resolve(state, rules, dice)
            state = fold_combat(ended, state)
            if not (able(state, Side.PARTY) and able(state, Side.OPPOSITION)):
                return ended
        began = RoundBegan(
            round=state.round + 1,
            seconds=rules.time.round_seconds,
            free_round=state.free_round is not None,
        )
        return [
            *ended,
            began,
            *roll_initiative(
                began.apply_combat(state),
                rules,
                dice,
                adjustment=command.adjustment,
                influence=command.influence,
                level=command.level,
                leader_cha=command.leader_cha,
            ),
        ]
    if isinstance(command, Declare):
        actor = state.get(command.actor)
        declaration = Declaration(actor=actor.name, actions=command.actions)
        check_declaration(state, declaration, rules)
        # TP-CBT-1: the side with initiative hears the other announce, never the reverse;
        # the party hears the foes' plan only when it has initiative itself.
        unheard = actor.side is Side.OPPOSITION and state.initiative is not Side.PARTY
        if declaration.instant:
            # CB-ACT-5 (the project's default): a reaction, taken when it is declared.
            taken = [ActionTaken(actor=declaration.actor, text=str(a)) for a in command.actions]
            return [Declared(declaration=declaration, instant=True, unheard=unheard), *taken]
        changed = state.declaration(actor.name) is not None
        return [
            Declared(
                declaration=declaration,
                held=held(state, declaration, rules),
                unheard=unheard,
                changed=changed,
            )
        ]
    if isinstance(command, AnnounceDone):
        if state.phase is not Phase.DECLARE:
            raise IllegalCommandError("no round is running: start one with `combat round`")
        if command.side in state.done:
            raise IllegalCommandError(f"the {command.side.value} side is already done this round")
        return [SideDone(side=command.side, passing=state.still_to_act(command.side))]
    if isinstance(command, Resolve):
        if state.phase is not Phase.DECLARE:
            raise IllegalCommandError("no round is running: start one with `combat round`")
        return _resolve(state, rules, dice)
    if isinstance(command, Attack):
        attacker, target = state.get(command.attacker), state.get(command.target)
        if not attacker.standing and attacker.name not in state.fell_at_once:
            raise IllegalCommandError(f"{attacker.name} is out of the fight and cannot attack")
        kind = ActionKind.RANGED if command.ranged else ActionKind.ATTACK
        declaration = Declaration(
            actor=attacker.name,
            actions=(Action(kind=kind, target=target.name, own_side=command.own_side),),
        )
        check_declaration(state, declaration, rules, at_once=True)
        struck = attack(
            state, attacker.name, target.name, rules, dice, ranged=command.ranged, at_once=True
        )
        # Whoever this fells still acts when they act at the same time as the attacker:
        # TP-INI-2 (everything happens at once), PG-INI-1's tie ("both sides are acting
        # simultaneously"), one beat of the order.
        return [
            e.model_copy(update={"at_once": True})
            if isinstance(e, Damaged)
            and (everything_at_once(rules) or same_beat(state, attacker.name, e.target))
            else e
            for e in struck
        ]
    if isinstance(command, Save):
        saver = state.get(command.name)
        if not saver.standing:
            raise IllegalCommandError(f"{saver.name} is out of the fight and makes no save")
        return [saving_throw(saver, rules, dice)]
    if isinstance(command, Check):
        actor = state.get(command.actor)
        stat = command.stat.strip().upper()
        if stat not in rules.stats:
            raise IllegalCommandError(
                f"no stat {command.stat!r} in {rules.name}; use one of {', '.join(rules.stats)}"
            )
        success, thrown = opposed_check(
            actor, stat, command.defence, rules, dice, second_wind=state.second_wind
        )
        return [
            CheckRolled(
                actor=actor.name,
                stat=stat,
                defence=command.defence,
                total=thrown.total,
                success=success,
                rolls=(thrown,),
            )
        ]
    if isinstance(command, Surrender):
        if not command.names:
            raise IllegalCommandError("name who yields: `combat surrender NAME...`")
        yielding = [state.get(name) for name in command.names]
        out = [c.name for c in yielding if not c.standing]
        if out:
            raise IllegalCommandError(f"{', '.join(out)}: already out of the fight")
        return [Surrendered(names=tuple(dict.fromkeys(c.name for c in yielding)))]
    if isinstance(command, Pin):
        name = state.get(command.name).name
        if command.place < 1:
            raise IllegalCommandError(f"places in the order start at 1, not {command.place}")
        return [PlacePinned(name=name, place=command.place)]
    return _end(state, command.winner or winner_of(state), rules, dice)


def _start(command: StartCombat, rules: Ruleset, dice: DiceSource) -> list[CombatEvent]:
    if not command.combatants:
        raise IllegalCommandError("a combat needs combatants: name the party and the foes")
    if len(command.combatants) > MAX_COMBATANTS:
        raise IllegalCommandError(
            f"{len(command.combatants):,} combatants: a fight holds at most "
            f"{MAX_COMBATANTS:,}; split it"
        )
    counted = Counter(c.name.casefold() for c in command.combatants)
    duplicate = next((n for n, times in counted.items() if times > 1), None)
    if duplicate is not None:
        raise IllegalCommandError(
            f"two combatants are named {duplicate!r}: "
            "give each a distinct name (Goblin 1, Goblin 2)"
        )
    if rules.actions.economy == "pg":
        for combatant in command.combatants:
            check_load(combatant, rules)
    started = CombatStarted(combatants=command.combatants, reaction=command.reaction)
    state = started.apply_combat(CombatState())
    surprise = settle_surprise(
        state,
        rules,
        dice,
        aware=command.aware,
        attackers=command.attackers,
        surprised=command.surprised,
        members=command.surprised_members,
        meeting=command.meeting,
    )
    return [started, *surprise]


def _beats(
    state: CombatState, rules: Ruleset, dice: DiceSource
) -> tuple[list[list[str]], list[CombatEvent]]:
    """The round's beats of declared actors; under TP-INI-2 opposed saves reorder them."""
    declared = {d.actor for d in state.pending()}
    beats = [[n for n in beat if n in declared] for beat in state.order]
    beats = [b for b in beats if b]
    events: list[CombatEvent] = []
    if rules.initiative.method != "overloaded" or state.in_free_round:
        return beats, events
    place = {name: 1 for beat in beats for name in beat}
    for declaration in state.declarations:
        for action in declaration.actions:
            if action.kind is not ActionKind.MANEUVER or action.target is None:
                continue
            target = state.get(action.target)
            theirs = state.declaration(target.name)
            if theirs is None or all(
                a.kind in (ActionKind.ATTACK, ActionKind.RANGED)
                and a.target is not None
                and state.get(a.target).name == declaration.actor
                for a in theirs.actions
            ):
                continue  # nothing incompatible: attacks on each other both resolve
            save = opposed_save(
                state.get(declaration.actor),
                target,
                action.stat,
                rules,
                dice,
                second_wind=state.second_wind,
            )
            events.append(save)
            if save.winner is not None:
                loser = target.name if save.winner == declaration.actor else declaration.actor
                place[save.winner] = min(place[save.winner], 0)
                place[loser] = 2
    ordered = [[n for n in place if place[n] == p] for p in (0, 1, 2)]
    return [b for b in ordered if b], events


def _resolve(state: CombatState, rules: Ruleset, dice: DiceSource) -> list[CombatEvent]:
    beats, events = _beats(state, rules, dice)
    running = state
    for event in events:
        running = event.apply_combat(running)
    for beat in beats:
        able = {n for n in beat if running.can_act(running.get(n))}
        # TP-INI-2: the beat's blows are struck at once, at whoever stood as it began
        standing = frozenset(c.name for c in running.combatants if c.standing)
        for name in beat:
            declaration = running.declaration(name)
            if declaration is None or name in running.acted:
                continue
            if name not in able:
                taken: list[CombatEvent] = [ActionTaken(actor=name, text=DOWN)]
            else:
                taken = _act(running, declaration, rules, dice, standing)
            for event in taken:
                running = event.apply_combat(running)
            events.extend(taken)
    events.append(RoundResolved())
    return events


def _move(state: CombatState, actor: str, action: Action) -> Moved:
    """A move closes into melee with a foe; towards a friend it leaves every melee."""
    toward = state.get(action.target) if action.target is not None else None
    if toward is not None and toward.side is state.get(actor).side:
        return Moved(actor=actor, feet=action.feet, to=toward.name)
    return Moved(actor=actor, engage=toward.name if toward else None, feet=action.feet)


def _act(
    state: CombatState,
    declaration: Declaration,
    rules: Ruleset,
    dice: DiceSource,
    standing: frozenset[str] = frozenset(),
) -> list[CombatEvent]:
    """One actor's declared actions, in order, each against the state as it now stands.

    ``standing``: who stood as the beat began; a blow at one of them felled in the beat
    is struck at once with the blow that felled them (TP-INI-2, :func:`in_reach`)."""
    events: list[CombatEvent] = []
    actor = declaration.actor
    for action in declaration.actions:
        kind = action.kind
        new: list[CombatEvent]
        target = state.get(action.target) if action.target is not None else None
        if (
            kind in STRIKES
            and target is not None
            and not in_reach(state, actor, target, rules, struck_at_once=target.name in standing)
        ):
            # the target fell earlier this round: the blow finds nobody (PG-HP-1)
            new = [ActionTaken(actor=actor, text=f"{action} finds {action.target} already down")]
        elif kind in STRIKES and action.target is not None:
            ranged, rolled = kind is ActionKind.RANGED, action.rolled
            new = attack(state, actor, action.target, rules, dice, ranged=ranged, rolled=rolled)
        elif kind is ActionKind.CAST and rules.actions.economy == "tp":
            new = [
                magic(
                    state.get(actor),
                    action.dice,
                    rules,
                    dice,
                    second_wind=state.second_wind,
                    note=action.note,
                )
            ]
        elif kind in (ActionKind.MOVE, ActionKind.MOVE_FAR):
            new = [_move(state, actor, action)]
        else:
            new = [ActionTaken(actor=actor, text=str(action))]
        for event in new:
            state = event.apply_combat(state)
        events.extend(new)
    return events
