"""The parsed tree of a dice expression, and its canonical text.

One tree, three evaluators (roll, exact, sample): each is a small dispatch on these node
types. Nodes are frozen, so two expressions are equal when their trees are, whatever
spacing the player typed.

The meaning is avrae/d20's: operations on a term apply in the order written (consecutive
ones of the same kind act as one, so ``k1k2`` keeps ones and twos), every exploded die is a
new die in the pool, and ``/`` divides exactly, the total being cut toward zero at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from turnkeeper.errors import DiceNotationError

#: The most extra dice one explosion may chain. Exploding is unbounded in the rules texts
#: and in d20 (which stops at 1000 dice with an error); we stop a chain after this many so
#: rolls terminate and exact odds stay finite. All three evaluators use the same bound, so
#: rolls, samples and odds agree.
EXPLODE_DEPTH = 20

#: The most dice one term may roll, and the largest die; beyond these a typo is likelier
#: than a real need, and the exact odds would take too long.
MAX_DICE = 1000
MAX_SIDES = 10_000
MAX_INTEGER = 10**9

#: What a selector picks from the dice (or set members) still kept: ``""`` those showing
#: the number, ``<``/``>`` those below/above it, ``h``/``l`` the highest/lowest that many.
SELECTS = ("", "<", ">", "h", "l")
#: Operations on any set: keep, drop. Dice also take reroll, reroll once, reroll and add,
#: explode, minimum and maximum.
SET_KINDS = ("k", "p")
DICE_KINDS = ("k", "p", "rr", "ro", "ra", "e", "mi", "ma")

Number = int | float


@dataclass(frozen=True, slots=True)
class Const:
    """A plain number such as the ``5`` of ``1d20+5`` (or a decimal, ``0.5``)."""

    value: Number

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


#: Comparisons give 1 when true and 0 when false (d20's meaning).
COMPARISONS = ("==", "!=", ">=", "<=", ">", "<")


@dataclass(frozen=True, slots=True)
class BinOp:
    """``+ - * / // %``, ``x`` (``*`` as rules texts write 2d4x10) and the comparisons.

    ``/`` divides exactly; ``//`` is floor division and ``%`` its remainder.
    """

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
    """One operation after a term, as written: ``kh3`` is ``DiceOp("k", "h", 3)``.

    ``kind`` is one of :data:`DICE_KINDS`, ``select`` one of :data:`SELECTS`.
    """

    kind: str
    select: str
    value: int

    def __str__(self) -> str:
        return f"{self.kind}{self.select}{self.value}"

    def matches(self, face: Number) -> bool:
        """Whether a value is picked by this selector (for ``""``, ``<`` and ``>`` only)."""
        if self.select == "<":
            return face < self.value
        if self.select == ">":
            return face > self.value
        return face == self.value

    @property
    def by_rank(self) -> bool:
        """True for ``h`` and ``l``, which pick by rank among the kept, not by value."""
        return self.select in ("h", "l")


@dataclass(frozen=True, slots=True)
class Step:
    """One operation as it acts: consecutive operations of one kind written together
    (``k1k2``, ``rr1rr2``) pick the union of their selectors, as d20 reads them; a minimum
    or maximum always stands alone."""

    kind: str
    selectors: tuple[DiceOp, ...]

    def picks_by_value(self, value: Number) -> bool:
        """Whether a value is picked by a selector that looks at values (not ``h``/``l``)."""
        return any(op.matches(value) for op in self.selectors if not op.by_rank)

    @property
    def by_rank(self) -> bool:
        """True when a selector picks by rank, so the step looks at the whole pool."""
        return any(op.by_rank for op in self.selectors)

    @property
    def per_die(self) -> bool:
        """True when each die's fate depends on that die alone (not ``ra``, no ``h``/``l``)."""
        return self.kind != "ra" and not self.by_rank


def steps(ops: tuple[DiceOp, ...]) -> tuple[Step, ...]:
    """The operations as they act, in written order (see :class:`Step`)."""
    merged: list[Step] = []
    for op in ops:
        last = merged[-1] if merged else None
        if last is not None and last.kind == op.kind and op.kind not in ("mi", "ma"):
            merged[-1] = Step(op.kind, (*last.selectors, op))
        else:
            merged.append(Step(op.kind, (op,)))
    return tuple(merged)


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


@dataclass(frozen=True, slots=True)
class NumberSet:
    """A set of terms in parentheses, ``(1d4, 2+2, 3d6kl1)kh1``: keep and drop pick among
    the members by their totals; its total is the sum of the members kept. ``(3d6,)`` is
    the set of one member, while ``(3d6)`` is just 3d6."""

    items: tuple[Node, ...]
    ops: tuple[DiceOp, ...] = ()

    def __str__(self) -> str:
        inner = ", ".join(str(item) for item in self.items)
        if len(self.items) == 1:
            inner += ","
        return f"({inner})" + "".join(str(op) for op in self.ops)


@dataclass(frozen=True, slots=True)
class Group:
    """A term in parentheses followed by keep or drop, ``(4d6)kh3``: on dice the operations
    go on acting on the dice themselves; on anything else the term is a set of one."""

    inner: Node
    ops: tuple[DiceOp, ...]

    def __str__(self) -> str:
        return f"({self.inner})" + "".join(str(op) for op in self.ops)


