"""Downtime: days that pass outside any site and off the wilderness map (TP-ENC-1).

TP-ENC-1's default (the text does not say which turns): the generic encounter die serves
turns that have no die of their own. In downtime (the party in a haven, between
expeditions) each day that a wait passes rolls it once, at the day's end; an encounter face
breaks the wait so the referee can play it out. The other faces are recorded for the
referee to narrate: in a haven there is no light to relight nor a dungeon to rouse.
Rulesets without an ``encounter`` die (EX, PG) roll nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from turnkeeper.clock.boundaries import Boundary
from turnkeeper.dice import DiceSource
from turnkeeper.kernel.events import Event, RollRecord, Visibility
from turnkeeper.kernel.schedule import Draft, Hook
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.dungeon.events import EncounterDieRolled
from turnkeeper.rules.schema import FaceEvent
from turnkeeper.tables import roll_overloaded

DIE = "encounter"


def _frames(state: CampaignState) -> frozenset[str]:
    away = state.site is not None or state.wilderness is not None
    return frozenset() if away or DIE not in state.ruleset.dice else frozenset({"day"})


def _day_passed(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
    """TP-ENC-1: roll the encounter die once for the downtime day ending at ``boundary``."""
    result = roll_overloaded(draft.state.ruleset.dice[DIE], dice)
    draft.add(
        EncounterDieRolled(
            face=result.number,
            event=result.face.event,
            label=result.face.label,
            rolls=(RollRecord.of(result.roll),),
            visibility=Visibility.REFEREE,
        )
    )


def _breaks(events: Sequence[Event]) -> str | None:
    met = any(isinstance(e, EncounterDieRolled) and e.event is FaceEvent.ENCOUNTER for e in events)
    return "an encounter" if met else None


#: At each downtime day's end: the generic encounter die (TP-ENC-1).
DOWNTIME_HOOK = Hook("downtime", _frames, _day_passed, _breaks)
