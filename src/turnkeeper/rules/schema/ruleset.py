"""The whole ruleset: its name and every section, checked together (see the package doc)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from pydantic import Field, field_validator, model_validator

from turnkeeper.dice import parse
from turnkeeper.rules.schema.base import DiceExpression, MisplacedValue, Rules, Whole
from turnkeeper.rules.schema.combat import (
    ActionRules,
    AttackRules,
    HitPointRules,
    InitiativeRules,
    MagicRules,
    SaveRules,
    SurpriseRules,
)
from turnkeeper.rules.schema.domains import DomainRules
from turnkeeper.rules.schema.dungeon import DayRules, DungeonRules, LightRules, RestRules
from turnkeeper.rules.schema.months import FactionRules, HavenRules
from turnkeeper.rules.schema.scenes import CountdownRules, DreadRules, SpotlightRules
from turnkeeper.rules.schema.sessions import SessionRules
from turnkeeper.rules.schema.time import OverloadedDie, RangedTable, TimeScales
from turnkeeper.rules.schema.wilderness import LostRules, TravelRules, WeatherRules, WildernessRules

# --- the whole -------------------------------------------------------------------------------


def _kept_out_as_default(default: Rules) -> Any:
    """A section added after journals were first written: left out of a ruleset as written
    while it holds its ``default``, so the journals written before it (and every ruleset that
    keeps the defaults) stay identical; a journal's ruleset without it reads the default."""
    return Field(default, exclude_if=lambda section: section == default)


#: The most dice a usage die chain holds, and the largest of them: the exact odds of a
#: lifetime take seconds beyond (PG-USE-1's chain is five dice, d12 down to d4).
MAX_USAGE_CHAIN = 8
MAX_USAGE_SIDES = 30


def check_usage_chain(chain: list[int]) -> list[int]:
    """A usage die chain as given, if it steps down from largest to smallest within limits.

    >>> check_usage_chain([12, 10, 8, 6, 4])
    [12, 10, 8, 6, 4]
    """
    if not chain or any(a <= b for a, b in pairwise(chain)):
        raise ValueError("the usage die chain must list die sizes from largest to smallest")
    if chain[-1] < 2:
        raise ValueError(
            f"the usage die chain must end with a die of 2 sides or more, not d{chain[-1]}"
        )
    if len(chain) > MAX_USAGE_CHAIN or chain[0] > MAX_USAGE_SIDES:
        raise ValueError(
            f"a usage die chain holds at most {MAX_USAGE_CHAIN} dice of at most "
            f"{MAX_USAGE_SIDES} sides, got {len(chain)} dice from d{chain[0]}"
        )
    return chain


class RulesetInfo(Rules):
    """Which text a ruleset encodes."""

    name: str
    title: str
    text: str = Field("", description="The rules text the ruleset encodes, by its title.")
    prefix: str = Field(
        "",
        description="The prefix of the text's rule IDs, e.g. 'TP'; the project's rule reference "
        "explains each (docs/rules.md, `turnkeeper rules explain TP-WIL-7`).",
    )
    description: str = ""


class Ruleset(Rules):
    """A whole ruleset: every number and choice the procedures read."""

    ruleset: RulesetInfo
    stats: list[str] = Field(default_factory=lambda: ["STR", "DEX", "CON", "INT", "WIS", "CHA"])
    time: TimeScales = TimeScales()
    dice: dict[str, OverloadedDie] = Field(default_factory=dict)
    tables: dict[str, RangedTable] = Field(default_factory=dict)
    travel: TravelRules = TravelRules()
    lost: LostRules = LostRules()
    wilderness: WildernessRules = WildernessRules()
    weather: WeatherRules = WeatherRules()
    dungeon: DungeonRules = DungeonRules(procedure="classic")
    light: LightRules = LightRules()
    rest: RestRules = RestRules()
    days: DayRules = _kept_out_as_default(DayRules())
    surprise: SurpriseRules = SurpriseRules(method="in_six")
    initiative: InitiativeRules = InitiativeRules(method="side")
    attack: AttackRules = AttackRules()
    actions: ActionRules = ActionRules(economy="cb")
    usage_die: list[Whole] = Field(default_factory=lambda: [12, 10, 8, 6, 4])
    hit_points: HitPointRules = HitPointRules()
    saves: SaveRules = SaveRules()
    treasure_multiplier: DiceExpression = Field("1d3+1", description="PG-TRE-1.")
    magic: MagicRules = MagicRules()
    countdowns: CountdownRules = CountdownRules()
    spotlight: SpotlightRules = SpotlightRules()
    dread: DreadRules = DreadRules()
    factions: FactionRules = _kept_out_as_default(FactionRules())
    haven: HavenRules = _kept_out_as_default(HavenRules())
    domains: DomainRules = _kept_out_as_default(DomainRules())
    between_sessions: SessionRules = _kept_out_as_default(SessionRules())

    @field_validator("usage_die")
    @classmethod
    def _usage_chain_descends(cls, chain: list[int]) -> list[int]:
        return check_usage_chain(chain)

    @model_validator(mode="after")
    def _named_stats_exist(self) -> Ruleset:
        # the stats a procedure reads by name are stats of the ruleset: a ruleset of no
        # stats (or another list) names its own here
        named = [
            ("attack.melee_stat", self.attack.melee_stat),
            ("attack.ranged_stat", self.attack.ranged_stat),
            ("surprise.stealth_stat", self.surprise.stealth_stat),
            ("surprise.notice_stat", self.surprise.notice_stat),
        ]
        named += [
            (f"haven.activities.{activity}.roll", stat)
            for activity, table in self.haven.activities.items()
            for stat in sorted(parse(table.roll).names)
        ]
        for key, stat in named:
            if stat not in self.stats:
                raise MisplacedValue(
                    key,
                    f"{stat!r} is not one of the ruleset's stats "
                    f"({', '.join(self.stats) or 'none'}); list it in stats or name one of them",
                    involves=("stats",),
                )
        return self

    @model_validator(mode="after")
    def _named_dice_exist(self) -> Ruleset:
        # (the key naming the die, the die, the key that made the die needed)
        wanted: list[tuple[str, str, str]] = []
        if self.dungeon.procedure == "overloaded":
            wanted.append(("dungeon.die", self.dungeon.die, "dungeon.procedure"))
        if self.initiative.method == "overloaded":
            wanted.append(
                ("initiative.overloaded_die", self.initiative.overloaded_die, "initiative.method")
            )
        if "wilderness" in self.dice or self.wilderness.die != "wilderness":
            wanted.append(("wilderness.die", self.wilderness.die, "wilderness.die"))
        for key, die, cause in wanted:
            if die not in self.dice:
                known = ", ".join(sorted(self.dice)) or "none"
                raise MisplacedValue(
                    key,
                    f"no overloaded die {die!r} in [dice]; expected one of the dice there "
                    f"({known}), or add [dice.{die}]",
                    involves=(cause, "dice"),
                )
        return self

    @model_validator(mode="after")
    def _meal_within_the_day(self) -> Ruleset:
        if self.days.meal_hour >= self.time.day_hours:
            raise MisplacedValue(
                "days.meal_hour",
                f"a day has hours 0 to {self.time.day_hours - 1} (time.day_hours): the meal "
                f"cannot be at hour {self.days.meal_hour}",
                involves=("time.day_hours",),
            )
        return self

    @property
    def name(self) -> str:
        return self.ruleset.name
