"""Encounters, surprise and combat in a ruleset: initiative, attacks, actions, hp, saves, magic."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from turnkeeper.rules.schema.base import (
    DiceCount,
    DiceExpression,
    InSix,
    NonNegative,
    Positive,
    Rules,
    Sides,
    Whole,
)

# --- encounters, surprise, combat ---------------------------------------------------------


class SurpriseRules(Rules):
    """How surprise is settled: by movement mode (EX-SUR), in six (PG-SUR-1), opposed (CB-SUR-1)."""

    method: Literal["movement", "in_six", "opposed"]
    chance_in_six: InSix = Field(2, description="PG-SUR-1.")
    stealth_stat: str = Field("DEX", description="EX-SUR-4, CB-SUR-1.")
    stealth_skill: str = Field("Stealth", description="EX-SUR-4 Stealth; CB-SUR-1 Sneak.")
    notice_stat: str = Field("WIS", description="EX-SUR-4, CB-SUR-1.")
    notice_skill: str = Field("Scout", description="EX-SUR-4 Scout; CB-SUR-1 Notice.")
    both_difficulty: Whole = Field(9, description="EX-SUR-4: both groups roll against this.")
    surprised_lose_round: bool = Field(True, description="EX-SUR-5, PG-SUR-1, CB-SUR-1.")
    hungry_reaction_modifier: Whole = Field(-2, description="EX-SUR-5, the project's default.")
    morale_when_surprised: bool = Field(False, description="CB-SUR-2.")
    light_spoils_surprise: bool = Field(True, description="EX-LIGHT-3.")
    at_rest: Literal["never", "risk", "always"] = Field(
        "risk",
        description="EX-SUR-1 to EX-SUR-3 name only moving parties: surprise for a party "
        "resting or waiting in place, as a movement mode's `surprise` (the project's reading).",
        exclude_if=lambda reading: reading == "risk",  # older journals stay identical
    )


class InitiativeRules(Rules):
    """How initiative is rolled (TP-INI-1, PG-INI-1, CB-INI-1 to CB-INI-3)."""

    method: Literal["overloaded", "side", "individual"]
    die: DiceExpression = Field(
        "d6", description="The side's initiative roll, e.g. 'd6' or '1d8+DEX'."
    )
    overloaded_die: str = Field("initiative", description="TP-INI-1: the die in ``dice``.")
    ties: Literal["simultaneous", "party"] = "simultaneous"
    reroll_each_round: bool = True
    opposed_save: DiceExpression = Field(
        "d20", description="TP-INI-2: the opposed save, plus a stat."
    )


#: The fallen a ruleset may let a blow strike (``AttackRules.strikes_fallen``); never the dead.
Fallen = Literal["unconscious", "fled", "surrendered"]


class AttackRules(Rules):
    """Attack rolls (TP-ATK-1, PG-ATK-1, PG-ATK-2) and opposed checks (TP-OPP-1)."""

    die: DiceExpression = "d20"
    melee_stat: str = "STR"
    ranged_stat: str = "DEX"
    hits: Literal["above", "at_or_above"] = "at_or_above"
    monster_bonus_per_hd: Whole = 0
    strength_damage_classes: list[str] = Field(default_factory=list)
    ranged_into_melee_random: bool = False
    ammunition: str | None = Field(
        None,
        description="PG-USE-1: the party's supply a character's ranged attack uses (arrows): "
        "its usage die is rolled at each shot, and with none left the shot is refused; unset, "
        "the referee spends it by hand.",
        exclude_if=lambda item: item is None,  # journals written before it stay identical
    )
    strikes_fallen: list[Fallen] = Field(
        default_factory=lambda: list[Fallen](["unconscious"]),
        max_length=3,
        description="The fallen a blow may still strike (the dead never): the texts forbid "
        "no blow at the helpless, and PG-HP-1's hit points below 0 are reached by blows. "
        "The project's reading: the unconscious only.",
        exclude_if=lambda fallen: fallen == ["unconscious"],  # older journals stay identical
    )


class ActionKind(StrEnum):
    """The kinds of thing an actor declares in a fight; which a ruleset has is its data."""

    ATTACK = "attack"
    RANGED = "ranged"
    CAST = "cast"
    MOVE = "move"
    MOVE_FAR = "move_far"
    MANEUVER = "maneuver"
    OTHER = "other"
    ON_TURN = "on_turn"
    INSTANT = "instant"


Economy = Literal["tp", "cb", "pg", "dg"]

_EVERYDAY = (ActionKind.ATTACK, ActionKind.RANGED, ActionKind.CAST, ActionKind.MOVE)
_DEEDS = (ActionKind.MANEUVER, ActionKind.OTHER)

#: The action kinds of each economy, unless a ruleset lists its own ``kinds``: a TP thing
#: (TP-ACT-1) has no far move; PG-MOV-1 has the far move and no on-turn or instant actions;
#: CB-ACT-1 to CB-ACT-5 have on-turn and instant actions and turn a main into a second move.
ECONOMY_KINDS: dict[Economy, tuple[ActionKind, ...]] = {
    "tp": (*_EVERYDAY, *_DEEDS),
    "pg": (*_EVERYDAY, ActionKind.MOVE_FAR, *_DEEDS),
    "cb": (*_EVERYDAY, *_DEEDS, ActionKind.ON_TURN, ActionKind.INSTANT),
    "dg": tuple(ActionKind),
}


class ActionRules(Rules):
    """The action economy of a round (TP-ACT-1, CB-ACT-1 to CB-ACT-5, PG-MOV-1, PG-MOV-2)."""

    economy: Economy
    kinds: tuple[ActionKind, ...] | None = Field(
        None,
        description="The action kinds an actor may declare; default: the economy's own.",
        exclude_if=lambda kinds: kinds is None,  # journals written before it stay identical
    )
    max_different_things: Positive = Field(4, description="TP-ACT-1.")
    max_repeats: Positive = Field(2, description="TP-ACT-1: one thing twice.")
    move_feet: NonNegative = Field(30, description="CB-ACT-3: a human's move action.")
    instant_actions_per_round: NonNegative = Field(
        1, description="CB-ACT-5, the project's default."
    )
    max_coins: Positive = Field(3000, description="PG-MOV-2.")
    heavy_coins: NonNegative = Field(1000, description="PG-MOV-2, the project's default.")

    @property
    def allowed_kinds(self) -> tuple[ActionKind, ...]:
        """The action kinds of this ruleset: its own list, else its economy's."""
        return self.kinds if self.kinds is not None else ECONOMY_KINDS[self.economy]


class HitPointRules(Rules):
    """Damage, death and healing (PG-HP-1, PG-HEAL-1)."""

    unconscious_at: Whole = 0
    dead_at_minus_level: bool = True
    monsters_dead_at: Whole = 0
    heal_per_day: NonNegative = 1
    heal_needs_meal: bool = True
    heal_needs_night: bool = True


class SaveRules(Rules):
    """Saving throws (PG-SAVE-1): d20 equal to or over the target."""

    die: DiceExpression = "d20"
    monster_target: DiceExpression = Field("19-HD")
    character_target: DiceExpression = Field("19-LVL", description="The project's default.")


class MagicRules(Rules):
    """Magic dice (TP-MAG-1): the caster chooses how many; they are summed."""

    die: Sides = 6
    max_dice: DiceCount = 6
