"""Exact odds: the tree evaluated into an icepool ``Die`` of exact fractions.

>>> from turnkeeper.dice import parse
>>> mean(parse("4d6kh3"))
Fraction(15869, 1296)
>>> distribution(parse("1d4"))[2]
Fraction(1, 4)

Every sub-expression rolls its own dice, so binary operators are icepool's operators on
independent dice. A dice term's operations act in written order. Wherever one of icepool's
own operations means what d20 means, it does the work, so that no expression costs more than
icepool computing the same distribution directly (``bench/dice.py exact``): sums of like dice
as ``n @ die``, a keep or drop of the highest or lowest through icepool's pools (after
exploding dice, its pool of exploded dice), ``Die.explode``, ``Die.reroll``, ``Die.clip``.
Otherwise, while each die's fate is its own (reroll, explode or keep by face, minimum,
maximum) the term is worked out one die at a time; from the first operation that looks at
the whole pool (highest, lowest, ``ra``) on, the pool itself is weighed, as the sorted
values of its dice (both in :mod:`turnkeeper.dice.weighing`). Steps too large to weigh
exactly are refused with one clear error.
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
    Annotated,
    BinOp,
    Const,
    Dice,
    Name,
    Node,
    Signed,
    Step,
    check_count,
    pool_of,
    steps,
)
from turnkeeper.dice.rolling import OPERATORS, lookup, zero_divisor
from turnkeeper.dice.weighing import (
    MAX_BAG_PAIRS,
    MAX_EXACT_PAIRS,
    ZERO,
    OneDie,
    check_cost,
    mix_bags,
    mix_dice,
    pool_of_bags,
    pool_of_members,
    ranked_keep,
    weigh_pool,
)

__all__ = ["MAX_EXACT_PAIRS", "distribution", "exact", "exact_die", "mean", "quartiles"]


def _sum_of(count: int, single: icepool.Die, what: object) -> icepool.Die:
    """``count`` independent copies of ``single`` added up: icepool's ``count @ single``.

    icepool keeps every partial sum on the die (and ``icepool.d`` keeps its dice), so a
    second sum of the same die costs nothing.
    """
    if count == 0:
        return ZERO
    if count == 1:
        return single  # ``1 @ single`` would build the same die again
    sides = len(single)
    check_cost(what, sides * sides * count * (count - 1) // 2)
    # ``count @ single`` recurses once per die missing from that store, so a thousand dice
    # overflowed the stack: fill it a stretch at a time, each stretch a short recursion.
    for partial in range(_SUM_STRETCH, count, _SUM_STRETCH):
        partial @ single
    return count @ single


#: Dice added in one recursion of ``count @ die`` (see ``_sum_of``), well within the stack.
_SUM_STRETCH = 200


def exact_die(node: Node, values: Mapping[str, int]) -> icepool.Die:
    """The exact distribution of a tree, names resolved from ``values`` (before the total
    is cut toward zero: outcomes are floats where ``/`` or decimals make them so)."""
    if isinstance(node, Dice):
        # Straight to the steps: ``pool_of`` also writes the breakdown's text, which is a
        # fair share of the cost of a small expression's odds.
        count = _count(node, values)
        if not node.ops:
            return _sum_of(count, icepool.d(node.sides), node) if count else ZERO
        return _exact_dice(node, steps(node.ops), count)
    if isinstance(node, Const):
        return icepool.Die([node.value])
    if isinstance(node, Name):
        return icepool.Die([lookup(values, node.name)])
    if isinstance(node, Signed):
        operand = exact_die(node.operand, values)
        return -operand if node.sign == "-" else operand
    if isinstance(node, Annotated):
        return exact_die(node.operand, values)
    if isinstance(node, BinOp):
        return _exact_binop(node, values)
    pool = pool_of(node)
    assert pool is not None
    if pool.dice is None:
        members = [exact_die(member, values) for member in pool.members]
        return weigh_pool(pool_of_members(members, pool, node), pool.steps, None, node)
    return _exact_dice(pool.dice, pool.steps, _count(pool.dice, values))


def _exact_binop(node: BinOp, values: Mapping[str, int]) -> icepool.Die:
    left, right = exact_die(node.left, values), exact_die(node.right, values)
    check_cost(node, len(left) * len(right))
    if node.op in ("/", "//", "%") and 0 in right.outcomes():
        raise zero_divisor(node)
    if node.op == "+":
        return left + right
    if node.op == "-":
        return left - right
    if node.op in ("*", "x"):
        return left * right
    # icepool's own comparisons give truth values; d20's (in OPERATORS) give 1 or 0.
    combine = OPERATORS[node.op]
    return icepool.map(lambda a, b: combine(a, b), left, right)


def _count(dice: Dice, values: Mapping[str, int]) -> int:
    if dice.count is None:
        return 1
    if isinstance(dice.count, int):
        return dice.count
    return check_count(dice, lookup(values, dice.count))


def _exact_dice(dice: Dice, stages: tuple[Step, ...], count: int) -> icepool.Die:
    sides = dice.sides
    if count == 0:
        return ZERO
    check_cost(dice, sides * sides * len(stages))
    own: tuple[Step, ...]
    shared: tuple[Step, ...]
    if len(stages) == 1 and stages[0].per_die:
        own, shared = stages, ()  # most terms: one step (``1d6rr1``, ``3d6e6``)
    else:
        split = next((i for i, step in enumerate(stages) if not step.per_die), len(stages))
        own, shared = stages[:split], stages[split:]
    if not shared:
        # Each die's fate is its own: add up what each die comes to.
        return _sum_of(count, _single_die(own, sides, dice), dice)
    keep = ranked_keep(shared)
    if keep is not None and all(step.kind in ("rr", "ro", "mi", "ma") for step in own):
        # Every die still one value: icepool keeps the highest or lowest of the pool.
        return _keep_ranked(_single_die(own, sides, dice), count, keep, dice)
    if keep is not None and len(own) == 1 and own[0].kind == "e":
        exploded = _keep_exploded(own[0], sides, count, keep, dice)
        if exploded is not None:
            return exploded
    one = OneDie(own, sides, dice, bags=True)
    bag = mix_bags([one.start(face) for face in range(1, sides + 1)], dice)
    return weigh_pool(pool_of_bags([bag] * count, shared, dice), shared, sides, dice)


def _single_die(own: tuple[Step, ...], sides: int, what: object) -> icepool.Die:
    """What one die adds under steps that treat each die alone.

    icepool's own operations where they mean what d20 means: a reroll or reroll once only
    as the first step (a rerolled die is a fresh die, which icepool's ``reroll`` of an
    already changed die would not roll), an explosion only as the only step (the dice it
    adds go through the steps after it one by one), a minimum or maximum anywhere after
    those. Any other order is worked out die by die (``OneDie``).
    """
    die = icepool.d(sides)
    rest = own
    if own and own[0].kind in ("rr", "ro", "e"):
        first, rest = own[0], own[1:]
        picked = _faces_picked(first, sides)
        if first.kind == "e" and not rest:
            return die.explode(picked, depth=EXPLODE_DEPTH) if picked else die
        if first.kind == "rr" and picked:
            # Every face picked never stops and is refused when the text is read.
            die = die.reroll(picked, depth="inf")
        elif first.kind == "ro" and 0 < len(picked) < sides:
            # Rerolling every face once is the same die (icepool would divide by zero).
            die = die.reroll(picked, depth=1)
        elif first.kind == "e":
            rest = own
    if not rest:
        return die
    if all(step.kind in ("mi", "ma") for step in rest):
        for step in rest:
            bound = step.selectors[0].value
            die = die.clip(min_outcome=bound) if step.kind == "mi" else die.clip(max_outcome=bound)
        return die
    one = OneDie(own, sides, what)
    return mix_dice([one.start(face) for face in range(1, sides + 1)])


def _faces_picked(step: Step, sides: int) -> list[int]:
    """The faces of a d``sides`` a step picks by value, as ``step.picks_by_value`` picks
    them, from the selectors' bounds at once rather than face by face."""
    if len(step.selectors) == 1 and step.selectors[0].select == "":
        face = step.selectors[0].value  # one face, as most steps pick (``rr1``, ``e6``)
        return [face] if 1 <= face <= sides else []
    picked: set[int] = set()
    for selector in step.selectors:
        if selector.select == "":
            low, high = selector.value, selector.value
        elif selector.select == "<":
            low, high = 1, selector.value - 1
        elif selector.select == ">":
            low, high = selector.value + 1, sides
        else:
            continue  # by rank: not picked by a face's value
        picked.update(range(max(low, 1), min(high, sides) + 1))
    return sorted(picked)


