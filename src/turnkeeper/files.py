"""Reading what a user gives: the one defensive reader every loader goes through, the one
writer of a user's output files, and the one check of a name.

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

import errno
import json
import math
import os
import re
import stat
import tempfile
import tomllib
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from difflib import get_close_matches
from itertools import accumulate, count
from operator import sub
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from turnkeeper.errors import NotFoundError, TurnkeeperError

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_INT",
    "MAX_JOURNAL_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_PARTY_BYTES",
    "MAX_TEXT_LENGTH",
    "check_name",
    "check_number",
    "check_numbers",
    "check_output",
    "check_path_length",
    "check_seed",
    "check_writable",
    "decode",
    "digits",
    "keys_at",
    "parse_json",
    "parse_toml",
    "read_bytes",
    "read_text",
    "real_path",
    "unknown_key",
    "unprintable",
    "write_bytes",
    "write_text",
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
        _must_be_regular(file, what, error)
        handle = os.open(file, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(handle, "rb") as stream:
            _must_be_regular(file, what, error, os.fstat(handle).st_mode)
            data = stream.read(limit + 1)
    except FileNotFoundError:
        raise missing(
            f"{_shown(file)}: cannot read the {what}: no such {what} at that path"
            + _examples_hint(file)
        ) from None
    except OSError as failure:
        raise error(f"{_shown(file)}: cannot read the {what}{_because(failure)}") from None
    if len(data) > limit:
        raise error(
            f"{_shown(file)}: the {what} is larger than {_size(limit)}; "
            f"{what}s are at most {_size(limit)}"
        )
    return data


#: The example files that ship inside the package (``turnkeeper.examples``), which the
#: documentation reads as ``examples/NAME`` and ``turnkeeper examples [FOLDER]`` copies.
EXAMPLES = ("party.toml", "site.toml", "fighters.toml", "foes.toml", "newcomers.toml")


def _examples_hint(file: Path) -> str:
    """For a missing ``examples/party.toml`` (any folder named examples): how to get it.

    >>> _examples_hint(Path("examples/party.toml"))
    '; `turnkeeper examples` copies the example files that ship with turnkeeper into ./examples'
    >>> _examples_hint(Path("party.toml"))
    ''
    """
    if file.name not in EXAMPLES or file.parent.name != "examples":
        return ""
    folder = "" if file.parent == Path("examples") else f" {_shown(file.parent)}"
    return (
        f"; `turnkeeper examples{folder}` copies the example files that ship with turnkeeper "
        f"into {_shown(file.parent) if folder else './examples'}"
    )


# What a path names when it is not a regular file, by its stat mode's test.
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (a named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
)


def _must_be_regular(file: Path, what: str, error: Error, mode: int | None = None) -> None:
    """Refuse what is not a regular file; ``mode`` is an open file's (else the path's, its
    symbolic links followed; a path that is not there passes, for the caller to say so)."""
    if mode is None:
        try:
            mode = os.stat(file).st_mode
        except FileNotFoundError:
            return
    kind = next((name for test, name in _KINDS if test(mode)), None)
    if kind is not None:
        raise error(f"{_shown(file)}: is {kind}, not a {what}; give a regular file")


def _because(failure: OSError) -> str:
    """Why the system refused a path, said plainly (two errors a user meets are named)."""
    if failure.errno == errno.ELOOP:
        return ": its symbolic links go round in a loop"
    if failure.errno == errno.ENAMETOOLONG:
        return ": the path is longer than this system allows"
    return f" ({failure.strerror})"


#: The longest path an error shows in whole; a longer one is shortened in the middle.
_SHOWN_PATH = 120


def _shown(file: str | Path) -> str:
    """A path as an error shows it: a path of thousands of characters is shortened."""
    text = str(file)
    if len(text) <= _SHOWN_PATH:
        return text
    half = _SHOWN_PATH // 2
    return f"{text[:half]}...{text[-half:]} ({len(text):,} characters)"


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
        elif isinstance(value, list):
            at = "" if depth == 0 else where
            stack += [(v, depth + 1, f"{at}[{i}]") for i, v in enumerate(value)]


def digits(text: str) -> bool:
    """Whether ``text`` is a whole number written as a user types one: ASCII digits 0 to 9,
    at least one. Python's own tests take more: ``str.isdigit`` takes ``²``, which ``int``
    then refuses (an internal error), and ``int`` (like ``\\d``) reads ``٣``, an Arabic-Indic
    three, as 3. Every number a user types is read through this (or ``[0-9]``).

    >>> digits("12"), digits("\u00b2"), digits("\u0663"), digits(""), digits("-1")
    (True, False, False, False, False)
    """
    return text.isascii() and text.isdigit()


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


def check_number(number: int, what: str, error: Error = TurnkeeperError) -> int:
    """``number`` if a journal can keep it: at most :data:`MAX_INT` in size, either way.
    Every whole number a user gives goes through here (the CLI's options, a command's).

    >>> check_number(-7, "--adjust")
    -7
    >>> check_number(2**64, "--adjust")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    turnkeeper.errors.TurnkeeperError: --adjust 18446744073709551616: a number is at most 9,...
    """
    if abs(number) > MAX_INT:
        raise error(
            f"{what} {number}: a number is at most {MAX_INT:,} (2^63 - 1) in size; "
            "give a smaller one"
        )
    return number


def check_name(name: str, what: str, error: Error = TurnkeeperError) -> str:
    """``name`` if it can name a ``what`` (e.g. "campaign name"): not empty, at most
    :data:`MAX_NAME_LENGTH` characters of printable text (:func:`unprintable`: no new line,
    escape, zero-width character or direction mark).

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
    hidden = unprintable(name)
    if hidden is not None:
        raise error(
            f"{what} {name!r} holds {hidden}; names are printable text: type the name without it"
        )
    return name


