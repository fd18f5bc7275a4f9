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

import errno
import os
import sqlite3
import stat
from contextlib import closing, suppress
from pathlib import Path
from urllib.parse import quote

import platformdirs

from turnkeeper.errors import NotFoundError, TurnkeeperError
from turnkeeper.files.paths import check_path_length
from turnkeeper.store.base import (
    Caches,
    EventStore,
    GlanceStore,
    JsonStore,
    Record,
    SnapshotStore,
    Span,
    StoreUnavailable,
    TimedStore,
    TokenStore,
)
from turnkeeper.store.glance import GLANCES

ENV = "TURNKEEPER_DB"

TABLES = frozenset({"campaigns", "events", "snapshots", GLANCES, "tokens", "settings"})
"""The tables a SQLite store of turnkeeper's holds (those :mod:`turnkeeper.store.schema` declares;
a test keeps the two lists one). A file holding any other table is another program's."""

_COMPANIONS = ("-wal", "-shm", "-journal")
"""The files beside a SQLite file that hold its pages too."""


def default_url() -> str:
    """The SQLite file in the user's data directory, its folder made if missing."""
    return _sqlite_url(_default_file(), "the default store", create=True, default=True)


def _default_file() -> Path:
    return Path(platformdirs.user_data_dir("turnkeeper")) / "turnkeeper.db"


def resolve_url(url: str | None = None, create: bool = True) -> str:
    """The database URL a store opens: ``url`` (a URL, or a path meaning a SQLite file), else
    the ``TURNKEEPER_DB`` environment variable, else :func:`default_url`.

    A SQLite file that ``url`` or the variable names must exist unless ``create``: a mistyped
    path is one clear error, not a new empty store (the default file is always made). A path
    the system cannot take, and a file holding another program's tables, are refused before
    anything is made or written (:func:`_check_file`).

    >>> resolve_url("postgresql+psycopg://postgres@127.0.0.1/test")
    'postgresql+psycopg://postgres@127.0.0.1/test'
    >>> resolve_url("/tmp/keep.db")
    'sqlite:////tmp/keep.db'
    """
    chosen = url or os.environ.get(ENV) or None
    if chosen is None:
        return default_url()
    if "://" in chosen:
        file = sqlite_file(chosen)
        # a URI filename (file:...?mode=ro) is SQLite's own to read; it is left to SQLite
        if file is not None and not str(file).startswith("file:"):
            _check_file(file, chosen, create)
        return chosen
    return _sqlite_url(Path(chosen).expanduser().resolve(), chosen, create)


def _sqlite_url(path: Path, given: str, create: bool, default: bool = False) -> str:
    """The URL of the SQLite file ``path`` (``given`` as the user gave it), checked, and its
    folder made when ``create``."""
    _check_file(path, given, create, default)
    if create:
        _make_folder(path.parent, given, default)
    return f"sqlite:///{path}"


def _check_file(path: Path, given: str, create: bool, default: bool = False) -> None:
    """Every check of a SQLite file before a store opens it, reading only: its path fits the
    system, it exists unless ``create``, and its tables are turnkeeper's."""
    what = "default campaign store" if default else "campaign store"
    check_path_length(path, what, StoreUnavailable)
    if not create:
        _must_exist(path, given)
    _own_tables(path, given)


def _make_folder(folder: Path, given: str, default: bool) -> None:
    store = "the default store" if default else f"the store {given}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as failure:
        if failure.errno == errno.ENOSPC:
            fix = "no space is left on its disk: free some space, then retry"
        elif default:
            fix = (
                f"{failure.strerror}: set XDG_DATA_HOME to a folder you may write, "
                "or give --db PATH"
            )
        else:
            fix = f"{failure.strerror}: give --db a file in a folder you may write"
        raise StoreUnavailable(
            f"cannot make the folder {folder} for {store}: {fix} (nothing was written)"
        ) from None


def _own_tables(path: Path, given: str) -> None:
    """Refuse a SQLite file holding a table that is not turnkeeper's: another program's
    database, which opening it as a store would write turnkeeper's tables into.

    Its table names are read with the standard library, read-only. Without a -wal or
    -journal file beside it the file is read as immutable, which makes no -wal or -shm file
    (a read-only look at a WAL database would leave both); with one, it is read as SQLite
    reads a live file. A file SQLite cannot read here (not a database, locked) is left to
    the store, which says what is wrong with it.
    """
    try:
        info = os.stat(path)
    except OSError:
        return  # nothing there yet (a new store), or the store's own opening says what is wrong
    if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
        return  # an empty file is a new store; a folder is the store's to name
    live = any(Path(f"{path}{end}").exists() for end in _COMPANIONS)
    mode = "mode=ro" if live else "immutable=1"
    try:
        with closing(sqlite3.connect(f"file:{quote(str(path))}?{mode}", uri=True)) as conn:
            names = [
                row[0]
                for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            ]
    except sqlite3.Error:
        return
    foreign = sorted(n for n in names if n not in TABLES and not n.startswith("sqlite_"))
    if foreign:
        raise StoreUnavailable(
            f"{given} holds the table {foreign[0]!r}, which is not turnkeeper's: it is another "
            "program's database; give another --db (nothing was written)"
        )


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
    A SQLite file this call made is removed again when the store cannot be opened in it (a
    full disk): a refused command leaves no empty store behind.
    """
    from turnkeeper.store.sql import SqlStore

    resolved = resolve_url(url, create)
    made = unmade(resolved)
    try:
        return SqlStore(resolved)
    except TurnkeeperError:
        remove_made(made)
        raise


def unmade(url: str | None = None) -> list[str]:
    """The SQLite file the store ``url`` names, and its companion files, that do not exist
    yet: what opening it would make, for a caller to remove again (:func:`remove_made`) when
    its work is refused, so a refused command (an import) leaves no empty store behind."""
    file = sqlite_file(url)
    made = [] if file is None else [f"{file}{end}" for end in ("", *_COMPANIONS)]
    return [name for name in made if not os.path.lexists(name)]


def remove_made(names: list[str]) -> None:
    """Remove the files :func:`unmade` listed, where they were made since (after the store
    in them is closed)."""
    for name in names:
        with suppress(OSError):
            os.remove(name)


__all__ = [
    "ENV",
    "TABLES",
    "Caches",
    "EventStore",
    "GlanceStore",
    "JsonStore",
    "Record",
    "SnapshotStore",
    "Span",
    "TimedStore",
    "TokenStore",
    "default_url",
    "open_store",
    "remove_made",
    "resolve_url",
    "sqlite_file",
    "unmade",
]
