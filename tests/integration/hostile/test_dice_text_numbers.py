"""Hostile dice, durations, numbers and text (issue 22, "What to build" 3, 4 and 5): the dice
grammar refuses what d20 refuses, a duration or dice holding a control character is refused,
every number a user gives is within 64 bits, every text survives the store and the terminal.

Each refusal goes through the console script's own path (``cli.app.invoke``, in process):
exit 2, one line on stderr naming what is wrong, no traceback, and the store's bytes hashed
before and after. What needs the process's own environment (an ASCII terminal, undecodable
bytes in argv) runs the installed console script in a subprocess.
"""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest
from tests.integration.hostile.refusals import TURNKEEPER, digest, refused_in

from turnkeeper.files.names import MAX_INT

HUGE = str(10**20)
LIMIT = f"{MAX_INT:,}"


# --- dice: what d20 refuses ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "says"),
    [
        ("2d", "column 2"),  # d20 starts dice at the "d": not a comment
        ("2d+", "column 2"),
        ("1d-6", "column 2"),
        ("4d6kh-1", "column 4"),
        ("2d6+", "ends too soon"),
        ("d20+", "ends too soon"),
        ("3d6 x", "ends too soon"),
        ("1d20\a", "U+0007 at column 5 is not printable"),
        ("1d20\n+1", "U+000A at column 5 is not printable"),
        ("1d20 \u202eto hit", "U+202E at column 6 is not printable"),
    ],
)
def test_dice_d20_refuses_are_refused_in_one_line(shell, expression: str, says: str) -> None:
    assert says in refused_in(shell, None, "roll", expression)


@pytest.mark.parametrize(
    ("expression", "comment"),
    [("1d20 **bold**", "**bold**"), ("1d20 I rolled a d20", "I rolled a d20")],
)
def test_dice_comments_d20_reads_roll(shell, expression: str, comment: str) -> None:
    said = shell("roll", expression, "--seed", "1")
    assert (said.code, said.err) == (0, "")
    assert said.out.startswith(f"{comment}: 1d20 (")


# --- durations ---------------------------------------------------------------------------------


@pytest.mark.parametrize("duration", ["3h\r", "3h\n", "3\th", "3h\u202e"])
def test_a_duration_with_a_control_character_is_refused(shell, db: str, duration: str) -> None:
    assert "which is not printable" in refused_in(shell, db, "wait", duration)


# --- numbers: within 64 bits -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (("damage", "Aldo", HUGE), "amount"),
        (("heal", "Aldo", HUGE), "amount"),
        (("damage", "Aldo", "1" * 5000), "5,000 digits"),  # past what int() reads
        (("supply", "add", "rations", "-n", HUGE), "--amount"),
        (("supply", "use", "rations", "-n", HUGE), "--amount"),
        (("combat", "round", "--adjust", HUGE), "--adjust"),
        (("combat", "round", "--adjust", f"-{HUGE}"), "--adjust"),
        (("combat", "check", "Aldo", "str", "--defence", HUGE), "--defence"),
    ],
)
def test_a_number_beyond_64_bits_is_refused(shell, db: str, args: tuple[str, ...], names: str):
    line = refused_in(shell, db, *args)
    assert names in line and LIMIT in line and "smaller" in line


def test_magic_dice_beyond_64_bits_is_refused(shell, db: str) -> None:
    args = ("combat", "declare", "Aldo", "cast", "--magic-dice", HUGE)
    line = refused_in(shell, db, *args)
    assert "--magic-dice" in line and LIMIT in line


@pytest.mark.parametrize("seed", ["-1", str(10**30), str(MAX_INT + 1)])
def test_a_seed_is_from_0_to_64_bits(shell, seed: str) -> None:
    line = refused_in(shell, None, "roll", "d20", "--seed", seed)
    assert "--seed" in line and f"from 0 to {LIMIT}" in line
    assert shell("roll", "d20", "--seed", str(MAX_INT)).code == 0


