"""The ruleset schema: every number and choice the catalogue needs, as validated data.

A ruleset is a TOML file checked against :class:`Ruleset`. Code implements each mechanism
once; a preset (one per seed text) chooses and numbers them. Every model is frozen and
forbids unknown keys, so a typo in a user's file is an error that names the key, not a
silently ignored setting.

Sections follow the catalogue: ``time`` (TP-TIME-1, EX-TIME-1, PG-TIME-1, DG-RND-1, CB-RND-1),
``dice`` (overloaded dice: TP-ENC-1, TP-DUN-1, TP-INI-1, TP-WENC-4), ``tables`` (ranged
tables such as PG-REA-1), ``travel`` (TP-WIL-*), ``dungeon`` (EX-MOV-*, EX-ENC-*), ``light``
(EX-LIGHT-*, TP-ENC-2), ``rest`` (EX-REST-*), ``surprise``, ``initiative``, ``attack``,
``actions``, ``usage_die`` (PG-USE-1), ``countdowns`` (DG-CD-*), ``spotlight`` (DG-SPOT-*),
``dread`` (DG-DREAD-1), ``hit_points`` (PG-HP-1, PG-HEAL-1), ``saves`` (PG-SAVE-1),
``treasure`` (PG-TRE-1), ``magic`` (TP-MAG-1), ``weather`` (TP-WENC-4 face 4).
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from itertools import pairwise
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from turnkeeper.dice import parse
from turnkeeper.errors import DiceNotationError


def _parses_as_dice(text: str) -> str:
    """Check a dice expression at load time, so a broken one is the ruleset's error."""
    try:
        parse(text)
    except DiceNotationError as error:
        raise ValueError(
            f"expected a dice expression such as 2d6+CHA, got {text!r} ({error})"
        ) from None
    return text


#: A dice expression (``2d6+CHA``, ``19-HD``): names are allowed, checked when loaded.
DiceExpression = Annotated[str, AfterValidator(_parses_as_dice)]


