"""Nothing a user typed reaches a terminal as an escape sequence (issue 22), also where the
CLI writes past its console: an export or a log shown on a terminal drops (Markdown) or
escapes (JSON Lines) the controls a note holds; into a pipe it is the journal as stored."""

from __future__ import annotations

import os
import pty
import subprocess
from pathlib import Path

import pytest
from tests.integration.conftest import Shell
from tests.integration.hostile.refusals import PARTY, TURNKEEPER

NOTE = "the door\x1b]0;pwned\x07 creaks\x9b31m"


def _on_a_terminal(*args: str) -> bytes:
    """What ``turnkeeper ARGS`` writes to a terminal (a pseudo-terminal) as its output."""
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [TURNKEEPER, *args], stdout=follower, stderr=subprocess.PIPE, timeout=120, check=False
        )
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed: all was read
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0, done.stderr
    return shown


@pytest.mark.skipif(not Path(TURNKEEPER).exists(), reason="the console script is not installed")
def test_an_export_on_a_terminal_carries_no_control_a_note_held(
    tmp_path: Path, shell: Shell
) -> None:
    # The campaign and its note are made in this process (the console script's own path);
    # the processes are spent where a terminal or a pipe is what is tested.
    db = str(tmp_path / "tk.db")
    made = shell("new", "keep", "-r", "ex", "--party", PARTY, "--db", db)
    assert made.code == 0, made.err
    noted = shell("note", NOTE, "--db", db)
    assert noted.code == 0, noted.err
    markdown = _on_a_terminal("export", "--format", "markdown", "--db", db)
    assert b"the door]0;pwned creaks31m" in markdown and b"\x1b" not in markdown
    lines = _on_a_terminal("export", "--db", db)
    assert b"\x1b" not in lines and "\x9b".encode() not in lines and b"\\u009b" in lines
    piped = subprocess.run(
        [TURNKEEPER, "export", "--db", db], capture_output=True, timeout=120, check=False
    )
    assert "\x9b".encode() in piped.stdout  # into a pipe: the journal as stored
