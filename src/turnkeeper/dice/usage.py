"""Usage dice (rule PG-USE-1): a limited resource tracked as a die that shrinks as it is used.

When the resource is used, roll its die; on 1 or 2 it steps down to the next smaller die;
on 1 or 2 on the smallest die (a d4) the resource is depleted. The chain d12, d10, d8, d6,
d4 is the usual one and the default; rulesets may change it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from turnkeeper.dice.rolling import DieFace
from turnkeeper.dice.sources import DiceSource
from turnkeeper.errors import DiceNotationError

DEFAULT_CHAIN: tuple[int, ...] = (12, 10, 8, 6, 4)

#: The lifetime's tail is cut where what is left weighs less than this.
TAIL_CUT = 1e-12


def _chain_text(chain: tuple[int, ...]) -> str:
    return ", ".join(f"d{sides}" for sides in chain)


@dataclass(frozen=True, slots=True)
class UsageDie:
    """A resource's usage die (PG-USE-1); ``sides`` is ``None`` once depleted.

    >>> from turnkeeper.dice import TypedDice
    >>> torches = UsageDie.parse("d6")
    >>> torches, _ = torches.use(TypedDice([2]))
    >>> str(torches)
    'd4'
    >>> str(torches.use(TypedDice([1]))[0])
    'depleted'
    """

    sides: int | None
    chain: tuple[int, ...] = DEFAULT_CHAIN
    step_on: int = 2

    def __post_init__(self) -> None:
        if not self.chain or any(s < 1 for s in self.chain):
            raise DiceNotationError(f"a usage die chain needs dice, not {self.chain!r}")
        if self.sides is not None and self.sides not in self.chain:
            raise DiceNotationError(
                f"d{self.sides} is not a usage die here; use one of {_chain_text(self.chain)}"
            )
        if self.step_on < 1:
            raise DiceNotationError("a usage die must step down on at least a 1")

    @property
    def depleted(self) -> bool:
        """True once the resource is used up."""
        return self.sides is None

    def use(self, source: DiceSource) -> tuple[UsageDie, DieFace]:
        """Use the resource once: roll its die and step down on a 1 or 2 (PG-USE-1)."""
        if self.sides is None:
            raise DiceNotationError("the resource is depleted; there is nothing left to use")
        face = source.die(self.sides)
        rolled = DieFace(self.sides, face, True, source.typed_in)
        if face > self.step_on:
            return self, rolled
        position = self.chain.index(self.sides)
        smaller = self.chain[position + 1] if position + 1 < len(self.chain) else None
        return UsageDie(smaller, self.chain, self.step_on), rolled

    def __str__(self) -> str:
        return "depleted" if self.sides is None else f"d{self.sides}"

    @classmethod
    def parse(cls, text: str, chain: tuple[int, ...] = DEFAULT_CHAIN, step_on: int = 2) -> UsageDie:
        """Read ``"d8"`` or ``"depleted"``."""
        cleaned = text.strip().lower()
        if cleaned == "depleted":
            return cls(None, chain, step_on)
        match = re.fullmatch(r"(?:1)?d([0-9]{1,5})", cleaned)  # ASCII digits, not \d
        if match is None:
            raise DiceNotationError(
                f"{text!r} is not a usage die; write one of {_chain_text(chain)} or depleted"
            )
        return cls(int(match.group(1)), chain, step_on)


@dataclass(frozen=True, slots=True)
class UsageLifetime:
    """How many uses a resource lasts: exact probabilities, exact mean, and where cut.

    ``tail_cut_below`` is the weight below which the distribution's tail was left out
    (``None`` when nothing was left out); ``mean`` is exact either way.
    """

    distribution: dict[int, Fraction]
    mean: Fraction
    tail_cut_below: float | None


def usage_lifetime(
    sides: int, chain: tuple[int, ...] = DEFAULT_CHAIN, step_on: int = 2
) -> UsageLifetime:
    """The number of uses, from a fresh ``d{sides}``, until the resource is depleted (PG-USE-1).

    At each die the uses are a geometric count with chance ``step_on / sides`` of stepping
    down, so the lifetime is a sum of independent geometric counts: the mean is the sum of
    ``sides / step_on``, and the distribution follows from one exact integer recurrence.

    >>> usage_lifetime(12).mean, usage_lifetime(6).mean
    (Fraction(20, 1), Fraction(5, 1))
    """
    start = UsageDie(sides, chain, step_on)
    assert start.sides is not None
    stages = chain[chain.index(start.sides) :]
    # Chances of stepping down as numerators over one common denominator, so the walk below
    # is exact integer arithmetic: after n uses every probability is a count over base**n.
    base = lcm(*stages)
    down = [min(step_on, s) * (base // s) for s in stages]
    stay = [base - d for d in down]
    mean = sum((Fraction(s, min(step_on, s)) for s in stages), Fraction(0))

    alive = [0] * len(stages)
    alive[0] = 1
    scale = 1
    distribution: dict[int, Fraction] = {}
    uses = 0
    cut = False
    while any(alive):
        uses += 1
        scale *= base
        depleted = alive[-1] * down[-1]
        for j in range(len(stages) - 1, 0, -1):
            alive[j] = alive[j] * stay[j] + alive[j - 1] * down[j - 1]
        alive[0] *= stay[0]
        if depleted:
            distribution[uses] = Fraction(depleted, scale)
        # Stop once what is still alive weighs less than TAIL_CUT (exact comparison).
        if sum(alive) * 10**12 < scale:
            cut = any(alive)
            break
    return UsageLifetime(distribution, mean, TAIL_CUT if cut else None)