def _keep_exploded(
    explode: Step, sides: int, count: int, keep: Step, what: object
) -> icepool.Die | None:
    """``NdXeY`` then one keep or drop of the highest or lowest: icepool's pool of exploded
    dice (each exploded die a new die of the pool, a chain stopping at EXPLODE_DEPTH new
    dice), or None to weigh it bag by bag."""
    picked = _faces_picked(explode, sides)
    if len(picked) != 1:
        # On several faces icepool's cost grows with the faces too (4d6e>3kh4: 3 s, where
        # 4d6e6kh4 takes 0.6 s) and no estimate of it is measured yet: these keep the bag
        # weighing and its limit (1d9e>1kh1 is refused, though icepool takes 0.1 s).
        return None
    # Measured: icepool weighs about (dice x chain)^2 pools, a second for 6d6e6kh3; 8d6e6kh3
    # (3 s) and 9d9e9kh9 are refused at once.
    check_cost(what, (count * (EXPLODE_DEPTH + 1)) ** 2 * 10, MAX_BAG_PAIRS)
    pool = icepool.d(sides).explode_to_pool(count, picked, depth=EXPLODE_DEPTH)
    (selector,) = keep.selectors
    n = selector.value
    if selector.select == "h":
        kept = pool.highest(n) if keep.kind == "k" else pool.highest(drop=n)
    else:
        kept = pool.lowest(n) if keep.kind == "k" else pool.lowest(drop=n)
    total: icepool.Die = kept.sum()
    return total


def _keep_ranked(single: icepool.Die, count: int, keep: Step, what: object) -> icepool.Die:
    (selector,) = keep.selectors
    chosen = min(selector.value, count)
    kept = chosen if keep.kind == "k" else count - chosen
    # Keeping the highest is dropping the lowest, and the other way round.
    from_top = (selector.select == "h") == (keep.kind == "k")
    if kept == 0:
        return ZERO
    if kept == count:
        return _sum_of(count, single, what)
    # icepool walks the pool die by die, each step over the kept totals so far.
    check_cost(what, count * len(single) * kept * len(single))
    if from_top:
        return single.highest(count, keep=kept)
    return single.lowest(count, keep=kept)


def exact(expression: Expression, values: Mapping[str, int] | None = None) -> icepool.Die:
    """The exact distribution of ``expression``'s total as an icepool ``Die``."""
    return _exact(expression.tree, () if values is None else tuple(sorted(values.items())))


@lru_cache(maxsize=256)
def _exact(tree: Node, values: tuple[tuple[str, Any], ...]) -> icepool.Die:
    die = exact_die(tree, dict(values))
    if set(map(type, die.outcomes())) == {int}:
        return die
    # As a roll's total: cut toward zero at the end (d20's int()).
    return die.map(lambda outcome: int(outcome))


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
