"""What a writer does inside its transaction: insert the records, keep the caches, tell the
listeners.

Records go in as compact JSON (:func:`~turnkeeper.store.base.dumps`), which escapes every
newline, so a stored record never holds a raw one and a newline separates records safely when
a journal is read back as one text. On PostgreSQL every write sends
``NOTIFY turnkeeper_changes`` in its transaction, so the news leaves with the commit and never
before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic_core import from_json
from sqlalchemy import (
    JSON,
    BigInteger,
    Connection,
    Integer,
    String,
    Text,
    bindparam,
    cast,
    delete,
    func,
    insert,
    select,
    true,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY

from turnkeeper.store.base import SNAPSHOTS_KEPT, Written, dumps, missing
from turnkeeper.store.schema import (
    COLUMNS,
    campaigns_table,
    events_table,
    glances_table,
    snapshots_table,
)

CHANGES = "turnkeeper_changes"
"""The PostgreSQL channel an append notifies, with the campaign's name as the payload."""


# Built once: a statement built per command (its clauses coerced, its cache key walked) cost a
# command about as much as the database's own work on it.
MOVE_VERSION = (
    update(campaigns_table)
    .where(
        campaigns_table.c.name == bindparam("campaign"),
        campaigns_table.c.version == bindparam("expected"),
    )
    .values(version=bindparam("moved"))
)
"""The compare-and-set of an append: the version moves only from the one expected."""

_DROP_GLANCE = delete(glances_table).where(glances_table.c.campaign == bindparam("campaign"))
_ADD_GLANCE = insert(glances_table).values(
    campaign=bindparam("campaign"),
    version=bindparam("at"),
    format=bindparam("tag"),
    document=bindparam("text"),
)


_NOTIFY = select(func.pg_notify(CHANGES, bindparam("campaign")))


def _append_at_once() -> Any:
    """An append on PostgreSQL as one statement: the compare-and-set, the records' insert
    (only where the version moved) and the notification (likewise), which autocommit makes
    one transaction, so the news still leaves with the commit. One round trip to the server,
    where the append's transaction took five (``BEGIN``, the update, the insert, the notify,
    ``COMMIT``), each waiting its turn for the interpreter in a busy server's worker thread.
    It answers a row where the version moved, none where it did not."""
    moved = MOVE_VERSION.returning(campaigns_table.c.name).cte("moved")
    typed = {
        "seq": Integer,
        "command": Integer,
        "at": BigInteger,
        "kind": String,
        "visibility": String,
        "data": Text,
        "line": Text,
    }
    arrays: list[Any] = [
        bindparam(f"each_{name}", type_=ARRAY(kind)) for name, kind in typed.items()
    ]
    given = func.unnest(*arrays).table_valued(*typed).render_derived("given")
    c = given.c
    rows = select(
        moved.c.name, c.seq, c.command, c.at, c.kind, c.visibility, cast(c.data, JSON), c.line
    ).select_from(moved.join(given, true()))
    added = insert(events_table).from_select(["campaign", *typed], rows).cte("added")
    told = func.pg_notify(CHANGES, moved.c.name)
    return select(told).select_from(moved).add_cte(added)


APPEND_AT_ONCE = _append_at_once()
"""The statement of :func:`append_at_once`, built once."""


def append_at_once(
    conn: Connection,
    campaign: str,
    expected: int,
    records: Sequence[Mapping[str, object]],
    lines: Sequence[str] | None,
) -> bool:
    """Append ``records`` (numbered after ``expected``) to ``campaign`` on PostgreSQL in one
    statement, on a connection in autocommit (:data:`APPEND_AT_ONCE`); whether the version
    moved (else nothing was written). A seq taken already fails it whole (IntegrityError)."""
    said: Sequence[str | None] = [None] * len(records) if lines is None else lines
    if len(said) != len(records):
        raise ValueError(f"{len(said)} lines for {len(records)} records")
    params: dict[str, object] = {
        "campaign": campaign,
        "expected": expected,
        "moved": expected + len(records),
        "each_seq": [record["seq"] for record in records],
        "each_data": [dumps(record) for record in records],
        "each_line": list(said),
    }
    for name in COLUMNS:
        params[f"each_{name}"] = [record.get(name) for record in records]
    return conn.execute(APPEND_AT_ONCE, params).first() is not None


