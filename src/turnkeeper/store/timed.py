"""Records found by game time: a month of the calendar, a party's latest place before it.

A world's records run forward in game time within each party, not in seq order (a switch
turns to a party behind the world), so these reads go by the index on ``(campaign, kind, at, seq)``
(:data:`~turnkeeper.store.schema.times_index`) and never page through the journal by seq.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import Connection, Text, and_, cast, or_, select

from turnkeeper.store.base import Span
from turnkeeper.store.schema import events_table


def timed_query(campaign: str, kind: str, span: Span) -> Any:
    """The query of the texts of ``campaign``'s records of ``kind`` in ``span`` (one kind a
    query: the index then gives them in game time order, with no sort of every match)."""
    columns = events_table.c
    query = select(columns.seq, columns.at, cast(columns.data, Text)).where(
        columns.campaign == campaign, columns.kind == kind
    )
    if span.start is not None:
        query = query.where(columns.at >= span.start)
    if span.end is not None:
        query = query.where(columns.at < span.end)
    if span.before is not None:
        at, seq = span.before
        query = query.where(or_(columns.at < at, and_(columns.at == at, columns.seq < seq)))
    if span.newest is None:
        return query
    return query.order_by(columns.at.desc(), columns.seq.desc()).limit(span.newest)


def timed_texts(conn: Connection, campaign: str, kinds: Collection[str], span: Span) -> str:
    """The texts of ``campaign``'s records of ``kinds`` in ``span`` as one JSON array, one
    query a kind, merged: in seq order, or the ``newest`` of them latest first."""
    rows = [
        (row[0], row[1], row[2])
        for kind in sorted(kinds)
        for row in conn.execute(timed_query(campaign, kind, span))
    ]
    if span.newest is None:
        rows.sort(key=lambda row: row[0])
    else:
        rows.sort(key=lambda row: (row[1], row[0]), reverse=True)
        del rows[span.newest :]
    return "[" + ",".join(row[2] for row in rows) + "]"
