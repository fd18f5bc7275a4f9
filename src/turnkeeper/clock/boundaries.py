"""Where time frames end: the instants a wait must stop at to run per-frame procedures.

Every frame is aligned to the calendar (days end at midnight, turns at ten-minute marks
under EX-TIME-1), so a frame of length ``L`` ends at each game time ``t`` with
``(offset + t) % L == 0``, where ``offset`` is :func:`~turnkeeper.clock.calendar.start_offset`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from turnkeeper.clock.scales import Scales


@dataclass(frozen=True, slots=True)
class Boundary:
    """An instant at which one or more time frames end, listed shortest first."""

    at: int
    frames: tuple[str, ...]

    def ends(self, frame: str) -> bool:
        """True when ``frame`` ends at this instant."""
        return frame in self.frames


def next_boundary(
    after: int, until: int, frames: frozenset[str], scales: Scales, offset: int = 0
) -> Boundary | None:
    """The first instant in ``(after, until]`` where any of ``frames`` ends, or None.

    >>> scales = Scales(6, 60, 600, 600, 14400, 86400, 2592000)
    >>> next_boundary(0, 3600, frozenset({"turn", "combat_round"}), scales)
    Boundary(at=6, frames=('combat_round',))
    >>> next_boundary(595, 3600, frozenset({"turn", "combat_round"}), scales)
    Boundary(at=600, frames=('combat_round', 'turn'))
    """
    best: int | None = None
    ending: list[str] = []
    for frame in frames:
        length = scales.seconds(frame)
        at = ((offset + after) // length + 1) * length - offset
        if at > until:
            continue
        if best is None or at < best:
            best, ending = at, [frame]
        elif at == best:
            ending.append(frame)
    if best is None:
        return None
    return Boundary(best, scales.ordered(tuple(ending)))


def boundaries(
    start: int, end: int, frames: frozenset[str], scales: Scales, offset: int = 0
) -> Iterator[Boundary]:
    """Every instant in ``(start, end]`` where one of ``frames`` ends, in time order.

    >>> scales = Scales(10, 60, 600, 600, 14400, 86400, 2592000)
    >>> [b.at for b in boundaries(0, 1800, frozenset({"turn"}), scales)]
    [600, 1200, 1800]
    """
    at = start
    while (boundary := next_boundary(at, end, frames, scales, offset)) is not None:
        yield boundary
        at = boundary.at
