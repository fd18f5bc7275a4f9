"""The application service: runs a campaign's commands against an event store.

Each front door (CLI, HTTP, a bot) goes through :class:`Campaigns`: it loads a campaign's
records from the store, folds them into the live state, decides a command with the right dice
and appends the new records carrying the version it folded from. If another writer got there
first, the store refuses with ConflictError, nothing is appended, and the caller reloads.

Dice: a command starting at version ``v`` rolls :func:`~turnkeeper.campaign.command_dice`
``(seed, v)``, so the same seed and commands give the same journal in any process; faces typed
in from physical dice replace them, and every one of them must be used.

>>> from turnkeeper.store import open_store
>>> from turnkeeper.campaign import Wait, parse_party
>>> from turnkeeper.rules.loader import preset
>>> import tempfile, os
>>> campaigns = Campaigns(open_store(os.path.join(tempfile.mkdtemp(), "t.db")))
>>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
>>> campaigns.new("Keep", preset("ex"), party, seed=7).version
1
>>> [r.seq for r in campaigns.execute("Keep", Wait(600))]
[2]
>>> campaigns.state("Keep").now
600
"""

from __future__ import annotations

import contextlib
import gc
import json
import secrets
from collections.abc import Iterator, Sequence

from turnkeeper.campaign import (
    CampaignState,
    Character,
    Command,
    Journal,
    Party,
    Recorded,
    Visibility,
    command_dice,
    render_markdown,
    snapshots,
    start_campaign,
)
from turnkeeper.campaign.glance import glance_of
from turnkeeper.campaign.journal import replay
from turnkeeper.campaign.registry import EVENTS
from turnkeeper.dice import DiceSource, TypedDice
from turnkeeper.errors import DiceInputError, NotFoundError, TurnkeeperError
from turnkeeper.files import parse_json
from turnkeeper.kernel.events import CampaignStarted
from turnkeeper.rules.schema import Ruleset
from turnkeeper.store import EventStore, GlanceStore, JsonStore, SnapshotStore
from turnkeeper.store.base import StoreUnavailable
from turnkeeper.store.glance import GLANCE_FORMAT

STAND_IN = Party(characters=(Character(name="Adventurer", hp=6),))
"""The party of a campaign started without a party file: one stand-in character."""


