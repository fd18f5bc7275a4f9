"""Wandering encounters in a site: the check, the creature, its distance, reaction, surprise.

- EX-ENC-1: in sites that have them, a d6 every 2 turns, an encounter on a 1.
- EX-ENC-3: the referee may skip the check off the site's lanes of traffic.
- EX-ENC-4: tumult, trouble or running raise the chance to 2 or 3 in 6.
- EX-ENC-2: an encounter starts 2d4 x 10 ft away.
- EX-ENC-5: heard coming, with a place to hide, the party may conceal itself.
- PG-REA-1: the reaction roll, 2d6 + the leader's CHA, read on the ruleset's table.

Surprise is settled by :mod:`turnkeeper.procedures.surprise` with the ruleset's method.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from turnkeeper.dice import DiceSource, Roll, roll
from turnkeeper.procedures.surprise import (
    Approach,
    SurpriseResult,
    SurpriseSituation,
    settle_surprise,
)
from turnkeeper.rules.schema import DungeonRules, Ruleset
from turnkeeper.tables import TableResult, reaction
from turnkeeper.world.sites import EncounterRow, SiteTable, roll_wanderers

__all__ = [
    "Encounter",
    "WanderingCheck",
    "check_due",
    "met_by_row",
    "reaction_roll",
    "roll_encounter",
    "wandering_chance",
    "wandering_check",
]


def wandering_chance(rules: DungeonRules, mode_name: str | None, noisy: bool = False) -> int:
    """The chance in the check die of an encounter this check (EX-ENC-1, EX-ENC-4).

    The base chance, raised to the tumult chance by noise and to the movement mode's own
    chance (running: 3 in 6 in the EX preset); the highest applies.

    >>> from turnkeeper.rules.loader import preset
    >>> rules = preset("ex").dungeon
    >>> wandering_chance(rules, "cautious"), wandering_chance(rules, "cautious", noisy=True)
    (1, 2)
    >>> wandering_chance(rules, "running")
    3
    """
    chance = rules.encounter_chance
    if noisy:
        chance = max(chance, rules.tumult_chance)
    mode = rules.movement.get(mode_name) if mode_name else None
    if mode is not None and mode.encounter_chance_in_six is not None:
        chance = max(chance, mode.encounter_chance_in_six)
    return min(chance, rules.check_die)


def check_due(turn: int, every: int) -> bool:
    """EX-ENC-1: is a check made at the end of this turn (counted from 1 inside the site)?

    >>> [t for t in range(1, 7) if check_due(t, 2)]
    [2, 4, 6]
    """
    return turn >= 1 and turn % every == 0


@dataclass(frozen=True)
class WanderingCheck:
    """One wandering-monster check: the die, the chance, and whether something comes."""

    roll: Roll
    chance: int

    @property
    def encounter(self) -> bool:
        return self.roll.total <= self.chance


def wandering_check(rules: DungeonRules, chance: int, dice: DiceSource) -> WanderingCheck:
    """EX-ENC-1: roll the check die; an encounter on 1 up to ``chance``.

    >>> from turnkeeper.dice import TypedDice
    >>> from turnkeeper.rules.loader import preset
    >>> wandering_check(preset("ex").dungeon, 1, TypedDice([1])).encounter
    True
    """
    return WanderingCheck(roll(f"d{rules.check_die}", dice), chance)


def reaction_roll(
    ruleset: Ruleset, cha: int, dice: DiceSource, modifier: int = 0
) -> TableResult | None:
    """PG-REA-1: 2d6 + the leader's CHA (+ EX-SUR-5's modifier), or None without a table.

    >>> from turnkeeper.dice import TypedDice
    >>> from turnkeeper.rules.loader import preset
    >>> reaction_roll(preset("pg"), 1, TypedDice([5, 6])).result
    'friendly'
    >>> reaction_roll(preset("pg"), 0, TypedDice([3, 3]), modifier=-2).result
    'unfriendly'
    """
    if "reaction" not in ruleset.tables:
        return None
    return reaction(ruleset, dice, cha, modifier)


@dataclass(frozen=True)
class Encounter:
    """A wandering encounter as rolled: who, how many, how far, their mood, and surprise.

    ``heard`` is what the party perceives first (EX-ENC-5); ``concealed`` means it hid.
    """

    creature: str
    text: str
    notes: str
    table_roll: Roll
    number: Roll
    distance: Roll
    surprise: SurpriseResult
    reaction: TableResult | None
    heard: bool
    concealed: bool

    @property
    def distance_ft(self) -> int:
        return self.distance.total

    @property
    def rolls(self) -> tuple[Roll, ...]:
        mood = (self.reaction.roll,) if self.reaction else ()
        return (self.table_roll, self.number, self.distance, *self.surprise.rolls, *mood)

    @property
    def roll_names(self) -> tuple[str, ...]:
        """What each of :attr:`rolls` was for, in order (issue 25: the demo's encounter was
        a string of unnamed dice)."""
        return ("table", "number", "distance", *surprise_names(self.surprise)) + (
            ("reaction",) if self.reaction else ()
        )


def surprise_names(surprise: SurpriseResult) -> tuple[str, ...]:
    """The names of surprise's rolls ("the foes' Stealth"), or "surprise" for each."""
    if len(surprise.roll_names) == len(surprise.rolls):
        return surprise.roll_names
    return ("surprise",) * len(surprise.rolls)


def met_by_row(situation: SurpriseSituation, row: EncounterRow, count: int) -> SurpriseSituation:
    """The meeting with ``count`` of a table row's creature, as the row describes them: in
    darkness or not (EX-LIGHT-3), hungry (EX-SUR-5), their Stealth and Notice (EX-SUR-4,
    CB-SUR-1), undisciplined (CB-SUR-2); for wanderers and for occupants alike."""
    return replace(
        situation,
        foe_count=max(count, 1),
        foes_in_darkness=situation.foes_in_darkness and row.in_darkness,
        foes_hungry=row.hungry,
        foe_stealth=row.stealth,
        foe_notice=row.notice,
        foes_undisciplined=row.undisciplined,
    )


def roll_encounter(
    ruleset: Ruleset,
    table: SiteTable[EncounterRow],
    situation: SurpriseSituation,
    dice: DiceSource,
    *,
    leader_cha: int = 0,
    hiding_place: bool = False,
) -> Encounter:
    """Roll a wandering encounter on a site level's table, with everything that follows.

    Order of rolls: the table, the number appearing, the distance (EX-ENC-2), surprise
    (settled before the reaction, since a hungry foe that won it is readier to attack,
    EX-SUR-5), then the reaction (PG-REA-1) if the ruleset has a reaction table. A party
    that hears the encounter coming and has a hiding place conceals itself (EX-ENC-5):
    it cannot be surprised, and it lies in wait for the foes.
    """
    wanderers = roll_wanderers(table, dice)
    row, table_roll, number = wanderers.row, wanderers.table_roll, wanderers.number
    distance = roll(ruleset.dungeon.encounter_distance, dice)
    concealed = row.heard and hiding_place
    situation = met_by_row(situation, row, number.total)
    if concealed:
        situation = replace(situation, approach=Approach.PARTY_AMBUSH, party_aware=True)
    surprise = settle_surprise(ruleset.surprise, situation, dice)
    mood = reaction_roll(ruleset, leader_cha, dice, surprise.reaction_modifier)
    return Encounter(
        creature=row.creature,
        text=row.text,
        notes=row.notes,
        table_roll=table_roll,
        number=number,
        distance=distance,
        surprise=surprise,
        reaction=mood,
        heard=row.heard,
        concealed=concealed,
    )
