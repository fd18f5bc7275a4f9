"""A month of the world's calendar, read from the store by game time (issue 43, item 6).

The month's records are found by the store's index on game time, and each party's place as
the month began by walking back through the records that place parties only until each is
placed (:func:`~turnkeeper.campaign.month_calendar.places_before`): a month costs its own
records and the few before it, never the journal's length.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator

from turnkeeper.campaign import Recorded
from turnkeeper.campaign.month_calendar import (
    BIRTHS,
    CALENDAR_KINDS,
    DOING,
    PLACING,
    MonthCalendar,
    month_calendar,
    party_of,
    places_before,
)
from turnkeeper.campaign.registry import EVENTS
from turnkeeper.clock.calendar import date_at, month_named, month_span
from turnkeeper.errors import NotFoundError
from turnkeeper.kernel.state import same_party
from turnkeeper.procedures.parties import PartiesJoined, PartyArrived, PartySplit
from turnkeeper.service.campaigns import Campaigns
from turnkeeper.store import Span, TimedStore

#: How many records a walk back for the parties' places reads at a time.
WALK = 200


def calendar_of(
    campaigns: Campaigns,
    name: str,
    month: str = "",
    *,
    party: str | None = None,
    keep: Callable[[Recorded], bool] | None = None,
) -> MonthCalendar:
    """The calendar of ``month`` (as :func:`~turnkeeper.clock.calendar.month_named` reads
    it; none: the month of the present of the party run, or of ``party``). For the players of
    ``party``, ``keep`` is the filter of what they read (:func:`~turnkeeper.views.journal.perceived_by`).

    A month the world (the party, for its players) has not reached, or one before the
    campaign began, is refused in one line."""
    store = campaigns.store
    if not isinstance(store, TimedStore):
        raise NotFoundError(f"the store {store!r} cannot find records by game time")
    state = campaigns.state(name)
    time = state.ruleset.time
    if party is not None:
        now = state.as_party(party).now  # (an unknown party refused, the world's listed)
        party = next(p for p in state.companies if same_party(p, party))
    else:
        now = state.now
    year, number = month_named(month, now, time)
    start, end = month_span(year, number, time)
    reached = now if party is not None else state.present
    if start > reached:
        raise NotFoundError(
            f"month {year}-{number:02d} has not begun: "
            f"{'the party' if party else 'the world'} is at {date_at(reached, time)}"
        )
    if end <= 0:
        first = date_at(0, time)
        raise NotFoundError(
            f"month {year}-{number:02d} is before the campaign, which begins in "
            f"{first.year}-{first.month:02d}"
        )
    undone = campaigns.undone(name)
    runs = campaigns.runs(name, undone=undone)

    def whose(record: Recorded) -> str:
        return party_of(record, runs, name)

    came = _records(store, name, {PartySplit.kind, PartyArrived.kind}, Span())
    born = {r.event.name for r in came if r.at >= start and r.command not in undone}  # type: ignore[attr-defined]
    left = _records(store, name, {PartiesJoined.kind}, Span(start=start))
    joined = [r.event.name for r in left if r.command not in undone]  # type: ignore[attr-defined]
    alive = [p for p in (*state.companies, *joined) if p not in born]
    before = places_before(_walk_back(store, name, start), alive, whose, undone)
    during = _records(store, name, CALENDAR_KINDS, Span(start=start, end=end))
    return month_calendar(
        state, year, number, before, during, whose, undone, keep=keep, only=party, joined=joined
    )


def _records(store: TimedStore, name: str, kinds: Collection[str], span: Span) -> list[Recorded]:
    return [EVENTS.record(row) for row in store.read_timed(name, kinds, span)]


def _walk_back(store: TimedStore, name: str, start: int) -> Iterator[list[Recorded]]:
    """The records that place parties before ``start``, latest first, a page at a time."""
    before: tuple[int, int] = (start, 0)
    while True:
        page = _records(store, name, PLACING | DOING | BIRTHS, Span(newest=WALK, before=before))
        if not page:
            return
        yield page
        before = (page[-1].at, page[-1].seq)
