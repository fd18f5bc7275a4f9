"""Exact odds where icepool has no operation that means what d20 means: a term's dice weighed
one die at a time (:class:`OneDie`), and from the first operation that looks at the whole
pool (highest, lowest, ``ra``) on, the pool itself weighed as bags, the sorted values of its
dice. Here too are the limits on what one exact step may cost (:func:`check_cost`): steps
too large to weigh exactly are refused with one clear error.

:mod:`turnkeeper.dice.exact` walks the tree and calls on these where its icepool
operations do not reach.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from math import lcm
from typing import Any

import icepool

from turnkeeper.dice.nodes import EXPLODE_DEPTH, Number, Pool, Step
from turnkeeper.dice.rolling import picked
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

ZERO = icepool.Die([0])

#: The same limit for weighing a pool bag by bag, which costs some ten times more a pair.
MAX_BAG_PAIRS = MAX_EXACT_PAIRS // 10


def check_cost(what: object, pairs: int, limit: int = MAX_EXACT_PAIRS) -> None:
    """Refuse a step that would combine more than ``limit`` pairs of outcomes."""
    if pairs > limit:
        raise DiceNotationError(
            f"{what}: too many outcomes to weigh exactly (about {pairs:,} combinations, "
            f"the limit is {limit:,}); use fewer dice or smaller dice"
        )


def _die_of(chances: Mapping[Number, Fraction]) -> icepool.Die:
    """An icepool die from exact chances (icepool counts in whole numbers)."""
    scale = lcm(*(chance.denominator for chance in chances.values()))
    return icepool.Die({outcome: int(chance * scale) for outcome, chance in chances.items()})


def mix_dice(dice: list[icepool.Die]) -> icepool.Die:
    """Each of ``dice`` equally likely; plain values are gathered at once, as icepool
    mixing dice of one outcome each is some ten times slower."""
    if all(len(die) == 1 for die in dice):
        return icepool.Die([die.outcomes()[0] for die in dice])
    return icepool.Die(dice)


def ranked_keep(stages: tuple[Step, ...]) -> Step | None:
    """The one step, when the steps are one keep or drop of the highest or lowest n."""
    if len(stages) == 1 and stages[0].kind in ("k", "p") and len(stages[0].selectors) == 1:
        return stages[0] if stages[0].selectors[0].by_rank else None
    return None


class OneDie:
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
        return {(): Fraction(1)} if self.bags else ZERO

    def _add(self, a: Any, b: Any) -> Any:
        if not self.bags:
            return a + b
        self.spent += len(a) * len(b)
        check_cost(self.what, self.spent, MAX_BAG_PAIRS)
        return add_bags(a, b, self.what)

    def _mix(self, choices: list[Any]) -> Any:
        return mix_bags(choices, self.what) if self.bags else mix_dice(choices)

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


def add_bags(a: Bags, b: Bags, what: object) -> Bags:
    # Chains of explosions multiply bags fast (1d9e>1kh1): refuse before they fill memory.
    check_cost(what, len(a) * len(b), MAX_BAG_PAIRS)
    joined: Bags = {}
    for bag_a, p in a.items():
        for bag_b, q in b.items():
            bag = tuple(sorted(bag_a + bag_b))
            joined[bag] = joined.get(bag, Fraction(0)) + p * q
    return joined


def mix_bags(choices: list[Bags], what: object) -> Bags:
    """Each of ``choices`` equally likely."""
    share = Fraction(1, len(choices))
    check_cost(what, sum(map(len, choices)), MAX_BAG_PAIRS)
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
    keep = ranked_keep(steps_left)
    if keep is None:
        return lambda bag: (bag, ())
    n = keep.selectors[0].value
    if keep.selectors[0].select == "h":
        return lambda bag: (bag[max(len(bag) - n, 0) :], bag[: max(len(bag) - n, 0)])
    return lambda bag: (bag[:n], bag[n:])


def pool_of_bags(bags: list[Bags], shared: tuple[Step, ...], what: object) -> Tracked:
    trim = _trim_for(shared)
    pool: Tracked = {((), 0): Fraction(1)}
    spent = 0
    for bag_chances in bags:
        spent += len(pool) * len(bag_chances)
        check_cost(what, spent, MAX_BAG_PAIRS)
        gathered: Tracked = {}
        for (tracked, rest), p in pool.items():
            for bag, q in bag_chances.items():
                kept, summed = trim(tuple(sorted(tracked + bag)))
                key = (kept, rest + sum(summed))
                gathered[key] = gathered.get(key, Fraction(0)) + p * q
        pool = gathered
    return pool


def pool_of_members(members: list[icepool.Die], pool: Pool, what: object) -> Tracked:
    bags: list[Bags] = []
    for member in members:
        denominator = member.denominator()
        bags.append({(outcome,): Fraction(q, denominator) for outcome, q in member.items()})
    return pool_of_bags(bags, pool.steps, what)


def weigh_pool(
    pool: Tracked, stages: tuple[Step, ...], sides: int | None, what: object
) -> icepool.Die:
    """Act out the operations that look at the whole pool, then total what is kept."""
    if ranked_keep(stages) is not None:
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
            check_cost(what, spent, MAX_BAG_PAIRS)
            for result, q in results.items():
                after[result] = after.get(result, Fraction(0)) + p * q
        bags = after
    if tail and sides is not None:
        one = OneDie(tail, sides, what)
        check_cost(what, len(bags) * sides * len(tail))
        return icepool.Die(
            [sum((one.from_value(v) for v in bag), ZERO) for bag in bags],
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
    """The places in a sorted bag a step picks, as a roll picks them (:func:`~turnkeeper.dice.
    rolling.picked`, every die kept): of equal values the first place stands for the earliest
    die, as d20 picks the earliest of equals for both highest and lowest."""
    return picked(step, bag, (True,) * len(bag), most)


def _act(step: Step, bag: Bag, sides: int | None, what: object) -> Bags:
    kind = step.kind
    if kind in ("k", "p"):
        chosen = set(_picks(step, bag))
        return {tuple(v for i, v in enumerate(bag) if (i in chosen) == (kind == "k")): Fraction(1)}
    assert sides is not None
    faces = range(1, sides + 1)
    fresh: Bags = mix_bags([{(f,): Fraction(1)} for f in faces], what)
    if kind == "ra":
        if not _picks(step, bag, most=1):
            return {bag: Fraction(1)}
        return add_bags({bag: Fraction(1)}, fresh, what)
    if kind == "ro":
        chosen = set(_picks(step, bag))
        result: Bags = {tuple(v for i, v in enumerate(bag) if i not in chosen): Fraction(1)}
        for _ in chosen:
            check_cost(what, len(result) * sides, MAX_BAG_PAIRS)
            result = add_bags(result, fresh, what)
        return result
    if kind == "e" and not step.by_rank:
        # Each die picked by its face starts its own chain, as the die-by-die reckoning does.
        result = {bag: Fraction(1)}
        chain = OneDie((step,), sides, what, bags=True).new_die()
        for _ in _picks(step, bag):
            check_cost(what, len(result) * len(chain), MAX_BAG_PAIRS)
            result = add_bags(result, chain, what)
        return result
    if kind == "e":
        return _explode_by_rank(step, bag, fresh, what)
    # rr and mi/ma only come here after a step that looked at the whole pool.
    if kind == "rr":
        chosen = set(_picks(step, bag))
        again = mix_bags([{(f,): Fraction(1)} for f in faces if not step.picks_by_value(f)], what)
        result = {tuple(v for i, v in enumerate(bag) if i not in chosen): Fraction(1)}
        for _ in chosen:
            result = add_bags(result, again, what)
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
                added = add_bags(added, fresh, what)
            for extra, q in added.items():
                key = (whole, extra)
                following[key] = following.get(key, Fraction(0)) + p * q
        check_cost(what, len(following) * len(fresh), MAX_BAG_PAIRS)
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
