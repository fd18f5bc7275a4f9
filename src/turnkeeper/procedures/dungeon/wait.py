"""Turns that pass in a site while the party waits or rests: the turn procedure still runs.

Issue 3: skipping time fires everything that falls due in the span. At each dungeon-turn
boundary of a wait (or a rest) inside a site, the site's turn count goes on and the
ruleset's check for a party that is not moving is made, with the turn command's own
:func:`~turnkeeper.procedures.dungeon.turn.turn_check`:

- classic (EX-ENC-1): the wandering check on every 2nd turn of the site's count, skipped in
  an area off the lanes of traffic (EX-ENC-3), at the base chance (the party is still);
- overloaded (TP-DUN-1, TP-DUN-2, TP-ENC-2): the dungeon die for every waited turn, rolled
  at the start of the turn it governs: as the wait begins (when it reaches the turn's end),
  then at each turn's end for the next one, but not at the wait's end, since the turn
  beginning then is not waited (the next ``turn`` rolls its own). A Forced Rest face is
  the waited turn's rest: food and water are eaten there.

An encounter breaks the wait: the rest of the span is not waited, so the referee can play
it out (``turnkeeper site resume`` or a fight, as after a ``turn``).
"""

from __future__ import annotations

from collections.abc import Sequence

from turnkeeper.clock.boundaries import Boundary, next_boundary
from turnkeeper.clock.calendar import start_offset
from turnkeeper.dice import DiceSource
from turnkeeper.kernel.events import Event
from turnkeeper.kernel.schedule import Draft, Hook
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.dungeon.encounter import TurnSituation
from turnkeeper.procedures.dungeon.events import DungeonTurnPassed, EncounterRolled
from turnkeeper.procedures.dungeon.turn import turn_check


def _frames(state: CampaignState) -> frozenset[str]:
    return frozenset({"turn"}) if state.site is not None else frozenset()


def _check(draft: Draft, dice: DiceSource, turn: int) -> None:
    """The ruleset's check for site turn ``turn`` of a party standing where it is."""
    visit = draft.state.site
    assert visit is not None
    key = visit.area
    area = visit.current_level.area(key) if key is not None else None
    situation = TurnSituation(
        hiding=bool(area and area.hiding_place),
        occupied=bool(area and area.occupied)
        and not draft.state.cleared(visit.site.name, visit.level, key),
        still=True,
    )
    turn_check(draft, dice, turn, situation, off_lanes=bool(area and area.off_lanes), waiting=True)


def _overloaded(state: CampaignState) -> bool:
    return state.ruleset.dungeon.procedure == "overloaded"


def _turn_passed(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
    """The site turn ending at ``boundary`` is counted; then the check: classic, for the
    turn just passed; overloaded, the die of the turn beginning, if the wait goes on."""
    visit = draft.state.site
    if visit is None:
        return
    turn = visit.turns + 1
    draft.add(DungeonTurnPassed(turn=turn))
    if visit.encounter is not None:
        return
    if not _overloaded(draft.state):
        _check(draft, dice, turn)
    elif draft.until is None or boundary.at < draft.until:
        _check(draft, dice, turn + 1)


def _wait_begins(draft: Draft, dice: DiceSource) -> None:
    """TP-DUN-1: the die of the wait's first turn, at its start, when the wait reaches that
    turn's end (a shorter wait leaves the turn to whatever comes next)."""
    state = draft.state
    visit = state.site
    if visit is None or visit.encounter is not None or not _overloaded(state):
        return
    until = state.now if draft.until is None else draft.until
    offset = start_offset(state.ruleset.time)
    if next_boundary(state.now, until, frozenset({"turn"}), state.scales, offset) is None:
        return
    _check(draft, dice, visit.turns + 1)


def _breaks(events: Sequence[Event]) -> str | None:
    return "an encounter" if any(isinstance(e, EncounterRolled) for e in events) else None


#: At each site turn's end in a wait or rest: count the turn, make the ruleset's check; as a
#: wait begins, the overloaded die of its first turn.
DUNGEON_HOOK = Hook("dungeon", _frames, _turn_passed, _breaks, _wait_begins)
