"""The default hooks: the per-boundary procedures every command's waits run, in order.

Order matters within one instant: the light burns down first, then the rest cadence is
checked, then countdowns tick and end; last, the turn's own check is made (a dungeon
turn's wandering check or die, a downtime day's encounter die, the night camp's wilderness
die), so it sees the light and the rest as they are once the turn is over; after them
a new travel day's TP (TP-WIL-1), once the night camp's die has rolled; and at a month's
boundary the world's month turn (its factions act, then its domains are settled), once the
party's own day has begun. The command table opens each command's draft with this list
(:func:`turnkeeper.campaign.commands.decide`).

A fight's rounds run :data:`FIGHT_HOOKS` instead: light burns and countdowns of turns and
days tick with the time a fight takes (PG-TIME-1: ten one-minute rounds are a turn), and
the rest cadence counts the fight as activity (EX-REST-1); but a dungeon turn's wandering
check or die (EX-ENC-1, TP-DUN-1), the downtime day's die and the night camp's belong to
the exploring and travelling they interrupt, and a fight's own rounds tick the rapid
countdowns once each as they are resolved (DG-CD-1), never again on the calendar.
"""

from __future__ import annotations

from turnkeeper.kernel.schedule import Hook
from turnkeeper.procedures.countdowns import COUNTDOWN_HOOK, ROUND_FRAMES
from turnkeeper.procedures.domains import DOMAIN_HOOK
from turnkeeper.procedures.dungeon import DOWNTIME_HOOK, DUNGEON_HOOK
from turnkeeper.procedures.factions import MONTH_HOOK
from turnkeeper.procedures.light import LIGHT_HOOK
from turnkeeper.procedures.rest import REST_HOOK
from turnkeeper.procedures.wilderness import NIGHT_CAMP_HOOK, TRAVEL_DAY_HOOK

HOOKS: tuple[Hook, ...] = (
    LIGHT_HOOK,
    REST_HOOK,
    COUNTDOWN_HOOK,
    DUNGEON_HOOK,
    DOWNTIME_HOOK,
    NIGHT_CAMP_HOOK,
    TRAVEL_DAY_HOOK,
    MONTH_HOOK,
    DOMAIN_HOOK,
)

FIGHT_HOOKS: tuple[Hook, ...] = tuple(
    hook.without(ROUND_FRAMES) for hook in (LIGHT_HOOK, REST_HOOK, COUNTDOWN_HOOK)
)
"""The hooks a fight's rounds run as their time passes (see the module's docstring)."""