def version_found(conn: Connection, campaign: str) -> int:
    """The version of a campaign an append found moved; NotFoundError if it is gone."""
    query = select(campaigns_table.c.version).where(campaigns_table.c.name == campaign)
    actual = conn.execute(query).scalar_one_or_none()
    if actual is None:
        raise missing(campaign)
    return int(actual)


def keep_glance(conn: Connection, campaign: str, version: int, tag: str, document: str) -> None:
    """Keep ``campaign``'s glance of ``version`` in place of the one before."""
    conn.execute(_DROP_GLANCE, {"campaign": campaign})
    conn.execute(_ADD_GLANCE, {"campaign": campaign, "at": version, "tag": tag, "text": document})


def keep_snapshot(conn: Connection, campaign: str, version: int, tag: str, state: str) -> None:
    """Keep a snapshot at ``version`` and the newest :data:`SNAPSHOTS_KEPT` in all.

    Older ones are dropped: an undo folds from the newest snapshot older than the command it
    takes back, and a run of undos rarely reaches back past several cadence marks.
    """
    table = snapshots_table
    mine = table.c.campaign == campaign
    conn.execute(delete(table).where(mine, table.c.version == version))  # another format, say
    conn.execute(insert(table).values(campaign=campaign, version=version, format=tag, state=state))
    oldest_kept = conn.execute(
        select(table.c.version)
        .where(mine)
        .order_by(table.c.version.desc())
        .offset(SNAPSHOTS_KEPT - 1)
        .limit(1)
    ).scalar_one_or_none()
    if oldest_kept is not None:
        conn.execute(delete(table).where(mine, table.c.version < oldest_kept))


def notify(conn: Any, campaign: str) -> None:
    """Tell PostgreSQL's listeners that ``campaign`` moved; sent when the transaction commits."""
    if conn.dialect.name == "postgresql":
        conn.execute(_NOTIFY, {"campaign": campaign})


def _row(campaign: str, record: Mapping[str, object], line: str | None) -> dict[str, object]:
    row: dict[str, object] = {
        "campaign": campaign,
        "seq": record["seq"],
        "data": record,
        "line": line,
    }
    for name in COLUMNS:
        row[name] = record.get(name)
    return row


INSERT_EVENTS = (
    "INSERT INTO events (campaign, seq, command, at, kind, visibility, data, line) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
"""The events insert as SQLite's driver takes it: one ``executemany`` of plain tuples."""


def insert_events(
    conn: Connection,
    campaign: str,
    records: Sequence[Mapping[str, object]],
    lines: Sequence[str] | None,
) -> None:
    """Insert ``records`` (numbered) in ``conn``'s transaction, each written as ``dumps``
    writes it, with its line of ``lines`` beside it.

    On SQLite the rows go to the driver's ``executemany`` as tuples with the JSON made here:
    SQLAlchemy's own executemany processes every row's parameters one by one (the JSON
    type's serializer, the row's dictionary), which cost an import of 50,000 records about
    as much as the rest of storing them. Other databases take the Core insert, which knows
    their parameter style and schema.
    """
    if not records:
        return
    said: Sequence[str | None] = [None] * len(records) if lines is None else lines
    if len(said) != len(records):
        raise ValueError(f"{len(said)} lines for {len(records)} records")
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(
            INSERT_EVENTS,
            [
                (
                    campaign,
                    record["seq"],
                    record.get("command"),
                    record.get("at"),
                    record.get("kind"),
                    record.get("visibility"),
                    dumps(record),
                    line,
                )
                for record, line in zip(records, said, strict=True)
            ],
        )
    else:
        rows = [_row(campaign, record, line) for record, line in zip(records, said, strict=True)]
        conn.execute(insert(events_table), rows)


def insert_written(conn: Connection, campaign: str, written: Sequence[Written]) -> None:
    """Insert records written already in ``conn``'s transaction, their texts as they are: on
    SQLite each row as the driver takes it, elsewhere through the Core insert (whose JSON
    column takes data, not its text)."""
    if not written:
        return
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(INSERT_EVENTS, [(campaign, *row) for row in written])
        return
    rows = [
        {
            "campaign": campaign,
            "seq": seq,
            "command": command,
            "at": at,
            "kind": kind,
            "visibility": visibility,
            "data": from_json(text),
            "line": line,
        }
        for seq, command, at, kind, visibility, text, line in written
    ]
    conn.execute(insert(events_table), rows)
