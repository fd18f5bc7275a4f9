"""The event registry: every event kind a journal may hold, registered here and only here.

Reading a journal back needs every kind, whichever procedures the process has run; so the
registry names them all at once, from the kernel's own events and each procedure's
``EVENTS``. A test checks that every event class in the package is here.
"""

from __future__ import annotations

from turnkeeper.kernel import events as kernel_events
from turnkeeper.kernel import schedule
from turnkeeper.kernel.events import EventRegistry
from turnkeeper.procedures import (
    countdowns,
    domains,
    factions,
    haven,
    hit_points,
    light,
    rest,
    supplies,
)
from turnkeeper.procedures.combat import asking as combat_asking
from turnkeeper.procedures.combat import events as combat_events
from turnkeeper.procedures.combat import outcomes as combat_outcomes
from turnkeeper.procedures.dungeon import events as dungeon_events
from turnkeeper.procedures.parties import events as party_events
from turnkeeper.procedures.parties import forward as forward_events
from turnkeeper.procedures.scenes import events as scene_events
from turnkeeper.procedures.wilderness import discovery, reveal, weather
from turnkeeper.procedures.wilderness import events as wilderness_events

#: Every event kind a journal may hold.
EVENTS = EventRegistry(
    *kernel_events.EVENTS,
    *schedule.EVENTS,
    *light.EVENTS,
    *rest.EVENTS,
    *supplies.EVENTS,
    *hit_points.EVENTS,
    *countdowns.EVENTS,
    *dungeon_events.EVENTS,
    *wilderness_events.EVENTS,
    *discovery.EVENTS,
    *weather.EVENTS,
    *reveal.EVENTS,
    *combat_events.EVENTS,
    *combat_outcomes.EVENTS,
    *combat_asking.EVENTS,
    *scene_events.EVENTS,
    *party_events.EVENTS,
    *forward_events.EVENTS,
    *factions.EVENTS,
    *haven.EVENTS,
    *domains.EVENTS,
)
