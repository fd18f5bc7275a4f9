"""Roll tables: ranged tables read by a total, overloaded dice read by a face, and the
small fixed rolls of the texts (saving throws, treasure, magic dice).

Everything here is pure: dice come from a passed-in :class:`~turnkeeper.dice.DiceSource`,
and every result is a frozen dataclass that carries its :class:`~turnkeeper.dice.Roll`, so
the journal records exactly what was rolled.

>>> from turnkeeper.dice import TypedDice
>>> from turnkeeper.rules import preset
>>> reaction(preset("pg"), TypedDice([6, 5]), cha_modifier=1).result
'friendly'
>>> roll_overloaded(preset("tp").dice["wilderness"], TypedDice([5]), milieu="desert").face.label
'Waning resources'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from turnkeeper.dice import DiceSource, Roll, parse
from turnkeeper.dice.exact import distribution, mean
from turnkeeper.errors import DiceNotationError, IllegalCommandError, NotFoundError, RulesetError
from turnkeeper.rules.schema import Face, OverloadedDie, RangedTable, Ruleset, TableRow

__all__ = [
    "FaceResult",
    "MagicResult",
    "SaveResult",
    "TableResult",
    "TreasureResult",
    "faces_for",
    "magic_dice",
    "magic_expression",
    "reaction",
    "roll_overloaded",
    "roll_ranged",
    "row_for",
    "save_chance",
    "save_target",
    "saving_throw",
    "table_odds",
    "treasure",
    "treasure_mean",
]


# --- ranged tables --------------------------------------------------------------


@dataclass(frozen=True)
class TableResult:
    """A ranged table rolled: the roll, any flat modifier, the total read, and the row."""

    table: str
    roll: Roll
    modifier: int
    total: int
    row: TableRow

    @property
    def result(self) -> str:
        return self.row.result


def row_for(table: RangedTable, total: int) -> TableRow:
    """The row whose band holds ``total``.

    >>> from turnkeeper.rules import preset
    >>> row_for(preset("pg").tables["reaction"], 7).result
    'neutral'
    """
    for row in table.rows:
        if (row.low is None or total >= row.low) and (row.high is None or total <= row.high):
            return row
    raise RulesetError(f"the table rolled on {table.dice!r} has no row for a total of {total}")


def roll_ranged(
    table: RangedTable,
    source: DiceSource,
    values: Mapping[str, int] | None = None,
    *,
    modifier: int = 0,
    name: str = "",
) -> TableResult:
    """Roll a ranged table's dice (with ``values`` such as ``{"CHA": 1}``) and read the row."""
    roll = parse(table.dice).roll(source, values)
    total = roll.total + modifier
    return TableResult(name, roll, modifier, total, row_for(table, total))


def table_odds(
    table: RangedTable, values: Mapping[str, int] | None = None, *, modifier: int = 0
) -> dict[str, Fraction]:
    """The exact chance of each result, in the table's row order.

    >>> from turnkeeper.rules import preset
    >>> table_odds(preset("pg").tables["reaction"], {"CHA": 0})["hostile"]
    Fraction(1, 36)
    """
    odds = {row.result: Fraction(0) for row in table.rows}
    for total, chance in distribution(parse(table.dice), values).items():
        odds[row_for(table, total + modifier).result] += chance
    return odds


def reaction(
    rules: Ruleset, source: DiceSource, cha_modifier: int, modifier: int = 0
) -> TableResult:
    """The reaction roll on first meeting monsters: 2d6 + the leader's CHA (PG-REA-1).

    ``modifier`` is any other adjustment, e.g. a hungry foe that won surprise (EX-SUR-5).
    """
    table = rules.tables.get("reaction")
    if table is None:
        raise NotFoundError(
            f"ruleset {rules.name!r} has no reaction table; add [tables.reaction] "
            'or extend a preset that has one, e.g. extends = "pg"'
        )
    values = {"CHA": cha_modifier}
    return roll_ranged(table, source, values, modifier=modifier, name="reaction")


# --- overloaded dice --------------------------------------------------------------


@dataclass(frozen=True)
class FaceResult:
    """An overloaded die rolled: the face number, the face as read in the milieu, the roll."""

    number: int
    face: Face
    roll: Roll
    milieu: str | None = None


def faces_for(die: OverloadedDie, milieu: str | None = None) -> dict[int, Face]:
    """The die's faces after the milieu's swaps (TP-WENC-3).

    >>> from turnkeeper.rules import preset
    >>> faces_for(preset("tp").dice["wilderness"], "night_camp")[2].event.value
    'encounter'
    """
    if milieu is None:
        return dict(die.faces)
    if milieu not in die.milieus:
        known = ", ".join(sorted(die.milieus)) or "none"
        raise NotFoundError(f"no milieu {milieu!r} on this die; milieus: {known}")
    return {**die.faces, **die.milieus[milieu]}


def roll_overloaded(
    die: OverloadedDie, source: DiceSource, milieu: str | None = None
) -> FaceResult:
    """Roll an overloaded die (TP-ENC-1, TP-DUN-1, TP-INI-1, TP-WENC-4) and read its face."""
    faces = faces_for(die, milieu)
    roll = parse(f"d{die.sides}").roll(source)
    return FaceResult(roll.total, faces[roll.total], roll, milieu)


