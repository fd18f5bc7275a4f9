"""Reading what a user gives: the one defensive reader every loader goes through.

Party, site, map, ruleset and roster files and imported journals are all read here, so each
gets the same limits and the same kind of error (the loader's own error type, one line that
names the file):

- a file is a regular file (not a FIFO, a device or a socket), at most
  :data:`MAX_FILE_BYTES` (a party :data:`MAX_PARTY_BYTES`, a journal to import
  :data:`MAX_JOURNAL_BYTES`), checked before it is read whole;
- it is UTF-8 text; a byte that is not names its offset in the file;
- TOML and JSON nest at most :data:`MAX_DEPTH` arrays or tables deep, checked by a scan
  before the parser runs (the parsers recurse, and a 10,000-deep file would exhaust Python's
  stack) and on the parsed data (dotted TOML keys nest without brackets);
- numbers are finite (no ``nan`` or ``inf``) and whole numbers fit in 64 bits
  (:data:`~turnkeeper.files.names.MAX_INT`), so nothing a file says overflows SQLite or
  numpy later.

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
from collections.abc import Iterator
from itertools import accumulate, count
from operator import sub
from pathlib import Path
from typing import Any

from turnkeeper.errors import NotFoundError, TurnkeeperError
from turnkeeper.files.names import MAX_INT, Error
from turnkeeper.files.paths import because, must_be_regular, shown_path

__all__ = [
    "EXAMPLES",
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_JOURNAL_BYTES",
    "MAX_PARTY_BYTES",
    "check_numbers",
    "decode",
    "parse_json",
    "parse_toml",
    "read_bytes",
    "read_text",
]

#: The largest party, site, map, ruleset or roster file: a 2,000 x 2,000 hex map's terrain
#: is about 4 MB of TOML.
MAX_FILE_BYTES = 16 * 1024 * 1024
#: The largest party file: some 20,000 characters, far beyond any table. TOML is parsed at
#: about a MiB a second, so a 16 MiB party (hundreds of thousands of characters) would take
#: a quarter of a minute before its first error; a map's terrain needs the 16 MiB, a party not.
MAX_PARTY_BYTES = 1024 * 1024
#: The largest journal ``import`` reads: some 500,000 events.
MAX_JOURNAL_BYTES = 256 * 1024 * 1024
#: How deep arrays and tables may nest in a TOML or JSON file (the deepest shipped file nests 4).
MAX_DEPTH = 64
_TOO_LARGE = f"a number is too large; whole numbers in a file are at most {MAX_INT:,}"

# What the depth scan must step over: strings (a bracket in a name is not nesting) and TOML
# comments. An unclosed string runs to the end of its line or of the text, so every token is
# found in one pass without backtracking. Each token's pattern must match once it has begun:
# one that fails at the end of the text (an unclosed """ ending in a backslash, which escapes
# nothing) is tried again from every later quote, and 20,000 lines of \""" cost minutes.
_TOML_TOKENS = re.compile(
    r'"""(?:\\.|[^\\])*?(?:"""|\\?\Z)'
    r"|'''.*?(?:'''|\Z)"
    r'|"(?:\\.|[^"\\\n])*"?'
    r"|'[^'\n]*'?"
    r"|#[^\n]*"
    r"|[\[\]{}]+",
    re.DOTALL,
)
# A JSON string, written unrolled (a run of plain characters between escapes) so the engine
# steps over it in one loop rather than a branch per character; unclosed, to the text's end.
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.DOTALL)
# A text's brackets as steps (openers +1, closers -1) written as bytes 2 and 0, so that a
# running sum less the count is the depth; every other byte is dropped.
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
_STEP_BYTES = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")


def read_bytes(
    path: str | Path,
    what: str,
    error: Error = TurnkeeperError,
    missing: Error = NotFoundError,
    limit: int = MAX_FILE_BYTES,
) -> bytes:
    """The bytes of the ``what`` at ``path`` (e.g. "site file"), refused beyond ``limit``.

    Only a regular file is read: a FIFO, a device or a socket is refused before it is
    opened (opening a FIFO waits for a writer, reading a device may never end), and the
    file is opened without waiting and checked again, in case it was swapped meanwhile.
    """
    file = Path(path)
    try:
        must_be_regular(file, what, error)
        handle = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(handle, "rb") as stream:
            must_be_regular(file, what, error, os.fstat(handle).st_mode)
            data = stream.read(limit + 1)
    except FileNotFoundError:
        raise missing(
            f"{shown_path(file)}: cannot read the {what}: no such {what} at that path"
            + _examples_hint(file)
        ) from None
    except OSError as failure:
        raise error(f"{shown_path(file)}: cannot read the {what}{because(failure)}") from None
    if len(data) > limit:
        raise error(
            f"{shown_path(file)}: the {what} is larger than {_size(limit)}; "
            f"{what}s are at most {_size(limit)}"
        )
    return data


#: The example files that ship inside the package (``turnkeeper.examples``), which the
#: documentation reads as ``examples/NAME`` and ``turnkeeper examples [FOLDER]`` copies.
EXAMPLES = (
    "party.toml",
    "site.toml",
    "fighters.toml",
    "foes.toml",
    "newcomers.toml",
    "factions.toml",
)


