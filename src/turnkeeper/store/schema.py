"""The store's tables, as SQLAlchemy declares them: one schema for SQLite and PostgreSQL.

Two main tables. ``campaigns`` holds each campaign's version (how many records its journal has);
``events`` holds the records, keyed by ``(campaign, seq)``. The fields a query may want
(``seq``, ``command``, ``at``, ``kind``, ``visibility``) are copied into columns; the whole
record is the ``data`` JSON, so the store stays opaque to the shape of events and a journal
is read back with one JSON parse. The others are caches (snapshots, glances), the web
server's token hashes and the CLI's settings.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
)

from turnkeeper.store.glance import GLANCES

metadata = MetaData()

campaigns_table = Table(
    "campaigns",
    metadata,
    Column("name", String(200), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)

events_table = Table(
    "events",
    metadata,
    Column(
        "campaign", String(200), ForeignKey("campaigns.name", ondelete="CASCADE"), nullable=False
    ),
    Column("seq", Integer, nullable=False),
    Column("command", Integer),
    Column("at", BigInteger),
    Column("kind", String(100)),
    Column("visibility", String(20)),
    # Plain JSON on every database: PostgreSQL's json keeps the text as written, key order
    # included (jsonb sorts keys, which would reorder a ruleset's light sources on replay).
    Column("data", JSON(), nullable=False),
    # The record's line as people read it, written with it: a log streams these without
    # reading an event back. Null in a record stored before lines were kept.
    Column("line", Text),
    PrimaryKeyConstraint("campaign", "seq"),
)

kinds_index = Index(
    "ix_events_campaign_kind_seq", events_table.c.campaign, events_table.c.kind, events_table.c.seq
)
"""Finds a campaign's records of one kind (its undos, for a page of the log) in seq order
without reading the rest; pages by seq use the primary key. With ``seq`` in it, SQLite takes
this index over the primary key for a query on a kind ordered by seq."""

times_index = Index(
    "ix_events_campaign_kind_at",
    events_table.c.campaign,
    events_table.c.kind,
    events_table.c.at,
    events_table.c.seq,
)
"""Finds a campaign's records of a kind by game time (a month of the calendar, a party's
latest place before it) without reading the rest: a world's records run forward in game time
within each party, not in seq order, so no page by seq can stand in for it."""

snapshots_table = Table(
    "snapshots",
    metadata,
    Column(
        "campaign", String(200), ForeignKey("campaigns.name", ondelete="CASCADE"), nullable=False
    ),
    Column("version", Integer, nullable=False),
    Column("format", String(40), nullable=False),
    Column("state", Text, nullable=False),
    PrimaryKeyConstraint("campaign", "version"),
)
"""Folded states kept to speed up rebuilds (a cache: dropping the table changes no state)."""

glances_table = Table(
    GLANCES,
    metadata,
    Column(
        "campaign", String(200), ForeignKey("campaigns.name", ondelete="CASCADE"), primary_key=True
    ),
    Column("version", Integer, nullable=False),
    Column("format", String(40), nullable=False),
    Column("document", Text, nullable=False),
)
"""Each campaign's glance at its latest version (a cache: see turnkeeper.store.glance)."""

tokens_table = Table(
    "tokens",
    metadata,
    Column(
        "campaign", String(200), ForeignKey("campaigns.name", ondelete="CASCADE"), nullable=False
    ),
    Column("role", String(20), nullable=False),
    Column("token_hash", String(64), nullable=False),
    PrimaryKeyConstraint("campaign", "role"),
)
"""The web server's access tokens, one per campaign and role, as SHA-256 hex digests."""

settings_table = Table(
    "settings",
    metadata,
    Column("key", String(100), primary_key=True),
    Column("value", String(200), nullable=False),
)

COLUMNS = ("command", "at", "kind", "visibility")
"""Record fields copied into their own columns for queries; ``data`` holds the whole record."""
