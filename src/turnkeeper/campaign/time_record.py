"""A character's own time record, read from a world's one journal.

The world keeps one time record for every party; a character's own is the part of it made
while the character's party was the one run, followed in one pass as parties form, split and
join (issue 28: "a time record which logs the activities and whereabouts of player characters
and their henchmen").
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from turnkeeper.kernel.events import (
    UNDO_EVENTS,
    CampaignStarted,
    CommandRedone,
    CommandUndone,
    Recorded,
)
from turnkeeper.procedures.dungeon.events import SiteEntered, SiteLeft
from turnkeeper.procedures.parties import (
    PartiesJoined,
    PartyArrived,
    PartyOccupied,
    PartySplit,
    PartySwitched,
)
from turnkeeper.procedures.wilderness.events import MapLoaded, MoveMade


class _Follower:
    """Follows one character through the world's journal, a record at a time: the party the
    character is with, and whether a record is theirs (made while that party was run, or
    moving them from one party to another)."""

    def __init__(self, character: str) -> None:
        self.running: str | None = None
        self.member_of: dict[str, str] = {}  # character (folded) -> party
        self.names: dict[str, str] = {}  # character (folded) -> as the world names them
        self.folded = character.casefold()

    def step(self, record: Recorded, undone: frozenset[int]) -> str | None:
        """The character's party if ``record`` is in their own record, else None."""
        event = record.event
        member_of = self.member_of
        before = member_of.get(self.folded)
        if isinstance(event, CampaignStarted):
            self.running = event.company
            member_of.clear()
            member_of.update({c.name.casefold(): event.company for c in event.party.characters})
            self.names.update({c.name.casefold(): c.name for c in event.party.characters})
        elif record.command in undone or isinstance(event, UNDO_EVENTS):
            return None
        elif isinstance(event, PartySwitched):
            self.running = event.to
        elif isinstance(event, PartySplit):
            member_of.update({c.casefold(): event.name for c in event.characters})
        elif isinstance(event, PartyArrived):
            member_of.update({c.name.casefold(): event.name for c in event.party.characters})
            self.names.update({c.name.casefold(): c.name for c in event.party.characters})
        elif isinstance(event, PartiesJoined) and self.running is not None:
            running = self.running
            member_of.update({c: running for c, party in member_of.items() if party == event.name})
        after = member_of.get(self.folded)
        if after is not None and (self.running in (before, after) or before != after):
            return after
        return None


def character_record(
    records: Iterable[Recorded], character: str, undone: frozenset[int] = frozenset()
) -> Iterator[tuple[str, Recorded]]:
    """A character's own time record: each record of the journal made while the character's
    party was the one run (the log of their activities and whereabouts), with that party's
    name, read in one pass that follows the world's parties as they form, split and join.
    Commands taken back by an undo are left out, as in the players' log."""
    follower = _Follower(character)
    for record in records:
        party = follower.step(record, undone)
        if party is not None:
            yield party, record


#: What passes in every stretch of time and tells nothing of a character's whereabouts: the
#: clock, the turns of the time record, the dice behind the screen, a day's upkeep.
ROUTINE = frozenset(
    {
        "clock.advanced",
        "countdown.ticked",
        "party.switched",
        "dungeon.turn",
        "dungeon.turn_passed",
        "dungeon.die",
        "dungeon.check",
        "encounter.die",
        "wilderness.die",
        "wilderness.tp_spent",
        "wilderness.day_began",
        "wilderness.conditions",
        "light.burned",
        "rest.started",
        "rest.done",
        "rest.due",
        "rest.lapsed",
        "supply.used",
        "supply.shortfall",
        "hp.changed",
    }
)


@dataclass
class Stretch:
    """A stretch of a character's time: from when to when, where, doing what, with whom,
    the events of note in it and how many lines of the record it holds."""

    party: str
    since: int
    until: int
    where: str
    doing: str
    company: tuple[str, ...]
    notes: list[Recorded] = field(default_factory=list)
    lines: int = 0


def whereabouts(
    records: Iterable[Recorded], character: str, undone: frozenset[int] = frozenset()
) -> Iterator[Stretch]:
    """A character's time record as whereabouts: a stretch for each span in which the party
    they were with, its place, what it was doing and who was with them stayed the same, each
    with the events of note in it (not the clock, the dice behind the screen, a day's
    upkeep). Every record of the journal is read once, for each party's place follows from
    its own records (a site entered and left, a hex reached, the referee's `party doing`)."""
    follower = _Follower(character)
    place: dict[str, str] = {}
    doing: dict[str, str] = {}
    maps: dict[str, str] = {}
    current: Stretch | None = None
    for record in records:
        party = follower.step(record, undone)
        running = follower.running
        event = record.event
        if running is not None and record.command not in undone:
            moved(event, running, place, doing, maps)
        if party is None:
            continue
        company = tuple(
            follower.names.get(folded, folded)
            for folded, theirs in follower.member_of.items()
            if theirs == party and folded != follower.folded
        )
        key = (party, place.get(party, "in town"), doing.get(party, ""), company)
        if current is not None and current.since == record.at and current.party == party:
            # what changes in the instant a stretch began is that stretch's own news
            current.where, current.doing, current.company = key[1], key[2], company
        elif current is None or key != (
            current.party,
            current.where,
            current.doing,
            current.company,
        ):
            if current is not None:
                yield current
            current = Stretch(party, record.at, record.at, key[1], key[2], company)
        current.until = max(current.until, record.at)
        current.lines += 1
        if event.kind not in ROUTINE:
            current.notes.append(record)
    if current is not None:
        yield current


