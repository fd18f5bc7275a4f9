"""Sampling for simulation: the tree evaluated on numpy arrays, many results at once.

Same meaning as rolling (operations in written order, each exploded die a new die in the
pool, ``/`` exact and the total cut toward zero), checked against the exact odds by the
property tests. A pool is a matrix: one row per die (or set member), one column a sample,
with a mask of the dice still kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import NDArray

from turnkeeper.dice.expression import Expression
from turnkeeper.dice.nodes import (
    COMPARISONS,
    EXPLODE_DEPTH,
    Annotated,
    BinOp,
    Const,
    Dice,
    Name,
    Node,
    Pool,
    Signed,
    Step,
    check_count,
    pool_of,
)
from turnkeeper.dice.rolling import lookup, zero_divisor
from turnkeeper.errors import DiceNotationError

Ints = NDArray[np.int64]
#: Samples of a sub-expression: int64, or float64 once ``/`` or a decimal is involved.
Values = NDArray[Any]
Mask = NDArray[np.bool_]

_COMPARE = {
    "==": np.equal,
    "!=": np.not_equal,
    ">=": np.greater_equal,
    "<=": np.less_equal,
    ">": np.greater,
    "<": np.less,
}


def sample_array(node: Node, n: int, rng: np.random.Generator, values: Mapping[str, int]) -> Values:
    """``n`` independent values of a tree (before the total is cut), shape ``(n,)``."""
    if isinstance(node, Const):
        return np.full(
            n, node.value, dtype=np.float64 if isinstance(node.value, float) else np.int64
        )
    if isinstance(node, Name):
        return np.full(n, lookup(values, node.name), dtype=np.int64)
    if isinstance(node, Signed):
        operand = sample_array(node.operand, n, rng, values)
        return -operand if node.sign == "-" else operand
    if isinstance(node, Annotated):
        return sample_array(node.operand, n, rng, values)
    if isinstance(node, BinOp):
        return _sample_binop(node, n, rng, values)
    if isinstance(node, Dice) and not node.ops:
        count, sides = _count(node, values), node.sides
        if count == 0:
            return np.zeros(n, dtype=np.int64)
        # One row per die, so sums run along contiguous rows (much faster than across columns).
        faces = rng.integers(1, sides + 1, size=(count, n), dtype=np.int64)
        return faces[0] if count == 1 else np.asarray(faces.sum(axis=0), dtype=np.int64)
    pool = pool_of(node)
    assert pool is not None
    if pool.dice is None:
        if not pool.members:
            return np.zeros(n, dtype=np.int64)
        members = np.stack([sample_array(member, n, rng, values) for member in pool.members])
        kept = np.ones(members.shape, dtype=bool)
        for step in pool.steps:
            kept &= (
                _picked(step, members, kept) if step.kind == "k" else ~_picked(step, members, kept)
            )
        return _total(members, kept)
    return _sample_dice(pool, _count(pool.dice, values), n, rng)


def _sample_binop(
    node: BinOp, n: int, rng: np.random.Generator, values: Mapping[str, int]
) -> Values:
    left = sample_array(node.left, n, rng, values)
    right = sample_array(node.right, n, rng, values)
    op = node.op
    if op == "+":
        return left + right
    if op == "-":
        return left - right
    if op in ("*", "x"):
        return left * right
    if op in COMPARISONS:
        return np.asarray(_COMPARE[op](left, right), dtype=np.int64)
    if not right.all():
        raise zero_divisor(node)
    if op == "/":
        return np.true_divide(left, right)
    if op == "//":
        return np.floor_divide(left, right)
    return np.mod(left, right)


def _count(dice: Dice, values: Mapping[str, int]) -> int:
    if dice.count is None:
        return 1
    if isinstance(dice.count, int):
        return dice.count
    return check_count(dice, lookup(values, dice.count))


def _sample_dice(pool: Pool, count: int, n: int, rng: np.random.Generator) -> Values:
    assert pool.dice is not None
    sides = pool.dice.sides
    if count == 0:
        return np.zeros(n, dtype=np.int64)
    faces = rng.integers(1, sides + 1, size=(count, n), dtype=np.int64)
    stages = pool.steps
    if _ranked_keep(stages):
        return _keep_ranked(stages[0], faces)
    kept = np.ones(faces.shape, dtype=bool)
    for step in stages:
        faces, kept = _act(step, faces, kept, sides, rng)
    return _total(faces, kept)


def _ranked_keep(stages: tuple[Step, ...]) -> bool:
    """True when the steps are one keep or drop of the highest or lowest n."""
    only = stages[0].selectors if len(stages) == 1 and stages[0].kind in ("k", "p") else ()
    return len(only) == 1 and only[0].by_rank


def _total(faces: Values, kept: Mask) -> Values:
    """Each sample's sum of the values kept."""
    return np.asarray(np.where(kept, faces, 0).sum(axis=0))


