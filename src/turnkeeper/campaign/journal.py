"""The journal: the append-only time record, and the state as the fold of its events.

Undo is an event too (``command.undone`` naming the command): the record keeps
everything, and :func:`fold` skips the undone command's events, so the state forgets them.
Redo is one more (``command.redone``): the command the latest undo took back counts again,
its records folded where they stand, so nothing is rolled again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence

from turnkeeper.campaign import snapshots
from turnkeeper.campaign.commands import Command, decide
from turnkeeper.campaign.registry import EVENTS
from turnkeeper.clock.calendar import start_offset
from turnkeeper.clock.durations import MAX_DURATION
from turnkeeper.dice import AskedDice, DiceSource, SeededDice
from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.names import check_name, check_seed
from turnkeeper.kernel.events import (
    UNDO_EVENTS,
    CampaignStarted,
    ClockAdvanced,
    CommandRedone,
    CommandUndone,
    Event,
    Recorded,
    Shown,
    Visibility,
    undone_commands,
)
from turnkeeper.kernel.party import Party, check_party
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.parties import PartyArrived, PartySwitched
from turnkeeper.rules.loader import check_ruleset
from turnkeeper.rules.schema import Ruleset


def start_campaign(name: str, ruleset: Ruleset, party: Party, seed: int) -> list[Event]:
    """The events that start a campaign: the ruleset and party, embedded for replay.

    Everything the first record needs is checked here, before anything is stored: a name
    the store keeps, a calendar the dates can be read from.
    """
    check_name(name, "campaign name")
    check_seed(seed, "seed")  # an imported journal's too: SQLite and numpy keep 64 bits
    start_offset(ruleset.time)  # a calendar_start that is no date is the ruleset's error now
    # an imported journal's ruleset and party as their files would be (a file's were already)
    check_ruleset(ruleset, "the ruleset")
    check_party(party, "the party", ruleset)
    return [CampaignStarted(name=name, seed=seed, ruleset=ruleset, party=party)]


def command_dice(seed: int, version: int) -> SeededDice:
    """The dice for the command that starts at ``version``: the same in every process.

    >>> command_dice(7, 3).die(20) == command_dice(7, 3).die(20)
    True
    """
    digest = hashlib.sha256(f"turnkeeper:{seed}:{version}".encode()).digest()
    return SeededDice(int.from_bytes(digest[:8], "big"))


def _fold_into(
    state: CampaignState | None, records: Sequence[Recorded], undone: frozenset[int]
) -> CampaignState:
    """The one fold loop: ``records`` applied in order onto ``state`` (None: not started).

    Each event's ``apply`` alone says what it changes; the loop only skips undone commands.
    ``version``, ``undoable`` and ``redoable`` are set once at the end, not per event: the
    journal's bookkeeping costs nothing per event, so a fold stays linear in its length.
    The latest command an undo would take back is the command of the last record that was
    neither skipped (undone) nor an undo or redo itself, or the one ``state`` already had.
    What a redo would bring back: the commands undone since the last command done (undone
    later or not), each redo taking the latest off.
    """
    undoable = None if state is None else state.undoable
    redoable = [] if state is None else list(state.redoable)
    for record in records:
        event = record.event
        if state is None:
            if not isinstance(event, CampaignStarted):
                raise TurnkeeperError(
                    f"a journal must begin with campaign.started, not {event.kind}"
                )
            state = event.start()
        elif record.command not in undone:
            state = event.apply(state)
            if isinstance(event, CommandUndone):
                redoable.append(event.command)
            elif isinstance(event, CommandRedone):
                if event.command in redoable:
                    redoable.remove(event.command)
            else:
                undoable = record.command
                redoable.clear()
        else:
            redoable.clear()  # a command done (and undone later) since the undos before it
    if state is None:
        raise TurnkeeperError("an empty journal has no campaign: start one first")
    version = records[-1].seq if records else state.version
    return state.model_copy(
        update={"version": version, "undoable": undoable, "redoable": tuple(redoable)}
    )


def _changed(records: Iterable[Recorded]) -> tuple[frozenset[int], frozenset[int]]:
    """The commands ``records`` leave undone (as :func:`undone_commands`), and the commands
    whose undone or live standing they change: the first undo or redo naming a command says
    how it stood before them, the last how it stands after."""
    first: dict[int, bool] = {}
    last: dict[int, bool] = {}
    for record in records:
        event = record.event
        if isinstance(event, UNDO_EVENTS):
            undoes = isinstance(event, CommandUndone)
            first.setdefault(event.command, undoes)
            last[event.command] = undoes
    undone = frozenset(command for command, undoes in last.items() if undoes)
    return undone, frozenset(command for command in last if first[command] == last[command])


def _as_recorded(records: Iterable[Recorded | Mapping[str, object]]) -> list[Recorded]:
    return [r if isinstance(r, Recorded) else EVENTS.record(r) for r in records]


def fold(records: Iterable[Recorded | Mapping[str, object]]) -> CampaignState:
    """Rebuild the state from the journal without rolling again; honours undo."""
    recorded = _as_recorded(records)
    return _fold_into(None, recorded, undone_commands(recorded))


def fold_from(
    snapshot: CampaignState, tail: Iterable[Recorded | Mapping[str, object]]
) -> CampaignState | None:
    """The state after ``tail`` (the records after ``snapshot.version``), from a snapshot.

    A snapshot is a state folded earlier, kept so a long journal need not be folded from
    its first record. It answers for the whole journal unless the tail undoes a command
    that began at or before the snapshot (the snapshot still holds that command's effect),
    or redoes one undone before it (the snapshot lacks it): then this returns None and the
    caller folds from further back.
    """
    recorded = _as_recorded(tail)
    if recorded and recorded[0].seq != snapshot.version + 1:
        raise TurnkeeperError(
            f"the records after a snapshot at version {snapshot.version} start at "
            f"{snapshot.version + 1}, not {recorded[0].seq}"
        )
    undone, changed = _changed(recorded)
    if any(command <= snapshot.version for command in changed):
        return None
    return _fold_into(snapshot, recorded, undone)


Records = Iterable[Recorded | Mapping[str, object]]


class Journal:
    """A campaign in memory: its records and its live state.

    The store keeps the records; a CLI verb loads them, executes one command and appends
    what :meth:`execute` returns (``[r.to_record() for r in ...]``).

    A journal resumed from a snapshot (:meth:`resume`) holds only the records after it and
    reads the earlier ones the first time :attr:`records` is asked for. Every
    :data:`~turnkeeper.campaign.snapshots.SNAPSHOT_EVERY` records it keeps its state as a
    checkpoint, so an undo refolds from the latest checkpoint it can, not from seq 1; given
    ``older`` (the store's snapshots), from the newest snapshot older than what it takes back.
    """

    def __init__(
        self, records: Records, *, older: Callable[[int], CampaignState | None] | None = None
    ) -> None:
        self._records: list[Recorded] = _as_recorded(records)
        self._loaded = 0  # the seq before the first record held in ``_records``
        self._earlier: Callable[[], Records] | None = None
        self._between: Callable[[int, int], Records] | None = None
        self._older = older
        self.state: CampaignState = fold(self._records)
        self.checkpoints: list[CampaignState] = []

    @classmethod
    def start(cls, name: str, ruleset: Ruleset, party: Party, seed: int) -> Journal:
        """A new campaign's journal."""
        events = start_campaign(name, ruleset, party, seed)
        return cls([Recorded(seq=i + 1, command=1, at=0, event=e) for i, e in enumerate(events)])

    @classmethod
    def resume(
        cls,
        snapshot: CampaignState,
        tail: Records,
        earlier: Callable[[], Records],
        *,
        between: Callable[[int, int], Records] | None = None,
        older: Callable[[int], CampaignState | None] | None = None,
    ) -> Journal | None:
        """A journal rebuilt from a snapshot and the records after it (see :func:`fold_from`).

        ``earlier`` reads the records up to the snapshot when they are needed (the log, an
        export, an undo behind it); ``between(since, until)``, if given, reads only the
        records with ``since < seq <= until``, and ``older(version)`` the newest snapshot
        below ``version``: an undo then reads back only to the snapshot it folds from.
        None when the tail undoes a command the snapshot holds and no older snapshot helps.
        """
        recorded = _as_recorded(tail)
        journal = cls.__new__(cls)
        journal._records = recorded
        journal._loaded = snapshot.version
        journal._earlier = earlier
        journal._between = between
        journal._older = older
        journal.checkpoints = [snapshot]
        state = fold_from(snapshot, recorded)
        if state is None:
            state = journal._from_older(snapshot.version, [])
            if state is None:
                return None
        journal.state = state
        return journal

    @property
    def records(self) -> list[Recorded]:
        """Every record, in seq order (read in full the first time, if resumed)."""
        if self._earlier is not None:
            if self._between is not None:
                self._read_back(0)
            else:
                earlier = _as_recorded(self._earlier())
                self._records[:0] = earlier[: self._loaded]
                self._loaded = 0
            self._earlier = None
        return self._records

    def _read_back(self, version: int) -> None:
        """Hold the records after ``version`` too, reading only the ones not held yet."""
        if version >= self._loaded:
            return
        if self._between is None:
            self.records  # noqa: B018  # reads every earlier record
            return
        self._records[:0] = _as_recorded(self._between(version, self._loaded))
        self._loaded = version
        if version == 0:
            self._earlier = None

    @property
    def version(self) -> int:
        """How many records the journal holds (the store's expected version)."""
        return self.state.version

    def _after(self, version: int) -> list[Recorded]:
        """The records with seq above ``version`` (without reading earlier ones if resumed)."""
        self._read_back(version)
        return self._records[version - self._loaded :]

    def _refold(self, extra: Sequence[Recorded]) -> CampaignState:
        """The state after the journal and ``extra``: from the latest checkpoint that holds,
        else the newest of the store's snapshots that holds, else from the first record."""
        for checkpoint in reversed(self.checkpoints):
            state = fold_from(checkpoint, [*self._after(checkpoint.version), *extra])
            if state is not None:
                return state
        below = self.checkpoints[0].version if self.checkpoints else self.version + 1
        state = self._from_older(below, extra)
        return state if state is not None else fold([*self.records, *extra])

    def _from_older(self, below: int, extra: Sequence[Recorded]) -> CampaignState | None:
        """The state after the journal and ``extra`` from the newest of the store's snapshots
        below version ``below`` that holds no command undone after it; None if none does.

        An undo takes back the latest command, so the snapshot it needs is seldom more than
        one cadence mark back: the records read are the ones since that snapshot, not all.
        """
        while self._older is not None:
            snapshot = self._older(below)
            if snapshot is None:
                return None
            state = fold_from(snapshot, [*self._after(snapshot.version), *extra])
            if state is not None:
                return state
            below = snapshot.version
        return None

    def preview(self, command: Command, dice: DiceSource | None = None) -> list[Recorded]:
        """The records ``command`` would append, without appending them."""
        return self.outcome(command, dice)[0]

    def outcome(
        self, command: Command, dice: DiceSource | None = None
    ) -> tuple[list[Recorded], CampaignState]:
        """The records ``command`` would append and the state after them, appending nothing
        (a writer stores the state's snapshot with the records, then :meth:`append`)."""
        state = self.state
        dice = dice if dice is not None else command_dice(state.seed, state.version)
        events = decide(state, command, dice)
        number = state.version + 1
        records: list[Recorded] = []
        for offset, event in enumerate(events):
            record = Recorded(number + offset, number, state.now, event)
            if isinstance(event, UNDO_EVENTS):  # forgets or recalls: a refold knows the time
                state = self._refold([*records, record])
            else:
                state = _fold_into(state, [record], frozenset())
            records.append(
                Recorded(number + offset, number, state.now, event, party=state.record_party)
            )
        return records, state

    def dice_asked(self, command: Command, faces: Sequence[int] = ()) -> tuple[int, ...]:
        """The sides of the dice ``command`` rolls, in order: ``faces`` are the first of them,
        each die after those the lowest it shows (a face that calls for more dice, a wandering
        check's 1, calls for them here). Nothing is appended."""
        asked = AskedDice(faces)
        self.outcome(command, asked)
        return asked.asked

    def execute(self, command: Command, dice: DiceSource | None = None) -> list[Recorded]:
        """Decide ``command`` (dice: :func:`command_dice` by default) and append its records."""
        records = self.preview(command, dice)
        self.append(records)
        return records

    def append(self, records: Iterable[Recorded], state: CampaignState | None = None) -> None:
        """Append records (from :meth:`preview`, or read back from a store); ``state``, the
        state after them from :meth:`outcome`, saves folding them again."""
        new = list(records)
        before = self.version
        if state is not None:
            self.state = state
        elif any(isinstance(r.event, UNDO_EVENTS) for r in new):
            self.state = self._refold(new)
        else:
            self.state = _fold_into(self.state, new, frozenset())
        self._records.extend(new)
        if snapshots.due(before, self.version):
            self.checkpoints.append(self.state)


# --- a journal from elsewhere -----------------------------------------------------------------

_PARTY, _REFEREE = Visibility.PARTY, Visibility.REFEREE
_ALWAYS_PARTY = Shown.PARTY
"""Read once: an enum's member is a descriptor, looked up anew at every ``Visibility.X``."""


def replay(records: Sequence[Recorded]) -> Journal:
    """The journal ``records`` make, each record checked against what the engine writes.

    A journal from elsewhere (an import) is folded one record at a time, as the engine
    appended it, and refused (TurnkeeperError naming the record) where it could not have
    been written by turnkeeper: a command number that is not its first record's seq, time
    running backwards within a party (a switch may turn to a party behind; a new party
    enters at the world's present), a record whose ``at`` is not the time its fold reaches,
    or a referee-only event (an encounter check, a referee's countdown) shown to the party.
    """
    if not records:
        raise TurnkeeperError("an empty journal has no campaign: start one first")
    journal = Journal(records[:1])
    previous = records[0]
    # ``state`` runs ahead of ``journal.state``: each record's event is applied to it as
    # Journal.append would fold it, but its version, undoable and redoable commands are set
    # only where they are read (a cadence mark's checkpoint, an undo's refold, the end), not
    # with a copy of the whole state per record (no event's apply reads them).
    state, undoable, redoable = journal.state, journal.state.undoable, journal.state.redoable
    opened = redoable  # what a redo could take back before the record before
    for record in records[1:]:
        event, before, command = record.event, state, record.command
        if command not in (record.seq, previous.command) or command > record.seq:
            raise TurnkeeperError(
                f"{_named(record)}: belongs to command {command}, but a command is "
                "numbered by its first record"
            )
        # who sees it as its class declares (most records: the party's, marked so)
        if event.shown is not _ALWAYS_PARTY or event.visibility is not _PARTY:
            seen = event.seen_by(before)
            if seen is not None and seen is not event.visibility:
                marked = "the referee's alone" if seen is _REFEREE else "the players'"
                raise TurnkeeperError(
                    f"{_named(record)} is {marked} but is marked for the "
                    f"{'referee' if event.visibility is _REFEREE else 'party'}: the journal "
                    "was changed by hand; export it again from turnkeeper"
                )
        if event.rolls:  # every die as a command's result has it (most records roll none)
            for roll in event.rolls:
                wrong = roll.disagreement()
                if wrong is not None:
                    raise TurnkeeperError(
                        f"{_named(record)}: its roll {roll.expression} does not agree with its "
                        f"dice ({wrong}): the journal was changed by hand; export it again "
                        "from turnkeeper"
                    )
        if isinstance(event, ClockAdvanced):  # the most common event: asked first, once
            if event.seconds > MAX_DURATION:
                # no wait passes more, and so bounded, a 256 MiB journal's clock stays in 64 bits
                raise TurnkeeperError(
                    f"{_named(record)}: passes {event.seconds:,} s at once, but a wait passes "
                    f"at most 100 years ({MAX_DURATION:,} s): the journal was changed by hand; "
                    "export it again from turnkeeper"
                )
            if event.to < before.now or event.seconds != event.to - before.now:
                raise TurnkeeperError(
                    f"{_named(record)}: time runs backwards or skips (from {before.now} s to "
                    f"{event.to} s in {event.seconds} s): time only runs forward"
                )
        elif isinstance(event, CampaignStarted):
            raise TurnkeeperError(
                f"{_named(record)}: a journal starts its campaign once, at record 1"
            )
        elif isinstance(event, PartyArrived) and event.at != before.present:
            # a party's present starts where it enters the world: a switch to it may go back
            # in time, so its arrival must be the world's present the engine wrote
            raise TurnkeeperError(
                f"{_named(record)}: {event.name} enters the world at {event.at} s, but a new "
                f"party enters at the world's present ({before.present} s): the journal was "
                "changed by hand; export it again from turnkeeper"
            )
        elif isinstance(event, CommandRedone):
            # a redo sent as a party follows its command's switch, which the fold counts as a
            # command done; it was decided before it, as its command found the journal
            sent_as = command != record.seq and isinstance(previous.event, PartySwitched)
            found = opened if sent_as else redoable
            if event.command not in found[-1:]:
                raise TurnkeeperError(
                    f"{_named(record)}: redoes command {event.command}, but "
                    + (
                        f"the latest undo took back command {found[-1]}"
                        if found
                        else "no undo since the last command took it back"
                    )
                    + ": the journal was changed by hand; export it again from turnkeeper"
                )
        try:
            if isinstance(event, UNDO_EVENTS):  # a refold, from the journal as it stands
                journal.state = _settled(state, previous.seq, undoable, redoable)
                journal.append([record])
                state, undoable = journal.state, journal.state.undoable
                redoable = journal.state.redoable
            else:
                state, undoable, redoable, opened = event.apply(state), command, (), redoable
                journal._records.append(record)
                if snapshots.due(previous.seq, record.seq):
                    state = journal.state = _settled(state, record.seq, undoable, redoable)
                    journal.checkpoints.append(state)
        except TurnkeeperError as error:
            raise TurnkeeperError(f"{_named(record)}: {error}") from None
        except (
            ArithmeticError,
            AssertionError,
            AttributeError,
            LookupError,
            TypeError,
            ValueError,
        ) as error:
            # The fold trusts what the engine wrote (a scene's event follows its opening);
            # a record that breaks that trust could only come from a journal changed by hand.
            raise TurnkeeperError(
                f"{_named(record)} cannot follow the records before it ({error}): the journal was "
                "changed by hand; export it again from turnkeeper"
            ) from None
        now = state.now
        if (
            now < before.now
            and not isinstance(event, CommandUndone)
            # a party's time only runs forward, but a switch (or a redo of one) turns the
            # record to another party's present, which may be earlier: that party's own time
            # has not run back (its present is the one it left off at, kept while away)
            and state.company == before.company
        ):
            raise TurnkeeperError(
                f"{_named(record)}: time runs backwards (from {before.now} s to {now} s): "
                "time only runs forward"
            )
        if record.at != now:
            raise TurnkeeperError(
                f"{_named(record)}: says it happened at {record.at} s, but the journal before it "
                f"reaches {now} s"
            )
        if record.party is not None and record.party != state.record_party:
            # (a world's record written before records named their party names none)
            raise TurnkeeperError(
                f"{_named(record)}: says it is {record.party}'s, but the journal before it "
                + (
                    f"runs {state.record_party}"
                    if state.record_party
                    else "is a world of one party, whose records name none"
                )
                + ": the journal was changed by hand; export it again from turnkeeper"
            )
        previous = record
    journal.state = _settled(state, previous.seq, undoable, redoable)
    return journal


def _named(record: Recorded) -> str:
    """A record as an error names it: "record 7 (clock.advanced)"."""
    return f"record {record.seq} ({record.event.kind})"


def _settled(
    state: CampaignState, version: int, undoable: int | None, redoable: tuple[int, ...]
) -> CampaignState:
    """``state`` with the journal's bookkeeping set, as :func:`_fold_into` leaves it."""
    if state.version == version and state.undoable == undoable and state.redoable == redoable:
        return state
    return state.model_copy(update={"version": version, "undoable": undoable, "redoable": redoable})
