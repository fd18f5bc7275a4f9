"""Opening a database: the engine, its pool, and SQLite's settings on every connection.

SQLite runs in WAL mode with ``synchronous=NORMAL`` by default. That is durable under SIGKILL:
a commit has written its frames to the WAL file (into the OS page cache) before it returns,
and the OS keeps them when the process dies; the SIGKILL tests check exactly that. What NORMAL
gives up is the last few commits on a power cut or kernel crash (never consistency: the WAL
is checksummed and a torn tail is ignored). ``FULL`` closes that gap with an fsync per
commit, which on this project's VM costs 0.5 to 7 ms per command against 0.02 ms, so it is
opt-in: ``sqlite:///path/turnkeeper.db?synchronous=full``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL

from turnkeeper.store.base import dumps

POOL_SIZE, POOL_OVERFLOW = 16, 32
"""Connections a store keeps open, and how many more it opens under load: a server's worker
threads (40) each find one at once (SQLAlchemy's 5 and 10 had 100 clients wait seconds on the
pool). Two server processes on one PostgreSQL stay within its 100 connections."""


SYNC_MODES = ("normal", "full")
"""The ``synchronous`` settings a SQLite address may ask for (``?synchronous=full``)."""


def sqlite_pragmas(synchronous: str, read_only: bool) -> Callable[[Any, Any], None]:
    """What each new SQLite connection is told first: WAL, ``synchronous``, foreign keys, and
    how long to wait for another process's writer."""

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        # WAL mode is kept in the file: asking for it again is a write, which a read-only
        # file refuses, so it is asked for only where it is not on yet
        (mode,) = cursor.execute("PRAGMA journal_mode").fetchone()
        if not read_only and str(mode).lower() != "wal":
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous.upper()}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    return on_connect


def make_engine(url: URL, synchronous: str, schema: str | None, *, read_only: bool) -> Engine:
    """The engine for ``url`` (its tables in ``schema``, if given), writing JSON as the
    journal stores it."""
    pooled = url.get_backend_name() == "postgresql" or url.database not in (None, "", ":memory:")
    # a connection for each worker thread of a server (anyio's 40) and a few more: a request
    # never waits on the pool, and never holds the event loop waiting on it
    sizes = {"pool_size": POOL_SIZE, "max_overflow": POOL_OVERFLOW} if pooled else {}
    engine = create_engine(url, json_serializer=dumps, **sizes)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", sqlite_pragmas(synchronous, read_only))
    if schema is not None:
        return engine.execution_options(schema_translate_map={None: schema})
    return engine


def reading(engine: Engine) -> Engine:
    """The engine a read of one statement takes its connection from: on PostgreSQL, the same
    pool in autocommit, so a read is one round trip to the server, not three (``BEGIN``, the
    query, then the pool's ``ROLLBACK`` as it takes the connection back). In a server's worker
    thread each round trip waits its turn for the interpreter as it comes back, so a command's
    reads cost it several times their own time. SQLite's reads are calls in this process, and
    keep the engine as it is."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="AUTOCOMMIT")
    return engine
