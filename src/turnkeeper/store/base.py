"""The event store port: where a campaign's journal lives between commands.

The store keeps each campaign's records (the JSON form of ``Recorded``) in ``seq`` order and a
version per campaign (the number of records appended so far). Appends are optimistic: a writer
says which version it folded from, and a stale writer is refused with
:class:`~turnkeeper.errors.ConflictError`, so two referees never silently overwrite each other.

The store treats a record as opaque JSON; it only reads ``seq`` to check that seqs stay dense.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from turnkeeper.errors import ConflictError, NotFoundError, TurnkeeperError

Record = dict[str, object]
"""One journal record as JSON: ``{"seq", "command", "at", "kind", "visibility", "data", ...}``."""

SNAPSHOTS_KEPT = 8
"""How many snapshots a store keeps per campaign, newest first: the cadence's marks and the
states after undos, enough for an undo (or a run of them) reaching several thousand records
back to fold from a snapshot; an undo reaching further folds the whole journal."""

POLL_SECONDS = 0.25
"""How often a store that cannot signal changes (SQLite) is read again for other processes'
writes, by a waiter on it (:meth:`WatchStore.wait_for_change`) and by the live pages' watcher:
well inside a second, and cheap."""

_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""``json.dumps(value, ensure_ascii=False, separators=(",", ":"))`` made once, not per call
(``dumps`` with options builds an encoder each time)."""


def dumps(value: object) -> str:
    """A record (or any JSON value) as compact JSON, as a store writes it: one line (every
    newline escaped), characters beyond ASCII as they are."""
    return _ENCODER.encode(value)


CURRENT = "current_campaign"
"""The settings key naming the campaign that bare CLI verbs act on (``turnkeeper use``)."""


@dataclass(frozen=True)
class Caches:
    """What a writer keeps beside the records it appends, in the same transaction: caches
    that only save a later reader work (see :class:`SnapshotStore` and :class:`GlanceStore`).

    ``snapshot`` is ``(format tag, state JSON)`` of the state at the new version; ``glance``
    is ``(format tag, document)``. A store that keeps no such cache ignores it.
    """

    snapshot: tuple[str, str] | None = None
    glance: tuple[str, str] | None = None


@runtime_checkable
class EventStore(Protocol):
    """Append-only journals, one per campaign, with optimistic concurrency."""

    def create(
        self,
        campaign: str,
        records: Sequence[Mapping[str, object]] = (),
        *,
        caches: Caches | None = None,
        lines: Sequence[str] | None = None,
        written: Sequence[Written] = (),
    ) -> None:
        """Start a journal holding ``records`` (numbered 1, 2, ...), in one transaction: the
        campaign appears with its first records (and ``caches``) or not at all. ConflictError
        if it exists. ``lines``: each record's line as people read it, kept beside it.
        ``written``: instead of ``records`` and ``lines``, records written already (an
        import's own lines, checked to be as the store writes them), stored as they are."""
        ...

    def append(
        self,
        campaign: str,
        expected_version: int,
        records: Sequence[Mapping[str, object]],
        *,
        caches: Caches | None = None,
        lines: Sequence[str] | None = None,
    ) -> int:
        """Append ``records`` atomically after ``expected_version``; return the new version.
        ``lines``: each record's line as people read it (its event's description), kept
        beside the record so that a log streams without reading an event back.

        Records get seqs ``expected_version + 1 ...``; a record that carries a different
        ``seq`` is a programming error (ValueError). A stale ``expected_version`` raises
        ConflictError and writes nothing. ``caches`` (a snapshot, a glance of the new version)
        are written in the same transaction, so only a writer ever writes them.
        """
        ...

    def read(self, campaign: str, since: int = 0, limit: int | None = None) -> list[Record]:
        """The records with ``seq > since``, in seq order, at most ``limit`` of them (read by
        the index on seq, never the records before); NotFoundError for no such campaign."""
        ...

    def read_kind(self, campaign: str, kind: str) -> list[Record]:
        """The records of one ``kind``, in seq order, found by an index: for the few records
        a page must know about wherever they lie (the undos, which hide what they undid)."""
        ...

    def version(self, campaign: str) -> int:
        """How many records the campaign's journal holds."""
        ...

    def campaigns(self) -> list[str]:
        """Every campaign's name, sorted."""
        ...

    def delete(self, campaign: str) -> None:
        """Remove a campaign and its journal; NotFoundError if there is none."""
        ...

    def current(self) -> str | None:
        """The campaign a bare CLI verb acts on (set by ``turnkeeper use``), if any."""
        ...

    def set_current(self, campaign: str | None) -> None:
        """Point the CLI at ``campaign`` (None clears the pointer)."""
        ...

    def close(self) -> None:
        """Release connections."""
        ...


