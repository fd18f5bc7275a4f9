"""Dice: notation, recorded rolls, exact odds, sampling, and usage dice.

One grammar (``dice.lark``: avrae/d20's notation with d20's meaning, docs/dice.md; d% is a
d100) is parsed once into a tree; the tree is rolled with an injected dice source, weighed
exactly with icepool (:mod:`turnkeeper.dice.exact`), or sampled with numpy
(:mod:`turnkeeper.dice.sampling`). Those two load only when imported, so rolling dice never
pays for them.

>>> from turnkeeper.dice import SeededDice, TypedDice, parse, roll
>>> roll("2d6+1", TypedDice([3, 5])).breakdown
'2d6 (3, 5) + 1 = 9'
>>> from turnkeeper.dice.exact import mean
>>> mean(parse("2d20kl1"))
Fraction(287, 40)
>>> roll("(1d4, 2+2, 3d6kl1)kh1", TypedDice([1, 6, 5, 2])).breakdown
'(~~1d4 (1)~~, 2 + 2, ~~3d6kl1 (~~6~~, ~~5~~, 2)~~)kh1 = 4'
"""

from turnkeeper.dice.expression import (
    Expression,
    exact_json,
    format_fraction,
    format_mixed,
    parse,
    roll,
)
from turnkeeper.dice.nodes import EXPLODE_DEPTH
from turnkeeper.dice.rolling import DieFace, Roll
from turnkeeper.dice.sources import (
    AskedDice,
    DiceSource,
    SeededDice,
    TypedDice,
    dice_named,
    parse_faces,
    too_few,
)
from turnkeeper.dice.usage import DEFAULT_CHAIN, UsageDie, UsageLifetime, usage_lifetime
from turnkeeper.errors import DiceInputError, DiceNotationError

__all__ = [
    "DEFAULT_CHAIN",
    "EXPLODE_DEPTH",
    "AskedDice",
    "DiceInputError",
    "DiceNotationError",
    "DiceSource",
    "DieFace",
    "Expression",
    "Roll",
    "SeededDice",
    "TypedDice",
    "UsageDie",
    "UsageLifetime",
    "dice_named",
    "exact_json",
    "format_fraction",
    "format_mixed",
    "parse",
    "parse_faces",
    "roll",
    "too_few",
    "usage_lifetime",
]
