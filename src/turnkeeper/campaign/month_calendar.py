"""A month of the world's calendar as a grid of days (issue 43: "the calendar").

Each day of the month holds each party's whereabouts (the places it was that day, what it was
doing, or that it had not lived the day yet), the world's events (the month turn, the
factions' deeds, the places parties changed) and the countdowns that ended. The players'
calendar is their party's column and the lines its players read, nothing else.

It is drawn from few records, found by game time (the store's index on it), never by reading
the journal: the month's own records of the kinds a calendar shows (:data:`CALENDAR_KINDS`),
and for each party its latest place before the month (:func:`places_before`, walking back by
game time through the records that place a party, only until every party is placed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from turnkeeper.campaign.time_record import moved, run_at
from turnkeeper.clock.calendar import date_at, day_heading, month_span, start_offset
from turnkeeper.kernel.events import CampaignStarted, Recorded
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.dungeon.events import SiteEntered, SiteLeft
from turnkeeper.procedures.parties import (
    PartiesJoined,
    PartyArrived,
    PartyOccupied,
    PartySplit,
)
from turnkeeper.procedures.wilderness.events import MapLoaded, MoveMade

#: The records that say where a party is.
PLACING = frozenset({"site.entered", "site.left", "wilderness.map_loaded", "wilderness.moved"})
#: What a party does, and where it is bound.
DOING = frozenset({"party.doing"})
#: The records by which a party enters or leaves the world.
BIRTHS = frozenset({"campaign.started", "party.split", "party.arrived"})
#: The world's own events a calendar shows beside the parties: the month turn and the
#: factions' deeds, and what the players hear of them.
WORLD = frozenset({"month.turned", "faction.acted", "faction.goal_reached", "faction.rumour"})
#: Every kind of record a month's calendar reads (the others are not read at all).
CALENDAR_KINDS = PLACING | DOING | BIRTHS | WORLD | {"party.joined", "countdown.ended"}


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PartyDay(_View):
    """A party's day: the places it was (the first where the day found it), what it was
    doing; ``lived`` False for a day the party has not lived yet (its present is earlier) or
    when it was not in the world."""

    party: str
    lived: bool
    where: list[str]
    doing: str = ""


class CalendarDay(_View):
    """A day of the month: each party's day, the world's events, the countdowns that ended."""

    day: int
    date: str
    parties: list[PartyDay]
    events: list[str]
    countdowns: list[str]


class MonthCalendar(_View):
    """A month of the calendar as a grid of days; ``player`` for a party's players (their
    party alone, and only what its players read)."""

    campaign: str
    month: str
    year: int
    number: int
    present: str
    player: bool
    parties: list[str]
    days: list[CalendarDay]
    before: str | None
    after: str | None


@dataclass
class _Party:
    """A party followed through the month: its place and doings, and when it lives."""

    place: str = "in town"
    doing: str = ""
    since: int | None = None  # when it entered the world, if in the month
    until: int | None = None  # when it joined another, if in the month
    present: int | None = None  # its present now (None: it joined another)
    days: dict[int, list[str]] = field(default_factory=dict)
    doings: dict[int, str] = field(default_factory=dict)


def party_of(record: Recorded, runs: Sequence[tuple[int, str]], founding: str) -> str:
    """The party whose record ``record`` is: the one it names, or the party run then."""
    return record.party or run_at(runs, record.seq, founding)


def places_before(
    pages: Iterable[Sequence[Recorded]],
    parties: Iterable[str],
    party: Callable[[Recorded], str],
    undone: frozenset[int],
) -> list[Recorded]:
    """The records that place each of ``parties`` at the month's start, in seq order: read
    from ``pages`` (the records of :data:`PLACING`, :data:`DOING` and :data:`BIRTHS` before
    the month, latest game time first) only until each party has its latest place, or its
    start (a party split off takes the place of the party it left there, which must then be
    placed as it was before the split)."""
    needs: dict[str, int | None] = dict.fromkeys(parties)  # placed before this seq (None: now)
    kept: list[Recorded] = []
    for page in pages:
        for record in page:
            if not needs:
                return sorted(kept, key=lambda r: r.seq)
            if record.command in undone:
                continue
            event = record.event
            if isinstance(event, CampaignStarted):
                kept.append(record)
                return sorted(kept, key=lambda r: r.seq)
            whose = event.name if isinstance(event, PartySplit | PartyArrived) else party(record)
            if whose not in needs:
                continue
            bound = needs[whose]
            if bound is not None and record.seq >= bound:
                continue
            kept.append(record)
            if isinstance(event, PartySplit):
                del needs[whose]
                left = party(record)
                known = needs.get(left, record.seq)
                needs[left] = record.seq if known is None else min(known, record.seq)
            elif isinstance(event, PartyArrived) or _places(event):
                del needs[whose]
    return sorted(kept, key=lambda r: r.seq)


def _places(event: object) -> bool:
    return isinstance(event, SiteEntered | SiteLeft | MapLoaded | MoveMade) or (
        isinstance(event, PartyOccupied) and bool(event.bound_for)
    )


def month_calendar(
    state: CampaignState,
    year: int,
    month: int,
    before: Sequence[Recorded],
    during: Sequence[Recorded],
    party: Callable[[Recorded], str],
    undone: frozenset[int],
    keep: Callable[[Recorded], bool] | None = None,
    only: str | None = None,
    joined: Sequence[str] = (),
) -> MonthCalendar:
    """The grid of ``year``-``month``: ``before`` (:func:`places_before`) places the parties
    at its start, ``during`` are its records of :data:`CALENDAR_KINDS` in seq order.

    For the players of the party ``only``, ``keep`` says which records they read
    (:func:`~turnkeeper.views.journal.perceived_by`): their column alone, and the lines they read.
    ``joined``: the parties that joined another since the month began (gone from the world).
    """
    time = state.ruleset.time
    start, end = month_span(year, month, time)
    day_length = time.day_hours * 3600
    offset = start_offset(time)
    first_day = (offset + start) // day_length
    followed: dict[str, _Party] = {}
    place: dict[str, str] = {}
    doing: dict[str, str] = {}
    maps: dict[str, str] = {}  # each party's map, to name the hexes it moves to
    for name in state.companies:
        lived = state.as_party(name)
        followed[name] = _Party(present=lived.now)
        if lived.wilderness is not None:
            maps[name] = lived.wilderness.hexmap.name
    for name in joined:
        followed.setdefault(name, _Party())
    events: dict[int, list[str]] = {}
    ended: dict[int, list[str]] = {}
    starts: dict[str, tuple[str, str]] = {}  # each party's place and doings as the month began

    def day_of(at: int) -> int:
        return (offset + at) // day_length - first_day

    def step(record: Recorded, within: bool) -> None:
        event = record.event
        if record.command in undone:
            return
        running = party(record)
        moved(event, running, place, doing, maps)
        if isinstance(event, PartyArrived):
            place[event.name] = "in town"
        if not within:
            return
        day = day_of(record.at)
        if isinstance(event, PartySplit | PartyArrived):
            followed.setdefault(event.name, _Party()).since = record.at
            starts[event.name] = (place.get(event.name, "in town"), doing.get(event.name, ""))
        if isinstance(event, PartiesJoined):
            followed.setdefault(event.name, _Party()).until = record.at
        told = event.name if isinstance(event, PartySplit | PartyArrived | PartiesJoined) else None
        for name in (running, told):
            if name is not None and name in place:
                _seen(followed.setdefault(name, _Party()), day, place[name], doing.get(name, ""))
        if keep is not None and not keep(record):
            return
        if record.event.kind == "countdown.ended":
            line = event.describe_to_party() if keep is not None else event.describe()
            if line:
                ended.setdefault(day, []).append(line)
        elif record.event.kind in WORLD:
            line = event.describe_to_party() if keep is not None else event.describe()
            if line:
                events.setdefault(day, []).append(line)

    for record in before:
        step(record, within=False)
    starts.update({name: (place.get(name, "in town"), doing.get(name, "")) for name in followed})
    for record in during:
        step(record, within=True)
    for name in followed:
        starts.setdefault(name, ("in town", ""))
    if keep is None:
        for change in state.places:
            if start <= change.at < end and change.party in state.companies:
                events.setdefault(day_of(change.at), []).append(
                    f"{change.party}: {change.place} {change.what}"
                )
    names = [only] if only is not None else list(followed)
    days: list[CalendarDay] = []
    for index in range(time.month_days):
        moment = start + index * day_length
        days.append(
            CalendarDay(
                day=index + 1,
                date=day_heading(first_day + index, time),
                parties=[
                    _day(name, followed[name], starts[name], index, moment, day_length)
                    for name in names
                    if name in followed
                ],
                events=events.get(index, []),
                countdowns=ended.get(index, []),
            )
        )
    present = state.as_party(only).now if only is not None else state.present
    earlier = (year, month - 1) if month > 1 else (year - 1, 12)
    later = (year, month + 1) if month < 12 else (year + 1, 1)
    first = date_at(0, time)
    return MonthCalendar(
        campaign=state.name,
        month=f"{year}-{month:02d}",
        year=year,
        number=month,
        present=str(date_at(present, time)),
        player=keep is not None,
        parties=names,
        days=days,
        before=None if earlier < (first.year, first.month) else f"{earlier[0]}-{earlier[1]:02d}",
        after=None if month_span(*later, time)[0] > present else f"{later[0]}-{later[1]:02d}",
    )


def _seen(followed: _Party, day: int, where: str, doing: str) -> None:
    places = followed.days.setdefault(day, [])
    if not places or places[-1] != where:
        places.append(where)
    followed.doings[day] = doing


def _day(
    name: str, followed: _Party, start: tuple[str, str], index: int, moment: int, length: int
) -> PartyDay:
    """The party's day ``index`` of the month, which begins at ``moment``: where the day
    found it (where the latest day before it left it, or the month's start), then each place
    its records took it that day."""
    lived = (
        (followed.present is None or moment <= followed.present)
        and (followed.since is None or followed.since < moment + length)
        and (followed.until is None or followed.until >= moment)
    )
    if not lived:
        return PartyDay(party=name, lived=False, where=[])
    where, doing = start
    for earlier in range(index - 1, -1, -1):
        if earlier in followed.days:
            where, doing = followed.days[earlier][-1], followed.doings[earlier]
            break
    seen = followed.days.get(index, [])
    places = seen if seen and seen[0] == where else [where, *seen]
    return PartyDay(party=name, lived=True, where=places, doing=followed.doings.get(index, doing))