@runtime_checkable
class SnapshotStore(Protocol):
    """A store that can also keep snapshots of folded states (a cache beside the journals).

    A snapshot is the JSON of the state folded up to ``version``, tagged with its format
    (:func:`turnkeeper.campaign.snapshots.state_format`); the service reads the newest one in
    its own format and folds only the records after it. Dropping snapshots changes no state.

    Snapshots are written by writers only, with their appends (:class:`Caches`); the store
    keeps the newest :data:`SNAPSHOTS_KEPT` of each campaign, so an undo can fold from one
    older than the command it takes back instead of from the first record.
    """

    def save_snapshot(self, campaign: str, version: int, tag: str, state: str) -> None:
        """Keep the state folded up to ``version`` (outside an append: tools and tests)."""
        ...

    def load_snapshot(
        self, campaign: str, tag: str, before: int | None = None
    ) -> tuple[int, str] | None:
        """The newest snapshot tagged ``tag`` (with ``before``: of a version below it) as
        ``(version, state JSON)``, or None."""
        ...

    def drop_snapshots(self, campaign: str | None = None) -> None:
        """Forget the snapshots of ``campaign`` (None: of every campaign)."""
        ...


@dataclass(frozen=True)
class Span:
    """Which records by game time: from ``start`` to before ``end`` in seq order; with
    ``newest``, only that many, latest game time first (then latest seq), read back from
    ``before`` (a game time and a seq) if given, for a reader walking back a page at a time."""

    start: int | None = None
    end: int | None = None
    newest: int | None = None
    before: tuple[int, int] | None = None


@runtime_checkable
class TimedStore(Protocol):
    """A store that finds records by game time (an index on it), not only by seq."""

    def read_timed(self, campaign: str, kinds: Collection[str], span: Span) -> list[Record]:
        """The records of ``kinds`` in ``span`` of game time."""
        ...


@runtime_checkable
class GlanceStore(Protocol):
    """A store that also keeps each campaign's glance: the status document at its latest
    version (see :mod:`turnkeeper.store.glance`), a cache the service rewrites after every
    command so ``turnkeeper status`` can print it without folding the journal."""

    def keeps_glances(self) -> bool:
        """Whether a glance given with an append is kept (and read): only a SQLite file's
        are, so a writer to another store need not build one."""
        ...


@runtime_checkable
class JsonStore(Protocol):
    """A store that can hand back a journal as the text of one JSON array (the fast path).

    The service reads whole journals this way and validates the text in one go
    (:func:`turnkeeper.kernel.events.records_from_json`) instead of a record at a time.
    """

    def read_json(
        self, campaign: str, since: int = 0, limit: int | None = None, *, lines: bool = False
    ) -> str:
        """The records after ``since`` (at most ``limit``) as one JSON array, in seq order;
        ``lines=True``: as JSON Lines instead, each record's text as stored, one a line (no
        newline after the last; empty for none), which an export writes without parsing."""
        ...

    def read_lines(
        self, campaign: str, since: int, until: int, page: int
    ) -> Iterator[list[StoredLine]]:
        """The records after ``since`` up to ``until``, in seq order, ``page`` at a time, each
        as stored with its line (None for a record stored before lines were kept)."""
        ...