class Campaigns:
    """Campaigns kept in one event store: start them, run commands, read and move journals.

    Journals already read are kept in memory and caught up with ``read(since=...)``, so a
    long-running process (a server, the benchmark) does not re-read a campaign per command.
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._journals: dict[str, Journal] = {}

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
                    journal = Journal(records)
                if journal.version >= snapshots.SNAPSHOT_EVERY:
                    self._snapshot(name, journal)  # so the next process need not fold it all
        elif stored > journal.version:  # someone else appended: catch up with what is new
            # a few records, most likely: one at a time, through the store's plain read
            journal.append(EVENTS.record(r) for r in self.store.read(name, journal.version))
        self._journals[name] = journal
        return journal

    def loaded(self, name: str) -> bool:
        """Whether the campaign's journal is in memory (reading it then costs little)."""
        return name in self._journals

    def _resume(self, name: str) -> Journal | None:
        """The journal from the newest snapshot and the records after it, if the store has one.

        None (fold the whole journal) without a snapshot in this turnkeeper's format, or when
        the records after it undo a command the snapshot holds.
        """
        if not isinstance(self.store, SnapshotStore):
            return None
        if self.store.version(name) < snapshots.SNAPSHOT_EVERY:
            return None  # too short to have one: never pay for the format tag's schema
        found = self.store.load_snapshot(name, snapshots.state_format())
        if found is None:
            return None
        version, text = found
        state = snapshots.load_state(text)
        if state is None or state.version != version or state.name != name:
            return None
        return Journal.resume(state, self._read(name, version), lambda: self._read(name)[:version])

    def _read(self, name: str, since: int = 0) -> list[Recorded]:
        """The records after ``since`` as typed events: in one parse when the store can."""
        if isinstance(self.store, JsonStore):
            return EVENTS.records_json(self.store.read_json(name, since))
        return [EVENTS.record(r) for r in self.store.read(name, since)]

    def _snapshot(self, name: str, journal: Journal) -> None:
        """Keep the journal's state as a snapshot (a cache: see turnkeeper.campaign.snapshots).

        Only where the store may be written, and never at the cost of the read or command
        that asked: a full disk or a read-only file just means no cache this time.
        """
        if isinstance(self.store, SnapshotStore) and self.store.writable():
            text = snapshots.dump_state(journal.state)
            if text is not None:
                with contextlib.suppress(StoreUnavailable):
                    self.store.save_snapshot(name, journal.version, snapshots.state_format(), text)

    def _glance(self, name: str, state: CampaignState) -> None:
        """Keep the campaign's glance for ``status`` (a cache: see turnkeeper.store.glance).

        Like a snapshot, only where the store may be written and never at the cost of the
        command; not for a state that holds a wilderness map, which would be written whole.
        """
        store = self.store
        if isinstance(store, GlanceStore) and state.wilderness is None and store.writable():
            document = json.dumps(glance_of(state), ensure_ascii=False, separators=(",", ":"))
            with contextlib.suppress(StoreUnavailable):
                store.save_glance(name, state.version, GLANCE_FORMAT, document)

    def state(self, name: str) -> CampaignState:
        """What is true now in the campaign (the fold of its journal)."""
        return self.journal(name).state

    def log(self, name: str, since: int = 0, player: bool = False) -> list[Recorded]:
        """The records after ``since``; ``player=True`` leaves out referee-only events."""
        records = self.journal(name).records[since:]
        if player:
            return [r for r in records if r.event.visibility is Visibility.PARTY]
        return list(records)

    def names(self) -> list[str]:
        """Every campaign in the store."""
        return self.store.campaigns()

    # -- writing ---------------------------------------------------------------------------

    def new(
        self, name: str, ruleset: Ruleset, party: Party | None = None, seed: int | None = None
    ) -> CampaignState:
        """Start a campaign (the ruleset and party are embedded, so replay needs no files).

        Without a seed the service draws one; it is in the journal, so replay is exact.
        """
        seed = secrets.randbits(32) if seed is None else seed
        journal = Journal.start(name, ruleset, party or STAND_IN, seed)
        # one transaction: a process killed meanwhile leaves no campaign at all
        self.store.create(name, [r.to_record() for r in journal.records])
        self._journals[name] = journal
        self._glance(name, journal.state)
        return journal.state

    def execute(
        self, name: str, command: Command, typed_dice: Sequence[int] | None = None
    ) -> list[Recorded]:
        """Run ``command`` and append its records; ConflictError (nothing appended) if stale.

        ``typed_dice``: faces of physical dice, used in order instead of the seeded dice; a
        face left over is a DiceInputError, so a mistyped roll never half-applies.
        """
        journal = self.journal(name)
        version = journal.version
        dice: DiceSource
        typed = TypedDice(typed_dice) if typed_dice is not None else None
        dice = typed if typed is not None else command_dice(journal.state.seed, version)
        # A long wait makes 100,000 records that all stay: the collector walking them again
        # and again would hold every other thread of a server for a quarter second at a time.
        with gc_paused():
            records = journal.preview(command, dice)
            if typed is not None and typed.remaining:
                raise DiceInputError(
                    f"{typed.remaining} typed-in dice left over: this command rolled fewer dice"
                )
            try:
                self.store.append(name, version, [r.to_record() for r in records])
            except BaseException:
                # Our copy may be behind; the next call reads the journal afresh.
                self._journals.pop(name, None)
                raise
            journal.append(records)
        if snapshots.due(version, journal.version):
            self._snapshot(name, journal)
        self._glance(name, journal.state)
        return records

    def delete(self, name: str) -> None:
        """Remove a campaign and its journal."""
        self._journals.pop(name, None)
        self.store.delete(name)

    # -- moving journals -------------------------------------------------------------------

    def export_jsonl(self, name: str) -> str:
        """The journal as JSON Lines, one record a line; :meth:`import_jsonl` reads it back."""
        return "".join(
            json.dumps(r.to_record(), ensure_ascii=False, separators=(",", ":")) + "\n"
            for r in self.journal(name).records
        )

    def import_jsonl(self, text: str, name: str | None = None) -> CampaignState:
        """Make a campaign from an exported journal; ``name`` renames it.

        Every record is checked and the journal replayed record by record (time only runs
        forward, the referee's events stay the referee's: :func:`~turnkeeper.campaign.journal.
        replay`) before anything is written; then it is stored in one transaction.
        """
        records = [_parse_line(number, line) for number, line in _lines(text)]
        if not records:
            raise TurnkeeperError("the journal to import is empty")
        seqs = [r.seq for r in records]
        if seqs != list(range(1, len(records) + 1)):
            raise TurnkeeperError(
                "the journal to import must number its records 1, 2, 3... in order"
            )
        first = records[0]
        if not isinstance(first.event, CampaignStarted):
            raise TurnkeeperError("the journal to import must begin with campaign.started")
        if name is not None and name != first.event.name:
            renamed = first.event.model_copy(update={"name": name})
            records[0] = Recorded(first.seq, first.command, first.at, renamed)
        start = records[0].event
        assert isinstance(start, CampaignStarted)
        start_campaign(start.name, start.ruleset, start.party, start.seed)  # name, calendar
        journal = replay(records)
        target = journal.state.name
        self.store.create(target, [r.to_record() for r in journal.records])
        self._journals[target] = journal
        self._glance(target, journal.state)
        return journal.state

    def export_markdown(self, name: str, player: bool = False) -> str:
        """The session log as Markdown; ``player=True`` is the players' copy."""
        return render_markdown(self.journal(name).records, player=player)

    # -- the current campaign --------------------------------------------------------------

    def use(self, name: str) -> None:
        """Make ``name`` the campaign that verbs without ``--campaign`` act on."""
        if name not in self.store.campaigns():
            raise NotFoundError(
                f"no campaign named {name!r}: see `turnkeeper campaigns`, or start one with "
                "`turnkeeper new`"
            )
        self.store.set_current(name)

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