class Rules(BaseModel):
    """Base of every ruleset model: immutable, and unknown keys are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --- time -------------------------------------------------------------------------------


class TimeScales(Rules):
    """How long each kind of turn lasts (TP-TIME-1, EX-TIME-1, PG-TIME-1, DG-RND-1, CB-RND-1)."""

    round_seconds: int = Field(10, gt=0, description="A combat round.")
    turn_minutes: int = Field(10, gt=0, description="A dungeon or site turn.")
    watch_hours: int = Field(4, gt=0, description="A wilderness watch: one travel point.")
    day_hours: int = Field(24, gt=0)
    month_days: int = Field(30, gt=0, description="A haven, domain or faction turn.")
    exploration_round_minutes: int = Field(
        10, gt=0, description="DG-RND-1: an exploration round, 2 min to 8 h; the table's default."
    )
    social_round_minutes: int = Field(
        1, gt=0, description="DG-RND-1: a social round, 1 to 10 min; the table's default."
    )
    calendar_start: str = Field(
        "1-01-01T08:00", description="The campaign's first moment: year-month-day and hour."
    )


# --- overloaded dice and tables ----------------------------------------------------------


class FaceEvent(StrEnum):
    """What a face of an overloaded die makes happen: the typed events of the texts."""

    ENCOUNTER = "encounter"
    ENVIRONMENT = "environment"
    DUNGEON_ROUSES = "dungeon_rouses"
    DUNGEON_REACTS = "dungeon_reacts"
    WEATHER_CHANGE = "weather_change"
    FORCED_REST = "forced_rest"
    WANING_RESOURCES = "waning_resources"
    FREE_TURN = "free_turn"
    SLUMBER = "slumber"
    GOOD_ENCOUNTER = "good_encounter"
    HIDDEN_SITE = "hidden_site"
    NOISE = "noise"
    FATIGUE = "fatigue"
    RESPITE = "respite"
    SECOND_WIND = "second_wind"


class Side(StrEnum):
    """The two sides of a combat (CB-SIDE-1)."""

    PARTY = "party"
    OPPOSITION = "opposition"


class Face(Rules):
    """One face of an overloaded die: its typed event and the words the text gives it."""

    event: FaceEvent
    label: str
    text: str = ""
    initiative: Side | None = Field(
        None, description="TP-INI-1: which side has initiative on this face, if any."
    )


class OverloadedDie(Rules):
    """A die whose faces are events (TP-ENC-1, TP-DUN-1, TP-INI-1, TP-WENC-4).

    ``milieus`` swap faces by where the party is or the moment (TP-WENC-3): a desert turns
    Free Turn into Waning Resources; a night camp may turn Hidden Site into an encounter.
    """

    sides: int = Field(6, ge=2)
    faces: dict[int, Face]
    milieus: dict[str, dict[int, Face]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _every_face_named(self) -> OverloadedDie:
        expected = set(range(1, self.sides + 1))
        if set(self.faces) != expected:
            raise ValueError(f"faces must be exactly 1..{self.sides}; got {sorted(self.faces)}")
        for milieu, swaps in self.milieus.items():
            stray = set(swaps) - expected
            if stray:
                raise ValueError(f"milieu {milieu!r} swaps faces {sorted(stray)} not on the die")
        return self


class TableRow(Rules):
    """One band of a ranged table: totals from ``low`` to ``high`` (open-ended if None)."""

    low: int | None = None
    high: int | None = None
    result: str
    text: str = ""


class RangedTable(Rules):
    """A table read by the total of a dice expression, such as the reaction roll (PG-REA-1)."""

    dice: DiceExpression
    rows: list[TableRow] = Field(min_length=1)

    @model_validator(mode="after")
    def _bands_do_not_overlap(self) -> RangedTable:
        unbounded = 10**9
        bands = sorted(
            (
                row.low if row.low is not None else -unbounded,
                row.high if row.high is not None else unbounded,
            )
            for row in self.rows
        )
        for (_, high), (low, _) in pairwise(bands):
            if low <= high:
                raise ValueError(f"rows overlap at {low}")
            if low != high + 1:
                raise ValueError(f"rows leave a gap between {high} and {low}")
        return self


# --- wilderness travel (TP-WIL-*, TP-LOST-1, TP-WENC-*) ------------------------------------


class Vessel(Rules):
    """A way of travelling over water or through the air (TP-WIL-9, the project's defaults)."""

    travel_points_per_day: int = Field(gt=0)
    multiplier: Fraction = Fraction(1)
    over: list[str] = Field(description="Terrains this vessel may enter, e.g. ['water'].")
    text: str = ""


class TravelRules(Rules):
    """Travel points and their multipliers (TP-WIL-1 to TP-WIL-9)."""

    travel_points_per_day: int = Field(4, gt=0, description="TP-WIL-1: one per watch.")
    movement_points_per_tp: Fraction = Field(Fraction(1), gt=0, description="TP-WIL-2.")
    max_movement_factor: int = Field(
        2, gt=0, description="TP-WIL-7: at most this many times the daily TP in movement points."
    )
    impassable_factor: int = Field(
        2, gt=0, description="TP-WIL-8: a hex costing this many times the daily TP is impassable."
    )
    party: dict[str, Fraction] = Field(default_factory=dict, description="TP-WIL-3.")
    terrain: dict[str, Fraction] = Field(default_factory=dict, description="TP-WIL-4.")
    roads: dict[str, Fraction] = Field(default_factory=dict, description="TP-WIL-4.")
    weather: dict[str, Fraction] = Field(default_factory=dict, description="TP-WIL-4.")
    vessels: dict[str, Vessel] = Field(default_factory=dict, description="TP-WIL-9.")


class LostRules(Rules):
    """Getting lost (TP-LOST-1, the project's default: the seed says TODO)."""

    enabled: bool = True
    chance_in_six: dict[str, int] = Field(
        default_factory=dict,
        description="Per terrain, rolled once a day off road without a landmark.",
    )


class WildernessRules(Rules):
    """When the wilderness die is rolled (TP-WENC-1, TP-WENC-2) and which die it is."""

    die: str = Field("wilderness", description="Name of the overloaded die in ``dice``.")
    travel_checks: list[Literal["half", "first", "last", "camp"]] = ["half", "camp"]
    explore_checks: list[Literal["half", "first", "last", "camp"]] = ["first", "last", "camp"]
    search_hidden_tp: int = Field(1, description="TP-DISC-2: one hidden feature at random.")
    search_named_tp: int = Field(2, description="TP-DISC-2: a hidden feature the party names.")
    landmark_sight_hexes: int = Field(2, description="TP-DISC-1.")


class WeatherRules(Rules):
    """Weather by climate and season (TP-WENC-4 face 4; the project's default tables).

    ``tables[climate][season]`` is rolled when the wilderness die shows Change of Weather;
    each result names a state of ``travel.weather``, whose multiplier feeds TP-WIL-4.
    A climate or season with no table leaves the weather for the referee to set.
    """

    start: str = Field("clear", description="The weather of every region when a map is loaded.")
    default_climate: str = Field("temperate", description="For hexes the map gives no climate.")
    seasons: dict[str, list[int]] = Field(
        default_factory=lambda: {
            "winter": [12, 1, 2],
            "spring": [3, 4, 5],
            "summer": [6, 7, 8],
            "autumn": [9, 10, 11],
        },
        description="Season name -> calendar months (1..12).",
    )
    tables: dict[str, dict[str, RangedTable]] = Field(
        default_factory=dict, description="Climate -> season -> table of weather states."
    )


# --- dungeon and site exploration (EX-*, TP-DUN-*) -----------------------------------------


class MovementMode(Rules):
    """A way of moving through a site (EX-MOV-1 to EX-MOV-3, EX-SUR-1 to EX-SUR-3, EX-MAP-1)."""

    feet_per_turn: int | None = Field(
        None, gt=0, description="Left out: any location of most sites in one turn (running)."
    )
    map_use: bool = True
    halts_at_doors: bool = False
    rest_after: bool = False
    surprise: Literal["never", "risk", "always"] = "risk"
    encounter_chance_in_six: int | None = Field(
        None, description="EX-ENC-4: raises the wandering chance while moving so."
    )


class DungeonRules(Rules):
    """The dungeon turn: which procedure runs and its numbers."""

    procedure: Literal["overloaded", "classic"]
    die: str = Field("dungeon", description="The overloaded die in ``dice`` (TP-DUN-1).")
    check_every_turns: int = Field(2, gt=0, description="EX-ENC-1.")
    check_die: int = Field(6, gt=1)
    encounter_chance: int = Field(1, ge=0, description="EX-ENC-1: encounter on 1..this.")
    tumult_chance: int = Field(2, ge=0, description="EX-ENC-4.")
    encounter_distance: DiceExpression = Field("2d4x10", description="EX-ENC-2, in feet.")
    movement: dict[str, MovementMode] = Field(default_factory=dict)


class LightSource(Rules):
    """A light the party carries (EX-LIGHT-1, EX-LIGHT-2)."""

    turns: int | None = Field(
        None, gt=0, description="Left out: lasts until a Waning Resources face (TP-ENC-2)."
    )
    radius_ft: int = Field(gt=0)
    supply: str = Field(description="The supply item spent to light it.")


class LightRules(Rules):
    """Light sources and how they burn down."""

    sources: dict[str, LightSource] = Field(default_factory=dict)
    burns: Literal["turns", "waning_face"] = Field(
        "turns", description="TP-ENC-2: under the overloaded die light lasts until face 4."
    )
    warn_turns_left: int = Field(1, ge=0, description="Warn on the last turn of light.")


class RestRules(Rules):
    """Rest cadence and weariness (EX-REST-1 to EX-REST-3) and forced rest (TP-ENC-1).

    The defaults are "no such rule": only the Exploration text (EX) imposes a cadence and
    weariness, so a ruleset that wants them says so, as ``ex.toml`` does.
    """

    active_turns: int | None = Field(
        None, description="EX-REST-1: rest 1 turn in 6. 0 (None): no cadence, rest when forced."
    )
    rest_turns: int = 1
    after_running: bool = False
    after_fight: bool = False
    wearied_skill: int = 0
    wearied_to_hit: int = 0
    consumes: dict[str, int] = Field(
        default_factory=lambda: {"rations": 1, "water": 1},
        description="Forced rest (TP-ENC-1 face 3) consumes these supplies per character.",
    )

    @field_validator("active_turns", mode="before")
    @classmethod
    def _zero_means_no_cadence(cls, value: object) -> object:
        # TOML has no null: 0 says "no fixed rest cadence" (TP rests only on a forced-rest face)
        return None if value == 0 else value


# --- encounters, surprise, combat ---------------------------------------------------------


class SurpriseRules(Rules):
    """How surprise is settled: by movement mode (EX-SUR), in six (PG-SUR-1), opposed (CB-SUR-1)."""

    method: Literal["movement", "in_six", "opposed"]
    chance_in_six: int = Field(2, description="PG-SUR-1.")
    stealth_stat: str = Field("DEX", description="EX-SUR-4, CB-SUR-1.")
    stealth_skill: str = Field("Stealth", description="EX-SUR-4 Stealth; CB-SUR-1 Sneak.")
    notice_stat: str = Field("WIS", description="EX-SUR-4, CB-SUR-1.")
    notice_skill: str = Field("Scout", description="EX-SUR-4 Scout; CB-SUR-1 Notice.")
    both_difficulty: int = Field(9, description="EX-SUR-4: both groups roll against this.")
    surprised_lose_round: bool = Field(True, description="EX-SUR-5, PG-SUR-1, CB-SUR-1.")
    hungry_reaction_modifier: int = Field(-2, description="EX-SUR-5, the project's default.")
    morale_when_surprised: bool = Field(False, description="CB-SUR-2.")
    light_spoils_surprise: bool = Field(True, description="EX-LIGHT-3.")


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


class AttackRules(Rules):
    """Attack rolls (TP-ATK-1, PG-ATK-1, PG-ATK-2) and opposed checks (TP-OPP-1)."""

    die: DiceExpression = "d20"
    melee_stat: str = "STR"
    ranged_stat: str = "DEX"
    hits: Literal["above", "at_or_above"] = "at_or_above"
    monster_bonus_per_hd: int = 0
    strength_damage_classes: list[str] = Field(default_factory=list)
    ranged_into_melee_random: bool = False


class ActionRules(Rules):
    """The action economy of a round (TP-ACT-1, CB-ACT-1 to CB-ACT-5, PG-MOV-1, PG-MOV-2)."""

    economy: Literal["tp", "cb", "pg", "dg"]
    max_different_things: int = Field(4, description="TP-ACT-1.")
    max_repeats: int = Field(2, description="TP-ACT-1: one thing twice.")
    move_feet: int = Field(30, description="CB-ACT-3: a human's move action.")
    instant_actions_per_round: int = Field(1, description="CB-ACT-5, the project's default.")
    max_coins: int = Field(3000, description="PG-MOV-2.")
    heavy_coins: int = Field(1000, description="PG-MOV-2, the project's default.")


class HitPointRules(Rules):
    """Damage, death and healing (PG-HP-1, PG-HEAL-1)."""

    unconscious_at: int = 0
    dead_at_minus_level: bool = True
    monsters_dead_at: int = 0
    heal_per_day: int = 1
    heal_needs_meal: bool = True
    heal_needs_night: bool = True


class SaveRules(Rules):
    """Saving throws (PG-SAVE-1): d20 equal to or over the target."""

    die: DiceExpression = "d20"
    monster_target: DiceExpression = Field("19-HD")
    character_target: DiceExpression = Field("19-LVL", description="The project's default.")


class MagicRules(Rules):
    """Magic dice (TP-MAG-1): the caster chooses how many; they are summed."""

    die: int = Field(6, gt=1)
    max_dice: int = Field(6, gt=0)


# --- scenes (DG-*) -----------------------------------------------------------------------


class CountdownType(Rules):
    """A kind of countdown and the time frame that ticks it (DG-CD-1, DG-CD-2)."""

    abbreviation: str
    ticks_on: list[Literal["combat_round", "social_round", "exploration_round", "day"]]
    rank: int = Field(description="Longer types have higher rank; ending a frame ends lower ranks.")


class CountdownRules(Rules):
    """Countdown types and failure outcomes (DG-CD-1 to DG-CD-5, DG-FCD-1)."""

    types: dict[str, CountdownType] = Field(default_factory=dict)
    failure_outcomes: dict[str, tuple[int, int]] = Field(
        default_factory=dict,
        description="DG-FCD-1: outcome name -> (ticks of the countdown, ticks of the failure one).",
    )


class SpotlightRules(Rules):
    """Spotlight tokens and momentum (DG-SPOT-1 to DG-SPOT-3, DG-MOM-1, DG-FREE-1)."""

    enabled: bool = False
    tokens_each: int = 3
    tokens: bool = True
    free_actions_per_round: int = 1


class DreadRules(Rules):
    """The GM's dread pool (DG-DREAD-1)."""

    enabled: bool = False
    compromise_margin: int = 2
    per_compromise: int = 1
    per_rest_action: int = 1


# --- the whole -------------------------------------------------------------------------------


class RulesetInfo(Rules):
    """Which text a ruleset encodes."""

    name: str
    title: str
    text: str = Field("", description="The seed file the preset encodes.")
    prefix: str = Field("", description="The catalogue prefix, e.g. 'TP'.")
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
    surprise: SurpriseRules = SurpriseRules(method="in_six")
    initiative: InitiativeRules = InitiativeRules(method="side")
    attack: AttackRules = AttackRules()
    actions: ActionRules = ActionRules(economy="cb")
    usage_die: list[int] = Field(default_factory=lambda: [12, 10, 8, 6, 4])
    hit_points: HitPointRules = HitPointRules()
    saves: SaveRules = SaveRules()
    treasure_multiplier: DiceExpression = Field("1d3+1", description="PG-TRE-1.")
    magic: MagicRules = MagicRules()
    countdowns: CountdownRules = CountdownRules()
    spotlight: SpotlightRules = SpotlightRules()
    dread: DreadRules = DreadRules()

    @field_validator("usage_die")
    @classmethod
    def _usage_chain_descends(cls, chain: list[int]) -> list[int]:
        if not chain or any(a <= b for a, b in pairwise(chain)):
            raise ValueError("the usage die chain must list die sizes from largest to smallest")
        return chain

    @model_validator(mode="after")
    def _named_dice_exist(self) -> Ruleset:
        wanted = []
        if self.dungeon.procedure == "overloaded":
            wanted.append(("dungeon.die", self.dungeon.die))
        if self.initiative.method == "overloaded":
            wanted.append(("initiative.overloaded_die", self.initiative.overloaded_die))
        if "wilderness" in self.dice or self.wilderness.die != "wilderness":
            wanted.append(("wilderness.die", self.wilderness.die))
        for key, die in wanted:
            if die not in self.dice:
                known = ", ".join(sorted(self.dice)) or "none"
                raise ValueError(f"{key}: no overloaded die {die!r} in [dice] (there: {known})")
        return self

    @property
    def name(self) -> str:
        return self.ruleset.name