Written = tuple[int, int, int, str, str, str, str]
"""A record written already, as a store keeps it: its seq, command, game time, kind and
visibility (:meth:`~turnkeeper.kernel.events.Recorded.columns`, what it is found by), its JSON
text as the store writes it, and its line. A plain tuple: an import hands over one a record."""

StoredLine = tuple[int | None, int, str, str | None]
"""A record as the store keeps it: its command and game time, its text (which holds its seq),
and the line kept beside it. A plain tuple: a log of 200,000 records makes 200,000 of them."""


@runtime_checkable
class TokenStore(Protocol):
    """A store that also keeps each campaign's access tokens for the web server, as hashes.

    A campaign has one token per role (``referee``, ``player``); the store keeps only the
    SHA-256 digest, so a leaked database does not hand out working links.
    """

    def set_token_hash(self, campaign: str, role: str, digest: str) -> None:
        """Keep ``digest`` as the campaign's token hash for ``role``, replacing any older one."""
        ...

    def token_hashes(self, campaign: str) -> dict[str, str]:
        """The campaign's token hashes by role (empty when none were made)."""
        ...


@runtime_checkable
class WatchStore(Protocol):
    """A store that can tell when journals change, for screens that follow the table live.

    Every writer moves a campaign's version, whichever process it runs in (the CLI, another
    server on the same PostgreSQL), so watching the versions is watching every command.
    """

    def versions(self) -> dict[str, int]:
        """Every campaign's version now, by name."""
        ...

    def signals(self) -> bool:
        """Whether a writer's commit wakes :meth:`wait_for_change` (PostgreSQL's NOTIFY);
        False where the wait only reads the versions again and again (SQLite), which a
        watcher may then do at its own pace."""
        ...

    def wait_for_change(self, seen: Mapping[str, int], timeout: float) -> dict[str, int]:
        """Every campaign's version once it differs from ``seen``, or after ``timeout`` seconds.

        One waiter at a time per store: a server runs one watcher and fans its news out.
        """
        ...


class StoreUnavailable(TurnkeeperError):
    """The store cannot be written now (a full disk, a read-only file): nothing was written."""


def stale(campaign: str, actual: int, expected: int) -> ConflictError:
    """The error a writer gets when someone else appended first.

    >>> str(stale("keep", 7, 5))
    'campaign keep is at version 7, you expected 5: reload and retry'
    """
    return ConflictError(
        f"campaign {campaign} is at version {actual}, you expected {expected}: reload and retry"
    )


def missing(campaign: str) -> NotFoundError:
    """The error for a campaign name that is not in the store.

    >>> str(missing("keep"))
    "no campaign named 'keep': see `turnkeeper campaigns`, or start one with `turnkeeper new`"
    """
    error = NotFoundError(
        f"no campaign named {campaign!r}: see `turnkeeper campaigns`, "
        "or start one with `turnkeeper new`"
    )
    error.campaign = campaign  # type: ignore[attr-defined]  # for the near name's hint
    return error


def numbered(
    expected_version: int, records: Sequence[Mapping[str, object]]
) -> list[Mapping[str, object]]:
    """``records`` with dense seqs after ``expected_version``: each as it is where it carries
    its seq already (as every record written from a journal does), else a copy that does.

    >>> numbered(2, [{"kind": "a"}, {"seq": 4, "kind": "b"}])
    [{'seq': 3, 'kind': 'a'}, {'seq': 4, 'kind': 'b'}]
    """
    out: list[Mapping[str, object]] = []
    for offset, record in enumerate(records, start=1):
        seq = expected_version + offset
        given = record.get("seq", seq)
        if given != seq:
            raise ValueError(
                f"record {offset} carries seq {given}, but appends after "
                f"version {expected_version} must be numbered {seq}"
            )
        out.append(record if "seq" in record else {"seq": seq, **record})
    return out
