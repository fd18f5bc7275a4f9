"""Deciding a scene command: the checks of the play loop and the events each command causes.

The play loop (DG-LOOP-1): the GM sets a scene; each player makes one free action a round;
if a spotlight is needed the players agree who takes it; the spotlit player acts; the GM acts;
repeat; the scene ends. :func:`decide_scene` checks a command against the table's state and
the ruleset and returns the events it causes; an illegal command raises
:class:`~turnkeeper.errors.IllegalCommandError` with one line and changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from turnkeeper.dice import DiceSource, roll
from turnkeeper.errors import IllegalCommandError
from turnkeeper.files.names import check_name
from turnkeeper.kernel.events import RollRecord
from turnkeeper.kernel.scene_state import (
    Outcome,
    Scene,
    SceneKind,
    SceneSide,
    SceneState,
    Seat,
    outcome_of,
)
from turnkeeper.procedures.scenes.commands import (
    Act,
    CloseScene,
    Compromise,
    FreeAction,
    GiveTokens,
    GmAct,
    OpenScene,
    SceneCommand,
    SpendDread,
    TakeSpotlight,
    VoteSpotlight,
)
from turnkeeper.procedures.scenes.dread import compromise, give_tokens, spend_dread
from turnkeeper.procedures.scenes.events import (
    ActionTaken,
    DreadGained,
    FreeActionTaken,
    MomentumKept,
    RoundEnded,
    SceneClosed,
    SceneEvent,
    SceneOpened,
    SpotlightPassed,
    SpotlightTaken,
    SpotlightVoted,
    TokensRegained,
    fold_scene_events,
)
from turnkeeper.procedures.scenes.rules import check_round, round_seconds
from turnkeeper.rules.schema import Ruleset
from turnkeeper.words import did_you_mean

#: The tag that lets a successful action keep the spotlight with its side (DG-MOM-1).
MOMENTUM = "momentum"
#: How the GM appears as an actor when no creature is named.
GM = "GM"


def _illegal(message: str) -> IllegalCommandError:
    return IllegalCommandError(message)


def _open_scene(state: SceneState) -> Scene:
    if state.scene is None:
        raise _illegal("no scene is open: the GM sets one first (scene open KIND)")
    return state.scene


def _tokens_used(scene: Scene, rules: Ruleset) -> bool:
    return rules.spotlight.tokens and scene.tokens and not scene.free


def _names(kind: str, names: tuple[str, ...]) -> None:
    if any(not name.strip() for name in names):
        raise _illegal(f"{kind} names must not be empty")
    for name in names:
        check_name(name, f"{kind[:-1]} name")  # printable: the pages and the CLI show it
    repeated = sorted(name for name, n in Counter(names).items() if n > 1)
    if repeated:
        raise _illegal(f"{kind} named twice: {', '.join(repeated)}; give each name once")


def _open(state: SceneState, command: OpenScene, rules: Ruleset) -> list[SceneEvent]:
    if not rules.spotlight.enabled:
        raise _illegal(
            f"ruleset {rules.name} has no spotlight: scenes are a Dungeoneers procedure "
            "(use a ruleset that extends dg)"
        )
    if state.scene is not None:
        raise _illegal(
            f"scene {state.scene.number} ({state.scene.kind.value}) is still open: "
            "close it first (scene close)"
        )
    if not command.players:
        raise _illegal("a scene needs at least one player (--players a,b,c)")
    _names("players", command.players)
    _names("creatures", command.creatures)
    both = sorted(set(command.players) & set(command.creatures))
    if both:
        raise _illegal(f"{', '.join(both)} cannot be both a player and a GM creature")
    if command.round_seconds is not None:
        check_round(command.kind, command.round_seconds, rules)
    tokens = rules.spotlight.tokens and command.tokens and command.kind is not SceneKind.FREE
    known = {seat.name for seat in state.seats}
    new_seats = tuple(
        Seat(name=name, tokens=rules.spotlight.tokens_each)
        for name in command.players
        if name not in known
    )
    return [
        SceneOpened(
            number=state.scenes_opened + 1,
            scene_kind=command.kind,
            players=command.players,
            creatures=command.creatures,
            tokens=tokens,
            first=SceneSide.GM if command.gm_first else SceneSide.PLAYERS,
            new_seats=new_seats,
            round_seconds=command.round_seconds,
        )
    ]


def _one_vote_each(votes: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """DG-SPOT-1: each player has one vote; the same vote given again counts once, and two
    different candidates from one voter are refused."""
    cast: dict[str, str] = {}
    for voter, candidate in votes:
        if cast.setdefault(voter, candidate) != candidate:
            raise _illegal(
                f"{voter} votes for both {cast[voter]} and {candidate}: one vote each (DG-SPOT-1)"
            )
    return tuple(cast.items())


def _needed(scene: Scene) -> int:
    """DG-SPOT-1: a majority of the scene's players, whether or not each of them voted; more
    than half of the votes cast would let one voice of five take the spotlight."""
    return len(scene.players) // 2 + 1


def _not_a_player(who: str, scene: Scene) -> str:
    """The refusal of a name that is no player of the scene, with the near one."""
    return (
        f"{who} is not a player in this scene{did_you_mean(who, scene.players)}"
        f" ({', '.join(scene.players)})"
    )


def _majority(scene: Scene, votes: tuple[tuple[str, str], ...]) -> str | None:
    for voter, candidate in votes:
        for who in (voter, candidate):
            if who not in scene.players:
                raise _illegal(_not_a_player(who, scene))
    counts = Counter(candidate for _, candidate in votes)
    if not counts:
        return None
    leader, top = counts.most_common(1)[0]
    return leader if top >= _needed(scene) else None


def _spotlight_open(state: SceneState) -> Scene:
    """The scene, when its players are to choose who takes the spotlight (DG-SPOT-1)."""
    scene = _open_scene(state)
    if scene.free:
        raise _illegal("a free scene needs no spotlight (DG-SPOT-3): players just act")
    if scene.turn is SceneSide.GM:
        raise _illegal("the spotlight is with the GM: the GM acts next (scene gm)")
    if scene.spotlit is not None:
        raise _illegal(f"{scene.spotlit} already holds the spotlight and acts next")
    return scene


def _vote(state: SceneState, command: VoteSpotlight) -> list[SceneEvent]:
    scene = _spotlight_open(state)
    for name in (command.voter, command.candidate):
        if name not in scene.players:
            raise _illegal(_not_a_player(name, scene))
    return [SpotlightVoted(voter=command.voter, candidate=command.candidate)]


def _spotlight(state: SceneState, command: TakeSpotlight, rules: Ruleset) -> list[SceneEvent]:
    scene = _spotlight_open(state)
    given = tuple(command.votes) if not isinstance(command.votes, Mapping) else ()
    votes = _one_vote_each(given or scene.votes)  # without votes, those the players cast
    winner = _majority(scene, votes)
    if winner is not None and command.gm_choice not in (None, winner):
        raise _illegal(
            f"the players chose {winner} by majority: the GM only breaks ties and disputes"
        )
    if winner is None:
        if command.gm_choice is None:
            tally = ", ".join(f"{c} {n}" for c, n in Counter(c for _, c in votes).most_common())
            raise _illegal(
                f"no majority ({tally or 'no votes'}), {_needed(scene)} of the "
                f"{len(scene.players)} players needed: the GM breaks ties and disputes (--gm NAME)"
            )
        if command.gm_choice not in scene.players:
            raise _illegal(_not_a_player(command.gm_choice, scene))
    chosen = winner or command.gm_choice
    assert chosen is not None
    if scene.kept_by == chosen and len(scene.players) > 1:
        raise _illegal(
            f"{chosen} just kept the spotlight on momentum: another player takes it (DG-MOM-1)"
        )
    spend = _tokens_used(scene, rules)
    if spend and state.tokens_of(chosen) < 1:
        raise _illegal(
            f"{chosen} holds no spotlight token: another player can give one (scene give)"
        )
    events: list[SceneEvent] = [
        SpotlightTaken(player=chosen, votes=votes, by_gm=winner is None, token_spent=spend)
    ]
    after = fold_scene_events(events, state)
    if spend and all(seat.tokens == 0 for seat in after.seats):
        every = tuple(seat.name for seat in after.seats)
        events.append(TokensRegained(players=every, each=rules.spotlight.tokens_each))
    return events


def _resolve(
    outcome: Outcome | None,
    expression: str | None,
    target: int | None,
    values: Mapping[str, int],
    rules: Ruleset,
    dice: DiceSource,
) -> tuple[Outcome | None, int | None, tuple[RollRecord, ...]]:
    if expression is None:
        if target is not None:
            raise _illegal("a target needs a roll (--roll EXPR --target N)")
        return outcome, None, ()
    if outcome is not None:
        raise _illegal("give an outcome or a roll with a target, not both")
    if target is None:
        raise _illegal("a roll needs a target to read its outcome (--target N)")
    result = roll(expression, dice, values)
    outcome = outcome_of(result, target, rules.dread.compromise_margin)
    return outcome, result.total, (RollRecord.of(result),)


def _after_action(
    state: SceneState,
    side: SceneSide,
    actor: str,
    outcome: Outcome | None,
    tags: tuple[str, ...],
    rules: Ruleset,
) -> list[SceneEvent]:
    """Where the spotlight goes after an action (DG-MOM-1) and whether the round ends (DG-RND-1)."""
    scene = _open_scene(state)
    if scene.free:
        return []
    critical = outcome is Outcome.CRITICAL
    momentum = MOMENTUM in tags and outcome is not None and outcome.at_least(Outcome.SUCCESS)
    if critical or momentum:
        return [MomentumKept(side=side, by=actor)]
    frame = scene.kind.frame
    if scene.players_acted and scene.gm_acted and frame is not None:
        return [
            RoundEnded(
                round=scene.round,
                frame=frame,
                seconds=round_seconds(scene.kind, rules, scene.round_seconds),
            )
        ]
    return [SpotlightPassed(to=side.other)]


def _act(state: SceneState, command: Act, rules: Ruleset, dice: DiceSource) -> list[SceneEvent]:
    scene = _open_scene(state)
    if command.player not in scene.players:
        raise _illegal(_not_a_player(command.player, scene))
    if not scene.free:
        if scene.turn is SceneSide.GM:
            raise _illegal("the spotlight is with the GM: the GM acts next (scene gm)")
        if scene.spotlit is None:
            raise _illegal(
                "no one holds the spotlight: the players choose who takes it (scene spotlight)"
            )
        if scene.spotlit != command.player:
            raise _illegal(
                f"{command.player} does not hold the spotlight ({scene.spotlit} does): "
                "only the spotlit player acts (DG-SPOT-1)"
            )
    outcome, total, rolls = _resolve(
        command.outcome, command.roll, command.target, command.values, rules, dice
    )
    event = ActionTaken(
        actor=command.player,
        side=SceneSide.PLAYERS,
        what=command.what,
        tags=command.tags,
        outcome=outcome,
        total=total,
        target=command.target,
        rolls=rolls,
    )
    after = event.advance(state)
    return [
        event,
        *_after_action(after, SceneSide.PLAYERS, command.player, outcome, command.tags, rules),
    ]


def _free_action_check(scene: Scene, actor: str, gm_acted: bool, rules: Ruleset) -> None:
    if actor not in scene.players and actor not in scene.creatures:
        raise _illegal(f"{actor} is neither a player nor a GM creature of this scene")
    if scene.free:
        return
    if actor in scene.creatures and not gm_acted:
        raise _illegal(
            f"{actor} is a GM creature: creatures make free actions only after the GM's action"
        )
    allowed = rules.spotlight.free_actions_per_round
    if scene.free_actions_of(actor) >= allowed:
        raise _illegal(
            f"{actor} already made {allowed} free action this round (DG-FREE-1); "
            "momentum gives no second one"
        )


def _gm_act(
    state: SceneState, command: GmAct, rules: Ruleset, dice: DiceSource
) -> list[SceneEvent]:
    scene = _open_scene(state)
    if not scene.free and scene.turn is SceneSide.PLAYERS:
        raise _illegal("the spotlight is with the players: the GM acts after their action")
    if command.creature is not None and command.creature not in scene.creatures:
        known = ", ".join(scene.creatures) or "none named (scene open --creatures)"
        raise _illegal(f"{command.creature} is not a GM creature of this scene ({known})")
    outcome, total, rolls = _resolve(command.outcome, command.roll, command.target, {}, rules, dice)
    actor = command.creature or GM
    events: list[SceneEvent] = [
        ActionTaken(
            actor=actor,
            side=SceneSide.GM,
            what=command.what,
            tags=command.tags,
            outcome=outcome,
            total=total,
            target=command.target,
            during_rest=command.during_rest,
            rolls=rolls,
        )
    ]
    if command.during_rest and rules.dread.enabled:
        events.append(
            DreadGained(amount=rules.dread.per_rest_action, reason="a GM action during a rest")
        )
    for creature, what in command.creature_free:
        after = fold_scene_events(events, state)
        assert after.scene is not None
        _free_action_check(after.scene, creature, True, rules)
        events.append(FreeActionTaken(actor=creature, what=what))
    after = fold_scene_events(events, state)
    return [*events, *_after_action(after, SceneSide.GM, actor, outcome, command.tags, rules)]


def _free(state: SceneState, command: FreeAction, rules: Ruleset) -> list[SceneEvent]:
    scene = _open_scene(state)
    _free_action_check(scene, command.actor, scene.gm_acted, rules)
    return [FreeActionTaken(actor=command.actor, what=command.what)]


def _close(state: SceneState) -> list[SceneEvent]:
    scene = _open_scene(state)
    return [SceneClosed(number=scene.number, rounds=scene.round - 1)]


def decide_scene(
    state: SceneState, command: SceneCommand, rules: Ruleset, dice: DiceSource
) -> list[SceneEvent]:
    """The events a scene command causes (DG-LOOP-1).

    An illegal command raises IllegalCommandError and changes nothing.
    """
    match command:
        case OpenScene():
            return _open(state, command, rules)
        case VoteSpotlight():
            return _vote(state, command)
        case TakeSpotlight():
            return _spotlight(state, command, rules)
        case Act():
            return _act(state, command, rules, dice)
        case GmAct():
            return _gm_act(state, command, rules, dice)
        case FreeAction():
            return _free(state, command, rules)
        case GiveTokens():
            return give_tokens(state, command, rules)
        case SpendDread():
            return spend_dread(state, command, rules)
        case Compromise():
            return compromise(state, command, rules)
        case CloseScene():
            return _close(state)
