"""Reading what a user gives: the one defensive reader every loader goes through, the one
writer of a user's output files, and the one check of a name.

Party, site, map, ruleset and roster files and imported journals are all read here, so each
gets the same limits and the same kind of error (the loader's own error type, one line that
names the file):

- a file is at most :data:`MAX_FILE_BYTES` (a journal to import :data:`MAX_JOURNAL_BYTES`),
  checked before it is read whole;
- it is UTF-8 text; a byte that is not names its offset in the file;
- TOML and JSON nest at most :data:`MAX_DEPTH` arrays or tables deep, checked by a scan
  before the parser runs (the parsers recurse, and a 10,000-deep file would exhaust Python's
  stack) and on the parsed data (dotted TOML keys nest without brackets);
- numbers are finite (no ``nan`` or ``inf``) and whole numbers fit in 64 bits, so nothing a
  file says overflows SQLite or numpy later.

Names (of a campaign, a site, a countdown, a map) are at most :data:`MAX_NAME_LENGTH`
characters of printable text (:func:`check_name`).

>>> parse_toml('name = "Aldo"\\nhp = 6', "party.toml")
{'name': 'Aldo', 'hp': 6}
>>> parse_json("[" * 65 + "]" * 65, "deep.json")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
turnkeeper.errors.TurnkeeperError: deep.json: nests arrays or tables 65 deep; files nest at most...
"""

from __future__ import annotations

import json
import math
import os
import re
import tomllib
import unicodedata
from collections.abc import Iterator
from itertools import accumulate, count
from operator import sub
from pathlib import Path
from typing import Any

from turnkeeper.errors import NotFoundError, TurnkeeperError

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_INT",
    "MAX_JOURNAL_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_TEXT_LENGTH",
    "check_name",
    "check_seed",
    "check_writable",
    "decode",
    "parse_json",
    "parse_toml",
    "read_bytes",
    "read_text",
    "write_bytes",
    "write_text",
]

#: The largest party, site, map, ruleset or roster file: a 2,000 x 2,000 hex map's terrain
#: is about 4 MB of TOML.
MAX_FILE_BYTES = 16 * 1024 * 1024
#: The largest journal ``import`` reads: some 500,000 events.
MAX_JOURNAL_BYTES = 256 * 1024 * 1024
#: How deep arrays and tables may nest in a TOML or JSON file (the deepest shipped file nests 4).
MAX_DEPTH = 64
#: The longest name of a campaign, a site, a countdown or a map, in characters.
MAX_NAME_LENGTH = 200
#: The longest text a command carries (a note, a foe's stat lines), in characters.
MAX_TEXT_LENGTH = 10_000
#: Whole numbers in a file, and seeds, fit SQLite's and numpy's 64-bit integers.
MAX_INT = 2**63 - 1
_TOO_LARGE = f"a number is too large; whole numbers in a file are at most {MAX_INT:,}"

Error = type[TurnkeeperError]

# What the depth scan must step over: strings (a bracket in a name is not nesting) and TOML
# comments. An unclosed string runs to the end of its line or of the text, so every token is
# found in one pass without backtracking.
_TOML_TOKENS = re.compile(
    r'"""(?:\\.|[^\\])*?(?:"""|\Z)'
    r"|'''.*?(?:'''|\Z)"
    r'|"(?:\\.|[^"\\\n])*"?'
    r"|'[^'\n]*'?"
    r"|#[^\n]*"
    r"|[\[\]{}]+",
    re.DOTALL,
)
_JSON_TOKENS = re.compile(r'"(?:\\.|[^"\\])*"?|[\[\]{}]+', re.DOTALL)
# Openers step +1 and closers -1; as bytes 2 and 0, so a running sum less the count is the depth.
_STEPS = str.maketrans({"[": "\x02", "{": "\x02", "]": "\x00", "}": "\x00"})


def read_bytes(
    path: str | Path,
    what: str,
    error: Error = TurnkeeperError,
    missing: Error = NotFoundError,
    limit: int = MAX_FILE_BYTES,
) -> bytes:
    """The bytes of the ``what`` at ``path`` (e.g. "site file"), refused beyond ``limit``."""
    file = Path(path)
    try:
        with file.open("rb") as stream:
            data = stream.read(limit + 1)
    except FileNotFoundError:
        raise missing(f"{file}: cannot read the {what}: no such {what} at that path") from None
    except IsADirectoryError:
        raise error(f"{file}: is a folder, not a {what}") from None
    except OSError as failure:
        raise error(f"{file}: cannot read the {what} ({failure.strerror})") from None
    if len(data) > limit:
        raise error(
            f"{file}: the {what} is larger than {_size(limit)}; {what}s are at most {_size(limit)}"
        )
    return data


