"""Hex coordinates of the wilderness map: axial ``(q, r)``, flat-topped hexes.

A party is always *in* a hex (TP-WIL-6); these are the hexes. Directions are the six
sides of a flat-topped hex: n, ne, se, s, sw, nw. Printed hex maps label hexes by
column and row ("0304" = column 03, row 04); :meth:`Hex.from_label` and :attr:`Hex.label`
convert, using the "odd-q" layout (odd columns sit half a hex lower), 0-based.

>>> h = Hex.parse("3,-1")
>>> str(h), h.label, Hex.from_label(h.label) == h
('3,-1', '0300', True)
>>> h.neighbour(Direction.S)
Hex(q=3, r=0)
>>> Hex(0, 0).distance(Hex(3, -1))
3
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.names import digits


class Direction(Enum):
    """The six sides of a flat-topped hex, with their axial step."""

    N = "n"
    NE = "ne"
    SE = "se"
    S = "s"
    SW = "sw"
    NW = "nw"

    @property
    def step(self) -> tuple[int, int]:
        """The axial (dq, dr) of one hex in this direction."""
        return _STEPS[self]


_STEPS: dict[Direction, tuple[int, int]] = {
    Direction.N: (0, -1),
    Direction.NE: (1, -1),
    Direction.SE: (1, 0),
    Direction.S: (0, 1),
    Direction.SW: (-1, 1),
    Direction.NW: (-1, 0),
}

# [0-9], not \d: \d takes any script's digits, which int() reads as ASCII ones
_AXIAL = re.compile(r"^\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*$")


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """One hex of the map in axial coordinates; frozen and hashable."""

    q: int
    r: int

    @classmethod
    def parse(cls, text: str) -> Hex:
        """Read ``"q,r"`` (axial) or a printed-map label such as ``"0304"``.

        >>> Hex.parse("-2, 5"), Hex.parse("0304")
        (Hex(q=-2, r=5), Hex(q=3, r=3))
        """
        match = _AXIAL.match(text)
        if match:
            return cls(int(match.group(1)), int(match.group(2)))
        if digits(text.strip()):
            return cls.from_label(text.strip())
        raise TurnkeeperError(
            f"{text!r} is not a hex: write axial 'q,r' (e.g. '3,-1') or a map label like '0304'"
        )

    def __str__(self) -> str:
        return f"{self.q},{self.r}"

    @classmethod
    def from_offset(cls, col: int, row: int) -> Hex:
        """The hex at printed-map column ``col`` and row ``row`` (odd-q, 0-based)."""
        return cls(col, row - (col - (col & 1)) // 2)

    @property
    def col(self) -> int:
        """Printed-map column (0-based)."""
        return self.q

    @property
    def row(self) -> int:
        """Printed-map row (0-based, odd-q layout)."""
        return self.r + (self.q - (self.q & 1)) // 2

    @classmethod
    def from_label(cls, label: str) -> Hex:
        """Read a printed-map label: column digits then row digits, same width ("0304").

        >>> Hex.from_label("0304").label, Hex.from_label("120034")
        ('0304', Hex(q=120, r=-26))
        """
        text = label.strip()
        if not digits(text) or len(text) < 4 or len(text) % 2:
            raise TurnkeeperError(
                f"{label!r} is not a map label: write column then row digits, e.g. '0304'"
            )
        half = len(text) // 2
        return cls.from_offset(int(text[:half]), int(text[half:]))

    @property
    def label(self) -> str:
        """The printed-map label, column then row, each at least two digits."""
        col, row = self.col, self.row
        if col < 0 or row < 0:
            raise TurnkeeperError(f"hex {self} lies off the printed map and has no label")
        width = max(2, len(str(col)), len(str(row)))
        return f"{col:0{width}d}{row:0{width}d}"

    @property
    def s(self) -> int:
        """The third cube coordinate (q + r + s == 0)."""
        return -self.q - self.r

    def neighbour(self, direction: Direction) -> Hex:
        """The adjacent hex on side ``direction``."""
        dq, dr = direction.step
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in the order n, ne, se, s, sw, nw."""
        return tuple(self.neighbour(d) for d in Direction)

    def distance(self, other: Hex) -> int:
        """How many hexes apart two hexes are (one hex per step)."""
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def line_to(self, other: Hex) -> tuple[Hex, ...]:
        """The hexes a straight line from here to ``other`` passes, both ends included.

        Used for line of sight to landmarks (TP-DISC-1). A tiny nudge breaks ties on hex
        edges the same way every time, so the line is deterministic.

        >>> [str(h) for h in Hex(0, 0).line_to(Hex(2, 0))]
        ['0,0', '1,0', '2,0']
        """
        n = self.distance(other)
        if n == 0:
            return (self,)
        aq, ar, as_ = self.q + 1e-6, self.r + 1e-6, self.s - 2e-6
        bq, br, bs = other.q + 1e-6, other.r + 1e-6, other.s - 2e-6
        return tuple(
            _cube_round(
                aq + (bq - aq) * i / n,
                ar + (br - ar) * i / n,
                as_ + (bs - as_) * i / n,
            )
            for i in range(n + 1)
        )

    def ring(self, radius: int) -> tuple[Hex, ...]:
        """The hexes exactly ``radius`` away, going round once (just this hex for 0)."""
        if radius < 0:
            raise TurnkeeperError(f"a ring radius cannot be negative (got {radius})")
        if radius == 0:
            return (self,)
        dq, dr = Direction.SW.step
        current = Hex(self.q + dq * radius, self.r + dr * radius)
        out: list[Hex] = []
        for direction in (
            Direction.SE,
            Direction.NE,
            Direction.N,
            Direction.NW,
            Direction.SW,
            Direction.S,
        ):
            for _ in range(radius):
                out.append(current)
                current = current.neighbour(direction)
        return tuple(out)

    def within(self, radius: int) -> Iterator[Hex]:
        """Every hex at most ``radius`` away, this one first, ring by ring."""
        for k in range(radius + 1):
            yield from self.ring(k)


def _cube_round(fq: float, fr: float, fs: float) -> Hex:
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)
