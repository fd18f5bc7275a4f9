"""The journal lines each seat's display shows, kept from its last drawing so the next drawing
reads only the records a command added.

A display shows the last :data:`~turnkeeper.web.render.JOURNAL_LINES` records its seat reads,
up to the state's version. Read afresh (:func:`turnkeeper.web.core.journal_of`), that is the
undos' and redos' index (which commands are struck through), a players' party's switches and
splits (which lines are its own: :meth:`~turnkeeper.service.Campaigns.party_lines`) and the
records read back by seq until enough are kept: three queries and forty records parsed for the
referee, five and eighty for a player, for a command that added one line. A record never
changes once written (an undo is a record of its own), so the lines drawn last are still
right: the next drawing reads the records after them, in one query, and adds those its seat
reads (:meth:`LatestLines.read`). It reads afresh when the records added could change what
came before them: an undo or a redo (lines struck or no longer struck, a party's lines moved),
a party switched or split off (whose lines are whose); and when what it kept is not the
store's any longer (a version gone back, a campaign deleted and made again, a record at the
kept seq that is not the one kept), or many records came at once (a year's wait: reading
back from the end reads fewer).

The records this server's own commands append are told to it as they land
(:meth:`LatestLines.told`): the next drawing takes them from there, reading nothing, so a
command costs its seats' drawings no query at all. What it was told is what the store holds
(the append took the version they follow); a record another process wrote is read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from turnkeeper.campaign import CampaignState, Recorded
from turnkeeper.kernel.events import CommandRedone, CommandUndone
from turnkeeper.procedures.parties import (
    PartiesJoined,
    PartyArrived,
    PartySplit,
    PartySwitched,
)
from turnkeeper.service import Campaigns
from turnkeeper.views.journal import perceived_by
from turnkeeper.web import render
from turnkeeper.web.tokens import Hand, Role, Seat

#: The events after which a seat's lines are read afresh: those the service reads by their
#: index to say which commands are undone (:meth:`~turnkeeper.service.Campaigns.undone`) and
#: which records are a party's (:meth:`~turnkeeper.service.Campaigns.party_lines`), and the
#: other moves of a world's parties (rare, and a character's link may change party with them).
AFRESH = (
    CommandUndone,
    CommandRedone,
    PartySwitched,
    PartySplit,
    PartyArrived,
    PartiesJoined,
)

KEPT_SEATS = 256
"""How many seats' lines are kept (a campaign's referee, its table, each character's link):
the campaigns being played."""

MOVED_ON = 2 * render.JOURNAL_LINES
"""The most records a seat's kept lines are moved on by: past that many at once they are read
afresh (reading back from the end reads fewer). As many of the records this server appended
are kept per campaign (:meth:`LatestLines.told`), and the record before them."""

Keep = Callable[[Recorded], bool] | None


def keeps(
    c: Campaigns,
    name: str,
    state: CampaignState,
    seat: Seat,
    undone: frozenset[int],
    until: int,
) -> Keep:
    """Which records the seat reads: every one (the referee); the players' those their own
    party perceives (:func:`~turnkeeper.views.journal.perceived_by`): a character's link the
    party the character is with, the table's link the party run now."""
    if seat is Role.REFEREE:
        return None
    return perceived_by(c.party_lines(name, party_of(state, seat), until, undone), undone)


def party_of(state: CampaignState, seat: Seat) -> str:
    """The party whose lines the seat reads: a character's link the party the character is
    with, every other seat the party run now."""
    if isinstance(seat, Hand):
        return state.party_of(seat.character) or state.company
    return state.company


def journal_of(
    c: Campaigns, name: str, state: CampaignState, seat: Seat, until: int
) -> tuple[list[Recorded], frozenset[int]]:
    """The seat's last :data:`render.JOURNAL_LINES` records up to seq ``until`` (the players':
    those the party perceives), read from the store by seq backwards, and the commands
    undone up to there."""
    records, undone, _ = _afresh(c, name, state, seat, until)
    return records, undone


def _afresh(
    c: Campaigns, name: str, state: CampaignState, seat: Seat, until: int
) -> tuple[list[Recorded], frozenset[int], Keep]:
    undone = c.undone(name, until=until)
    keep = keeps(c, name, state, seat, undone, until)
    return c.latest(name, render.JOURNAL_LINES, keep, until=until), undone, keep