# What a name may not hold, by Unicode category: controls (Cc: a new line, an escape that
# would drive the referee's terminal), format characters (Cf: zero-width spaces and joiners,
# direction marks that reorder what is shown, so two names that look alike differ), lone
# surrogates (Cs, as a shell passes undecodable bytes), private-use and unassigned code
# points (Co, Cn), line and paragraph separators (Zl, Zp), and spaces other than the plain
# one (Zs: a no-break space looks like a space but is not one).
_UNPRINTABLE = {
    "Cc": "a control character",
    "Cf": "an invisible format character (zero-width or a direction mark)",
    "Cs": "a lone surrogate (not a character)",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
    "Zs": "a space other than the plain space",
}


def unprintable(name: str) -> str | None:
    """What in ``name`` is not printable text (and at which code point), or None if nothing.

    >>> unprintable("keep\u200b")
    'an invisible format character (zero-width or a direction mark), U+200B'
    >>> unprintable("Keep on the Borderlands") is None
    True
    """
    if name.isprintable():  # the common case, at C speed; it treats exactly these as unprintable
        return None
    for char in name:
        kind = _UNPRINTABLE.get(unicodedata.category(char))
        if kind is not None and char != " ":
            return f"{kind}, U+{ord(char):04X}"
    return None


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
            f"{_shown(path)}: cannot use the {what}: the path is longer than this system "
            "allows; give a shorter one"
        )


