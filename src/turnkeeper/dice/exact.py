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
values of its dice. Steps too large to weigh exactly are refused with one clear error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from functools import lru_cache
from math import lcm
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
    Number,
    Pool,
    Signed,
    Step,
    check_count,
    pool_of,
    steps,
)
from turnkeeper.dice.rolling import OPERATORS, lookup, zero_divisor
from turnkeeper.errors import DiceNotationError

#: The most pairs of outcomes one exact step may combine. Weighing costs about half a
#: microsecond a pair, so this keeps ``odds`` within a few seconds; 100d100 (some
#: 50 million pairs) or 2d10000 would otherwise run for minutes.
MAX_EXACT_PAIRS = 2_000_000

#: A pool as the exact odds see it: the values of the dice still kept, sorted (of equal
#: values the first stands for the earliest die, which is the one d20 picks first).
Bag = tuple[Number, ...]
#: Chances of bags.
Bags = dict[Bag, Fraction]

_ZERO = icepool.Die([0])


#: The same limit for weighing a pool bag by bag, which costs some ten times more a pair.
MAX_BAG_PAIRS = MAX_EXACT_PAIRS // 10


def _check_cost(what: object, pairs: int, limit: int = MAX_EXACT_PAIRS) -> None:
    if pairs > limit:
        raise DiceNotationError(
            f"{what}: too many outcomes to weigh exactly (about {pairs:,} combinations, "
            f"the limit is {limit:,}); use fewer dice or smaller dice"
        )