def test_a_number_over_http_is_refused_by_the_command_table(db: str) -> None:
    """The HTTP API builds the same commands, and the command table bounds their numbers:
    one place for every front door."""
    from pydantic import TypeAdapter

    from turnkeeper.errors import TurnkeeperError
    from turnkeeper.service import Campaigns
    from turnkeeper.store import open_store
    from turnkeeper.verbs import CommandBody

    campaigns = Campaigns(open_store(db))
    state = campaigns.state("keep")
    before = digest(db)
    for fields in [
        {"verb": "supply_add", "item": "rations", "amount": HUGE},
        {"verb": "damage", "target": "Aldo", "amount": HUGE},
    ]:
        body = TypeAdapter(CommandBody).validate_python(fields)
        with pytest.raises(TurnkeeperError, match=LIMIT):
            campaigns.execute("keep", body.command(state))
    assert digest(db) == before


# --- text: UTF-8 in, never a failure out ------------------------------------------------------


def console_script(
    *args: str | bytes, env: dict[str, str] | None = None, **run: Any
) -> subprocess.CompletedProcess[bytes]:
    """The installed console script in a process of its own, with ``env`` added."""
    return subprocess.run(
        [TURNKEEPER, *args], capture_output=True, env={**os.environ, **(env or {})}, **run
    )


def one_error_line(done: subprocess.CompletedProcess[bytes]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    lines = done.stderr.decode().strip("\n").splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


@pytest.mark.parametrize(
    "args",
    [
        ("note", "caf\udcff"),
        ("damage", "Aldo", "1", "--reason", "\udcfe"),
        ("supply", "add", "rat\udcffions", "-n", "1"),
        ("scene", "act", "Bea", "shoots \udcff"),
        ("site", "map", "note", "\udcff"),
    ],
)
def test_text_that_is_not_utf8_is_refused_at_the_edge(shell, db: str, args: tuple[str, ...]):
    """A shell passes undecodable bytes as lone surrogates: one line naming the byte."""
    line = refused_in(shell, db, *args)
    assert "is not UTF-8 text (byte 0x" in line and "give it in UTF-8" in line


def test_undecodable_bytes_from_the_shell_are_refused(db: str) -> None:
    before = digest(db)
    line = one_error_line(console_script("note", b"caf\xff", "--db", db))
    assert "argument 2 is not UTF-8 text (byte 0xff at character 4)" in line
    assert digest(db) == before


@pytest.mark.parametrize(
    "env", [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0"}]
)
def test_an_ascii_terminal_gets_what_it_can_show(db: str, env: dict[str, str]) -> None:
    """Characters the terminal cannot show are replaced, in output and errors; JSON is
    escaped, so it stays whole."""
    rolled = console_script("roll", "1d20 caf\u00e9 \u2603", "--seed", "1", env=env)
    assert rolled.returncode == 0, rolled.stderr
    assert rolled.stdout.decode("ascii").startswith("caf? ?: 1d20 (")
    as_json = console_script("roll", "1d20 caf\u00e9", "--seed", "1", "--json", env=env)
    assert json.loads(as_json.stdout.decode("ascii"))["comment"] == "caf\u00e9"
    assert console_script("note", "caf\u00e9 \u2603", "--db", db, env=env).returncode == 0
    logged = console_script("log", "--db", db, env=env)
    assert logged.returncode == 0, logged.stderr
    assert "caf? ?" in logged.stdout.decode("ascii")
    before = digest(db)
    assert "caf?" in one_error_line(console_script("use", "caf\u00e9", "--db", db, env=env))
    assert digest(db) == before


def test_play_reads_a_script_from_its_input(shell, db: str) -> None:
    # play's own process reads its input; the log it left is read in this one
    played = console_script("play", "keep", "--db", db, input=b'note "from a script"\n')
    assert (played.returncode, played.stderr) == (0, b"")
    assert "from a script" in shell("log", "--db", db).out


def test_play_with_no_input_says_so(db: str) -> None:
    before = digest(db)
    line = one_error_line(
        console_script(
            "play",
            "keep",
            "--db",
            db,
            stdin=subprocess.DEVNULL,
            pass_fds=(),
            preexec_fn=lambda: os.close(0),
        )
    )
    assert "play has no input to read" in line and "turnkeeper play < session.txt" in line
    assert digest(db) == before
