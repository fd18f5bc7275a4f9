"""Campaigns as a reader sees them: :class:`CampaignReader` loads a campaign's journal (from
its newest snapshot where there is one) and keeps it caught up, reads pages, the undone
commands and a world's time records by the store's indexes, and sends journals out (JSON
Lines, Markdown). It never writes: :class:`~turnkeeper.service.campaigns.Campaigns`, the
service itself, is a reader that also runs commands and keeps the caches with what it
appends."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator
from typing import NamedTuple, cast

from turnkeeper.campaign import (
    CampaignState,
    Journal,
    Recorded,
    Visibility,
    snapshots,
)
from turnkeeper.campaign.markdown import markdown_lines, world_markdown_lines
from turnkeeper.campaign.registry import EVENTS
from turnkeeper.campaign.time_record import (
    PartyLines,
    Stretch,
    character_record,
    run_at,
    whereabouts,
    world_parties,
)
from turnkeeper.errors import (
    NotFoundError,
)
from turnkeeper.kernel.events import (
    CampaignStarted,
    CommandRedone,
    CommandUndone,
    undone_commands,
)
from turnkeeper.procedures.parties import PartyArrived, PartySplit, PartySwitched
from turnkeeper.service.collector import gc_paused
from turnkeeper.service.moving import PAGE, SaidLine, lines_said
from turnkeeper.store import EventStore, JsonStore, SnapshotStore
from turnkeeper.store.base import dumps
from turnkeeper.words import unknown


class CharacterRecord(NamedTuple):
    """A character's own time record: the character as the world names them, the commands
    undone (for a players' copy), and each record with the party the character was with."""

    character: str
    undone: frozenset[int]
    lines: Iterator[tuple[str, Recorded]]


class CampaignReader:
    """Campaigns kept in one event store, read: their journals, pages and time records, and
    journals sent out.

    Journals already read are kept in memory and caught up with ``read(since=...)``, so a
    long-running process (a server, the benchmark) does not re-read a campaign per command.
    Nothing here writes to the store: reads leave it as they found it.
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._journals: dict[str, Journal] = {}
        # campaigns read by a whole fold, for want of a snapshot: the next command keeps one
        self._unkept: set[str] = set()

    # -- reading ---------------------------------------------------------------------------

    def journal(self, name: str) -> Journal:
        """The campaign's journal, caught up with everything in the store."""
        journal = self._journals.get(name)
        stored = self.store.version(name) if journal is not None else None
        if journal is None or stored is None or stored < journal.version:
            # first read, or the campaign was deleted and made again under the same name
            with gc_paused(freeze=True):
                journal = self._resume(name)
                if journal is None:
                    records = self._read(name)
                    if not records:
                        raise NotFoundError(
                            f"campaign {name!r} has an empty journal: import or recreate it"
                        )
                    journal = Journal(records, older=self._older(name))
                    if journal.version >= snapshots.SNAPSHOT_EVERY:
                        self._unkept.add(name)
        elif stored > journal.version:  # someone else appended: catch up with what is new
            # a few records, most likely: one at a time, through the store's plain read
            journal.append(EVENTS.record(r) for r in self.store.read(name, journal.version))
        self._journals[name] = journal
        return journal

    def current(self, name: str) -> CampaignState | None:
        """The campaign's state in memory if the store holds nothing after it, else None (then
        :meth:`state` catches up). It waits for nothing and changes nothing, so a server's
        read need not queue behind a command under way on the campaign: the state is taken
        first and the store's version read after, so a state that matches it is at least as
        new as every command the store held when asked (one under way, not yet committed, is
        not yet the campaign's; one committed and not yet in memory shows as a newer version).
        """
        journal = self._journals.get(name)
        if journal is None:
            return None
        state = journal.state  # one read: a writer replaces it whole
        return state if self.store.version(name) == state.version else None

    def loaded(self, name: str) -> bool:
        """Whether the campaign's journal is in memory (reading it then costs little)."""
        return name in self._journals

    def _resume(self, name: str) -> Journal | None:
        """The journal from the newest snapshot and the records after it, if the store has one.

        None (fold the whole journal) without a snapshot in this turnkeeper's format, or when
        the records after it undo a command the snapshot holds.
        """
        if self.store.version(name) < snapshots.SNAPSHOT_EVERY:
            return None  # too short to have one: never pay for the format tag's schema
        state = self._snapshot_below(name, None)
        if state is None:
            return None
        version = state.version
        return Journal.resume(
            state,
            self._read(name, version),
            lambda: self._read(name)[:version],
            between=lambda since, until: self._read(name, since, until - since),
            older=self._older(name),
        )

    def _snapshot_below(self, name: str, before: int | None) -> CampaignState | None:
        """The newest snapshot in this turnkeeper's format (below version ``before``), or
        None without one that reads back as this campaign's state."""
        if not isinstance(self.store, SnapshotStore):
            return None
        found = self.store.load_snapshot(name, snapshots.state_format(), before)
        if found is None:
            return None
        version, text = found
        state = snapshots.load_state(text)
        if state is None or state.version != version or state.name != name:
            return None
        return state

    def _older(self, name: str) -> Callable[[int], CampaignState | None]:
        """Where an undo behind the journal's checkpoints finds an older snapshot."""
        return lambda before: self._snapshot_below(name, before)

    def _read(self, name: str, since: int = 0, limit: int | None = None) -> list[Recorded]:
        """The records after ``since`` (at most ``limit``) as typed events: in one parse when
        the store can."""
        if isinstance(self.store, JsonStore):
            return EVENTS.records_json(self.store.read_json(name, since, limit))
        return [EVENTS.record(r) for r in self.store.read(name, since, limit)]

    def state(self, name: str) -> CampaignState:
        """What is true now in the campaign (the fold of its journal)."""
        return self.journal(name).state

    def log(self, name: str, since: int = 0, player: bool = False) -> list[Recorded]:
        """The records after ``since``; ``player=True`` leaves out referee-only events."""
        records = self.journal(name).records[since:]
        if player:
            return [r for r in records if r.event.visibility is Visibility.PARTY]
        return list(records)

    def page(
        self,
        name: str,
        after: int = 0,
        limit: int | None = None,
        keep: Callable[[Recorded], bool] | None = None,
        until: int | None = None,
    ) -> tuple[list[Recorded], bool]:
        """The records after seq ``after`` (up to ``until``) that ``keep`` accepts, at most
        ``limit``, and whether more follow: read from the store by seq, a chunk at a time,
        never the records before ``after`` nor past the page (its cost does not grow with
        the journal)."""
        chunk = None if limit is None else max(limit + 1, 200 if keep is not None else 0)
        chosen: list[Recorded] = []
        since = after
        while True:
            batch = self._read(name, since, chunk)
            for record in batch:
                if until is not None and record.seq > until:
                    return chosen, False
                if keep is None or keep(record):
                    if limit is not None and len(chosen) == limit:
                        return chosen, True
                    chosen.append(record)
            if chunk is None or len(batch) < chunk:
                return chosen, False
            since = batch[-1].seq

    def latest(
        self,
        name: str,
        count: int,
        keep: Callable[[Recorded], bool] | None = None,
        until: int | None = None,
    ) -> list[Recorded]:
        """The last ``count`` records up to seq ``until`` (the store's version by default)
        that ``keep`` accepts, in seq order: read from the store by seq backwards from
        ``until``, a chunk at a time (each twice the last), never the journal before them, so
        a page's latest lines cost the same at 1M events as at 100. It reads the store alone,
        not the journal in memory: a page draws with it outside the campaign's lock."""
        end = self.store.version(name) if until is None else until
        chunk = count if keep is None else 2 * count
        chosen: list[Recorded] = []
        while end > 0 and len(chosen) < count:
            start = max(0, end - chunk)
            batch = self._read(name, start, end - start)
            kept = batch if keep is None else [r for r in batch if keep(r)]
            chosen = kept + chosen
            end, chunk = start, chunk * 2
        return chosen[-count:] if count else []

    def undone(self, name: str, until: int | None = None) -> frozenset[int]:
        """The commands an undo took back and no redo brought back, wherever they lie (by
        the undos and redos up to seq ``until``, if given): from the store's undo and redo
        records alone (few, and found by an index), not from the whole journal."""
        records = [
            EVENTS.record(row)
            for kind in (CommandUndone.kind, CommandRedone.kind)
            for row in self.store.read_kind(name, kind)
        ]
        records.sort(key=lambda record: record.seq)
        return undone_commands(r for r in records if until is None or r.seq <= until)

    def runs(
        self, name: str, until: int | None = None, undone: frozenset[int] | None = None
    ) -> list[tuple[int, str]]:
        """When the time record turned to each party, as (seq, party) in seq order, up to seq
        ``until``: from the store's switch records alone (found by their index, never the
        whole journal), those of undone commands left out. Before the first, the campaign's
        founding party (its own name) was run; in a world imported under another name, the
        founding party kept its own, and the runs begin with it at record 1. ``undone``: the
        commands undone up to ``until``, where the caller has read them already."""
        if undone is None:
            undone = self.undone(name, until)
        records = [EVENTS.record(row) for row in self.store.read_kind(name, PartySwitched.kind)]
        runs = sorted(
            (r.seq, r.event.to)
            for r in records
            if isinstance(r.event, PartySwitched)
            and r.command not in undone
            and (until is None or r.seq <= until)
        )
        if runs:  # (a world of one party was never renamed apart from it)
            started = [EVENTS.record(row).event for row in self.store.read(name, 0, 1)]
            if isinstance(started[0], CampaignStarted) and started[0].company != name:
                runs.insert(0, (1, started[0].company))
        return runs

    def party_lines(
        self,
        name: str,
        party: str,
        until: int | None = None,
        undone: frozenset[int] | None = None,
    ) -> PartyLines:
        """Which records up to seq ``until`` are ``party``'s own (:class:`PartyLines`): from
        the store's switch and split records alone, found by their index (``undone`` as for
        :meth:`runs`)."""
        if undone is None:
            undone = self.undone(name, until)
        records = [EVENTS.record(row) for row in self.store.read_kind(name, PartySplit.kind)]
        splits = [
            (r.seq, r.event.name, r.event.left or run_at(self.runs(name, r.seq), r.seq, name))
            for r in records
            if isinstance(r.event, PartySplit)
            and r.command not in undone
            and (until is None or r.seq <= until)
        ]
        return PartyLines(party, self.runs(name, until, undone), splits, name)

    def character_record(self, name: str, character: str) -> CharacterRecord:
        """``character``'s own time record (the name as typed, in any case): the journal
        standing now read a page at a time, never whole; NotFoundError naming the world's
        characters for one it does not know."""
        state = self.state(name)
        found = next((k for k in state.everyone if k.casefold() == character.casefold()), None)
        if found is None:
            raise NotFoundError(unknown("character", character, state.everyone, listing=True))
        undone = self.undone(name)
        records = (r for _, page in self.stored_pages(name) for r in page)
        return CharacterRecord(found, undone, character_record(records, found, undone))

    def character_whereabouts(
        self, name: str, character: str
    ) -> tuple[str, frozenset[int], Iterator[Stretch]]:
        """``character``'s time record as whereabouts (:func:`whereabouts`): the character
        as the world names them, the commands undone, and the stretches, the journal read a
        page at a time."""
        found, undone, _ = self.character_record(name, character)
        records = (r for _, page in self.stored_pages(name) for r in page)
        return found, undone, whereabouts(records, found, undone)

    def names(self) -> list[str]:
        """Every campaign in the store."""
        return self.store.campaigns()

    # -- moving journals out ---------------------------------------------------------------

    def export_lines(self, name: str) -> Iterator[str]:
        """The journal as JSON Lines, a page of records at a time (each piece ends in a
        newline): every record's text as the store keeps it, never parsed nor made into
        events, so an export holds one page in memory whatever the journal's length. The
        journal is the one standing when the export starts: a command meanwhile follows it.
        """
        until = self.store.version(name)
        if until == 0:
            raise NotFoundError(f"campaign {name!r} has an empty journal: import or recreate it")
        for since in range(0, until, PAGE):
            yield self._stored(name, since, min(PAGE, until - since)) + "\n"

    def export_jsonl(self, name: str) -> str:
        """The journal as JSON Lines, one record a line; :meth:`import_jsonl` reads it back."""
        return "".join(self.export_lines(name))

    def stored_pages(self, name: str, since: int = 0) -> Iterator[tuple[list[str], list[Recorded]]]:
        """The records after ``since`` of the journal standing now, a page at a time: each
        record's stored text and its typed record, from one read of the page. Whole-journal
        readers (the Markdown log, ``log --json``) hold one page, never the journal."""
        until = self.store.version(name)
        for start in range(since, until, PAGE):
            texts = self._stored(name, start, min(PAGE, until - start)).split("\n")
            yield texts, EVENTS.records_json("[" + ",".join(texts) + "]")

    def said_pages(self, name: str, since: int = 0) -> Iterator[list[SaidLine]]:
        """The records after ``since`` of the journal standing now, a page at a time, each as
        stored with its line: the lines kept beside the records, so no event is read back
        (but for records stored before lines were kept, whose lines are made here)."""
        until = self.store.version(name)
        if not isinstance(self.store, JsonStore):
            for start in range(since, until, PAGE):
                texts = self._stored(name, start, min(PAGE, until - start)).split("\n")
                typed = EVENTS.records_json("[" + ",".join(texts) + "]")
                yield [
                    (r.command, r.at, text, r.event.describe())
                    for text, r in zip(texts, typed, strict=True)
                ]
            return
        for page in self.store.read_lines(name, since, until, PAGE):
            # a line missing (a record stored before lines were kept)? asked in C: a whole
            # log asks it of every record
            if None in map(_LINE, page):
                unsaid = [text for _, _, text, line in page if line is None]
                lines = iter(lines_said(EVENTS.records_json("[" + ",".join(unsaid) + "]")))
                yield [
                    (command, at, text, next(lines) if line is None else line)
                    for command, at, text, line in page
                ]
            else:
                yield cast(list[SaidLine], page)

    def _stored(self, name: str, since: int, limit: int) -> str:
        """The texts of the records after ``since`` (at most ``limit``, at least one), one a
        line: as stored when the store hands them back so, else as its records are written."""
        if isinstance(self.store, JsonStore):
            return self.store.read_json(name, since, limit, lines=True)
        return "\n".join(dumps(r) for r in self.store.read(name, since, limit))

    def export_markdown(self, name: str, player: bool = False) -> str:
        """The session log as Markdown; ``player=True`` is the players' copy."""
        return "".join(self.export_markdown_lines(name, player))

    def export_markdown_lines(self, name: str, player: bool = False) -> Iterator[str]:
        """The session log as Markdown, line by line, from the journal read a page at a time;
        the undone commands (struck out, or left out of the players' copy) come first from
        the undo records alone, found by their index, and a world's parties from the records
        that brought them in: a world's log is a section per party, the journal read once
        for each; the players' copy is the lines of the party run now."""
        undone = self.undone(name)

        def journal() -> Iterator[Recorded]:
            return (r for _, page in self.stored_pages(name) for r in page)

        if player:  # the players' copy is their own party's (the party run now), headed
            # by the campaign's start, which says what the log is of
            mine = self.party_lines(name, self.state(name).company)
            records = (r for r in journal() if r.seq == 1 or r.seq in mine)
            yield from markdown_lines(records, undone, player)
            return
        founding = [EVENTS.record(row) for row in self.store.read(name, 0, 1)]
        brought = [
            EVENTS.record(row)
            for kind in (PartySplit.kind, PartyArrived.kind)
            for row in self.store.read_kind(name, kind)
        ]
        brought.sort(key=lambda record: record.seq)
        parties = world_parties([*founding, *brought])
        yield from world_markdown_lines(journal, parties, undone, player)

    # -- the current campaign --------------------------------------------------------------

    def resolve(self, name: str | None) -> str:
        """The campaign a verb acts on: ``name`` if given, else the current one."""
        if name:
            return name
        current = self.store.current()
        if current is None:
            raise NotFoundError(
                "no campaign chosen: pass --campaign NAME, or pick one with `turnkeeper use NAME`"
            )
        return current


_LINE = operator.itemgetter(3)
"""A stored record's line (:data:`~turnkeeper.store.base.StoredLine`)."""