def _sum_of(count: int, single: icepool.Die, what: object) -> icepool.Die:
    """``count`` independent copies of ``single`` added up: icepool's ``count @ single``.

    icepool keeps every partial sum on the die (and ``icepool.d`` keeps its dice), so a
    second sum of the same die costs nothing.
    """
    if count == 0:
        return _ZERO
    if count == 1:
        return single  # ``1 @ single`` would build the same die again
    sides = len(single)
    _check_cost(what, sides * sides * count * (count - 1) // 2)
    # ``count @ single`` recurses once per die missing from that store, so a thousand dice
    # overflowed the stack: fill it a stretch at a time, each stretch a short recursion.
    for partial in range(_SUM_STRETCH, count, _SUM_STRETCH):
        partial @ single
    return count @ single


#: Dice added in one recursion of ``count @ die`` (see ``_sum_of``), well within the stack.
_SUM_STRETCH = 200


def _die_of(chances: Mapping[Number, Fraction]) -> icepool.Die:
    """An icepool die from exact chances (icepool counts in whole numbers)."""
    scale = lcm(*(chance.denominator for chance in chances.values()))
    return icepool.Die({outcome: int(chance * scale) for outcome, chance in chances.items()})


def exact_die(node: Node, values: Mapping[str, int]) -> icepool.Die:
    """The exact distribution of a tree, names resolved from ``values`` (before the total
    is cut toward zero: outcomes are floats where ``/`` or decimals make them so)."""
    if isinstance(node, Dice):
        # Straight to the steps: ``pool_of`` also writes the breakdown's text, which is a
        # fair share of the cost of a small expression's odds.
        count = _count(node, values)
        if not node.ops:
            return _sum_of(count, icepool.d(node.sides), node) if count else _ZERO
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
        return _weigh_pool(_pool_of_members(members, pool, node), pool.steps, None, node)
    return _exact_dice(pool.dice, pool.steps, _count(pool.dice, values))


def _exact_binop(node: BinOp, values: Mapping[str, int]) -> icepool.Die:
    left, right = exact_die(node.left, values), exact_die(node.right, values)
    _check_cost(node, len(left) * len(right))
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
        return _ZERO
    _check_cost(dice, sides * sides * len(stages))
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
    keep = _ranked_keep(shared)
    if keep is not None and all(step.kind in ("rr", "ro", "mi", "ma") for step in own):
        # Every die still one value: icepool keeps the highest or lowest of the pool.
        return _keep_ranked(_single_die(own, sides, dice), count, keep, dice)
    if keep is not None and len(own) == 1 and own[0].kind == "e":
        exploded = _keep_exploded(own[0], sides, count, keep, dice)
        if exploded is not None:
            return exploded
    one = _OneDie(own, sides, dice, bags=True)
    bag = _mix([one.start(face) for face in range(1, sides + 1)], dice)
    return _weigh_pool(_pool_of_bags([bag] * count, shared, dice), shared, sides, dice)


def _single_die(own: tuple[Step, ...], sides: int, what: object) -> icepool.Die:
    """What one die adds under steps that treat each die alone.

    icepool's own operations where they mean what d20 means: a reroll or reroll once only
    as the first step (a rerolled die is a fresh die, which icepool's ``reroll`` of an
    already changed die would not roll), an explosion only as the only step (the dice it
    adds go through the steps after it one by one), a minimum or maximum anywhere after
    those. Any other order is worked out die by die (``_OneDie``).
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
    one = _OneDie(own, sides, what)
    return _mixed([one.start(face) for face in range(1, sides + 1)])


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


def _mixed(dice: list[icepool.Die]) -> icepool.Die:
    """Each of ``dice`` equally likely; plain values are gathered at once, as icepool
    mixing dice of one outcome each is some ten times slower."""
    if all(len(die) == 1 for die in dice):
        return icepool.Die([die.outcomes()[0] for die in dice])
    return icepool.Die(dice)


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
    _check_cost(what, (count * (EXPLODE_DEPTH + 1)) ** 2 * 10, MAX_BAG_PAIRS)
    pool = icepool.d(sides).explode_to_pool(count, picked, depth=EXPLODE_DEPTH)
    (selector,) = keep.selectors
    n = selector.value
    if selector.select == "h":
        kept = pool.highest(n) if keep.kind == "k" else pool.highest(drop=n)
    else:
        kept = pool.lowest(n) if keep.kind == "k" else pool.lowest(drop=n)
    total: icepool.Die = kept.sum()
    return total


def _ranked_keep(stages: tuple[Step, ...]) -> Step | None:
    """The one step, when the steps are one keep or drop of the highest or lowest n."""
    if len(stages) == 1 and stages[0].kind in ("k", "p") and len(stages[0].selectors) == 1:
        return stages[0] if stages[0].selectors[0].by_rank else None
    return None


def _keep_ranked(single: icepool.Die, count: int, keep: Step, what: object) -> icepool.Die:
    (selector,) = keep.selectors
    chosen = min(selector.value, count)
    kept = chosen if keep.kind == "k" else count - chosen
    # Keeping the highest is dropping the lowest, and the other way round.
    from_top = (selector.select == "h") == (keep.kind == "k")
    if kept == 0:
        return _ZERO
    if kept == count:
        return _sum_of(count, single, what)
    # icepool walks the pool die by die, each step over the kept totals so far.
    _check_cost(what, count * len(single) * kept * len(single))
    if from_top:
        return single.highest(count, keep=kept)
    return single.lowest(count, keep=kept)


class _OneDie:
    """What one die comes to under operations that treat each die alone, worked out
    backwards: ``start(face)`` is what a die first showing ``face`` adds once every step has
    acted (with the dice its explosions add): its total as an icepool die, or with
    ``bags`` the chances of its kept values."""

    def __init__(
        self, stages: tuple[Step, ...], sides: int, what: object, bags: bool = False
    ) -> None:
        self.stages, self.faces, self.what = stages, range(1, sides + 1), what
        self.spent = 0  # bags made so far, all chains together
        self.bags = bags
        self._from: dict[tuple[int, Number], Any] = {}
        self._new: dict[tuple[int, int], Any] = {}

    def start(self, face: int) -> Any:
        return self._after(0, face)

    def from_value(self, value: Number) -> Any:
        """What a die now showing ``value`` (forced or rolled) adds after every step."""
        return self._after(0, value)

    def _nothing(self) -> Any:
        return {(): Fraction(1)} if self.bags else _ZERO

    def _add(self, a: Any, b: Any) -> Any:
        if not self.bags:
            return a + b
        self.spent += len(a) * len(b)
        _check_cost(self.what, self.spent, MAX_BAG_PAIRS)
        return _add_bags(a, b, self.what)

    def _mix(self, choices: list[Any]) -> Any:
        return _mix(choices, self.what) if self.bags else _mixed(choices)

    def _after(self, at: int, value: Number) -> Any:
        """What a die now showing ``value`` adds once steps ``at`` onwards have acted."""
        key = (at, value)
        if key not in self._from:
            self._from[key] = self._follow(at, value)
        return self._from[key]

    def _follow(self, at: int, value: Number) -> Any:
        if at == len(self.stages):
            return {(value,): Fraction(1)} if self.bags else icepool.Die([value])
        step = self.stages[at]
        picked = step.picks_by_value(value)
        kind, then = step.kind, at + 1
        if kind == "k":
            return self._after(then, value) if picked else self._nothing()
        if kind == "p":
            return self._nothing() if picked else self._after(then, value)
        if kind == "mi":
            return self._after(then, max(value, step.selectors[0].value))
        if kind == "ma":
            return self._after(then, min(value, step.selectors[0].value))
        if not picked:
            return self._after(then, value)
        if kind == "rr":
            return self._mix(
                [self._after(then, f) for f in self.faces if not step.picks_by_value(f)]
            )
        if kind == "ro":
            return self._mix([self._after(then, f) for f in self.faces])
        # An explosion: this die goes on, and a new die (maybe exploding in turn) joins it.
        return self._add(self._after(then, value), self._new_die(at, 1))

    def new_die(self) -> Any:
        """What one die added by the first step, an explosion, adds (its own chain)."""
        return self._new_die(0, 1)

    def _new_die(self, at: int, depth: int) -> Any:
        """What a die added by the explosion at step ``at``, ``depth`` dice down, adds."""
        key = (at, depth)
        if key not in self._new:
            step = self.stages[at]
            further = self._new_die(at, depth + 1) if depth < EXPLODE_DEPTH else None
            self._new[key] = self._mix(
                [
                    self._add(self._after(at + 1, f), further)
                    if further is not None and step.picks_by_value(f)
                    else self._after(at + 1, f)
                    for f in self.faces
                ]
            )
        return self._new[key]


def _add_bags(a: Bags, b: Bags, what: object) -> Bags:
    # Chains of explosions multiply bags fast (1d9e>1kh1): refuse before they fill memory.
    _check_cost(what, len(a) * len(b), MAX_BAG_PAIRS)
    joined: Bags = {}
    for bag_a, p in a.items():
        for bag_b, q in b.items():
            bag = tuple(sorted(bag_a + bag_b))
            joined[bag] = joined.get(bag, Fraction(0)) + p * q
    return joined


def _mix(choices: list[Bags], what: object) -> Bags:
    """Each of ``choices`` equally likely."""
    share = Fraction(1, len(choices))
    _check_cost(what, sum(map(len, choices)), MAX_BAG_PAIRS)
    mixed: Bags = {}
    for bags in choices:
        for bag, p in bags.items():
            mixed[bag] = mixed.get(bag, Fraction(0)) + p * share
    return mixed


#: A pool being weighed: chances of (the values tracked, sorted; the sum of the others).
#: Usually every value is tracked; for one keep or drop of the highest or lowest n, only
#: those n are, which keeps 4d6e6kh3 or 20d6kh3 small.
Tracked = dict[tuple[Bag, Number], Fraction]


def _trim_for(steps_left: tuple[Step, ...]) -> Callable[[Bag], tuple[Bag, Bag]]:
    """How a bag may be cut down while it is gathered: (values tracked, values summed)."""
    keep = _ranked_keep(steps_left)
    if keep is None:
        return lambda bag: (bag, ())
    n = keep.selectors[0].value
    if keep.selectors[0].select == "h":
        return lambda bag: (bag[max(len(bag) - n, 0) :], bag[: max(len(bag) - n, 0)])
    return lambda bag: (bag[:n], bag[n:])


def _pool_of_bags(bags: list[Bags], shared: tuple[Step, ...], what: object) -> Tracked:
    trim = _trim_for(shared)
    pool: Tracked = {((), 0): Fraction(1)}
    spent = 0
    for bag_chances in bags:
        spent += len(pool) * len(bag_chances)
        _check_cost(what, spent, MAX_BAG_PAIRS)
        gathered: Tracked = {}
        for (tracked, rest), p in pool.items():
            for bag, q in bag_chances.items():
                kept, summed = trim(tuple(sorted(tracked + bag)))
                key = (kept, rest + sum(summed))
                gathered[key] = gathered.get(key, Fraction(0)) + p * q
        pool = gathered
    return pool


def _pool_of_members(members: list[icepool.Die], pool: Pool, what: object) -> Tracked:
    bags: list[Bags] = []
    for member in members:
        denominator = member.denominator()
        bags.append({(outcome,): Fraction(q, denominator) for outcome, q in member.items()})
    return _pool_of_bags(bags, pool.steps, what)


def _weigh_pool(
    pool: Tracked, stages: tuple[Step, ...], sides: int | None, what: object
) -> icepool.Die:
    """Act out the operations that look at the whole pool, then total what is kept."""
    if _ranked_keep(stages) is not None:
        # Only the highest or lowest n were tracked: keep them, or keep the rest.
        keeping = stages[0].kind == "k"
        return _totals(
            (sum(tracked) if keeping else rest, p) for (tracked, rest), p in pool.items()
        )
    bags: Bags = {}
    for (tracked, _), p in pool.items():
        bags[tracked] = bags.get(tracked, Fraction(0)) + p
    # Once no step looks at the whole pool any more, each die goes its own way again.
    # (A set's members are not dice: every step acts on the pool.)
    last_shared = len(stages) - 1
    if sides is not None:
        last_shared = max(i for i, step in enumerate(stages) if not step.per_die or i == 0)
    tail = stages[last_shared + 1 :]
    spent = 0
    for step in stages[: last_shared + 1]:
        after: Bags = {}
        for bag, p in bags.items():
            results = _act(step, bag, sides, what)
            spent += len(results)
            _check_cost(what, spent, MAX_BAG_PAIRS)
            for result, q in results.items():
                after[result] = after.get(result, Fraction(0)) + p * q
        bags = after
    if tail and sides is not None:
        one = _OneDie(tail, sides, what)
        _check_cost(what, len(bags) * sides * len(tail))
        return icepool.Die(
            [sum((one.from_value(v) for v in bag), _ZERO) for bag in bags],
            times=_whole_weights(list(bags.values())),
        )
    return _totals((sum(bag), p) for bag, p in bags.items())


def _totals(chances: Iterable[tuple[Number, Fraction]]) -> icepool.Die:
    """The die of the totals, chances of equal totals added."""
    totals: dict[Number, Fraction] = {}
    for total, p in chances:
        totals[total] = totals.get(total, Fraction(0)) + p
    return _die_of(totals)


def _whole_weights(chances: list[Fraction]) -> list[int]:
    scale = lcm(*(chance.denominator for chance in chances))
    return [int(chance * scale) for chance in chances]


def _picks(step: Step, bag: Bag, most: int | None = None) -> list[int]:
    """The places in a sorted bag a step picks; of equal values the first place stands for
    the earliest die, as d20 picks the earliest of equals for both highest and lowest."""
    chosen: set[int] = set()
    for selector in step.selectors:
        room = None if most is None else most - len(chosen)
        if room == 0:
            break
        if selector.by_rank:
            order = _ranked_places(bag, selector.select == "h")
            found = order[: selector.value]
        else:
            found = [i for i, value in enumerate(bag) if selector.matches(value)]
        chosen.update(found if room is None else found[:room])
    return sorted(chosen)


def _ranked_places(bag: Bag, highest: bool) -> list[int]:
    return sorted(range(len(bag)), key=lambda i: (-bag[i] if highest else bag[i], i))


def _act(step: Step, bag: Bag, sides: int | None, what: object) -> Bags:
    kind = step.kind
    if kind in ("k", "p"):
        chosen = set(_picks(step, bag))
        return {tuple(v for i, v in enumerate(bag) if (i in chosen) == (kind == "k")): Fraction(1)}
    assert sides is not None
    faces = range(1, sides + 1)
    fresh: Bags = _mix([{(f,): Fraction(1)} for f in faces], what)
    if kind == "ra":
        if not _picks(step, bag, most=1):
            return {bag: Fraction(1)}
        return _add_bags({bag: Fraction(1)}, fresh, what)
    if kind == "ro":
        chosen = set(_picks(step, bag))
        result: Bags = {tuple(v for i, v in enumerate(bag) if i not in chosen): Fraction(1)}
        for _ in chosen:
            _check_cost(what, len(result) * sides, MAX_BAG_PAIRS)
            result = _add_bags(result, fresh, what)
        return result
    if kind == "e" and not step.by_rank:
        # Each die picked by its face starts its own chain, as the die-by-die reckoning does.
        result = {bag: Fraction(1)}
        chain = _OneDie((step,), sides, what, bags=True).new_die()
        for _ in _picks(step, bag):
            _check_cost(what, len(result) * len(chain), MAX_BAG_PAIRS)
            result = _add_bags(result, chain, what)
        return result
    if kind == "e":
        return _explode_by_rank(step, bag, fresh, what)
    # rr and mi/ma only come here after a step that looked at the whole pool.
    if kind == "rr":
        chosen = set(_picks(step, bag))
        again = _mix([{(f,): Fraction(1)} for f in faces if not step.picks_by_value(f)], what)
        result = {tuple(v for i, v in enumerate(bag) if i not in chosen): Fraction(1)}
        for _ in chosen:
            result = _add_bags(result, again, what)
        return result
    bound = step.selectors[0].value
    pick = max if kind == "mi" else min
    return {tuple(sorted(pick(v, bound) for v in bag)): Fraction(1)}


def _explode_by_rank(step: Step, bag: Bag, fresh: Bags, what: object) -> Bags:
    """Explode in rounds as the roll does: in each round only the dice the last round added
    can be picked (ranked after the older dice of equal value)."""
    # States: (older dice, dice added by the last round), sorted each.
    states: dict[tuple[Bag, Bag], Fraction] = {((), bag): Fraction(1)}
    done: Bags = {}
    for _ in range(EXPLODE_DEPTH + 1):
        following: dict[tuple[Bag, Bag], Fraction] = {}
        for (older, newer), p in states.items():
            joined = [(v, 0) for v in older] + [(v, 1) for v in newer]
            count = _picked_newer(step, joined)
            whole = tuple(sorted(older + newer))
            if count == 0 or _ == EXPLODE_DEPTH:
                done[whole] = done.get(whole, Fraction(0)) + p
                continue
            added: Bags = {(): Fraction(1)}
            for _n in range(count):
                added = _add_bags(added, fresh, what)
            for extra, q in added.items():
                key = (whole, extra)
                following[key] = following.get(key, Fraction(0)) + p * q
        _check_cost(what, len(following) * len(fresh), MAX_BAG_PAIRS)
        states = following
        if not states:
            break
    return done


def _picked_newer(step: Step, joined: list[tuple[Number, int]]) -> int:
    """How many of the dice added last (marked 1) a step picks; older dice (0) come first
    among equals, as earlier dice do in the roll."""
    chosen: set[int] = set()
    for selector in step.selectors:
        if selector.by_rank:
            highest = selector.select == "h"
            order = sorted(
                range(len(joined)),
                key=lambda i: (-joined[i][0] if highest else joined[i][0], joined[i][1], i),
            )
            chosen.update(order[: selector.value])
        else:
            chosen.update(i for i, (v, _) in enumerate(joined) if selector.matches(v))
    return sum(1 for i in chosen if joined[i][1] == 1)


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
