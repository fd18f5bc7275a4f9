"""Durations as people write them: ``3h``, ``2d``, ``10m``, ``90s``, ``3 turns``, ``2 watches``.

Clock units (``s m h d w``) are fixed; game units (``round``, ``turn``, ``watch``, ``month``
and its haven, domain and faction turns, ``exploration round``, ``social round``) come from
the ruleset's ``time`` section, so ``1 round`` is 10 s under TP-TIME-1, 1 min under
PG-TIME-1 and 6 s under DG-RND-1/CB-RND-1.
:func:`format_duration` writes the canonical clock form, which :func:`parse_duration` reads
back to the same number of seconds.

A duration is at most :data:`MAX_DURATION` (100 years of 365 days), checked as it is read:
game time is kept in SQLite's 64-bit integers, and no referee waits out a century.
"""

from __future__ import annotations

import functools
import re

from turnkeeper.clock.scales import Scales
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.schema import TimeScales

_CLOCK_UNITS: dict[str, int] = {"w": 7 * 86400, "d": 86400, "h": 3600, "m": 60, "s": 1}
_CLOCK_WORDS: dict[str, str] = {
    "sec": "s", "secs": "s", "second": "s", "seconds": "s",
    "min": "m", "mins": "m", "minute": "m", "minutes": "m",
    "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
    "day": "d", "days": "d", "week": "w", "weeks": "w",
}  # fmt: skip
_GAME_WORDS: dict[str, str] = {
    "round": "combat_round", "rounds": "combat_round",
    "combat round": "combat_round", "combat rounds": "combat_round",
    "social round": "social_round", "social rounds": "social_round",
    "exploration round": "exploration_round", "exploration rounds": "exploration_round",
    "turn": "turn", "turns": "turn", "watch": "watch", "watches": "watch",
    "month": "month", "months": "month",
    # TP-TIME-1: "Haven/Domain Turn / Faction Turn: 1 month"
    "haven turn": "month", "haven turns": "month", "domain turn": "month",
    "domain turns": "month", "faction turn": "month", "faction turns": "month",
}  # fmt: skip
#: The longest duration a referee may give, in seconds: 100 years of 365 days.
MAX_DURATION = 100 * 365 * 86400
_LONGEST = "a duration is at most 100 years (36,500 days)"
# A number of more digits than this is past MAX_DURATION in any unit: refused unread.
_MOST_DIGITS = 12

# [0-9], not \d: \d takes any script's digits ("٣h" was read as 3 hours)
_PART = re.compile(r"\s*([0-9]+)\s*([a-z]+(?: rounds?| turns?)?)\s*,?", re.IGNORECASE)


def _unit_seconds(unit: str, time: TimeScales) -> int | None:
    unit = " ".join(unit.lower().split())
    if unit in _CLOCK_UNITS:
        return _CLOCK_UNITS[unit]
    if unit in _CLOCK_WORDS:
        return _CLOCK_UNITS[_CLOCK_WORDS[unit]]
    if unit in _GAME_WORDS:
        return Scales.of(time).seconds(_GAME_WORDS[unit])
    return None


def parse_duration(text: str, time: TimeScales | None = None) -> int:
    """Seconds in a duration such as ``1d2h``, ``90s`` or ``3 turns`` (game units per ``time``).

    >>> parse_duration("3h"), parse_duration("1d2h30m"), parse_duration("3 turns")
    (10800, 95400, 1800)
    >>> parse_duration("2 watches"), parse_duration("1 round", TimeScales(round_seconds=6))
    (28800, 6)
    """
    time = time or TimeScales()
    hint = "write it as 3h, 2d, 10m, 90s, 1d2h30m, 3 turns, 2 watches or 1 round"
    # A carriage return, a newline or another control character (a pasted "3h\r", a
    # right-to-left mark) is no part of a duration; refused, not stripped away unseen.
    hidden = next((char for char in text if char != " " and not char.isprintable()), None)
    if hidden is not None:
        raise TurnkeeperError(
            f"duration {_cut(text)!r} holds U+{ord(hidden):04X}, which is not printable: {hint}"
        )
    stripped = text.strip()
    if not stripped:
        raise TurnkeeperError(f"empty duration: {hint}")
    if len(stripped) > 100:
        raise TurnkeeperError(f"duration {_cut(text)!r} is too long to read: {hint}")
    total, position = 0, 0
    while position < len(stripped):
        match = _PART.match(stripped, position)
        if match is None:
            raise TurnkeeperError(
                f"cannot read duration {_cut(text)!r} at {_cut(stripped[position:])!r}: {hint}"
            )
        seconds = _unit_seconds(match[2], time)
        if seconds is None:
            raise TurnkeeperError(f"unknown unit {match[2]!r} in duration {_cut(text)!r}: {hint}")
        digits = match[1].lstrip("0")
        if len(digits) > _MOST_DIGITS:
            raise TurnkeeperError(f"duration {_cut(text)!r} is too long: {_LONGEST}")
        total += int(digits or "0") * seconds
        if total > MAX_DURATION:
            raise TurnkeeperError(f"duration {_cut(text)!r} is too long: {_LONGEST}")
        position = match.end()
    return total


def _cut(text: str) -> str:
    """A duration as the user gave it, cut short in a message if it is long."""
    return text if len(text) <= 40 else f"{text[:40]}..."


# A journal's durations repeat (a turn, a watch, a night): its lines are made a page, or a
# whole import, at a time.
@functools.lru_cache(maxsize=1024)
def format_duration(seconds: int) -> str:
    """The canonical text of a duration, largest clock unit first; reads back the same.

    >>> format_duration(95400), format_duration(0), format_duration(604800 + 90)
    ('1d2h30m', '0s', '1w1m30s')
    """
    if seconds < 0:
        raise TurnkeeperError(f"a duration cannot be negative, got {seconds} s")
    if seconds == 0:
        return "0s"
    parts = []
    for unit, size in _CLOCK_UNITS.items():
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count}{unit}")
    return "".join(parts)
