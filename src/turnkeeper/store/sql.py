"""The event store over SQLAlchemy 2: one SQLite file by default, PostgreSQL for a shared server.

Its tables are in :mod:`~turnkeeper.store.schema`, the engine in :mod:`~turnkeeper.store.engine`,
a writer's transaction in :mod:`~turnkeeper.store.writes`: this is the store, its reads, its waits.

An append is one transaction that moves ``campaigns.version`` from the expected version to
the new one (compare-and-set: ``UPDATE ... WHERE version = :expected``), then inserts the
records (on PostgreSQL one statement does both, where no snapshot is kept). A stale writer
updates no row and gets ConflictError; if two writers ever slipped past the compare-and-set,
the primary key on ``(campaign, seq)`` would refuse the second. Either way the transaction
rolls back whole, so nothing partial is ever visible.

Screens that follow the table live wait for versions to move
(:meth:`SqlStore.wait_for_change`). On PostgreSQL every append sends ``NOTIFY
turnkeeper_changes`` in its own transaction, so the news leaves with the commit and never
before it, and a waiter listens (``LISTEN``) on a connection of its own; SQLite has no such
signal, so a waiter reads the versions every quarter second (one small query, which costs
next to nothing beside drawing a page).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from datetime import UTC, datetime
from typing import Any

from pydantic_core import from_json
from sqlalchemy import (
    Connection,
    Text,
    cast,
    delete,
    func,
    insert,
    inspect,
    literal,
    select,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, IntegrityError, OperationalError

from turnkeeper.errors import ConflictError, TurnkeeperError
from turnkeeper.store.base import (
    CURRENT,
    POLL_SECONDS,
    Caches,
    Record,
    Span,
    StoredLine,
    StoreUnavailable,
    Written,
    missing,
    numbered,
    stale,
)
from turnkeeper.store.engine import SYNC_MODES, make_engine, reading
from turnkeeper.store.lookups import VersionRead
from turnkeeper.store.schema import (
    campaigns_table,
    events_table,
    kinds_index,
    metadata,
    settings_table,
    snapshots_table,
    times_index,
    tokens_table,
)
from turnkeeper.store.timed import timed_texts
from turnkeeper.store.writes import (
    CHANGES,
    MOVE_VERSION,
    append_at_once,
    insert_events,
    insert_written,
    keep_glance,
    keep_snapshot,
    notify,
    version_found,
)


class SqlStore:
    """An :class:`~turnkeeper.store.base.EventStore` on any SQLAlchemy database we support.

    ``schema`` puts the tables in a PostgreSQL schema (tests use one per run).
    """

    def __init__(self, url: str, *, schema: str | None = None) -> None:
        self.url = url
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise StoreUnavailable(
                f"cannot read the store address {url!r}: give a file path, or a URL such as "
                "sqlite:///path/turnkeeper.db or postgresql+psycopg://user@host/db"
            ) from None
        synchronous = "normal"
        self._file: str | None = None  # the SQLite file, if the store is one
        if parsed.get_backend_name() == "sqlite":
            synchronous = str(parsed.query.get("synchronous", "normal")).lower()
            if synchronous not in SYNC_MODES:
                raise TurnkeeperError(
                    f"synchronous={synchronous!r} in {url}: choose normal or full"
                )
            parsed = parsed.difference_update_query(["synchronous"])
            if parsed.database and parsed.database != ":memory:" and "uri" not in parsed.query:
                self._file = parsed.database
        self._listener: Any = None  # the LISTEN connection on PostgreSQL, made by the first wait
        self._listener_lock = threading.Lock()
        # SQLite's writers of this process take turns here (see _writing); PostgreSQL's don't
        sqlite = parsed.get_backend_name() == "sqlite"
        self._write_turn: AbstractContextManager[Any] = (
            threading.Lock() if sqlite else nullcontext()
        )
        self._read_only = False
        try:
            self._engine = make_engine(parsed, synchronous, schema, read_only=False)
            metadata.create_all(self._engine)
        except OperationalError as error:
            # a full disk is no folder we may not write: opened immutable, it would be called
            # read-only
            full = "full" in str(error.orig).lower()
            if self._file is None or not os.path.isfile(self._file) or full:
                raise self._unavailable(error) from None
            # A SQLite file in WAL mode in a folder we may not write cannot make its shared
            # memory file: it is opened immutable instead, which reads it as it stands.
            self._engine.dispose()
            self._read_only = True
            immutable = parsed.set(database=f"file:{self._file}").update_query_dict(
                {"immutable": "1", "uri": "true"}
            )
            try:
                self._engine = make_engine(immutable, synchronous, schema, read_only=True)
                metadata.create_all(self._engine)
            except DBAPIError as again:
                raise self._unavailable(again) from None
        except DBAPIError as error:  # not a database at all (/etc/passwd), say
            raise self._unavailable(error) from None
        except (ImportError, ArgumentError):  # a scheme unknown, or its driver missing
            raise StoreUnavailable(
                f"cannot open the store {self._shown()}: turnkeeper speaks sqlite:///PATH "
                "and postgresql+psycopg://USER@HOST/DB"
            ) from None
        self._lines_kept = self._upgrade()
        self._reads = reading(self._engine)
        self._version_read = VersionRead(self._engine)

    def _upgrade(self) -> bool:
        """Give an older store the indexes and the column of lines, once (``create_all`` makes
        none on a table that exists); whether the store keeps lines now."""
        with self._engine.connect() as conn:
            schema = conn.get_execution_options().get("schema_translate_map", {}).get(None)
            looked = inspect(conn)
            present = {i["name"] for i in looked.get_indexes("events", schema=schema)}
            columns = {c["name"] for c in looked.get_columns("events", schema=schema)}
        if self._read_only:
            return "line" in columns
        for index in (kinds_index, times_index):
            if index.name not in present:
                with suppress(DBAPIError):  # another process made it meanwhile, or read-only
                    index.create(self._engine, checkfirst=True)
        if "line" in columns:
            return True
        quote = self._engine.dialect.identifier_preparer.quote
        table = f"{quote(schema)}.events" if schema else "events"
        try:
            with self._engine.begin() as conn:
                conn.exec_driver_sql(f"ALTER TABLE {table} ADD COLUMN line TEXT")
        except DBAPIError:  # another process made it meanwhile, or the file may not be written
            with self._engine.connect() as conn:
                columns = {c["name"] for c in inspect(conn).get_columns("events", schema=schema)}
            return "line" in columns
        return True

    def writable(self) -> bool:
        """False for a SQLite file (or its folder) this process may only read."""
        if self._read_only:
            return False
        if self._file is None:
            return True
        folder = os.path.dirname(os.path.abspath(self._file))
        return os.access(self._file, os.W_OK) and os.access(folder, os.W_OK)

    def _shown(self) -> str:
        return self._file or make_url(self.url).render_as_string(hide_password=True)

    def _unavailable(self, error: DBAPIError) -> StoreUnavailable:
        """One line for a store that cannot be opened or written; nothing was written."""
        cause = str(error.orig).strip() or type(error.orig).__name__
        lowered = cause.lower()
        if self._file is not None and os.path.isdir(self._file):
            fix = "that is a folder: give a file in it, such as --db FOLDER/turnkeeper.db"
        elif "full" in lowered:
            fix = "no space is left on its disk: free some space, then retry"
        elif "readonly" in lowered or "read-only" in lowered or "read only" in lowered:
            fix = "it is read-only: check the permissions of the file and its folder"
        elif "not a database" in lowered:
            fix = "that file is not a turnkeeper store: give another --db"
        else:
            first = cause.splitlines()[0]
            fix = f"{first}: check the path or address, and that the database is running"
        return StoreUnavailable(
            f"cannot use the store {self._shown()}: {fix} (nothing was written)"
        )

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction; a full disk or a read-only file is one StoreUnavailable.

        SQLite writes one transaction at a time per file: this process's writers queue for
        it in turn on a lock (no waiting), not in SQLite's busy handler, which sleeps up to a
        tenth of a second between tries, so ten tables writing at once waited seconds. Another
        process's writers still meet the busy timeout."""
        try:
            with self._write_turn, self._engine.begin() as conn:
                yield conn
        except OperationalError as error:
            raise self._unavailable(error) from None

    # -- campaigns -------------------------------------------------------------------------

    def create(
        self,
        campaign: str,
        records: Sequence[Mapping[str, object]] = (),
        *,
        caches: Caches | None = None,
        lines: Sequence[str] | None = None,
        written: Sequence[Written] = (),
    ) -> None:
        """Start a journal holding ``records`` (and ``caches`` for its last version, ``lines``
        beside its records), or the records ``written`` already, in one transaction;
        ConflictError if the name is taken. A process killed meanwhile leaves no campaign,
        never one at version 0."""
        rows = numbered(0, records)
        if written and (rows or lines is not None):
            raise ValueError("a journal's records come written already or not, not both")
        if [row[0] for row in written] != list(range(1, len(written) + 1)):
            raise ValueError("records written already must be numbered 1, 2, 3...")
        version = len(written) or len(rows)
        try:
            with self._writing() as conn:
                conn.execute(
                    insert(campaigns_table).values(
                        name=campaign, version=version, created=datetime.now(UTC)
                    )
                )
                insert_events(conn, campaign, rows, lines)
                insert_written(conn, campaign, written)
                self._keep(conn, campaign, version, caches)
                notify(conn, campaign)
        except IntegrityError:
            raise ConflictError(
                f"a campaign named {campaign!r} already exists: choose another name, "
                "or delete the old one first"
            ) from None

    def campaigns(self) -> list[str]:
        """Every campaign's name, sorted."""
        with self._reads.connect() as conn:
            rows = conn.execute(select(campaigns_table.c.name).order_by(campaigns_table.c.name))
            return [row[0] for row in rows]

    def version(self, campaign: str) -> int:
        """How many records the campaign's journal holds (read on the driver: every request
        asks it)."""
        found = self._version_read(campaign)
        if found is None:
            raise missing(campaign)
        return found

    def delete(self, campaign: str) -> None:
        """Remove a campaign, its journal, and the current pointer if it named it."""
        with self._writing() as conn:
            conn.execute(delete(snapshots_table).where(snapshots_table.c.campaign == campaign))
            conn.execute(delete(tokens_table).where(tokens_table.c.campaign == campaign))
            conn.execute(delete(events_table).where(events_table.c.campaign == campaign))
            gone = conn.execute(delete(campaigns_table).where(campaigns_table.c.name == campaign))
            if gone.rowcount == 0:
                raise missing(campaign)
            conn.execute(
                delete(settings_table).where(
                    settings_table.c.key == CURRENT, settings_table.c.value == campaign
                )
            )
            notify(conn, campaign)

    # -- the journal -----------------------------------------------------------------------

    def append(
        self,
        campaign: str,
        expected_version: int,
        records: Sequence[Mapping[str, object]],
        *,
        caches: Caches | None = None,
        lines: Sequence[str] | None = None,
    ) -> int:
        """Append after ``expected_version`` in one transaction, with ``caches`` of the new
        version and ``lines`` beside the records; ConflictError if stale (and then nothing,
        caches included, is written)."""
        rows = numbered(expected_version, records)
        new_version = expected_version + len(rows)
        try:
            if self._reads is not self._engine and (caches is None or caches.snapshot is None):
                # PostgreSQL, no snapshot to keep: one statement in autocommit, one round trip
                with self._reads.connect() as conn:
                    if append_at_once(conn, campaign, expected_version, rows, lines):
                        return new_version
                    raise stale(campaign, version_found(conn, campaign), expected_version)
            with self._writing() as conn:
                # The write comes first so SQLite takes its write lock at once (waiting on the
                # busy timeout) instead of upgrading a read snapshot that may go stale.
                moved = conn.execute(
                    MOVE_VERSION,
                    {"campaign": campaign, "expected": expected_version, "moved": new_version},
                )
                if moved.rowcount != 1:
                    raise stale(campaign, version_found(conn, campaign), expected_version)
                insert_events(conn, campaign, rows, lines)
                self._keep(conn, campaign, new_version, caches)
                notify(conn, campaign)
        except IntegrityError:
            # The second guard: the compare-and-set was passed but a seq is taken.
            raise stale(campaign, self.version(campaign), expected_version) from None
        except OperationalError as error:  # the one statement's (a transaction says its own)
            raise self._unavailable(error) from None
        return new_version

    def read(self, campaign: str, since: int = 0, limit: int | None = None) -> list[Record]:
        """The records after ``since`` (at most ``limit``), in seq order."""
        return _parse(self.read_json(campaign, since, limit))

    def read_kind(self, campaign: str, kind: str) -> list[Record]:
        """The records of one ``kind`` in seq order, by the index on kinds."""
        columns = events_table.c
        query = (
            select(cast(columns.data, Text))
            .where(columns.campaign == campaign, columns.kind == kind)
            .order_by(columns.seq)
        )
        with self._reads.connect() as conn:
            texts = list(conn.execute(query).scalars())
        return _parse("[" + ",".join(texts) + "]")

    def read_timed(self, campaign: str, kinds: Collection[str], span: Span) -> list[Record]:
        """The records of ``kinds`` in ``span`` of game time, by the index on it."""
        with self._reads.connect() as conn:
            return _parse(timed_texts(conn, campaign, kinds, span))

    def read_json(
        self, campaign: str, since: int = 0, limit: int | None = None, *, lines: bool = False
    ) -> str:
        """The records after ``since`` as the text of one JSON array, in seq order; with
        ``limit``, at most that many, read by the primary key from ``since`` on (a page of the
        log costs the same whatever lies before or after it). ``lines=True``: the records'
        texts as stored, one a line, for an export that streams them without a parse.

        Rebuilding state reads whole journals, so this is the fast path: the database hands
        back the records' text and one parse (``records_from_json``) turns the lot into typed
        events. SQLite joins the texts itself (``group_concat`` over the ordered rows: one
        string crosses into Python, not a row object per record, about twice as fast); other
        databases hand back a row per record, joined here. A stored record never holds a raw
        newline (``base.dumps`` writes compact JSON, which escapes it), so a newline separates
        records safely.
        """
        separator = "\n" if lines else ","
        columns = events_table.c
        rows = (
            select(cast(columns.data, Text).label("record"))
            .where(columns.campaign == campaign, columns.seq > since)
            .order_by(columns.seq)
            .limit(limit)
        )
        with self._reads.connect() as conn:
            if conn.dialect.name == "sqlite":
                ordered = rows.subquery()
                joined = conn.execute(
                    select(func.group_concat(ordered.c.record, separator))
                ).scalar()
                texts = [] if joined is None else [joined]
            else:
                texts = list(conn.execute(rows).scalars())
            if (
                not texts
                and conn.execute(
                    select(campaigns_table.c.name).where(campaigns_table.c.name == campaign)
                ).first()
                is None
            ):
                raise missing(campaign)
        if lines:
            return separator.join(texts)
        return "[" + separator.join(texts) + "]"

    def read_lines(
        self, campaign: str, since: int, until: int, page: int
    ) -> Iterator[list[StoredLine]]:
        """The records after ``since`` up to ``until`` by the primary key, ``page`` at a time,
        each as stored with its command, its game time and its line (None where none was
        kept): one query, its rows fetched a page at a time (a server-side cursor on
        PostgreSQL), so a whole log is never in memory. The read's snapshot is held meanwhile,
        which neither store's writers wait for (SQLite runs in WAL mode)."""
        with self._engine.connect() as conn:
            if conn.dialect.name == "sqlite" and self._lines_kept:
                # the driver's tuples as they come: SQLAlchemy's row objects cost a log of
                # 200,000 records about as much as the rest of writing it
                cursor = conn.exec_driver_sql(SELECT_LINES, (campaign, since, until)).cursor
                while rows := cursor.fetchmany(page):
                    yield list(rows)
                return
            columns = events_table.c
            line = columns.line if self._lines_kept else literal(None, Text)
            query = (
                select(columns.command, columns.at, cast(columns.data, Text), line)
                .where(columns.campaign == campaign, columns.seq > since, columns.seq <= until)
                .order_by(columns.seq)
            )
            streamed = conn.execution_options(stream_results=True, yield_per=page)
            for rows in streamed.execute(query).partitions():
                yield [(row[0], row[1], row[2], row[3]) for row in rows]

    # -- watching for changes (live screens) ------------------------------------------------

    def versions(self) -> dict[str, int]:
        """Every campaign's version now, by name."""
        table = campaigns_table
        with self._reads.connect() as conn:
            rows = conn.execute(select(table.c.name, table.c.version))
            return {str(name): int(version) for name, version in rows}

    def signals(self) -> bool:
        """True on PostgreSQL, whose writers NOTIFY; SQLite can only be read again."""
        return self._engine.dialect.name == "postgresql"

    def wait_for_change(self, seen: Mapping[str, int], timeout: float) -> dict[str, int]:
        """Every campaign's version once it differs from ``seen``, or after ``timeout`` seconds.

        PostgreSQL wakes the waiter with a NOTIFY from the writer's commit, whichever process
        wrote; SQLite is read again every :data:`POLL_SECONDS`. One waiter at a time.
        """
        deadline = time.monotonic() + timeout
        # LISTEN before the first read, so a commit between the read and the wait still wakes us
        listener = self._listen() if self._engine.dialect.name == "postgresql" else None
        wanted = dict(seen)
        while True:
            now = self.versions()
            left = deadline - time.monotonic()
            if now != wanted or left <= 0:
                return now
            if listener is None:
                time.sleep(min(POLL_SECONDS, left))
            else:
                # one notification (or the timeout) ends the wait; the versions say what moved
                for _ in listener.notifies(timeout=left, stop_after=1):
                    pass

    def _listen(self) -> Any:
        """The psycopg connection that LISTENs on :data:`CHANGES`, made once, outside the pool.

        It is detached from the pool because it runs in autocommit mode and must never be
        handed to a writer; it closes with the store.
        """
        with self._listener_lock:
            if self._listener is None:
                raw = self._engine.raw_connection()
                connection: Any = raw.driver_connection
                raw.detach()
                connection.rollback()  # out of any transaction the pool's checkout began
                connection.autocommit = True
                connection.execute(f"LISTEN {CHANGES}")
                self._listener = connection
            return self._listener

    # -- snapshots (a cache of folded states) ----------------------------------------------

    def save_snapshot(self, campaign: str, version: int, tag: str, state: str) -> None:
        """Keep the state folded up to ``version`` (JSON), outside an append (tools, tests).

        Two writers saving the same version at once: the second one's insert fails and is
        let go.
        """
        with suppress(IntegrityError), self._writing() as conn:
            keep_snapshot(conn, campaign, version, tag, state)

    def _keep(self, conn: Connection, campaign: str, version: int, caches: Caches | None) -> None:
        """Write a writer's caches of ``version`` inside its transaction."""
        if caches is None:
            return
        if caches.snapshot is not None:
            tag, state = caches.snapshot
            keep_snapshot(conn, campaign, version, tag, state)
        if caches.glance is not None and self.keeps_glances():
            keep_glance(conn, campaign, version, *caches.glance)

    def load_snapshot(
        self, campaign: str, tag: str, before: int | None = None
    ) -> tuple[int, str] | None:
        """The newest snapshot tagged ``tag`` (below version ``before``, if given) as
        ``(version, state JSON)``, or None."""
        table = snapshots_table
        query = (
            select(table.c.version, table.c.state)
            .where(table.c.campaign == campaign, table.c.format == tag)
            .order_by(table.c.version.desc())
            .limit(1)
        )
        if before is not None:
            query = query.where(table.c.version < before)
        with self._reads.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else (int(row[0]), str(row[1]))

    def drop_snapshots(self, campaign: str | None = None) -> None:
        """Forget the snapshots of ``campaign`` (None: of every campaign); no state changes."""
        query = delete(snapshots_table)
        if campaign is not None:
            query = query.where(snapshots_table.c.campaign == campaign)
        with self._writing() as conn:
            conn.execute(query)

    # -- access tokens for the web server (hashes only) -----------------------------------

    def keeps_glances(self) -> bool:
        """Only a SQLite file keeps glances: ``status`` reads them with the standard library,
        which speaks SQLite alone, so on another database one would be written and never read.
        """
        return self._file is not None

    def set_token_hash(self, campaign: str, role: str, digest: str) -> None:
        """Keep the token hash for ``role``, replacing the old one (a rotation)."""
        table = tokens_table
        with self._writing() as conn:
            found = conn.execute(
                select(campaigns_table.c.name).where(campaigns_table.c.name == campaign)
            ).first()
            if found is None:
                raise missing(campaign)
            conn.execute(delete(table).where(table.c.campaign == campaign, table.c.role == role))
            conn.execute(insert(table).values(campaign=campaign, role=role, token_hash=digest))

    def token_hashes(self, campaign: str) -> dict[str, str]:
        """The campaign's token hashes by role; empty when none were made."""
        table = tokens_table
        with self._reads.connect() as conn:
            rows = conn.execute(
                select(table.c.role, table.c.token_hash).where(table.c.campaign == campaign)
            )
            return {str(role): str(digest) for role, digest in rows}

    # -- the CLI's current campaign --------------------------------------------------------

    def current(self) -> str | None:
        """The campaign ``turnkeeper use`` chose, kept beside the journals it names."""
        with self._reads.connect() as conn:
            value = conn.execute(
                select(settings_table.c.value).where(settings_table.c.key == CURRENT)
            ).scalar_one_or_none()
        return None if value is None else str(value)

    def set_current(self, campaign: str | None) -> None:
        """Point bare CLI verbs at ``campaign``; None clears the pointer."""
        with self._writing() as conn:
            conn.execute(delete(settings_table).where(settings_table.c.key == CURRENT))
            if campaign is not None:
                conn.execute(insert(settings_table).values(key=CURRENT, value=campaign))

    def close(self) -> None:
        """Release every pooled connection, and the listening one if a waiter made it."""
        with self._listener_lock:
            if self._listener is not None:
                self._listener.close()
                self._listener = None
        self._engine.dispose()

    def __repr__(self) -> str:
        return f"SqlStore({self._engine.url.render_as_string(hide_password=True)!r})"


SELECT_LINES = (
    "SELECT command, at, data, line FROM events "
    "WHERE campaign = ? AND seq > ? AND seq <= ? ORDER BY seq"
)
"""A page of records with their lines as SQLite's driver takes it (:meth:`SqlStore.read_lines`)."""


def _parse(text: str) -> list[Record]:
    records = from_json(text)
    assert isinstance(records, list)
    return records
