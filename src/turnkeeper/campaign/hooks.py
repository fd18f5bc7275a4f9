"""The default hooks: the per-boundary procedures every command's waits run, in order.

Order matters within one instant: the light burns down first, then the rest cadence is
checked, then countdowns tick and end; last, the turn's own check is made (a dungeon
turn's wandering check or die, a downtime day's encounter die, the night camp's wilderness
die), so it sees the light and the rest as they are once the turn is over. The command
table opens each command's draft with this list (:func:`turnkeeper.campaign.commands.decide`).
"""

from __future__ import annotations

from turnkeeper.kernel.schedule import Hook
from turnkeeper.procedures.countdowns import COUNTDOWN_HOOK
from turnkeeper.procedures.dungeon import DOWNTIME_HOOK, DUNGEON_HOOK
from turnkeeper.procedures.light import LIGHT_HOOK
from turnkeeper.procedures.rest import REST_HOOK
from turnkeeper.procedures.wilderness import NIGHT_CAMP_HOOK

HOOKS: tuple[Hook, ...] = (
    LIGHT_HOOK,
    REST_HOOK,
    COUNTDOWN_HOOK,
    DUNGEON_HOOK,
    DOWNTIME_HOOK,
    NIGHT_CAMP_HOOK,
)
