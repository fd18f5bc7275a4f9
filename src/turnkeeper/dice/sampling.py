"""Sampling for simulation: the tree evaluated on numpy arrays, many results at once.

Same meaning as rolling (rerolls per physical die, explosions add to their die, keep/drop
on the dice so built), checked against the exact odds by the property tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

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

Ints = NDArray[np.int64]


def sample_array(node: Node, n: int, rng: np.random.Generator, values: Mapping[str, int]) -> Ints:
    """``n`` independent results of a tree, as an int64 array of shape ``(n,)``."""
    if isinstance(node, Const):
        return np.full(n, node.value, dtype=np.int64)
    if isinstance(node, Name):
        return np.full(n, lookup(values, node.name), dtype=np.int64)
    if isinstance(node, Signed):
        operand = sample_array(node.operand, n, rng, values)
        return -operand if node.sign == "-" else operand
    if isinstance(node, BinOp):
        left = sample_array(node.left, n, rng, values)
        right = sample_array(node.right, n, rng, values)
        if node.op == "+":
            return left + right
        if node.op == "-":
            return left - right
        if node.op == "/":
            if not right.all():
                raise DiceNotationError(f"division by zero in {node}")
            return np.floor_divide(left, right)
        return left * right
    return _sample_dice(node, n, rng, values)


def _sample_dice(dice: Dice, n: int, rng: np.random.Generator, values: Mapping[str, int]) -> Ints:
    if dice.count is None:
        count = 1
    elif isinstance(dice.count, int):
        count = dice.count
    else:
        count = check_count(dice, lookup(values, dice.count))
    sides = dice.sides
    if count == 0:
        return np.zeros(n, dtype=np.int64)
    if not dice.ops:
        # One row per die, so sums run along contiguous rows (much faster than across columns).
        faces = rng.integers(1, sides + 1, size=(count, n), dtype=np.int64)
        return faces[0] if count == 1 else np.asarray(faces.sum(axis=0), dtype=np.int64)

    rerolls = _table(sides, dice.selected("rr"))
    once = _table(sides, dice.selected("ro"))
    explodes = _table(sides, dice.selected("e"))

    def physical(size: int) -> Ints:
        faces = rng.integers(1, sides + 1, size=size, dtype=np.int64)
        if rerolls is not None:
            _reroll_while(faces, rerolls, sides, rng)
        if once is not None:
            again = once[faces]
            faces[again] = rng.integers(1, sides + 1, size=int(again.sum()), dtype=np.int64)
            if rerolls is not None:
                _reroll_while(faces, rerolls, sides, rng)
        return faces

    first = physical(n * count)
    totals = first.copy()
    if explodes is not None:
        live = np.flatnonzero(explodes[first])
        for _ in range(EXPLODE_DEPTH):
            if live.size == 0:
                break
            extra = physical(live.size)
            totals[live] += extra
            live = live[explodes[extra]]
    return np.asarray(_keep(dice, totals.reshape(count, n)), dtype=np.int64)


def _keep(dice: Dice, chains: Ints) -> Any:
    """Totals after the keep/drop modifier; ``chains`` has one row per die, one column a sample."""
    count, n = chains.shape
    keep = dice.keep
    if keep is None:
        return chains.sum(axis=0)
    if not keep.counts_dice:
        if keep.compare == "<":
            selected = chains < keep.value
        elif keep.compare == ">":
            selected = chains > keep.value
        else:
            selected = chains == keep.value
        if keep.kind == "p":
            selected = ~selected
        return np.where(selected, chains, 0).sum(axis=0)
    chosen = min(keep.value, count)
    kept = chosen if keep.kind[0] == "k" else count - chosen
    from_top = keep.kind in ("kh", "pl")
    if kept == 0:
        return np.zeros(n, dtype=np.int64)
    if kept == count:
        return chains.sum(axis=0)
    # One die kept or one dropped are the common cases (2d20kl1, 4d6kh3): no sort needed.
    if kept == 1:
        return chains.max(axis=0) if from_top else chains.min(axis=0)
    if kept == count - 1:
        dropped = chains.min(axis=0) if from_top else chains.max(axis=0)
        return chains.sum(axis=0) - dropped
    ordered = np.sort(chains, axis=0)
    part = ordered[count - kept :] if from_top else ordered[:kept]
    return part.sum(axis=0)


def _table(sides: int, faces: frozenset[int]) -> NDArray[np.bool_] | None:
    if not faces:
        return None
    table = np.zeros(sides + 1, dtype=bool)
    table[list(faces)] = True
    return table


def _reroll_while(
    faces: Ints, rerolls: NDArray[np.bool_], sides: int, rng: np.random.Generator
) -> None:
    todo = np.flatnonzero(rerolls[faces])
    while todo.size:
        fresh = rng.integers(1, sides + 1, size=todo.size, dtype=np.int64)
        faces[todo] = fresh
        todo = todo[rerolls[fresh]]


def sample(
    expression: Expression,
    n: int,
    rng: np.random.Generator,
    values: Mapping[str, int] | None = None,
) -> Ints:
    """``n`` independent totals of ``expression`` at once, for simulation: int64, ``(n,)``."""
    if n < 0:
        raise DiceNotationError(f"cannot draw {n} samples")
    return sample_array(expression.tree, n, rng, {} if values is None else values)