def moved(
    event: object,
    running: str,
    place: dict[str, str],
    doing: dict[str, str],
    maps: dict[str, str],
) -> None:
    """The running party's place and doings after ``event``; a new party's from its first."""
    if isinstance(event, SiteEntered):
        place[running] = f"in {event.site.name}"
    elif isinstance(event, SiteLeft):
        place[running] = f"by {event.name}"
    elif isinstance(event, MapLoaded):
        maps[running] = event.map.name
        place[running] = f"at hex {event.at.label} of {event.map.name}"
    elif isinstance(event, MoveMade):
        place[running] = f"at hex {event.to.label} of {maps.get(running, 'the map')}"
    elif isinstance(event, PartyOccupied):
        doing[running] = event.doing
        if event.bound_for:
            place[running] = f"on the way to {event.bound_for}"
    elif isinstance(event, PartySplit):
        place[event.name] = place.get(running, "in town")
        doing[event.name] = doing.get(running, "")
        if running in maps:
            maps[event.name] = maps[running]


def records_run_for(records: Iterable[Recorded]) -> Iterator[tuple[str, str | None, Recorded]]:
    """Each record with the party whose time record it is, and the party it tells of beside
    (None but for a party formed, arrived or joining: the party split off, the newcomers, the
    party joining another), read in one pass, undone commands and all.

    A record is the time record of the party run after it: its ``at`` is that party's present,
    so a party's records run forward in game time (an undo aside). A switch turns to its party;
    an undo of a command that switched returns to the party run before that command, a redo of
    one to the party it left run. Only the commands that switched are remembered, so a long
    journal is read in little memory.
    """
    running = ""
    before: dict[int, str] = {}  # a command that switched -> the party run before it
    after: dict[int, str] = {}  # a command that switched -> the party it left run
    for record in records:
        event = record.event
        beside: str | None = None
        if isinstance(event, CampaignStarted):
            running = event.company
        elif isinstance(event, PartySwitched):
            before.setdefault(record.command, running)
            running = after[record.command] = event.to
        elif isinstance(event, CommandUndone):
            running = before.get(event.command, running)
        elif isinstance(event, CommandRedone):
            if record.command not in after:  # (a redo sent as a party runs that party)
                running = after.get(event.command, running)
        elif isinstance(event, PartySplit | PartyArrived | PartiesJoined):
            beside = event.name
        yield running, beside, record


def world_parties(records: Iterable[Recorded]) -> list[str]:
    """The parties ``records`` tell of, in the order they entered the world: the founding
    party, then each party split off or arrived (a name used again is one party)."""
    names: dict[str, None] = {}
    for record in records:
        event = record.event
        if isinstance(event, CampaignStarted):
            names.setdefault(event.company)
        elif isinstance(event, PartySplit | PartyArrived):
            names.setdefault(event.name)
    return list(names)


def run_at(runs: Sequence[tuple[int, str]], seq: int, founding: str) -> str:
    """The party the time record was run for at record ``seq``, from the switches ``runs``
    ((seq, party) in seq order, :meth:`~turnkeeper.service.Campaigns.runs`).

    >>> run_at([(5, "Grey Band"), (9, "Keep")], 7, "Keep"), run_at([], 3, "Keep")
    ('Grey Band', 'Keep')
    """
    at = bisect.bisect_right(runs, (seq, "\uffff"))
    return runs[at - 1][1] if at else founding


class PartyLines:
    """Which records are a party's own, by seq: those made while the time record was run for
    it (``runs``, the switches as (seq, party); before the first the ``founding`` party was
    run) and, before it split off, those of the party it left, back to the world's start (its
    characters lived them; ``splits``, (seq, new party, the party it left)).

    >>> lines = PartyLines("Ride", [(5, "Ride"), (9, "Keep")], [(4, "Ride", "Keep")], "Keep")
    >>> [seq for seq in range(1, 11) if seq in lines]
    [1, 2, 3, 4, 5, 6, 7, 8]
    """

    def __init__(
        self,
        party: str,
        runs: Sequence[tuple[int, str]],
        splits: Sequence[tuple[int, str, str]],
        founding: str,
    ) -> None:
        self.runs, self.founding = runs, founding
        parents = {new: (seq, left) for seq, new, left in splits}
        self.lineage: list[tuple[str, int | None]] = [(party, None)]
        seen = {party}
        while party in parents:
            until, party = parents[party]
            if party in seen:  # a name split off again after a join: the latest is the one
                break
            seen.add(party)
            self.lineage.append((party, until))

    def __contains__(self, seq: int) -> bool:
        run = run_at(self.runs, seq, self.founding)
        return any(
            run == party and (until is None or seq <= until) for party, until in self.lineage
        )