def _keep_ranked(step: Step, faces: Ints) -> Values:
    """Keep or drop the highest or lowest n with nothing else (4d6kh3): no masks needed."""
    count = faces.shape[0]
    (selector,) = step.selectors
    chosen = min(selector.value, count)
    kept = chosen if step.kind == "k" else count - chosen
    from_top = (selector.select == "h") == (step.kind == "k")
    if kept == 0:
        return np.zeros(faces.shape[1], dtype=np.int64)
    if kept == count:
        return np.asarray(faces.sum(axis=0))
    # One die kept or one dropped are the common cases (2d20kl1, 4d6kh3): no sort needed.
    if kept == 1:
        return np.asarray(faces.max(axis=0) if from_top else faces.min(axis=0))
    if kept == count - 1:
        dropped = faces.min(axis=0) if from_top else faces.max(axis=0)
        return np.asarray(faces.sum(axis=0) - dropped)
    ordered = np.sort(faces, axis=0)
    part = ordered[count - kept :] if from_top else ordered[:kept]
    return np.asarray(part.sum(axis=0))


def _picked(step: Step, faces: Values, kept: Mask) -> Mask:
    """Which kept dice (or members) a step's selectors pick, sample by sample."""
    chosen = np.zeros(faces.shape, dtype=bool)
    for selector in step.selectors:
        if selector.select == "<":
            chosen |= faces < selector.value
        elif selector.select == ">":
            chosen |= faces > selector.value
        elif selector.select == "":
            chosen |= faces == selector.value
        else:
            # Rank among the kept; a stable sort, so of equal values the earlier is picked.
            key = np.where(kept, -faces if selector.select == "h" else faces, np.inf)
            order = np.argsort(key, axis=0, kind="stable")[: selector.value]
            columns = np.broadcast_to(np.arange(faces.shape[1]), order.shape)
            chosen[order, columns] = True
    return chosen & kept


def _act(
    step: Step, faces: Ints, kept: Mask, sides: int, rng: np.random.Generator
) -> tuple[Ints, Mask]:
    kind = step.kind
    if kind == "k":
        return faces, kept & _picked(step, faces, kept)
    if kind == "p":
        return faces, kept & ~_picked(step, faces, kept)
    if kind in ("mi", "ma"):
        bound = step.selectors[0].value
        beyond = faces < bound if kind == "mi" else faces > bound
        return np.where(kept & beyond, bound, faces), kept
    if kind == "rr":
        flat = faces.ravel()
        todo = np.flatnonzero(_picked(step, faces, kept))
        while todo.size:
            fresh = rng.integers(1, sides + 1, size=todo.size, dtype=np.int64)
            flat[todo] = fresh
            todo = todo[_picked(step, fresh, np.ones(fresh.shape, dtype=bool))]
        return faces, kept
    if kind == "ro":
        chosen = _picked(step, faces, kept)
        faces[chosen] = rng.integers(1, sides + 1, size=int(chosen.sum()), dtype=np.int64)
        return faces, kept
    if kind == "ra":
        adds = np.asarray(_picked(step, faces, kept).any(axis=0))
        new = rng.integers(1, sides + 1, size=(1, faces.shape[1]), dtype=np.int64)
        return np.vstack([faces, new]), np.vstack([kept, adds[np.newaxis]])
    return _explode(step, faces, kept, sides, rng)


def _explode(
    step: Step, faces: Ints, kept: Mask, sides: int, rng: np.random.Generator
) -> tuple[Ints, Mask]:
    """In rounds, as the roll: each picked die adds a new die; only the dice a round added
    can be picked in the next, to :data:`EXPLODE_DEPTH` rounds."""
    todo = _picked(step, faces, kept)
    for _ in range(EXPLODE_DEPTH):
        per_sample = todo.sum(axis=0)
        height = int(per_sample.max()) if per_sample.size else 0
        if height == 0:
            break
        # The new dice of a sample fill the first rows of a new block (order does not matter:
        # they are fresh dice alike).
        new_faces = rng.integers(1, sides + 1, size=(height, faces.shape[1]), dtype=np.int64)
        new_kept = np.arange(height)[:, np.newaxis] < per_sample[np.newaxis, :]
        first_new = faces.shape[0]
        faces, kept = np.vstack([faces, new_faces]), np.vstack([kept, new_kept])
        if step.by_rank:
            todo = _picked(step, faces, kept)
            todo[:first_new] = False
        else:
            todo = np.zeros(faces.shape, dtype=bool)
            todo[first_new:] = _picked(step, new_faces, new_kept)
    return faces, kept


def sample(
    expression: Expression,
    n: int,
    rng: np.random.Generator,
    values: Mapping[str, int] | None = None,
) -> Ints:
    """``n`` independent totals of ``expression`` at once, for simulation: int64, ``(n,)``."""
    if n < 0:
        raise DiceNotationError(f"cannot draw {n} samples")
    drawn = sample_array(expression.tree, n, rng, {} if values is None else values)
    # As a roll's total: cut toward zero (astype truncates).
    return drawn if drawn.dtype == np.int64 else drawn.astype(np.int64)
