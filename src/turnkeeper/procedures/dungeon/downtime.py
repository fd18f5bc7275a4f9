"""Downtime: days that pass outside any site and off the wilderness map (TP-ENC-1).

TP-ENC-1's default (the text does not say which turns): the generic encounter die serves
turns that have no die of their own. In downtime (the party in a haven, between
expeditions) the turn is a day, and the die is rolled at the start of the turn it governs:
at each midnight a wait passes, for the day that begins. Each face does what the text says:

- 1 Encounter: the wait breaks so the referee can play it out.
- 3 Forced Rest: the day is spent resting, and every living character consumes food and
  water (``ruleset.rest.consumes``).
- 4 Waning Resources: a burning light is relit from the supplies (a new torch, another dose
  of oil) or goes out, and spell effects end.
- 2 Environment effect, 5 Free Turn, 6 Good Encounter: recorded for the referee to narrate.

Rulesets without an ``encounter`` die (EX, PG) roll nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from turnkeeper.clock.boundaries import Boundary
from turnkeeper.dice import DiceSource
from turnkeeper.kernel.events import Event, RollRecord
from turnkeeper.kernel.schedule import Draft, Hook
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.dungeon.events import EncounterDieRolled, SpellEffectsEnded
from turnkeeper.procedures.light import waning_resources
from turnkeeper.procedures.rest import forced_rest_waited
from turnkeeper.rules.schema import FaceEvent
from turnkeeper.tables import roll_overloaded

DIE = "encounter"


def _frames(state: CampaignState) -> frozenset[str]:
    away = state.site is not None or state.wilderness is not None
    return frozenset() if away or DIE not in state.ruleset.dice else frozenset({"day"})


def _day_begins(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
    """TP-ENC-1: roll the encounter die for the downtime day beginning at ``boundary`` and
    play its face."""
    result = roll_overloaded(draft.state.ruleset.dice[DIE], dice)
    event = result.face.event
    draft.add(
        EncounterDieRolled(
            face=result.number,
            event=event,
            label=result.face.label,
            rolls=(RollRecord.of(result.roll),),
        )
    )
    if event is FaceEvent.FORCED_REST:
        forced_rest_waited(draft, dice)
    elif event is FaceEvent.WANING_RESOURCES:
        draft.add(*waning_resources(draft.state, dice))
        draft.add(SpellEffectsEnded())


def _breaks(events: Sequence[Event]) -> str | None:
    met = any(isinstance(e, EncounterDieRolled) and e.event is FaceEvent.ENCOUNTER for e in events)
    return "an encounter" if met else None


#: At each downtime day's start: the generic encounter die and its face (TP-ENC-1).
DOWNTIME_HOOK = Hook("downtime", _frames, _day_begins, _breaks)
