"""Sampling for simulation: the tree evaluated on numpy arrays, many results at once.

Same meaning as rolling (operations in written order, each exploded die a new die in the
pool, ``/`` exact and the total cut toward zero), checked against the exact odds by the
property tests. A pool is a matrix: one row per die (or set member), one column a sample,
with a mask of the dice still kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from math import lcm
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
    Group,
    Name,
    Node,
    NumberSet,
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
        if _ranked_keep(pool.steps):
            return _keep_ranked(pool.steps[0], members)
        kept: Mask | None = None
        for step in pool.steps:
            members, kept = _act(step, members, kept, 0, rng)  # (only keep and drop here)
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
    stages = pool.steps
    last = len(stages) - 1 if _ranked_keep(stages[-1:]) else len(stages)
    table = _one_die_table(stages[:last], sides)
    if table is not None:
        # Each die comes to one value whose chances are known: draw it from a table.
        faces = table[rng.integers(0, table.size, size=(count, n))]
        if last == len(stages):
            return np.asarray(faces.sum(axis=0, dtype=np.int64))
        return _keep_ranked(stages[last], faces)
    faces = rng.integers(1, sides + 1, size=(count, n), dtype=np.int64)
    # None while every die is kept (no mask to carry until a step drops or adds dice).
    kept: Mask | None = None
    for step in stages[:last]:
        faces, kept = _act(step, faces, kept, sides, rng)
    if last < len(stages):
        if kept is None:
            return _keep_ranked(stages[last], faces)
        return _keep_ranked_among(stages[last], faces, kept)
    return _total(faces, kept)


def _keep_ranked_among(step: Step, faces: Ints, kept: Mask) -> Values:
    """A last keep or drop of the highest or lowest n, among the dice still kept: sorting
    each sample's dice (those dropped before sort to the far end) is cheaper than ranking."""
    (selector,) = step.selectors
    highest = selector.select == "h"
    far = np.iinfo(np.int64).min if highest else np.iinfo(np.int64).max
    ordered = np.where(kept, faces, far)
    ordered.sort(axis=0)
    picked = ordered[ordered.shape[0] - selector.value :] if highest else ordered[: selector.value]
    chosen = np.where(picked == far, 0, picked).sum(axis=0)
    if step.kind == "k":
        return np.asarray(chosen)
    return np.asarray(_total(faces, kept) - chosen)


#: The largest table of one die's values drawn from (its chances' common denominator).
MAX_TABLE = 1 << 16


@lru_cache(maxsize=256)
def _one_die_table(stages: tuple[Step, ...], sides: int) -> Values | None:
    """For steps that leave each die one value (rerolls and a minimum or maximum, by face):
    every value as often as its chance in a common denominator, so that drawing a uniform
    place in the table draws the die's value with its exact chance. None for other steps
    or when the table would be too large."""
    if any(step.kind not in ("rr", "ro", "mi", "ma") or step.by_rank for step in stages):
        return None
    faces = range(1, sides + 1)
    chances = dict.fromkeys(faces, Fraction(1, sides))
    for step in stages:
        after: dict[int, Fraction] = {}
        if step.kind in ("mi", "ma"):
            bound = step.selectors[0].value
            for value, p in chances.items():
                moved = max(value, bound) if step.kind == "mi" else min(value, bound)
                after[moved] = after.get(moved, Fraction(0)) + p
        else:
            again = [f for f in faces if step.kind == "ro" or not step.picks_by_value(f)]
            rerolled = sum((p for v, p in chances.items() if step.picks_by_value(v)), Fraction(0))
            after = {v: p for v, p in chances.items() if not step.picks_by_value(v)}
            for face in again:
                after[face] = after.get(face, Fraction(0)) + rerolled / len(again)
        chances = after
    scale = lcm(*(p.denominator for p in chances.values()))
    if scale > MAX_TABLE:
        return None
    values = sorted(chances)
    # 16 bits where they hold every value: the dice then take a quarter of the memory.
    small = max(values) < np.iinfo(np.int16).max
    return np.repeat(
        np.array(values, dtype=np.int16 if small else np.int64),
        [int(chances[v] * scale) for v in values],
    )


def _ranked_keep(stages: tuple[Step, ...]) -> bool:
    """True when the steps are one keep or drop of the highest or lowest n."""
    only = stages[0].selectors if len(stages) == 1 and stages[0].kind in ("k", "p") else ()
    return len(only) == 1 and only[0].by_rank


