"""Where a map's words go: boxes for text and marks, and a board that places each free label
(a feature's name, a route's note) where it covers no other label and no mark.

Hex numbers and feature marks have fixed places; terrain symbols give way (a hex's colour and
the legend still tell its terrain); a free label tries its places in order, at its size and
then smaller, and takes the first that is clear. Widths come from DejaVu Sans, the drawing's
first font, whose advances are as wide as or wider than those of the fonts named after it,
so a label measured here never spills in the fonts a viewer is likely to have.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, overload

Anchor = Literal["start", "middle", "end"]

#: DejaVu Sans advance widths, in ems, of the printable ASCII characters in order, then a
#: few others; any other character counts as a whole em.
_ASCII_ADVANCES = [
    0.318, 0.401, 0.46, 0.838, 0.636, 0.95, 0.78, 0.275, 0.39, 0.39, 0.5, 0.838, 0.318, 0.361,
    0.318, 0.337, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.337,
    0.337, 0.838, 0.838, 0.838, 0.531, 1.0, 0.684, 0.686, 0.698, 0.77, 0.632, 0.575, 0.775,
    0.752, 0.295, 0.295, 0.656, 0.557, 0.863, 0.748, 0.787, 0.603, 0.787, 0.695, 0.635, 0.611,
    0.732, 0.684, 0.989, 0.685, 0.611, 0.685, 0.39, 0.337, 0.39, 0.838, 0.5, 0.5, 0.613, 0.635,
    0.55, 0.635, 0.615, 0.352, 0.635, 0.634, 0.278, 0.278, 0.579, 0.278, 0.974, 0.634, 0.612,
    0.635, 0.635, 0.411, 0.521, 0.392, 0.634, 0.592, 0.818, 0.592, 0.592, 0.525, 0.636, 0.337,
    0.636, 0.838,
]  # fmt: skip
_ADVANCE = dict(zip(map(chr, range(32, 127)), _ASCII_ADVANCES, strict=True)) | {
    "’": 0.318,
    "·": 0.318,
    "½": 0.969,
    "¼": 0.969,
    "¾": 0.969,
    "⅓": 0.969,
    "⅔": 0.969,
}
#: Above and below the baseline, in ems: capitals and digits, descenders.
ASCENT, DESCENT = 0.76, 0.24


def text_width(text: str, size: float) -> float:
    """The advance of ``text`` at font ``size``, in drawing units.

    >>> round(text_width("0101", 5.5), 2), text_width("♣", 8)
    (13.99, 8.0)
    """
    return size * sum(_ADVANCE.get(char, 1.0) for char in text)


@dataclass(frozen=True)
class Box:
    """A rectangle of the drawing: left, top, right, bottom."""

    left: float
    top: float
    right: float
    bottom: float

    @classmethod
    def of_text(cls, text: str, x: float, y: float, size: float, anchor: Anchor) -> Box:
        """The box of ``text`` written at ``(x, y)`` (its baseline) with this anchor."""
        width = text_width(text, size)
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        return cls(left, y - ASCENT * size, left + width, y + DESCENT * size)

    @classmethod
    def around(cls, x: float, y: float, half_width: float, half_height: float) -> Box:
        """The box of a mark centred on ``(x, y)``."""
        return cls(x - half_width, y - half_height, x + half_width, y + half_height)

    def meets(self, other: Box) -> bool:
        """Whether the two boxes share more than an edge."""
        return (
            self.left < other.right
            and other.left < self.right
            and self.top < other.bottom
            and other.top < self.bottom
        )


@dataclass(frozen=True)
class Spot:
    """A place a label may take: its anchor point relative to the mark, and anchoring."""

    dx: float
    dy: float
    anchor: Anchor


@dataclass(frozen=True)
class Placed:
    """A free label where the board put it."""

    x: float
    y: float
    size: float
    anchor: Anchor


_CELL = 40.0


@dataclass
class Board:
    """Boxes already taken, in cells of the drawing so a test touches only its neighbours.

    Fixed boxes (hex numbers, marks, placed labels) are never covered; soft boxes (terrain
    symbols) give way to a free label, which removes them (:meth:`gave_way`)."""

    _fixed: defaultdict[tuple[int, int], list[Box]] = field(
        default_factory=lambda: defaultdict(list)
    )
    _soft: defaultdict[tuple[int, int], list[tuple[Box, object]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    _removed: set[object] = field(default_factory=set)

    @staticmethod
    def _cells(box: Box) -> Iterable[tuple[int, int]]:
        for i in range(int(box.left // _CELL), int(box.right // _CELL) + 1):
            for j in range(int(box.top // _CELL), int(box.bottom // _CELL) + 1):
                yield i, j

    def fix(self, box: Box) -> None:
        """Take ``box`` for good; a soft label under it gives way."""
        for cell in self._cells(box):
            self._fixed[cell].append(box)
            for other, key in self._soft[cell]:
                if other.meets(box):
                    self._removed.add(key)

    def soften(self, box: Box, key: object) -> None:
        """Take ``box`` for the label ``key`` unless a free label needs the room (given way
        at once if a fixed box holds it)."""
        if not self.clear(box):
            self._removed.add(key)
            return
        for cell in self._cells(box):
            self._soft[cell].append((box, key))

    def clear(self, box: Box) -> bool:
        """Whether ``box`` meets no fixed box."""
        return not any(other.meets(box) for cell in self._cells(box) for other in self._fixed[cell])

    @overload
    def place(
        self,
        text: str,
        x: float,
        y: float,
        sizes: Sequence[float],
        spots: Sequence[Spot],
        crowded: Literal[True] = True,
    ) -> Placed: ...

    @overload
    def place(
        self,
        text: str,
        x: float,
        y: float,
        sizes: Sequence[float],
        spots: Sequence[Spot],
        crowded: Literal[False],
    ) -> Placed | None: ...

    def place(
        self,
        text: str,
        x: float,
        y: float,
        sizes: Sequence[float],
        spots: Sequence[Spot],
        crowded: bool = True,
    ) -> Placed | None:
        """Put ``text`` by the mark at ``(x, y)``: the first spot that is clear, at the first
        size that fits; failing all, the first spot at the first size (the drawing is too
        crowded there; the label is still written), or None if not ``crowded`` (a label that
        may be left out)."""
        for size in sizes:
            for spot in spots:
                where = Placed(x + spot.dx, y + spot.dy, size, spot.anchor)
                box = Box.of_text(text, where.x, where.y, size, spot.anchor)
                if self.clear(box):
                    self.fix(box)
                    return where
        if not crowded:
            return None
        first = Placed(x + spots[0].dx, y + spots[0].dy, sizes[0], spots[0].anchor)
        self.fix(Box.of_text(text, first.x, first.y, first.size, first.anchor))
        return first

    def gave_way(self, key: object) -> bool:
        """Whether the soft label ``key`` was removed to make room."""
        return key in self._removed
