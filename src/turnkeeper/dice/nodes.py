"""The parsed tree of a dice expression, and its canonical text.

One tree, three evaluators (roll, exact, sample): each is a small dispatch on these node
types. Nodes are frozen, so two expressions are equal when their trees are, whatever
spacing the player typed.
"""

from __future__ import annotations

from dataclasses import dataclass

from turnkeeper.errors import DiceNotationError

#: The most extra dice one exploding die may add. Exploding is unbounded in the rules texts;
#: we stop after this many so rolls terminate and exact odds stay finite. The exact
#: distribution uses the same bound (icepool's ``explode(depth=...)``), so rolls and odds agree.
EXPLODE_DEPTH = 20

#: The most dice one term may roll, and the largest die; beyond these a typo is likelier
#: than a real need, and the exact odds would take too long.
MAX_DICE = 1000
MAX_SIDES = 10_000
MAX_INTEGER = 10**9


@dataclass(frozen=True, slots=True)
class Const:
    """A plain number such as the ``5`` of ``1d20+5``."""

    value: int

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class Name:
    """A character's or monster's value, such as ``STR`` or ``HD``, given when rolling."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Signed:
    """A sign in front of a term: ``-1d4`` or ``+2``."""

    sign: str
    operand: Node

    def __str__(self) -> str:
        inner = str(self.operand)
        if needs_parens(self.operand, self):
            inner = f"({inner})"
        return f"{self.sign}{inner}"


@dataclass(frozen=True, slots=True)
class BinOp:
    """``+ - * /`` and ``x``; ``/`` is floor division, ``x`` is ``*`` as rules texts write it."""

    op: str
    left: Node
    right: Node

    def __str__(self) -> str:
        left, right = str(self.left), str(self.right)
        if needs_parens(self.left, self):
            left = f"({left})"
        if needs_parens(self.right, self, right=True):
            right = f"({right})"
        if self.op == "x":
            return f"{left}x{right}"
        return f"{left} {self.op} {right}"


@dataclass(frozen=True, slots=True)
class DiceOp:
    """One modifier after a dice term: keep/drop, reroll, reroll once, explode.

    ``kind`` is one of ``kh kl ph pl k p rr ro e``; ``compare`` is ``""`` (face equals
    ``value``), ``"<"`` or ``">"``. For ``kh kl ph pl``, ``value`` counts dice.
    """

    kind: str
    compare: str
    value: int

    def __str__(self) -> str:
        return f"{self.kind}{self.compare}{self.value}"

    @property
    def counts_dice(self) -> bool:
        """True for keep/drop highest/lowest, where the number is how many dice."""
        return self.kind in ("kh", "kl", "ph", "pl")

    def matches(self, face: int) -> bool:
        """Whether a face is selected by this modifier (for face-selecting kinds)."""
        if self.compare == "<":
            return face < self.value
        if self.compare == ">":
            return face > self.value
        return face == self.value


@dataclass(frozen=True, slots=True)
class Dice:
    """A dice term: ``4d6kh3``, ``d20``, ``d%``, ``HDd8``.

    ``count`` is ``None`` when not written (one die), an int, or a name resolved when rolling.
    """

    count: int | str | None
    sides: int
    percent: bool
    ops: tuple[DiceOp, ...] = ()

    def __str__(self) -> str:
        count = "" if self.count is None else str(self.count)
        sides = "%" if self.percent else str(self.sides)
        return f"{count}d{sides}" + "".join(str(op) for op in self.ops)

    def selected(self, kind: str) -> frozenset[int]:
        """The faces picked by every modifier of one kind (``rr``, ``ro`` or ``e``)."""
        return frozenset(
            face
            for op in self.ops
            if op.kind == kind
            for face in range(1, self.sides + 1)
            if op.matches(face)
        )

    @property
    def keep(self) -> DiceOp | None:
        """The keep/drop modifier, which is always last, if there is one."""
        if self.ops and self.ops[-1].kind in ("kh", "kl", "ph", "pl", "k", "p"):
            return self.ops[-1]
        return None


Node = Const | Name | Signed | BinOp | Dice

_SUM, _PRODUCT, _UNARY, _ATOM = 1, 2, 3, 4


def _level(node: Node) -> int:
    if isinstance(node, BinOp):
        return _SUM if node.op in "+-" else _PRODUCT
    if isinstance(node, Signed):
        return _UNARY
    return _ATOM


def needs_parens(child: Node, parent: Node, right: bool = False) -> bool:
    """Whether ``child`` is written in parentheses inside ``parent`` (fewest that keep meaning)."""
    if isinstance(parent, Signed):
        return _level(child) < _UNARY
    # Operators are left-associative: a right operand of the same level needs parentheses.
    return _level(child) <= _level(parent) if right else _level(child) < _level(parent)


def check_dice(dice: Dice) -> Dice:
    """Refuse a dice term the evaluators cannot give a meaning to; return it unchanged."""
    if dice.sides < 1:
        raise DiceNotationError(f"{dice}: a die needs at least one side")
    if dice.sides > MAX_SIDES:
        raise DiceNotationError(f"{dice}: at most d{MAX_SIDES}")
    if isinstance(dice.count, int):
        check_count(dice, dice.count)
    for index, op in enumerate(dice.ops):
        keeps = op.kind in ("kh", "kl", "ph", "pl", "k", "p")
        if keeps and index != len(dice.ops) - 1:
            raise DiceNotationError(
                f"{dice}: keep/drop ({op}) must come last, after rerolls and explosions"
            )
        if op.counts_dice and op.compare:
            raise DiceNotationError(
                f"{dice}: {op} mixes a count with a comparison; write {op.kind}{op.value} "
                f"or {op.kind[0]}{op.compare}{op.value}"
            )
    if len(dice.selected("rr")) == dice.sides:
        raise DiceNotationError(f"{dice}: rerolling every face of a d{dice.sides} never stops")
    shown = frozenset(range(1, dice.sides + 1)) - dice.selected("rr")
    if shown <= dice.selected("e"):
        faces = ", ".join(map(str, sorted(shown)))
        raise DiceNotationError(
            f"{dice}: every face it can show ({faces}) explodes, so it would never stop: "
            f"explode on fewer faces (e{dice.sides} explodes a d{dice.sides} only on {dice.sides})"
        )
    return dice


def check_count(dice: Dice, count: int) -> int:
    """Refuse a number of dice below zero or above :data:`MAX_DICE`."""
    if count < 0:
        raise DiceNotationError(f"{dice}: cannot roll {count} dice")
    if count > MAX_DICE:
        raise DiceNotationError(f"{dice}: at most {MAX_DICE} dice in one term, not {count}")
    return count


def names_in(node: Node) -> frozenset[str]:
    """Every name an expression needs from the character's or monster's values."""
    if isinstance(node, Name):
        return frozenset((node.name,))
    if isinstance(node, Signed):
        return names_in(node.operand)
    if isinstance(node, BinOp):
        return names_in(node.left) | names_in(node.right)
    if isinstance(node, Dice) and isinstance(node.count, str):
        return frozenset((node.count,))
    return frozenset()


def floor_divide(left: int, right: int, where: object) -> int:
    """``/`` in dice notation: floor division, and a clear error on a zero divisor."""
    if right == 0:
        raise DiceNotationError(f"division by zero in {where}")
    return left // right
