"""A character's own time record, read from a world's one journal.

The world keeps one time record for every party; a character's own is the part of it made
while the character's party was the one run, followed in one pass as parties form, split and
join (issue 28: "a time record which logs the activities and whereabouts of player characters
and their henchmen").
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Sequence

from turnkeeper.kernel.events import (
    UNDO_EVENTS,
    CampaignStarted,
    CommandRedone,
    CommandUndone,
    Recorded,
)
from turnkeeper.procedures.parties import PartiesJoined, PartyArrived, PartySplit, PartySwitched


def character_record(
    records: Iterable[Recorded], character: str, undone: frozenset[int] = frozenset()
) -> Iterator[tuple[str, Recorded]]:
    """A character's own time record: each record of the journal made while the character's
    party was the one run (the log of their activities and whereabouts), with that party's
    name, read in one pass that follows the world's parties as they form, split and join.
    Commands taken back by an undo are left out, as in the players' log."""
    running: str | None = None
    member_of: dict[str, str] = {}  # character -> party
    folded = character.casefold()
    for record in records:
        event = record.event
        before = member_of.get(folded)
        if isinstance(event, CampaignStarted):
            running = event.company
            member_of = {c.name.casefold(): event.company for c in event.party.characters}
        elif record.command in undone or isinstance(event, UNDO_EVENTS):
            continue
        elif isinstance(event, PartySwitched):
            running = event.to
        elif isinstance(event, PartySplit):
            member_of.update({c.casefold(): event.name for c in event.characters})
        elif isinstance(event, PartyArrived):
            member_of.update({c.name.casefold(): event.name for c in event.party.characters})
        elif isinstance(event, PartiesJoined) and running is not None:
            member_of.update({c: running for c, party in member_of.items() if party == event.name})
        after = member_of.get(folded)
        if after is not None and (running in (before, after) or before != after):
            yield after, record


def party_lines(records: Iterable[Recorded]) -> Iterator[tuple[str, str | None, Recorded]]:
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
