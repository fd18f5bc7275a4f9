"""Exact odds: the tree evaluated into an icepool ``Die`` of exact fractions.

Every sub-expression rolls its own dice, so binary operators are icepool's operators on
independent dice; dice terms use icepool's reroll, explode and keep on pools.
"""

from __future__ import annotations

from collections.abc import Mapping

import icepool

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
        return count @ single
    if not keep.counts_dice:
        wanted = keep.kind == "k"
        single = single.map(lambda face: face if keep.matches(face) == wanted else 0)
        return count @ single
    chosen = min(keep.value, count)
    kept = chosen if keep.kind[0] == "k" else count - chosen
    # Keeping the highest is dropping the lowest, and the other way round.
    from_top = keep.kind in ("kh", "pl")
    if kept == 0:
        return icepool.Die([0])
    if kept == count:
        return count @ single
    if from_top:
        return single.highest(count, keep=kept)
    return single.lowest(count, keep=kept)
