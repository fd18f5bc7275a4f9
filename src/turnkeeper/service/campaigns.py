"""The service itself: :class:`Campaigns`, a :class:`~turnkeeper.service.reader.CampaignReader`
that also starts campaigns, runs commands against them and appends their records with the
caches a writer keeps, brings journals in, and deletes and chooses campaigns."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Sequence

from turnkeeper.campaign import (
    AsParty,
    CampaignState,
    Character,
    Command,
    Journal,
    Party,
    Recorded,
    Redo,
    Undo,
    command_dice,
    snapshots,
    start_campaign,
)
from turnkeeper.campaign.glance import glance_of
from turnkeeper.campaign.journal import replay
from turnkeeper.campaign.time_record import (
    run_at,
)
from turnkeeper.dice import DiceSource, TypedDice, too_few
from turnkeeper.errors import (
    ConflictError,
    DiceInputError,
    TooFewDiceError,
)
from turnkeeper.kernel.events import (
    UNDO_EVENTS,
    CampaignStarted,
)
from turnkeeper.procedures.parties import PartySwitched
from turnkeeper.rules.schema import Ruleset
from turnkeeper.service.collector import gc_paused
from turnkeeper.service.moving import imported, lines_said
from turnkeeper.service.reader import CampaignReader
from turnkeeper.store import Caches, GlanceStore, SnapshotStore
from turnkeeper.store.base import SNAPSHOTS_KEPT, StoreUnavailable, dumps, missing, stale
from turnkeeper.store.glance import GLANCE_FORMAT

STAND_IN = Party(characters=(Character(name="Adventurer", hp=6),))
"""The party of a campaign started without a party file: one stand-in character."""


#: How many times a command asked of the campaign as it is (no expected version) is run again
#: when another writer appended first: two server processes on one table rarely race more
#: than once in a row.
RERUNS = 3


class Campaigns(CampaignReader):
    """Campaigns kept in one event store: start them, run commands, read and move journals.

    Journals already read are kept in memory and caught up with ``read(since=...)``, so a
    long-running process (a server, the benchmark) does not re-read a campaign per command.

    Reads never write: snapshots and glances are written by :meth:`execute` (and ``new``,
    ``import``) in the transaction that appends the records, so ``log``, ``export`` and
    ``status`` leave the store as they found it.
    """

    def _caches(
        self, name: str, before: int, state: CampaignState, records: Sequence[Recorded]
    ) -> Caches:
        """What a writer keeps with the records that bring ``name`` from version ``before`` to
        ``state``, in the same transaction (caches: reads never write them).

        A snapshot where one is used: in a journal long enough to be resumed from one, at
        each cadence mark, after an undo or a redo (the state after it, so no later read
        refolds from behind the command it took back or brought back), and after a whole fold
        for want of one. A glance
        only where it is read (a SQLite file), and not for a state that holds a wilderness
        map, which would be written whole with every command.
        """
        snapshot = None
        if (
            isinstance(self.store, SnapshotStore)
            and state.version >= snapshots.SNAPSHOT_EVERY
            and (
                snapshots.due(before, state.version)
                or name in self._unkept
                # asked last: an import's records are the whole journal
                or any(isinstance(r.event, UNDO_EVENTS) for r in records)
            )
        ):
            text = snapshots.dump_state(state)
            if text is not None:
                snapshot = (snapshots.state_format(), text)
        glance = None
        store = self.store
        if isinstance(store, GlanceStore) and store.keeps_glances() and state.wilderness is None:
            document = dumps(glance_of(state))
            glance = (GLANCE_FORMAT, document)
        return Caches(snapshot=snapshot, glance=glance)

    def _unclaimed(self, name: str) -> None:
        """Refuse a new campaign named as another but for case (issue 25: "keep" and "Keep"
        were two campaigns); the very same name is the store's own refusal. Lookups stay
        exact: a name refused in another case is offered the stored one (did you mean)."""
        folded = name.casefold()
        for other in self.names():
            if other != name and other.casefold() == folded:
                raise ConflictError(
                    f"a campaign named {other!r} already exists, and names are the same "
                    f"whatever their case: choose another name, or go on with {other!r}"
                )

    # -- writing ---------------------------------------------------------------------------

    def new(
        self, name: str, ruleset: Ruleset, party: Party | None = None, seed: int | None = None
    ) -> CampaignState:
        """Start a campaign (the ruleset and party are embedded, so replay needs no files).

        Without a seed the service draws one; it is in the journal, so replay is exact.
        """
        self._unclaimed(name)
        seed = secrets.randbits(32) if seed is None else seed
        journal = Journal.start(name, ruleset, party or STAND_IN, seed)
        # one transaction: a process killed meanwhile leaves no campaign at all
        caches = self._caches(name, 0, journal.state, journal.records)
        self.store.create(
            name,
            [r.to_record() for r in journal.records],
            caches=caches,
            lines=lines_said(journal.records),
        )
        self._journals[name] = journal
        return journal.state

    def execute(
        self, name: str, command: Command, typed_dice: Sequence[int] | None = None
    ) -> list[Recorded]:
        """Run ``command`` and append its records; ConflictError (nothing appended) if stale.

        ``typed_dice``: faces of physical dice, used in order instead of the seeded dice; a
        face left over is a DiceInputError, so a mistyped roll never half-applies.
        """
        return self.run(name, lambda _: command, typed_dice)[0]

    def run(
        self,
        name: str,
        build: Callable[[CampaignState], Command],
        typed_dice: Sequence[int] | None = None,
        expected_version: int | None = None,
    ) -> tuple[list[Recorded], CampaignState]:
        """Run the command ``build`` makes of the state now (a form's body needs it) and append
        its records, as :meth:`execute` does; its records and the state after them.

        ``expected_version``: ConflictError, nothing run, unless the campaign is at that
        version (the version a page or a client last saw). The store's version is read once,
        here, for the check, the command and the state after it. Without it the command was
        asked of the campaign as it is: when another writer (another server process) appends
        first, it is run again on the campaign as it is then, up to :data:`RERUNS` times,
        rather than handed back to the asker to send again.
        """
        reruns = RERUNS if expected_version is None else 0
        while True:
            try:
                return self._run(name, build, typed_dice, expected_version)
            except ConflictError:
                if not reruns:
                    raise
                reruns -= 1

    def _run(
        self,
        name: str,
        build: Callable[[CampaignState], Command],
        typed_dice: Sequence[int] | None,
        expected_version: int | None,
    ) -> tuple[list[Recorded], CampaignState]:
        journal = self.journal(name)
        version = journal.version
        if expected_version is not None and expected_version != version:
            raise stale(name, version, expected_version)
        command = build(journal.state)
        # an undo or a redo says what it takes back, sent --as a party too
        inner = command.command if isinstance(command, AsParty) else command
        if isinstance(inner, Undo) and not inner.what and journal.state.undoable:
            inner = Undo(*self._recalled(name, journal.state.undoable))
        if isinstance(inner, Redo) and not inner.what and journal.state.redoable:
            inner = Redo(*self._recalled(name, journal.state.redoable[-1]))
        command = AsParty(command.party, inner) if isinstance(command, AsParty) else inner
        dice: DiceSource
        typed = TypedDice(typed_dice) if typed_dice is not None else None
        dice = typed if typed is not None else command_dice(journal.state.seed, version)
        # A long wait makes 100,000 records that all stay: the collector walking them again
        # and again would hold every other thread of a server for a quarter second at a time.
        with gc_paused():
            try:
                records, after = journal.outcome(command, dice)
            except TooFewDiceError:
                if typed_dice is None:
                    raise
                # every die it rolls in one error, not another die per try
                asked = journal.dice_asked(command, typed_dice)
                raise TooFewDiceError(too_few(asked, len(typed_dice))) from None
            if typed is not None and typed.remaining:
                raise DiceInputError(
                    f"{typed.remaining} typed-in dice left over: this command rolled fewer dice"
                )
            caches = self._caches(name, version, after, records)
            try:
                rows = [r.to_record() for r in records]
                self.store.append(name, version, rows, caches=caches, lines=lines_said(records))
            except BaseException:
                # Our copy may be behind; the next call reads the journal afresh.
                self._journals.pop(name, None)
                raise
            journal.append(records, after)
        if caches.snapshot is not None:
            self._unkept.discard(name)
        return records, journal.state

    def dice_asked(self, name: str, command: Command, faces: Sequence[int] = ()) -> tuple[int, ...]:
        """The sides of the dice ``command`` would roll now, in order: ``faces`` typed in so
        far are the first of them, each die after those counted showing its lowest face; what
        to type in before it is run. Nothing is appended."""
        return self.journal(name).dice_asked(command, faces)

    def _recalled(self, name: str, command: int) -> tuple[str, str]:
        """A command in the referee's words, from its first records (a command's first record
        has its number for seq): "turn 6: cautious, 120 ft; an encounter: 3 drowned monks";
        and the party it was run as (the party its first record turned to, or the one run)."""
        records, _ = self.page(name, after=command - 1, limit=12)
        mine = [r for r in records if r.command == command]
        # what it did, not the turns of the time record to its party and back
        lines = [r.event.describe() for r in mine if not isinstance(r.event, PartySwitched)]
        told = "; ".join(line for line in lines[:3] if line)
        first = mine[0].event if mine else None
        if isinstance(first, PartySwitched):
            by = first.to
        else:
            by = run_at(self.runs(name, until=command), command, name)
        return (told if len(told) <= 160 else told[:157] + "..."), by

    def delete(self, name: str) -> None:
        """Remove a campaign and its journal."""
        self._journals.pop(name, None)
        self.store.delete(name)

    # -- moving journals in ----------------------------------------------------------------

    def import_jsonl(self, text: str, name: str | None = None) -> CampaignState:
        """Make a campaign from an exported journal; ``name`` renames it.

        Every record is checked and the journal replayed record by record (time only runs
        forward, the referee's events stay the referee's: :func:`~turnkeeper.campaign.journal.
        replay`) before anything is written; then it is stored in one transaction.
        """
        records, texts = imported(text, name)
        start = records[0].event
        assert isinstance(start, CampaignStarted)
        start_campaign(start.name, start.ruleset, start.party, start.seed)  # name, calendar
        journal = replay(records)
        target = journal.state.name
        self._unclaimed(target)
        # the journal's state kept as it is stored, so its first read need not fold it all
        caches = self._caches(target, 0, journal.state, journal.records)
        lines = lines_said(journal.records)
        if texts is None:
            rows = [r.to_record() for r in journal.records]
            self.store.create(target, rows, caches=caches, lines=lines)
        else:
            texts[0] = dumps(records[0].to_record())  # renamed, perhaps
            written = [
                (*r.columns(), text, line)
                for r, text, line in zip(journal.records, texts, lines, strict=True)
            ]
            self.store.create(target, caches=caches, written=written)
        self._journals[target] = journal
        if isinstance(self.store, SnapshotStore):
            # and the cadence marks before it, as a writer would have left them, for an undo
            tag = snapshots.state_format()
            for checkpoint in journal.checkpoints[-(SNAPSHOTS_KEPT - 1) :]:
                kept = snapshots.dump_state(checkpoint)
                if kept is not None and checkpoint.version < journal.version:
                    with contextlib.suppress(StoreUnavailable):
                        self.store.save_snapshot(target, checkpoint.version, tag, kept)
        return journal.state

    # -- the current campaign --------------------------------------------------------------

    def use(self, name: str) -> None:
        """Make ``name`` the campaign that verbs without ``--campaign`` act on."""
        if name not in self.store.campaigns():
            raise missing(name)
        self.store.set_current(name)