@dataclass(frozen=True)
class Shown:
    """A seat's lines as drawn last: up to seq ``until``, whose record is ``last``; the commands
    undone there, and which records the seat reads (None: all)."""

    until: int
    last: Recorded
    records: tuple[Recorded, ...]
    undone: frozenset[int]
    keep: Keep


class LatestLines:
    """The lines of each seat's display, by campaign, seat and the seat's party (a character
    who joins another party reads that party's lines): see the module's text.

    ``reads`` counts the reads afresh and ``added`` the reads of the records after the kept
    lines (the tests read them). Safe from the server's worker threads: a seat drawn twice at
    once keeps the later drawing's lines.
    """

    def __init__(self, kept: int = KEPT_SEATS) -> None:
        self._kept = kept
        self._shown: dict[tuple[str, Seat, str], Shown] = {}
        # by campaign: the last records this server appended, in seq order, without a gap
        self._told: dict[str, tuple[Recorded, ...]] = {}
        self._lock = threading.Lock()
        self.reads = 0
        self.added = 0

    def told(self, name: str, records: list[Recorded]) -> None:
        """This server appended ``records`` to ``name`` (its command's, in seq order): kept
        for the next drawings, after those told before when they follow them."""
        if not records:
            return
        with self._lock:
            before = self._told.get(name, ())
            if not before or before[-1].seq + 1 != records[0].seq:
                before = ()  # another process wrote between, or a campaign made again
            self._told.pop(name, None)
            self._told[name] = (*before, *records)[-MOVED_ON - 1 :]
            while len(self._told) > self._kept:
                del self._told[next(iter(self._told))]

    def read(
        self, c: Campaigns, name: str, state: CampaignState, seat: Seat
    ) -> tuple[list[Recorded], frozenset[int]]:
        """The seat's last :data:`render.JOURNAL_LINES` lines up to the state's version,
        oldest first, and the commands undone up to there (as :func:`journal_of`)."""
        until = state.version
        key = (name, seat, party_of(state, seat))
        with self._lock:
            shown = self._shown.get(key)
        now = self._after(c, name, shown, until) if shown is not None else None
        if now is None:
            self.reads += 1
            records, undone, keep = _afresh(c, name, state, seat, until)
            if records and records[-1].seq == until:
                last = records[-1]
            else:
                # the version's record is not the seat's (a referee's note): read it, to tell
                # next time whether the store still holds it
                read, _ = c.page(name, until - 1, 1, None, until)
                if not read:
                    return records, undone
                last = read[0]
            now = Shown(until, last, tuple(records), undone, keep)
        with self._lock:
            if now.until >= getattr(self._shown.get(key), "until", -1):
                self._shown.pop(key, None)
                self._shown[key] = now  # the newest last: dicts keep their order
                while len(self._shown) > self._kept:
                    del self._shown[next(iter(self._shown))]
        return list(now.records), now.undone

    def _after(self, c: Campaigns, name: str, shown: Shown, until: int) -> Shown | None:
        """``shown`` moved on to ``until`` by the records after it; None when the lines must
        be read afresh."""
        if until == shown.until:
            return shown
        if until < shown.until or until - shown.until > MOVED_ON:
            return None
        self.added += 1
        # the kept seq's record too: the store's still, or the campaign was made again
        read = self._told_between(name, shown, until)
        if read is None:
            read, _ = c.page(name, shown.until - 1, until - shown.until + 1, None, until)
        if len(read) != until - shown.until + 1 or read[0] != shown.last:
            return None
        added = read[1:]
        if any(isinstance(r.event, AFRESH) for r in added):
            return None
        keep = shown.keep
        mine = [r for r in added if keep is None or keep(r)]
        records = (*shown.records, *mine)[-render.JOURNAL_LINES :]
        return Shown(until, read[-1], records, shown.undone, keep)

    def _told_between(self, name: str, shown: Shown, until: int) -> list[Recorded] | None:
        """The records of seqs ``shown.until`` to ``until`` as this server appended them (the
        first the one its lines stopped at, whose seq the next append took as its version);
        None unless it was told every one after it."""
        with self._lock:
            told = self._told.get(name, ())
        if told and told[0].seq == shown.until + 1:
            told = (shown.last, *told)
        if not told or told[0].seq > shown.until or told[-1].seq < until:
            return None
        first = shown.until - told[0].seq
        return list(told[first : first + until - shown.until + 1])
