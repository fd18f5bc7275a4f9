"""A parsed dice expression: read once, then rolled (weighed exactly by
:mod:`turnkeeper.dice.exact`, sampled by :mod:`turnkeeper.dice.sampling`).

>>> str(parse("2d4 x 10")), parse("d20+STR").names
('2d4x10', frozenset({'STR'}))
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from turnkeeper.dice.nodes import Node, names_in
from turnkeeper.dice.parser import parse_tree
from turnkeeper.dice.rolling import DieFace, Roll, Roller, compile_roller, fast_roll
from turnkeeper.dice.sources import DiceSource
from turnkeeper.errors import DiceNotationError

_NO_VALUES: Mapping[str, int] = {}


class Expression:
    """Dice notation parsed into its tree; immutable, equal when the trees are equal.

    The heavy evaluators load where they are needed: exact odds in
    :mod:`turnkeeper.dice.exact` (icepool), samples in :mod:`turnkeeper.dice.sampling` (numpy).
    """

    __slots__ = ("_canonical", "_roller", "comment", "names", "text", "tree")

    text: str
    names: frozenset[str]
    tree: Node
    #: Words after the roll (``1d20 to hit``), read only when comments are allowed.
    comment: str

    def __init__(self, tree: Node, text: str | None = None, comment: str = "") -> None:
        object.__setattr__(self, "tree", tree)
        object.__setattr__(self, "text", str(tree) if text is None else text)
        object.__setattr__(self, "names", names_in(tree))
        object.__setattr__(self, "_roller", compile_roller(tree))
        object.__setattr__(self, "_canonical", str(tree))
        object.__setattr__(self, "comment", comment)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("an Expression is immutable")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Expression) and other.tree == self.tree

    def __hash__(self) -> int:
        return hash(self.tree)

    def __str__(self) -> str:
        canonical: str = self._canonical  # type: ignore[attr-defined]
        return canonical

    def __repr__(self) -> str:
        return f"parse({str(self)!r})"

    def roll(self, source: DiceSource, values: Mapping[str, int] | None = None) -> Roll:
        """Roll it with dice from ``source``; every face is in the returned :class:`Roll`.

        >>> from turnkeeper.dice import TypedDice
        >>> parse("4d6pl1").roll(TypedDice([1, 4, 6, 3])).breakdown
        '4d6pl1 (~~1~~, 4, 6, 3) = 13'
        """
        faces: list[DieFace] = []
        typed = source.typed_in
        roller: Roller = self._roller  # type: ignore[attr-defined]
        value, text = roller(source.die, typed, faces, _NO_VALUES if values is None else values)
        # As d20: exact division and decimals run through, and the total is cut toward zero.
        total = value if type(value) is int else int(value)
        canonical: str = self._canonical  # type: ignore[attr-defined]
        return fast_roll(canonical, total, tuple(faces), f"{text} = {total}", typed, self.comment)


@lru_cache(maxsize=1024)
def parse(text: str, allow_comments: bool = False) -> Expression:
    """Read dice notation once (cached); raises DiceNotationError saying where it broke.

    With ``allow_comments`` (as d20's), words after a whole expression are its comment.

    >>> parse("1d20 + 5") == parse("1d20+5")
    True
    >>> parse("1d20+5 to hit", allow_comments=True).comment
    'to hit'
    """
    if not isinstance(text, str):
        raise DiceNotationError(f"a dice expression is text, not {type(text).__name__}")
    tree, comment = parse_tree(text, allow_comments)
    return Expression(tree, text, comment)


def roll(
    text: str,
    source: DiceSource,
    values: Mapping[str, int] | None = None,
    allow_comments: bool = False,
) -> Roll:
    """Parse (cached) and roll in one step.

    >>> from turnkeeper.dice import SeededDice
    >>> roll("2d6+1", SeededDice(3)) == roll("2d6+1", SeededDice(3))
    True
    """
    return parse(text, allow_comments).roll(source, values)


def format_fraction(value: Fraction) -> str:
    """An exact probability or mean as text for JSON: ``"p/q"``, or ``"p"`` when whole.

    >>> format_fraction(Fraction(1, 6)), format_fraction(Fraction(20))
    ('1/6', '20')
    """
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def exact_json(key: str, value: Fraction | Mapping[Any, Fraction]) -> dict[str, Any]:
    """A figure (or a distribution) for JSON under ``key``, exact, and beside it under
    ``key_decimal`` as a decimal: a fraction of 190 digits is exact for a program and says
    nothing to a person reading the JSON.

    >>> exact_json("mean", Fraction(7, 2))
    {'mean': '7/2', 'mean_decimal': 3.5}
    >>> exact_json("distribution", {1: Fraction(1, 4), 2: Fraction(3, 4)})["distribution_decimal"]
    {'1': 0.25, '2': 0.75}
    """
    if isinstance(value, Fraction):
        return {key: format_fraction(value), f"{key}_decimal": float(value)}
    return {
        key: {str(k): format_fraction(p) for k, p in value.items()},
        f"{key}_decimal": {str(k): float(p) for k, p in value.items()},
    }


_VULGAR = {
    (1, 4): "¼", (1, 2): "½", (3, 4): "¾", (1, 3): "⅓", (2, 3): "⅔", (1, 8): "⅛",
    (3, 8): "⅜", (5, 8): "⅝", (7, 8): "⅞", (1, 6): "⅙", (5, 6): "⅚", (1, 5): "⅕",
}  # fmt: skip


def format_mixed(value: Fraction) -> str:
    """An exact quantity as people read it (travel points, uses): a mixed number.

    >>> format_mixed(Fraction(75, 4)), format_mixed(Fraction(1, 2)), format_mixed(Fraction(20))
    ('18¾', '½', '20')
    >>> format_mixed(Fraction(-9, 7))
    '-1 2/7'
    """
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value.numerator), value.denominator)
    if part == 0:
        return f"{sign}{whole}"
    vulgar = _VULGAR.get((part, value.denominator))
    rest = vulgar if vulgar is not None else f"{part}/{value.denominator}"
    if whole == 0:
        return f"{sign}{rest}"
    return f"{sign}{whole}{rest}" if vulgar is not None else f"{sign}{whole} {rest}"