def real_path(path: str | Path) -> Path:
    """``path`` made absolute with its symbolic links followed; it never fails: a loop or a
    path too long is left as it stands, for the reader to name (:func:`read_bytes`)."""
    return Path(os.path.realpath(path))


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
        raise error(f"{_shown(file)}: cannot write the {what}{_because(failure)}") from None
    for kept, name in keep:
        if _same_file(file, Path(kept)):
            raise error(
                f"{_shown(file)}: is {name}; the {what} would overwrite it: give another file"
            )
    if mode is not None:
        _must_be_regular(file, what, error, mode)
        if not force:
            raise error(
                f"{_shown(file)}: already exists; give --force to replace it with the {what}"
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
    _must_be_regular(file, what, error)
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
        raise error(f"{_shown(path)}: cannot write the {what}{_because(failure)}") from None


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


_Found = TypeVar("_Found", bound=Mapping[str, Any])


def first_error(errors: Sequence[_Found]) -> _Found:
    """Of the errors a schema found in a file, the one a person should read first: an
    unknown key before any other, since a key spelt wrong also leaves the key it meant
    missing (``hitpoints = 5`` is the cause of "hp: Field required", not its echo).

    >>> first_error([{"type": "missing", "loc": ("hp",)},
    ...              {"type": "extra_forbidden", "loc": ("hitpoints",)}])["loc"]
    ('hitpoints',)
    """
    return next((found for found in errors if found["type"] == "extra_forbidden"), errors[0])


#: Keys written out in full (or as other games write them) for the short keys files use: no
#: spelling is near enough for a close match ("hitpoints" and "hp" share two letters).
_SAID_OTHERWISE = {
    "hitpoints": "hp",
    "hit_points": "hp",
    "max_hitpoints": "max_hp",
    "max_hit_points": "max_hp",
    "armour": "ac",
    "armor": "ac",
    "armour_class": "ac",
    "armor_class": "ac",
    "gold": "coins",
    "money": "coins",
    "lvl": "level",
}


def unknown_key(key: object, known: Iterable[str]) -> str:
    """What to say of a key a file may not hold: the near name if there is one, else the
    keys it may hold there. The one wording of every file kind's unknown key.

    >>> unknown_key("coinz", ["coins", "class", "hp"])
    "unknown key 'coinz'; did you mean 'coins'?"
    >>> unknown_key("hitpoints", ["ac", "hp", "name"])
    "unknown key 'hitpoints'; did you mean 'hp'?"
    >>> unknown_key("zz", ["hp", "ac"])
    "unknown key 'zz'; the keys here are ac, hp"
    """
    keys = sorted(set(known))
    near = get_close_matches(str(key), keys, n=1)
    meant = _SAID_OTHERWISE.get(str(key).lower().replace("-", "_").replace(" ", "_"))
    if meant in keys:
        near = [meant]
    if near:
        return f"unknown key {str(key)!r}; did you mean {near[0]!r}?"
    listed = ", ".join(keys[:12]) + (f" (and {len(keys) - 12} more)" if len(keys) > 12 else "")
    return f"unknown key {str(key)!r}; " + (
        f"the keys here are {listed}" if keys else "no keys here"
    )


def keys_at(model: Any, loc: Iterable[int | str]) -> list[str]:
    """The keys a file may hold in the table at ``loc`` of pydantic ``model`` (its fields,
    by the alias a file writes), for :func:`unknown_key`; [] where that is not a table.

    ``loc`` is a pydantic error's location less its last part (the unknown key): keys, list
    indexes, and the name of a union's member where pydantic names it (``SiteTable[Row]``).
    """
    current: list[Any] = [model]
    for part in loc:
        inner: list[Any] = []
        for kind in _members(current):
            fields = getattr(kind, "model_fields", None)
            if isinstance(part, str) and getattr(kind, "__name__", None) == part:
                inner.append(kind)  # a union's member, named by pydantic
            elif fields is not None and isinstance(part, str):
                field = fields.get(part) or next(
                    (f for f in fields.values() if f.alias == part), None
                )
                inner += [field.annotation] if field is not None else []
            elif fields is None:
                # a list's or a tuple's item (tuple[X, ...]), a mapping's value
                args = [arg for arg in get_args(kind) if arg is not Ellipsis]
                inner += args[-1:]
        current = inner
    found = [kind for kind in _members(current) if hasattr(kind, "model_fields")]
    return sorted({f.alias or name for kind in found for name, f in kind.model_fields.items()})


def _members(kinds: list[Any]) -> list[Any]:
    """Types with Optional, unions and Annotated unwrapped."""
    out: list[Any] = []
    stack = list(kinds)
    while stack:
        kind = stack.pop()
        origin = get_origin(kind)
        if origin is Union or origin is UnionType or origin is Annotated:
            stack += get_args(kind)[:1] if origin is Annotated else get_args(kind)
        elif kind is not type(None):
            out.append(kind)
    return out