# --- saving throws (PG-SAVE-1) ----------------------------------------------------------------


@dataclass(frozen=True)
class SaveResult:
    """A saving throw: the target, the roll, and whether it succeeded (d20 >= target)."""

    target: int
    roll: Roll
    succeeded: bool


def _fixed(expression: str, values: Mapping[str, int], key: str) -> int:
    try:
        outcomes = distribution(parse(expression), values)
    except DiceNotationError as error:
        raise IllegalCommandError(f"{key} {expression!r}: {error}") from None
    if len(outcomes) != 1:
        raise RulesetError(f"{key} {expression!r} must be a fixed number, not a roll")
    return next(iter(outcomes))


def save_target(
    *,
    rules: Ruleset,
    hd: int | None = None,
    level: int | None = None,
    explicit: int | None = None,
) -> int:
    """The number a saving throw must meet or beat (PG-SAVE-1).

    A monster's is 19 minus its HD. A character's is the sheet's ``explicit`` target; where
    the sheet has none, 19 minus level (the project's default, ``saves.character_target``).

    >>> from turnkeeper.rules import preset
    >>> save_target(rules=preset("pg"), hd=3)
    16
    >>> save_target(rules=preset("pg"), level=2), save_target(rules=preset("pg"), explicit=12)
    (17, 12)
    """
    if explicit is not None:
        return explicit
    if hd is not None and level is not None:
        raise IllegalCommandError("give a monster's hd or a character's level, not both")
    if hd is not None:
        return _fixed(rules.saves.monster_target, {"HD": hd}, "saves.monster_target")
    if level is not None:
        return _fixed(rules.saves.character_target, {"LVL": level}, "saves.character_target")
    raise IllegalCommandError("a save target needs a monster's hd, a level, or the sheet's target")


def saving_throw(target: int, source: DiceSource, rules: Ruleset | None = None) -> SaveResult:
    """Roll a save: d20 (``saves.die``) equal to or over ``target`` succeeds (PG-SAVE-1)."""
    roll = parse(rules.saves.die if rules else "d20").roll(source)
    return SaveResult(target, roll, roll.total >= target)


def save_chance(target: int, rules: Ruleset | None = None) -> Fraction:
    """The exact chance that a save against ``target`` succeeds.

    >>> save_chance(16)
    Fraction(1, 4)
    """
    chances = distribution(parse(rules.saves.die if rules else "d20"))
    return sum((p for total, p in chances.items() if total >= target), Fraction(0))


# --- treasure (PG-TRE-1) ----------------------------------------------------------------------


@dataclass(frozen=True)
class TreasureResult:
    """A hoard: the XP overcome, the multiplier rolled, and the gold it comes to."""

    total_xp: int
    roll: Roll
    gold: int


def treasure(total_xp: int, source: DiceSource, rules: Ruleset) -> TreasureResult:
    """A treasure hoard worth the monsters' total XP x (1d3+1) in gold (PG-TRE-1).

    >>> from turnkeeper.dice import TypedDice
    >>> from turnkeeper.rules import preset
    >>> treasure(100, TypedDice([2]), preset("pg")).gold
    300
    """
    if total_xp < 0:
        raise IllegalCommandError(f"total XP cannot be negative, got {total_xp}")
    roll = parse(rules.treasure_multiplier).roll(source)
    return TreasureResult(total_xp, roll, total_xp * roll.total)


def treasure_mean(total_xp: int, rules: Ruleset) -> Fraction:
    """The exact average gold of a hoard (PG-TRE-1)."""
    return total_xp * mean(parse(rules.treasure_multiplier))


# --- magic dice (TP-MAG-1) ----------------------------------------------------------------------


@dataclass(frozen=True)
class MagicResult:
    """Magic dice rolled: how many, the roll, any bonus (second wind +1), and the sum."""

    count: int
    roll: Roll
    bonus: int
    total: int


def magic_expression(count: int, rules: Ruleset) -> str:
    """The dice of a casting of ``count`` magic dice, e.g. ``3d6`` (TP-MAG-1)."""
    if not 1 <= count <= rules.magic.max_dice:
        raise IllegalCommandError(
            f"roll 1 to {rules.magic.max_dice} magic dice, not {count} (ruleset {rules.name!r})"
        )
    return f"{count}d{rules.magic.die}"


def magic_dice(count: int, source: DiceSource, rules: Ruleset, bonus: int = 0) -> MagicResult:
    """Roll the magic dice the caster chose and sum them (TP-MAG-1).

    ``bonus`` is added to the sum, e.g. +1 on a Second Wind round (TP-INI-1 face 6).

    >>> from turnkeeper.dice import TypedDice
    >>> from turnkeeper.rules import preset
    >>> magic_dice(2, TypedDice([3, 6]), preset("tp"), bonus=1).total
    10
    """
    roll = parse(magic_expression(count, rules)).roll(source)
    return MagicResult(count, roll, bonus, roll.total + bonus)
