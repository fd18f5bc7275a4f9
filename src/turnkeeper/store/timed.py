"""Records found by game time: a month of the calendar, a party's latest place before it.

A world's records run forward in game time within each party, not in seq order (a switch
turns to a party behind the world), so these reads go by the index on ``(campaign, at, seq)``
(:data:`~turnkeeper.store.schema.times_index`) and never page through the journal by seq.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import Text, and_, cast, or_, select

from turnkeeper.store.base import Span
from turnkeeper.store.schema import events_table


def timed_query(campaign: str, kinds: Collection[str], span: Span) -> Any:
    """The query of the texts of ``campaign``'s records of ``kinds`` in ``span``."""
    columns = events_table.c
    query = select(cast(columns.data, Text)).where(
        columns.campaign == campaign, columns.kind.in_(sorted(kinds))
    )
    if span.start is not None:
        query = query.where(columns.at >= span.start)
    if span.end is not None:
        query = query.where(columns.at < span.end)
    if span.before is not None:
        at, seq = span.before
        query = query.where(or_(columns.at < at, and_(columns.at == at, columns.seq < seq)))
    if span.newest is None:
        return query.order_by(columns.seq)
    return query.order_by(columns.at.desc(), columns.seq.desc()).limit(span.newest)
