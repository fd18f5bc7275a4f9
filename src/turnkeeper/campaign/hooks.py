"""The per-boundary procedures a wait runs, in order, at every frame end in its span.

Order matters within one instant: the light burns down first, then the rest cadence is
checked, then countdowns tick and end; last, the turn's own check is made (a dungeon
turn's wandering check or die, a downtime day's encounter die, the night camp's wilderness
die), so it sees the light and the rest as they are once the turn is over. This is the one
list of default hooks; the scheduler imports it late, since the procedures here themselves
wait.
"""

from __future__ import annotations

from turnkeeper.campaign.schedule import Hook
from turnkeeper.procedures.countdowns import COUNTDOWN_HOOK
from turnkeeper.procedures.downtime import DOWNTIME_HOOK
from turnkeeper.procedures.dungeon.wait import DUNGEON_HOOK
from turnkeeper.procedures.light import LIGHT_HOOK
from turnkeeper.procedures.rest import REST_HOOK
from turnkeeper.procedures.wilderness.die import NIGHT_CAMP_HOOK

HOOKS: tuple[Hook, ...] = (
    LIGHT_HOOK,
    REST_HOOK,
    COUNTDOWN_HOOK,
    DUNGEON_HOOK,
    DOWNTIME_HOOK,
    NIGHT_CAMP_HOOK,
)