def decode(data: bytes, shown: str, error: Error = TurnkeeperError) -> str:
    """UTF-8 text (a leading byte-order mark dropped), or one error naming the bad byte's offset.

    >>> decode(b"name = 'Aldo'\\xff", "party.toml")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    turnkeeper.errors.TurnkeeperError: party.toml: not a text file: byte 13 (0xff) is not UTF-8...
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as failure:
        bad = data[failure.start]
        raise error(
            f"{shown}: not a text file: byte {failure.start} (0x{bad:02x}) is not UTF-8; "
            "save it as UTF-8 text"
        ) from None


def read_text(
    path: str | Path,
    what: str,
    error: Error = TurnkeeperError,
    missing: Error = NotFoundError,
    limit: int = MAX_FILE_BYTES,
) -> str:
    """The UTF-8 text of the ``what`` at ``path``: size limit, then decoding, each one error."""
    return decode(read_bytes(path, what, error, missing, limit), str(path), error)


def parse_toml(text: str, shown: str, error: Error = TurnkeeperError) -> dict[str, Any]:
    """TOML text as data, its nesting and numbers checked; a broken text is one ``error``."""
    _check_nesting(text, _TOML_TOKENS, shown, error)
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise _too_deep(shown, error, None) from None
    except ValueError as failure:
        # tomllib's message already ends "(at line L, column C)"
        raise _unreadable(shown, "TOML", failure, error) from None
    _check_values(data, shown, error)
    return data


def parse_json(text: str, shown: str, error: Error = TurnkeeperError) -> Any:
    """JSON text as data, its nesting and numbers checked; a broken text is one ``error``."""
    _check_nesting(text, _JSON_TOKENS, shown, error)
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise _too_deep(shown, error, None) from None
    except ValueError as failure:
        raise _unreadable(shown, "JSON", failure, error) from None
    _check_values(data, shown, error)
    return data


def _unreadable(shown: str, fmt: str, failure: ValueError, error: Error) -> TurnkeeperError:
    if "integer string conversion" in str(failure):
        # Python's own bound on a number's digits, met before ours: say ours
        return error(f"{shown}: {_TOO_LARGE}")
    return error(f"{shown}: not valid {fmt}: {failure}")


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a file may hold")


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB"


def _too_deep(shown: str, error: Error, depth: int | None) -> TurnkeeperError:
    deep = f" {depth} deep" if depth is not None else " too deep"
    return error(f"{shown}: nests arrays or tables{deep}; files nest at most {MAX_DEPTH} deep")


def _check_nesting(text: str, tokens: re.Pattern[str], shown: str, error: Error) -> None:
    brackets = "".join(match for match in tokens.findall(text) if match[0] in "[]{}").translate(
        _STEPS
    )
    steps = brackets.encode("latin-1")
    depth = max(map(sub, accumulate(steps), count(1)), default=0)
    if depth > MAX_DEPTH:
        raise _too_deep(shown, error, depth)


def _check_values(data: Any, shown: str, error: Error) -> None:
    """Depth, finite numbers and 64-bit whole numbers, walked without recursion."""
    for value, depth, where in _walk(data):
        if depth > MAX_DEPTH:
            raise _too_deep(shown, error, depth)
        if isinstance(value, float) and not math.isfinite(value):
            raise error(f"{shown}: {where}: {value} is not a number a file may hold")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
            raise error(f"{shown}: {where}: {_TOO_LARGE}")


def _walk(data: Any) -> Iterator[tuple[Any, int, str]]:
    stack: list[tuple[Any, int, str]] = [(data, 0, "(top level)")]
    while stack:
        value, depth, where = stack.pop()
        yield value, depth, where
        top = "" if depth == 0 else f"{where}."
        if isinstance(value, dict):
            stack += [(v, depth + 1, f"{top}{k}") for k, v in value.items()]
        elif isinstance(value, list):
            at = "" if depth == 0 else where
            stack += [(v, depth + 1, f"{at}[{i}]") for i, v in enumerate(value)]


def check_seed(seed: int, what: str = "--seed", error: Error = TurnkeeperError) -> int:
    """``seed`` if SQLite and numpy can keep it: a whole number from 0 to :data:`MAX_INT`.

    >>> check_seed(7)
    7
    >>> check_seed(-1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    turnkeeper.errors.TurnkeeperError: --seed -1: a seed is a whole number from 0 to 9,223,...
    """
    if not 0 <= seed <= MAX_INT:
        raise error(f"{what} {seed}: a seed is a whole number from 0 to {MAX_INT:,}")
    return seed


def check_name(name: str, what: str, error: Error = TurnkeeperError) -> str:
    """``name`` if it can name a ``what`` (e.g. "campaign name"): not empty, at most
    :data:`MAX_NAME_LENGTH` characters, no control characters (a new line, an escape).

    >>> check_name("Keep on the Borderlands", "campaign name")
    'Keep on the Borderlands'
    >>> check_name("x" * 201, "campaign name")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    turnkeeper.errors.TurnkeeperError: campaign name 'xxxx...' is 201 characters long; ...
    """
    if not name.strip():
        raise error(f"the {what} is empty: give a name of at least one letter")
    if len(name) > MAX_NAME_LENGTH:
        raise error(
            f"{what} {name[:4] + '...'!r} is {len(name):,} characters long; "
            f"names are at most {MAX_NAME_LENGTH} characters"
        )
    control = next((c for c in name if unicodedata.category(c) in ("Cc", "Cs")), None)
    if control is not None:
        raise error(
            f"{what} {name!r} holds a control character ({ord(control):#04x}); "
            "names are printable text"
        )
    return name


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


def write_text(path: str | Path, text: str, what: str, error: Error = TurnkeeperError) -> None:
    """Write a user's output file (UTF-8); a place that cannot take it is one ``error``."""
    write_bytes(path, text.encode("utf-8"), what, error)


def write_bytes(path: str | Path, data: bytes, what: str, error: Error = TurnkeeperError) -> None:
    """Write a user's output file; a place that cannot take it is one ``error``.

    A file is written beside itself and then moved into place, so a full disk or Ctrl-C
    leaves the old file (or none), never half a file. What is not a plain file (a
    terminal, a pipe such as /dev/stdout) is written straight through.
    """
    check_writable(path, what, error)
    file = Path(path)
    if file.exists() and not file.is_file():
        target, partial = file, None
    else:
        target = partial = file.with_name(f".{file.name}.{os.getpid()}.partial")
    try:
        try:
            target.write_bytes(data)
            if partial is not None:
                os.replace(partial, file)
        finally:
            if partial is not None:
                partial.unlink(missing_ok=True)
    except OSError as failure:
        raise error(f"{path}: cannot write the {what} ({failure.strerror})") from None
