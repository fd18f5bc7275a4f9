"""Scenes in a campaign: a scene command becomes journal events, a round passes campaign time.

:func:`campaign_scene_events` is what the campaign's ``decide`` runs for a scene command: the
scene engine decides on the campaign's ``scenes`` and ruleset, and each round's end is
followed by its time (:func:`round_time_events`).

A Dungeoneers round ends when the table says so, not at a multiple of 6 s on the calendar,
so its frame (``combat_round``, ``social_round``, ``exploration_round``) ends exactly once,
at the round's end (DG-RND-1, DG-CD-1): a 60-second social round ticks a rapid countdown
once, not ten times. The time in between still runs through the campaign's scheduler, so a
torch burns, a rest falls due and a day ending inside a long exploration round ticks the
day countdowns; only the round frames are kept out of that wait.

>>> sorted(ROUND_FRAMES)
['combat_round', 'exploration_round', 'social_round']
"""

from __future__ import annotations

from dataclasses import replace

from turnkeeper.clock.boundaries import Boundary
from turnkeeper.dice import DiceSource
from turnkeeper.kernel.schedule import Draft, Hook, wait
from turnkeeper.procedures.countdowns import COUNTDOWN_HOOK, ROUND_FRAMES, trigger
from turnkeeper.procedures.scenes.commands import GmAct, SceneCommand, SpendDread
from turnkeeper.procedures.scenes.decide import decide_scene
from turnkeeper.procedures.scenes.dread import check_gm_creature
from turnkeeper.procedures.scenes.events import ActionTaken, RoundEnded


def _without_round_frames(hook: Hook) -> Hook:
    return Hook(hook.name, lambda state: hook.frames(state) - ROUND_FRAMES, hook.run)


def round_time_events(draft: Draft, ended: RoundEnded, dice: DiceSource) -> None:
    """The campaign events of a round's end: time passes, then its frame ends (DG-CD-1, DG-CD-2).

    Rapid countdowns tick on combat and social rounds, short ones on exploration rounds, and
    an exploration round's end ends every rapid countdown (the core's countdown hook decides).
    """
    rounds = Draft(draft.state, tuple(_without_round_frames(h) for h in draft.hooks))
    wait(rounds, ended.seconds, dice)
    boundary = Boundary(at=rounds.state.now, frames=(ended.frame,))
    COUNTDOWN_HOOK.run(rounds, boundary, dice)
    draft.join(rounds)


def campaign_scene_events(draft: Draft, command: SceneCommand, dice: DiceSource) -> None:
    """The journal events of a scene command in a campaign (DG-LOOP-1, DG-RND-1, DG-CD-1).

    The scene engine decides on ``state.scenes`` under the campaign's ruleset; every round's
    end is followed by the time it takes. A GM action while the party rests counts as taken
    during a rest (DG-DREAD-1), whether or not the referee said so.
    """
    state = draft.state
    if isinstance(command, GmAct) and state.rest.resting and not command.during_rest:
        command = replace(command, during_rest=True)
    if isinstance(command, SpendDread) and command.creature is not None:
        # the party's characters are the players' even when they have no seat yet
        check_gm_creature(command.creature, state.everyone, state.scenes)
    for event in decide_scene(state.scenes, command, state.ruleset, dice):
        draft.add(event)
        if isinstance(event, ActionTaken):
            # DG-CD-4: "taking an action ticks the countdown" (a suffocating creature's).
            draft.add(*trigger(draft.state, "action", event.actor))
        if isinstance(event, RoundEnded):
            round_time_events(draft, event, dice)
