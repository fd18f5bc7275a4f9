"""Hostile files (issue 22): no user file is ever the victim, nothing hangs, every input is one
line.

Each case runs the console script's own path and asserts exit 2, one ``error:`` line on stderr
that names what is wrong, no traceback, and that the store and every input file are byte for
byte what they were (hashed before and after). What could hang (a FIFO, a quadratic parse)
runs as a subprocess with a timeout that only catches a hang, never measures speed.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from contextlib import closing, suppress
from pathlib import Path

import pytest
from tests.integration.hostile.refusals import FOES, HANG, PARTY, refused, refused_apart

from turnkeeper.files.reading import MAX_PARTY_BYTES


@pytest.fixture
def fifo(tmp_path: Path) -> Iterator[Path]:
    """A FIFO, opened from the other end after a while if nothing else does: a command that
    opens it waits only that long, then reads nothing (or writes into the void)."""
    path = tmp_path / "pipe.toml"
    os.mkfifo(path)

    def wake() -> None:
        # read and write at once: this frees a reader and a writer waiting on the FIFO
        end = os.open(path, os.O_RDWR | os.O_NONBLOCK)
        with suppress(BlockingIOError):
            while os.read(end, 65536):
                pass
        os.close(end)

    timer = threading.Timer(HANG / 6, wake)
    timer.start()
    yield path
    timer.cancel()
    timer.join()


# -- regular files only ---------------------------------------------------------------------


def _map(tmp_path: Path, shell) -> Path:
    path = tmp_path / "wild.toml"
    said = shell("map", "new", "--width", "4", "--height", "4", "--seed", "1", "--out", str(path))
    assert said.code == 0, said.err
    return path


@pytest.mark.parametrize(
    ("kind", "args"),
    [
        ("party", ("new", "other", "-r", "ex", "--party", "{fifo}", "--db", "{db}")),
        ("site", ("site", "enter", "{fifo}", "--db", "{db}")),
        ("map", ("map", "check", "{fifo}")),
        ("ruleset", ("rules", "check", "{fifo}")),
        ("foes", ("combat", "start", "--foes", "{fifo}", "--db", "{db}")),
        ("journal", ("import", "{fifo}", "--db", "{db}")),
        ("known", ("map", "show", "--map", "{map}", "--known", "{fifo}", "--out", "{out}")),
        ("out", ("export", "--out", "{fifo}", "--db", "{db}")),
    ],
)
def test_a_fifo_is_refused_at_once_never_opened(
    tmp_path: Path, shell, db: str, fifo: Path, kind: str, args: tuple[str, ...]
) -> None:
    wild = _map(tmp_path, shell)
    given = {"fifo": str(fifo), "map": str(wild), "out": str(tmp_path / "known.svg"), "db": db}
    args = tuple(a.format(**given) for a in args)
    line = refused(shell, [db, wild], *args, words=("pipe.toml", "FIFO"))
    assert "regular file" in line
    assert not (tmp_path / "known.svg").exists()


def test_a_device_or_a_socket_is_refused(tmp_path: Path, shell, db: str) -> None:
    refused(shell, [db], "rules", "check", "/dev/zero", words=("/dev/zero", "a device"))
    refused(shell, [db], "export", "--out", "/dev/null", "--db", db, words=("/dev/null", "device"))
    place = tmp_path / "s.toml"
    with closing(socket.socket(socket.AF_UNIX)) as listening:
        listening.bind(str(place))
        refused(shell, [db], "map", "check", str(place), words=("a socket",))


def test_a_symlink_loop_is_one_line(tmp_path: Path, shell, db: str) -> None:
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    line = refused(shell, [db], "rules", "check", str(tmp_path / "a.toml"), words=("a.toml",))
    assert "loop" in line
    refused(
        shell,
        [db],
        "new",
        "x",
        "-r",
        str(tmp_path / "a.toml"),
        "--solo",
        "--db",
        db,
        words=("loop",),
    )


def test_a_path_too_long_for_the_system_is_one_line(tmp_path: Path, shell, db: str) -> None:
    long = str(tmp_path / ("x" * 5000))
    for args in (
        ("combat", "start", "--foes", f"{long}.toml", "--db", db),
        ("rules", "check", f"{long}.toml"),
    ):
        line = refused(shell, [db], *args, words=("longer than this system allows",))
        assert len(line) < 400  # the path is shortened, not printed whole


# -- parsing costs what the file is long ------------------------------------------------------


def test_a_toml_file_of_escaped_triple_quotes_is_refused_at_once(tmp_path: Path, db: str) -> None:
    # an unclosed """ ending in a backslash made the depth scan start again at every quote
    hostile = tmp_path / "quotes.toml"
    hostile.write_text('\\"""\n' * 40_000 + "\\", encoding="utf-8")
    child = tmp_path / "child.toml"
    child.write_text('extends = "quotes.toml"\n', encoding="utf-8")
    watched = [db, hostile, child]
    refused_apart(watched, "rules", "check", str(hostile), words=("quotes.toml", "not valid TOML"))
    refused_apart(watched, "rules", "check", str(child), words=("quotes.toml", "not valid TOML"))
    refused_apart(
        watched, "new", "q", "-r", "ex", "--party", str(hostile), "--db", db, words=("quotes.toml",)
    )


