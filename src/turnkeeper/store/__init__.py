"""Where campaigns' journals live: one SQLite file by default, PostgreSQL for a shared server.

>>> import tempfile, os
>>> store = open_store(os.path.join(tempfile.mkdtemp(), "keep.db"))
>>> store.create("keep")
>>> store.append("keep", 0, [{"kind": "clock.waited", "data": {"seconds": 600}}])
1
>>> store.read("keep")
[{'seq': 1, 'kind': 'clock.waited', 'data': {'seconds': 600}}]
>>> store.close()
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from turnkeeper.errors import NotFoundError
from turnkeeper.store.base import (
    Caches,
    EventStore,
    GlanceStore,
    JsonStore,
    Record,
    SnapshotStore,
    TokenStore,
)

ENV = "TURNKEEPER_DB"


def default_url() -> str:
    """The SQLite file in the user's data directory, made if missing."""
    folder = Path(platformdirs.user_data_dir("turnkeeper"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'turnkeeper.db'}"


def resolve_url(url: str | None = None, create: bool = True) -> str:
    """The database URL a store opens: ``url`` (a URL, or a path meaning a SQLite file), else
    the ``TURNKEEPER_DB`` environment variable, else :func:`default_url`.

    A SQLite file that ``url`` or the variable names must exist unless ``create``: a mistyped
    path is one clear error, not a new empty store (the default file is always made).

    >>> resolve_url("postgresql+psycopg://postgres@127.0.0.1/test")
    'postgresql+psycopg://postgres@127.0.0.1/test'
    >>> resolve_url("/tmp/keep.db")
    'sqlite:////tmp/keep.db'
    """
    chosen = url or os.environ.get(ENV) or None
    if chosen is None:
        return default_url()
    if "://" in chosen:
        path_part = chosen.split(":///", 1)[1] if chosen.startswith("sqlite:///") else ""
        if not create and path_part and path_part != ":memory:":
            _must_exist(Path(path_part), chosen)
        return chosen
    path = Path(chosen).expanduser().resolve()
    if not create:
        _must_exist(path, chosen)
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


def sqlite_file(url: str | None = None) -> Path | None:
    """The SQLite file the store ``url`` names (as :func:`resolve_url` reads it), without
    making anything; None for a database that is no file (PostgreSQL, memory). An output
    file is checked against it, so no ``--out`` ever writes over the campaigns.

    >>> sqlite_file("/tmp/keep.db"), sqlite_file("postgresql+psycopg://pg@host/db")
    (PosixPath('/tmp/keep.db'), None)
    """
    chosen = url or os.environ.get(ENV) or None
    if chosen is None:
        return Path(platformdirs.user_data_dir("turnkeeper")) / "turnkeeper.db"
    if "://" not in chosen:
        return Path(chosen).expanduser()
    path_part = (
        chosen.split(":///", 1)[1].split("?", 1)[0] if chosen.startswith("sqlite:///") else ""
    )
    return Path(path_part) if path_part and path_part != ":memory:" else None


def _must_exist(path: Path, given: str) -> None:
    if not path.is_file():
        raise NotFoundError(
            f"no store at {given}: check the path, or make one with `turnkeeper new NAME "
            f"--ruleset ex --db {given}`"
        )


def open_store(url: str | None = None, create: bool = True) -> EventStore:
    """Open (creating tables if needed) the event store at ``url``; see :func:`resolve_url`.

    SQLAlchemy loads here, when a store is opened, not when the package is imported: a
    ``status`` that finds its glance (:mod:`turnkeeper.store.glance`) never needs it.
    """
    from turnkeeper.store.sql import SqlStore

    return SqlStore(resolve_url(url, create))


__all__ = [
    "ENV",
    "Caches",
    "EventStore",
    "GlanceStore",
    "JsonStore",
    "Record",
    "SnapshotStore",
    "TokenStore",
    "default_url",
    "open_store",
    "resolve_url",
    "sqlite_file",
]
