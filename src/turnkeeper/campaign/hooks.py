"""The per-boundary procedures a wait runs, in order, at every frame end in its span.

Order matters within one instant: the light burns down first, then the rest cadence is
checked, then countdowns tick and end. A dungeon or wilderness procedure adds its per-turn
or per-watch check by appending its :class:`~turnkeeper.campaign.schedule.Hook` here.
"""

from __future__ import annotations

from turnkeeper.campaign.schedule import Hook
from turnkeeper.procedures.countdowns import COUNTDOWN_HOOK
from turnkeeper.procedures.light import LIGHT_HOOK
from turnkeeper.procedures.rest import REST_HOOK

HOOKS: tuple[Hook, ...] = (LIGHT_HOOK, REST_HOOK, COUNTDOWN_HOOK)
