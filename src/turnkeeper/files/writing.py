"""Writing a user's output files: the one writer (never half a file, never through a link
planted beside it) and the checks that refuse an output before the work that fills it.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.names import Error
from turnkeeper.files.paths import because, must_be_regular, shown_path

__all__ = ["check_output", "check_writable", "write_bytes", "write_text"]


def _same_file(one: Path, other: Path) -> bool:
    """True when ``one`` and ``other`` are one file: the same inode (a hard link, a symbolic
    link), or the same real path for a file not made yet (a store's -wal file, say)."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return os.path.realpath(one) == os.path.realpath(other)


def check_output(
    path: str | Path,
    what: str,
    *,
    force: bool = False,
    keep: Iterable[tuple[str | Path, str]] = (),
    error: Error = TurnkeeperError,
) -> None:
    """Refuse an output file before the work that fills it starts: one that is among
    ``keep`` (``(path, what it is)``: the campaign store and its companion files, the
    command's own input files), one that is not a regular file (a FIFO, a device), one that
    exists unless ``force``, and one that cannot be written (:func:`check_writable`)."""
    file = Path(path)
    try:
        mode = os.stat(file).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as failure:
        raise error(f"{shown_path(file)}: cannot write the {what}{because(failure)}") from None
    for kept, name in keep:
        if _same_file(file, Path(kept)):
            raise error(
                f"{shown_path(file)}: is {name}; the {what} would overwrite it: give another file"
            )
    if mode is not None:
        must_be_regular(file, what, error, mode)
        if not force:
            raise error(
                f"{shown_path(file)}: already exists; give --force to replace it with the {what}"
            )
    check_writable(file, what, error)


def check_writable(path: str | Path, what: str, error: Error = TurnkeeperError) -> None:
    """Refuse an output file that cannot be written, before the work that fills it starts."""
    file = Path(path)
    folder = file.parent
    if file.is_dir():
        raise error(f"{file}: is a folder; give a file name for the {what}")
    if not folder.is_dir():
        raise error(f"{file}: no folder {str(folder)!r} to write the {what} in; make it first")
    if not os.access(folder, os.W_OK) or (file.exists() and not os.access(file, os.W_OK)):
        raise error(f"{file}: not allowed to write the {what} here; choose another place")


def write_text(
    path: str | Path, text: str | Iterable[str], what: str, error: Error = TurnkeeperError
) -> None:
    """Write a user's output file (UTF-8), from one text or its pieces in order; a place that
    cannot take it is one ``error``."""
    if isinstance(text, str):
        write_bytes(path, text.encode("utf-8"), what, error)
    else:
        write_bytes(path, (piece.encode("utf-8") for piece in text), what, error)


def write_bytes(
    path: str | Path, data: bytes | Iterable[bytes], what: str, error: Error = TurnkeeperError
) -> None:
    """Write a user's output file, from its bytes or its pieces in order (an export streamed a
    page at a time, never whole in memory); a place that cannot take it is one ``error``.

    A file is written beside itself and then moved into place, so a full disk, Ctrl-C or an
    error while the pieces are made leaves the old file (or none), never half a file. Only a
    regular file is written: a FIFO would hold the command until something reads it, and a
    device is no place for it.

    The file beside it is made new (``tempfile.mkstemp``: created exclusively, never through
    a symbolic link, its name random), so no one can plant a link at a name guessed before
    and have the output written over the link's target; it gets the mode a new file would
    have (the user's umask), not mkstemp's owner-only one.
    """
    check_writable(path, what, error)
    file = Path(path)
    must_be_regular(file, what, error)
    try:
        handle, name = tempfile.mkstemp(prefix=f".{file.name}.", suffix=".partial", dir=file.parent)
        partial = Path(name)
        try:
            with os.fdopen(handle, "wb") as stream:
                os.fchmod(handle, 0o666 & ~_umask())
                if isinstance(data, bytes):
                    stream.write(data)
                else:
                    for piece in data:
                        stream.write(piece)
            os.replace(partial, file)
        finally:
            partial.unlink(missing_ok=True)
    except OSError as failure:
        raise error(f"{shown_path(path)}: cannot write the {what}{because(failure)}") from None


def _umask() -> int:
    """This process's umask, read without changing it where the system says it (Linux's
    /proc): setting it to read it would touch the files another thread makes meanwhile."""
    try:
        status = Path("/proc/self/status").read_text(encoding="ascii", errors="replace")
    except OSError:
        status = ""
    found = re.search(r"^Umask:\s*([0-7]+)$", status, re.MULTILINE)
    if found is not None:
        return int(found.group(1), 8)
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
