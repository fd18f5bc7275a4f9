"""Hostile names and files (issue 22, "What to build" 4): names are printable text on every
path in, nothing a user typed reaches the terminal as an escape sequence, unknown keys in
every file kind are refused with the near name, and every documented limit is checked on
every path in.

Each refusal goes through the console script's own path (``cli.app.invoke``, in process):
exit 2, one line on stderr that says what is wrong, no traceback, and the store's bytes
hashed before and after.
"""

from __future__ import annotations

import hashlib
from importlib.resources import files
from pathlib import Path

import pytest

PARTY = str(files("turnkeeper.examples") / "party.toml")
SITE = str(files("turnkeeper.examples") / "site.toml")
FOES = str(files("turnkeeper.examples") / "foes.toml")
ESCAPE = "Ab\x1b]0;pwned\x07bey"  # retitles an xterm: OSC 0 ... BEL


@pytest.fixture
def db(tmp_path: Path, shell) -> str:
    """A store holding one campaign, ``keep``, under ex with the example party."""
    path = str(tmp_path / "tk.db")
    assert shell("new", "keep", "-r", "ex", "--party", PARTY, "--seed", "3", "--db", path).code == 0
    return path


def digest(db: str) -> str:
    """The store's bytes (and its write-ahead log's, if any), hashed."""
    hashed = hashlib.sha256()
    for part in (Path(db), Path(f"{db}-wal")):
        if part.exists():
            hashed.update(part.read_bytes())
    return hashed.hexdigest()


def refused(shell, db: str | None, *args: str) -> str:
    """Run a command line that must be refused: exit 2, one line on stderr, no traceback, and
    the store byte for byte as it was. Returns the line."""
    before = digest(db) if db else None
    said = shell(*args, *(["--db", db] if db else []))
    assert said.code == 2, (said.code, said.out, said.err)
    lines = said.err.strip("\n").splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), said.err
    assert "Traceback" not in said.err and "internal error" not in said.err
    if db:
        assert digest(db) == before
    return lines[0]


# --- names: printable text on every path in --------------------------------------------------


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("keep\u200b", "U+200B"),  # sits beside keep and looks the same
        ("k\u202eeep", "U+202E"),  # a right-to-left override reorders what is shown
    ],
)
def test_a_campaign_name_that_is_not_printable_text_is_refused(
    shell, db: str, name: str, what: str
) -> None:
    line = refused(shell, db, "new", name, "-r", "ex", "--party", PARTY)
    assert what in line


# --- what reaches the terminal ---------------------------------------------------------------


def test_a_note_with_an_escape_is_shown_without_it(shell, db: str) -> None:
    said = shell("note", "the door \x1b[31mreddens\x1b[0m\x9b2J", "--db", db)
    assert said.code == 0, said.err
    shown = shell("log", "--db", db)
    assert "the door [31mreddens[0m2J" in shown.out
    assert "\x1b" not in shown.out and "\x9b" not in shown.out


def test_no_verb_at_all_is_one_line_on_stderr(shell) -> None:
    line = refused(shell, None)
    assert "no verb given" in line and "turnkeeper --help" in line
    assert "no verb given" in refused(shell, None, "site")


def test_a_path_holding_a_new_line_is_refused_on_one_line(tmp_path: Path, shell, db: str) -> None:
    line = refused(shell, db, "site", "enter", str(tmp_path / "two\nlines.toml"))
    assert "two\\nlines.toml" in line
