"""How long each kind of turn lasts, in seconds, read from a ruleset's ``time`` section.

Rule IDs: TP-TIME-1 (round 10 s, turn 10 min, watch 4 h, day, month), EX-TIME-1 (10-minute
turns), PG-TIME-1 (1-minute rounds), DG-RND-1 and CB-RND-1 (6-second rounds; exploration
and social rounds of a length the table sets).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from turnkeeper.rules.schema import TimeScales

#: The time frames a clock can end, shortest first as the default texts have them. The
#: scheduler runs per-frame procedures at each frame's end (see ``boundaries``).
FRAMES: tuple[str, ...] = (
    "combat_round",
    "social_round",
    "exploration_round",
    "turn",
    "watch",
    "day",
    "month",
)

MINUTE = 60
HOUR = 60 * MINUTE


@dataclass(frozen=True, slots=True)
class Scales:
    """Seconds in each time frame of one ruleset.

    >>> Scales.of(TimeScales()).turn, Scales.of(TimeScales()).watch
    (600, 14400)
    """

    combat_round: int
    social_round: int
    exploration_round: int
    turn: int
    watch: int
    day: int
    month: int

    @classmethod
    def of(cls, time: TimeScales) -> Scales:
        """The scales a ruleset's ``time`` section sets."""
        global _last  # the one-entry memo below
        last = _last  # read once: another thread may replace it, never half of it
        if last is not None and last[0] is time:
            return last[1]
        scales = _scales_of(time)
        _last = (time, scales)
        return scales

    def seconds(self, frame: str) -> int:
        """The length of ``frame`` (one of :data:`FRAMES`) in seconds."""
        if frame not in FRAMES:
            raise ValueError(f"unknown time frame {frame!r}; expected one of {', '.join(FRAMES)}")
        value: int = getattr(self, frame)
        return value

    def ordered(self, frames: frozenset[str] | set[str] | tuple[str, ...]) -> tuple[str, ...]:
        """``frames`` shortest first (ties in :data:`FRAMES` order): the order they end in."""
        return tuple(sorted(frames, key=lambda f: (self.seconds(f), FRAMES.index(f))))


#: The section asked about last and its scales: a campaign asks about its own section over
#: and over, and an identity check is cheaper than hashing the section for the cache.
_last: tuple[TimeScales, Scales] | None = None


@lru_cache(maxsize=64)
def _scales_of(time: TimeScales) -> Scales:
    """The scales of ``time``, worked out once per section: a state asks for them at every
    event that counts turns (a delve, hundreds of times), and a section is frozen, so equal
    sections have equal scales."""
    day = time.day_hours * HOUR
    return Scales(
        combat_round=time.round_seconds,
        social_round=time.social_round_minutes * MINUTE,
        exploration_round=time.exploration_round_minutes * MINUTE,
        turn=time.turn_minutes * MINUTE,
        watch=time.watch_hours * HOUR,
        day=day,
        month=time.month_days * day,
    )
