"""Paths as the readers and the writer of a user's files take them: how an error shows one,
why the system refused one, what it names when it is not a regular file, and whether the
system can take it at all.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.names import Error

__all__ = ["because", "check_path_length", "must_be_regular", "real_path", "shown_path"]

# What a path names when it is not a regular file, by its stat mode's test.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (a named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def must_be_regular(file: Path, what: str, error: Error, mode: int | None = None) -> None:
    """Refuse what is not a regular file; ``mode`` is an open file's (else the path's, its
    symbolic links followed; a path that is not there passes, for the caller to say so)."""
    if mode is None:
        try:
            mode = os.stat(file).st_mode
        except FileNotFoundError:
            return
    kind = next((name for test, name in _KINDS if test(mode)), None)
    if kind is not None:
        raise error(f"{shown_path(file)}: is {kind}, not a {what}; give a regular file")


def because(failure: OSError) -> str:
    """Why the system refused a path, said plainly (two errors a user meets are named)."""
    if failure.errno == errno.ELOOP:
        return ": its symbolic links go round in a loop"
    if failure.errno == errno.ENAMETOOLONG:
        return ": the path is longer than this system allows"
    return f" ({failure.strerror})"


#: The longest path an error shows in whole; a longer one is shortened in the middle.
_SHOWN_PATH = 120


def shown_path(file: str | Path) -> str:
    """A path as an error shows it: a path of thousands of characters is shortened."""
    text = str(file)
    if len(text) <= _SHOWN_PATH:
        return text
    half = _SHOWN_PATH // 2
    return f"{text[:half]}...{text[-half:]} ({len(text):,} characters)"


def check_path_length(path: str | Path, what: str, error: Error = TurnkeeperError) -> None:
    """Refuse a path the system cannot take, a name in it or the whole too long, before
    anything is made along it: the system itself says so only when it reaches the long name,
    after the folders before it were made.

    >>> check_path_length("/tmp/" + "a" * 300, "campaign store")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    turnkeeper.errors.TurnkeeperError: /tmp/aaa...aaa (305 characters): cannot use the ...
    """
    file = Path(os.path.abspath(path))
    anchor = next((folder for folder in file.parents if os.path.isdir(folder)), Path("/"))
    try:
        longest_name = os.pathconf(anchor, "PC_NAME_MAX")
        longest_path = os.pathconf(anchor, "PC_PATH_MAX")  # counting the closing NUL
    except (OSError, ValueError):  # a system that does not say: the POSIX ones Linux has
        longest_name, longest_path = 255, 4096
    if len(os.fsencode(file)) >= longest_path or any(
        len(os.fsencode(name)) > longest_name for name in file.parts
    ):
        raise error(
            f"{shown_path(path)}: cannot use the {what}: the path is longer than this system "
            "allows; give a shorter one"
        )


def real_path(path: str | Path) -> Path:
    """``path`` made absolute with its symbolic links followed; it never fails: a loop or a
    path too long is left as it stands, for the reader to name (:func:`read_bytes`)."""
    return Path(os.path.realpath(path))