def _total(faces: Values, kept: Mask | None) -> Values:
    """Each sample's sum of the values kept."""
    if kept is None:
        return np.asarray(faces.sum(axis=0))
    return np.asarray(np.where(kept, faces, 0).sum(axis=0))


def _keep_ranked(step: Step, faces: Values) -> Values:
    """Keep or drop the highest or lowest n with nothing else (4d6kh3): no masks needed."""
    count = faces.shape[0]
    (selector,) = step.selectors
    chosen = min(selector.value, count)
    kept = chosen if step.kind == "k" else count - chosen
    from_top = (selector.select == "h") == (step.kind == "k")
    total: Values
    if kept == 0:
        return np.zeros(faces.shape[1], dtype=np.int64)
    if kept == count:
        total = faces.sum(axis=0, dtype=_sum_type(faces))
    # One die kept or one dropped are the common cases (2d20kl1, 4d6kh3): no sort needed.
    elif kept == 1:
        total = faces.max(axis=0) if from_top else faces.min(axis=0)
    elif kept == count - 1:
        dropped = faces.min(axis=0) if from_top else faces.max(axis=0)
        total = faces.sum(axis=0, dtype=_sum_type(faces)) - dropped
    elif faces.dtype == np.int16 and kept <= 8:
        total = _sum_of_extremes(faces, kept, from_top)
    elif faces.dtype == np.int16 and count - kept <= 8:
        everything = faces.sum(axis=0, dtype=np.int64)
        total = everything - _sum_of_extremes(faces, count - kept, not from_top)
    else:
        faces.sort(axis=0)  # in place: the samples are this function's to spend
        part = faces[count - kept :] if from_top else faces[:kept]
        total = part.sum(axis=0, dtype=_sum_type(faces))
    return np.asarray(total, dtype=_sum_type(faces))


def _sum_type(faces: Values) -> type[np.int64] | type[np.float64]:
    return np.float64 if faces.dtype == np.float64 else np.int64


def _sum_of_extremes(faces: Values, n: int, highest: bool) -> Ints:
    """The sum of each sample's n highest (or lowest) small dice: the dice pass through n
    running extremes, each die pushing the lesser (greater) one on, much cheaper than a
    sort for a few dice in 16 bits."""
    info = np.iinfo(faces.dtype)
    keep, carry_on = (np.maximum, np.minimum) if highest else (np.minimum, np.maximum)
    start = info.min if highest else info.max
    best = [np.full(faces.shape[1], start, dtype=faces.dtype) for _ in range(n)]
    for row in faces:
        carried = row
        for place, held in enumerate(best):
            best[place] = keep(held, carried)
            carried = carry_on(held, carried)
    return np.asarray(sum(b.astype(np.int64) for b in best), dtype=np.int64)


def _picked(step: Step, faces: Values, kept: Mask | None) -> Mask:
    """Which kept dice (or members) a step's selectors pick, sample by sample (``kept``
    None: all are kept)."""
    chosen: Mask | None = None
    for selector in step.selectors:
        if selector.select == "<":
            found = faces < selector.value
        elif selector.select == ">":
            found = faces > selector.value
        elif selector.select == "":
            found = faces == selector.value
        else:
            # Rank among the kept; a stable sort, so of equal values the earlier is picked.
            key = -faces if selector.select == "h" else faces
            if kept is not None:
                far = np.iinfo(np.int64).max if faces.dtype == np.int64 else np.inf
                key = np.where(kept, key, far)
            order = np.argsort(key, axis=0, kind="stable")[: selector.value]
            columns = np.broadcast_to(np.arange(faces.shape[1]), order.shape)
            found = np.zeros(faces.shape, dtype=bool)
            found[order, columns] = True
        chosen = found if chosen is None else chosen | found
    assert chosen is not None
    return chosen if kept is None else chosen & kept


