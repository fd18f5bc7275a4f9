"""Game time: scales per ruleset, the calendar, durations, frame boundaries, countdowns."""

from turnkeeper.clock.boundaries import Boundary, boundaries, next_boundary
from turnkeeper.clock.calendar import Date, calendar, date_at, day_number, start_offset
from turnkeeper.clock.durations import format_duration, parse_duration
from turnkeeper.clock.scales import FRAMES, Scales

__all__ = [
    "FRAMES",
    "Boundary",
    "Date",
    "Scales",
    "boundaries",
    "calendar",
    "date_at",
    "day_number",
    "format_duration",
    "next_boundary",
    "parse_duration",
    "start_offset",
]
