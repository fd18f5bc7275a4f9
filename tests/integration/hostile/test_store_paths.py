"""Hostile stores and addresses (issue 22): a ``--db`` that is another program's database, a
path the system cannot take, a data folder that cannot be made, a full disk, and a ``serve``
whose host or port cannot be had.

Each case runs the console script's own path and asserts exit 2, one ``error:`` line on stderr
that names what is wrong, no traceback, and that every file involved is byte for byte what it
was (hashed before and after) or was never made. ``serve`` runs as its own process with a
timeout that only catches a server that started, never measures speed.
"""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from tests.integration.hostile.refusals import (
    PARTY,
    TURNKEEPER,
    digest,
    one_line,
    refused,
    refused_apart,
)


def _foreign(path: Path, wal: bool = False) -> Path:
    """Another program's SQLite database: a table of songs (in WAL mode if ``wal``)."""
    with closing(sqlite3.connect(path)) as conn:
        if wal:
            conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE songs (id INTEGER PRIMARY KEY, title TEXT)")
        conn.execute("INSERT INTO songs (title) VALUES ('Greensleeves')")
        conn.commit()
    return path


def _listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


# -- another program's database ---------------------------------------------------------------


@pytest.mark.parametrize("wal", [False, True], ids=["rollback", "wal"])
@pytest.mark.parametrize(
    "verb",
    [
        ("campaigns",),
        ("status",),
        ("new", "keep", "-r", "ex", "--solo"),
        ("tokens", "keep"),
    ],
    ids=lambda verb: verb[0],
)
def test_another_programs_database_is_refused_unwritten(
    tmp_path: Path, shell, verb: tuple[str, ...], wal: bool
) -> None:
    other = _foreign(tmp_path / "music.db", wal)
    for given in (str(other), f"sqlite:///{other}"):
        line = refused(shell, [other], *verb, "--db", given, words=(str(other), "'songs'"))
        assert "give another --db" in line, line
    # nothing beside it either: no -wal or -shm left by a look at its tables
    assert _listing(tmp_path) == ["music.db"]


def test_a_store_holding_a_foreign_table_is_refused(tmp_path: Path, shell, db: str) -> None:
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE songs (id INTEGER)")
        conn.commit()
    refused(shell, [db], "campaigns", "--db", db, words=(db, "'songs'"))


def test_an_empty_file_a_new_path_and_a_store_stay_fine(tmp_path: Path, shell, db: str) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    for store in (str(empty), str(tmp_path / "fresh.db"), db):
        said = shell("new", "other", "-r", "ex", "--party", PARTY, "--db", store)
        assert said.code == 0, said.err
        assert "other" in shell("campaigns", "--db", store).out


def test_turnkeepers_tables_are_the_stores_own() -> None:
    # the list a store's tables are checked against is the list the store makes
    from turnkeeper.store import TABLES
    from turnkeeper.store.schema import metadata

    assert set(metadata.tables) == TABLES


# -- paths the system cannot take -------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        lambda tmp: tmp / ("a" * 300 + ".db"),  # one name longer than the system's names
        lambda tmp: tmp / "sub" / ("a" * 300 + ".db"),  # and a folder that would be made for it
        lambda tmp: tmp.joinpath(*["b" * 200] * 30, "tk.db"),  # the whole longer than a path
    ],
    ids=["name", "name-in-new-folder", "path"],
)
@pytest.mark.parametrize("verb", [("campaigns",), ("new", "keep", "-r", "ex", "--solo")], ids=str)
def test_a_store_path_too_long_is_one_line(tmp_path: Path, shell, path, verb) -> None:
    long = path(tmp_path)
    for given in (str(long), f"sqlite:///{long}"):
        line = refused(shell, [], *verb, "--db", given, words=("longer than this system allows",))
        assert len(line) < 400, line  # the path is shortened, not printed whole
        assert _listing(tmp_path) == []


def test_a_data_folder_that_is_a_file_is_one_line(
    tmp_path: Path, shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the default store lives in $XDG_DATA_HOME/turnkeeper: a file there cannot hold it
    data = tmp_path / "data"
    data.write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.delenv("TURNKEEPER_DB", raising=False)
    for verb in (("campaigns",), ("status",), ("new", "keep", "-r", "ex", "--solo")):
        refused(shell, [data], *verb, words=(str(data / "turnkeeper"), "XDG_DATA_HOME", "--db"))
    assert _listing(tmp_path) == ["data"]


def test_a_folder_made_on_a_full_disk_is_said_so(
    tmp_path: Path, shell, monkeypatch: pytest.MonkeyPatch
) -> None:
    # making the store's folder is the first write a new store does; ENOSPC is a full disk
    def full(*_args: object, **_kwargs: object) -> None:
        raise OSError(28, os.strerror(28))

    monkeypatch.setattr(Path, "mkdir", full)
    line = refused(
        shell,
        [],
        "new",
        "keep",
        "-r",
        "ex",
        "--solo",
        "--db",
        str(tmp_path / "sub" / "tk.db"),
        words=(),
    )
    assert "no space is left" in line and "read-only" not in line, line


# -- a full disk, on a tiny file system of its own --------------------------------------------

_FULL_DISK = """
set -e
mount -t tmpfs -o size=16k tmpfs "$1"
dd if=/dev/zero of="$1/fill" bs=1k count=64 2>/dev/null || true
set +e
"$2" new keep -r ex --solo --db "$1/tk.db" 2>"$1.err"
echo "$?" > "$1.code"
ls -A "$1" > "$1.ls"
"""


def _unshare() -> str | None:
    """``unshare`` when it can give this user a mount of their own (no root), else None."""
    found = shutil.which("unshare")
    if found is None:
        return None
    probe = subprocess.run(
        [found, "-rm", "true"], capture_output=True, timeout=30, stdin=subprocess.DEVNULL
    )
    return found if probe.returncode == 0 else None


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    unshare = _unshare()
    if unshare is None:
        pytest.skip("needs `unshare -rm` (user namespaces) for a tmpfs of its own")
    yield tmp_path / "disk"


def test_new_on_a_full_disk_says_so_and_leaves_no_file(full_disk: Path) -> None:
    full_disk.mkdir()
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", _FULL_DISK, "sh", str(full_disk), TURNKEEPER],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    code = int(Path(f"{full_disk}.code").read_text())
    line = one_line(code, Path(f"{full_disk}.err").read_text(), "tk.db", "no space is left")
    assert "read-only" not in line, line
    assert Path(f"{full_disk}.ls").read_text().split() == ["fill"]


# -- serve: its host and port before any token ------------------------------------------------


def _tokens(db: str) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
        return sorted(conn.execute("SELECT campaign, role FROM tokens").fetchall())


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port something listens on, for as long as the test runs."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        yield int(listener.getsockname()[1])


def test_serve_on_a_busy_port_makes_no_token(db: str, busy_port: int) -> None:
    assert _tokens(db) == []
    before = digest(db)
    line = refused_apart(
        [db], "serve", "--port", str(busy_port), "--db", db, words=(str(busy_port), "--port")
    )
    assert "in use" in line, line
    assert _tokens(db) == [] and digest(db) == before


def test_serve_on_an_unknown_host_makes_no_token(db: str) -> None:
    host = "no-such-host.invalid"
    line = refused_apart([db], "serve", "--host", host, "--db", db, words=(host, "--host"))
    assert _tokens(db) == [], line