def test_a_party_of_many_characters_is_refused_by_its_size(tmp_path: Path, db: str) -> None:
    party = tmp_path / "crowd.toml"
    one = '[[characters]]\nname = "c{}"\nhp = 1\n'
    with party.open("w", encoding="utf-8") as out:
        size, index = 0, 0
        while size <= MAX_PARTY_BYTES * 4:
            size += out.write(one.format(index))
            index += 1
    line = refused_apart([db, party], "new", "crowd", "-r", "ex", "--party", str(party), "--db", db)
    assert "crowd.toml" in line and "party files are at most 1 MiB" in line


def test_many_characters_within_the_limit_are_checked_in_linear_time() -> None:
    # a count per name was quadratic; a party as large as may be, with one double, is found
    # at once (a party of 20,000 is refused by its count, before its names: test_scale)
    from turnkeeper.kernel.party import MAX_CHARACTERS, PartyFileError, parse_party

    crowd = "".join(f'[[characters]]\nname = "c{i}"\nhp = 1\n' for i in range(MAX_CHARACTERS - 1))
    with pytest.raises(PartyFileError, match="share the name 'c7'"):
        parse_party(crowd + '[[characters]]\nname = "c7"\nhp = 1\n', "crowd.toml")


# -- no user file is the victim of an output ---------------------------------------------------


def test_an_output_onto_the_store_or_its_companions_is_refused(tmp_path: Path, shell, db) -> None:
    for target in (db, f"{db}-wal", f"{db}-journal"):
        line = refused(shell, [db], "export", "--out", target, "--db", db, "--force")
        assert "the campaign store" in line or "a file of the campaign store" in line
    line = refused(shell, [db], "export", "-o", db, "--db", db, words=("is the campaign store",))
    # through a symbolic link, the same
    (tmp_path / "innocent.jsonl").symlink_to(db)
    refused(shell, [db], "export", "-o", str(tmp_path / "innocent.jsonl"), "--db", db, "--force")


def test_an_output_onto_an_input_file_is_refused(tmp_path: Path, shell, db: str) -> None:
    wild = _map(tmp_path, shell)
    known = tmp_path / "known.json"
    known.write_text('{"known": ["0101"]}', encoding="utf-8")
    watched = [db, wild, known]
    args = ("map", "show", "--map", str(wild), "--known", str(known), "--force", "--out")
    refused(shell, watched, *args, str(wild), words=("is the map file",))
    refused(shell, watched, *args, str(known), words=("is the knowledge file",))
    party = tmp_path / "party.svg"
    party.write_bytes(Path(PARTY).read_bytes())
    refused(
        shell,
        [*watched, party],
        *("simulate", "fight", "--party", str(party), "--foes", FOES, "--runs", "10"),
        *("--plot", str(party), "--force"),
        words=("is the party file",),
    )


def test_an_existing_file_is_replaced_only_with_force(tmp_path: Path, shell, db: str) -> None:
    wild = _map(tmp_path, shell)
    before = wild.read_bytes()
    refused(
        shell,
        [db, wild],
        *("map", "new", "--width", "5", "--height", "5", "--seed", "2", "--out", str(wild)),
        words=("already exists", "--force"),
    )
    said = shell(
        *("map", "new", "--width", "5", "--height", "5", "--seed", "2", "--out", str(wild)),
        "--force",
    )
    assert said.code == 0, said.err
    assert wild.read_bytes() != before
    assert [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []


def test_an_output_path_too_long_is_one_line(tmp_path: Path, shell, db: str) -> None:
    long = str(tmp_path / ("x" * 5000))
    refused(shell, [db], "export", "--out", f"{long}.jsonl", "--db", db, words=("longer than",))
