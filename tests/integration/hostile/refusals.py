"""The one way the hostile suite asserts a refusal: exit 2, one ``error:`` line on stderr that
names what is wrong, no traceback, and every file it watches byte for byte as it was."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from importlib.resources import files
from pathlib import Path

PARTY = str(files("turnkeeper.examples") / "party.toml")
SITE = str(files("turnkeeper.examples") / "site.toml")
FOES = str(files("turnkeeper.examples") / "foes.toml")
TURNKEEPER = str(Path(sys.executable).with_name("turnkeeper"))
#: Long enough for a loaded machine to start Python and give up; a hang (a FIFO opened for
#: reading, a server that started) runs far past it. A hang guard, never a speed claim.
HANG = 60


def digest(*paths: str | Path) -> dict[str, str | None]:
    """Each path's SHA-256 (None when absent), with a SQLite store's companion files."""
    out: dict[str, str | None] = {}
    for path in paths:
        for name in (str(path), *(f"{path}{s}" for s in ("-wal", "-shm", "-journal"))):
            file = Path(name)
            out[name] = hashlib.sha256(file.read_bytes()).hexdigest() if file.is_file() else None
    return out


def one_line(code: int, err: str, *words: str) -> str:
    """Assert a refusal: exit 2, one ``error:`` line naming ``words``, no traceback."""
    assert code == 2, (code, err)
    lines = err.strip("\n").splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "internal error" not in err and "Traceback" not in err
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def refused(shell, watched: list[str | Path], *args: str, words: tuple[str, ...] = ()) -> str:
    """Run a command line in process that must be refused; every watched file unchanged."""
    before = digest(*watched)
    said = shell(*args)
    line = one_line(said.code, said.err, *words)
    assert digest(*watched) == before
    return line


def refused_in(shell, db: str | None, *args: str) -> str:
    """:func:`refused` against the store ``db`` (given as ``--db``), which stays unchanged."""
    return refused(shell, [db] if db else [], *args, *(["--db", db] if db else []))


def refused_apart(watched: list[str | Path], *args: str, words: tuple[str, ...] = ()) -> str:
    """The same through the installed console script, in its own process, with a timeout
    that catches a hang."""
    before = digest(*watched)
    done = subprocess.run(
        [TURNKEEPER, *args], capture_output=True, text=True, timeout=HANG, stdin=subprocess.DEVNULL
    )
    line = one_line(done.returncode, done.stderr, *words)
    assert digest(*watched) == before
    return line