def _act(
    step: Step, faces: Ints, kept: Mask | None, sides: int, rng: np.random.Generator
) -> tuple[Ints, Mask | None]:
    kind = step.kind
    if kind == "k":
        return faces, _picked(step, faces, kept)
    if kind == "p":
        dropped = ~_picked(step, faces, kept)
        return faces, dropped if kept is None else kept & dropped
    if kind in ("mi", "ma"):
        bound = step.selectors[0].value
        beyond = faces < bound if kind == "mi" else faces > bound
        return np.where(beyond if kept is None else kept & beyond, bound, faces), kept
    if kind == "rr":
        flat = faces.ravel()
        todo = np.flatnonzero(_picked(step, faces, kept))
        while todo.size:
            fresh = rng.integers(1, sides + 1, size=todo.size, dtype=np.int64)
            flat[todo] = fresh
            todo = todo[_picked(step, fresh, None)]
        return faces, kept
    if kind == "ro":
        chosen = _picked(step, faces, kept)
        faces[chosen] = rng.integers(1, sides + 1, size=int(chosen.sum()), dtype=np.int64)
        return faces, kept
    if kind == "ra":
        adds = np.asarray(_picked(step, faces, kept).any(axis=0))
        new = rng.integers(1, sides + 1, size=(1, faces.shape[1]), dtype=np.int64)
        return np.vstack([faces, new]), np.vstack([_mask(kept, faces), adds[np.newaxis]])
    return _explode(step, faces, _mask(kept, faces), sides, rng)


def _mask(kept: Mask | None, faces: Values) -> Mask:
    return np.ones(faces.shape, dtype=bool) if kept is None else kept


def _explode(
    step: Step, faces: Ints, kept: Mask, sides: int, rng: np.random.Generator
) -> tuple[Ints, Mask]:
    """In rounds, as the roll: each picked die adds a new die; only the dice a round added
    can be picked in the next, to :data:`EXPLODE_DEPTH` rounds."""
    if step.by_rank:
        return _explode_by_rank(step, faces, kept, sides, rng)
    # Picked by face, each new die's fate is its own: follow the new dice as a list of
    # (sample, face), and add them to the pool once, as a block as high as the most dice
    # any one sample gained (a block per round would be as high as the luckiest sample's
    # round, again and again).
    samples = np.nonzero(_picked(step, faces, kept))[1]
    gained_samples: list[Ints] = []
    gained_faces: list[Ints] = []
    for _ in range(EXPLODE_DEPTH):
        if samples.size == 0:
            break
        new = rng.integers(1, sides + 1, size=samples.size, dtype=np.int64)
        gained_samples.append(samples)
        gained_faces.append(new)
        samples = samples[_picked(step, new, None)]
    if not gained_samples:
        return faces, kept
    where = np.concatenate(gained_samples)
    order = np.argsort(where, kind="stable")
    where, got = where[order], np.concatenate(gained_faces)[order]
    per_sample = np.bincount(where, minlength=faces.shape[1])
    starts = np.concatenate(([0], np.cumsum(per_sample)[:-1]))
    row = np.arange(where.size) - starts[where]
    block = np.zeros((int(per_sample.max()), faces.shape[1]), dtype=np.int64)
    block[row, where] = got
    block_kept = np.zeros(block.shape, dtype=bool)
    block_kept[row, where] = True
    return np.vstack([faces, block]), np.vstack([kept, block_kept])


def _explode_by_rank(
    step: Step, faces: Ints, kept: Mask, sides: int, rng: np.random.Generator
) -> tuple[Ints, Mask]:
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
        todo = _picked(step, faces, kept)
        todo[:first_new] = False
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
    given = {} if values is None else values
    batch = max(1, MAX_BATCH_DICE // _most_dice(expression.tree, given))
    parts = [
        sample_array(expression.tree, min(batch, n - start), rng, given)
        for start in range(0, n, batch)
    ]
    drawn = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    # As a roll's total: cut toward zero (astype truncates).
    return np.asarray(drawn, dtype=np.int64)


#: The most dice the samples drawn at once may hold: many samples of many exploding dice
#: (1000d6e>1) are drawn in batches rather than filling memory.
MAX_BATCH_DICE = 1 << 22


def _most_dice(node: Node, values: Mapping[str, int]) -> int:
    """About the most dice one sample of a tree may roll (every explosion chain at its bound)."""
    if isinstance(node, Dice):
        count = node.count if isinstance(node.count, int) else 1
        if isinstance(node.count, str):
            count = max(values.get(node.count, 1), 1)
        grows = sum(EXPLODE_DEPTH if op.kind == "e" else 1 for op in node.ops if op.kind in "era")
        return max(count, 1) * (1 + grows)
    if isinstance(node, Signed | Annotated):
        return _most_dice(node.operand, values)
    if isinstance(node, Group):
        return _most_dice(node.inner, values)
    if isinstance(node, BinOp):
        return _most_dice(node.left, values) + _most_dice(node.right, values)
    if isinstance(node, NumberSet):
        return sum(_most_dice(item, values) for item in node.items) + 1
    return 1