@contextlib.contextmanager
def gc_paused(*, freeze: bool = False) -> Iterator[None]:
    """Pause Python's cyclic garbage collector while a whole journal is read and folded (or a
    command makes many records, or an adapter shapes them).

    A rebuild makes hundreds of thousands of objects that all stay alive (the records, their
    events) or are dropped by reference counting (the states folded past); none of them form
    cycles. The collector, triggered every few hundred new objects, would walk the growing
    heap again and again: with it on, a 100,000-record rebuild takes about twice as long, and
    in a server every other thread waits while it walks. Reference counting frees memory as
    usual meanwhile; the collector resumes afterwards if it was on, even on an error.

    ``freeze``, for a journal read whole: ``gc.freeze`` then moves what survived (the journal,
    alive as long as the campaign is loaded) out of the collector's sight, so the first
    collection after the pause does not walk it all at once (0.15 s for 100,000 records).
    Never after a single command: whatever cyclic garbage it left would be frozen for the
    life of the process.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_on:
            gc.enable()


def _lines(text: str) -> list[tuple[int, str]]:
    return [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]


def _parse_line(number: int, line: str) -> Recorded:
    record = parse_json(line, f"line {number}")
    if not isinstance(record, dict):
        raise TurnkeeperError(f"line {number}: a journal record is a JSON object")
    try:
        return EVENTS.record(record)
    except TurnkeeperError as error:
        raise TurnkeeperError(f"line {number}: {error}") from None