def _examples_hint(file: Path) -> str:
    """For a missing ``examples/party.toml`` (any folder named examples): how to get it.

    >>> _examples_hint(Path("examples/party.toml"))
    '; `turnkeeper examples` copies the example files that ship with turnkeeper into ./examples'
    >>> _examples_hint(Path("party.toml"))
    ''
    """
    if file.name not in EXAMPLES or file.parent.name != "examples":
        return ""
    folder = "" if file.parent == Path("examples") else f" {shown_path(file.parent)}"
    return (
        f"; `turnkeeper examples{folder}` copies the example files that ship with turnkeeper "
        f"into {shown_path(file.parent) if folder else './examples'}"
    )


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
    _check_toml_nesting(text, shown, error)
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
    r"""JSON text as data, its nesting and numbers checked; a broken text is one ``error``.

    Brackets in strings are no nesting, an escaped quote ends no string:

    >>> parse_json('{"a": "[[[\\"]]]"}', "x.json")
    {'a': '[[["]]]'}
    >>> parse_json('["\\"]]", ' + "[" * 64 + "]" * 64 + "]", "x.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    turnkeeper.errors.TurnkeeperError: x.json: nests arrays or tables 65 deep; files nest at ...
    """
    _check_json_nesting(text, shown, error)
    # The parser flags the numbers that may be out of bounds as it reads them (a whole number
    # of 19 characters or more, a real that overflowed); only then is the data walked, for
    # the place to name. Walking every value costs about five times the parse (an import).
    suspects: list[object] = []

    def whole(digits: str) -> int:
        if len(digits) > _SAFE_DIGITS:
            suspects.append(digits)
        return int(digits)

    def real(digits: str) -> float:
        value = float(digits)
        if not math.isfinite(value):
            suspects.append(digits)
        return value

    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=whole, parse_float=real)
    except RecursionError:
        raise _too_deep(shown, error, None) from None
    except ValueError as failure:
        raise _unreadable(shown, "JSON", failure, error) from None
    if suspects:
        _check_values(data, shown, error)
    return data


def check_numbers(
    text: str | bytes, shown: str, error: Error = TurnkeeperError, *, reals: bool = True
) -> None:
    """What :func:`parse_json` checks of a JSON text's numbers, for a text another parser
    reads (pydantic's, straight into records), without making its data.

    The numbers are screened: only a text that may hold one out of bounds (a run of 19
    digits or more, an exponent of three digits or more, NaN or Infinity, in a string or
    not) is parsed to find it, which is what makes this cheaper than the parse. A text that
    is no JSON at all passes: its parser says so. The text may come as UTF-8 (what a parser
    reads is often bytes: not encoded again here). ``reals=False`` for a text whose real
    numbers are known finite, as in pydantic-core's writing (which writes NaN and the
    infinities as null): only its runs of digits are looked for, a fifth of the time.

    >>> check_numbers('{"hp": 8, "name": "Infinity"}', "x.json")  # a screened word, parsed
    >>> check_numbers('{"hp": 1e999}', "x.json")
    Traceback (most recent call last):
    turnkeeper.errors.TurnkeeperError: x.json: hp: inf is not a number a file may hold
    >>> check_numbers('{"gold": 12345678901234567890}', "x.json", reals=False)
    Traceback (most recent call last):
    turnkeeper.errors.TurnkeeperError: x.json: gold: a number is too large; ...
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    signs = _MAYBE_OUT_OF_BOUNDS if reals else _MAYBE_OUT_OF_BOUNDS[:1]
    screened = raw.translate(_DIGITS_AS_ZERO)
    if any(sign in screened for sign in signs):
        parse_json(raw.decode("utf-8", "surrogatepass"), shown, error)


def _check_json_nesting(text: str, shown: str, error: Error) -> None:
    # the strings gone at once (a bracket in a name is not nesting), then the brackets counted
    # as bytes: a third of a token scan's time over a long file, mostly strings
    structure = _JSON_STRING.sub("", text).encode("utf-8", "surrogatepass")
    _check_depth(structure.translate(_STEP_BYTES, _NOT_BRACKETS), shown, error)


_SAFE_DIGITS = len(str(MAX_INT)) - 1
"""A whole number written in this many characters or fewer (a sign counts) is within
:data:`MAX_INT` either way."""

_DIGITS_AS_ZERO = bytes.maketrans(b"123456789E", b"000000000e")
_MAYBE_OUT_OF_BOUNDS = (b"0" * (_SAFE_DIGITS + 1), b"e000", b"e+000", b"NaN", b"Infinity")
"""What a JSON text holding a number out of bounds must hold, once every digit is written 0
and every exponent's E is lower case: a whole number beyond :data:`MAX_INT` has 19 digits
or more, a real that overflows has as many or an exponent of three digits (1e309)."""


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


def _check_toml_nesting(text: str, shown: str, error: Error) -> None:
    tokens = _TOML_TOKENS.findall(text)
    brackets = "".join(match for match in tokens if match[0] in "[]{}").encode("ascii")
    _check_depth(brackets.translate(_STEP_BYTES, _NOT_BRACKETS), shown, error)


def _check_depth(steps: bytes, shown: str, error: Error) -> None:
    """Refuse a text whose brackets, as steps (2 an opener, 0 a closer), nest too deep."""
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
