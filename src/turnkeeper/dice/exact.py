"""Exact odds: the tree evaluated into an icepool ``Die`` of exact fractions.

>>> from turnkeeper.dice import parse
>>> mean(parse("4d6kh3"))
Fraction(15869, 1296)
>>> distribution(parse("1d4"))[2]
Fraction(1, 4)

Every sub-expression rolls its own dice, so binary operators are icepool's operators on
independent dice; dice terms use icepool's reroll, explode and keep on pools.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

import icepool

from turnkeeper.dice.expression import Expression
from turnkeeper.dice.nodes import (
    EXPLODE_DEPTH,
    BinOp,
    Const,
    Dice,
    Name,
    Node,
    Signed,
    check_count,
)
from turnkeeper.dice.rolling import lookup
from turnkeeper.errors import DiceNotationError

#: The most pairs of outcomes one exact step may combine. Weighing costs about half a
#: microsecond a pair, so this keeps ``odds`` within a few seconds; 100d100 (some
#: 50 million pairs) or 2d10000 would otherwise run for minutes.
MAX_EXACT_PAIRS = 2_000_000


def _check_cost(what: object, pairs: int) -> None:
    if pairs > MAX_EXACT_PAIRS:
        raise DiceNotationError(
            f"{what}: too many outcomes to weigh exactly (about {pairs:,} combinations, "
            f"the limit is {MAX_EXACT_PAIRS:,}); use fewer dice or smaller dice"
        )


def _sum_of(count: int, single: icepool.Die, what: object) -> icepool.Die:
    """``count`` independent copies of ``single`` added up, one at a time.

    icepool's ``count @ single`` does the same recursively, one stack frame per die, so a
    thousand dice overflowed the stack.
    """
    sides = len(single)
    _check_cost(what, sides * sides * count * (count - 1) // 2)
    total = single
    for _ in range(count - 1):
        total = total + single
    return total


def exact_die(node: Node, values: Mapping[str, int]) -> icepool.Die:
    """The exact distribution of a tree, names resolved from ``values``."""
    if isinstance(node, Const):
        return icepool.Die([node.value])
    if isinstance(node, Name):
        return icepool.Die([lookup(values, node.name)])
    if isinstance(node, Signed):
        operand = exact_die(node.operand, values)
        return -operand if node.sign == "-" else operand
    if isinstance(node, BinOp):
        left, right = exact_die(node.left, values), exact_die(node.right, values)
        _check_cost(node, len(left) * len(right))
        if node.op == "+":
            return left + right
        if node.op == "-":
            return left - right
        if node.op == "/":
            if 0 in right.outcomes():
                raise DiceNotationError(f"division by zero is possible in {node}")
            return left // right
        return left * right
    return _exact_dice(node, values)


def _exact_dice(dice: Dice, values: Mapping[str, int]) -> icepool.Die:
    if dice.count is None:
        count = 1
    elif isinstance(dice.count, int):
        count = dice.count
    else:
        count = check_count(dice, lookup(values, dice.count))
    if count == 0:
        return icepool.Die([0])
    single = icepool.d(dice.sides)
    rerolls, once, explodes = dice.selected("rr"), dice.selected("ro"), dice.selected("e")
    if rerolls:
        single = single.reroll(rerolls, depth="inf")
    if once and not set(single.outcomes()) <= once:
        # (When every face would be rerolled once, the reroll is the same die again.)
        single = single.reroll(once, depth=1)
    if explodes and set(single.outcomes()) <= explodes:
        # Every face explodes, so every chain runs to the bound; icepool cannot build a die
        # with no stopping face, so add the dice up directly.
        single = (EXPLODE_DEPTH + 1) @ single
    elif explodes:
        # Same bound as rolling: at most EXPLODE_DEPTH extra dice, the last one not exploding.
        single = single.explode(explodes, depth=EXPLODE_DEPTH)
    keep = dice.keep
    if keep is None:
        return _sum_of(count, single, dice)
    if not keep.counts_dice:
        wanted = keep.kind == "k"
        single = single.map(lambda face: face if keep.matches(face) == wanted else 0)
        return _sum_of(count, single, dice)
    chosen = min(keep.value, count)
    kept = chosen if keep.kind[0] == "k" else count - chosen
    # Keeping the highest is dropping the lowest, and the other way round.
    from_top = keep.kind in ("kh", "pl")
    if kept == 0:
        return icepool.Die([0])
    if kept == count:
        return _sum_of(count, single, dice)
    # icepool walks the pool die by die, each step over the kept totals so far.
    _check_cost(dice, count * len(single) * kept * len(single))
    if from_top:
        return single.highest(count, keep=kept)
    return single.lowest(count, keep=kept)


def exact(expression: Expression, values: Mapping[str, int] | None = None) -> icepool.Die:
    """The exact distribution of ``expression`` as an icepool ``Die``."""
    return _exact(expression.tree, () if values is None else tuple(sorted(values.items())))


@lru_cache(maxsize=256)
def _exact(tree: Node, values: tuple[tuple[str, Any], ...]) -> icepool.Die:
    return exact_die(tree, dict(values))


def distribution(
    expression: Expression, values: Mapping[str, int] | None = None
) -> dict[int, Fraction]:
    """Each possible total with its exact probability, lowest total first."""
    die = exact(expression, values)
    denominator = die.denominator()
    return {int(outcome): Fraction(q, denominator) for outcome, q in die.items()}


def mean(expression: Expression, values: Mapping[str, int] | None = None) -> Fraction:
    """The exact average total."""
    return sum(
        (outcome * p for outcome, p in distribution(expression, values).items()), Fraction(0)
    )


def quartiles(distribution: Mapping[int, Fraction]) -> tuple[int, int, int]:
    """The results at which a quarter, a half and three quarters of the chance are reached.

    >>> from turnkeeper.dice import parse
    >>> quartiles(distribution(parse("3d6")))
    (8, 10, 13)
    """
    found: list[int] = []
    running = Fraction(0)
    marks = iter((Fraction(1, 4), Fraction(1, 2), Fraction(3, 4)))
    mark = next(marks)
    for outcome, chance in sorted(distribution.items()):
        running += chance
        while running >= mark:
            found.append(outcome)
            next_mark = next(marks, None)
            if next_mark is None:
                return found[0], found[1], found[2]
            mark = next_mark
    last = max(distribution)
    found += [last] * (3 - len(found))
    return found[0], found[1], found[2]