@dataclass(frozen=True, slots=True)
class Annotated:
    """A term with notes in brackets, ``8d6 [fire]``: shown in the breakdown, no effect on
    the total."""

    operand: Node
    notes: tuple[str, ...]

    def __str__(self) -> str:
        inner = str(self.operand)
        if needs_parens(self.operand, self):
            inner = f"({inner})"
        return f"{inner} {''.join(self.notes)}"


Node = Const | Name | Signed | BinOp | Dice | NumberSet | Group | Annotated
NODE_TYPES = (Const, Name, Signed, BinOp, Dice, NumberSet, Group, Annotated)

_COMPARE, _SUM, _PRODUCT, _UNARY, _TERM, _ATOM = 1, 2, 3, 4, 5, 6


def _level(node: Node) -> int:
    if isinstance(node, BinOp):
        if node.op in COMPARISONS:
            return _COMPARE
        return _SUM if node.op in "+-" else _PRODUCT
    if isinstance(node, Signed):
        return _UNARY
    if isinstance(node, Annotated):
        return _TERM
    return _ATOM


def needs_parens(child: Node, parent: Node, right: bool = False) -> bool:
    """Whether ``child`` is written in parentheses inside ``parent`` (fewest that keep meaning)."""
    if isinstance(parent, Signed):
        return _level(child) < _UNARY
    if isinstance(parent, Annotated):
        return _level(child) < _ATOM
    # Operators are left-associative: a right operand of the same level needs parentheses.
    return _level(child) <= _level(parent) if right else _level(child) < _level(parent)


def check_ops(term: object, ops: tuple[DiceOp, ...], sides: int | None) -> None:
    """Refuse operations the evaluators cannot give a meaning to, as d20 refuses them:
    a minimum or maximum by rank, a reroll that never stops, an explosion that never stops.
    ``sides`` is ``None`` for a set (which only keeps and drops, see the grammar)."""
    for step in steps(ops):
        first = step.selectors[0]
        if step.kind in ("mi", "ma") and first.select:
            word = "minimum" if step.kind == "mi" else "maximum"
            raise DiceNotationError(
                f"{term}: {first} is not a {word}; a {word} takes a plain number, e.g. {step.kind}2"
            )
        if sides is None:
            continue
        faces = range(1, sides + 1)
        if step.kind == "rr":
            if step.by_rank:
                raise DiceNotationError(
                    f"{term}: rerolling the highest or lowest ({first}) never stops, as there "
                    "always is one; reroll by face (rr1, rr<3) or once (ro" + first.select + "1)"
                )
            if all(step.picks_by_value(face) for face in faces):
                raise DiceNotationError(
                    f"{term}: rerolling every face of a d{sides} never stops; reroll fewer faces"
                )
        if step.kind == "e" and all(step.picks_by_value(face) for face in faces):
            raise DiceNotationError(
                f"{term}: every face a d{sides} can show explodes, so it would never stop: "
                f"explode on fewer faces (e{sides} explodes a d{sides} only on {sides})"
            )


def check_dice(dice: Dice) -> Dice:
    """Refuse a dice term the evaluators cannot give a meaning to; return it unchanged."""
    if dice.sides < 1:
        raise DiceNotationError(f"{dice}: a die needs at least one side")
    if dice.sides > MAX_SIDES:
        raise DiceNotationError(f"{dice}: at most d{MAX_SIDES}")
    if isinstance(dice.count, int):
        check_count(dice, dice.count)
    check_ops(dice, dice.ops, dice.sides)
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
    if isinstance(node, Signed | Annotated):
        return names_in(node.operand)
    if isinstance(node, Group):
        return names_in(node.inner)
    if isinstance(node, BinOp):
        return names_in(node.left) | names_in(node.right)
    if isinstance(node, NumberSet):
        return frozenset().union(*(names_in(item) for item in node.items))
    if isinstance(node, Dice) and isinstance(node.count, str):
        return frozenset((node.count,))
    return frozenset()


@dataclass(frozen=True, slots=True)
class Pool:
    """What keep, drop and the dice operations act on, seen through parentheses:
    ``((10d6kh5)kl2)kh1`` is 10d6 with three steps, ``(4d6 [fire])kh3`` is 4d6 with one.

    ``dice`` is the dice term when the pool is made of its dice, else ``None`` and
    ``members`` are the set's members. ``before`` and ``after`` are the text around the
    dice's faces (or the members) in a breakdown.
    """

    dice: Dice | None
    members: tuple[Node, ...]
    steps: tuple[Step, ...]
    before: str
    after: str


def pool_of(node: Node) -> Pool | None:
    """The pool a term's operations act on, or ``None`` for a term that is one number."""
    if isinstance(node, Dice):
        return Pool(node, (), steps(node.ops), f"{node} (", ")")
    if isinstance(node, NumberSet):
        ops = "".join(map(str, node.ops))
        return Pool(
            None,
            node.items,
            steps(node.ops),
            "(",
            ("," if len(node.items) == 1 else "") + ")" + ops,
        )
    if isinstance(node, Annotated):
        inner = pool_of(node.operand)
        if inner is None or needs_parens(node.operand, node):
            return None
        return Pool(
            inner.dice,
            inner.members,
            inner.steps,
            inner.before,
            f"{inner.after} {''.join(node.notes)}",
        )
    if isinstance(node, Group):
        ops = "".join(map(str, node.ops))
        inner = pool_of(node.inner)
        if inner is None:
            return Pool(None, (node.inner,), steps(node.ops), "(", ")" + ops)
        return Pool(
            inner.dice,
            inner.members,
            inner.steps + steps(node.ops),
            "(" + inner.before,
            inner.after + ")" + ops,
        )
    return None
