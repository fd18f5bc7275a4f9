"""Names and numbers a user gives: the one check of a name (of a campaign, a site, a
countdown, a map), of a whole number typed, and of a seed.

Names are at most :data:`MAX_NAME_LENGTH` characters of printable text (:func:`check_name`);
whole numbers are ASCII digits (:func:`digits`) and fit in 64 bits (:data:`MAX_INT`), so
nothing a user gives overflows SQLite or numpy later.
"""

from __future__ import annotations

import unicodedata

from turnkeeper.errors import TurnkeeperError

__all__ = [
    "MAX_INT",
    "MAX_NAME_LENGTH",
    "MAX_TEXT_LENGTH",
    "Error",
    "check_name",
    "check_number",
    "check_seed",
    "digits",
    "unprintable",
]

#: The longest name of a campaign, a site, a countdown or a map, in characters.
MAX_NAME_LENGTH = 200
#: The longest text a command carries (a note, a foe's stat lines), in characters.
MAX_TEXT_LENGTH = 10_000
#: Whole numbers in a file, and seeds, fit SQLite's and numpy's 64-bit integers.
MAX_INT = 2**63 - 1

#: The error type a caller gives a check, raised with its one line.
Error = type[TurnkeeperError]


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
