"""Tokens changing hands and the GM's dread: gifts, compromises, enhancements.

DG-SPOT-2: players give spotlight tokens to each other freely. DG-DREAD-1: a player whose
roll missed by 1 or 2 (``ruleset.dread.compromise_margin``) may take a success, the GM
gaining 1 dread (``per_compromise``); the GM spends dread on creatures, never more than the
pool. A compromise is taken on the scene's last action, after the spotlight has moved: it
makes the action a success for the story but keeps no momentum, which needs an action that
*rolls* a success (DG-MOM-1).
"""

from __future__ import annotations

from collections.abc import Iterable

from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.scene_state import SceneSide, SceneState
from turnkeeper.procedures.scenes.commands import Compromise, GiveTokens, SpendDread
from turnkeeper.procedures.scenes.events import (
    CompromiseTaken,
    DreadGained,
    DreadSpent,
    SceneEvent,
    TokensGiven,
)
from turnkeeper.rules.schema import Ruleset


def _illegal(message: str) -> IllegalCommandError:
    return IllegalCommandError(message)


def give_tokens(state: SceneState, command: GiveTokens, rules: Ruleset) -> list[SceneEvent]:
    if not rules.spotlight.tokens:
        raise _illegal(f"ruleset {rules.name} plays without spotlight tokens (DG-SPOT-3)")
    for who in (command.giver, command.receiver):
        if state.seat(who) is None:
            raise _illegal(
                f"{who} has no seat at the table yet (players sit down when a scene opens)"
            )
    if command.giver == command.receiver:
        raise _illegal("a player cannot give tokens to themself")
    if command.count < 1:
        raise _illegal("give at least 1 token")
    held = state.tokens_of(command.giver)
    if held < command.count:
        raise _illegal(
            f"{command.giver} holds {held} spotlight tokens, cannot give {command.count}"
        )
    return [TokensGiven(giver=command.giver, receiver=command.receiver, count=command.count)]


def spend_dread(state: SceneState, command: SpendDread, rules: Ruleset) -> list[SceneEvent]:
    if not rules.dread.enabled:
        raise _illegal(f"ruleset {rules.name} has no dread")
    if command.amount < 1:
        raise _illegal("spend at least 1 dread")
    if command.amount > state.dread:
        raise _illegal(f"the GM holds {state.dread} dread, cannot spend {command.amount}")
    if not command.what.strip():
        raise _illegal("say what the dread buys (for example: the ogre strikes twice)")
    players = {seat.name for seat in state.seats} | set(state.scene.players if state.scene else ())
    if command.creature is not None:
        check_gm_creature(command.creature, players, state)
    return [DreadSpent(amount=command.amount, what=command.what, creature=command.creature)]


def check_gm_creature(creature: str, players: Iterable[str], state: SceneState) -> None:
    """DG-DREAD-1: dread enhances "creatures that they [the GM] control", never a player's:
    ``creature`` may not be one of ``players`` (any case)."""
    if creature.casefold() in {p.casefold() for p in players}:
        theirs = list(state.scene.creatures) if state.scene is not None else []
        name = f" ({', '.join(theirs)})" if theirs else ""
        raise _illegal(
            f"{creature} is a player's character: dread enhances only the creatures the GM "
            f"controls (DG-DREAD-1); name one of them{name}, or leave out --creature"
        )


def compromise(state: SceneState, command: Compromise, rules: Ruleset) -> list[SceneEvent]:
    if not rules.dread.enabled:
        raise _illegal(f"ruleset {rules.name} has no dread, so no compromises")
    scene = state.scene
    if scene is None:
        raise _illegal("no scene is open: the GM sets one first (scene open KIND)")
    last = scene.last_action
    if last is None or last.actor != command.player or last.side is not SceneSide.PLAYERS:
        raise _illegal(
            f"a compromise is taken on the scene's last action, which is not {command.player}'s"
        )
    if last.compromised:
        raise _illegal(f"{command.player} already took a compromise on this action")
    margin = rules.dread.compromise_margin
    missed = last.missed_by
    if missed is None or missed > margin:
        how = (
            "was not rolled against a target"
            if last.target is None
            else ("succeeded" if missed is None else f"missed by {missed}")
        )
        raise _illegal(
            f"{command.player}'s action {how}: a compromise needs a miss by 1 to {margin}"
        )
    return [
        CompromiseTaken(player=command.player, action=last.number),
        DreadGained(amount=rules.dread.per_compromise, reason=f"{command.player}'s compromise"),
    ]
