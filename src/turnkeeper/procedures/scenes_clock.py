"""A scene's round in the campaign's time: the clock advances and the right countdowns tick.

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

from turnkeeper.campaign.events import Event
from turnkeeper.campaign.hooks import HOOKS
from turnkeeper.campaign.schedule import Draft, Hook, wait
from turnkeeper.campaign.state import CampaignState
from turnkeeper.clock.boundaries import Boundary
from turnkeeper.dice import DiceSource
from turnkeeper.procedures.countdowns import COUNTDOWN_HOOK
from turnkeeper.procedures.scenes_events import RoundEnded

#: The frames a scene's rounds end by hand, never by the calendar.
ROUND_FRAMES = frozenset({"combat_round", "social_round", "exploration_round"})


def _without_round_frames(hook: Hook) -> Hook:
    return Hook(hook.name, lambda state: hook.frames(state) - ROUND_FRAMES, hook.run)


def round_time_events(state: CampaignState, ended: RoundEnded, dice: DiceSource) -> list[Event]:
    """The campaign events of a round's end: time passes, then its frame ends (DG-CD-1, DG-CD-2).

    Rapid countdowns tick on combat and social rounds, short ones on exploration rounds, and
    an exploration round's end ends every rapid countdown (the core's countdown hook decides).
    """
    draft = Draft(state)
    wait(draft, ended.seconds, dice, hooks=tuple(_without_round_frames(h) for h in HOOKS))
    boundary = Boundary(at=draft.state.now, frames=(ended.frame,))
    draft.add(*COUNTDOWN_HOOK.run(draft.state, boundary, dice))
    return draft.events
