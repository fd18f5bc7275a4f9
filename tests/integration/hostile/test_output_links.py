"""Output files cannot be redirected (issue 38): a symbolic link planted beside the target, at
any name the writer could make there, never has the output written through it.

Every verb that writes a file wrote ``.NAME.<pid>.partial`` beside the target and then moved
it into place; a link planted at that name had the output written over the link's target (a
read-only file of the user's: the superuser writes it all the same), and the target became a
link to it. Links are planted here at that old name and at every name the writer's source of
random names will offer first (the test fixes those names, which no one else can), each
pointing at a read-only decoy: the decoy stays as it was, the links stay links, and the
output is a regular file of its own.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

#: The names the writer's random source offers first, here fixed so links can wait at them.
GUESSED = tuple(f"guess{i}" for i in range(6))


@pytest.fixture
def guessed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The temporary files' random names made known: the guessed ones first, then random."""
    random = tempfile._get_candidate_names()  # type: ignore[attr-defined]

    def names() -> Iterator[str]:
        yield from GUESSED
        yield from random

    monkeypatch.setattr(tempfile, "_get_candidate_names", names)


def _plant(out: Path, decoy: Path) -> list[Path]:
    """Links to ``decoy`` at every name the writer of ``out`` could use beside it."""
    names = [f".{out.name}.{os.getpid()}.partial"]  # the old, predictable one
    names += [f".{out.name}.{guess}.partial" for guess in GUESSED]
    links = [out.with_name(name) for name in names]
    for link in links:
        link.symlink_to(decoy)
    return links


def _new_map(tmp_path: Path) -> tuple[str, ...]:
    return (
        *("map", "new", "--width", "4", "--height", "4", "--seed", "1"),
        *("--out", str(tmp_path / "wild.toml")),
    )


def _verbs(tmp_path: Path, db: str) -> dict[str, tuple[Path, tuple[str, ...]]]:
    wild = tmp_path / "wild.toml"
    return {
        "export": (tmp_path / "out.jsonl", ("export", "--db", db, "--out")),
        "map new": (wild, _new_map(tmp_path)[:-1]),
        "map show": (tmp_path / "wild.svg", ("map", "show", "--map", str(wild), "--out")),
        "examples": (tmp_path / "ex" / "party.toml", ("examples", str(tmp_path / "ex"))),
    }


@pytest.mark.parametrize("verb", ["export", "map new", "map show", "examples"])
def test_a_link_planted_beside_an_output_is_never_written_through(
    tmp_path: Path, shell, db: str, guessed: None, verb: str
) -> None:
    decoy = tmp_path / "decoy.txt"
    decoy.write_text("the user's own file\n", encoding="utf-8")
    decoy.chmod(0o444)
    if verb != "map new":  # the map that map show draws
        made = shell(*_new_map(tmp_path))
        assert made.code == 0, made.err
    out, args = _verbs(tmp_path, db)[verb]
    out.parent.mkdir(exist_ok=True)
    links = _plant(out, decoy)
    said = shell(*args) if verb == "examples" else shell(*args, str(out))
    assert said.code == 0, said.err
    assert decoy.read_text(encoding="utf-8") == "the user's own file\n"
    assert stat.S_IMODE(decoy.stat().st_mode) == 0o444
    assert not out.is_symlink() and out.is_file() and out.stat().st_ino != decoy.stat().st_ino
    assert out.read_bytes() and b"the user's own file" not in out.read_bytes()
    assert all(link.is_symlink() and link.resolve() == decoy for link in links)
    # written as a new file is (the umask's mode), not mkstemp's owner-only one
    mask = os.umask(0o022)
    os.umask(mask)
    assert stat.S_IMODE(out.stat().st_mode) == 0o666 & ~mask
