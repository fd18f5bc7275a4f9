"""The campaign calendar: year-month-day hour:minute from the ruleset's ``calendar_start``.

The calendar has 12 months of ``month_days`` days (30 by default, TP-TIME-1's month-long
haven turn). Game time is kept as seconds since the campaign's first moment (its epoch);
the calendar turns those into dates a referee reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from turnkeeper.errors import NotFoundError, RulesetError
from turnkeeper.rules.schema import TimeScales
from turnkeeper.rules.schema.time import CALENDAR_START as _START
from turnkeeper.rules.schema.time import MONTHS_A_YEAR


@dataclass(frozen=True, slots=True, order=True)
class Date:
    """A moment in the calendar, years, months and days counted from 1."""

    year: int
    month: int
    day: int
    hour: int
    minute: int
    second: int = 0

    def __str__(self) -> str:
        return f"{self.year}-{self.month:02d}-{self.day:02d} {self.hour:02d}:{self.minute:02d}"

    @property
    def day_text(self) -> str:
        """The date without the hour, a heading for the day."""
        return f"{self.year}-{self.month:02d}-{self.day:02d}"


def _day_seconds(time: TimeScales) -> int:
    return time.day_hours * 3600


@lru_cache(maxsize=64)  # every wait asks; the section is frozen, its start parsed once
def start_offset(time: TimeScales) -> int:
    """Seconds from the calendar's year 1 day 1 at 00:00 to the campaign's first moment.

    >>> start_offset(TimeScales())
    28800
    """
    match = _START.match(time.calendar_start)
    if match is None:
        raise RulesetError(
            f"time.calendar_start: expected year-month-day and hour such as 1-01-01T08:00, "
            f"got {time.calendar_start!r}"
        )
    year, month, day = int(match[1]), int(match[2]), int(match[3])
    hour, minute = int(match[4] or 0), int(match[5] or 0)
    if not (1 <= month <= MONTHS_A_YEAR and 1 <= day <= time.month_days and year >= 1):
        raise RulesetError(f"time.calendar_start: no such date {time.calendar_start!r}")
    days = ((year - 1) * MONTHS_A_YEAR + (month - 1)) * time.month_days + (day - 1)
    return days * _day_seconds(time) + hour * 3600 + minute * 60


def date_at(now: int, time: TimeScales) -> Date:
    """The calendar date ``now`` seconds after the campaign's start.

    >>> str(date_at(0, TimeScales())), str(date_at(16 * 3600 + 600, TimeScales()))
    ('1-01-01 08:00', '1-01-02 00:10')
    """
    absolute = start_offset(time) + now
    days, rest = divmod(absolute, _day_seconds(time))
    hour, rest = divmod(rest, 3600)
    minute, second = divmod(rest, 60)
    return Date(*_year_month_day(days, time), hour, minute, second)


def day_heading(days: int, time: TimeScales) -> str:
    """:attr:`Date.day_text` of the calendar's day ``days`` (year 1 day 1 is day 0), for a
    reader that walks the days itself (:func:`start_offset` gives the first moment's).

    >>> day_heading(start_offset(TimeScales()) // (24 * 3600) + 31, TimeScales())
    '1-02-02'
    """
    return Date(*_year_month_day(days, time), 0, 0).day_text


def _year_month_day(days: int, time: TimeScales) -> tuple[int, int, int]:
    months, day = divmod(days, time.month_days)
    years, month = divmod(months, MONTHS_A_YEAR)
    return years + 1, month + 1, day + 1


def calendar(now: int, time: TimeScales) -> str:
    """The date and time ``now`` seconds into the campaign, as a referee reads it.

    >>> calendar(3 * 3600, TimeScales())
    '1-01-01 11:00'
    """
    return str(date_at(now, time))


def day_number(now: int, time: TimeScales) -> int:
    """Which day of the campaign ``now`` falls in, the first day being 1 (days end at midnight).

    >>> day_number(0, TimeScales()), day_number(16 * 3600, TimeScales())
    (1, 2)
    """
    offset = start_offset(time)
    day = _day_seconds(time)
    return (offset + now) // day - offset // day + 1


def month_span(year: int, month: int, time: TimeScales) -> tuple[int, int]:
    """The game times a month of the calendar runs over: from its first moment (day 1 at
    midnight) to the first moment of the next, as seconds since the campaign's start (the
    campaign's first month begins before its start, at a negative time).

    >>> month_span(1, 2, TimeScales())
    (2563200, 5155200)
    """
    days = ((year - 1) * MONTHS_A_YEAR + (month - 1)) * time.month_days
    start = days * _day_seconds(time) - start_offset(time)
    return start, start + time.month_days * _day_seconds(time)


_MONTH = re.compile(r"\s*(?:(\d{1,6})-)?(\d{1,2})\s*")


def month_named(text: str, now: int, time: TimeScales) -> tuple[int, int]:
    """The month a referee names, as (year, month): ``3`` is month 3 of the year of ``now``,
    ``2-03`` month 3 of year 2 (as dates are written), and nothing the month of ``now``.
    A month that is not one is refused in one line that says what to type.

    >>> month_named("3", 0, TimeScales()), month_named("2-03", 0, TimeScales())
    ((1, 3), (2, 3))
    """
    present = date_at(now, time)
    if not text.strip():
        return present.year, present.month
    match = _MONTH.fullmatch(text)
    year = int(match[1]) if match is not None and match[1] is not None else present.year
    month = int(match[2]) if match is not None else 0
    if match is None or year < 1 or not 1 <= month <= MONTHS_A_YEAR:
        raise NotFoundError(
            f"no such month {text!r}: give a month of the calendar, 1 to {MONTHS_A_YEAR} "
            f"(of this year, {present.year}), or a year and a month as dates write them, "
            f"such as {present.year}-{present.month:02d}"
        )
    return year, month
