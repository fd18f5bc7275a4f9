"""The one table of the referee's verbs: each declared once, every front door built from it.

A verb is a body model: its ``verb`` name, its fields (each a pydantic field with its type,
bounds and description, and the markers of :mod:`turnkeeper.verbs.kinds`: what it names in
the game and how a command line types it), its help (the docstring and a worked ``example``,
with the rule IDs), ``where`` the party must be for it to make sense (:func:`verbs_now`), and
the command it builds (:meth:`_Verb.command`). From this table:

- the command line (``turnkeeper.cli.from_table``) makes one Typer command per verb, its words
  (``countdown add``) from :attr:`_Verb.line`;
- the HTTP API validates :data:`CommandBody` (the union of :data:`VERBS`, told apart by
  ``verb``), which OpenAPI shows; every body also takes ``dice`` (faces of physical dice,
  typed in, used in order) and ``expected_version`` (the version the client last saw; a stale
  one is a 409 conflict, so two referees' tabs never act on a state they did not see);
- the dashboard's forms (``turnkeeper.web.controls``) are the fields as inputs;
- ``play``'s completer offers what each field's kind names now.

No rules live here: each verb builds its command with the engine's own parsers (durations,
monster lines, sites, maps).

>>> from pydantic import TypeAdapter
>>> body = TypeAdapter(CommandBody).validate_python({"verb": "turn", "mode": "cautious"})
>>> body.verb, body.dice
('turn', None)
>>> VERBS["combat_start"].where, VERBS["travel"].where
(<Place.ANYWHERE: 'anywhere'>, <Place.WILDERNESS: 'wilderness'>)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, Union, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)
from pydantic.fields import FieldInfo

from turnkeeper.campaign import (
    AddSupply,
    AsParty,
    CampaignState,
    Command,
    CountdownAdd,
    CountdownEnd,
    CountdownOutcome,
    CountdownTick,
    CountdownTrigger,
    Damage,
    Douse,
    Heal,
    Light,
    Note,
    Redo,
    Rest,
    SetLight,
    Undo,
    UseSupply,
    Visibility,
    Wait,
    parse_duration,
    parse_party,
)
from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.files import digits
from turnkeeper.kernel.combat_state import Combatant, Side
from turnkeeper.kernel.scene_state import Outcome, SceneKind
from turnkeeper.procedures.combat import (
    AnnounceDone,
    Attack,
    BeginRound,
    Check,
    Declare,
    EndCombat,
    Pin,
    Resolve,
    Save,
    StartFight,
    Surrender,
)
from turnkeeper.procedures.combat.actions import parse_action
from turnkeeper.procedures.combat.roster import parse_monster, parse_roster, parse_surprised
from turnkeeper.procedures.countdowns import MAX_TICKS
from turnkeeper.procedures.dungeon import (
    EndEncounter,
    EnterSite,
    LeaveSite,
    NoteMap,
    Turn,
    movement_mode,
)
from turnkeeper.procedures.factions import LoadFactions, RevealDeed
from turnkeeper.procedures.haven import HavenTurn
from turnkeeper.procedures.parties import (
    BringAllForward,
    BringForward,
    ClearArea,
    ClearHex,
    JoinParty,
    NewParty,
    SetDoing,
    ShareKnowledge,
    SplitParty,
    SwitchParty,
)
from turnkeeper.procedures.scenes import (
    Act,
    CloseScene,
    Compromise,
    FreeAction,
    GiveTokens,
    GmAct,
    OpenScene,
    SpendDread,
    TakeSpotlight,
    VoteSpotlight,
)
from turnkeeper.procedures.surprise import Meeting
from turnkeeper.procedures.wilderness import (
    Camp,
    LoadMap,
    RevealOnMap,
    RollWeather,
    Search,
    SetWeather,
    Travel,
)
from turnkeeper.verbs.kinds import (
    ACTION,
    ACTIVITY,
    AREA,
    CHARACTER,
    COUNTDOWN,
    COUNTDOWN_TYPE,
    CREATURE,
    DESTINATION,
    DICE,
    DICE_OR_NUMBER,
    DURATION,
    FACTION,
    FEATURE,
    FIGHTER,
    HEX,
    LIGHT_SOURCE,
    MODE,
    NOT_ON_THE_LINE,
    OTHER_PARTY,
    OUTCOME_STEP,
    PARTY,
    SCENE_PLAYER,
    STAT,
    SUBJECT,
    SUPPLY,
    TARGET,
    TRAVELLERS,
    TRIGGER,
    VESSEL,
    WEATHER,
    WOUNDED,
    Arg,
    Cli,
    Kind,
    Opt,
    foe,
)
from turnkeeper.words import words
from turnkeeper.world.factions import parse_factions
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile, format_for, loads_map, map_to_data
from turnkeeper.world.sites import parse_site, site_from_data


class Place(StrEnum):
    """Where the party is, as far as the referee's verbs care: each verb fits one place."""

    ANYWHERE = "anywhere"
    SITE = "site"
    WILDERNESS = "wilderness"
    FIGHT = "fight"
    SCENE = "scene"


def places_now(state: CampaignState) -> frozenset[Place]:
    """Where the party is now: always anywhere; in a site; out on the wilderness map (and not
    in a site); in a fight that has not ended; in an open scene.

    >>> from turnkeeper.campaign import Journal, parse_party
    >>> from turnkeeper.rules.loader import preset
    >>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
    >>> sorted(places_now(Journal.start("Keep", preset("ex"), party, seed=1).state))
    [<Place.ANYWHERE: 'anywhere'>]
    """
    here = {Place.ANYWHERE}
    if state.site is not None:
        here.add(Place.SITE)
    elif state.wilderness is not None:
        here.add(Place.WILDERNESS)
    if state.fight_running:
        here.add(Place.FIGHT)
    if state.scenes.scene is not None:
        here.add(Place.SCENE)
    return frozenset(here)


# --- what a form or a JSON body may give in text ----------------------------------------------


def _split(separators: str) -> Any:
    """Split a text (a form's field, a command line's option) at ``separators``; a list of
    texts (an option given again and again) is split item by item."""
    pattern = re.compile(separators)

    def parts(text: str) -> list[str]:
        return [part.strip() for part in pattern.split(text) if part.strip()]

    def split(value: Any) -> Any:
        if isinstance(value, str):
            return parts(value)
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            return [part for item in value for part in parts(item)]
        return value

    return BeforeValidator(split)


#: Names, as a list or as one text "a,b,c" (the CLI's way of writing them).
Names = Annotated[tuple[str, ...], _split(r",")]
#: Monster stat lines, as a list or one per line of a text (a line holds commas itself).
MonsterLines = Annotated[tuple[str, ...], _split(r"[\n;]")]
#: Die faces, as a list or as one text "3,5" or "3 5" (as ``--dice`` takes them).
Faces = Annotated[list[Annotated[int, Field(ge=1)]], _split(r"[,\s]+")]


def _pairs(value: Any) -> Any:
    """``NAME=VALUE`` texts (a command line's repeated option) or a mapping, as pairs in the
    order given; a name given twice stays twice, for the rules to judge (a double vote)."""
    if isinstance(value, Mapping):
        return list(value.items())
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        return value
    pairs: list[Any] = []
    for item in value:
        if not isinstance(item, str):
            pairs.append(item)
            continue
        left, sep, right = item.partition("=")
        if not sep or not left.strip() or not right.strip():
            raise ValueError(f"{item!r}: write NAME=VALUE, e.g. Aldo=Bea")
        pairs.append((left.strip(), right.strip()))
    return pairs


class FileText(BaseModel):
    """A file's text, and the name its messages call it by (its path, from a command line)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "the file"
    text: str


def _as_file(what: str) -> Any:
    """A text given alone (JSON's way) is the file's text, called ``what`` in messages."""
    return BeforeValidator(
        lambda value: {"name": what, "text": value} if isinstance(value, str) else value
    )


#: A choice typed in any case: ``Success`` is ``success``.
_LOWERED = BeforeValidator(lambda value: value.strip().lower() if isinstance(value, str) else value)

#: Pairs of names, as ``{name: value}``, ``[[name, value]]`` or ``NAME=VALUE`` texts.
Pairs = Annotated[tuple[tuple[str, str], ...], BeforeValidator(_pairs)]


def _takes(value: Any) -> Any:
    """What leavers take: ``ITEM=COUNT`` of a counted supply, or ``ITEM`` alone for a usage
    die, which goes whole (PG-USE-1); as texts, each of them comma-separated
    (``rations=2,torches=1``), or a mapping (``{"arrows": null}`` for a whole die)."""
    if isinstance(value, Mapping):
        return list(value.items())
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        return value
    takes: list[Any] = []
    for item in value:
        if not isinstance(item, str):
            takes.append(item)
            continue
        for part in (part.strip() for part in item.split(",")):
            if not part:
                continue
            name, sep, count = part.partition("=")
            if not name.strip() or (sep and not count.strip()):
                raise ValueError(f"{part!r}: write ITEM=COUNT, e.g. rations=2, or ITEM for a die")
            takes.append((name.strip(), count.strip() if sep else None))
    return takes


#: Supplies taken, each ``(item, count)``: a count None takes a usage die whole.
Takes = Annotated[tuple[tuple[str, str | None], ...], BeforeValidator(_takes)]

#: The sides as the referee names them (the CLI's words: party, foes).
SideName = Literal["party", "foes"]
_SIDES: Mapping[str, Side] = {"party": Side.PARTY, "foes": Side.OPPOSITION}


# --- the table ----------------------------------------------------------------------------

_VERBS: dict[str, type[_Verb]] = {}

VERBS: Mapping[str, type[_Verb]] = MappingProxyType(_VERBS)
"""Every verb of the HTTP API, by name, in the order the models are defined: the one table."""


def _counts(annotation: Any) -> bool:
    """Whether a field holds a number and never a yes or no."""
    kinds = set(get_args(annotation)) or {annotation}
    return bool(kinds & {int, float}) and bool not in kinds


#: The fields every verb takes: its name, the faces of physical dice, the version seen.
SHARED = frozenset({"verb", "dice", "expected_version", "as_party"})


def problem(errors: Sequence[Any]) -> str:
    """One line from pydantic's list of problems: where, and what was wrong, in plain words.

    >>> from pydantic import TypeAdapter, ValidationError
    >>> try:
    ...     TypeAdapter(CommandBody).validate_python({"verb": "rest", "turns": 0})
    ... except ValidationError as error:
    ...     problem(error.errors())
    'rest.turns: at least 1'
    """
    problems = list(errors)
    if not problems:
        return "the request is malformed"
    first = problems[0]
    where = [str(p) for p in first.get("loc", ()) if p != "body" and not _a_tag(str(p))]
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return f"{'.'.join(where) or 'request'}: {said(first)}{more}"


def _a_tag(part: str) -> bool:
    """Whether a part of a problem's place is pydantic's name for a union's member (an int
    branch, a validator), which says nothing to a person."""
    return (
        part in ("int", "str", "bool")
        or "[" in part
        or part.startswith(("constrained-", "function-", "tagged-union", "lax-", "json-"))
    )


def said(problem: Any) -> str:
    """One of pydantic's problems in plain words: bounds as "at least 1", "at most 10,000".

    >>> said({"type": "less_than_equal", "ctx": {"le": 10000}, "msg": "Input should be..."})
    'at most 10,000'
    """
    ctx = problem.get("ctx") or {}
    kind = problem.get("type")
    if kind == "greater_than_equal":
        return f"at least {ctx['ge']:,}"
    if kind == "less_than_equal":
        return f"at most {ctx['le']:,}"
    if kind == "string_too_short":
        return "give a value; it is empty"
    if kind == "int_parsing":
        return "not a whole number"
    if kind in ("literal_error", "enum"):
        expected = str(ctx.get("expected", "")).replace(chr(39), "")
        choices = expected.replace(" or ", ", ").split(", ")
        return f"say {expected}" if len(choices) < 3 else f"say one of {', '.join(choices)}"
    return str(problem.get("msg", "invalid")).removeprefix("Value error, ")


def kind_of(field: FieldInfo) -> Kind | None:
    """What a field names in the game, if its metadata says."""
    return next((m for m in field.metadata if isinstance(m, Kind)), None)


def cli_of(field: FieldInfo) -> Cli | None:
    """How a command line types a field, if its metadata says."""
    return next((m for m in field.metadata if isinstance(m, Cli)), None)


class _Verb(BaseModel):
    """A referee command as JSON; subclasses declare ``verb: Literal["name"]`` and join VERBS."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    where: ClassVar[Place] = Place.ANYWHERE
    #: The verb's words on a command line when they are not its name's (``scene dread
    #: spend``); by default the first word of the name is its group: ``supply_use`` is
    #: ``supply use``, ``combat_announce_done`` is ``combat announce-done``.
    line: ClassVar[str] = ""
    #: A worked example, as typed at the table (without ``turnkeeper``); ``;`` parts more.
    example: ClassVar[str] = ""
    #: Whether what it records reads as lines of play (a wound, a note, a scene's beat)
    #: rather than as the log's table.
    as_lines: ClassVar[bool] = False
    #: Whether its words are also a group of the shell's (``travel cost``), so that a line
    #: may say ``to`` before its first argument: ``travel to ne`` is ``travel ne``.
    grouped: ClassVar[bool] = False

    dice: Faces | None = Field(
        None,
        description="Faces of physical dice rolled, in order, instead of seeded dice (3,5).",
    )
    expected_version: int | None = Field(
        None, ge=0, description="The campaign version the client saw; stale: 409, nothing done."
    )
    as_party: Annotated[str | None, PARTY] = Field(
        None,
        description="The party of the world the command is for (default: the party run now); "
        "the time record turns to it for this command and back.",
    )

    @model_validator(mode="before")
    @classmethod
    def _no_truth_for_a_number(cls, data: Any) -> Any:
        # JSON's true would read as 1 turn, 1 hit point: a number is written as a number (a
        # form sends every field as text, never as true or false, so it is not touched)
        if isinstance(data, dict):
            for name, value in data.items():
                field = cls.model_fields.get(str(name))
                if isinstance(value, bool) and field is not None and _counts(field.annotation):
                    raise ValueError(f"{name}: {str(value).lower()} is not a number; give one")
        return data

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        field = cls.model_fields.get("verb")
        names = get_args(field.annotation) if field is not None else ()
        if len(names) != 1 or not isinstance(names[0], str):
            raise TypeError(f"{cls.__name__} must declare verb: Literal['its name']")
        other = _VERBS.setdefault(names[0], cls)
        if other is not cls:
            raise TypeError(f"two bodies share the verb {names[0]!r}: {other.__name__}")

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        """Whether this verb makes sense where the party is now (the rules still decide)."""
        return cls.where in places_now(state)

    @classmethod
    def verb_name(cls) -> str:
        """The verb's name: ``supply_use``."""
        return str(get_args(cls.model_fields["verb"].annotation)[0])

    @classmethod
    def line_words(cls) -> tuple[str, ...]:
        """The verb's words on a command line: ``("supply", "use")``."""
        if cls.line:
            return tuple(cls.line.split())
        group, _, rest = cls.verb_name().partition("_")
        return (group, rest.replace("_", "-")) if rest else (group,)

    @classmethod
    def arguments(cls) -> dict[str, FieldInfo]:
        """The verb's own fields, without those every verb takes."""
        return {n: f for n, f in cls.model_fields.items() if n not in SHARED}

    def command(self, state: CampaignState) -> Command:
        """The command this body asks for, read against the state (for its ruleset)."""
        raise NotImplementedError

    def build(self, state: CampaignState) -> Command:
        """The command this body asks for, for the party it names (``as_party``): read
        against that party's state, and run as that party (:class:`AsParty`)."""
        if self.as_party is None:
            return self.command(state)
        return AsParty(self.as_party, self.command(state.as_party(self.as_party)))

    def chosen(self, state: CampaignState) -> str:
        """What the verb chose where it was not told, for the person to hear of ("" if
        nothing): a turn's movement mode, say."""
        return ""


def verbs_now(state: CampaignState) -> dict[str, type[_Verb]]:
    """The verbs that fit where the party is now, in table order: what a dashboard offers.

    >>> from turnkeeper.campaign import Journal, parse_party
    >>> from turnkeeper.rules.loader import preset
    >>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
    >>> now = verbs_now(Journal.start("Keep", preset("ex"), party, seed=1).state)
    >>> "wait" in now, "turn" in now, "combat_attack" in now, "site_enter" in now
    (True, False, False, True)
    """
    return {verb: body for verb, body in VERBS.items() if body.fits(state)}


def _visibility(referee: bool) -> Visibility:
    return Visibility.REFEREE if referee else Visibility.PARTY


_REFEREE = "Only the referee sees it."
_FORAGE = "On waning resources, forage the next TP instead of eating [TP-ENC-1]."


# --- time, light, rest and supplies -----------------------------------------------------


class WaitBody(_Verb, title="Wait"):
    """Let game time pass; whatever the rules do on the way (encounter checks, light) happens.

    Out of a site the days pass one way: the day's meal at the ruleset's hour, the night's
    healing, the downtime die [TP-TIME-2]."""

    example: ClassVar[str] = 'wait "3 turns"; wait 2h'

    verb: Literal["wait"]
    duration: Annotated[str, DURATION, Arg()] = Field(
        min_length=1, description="How long: 3 turns, 2h, 1d, 10m, 2 watches, 1 round."
    )

    def command(self, state: CampaignState) -> Command:
        span = self.duration.strip()
        if span.startswith("-") and digits(span[1:2]):
            raise IllegalCommandError(
                f"cannot wait {span}: time only runs forward; give a span such as 3h, or "
                "take a command back with undo"
            )
        if span.startswith("-"):
            raise IllegalCommandError(f"no such option: {span} (see `turnkeeper wait --help`)")
        return Wait(parse_duration(self.duration, state.ruleset.time))


class RestBody(_Verb, title="Rest"):
    """Rest a turn, as the party must now and then [EX-REST-1]."""

    example: ClassVar[str] = "rest; rest --turns 2"

    verb: Literal["rest"]
    turns: int | None = Field(None, ge=1, description="Turns to rest (default: 1).")

    def command(self, state: CampaignState) -> Command:
        return Rest(self.turns)


class LightBody(_Verb, title="Light"):
    """Light a source (default: the ruleset's first), set its turns left, or douse it."""

    example: ClassVar[str] = "light torch; light --douse"

    verb: Literal["light"]
    source: Annotated[str | None, LIGHT_SOURCE, Arg()] = Field(
        None, description="The light source to light: torch, lamp [EX-LIGHT-1, EX-LIGHT-2]."
    )
    set_turns: int | None = Field(
        None,
        ge=0,
        le=10_000,
        description=f"Set the turns the burning light has left (at most 10,000). {_REFEREE}",
    )
    douse: bool = Field(False, description="Put the light out.")

    def command(self, state: CampaignState) -> Command:
        if sum([self.source is not None, self.set_turns is not None, self.douse]) > 1:
            raise IllegalCommandError("light: give one of a source, --set-turns N or --douse")
        if self.douse:
            return Douse()
        if self.set_turns is not None:
            return SetLight(self.set_turns)
        sources = list(state.ruleset.light.sources)
        if self.source is None and not sources:
            raise IllegalCommandError(f"{state.ruleset.name} has no light sources")
        return Light(self.source or sources[0])


class SupplyUseBody(_Verb, title="Use supplies"):
    """Use some of an item by hand; an item on a usage die rolls its die [PG-USE-1]."""

    example: ClassVar[str] = "supply use rations --amount 2; supply use torches"
    as_lines = True

    verb: Literal["supply_use"]
    item: Annotated[str, SUPPLY, Arg()] = Field(
        min_length=1, description="The item: rations, torches, arrows..."
    )
    amount: Annotated[int, Opt("--amount", "-n")] = Field(
        1, ge=1, description="How many of a counted item."
    )

    def command(self, state: CampaignState) -> Command:
        return UseSupply(self.item, self.amount)


class SupplyAddBody(_Verb, title="Add supplies"):
    """Add to a counted item, or give an item its usage die [PG-USE-1]."""

    example: ClassVar[str] = "supply add torches --amount 6; supply add arrows --die d8"
    as_lines = True

    verb: Literal["supply_add"]
    item: Annotated[str, SUPPLY, Arg()] = Field(
        min_length=1, description="The item: rations, torches, arrows..."
    )
    amount: Annotated[int, Opt("--amount", "-n")] = Field(
        0, ge=0, description="How many to add to a counted item."
    )
    die: Annotated[str | None, DICE] = Field(
        None, description="A usage die for the item instead, e.g. d8."
    )

    def command(self, state: CampaignState) -> Command:
        if self.amount == 0 and self.die is None:
            raise IllegalCommandError(
                "say how many with --amount N, or give a usage die with --die"
            )
        return AddSupply(self.item, self.amount, self.die)


#: Hit points as a number or as dice rolled when the command runs (a trap's ``2d6``, a
#: potion's ``1d6+1``): the command table rolls them and records the roll.
def _whole(value: Any) -> Any:
    # "6" typed on a line is the number 6, held to the same bounds as JSON's 6
    # (a longer run of digits is no count of hit points: the dice grammar refuses it in words)
    # (ASCII digits: "²" is a digit to isdigit and no number to int, "٣" a three to int)
    whole = isinstance(value, str) and digits(value.strip()) and len(value.strip()) <= 18
    return int(value) if whole else value


DiceOrNumber = Annotated[
    # a text's length is the dice grammar's to bound, with its own words
    Annotated[int, Field(ge=1)] | Annotated[str, Field(min_length=1)],
    BeforeValidator(_whole),
    DICE_OR_NUMBER,
    Arg(),
]


class DamageBody(_Verb, title="Damage"):
    """Wound a character or a monster by hand: a trap, a fall, a spell [PG-HP-1]."""

    example: ClassVar[str] = 'damage Aldo 2d6 --reason "the pit"; damage "Goblin 1" 3'
    as_lines = True

    verb: Literal["damage"]
    target: Annotated[str, TARGET, Arg()] = Field(
        min_length=1, description="Who takes it: a character or a monster."
    )
    amount: DiceOrNumber = Field(description="6 or 2d6: the hit points lost.")
    reason: Annotated[str, Opt("--reason", "-r")] = Field(
        "", description="What did it (a trap, a fall...)."
    )

    def command(self, state: CampaignState) -> Command:
        return Damage(self.target, self.amount, self.reason)


class HealBody(_Verb, title="Heal"):
    """Heal a character or a monster by hand, never above its most hit points."""

    example: ClassVar[str] = 'heal Aldo 1d6+1 --reason "a potion"'
    as_lines = True

    verb: Literal["heal"]
    target: Annotated[str, WOUNDED, Arg()] = Field(
        min_length=1, description="Who heals: a character or a monster."
    )
    amount: DiceOrNumber = Field(description="6 or 2d6: the hit points regained.")
    reason: Annotated[str, Opt("--reason", "-r")] = Field(
        "", description="What healed them (a potion, a spell...)."
    )

    def command(self, state: CampaignState) -> Command:
        return Heal(self.target, self.amount, self.reason)


class NoteBody(_Verb, title="Note"):
    """Write a note into the time record, for the whole table or the referee alone."""

    example: ClassVar[str] = 'note "The door was barred from inside"; note "Ogre awake" --referee'
    as_lines = True

    verb: Literal["note"]
    text: Annotated[str, Arg()] = Field(min_length=1, description="The note.")
    referee: bool = Field(False, description=f"A note for the referee. {_REFEREE}")

    def command(self, state: CampaignState) -> Command:
        return Note(self.text, _visibility(self.referee))


class UndoBody(_Verb, title="Undo"):
    """Undo the latest command (recorded in the log, forgotten by the state)."""

    example: ClassVar[str] = "undo"

    verb: Literal["undo"]

    def command(self, state: CampaignState) -> Command:
        return Undo()


class RedoBody(_Verb, title="Redo"):
    """Redo what the latest undo took back, as it was: no die rolled again (recorded too)."""

    example: ClassVar[str] = "redo"

    verb: Literal["redo"]

    def command(self, state: CampaignState) -> Command:
        return Redo()


# --- countdowns ---------------------------------------------------------------------------


class CountdownAddBody(_Verb, title="Start a countdown"):
    """Start a countdown [DG-CD-3]."""

    example: ClassVar[str] = (
        'countdown add "ghouls wake" --type short --length d6; countdown add "Ulfarmi '
        'suffocates" --type rapid --length 4 --subject Ulfarmi --listens wound --after-end wound'
    )

    verb: Literal["countdown_add"]
    name: Annotated[str, Arg()] = Field(min_length=1, description="What the countdown is for.")
    kind: Annotated[str, COUNTDOWN_TYPE, Opt("--type", "-t")] = Field(
        min_length=1, description="A countdown type of the ruleset: short, long..."
    )
    length: Annotated[str, DICE, Opt("--length", "-n")] = Field(
        min_length=1, description="A number or a die, e.g. 4 or d6."
    )
    failure: Annotated[str | None, DICE] = Field(
        None, description="Length of its failure countdown, a number or a die [DG-FCD-1]."
    )
    referee: bool = Field(False, description=f"Hidden from the players. {_REFEREE}")
    subject: Annotated[str | None, SUBJECT] = Field(
        None,
        description="The creature it is about: a character, a fighter or a scene's creature "
        "[DG-CD-4].",
    )
    listens: Annotated[tuple[str, ...], TRIGGER] = Field(
        (), description="Extra triggers that tick it too: wound, action [DG-CD-4]."
    )
    after_end: Literal["end", "wound"] = Field(
        "end", description="end, or wound: once ended, each tick wounds the subject [DG-CD-4]."
    )

    world: bool = Field(
        False,
        description="A world countdown: it ticks as the world's present passes, whichever "
        "party lives through the time, once.",
    )

    def command(self, state: CampaignState) -> Command:
        visibility = _visibility(self.referee)
        return CountdownAdd(
            self.name,
            self.kind,
            self.length,
            self.failure,
            visibility,
            subject=self.subject,
            listens=self.listens,
            after_end=self.after_end,
            world=self.world,
        )


class CountdownTickBody(_Verb, title="Tick a countdown"):
    """Tick a countdown by hand."""

    example: ClassVar[str] = 'countdown tick "ghouls wake" --ticks 2'

    verb: Literal["countdown_tick"]
    name: Annotated[str, COUNTDOWN, Arg()] = Field(
        min_length=1, description="The countdown to tick."
    )
    # each tick is a step of the countdown's rules: a billion would run for hours
    ticks: int = Field(
        1, ge=1, le=MAX_TICKS, description=f"How many ticks (at most {MAX_TICKS:,})."
    )

    def command(self, state: CampaignState) -> Command:
        return CountdownTick(self.name, self.ticks)


class CountdownOutcomeBody(_Verb, title="A subtask's outcome"):
    """A subtask's outcome ticks a countdown and its failure countdown [DG-FCD-1]."""

    example: ClassVar[str] = 'countdown outcome "pick the lock" partial'

    verb: Literal["countdown_outcome"]
    name: Annotated[str, COUNTDOWN, Arg()] = Field(
        min_length=1, description="The countdown (or its failure countdown)."
    )
    outcome: Annotated[str, OUTCOME_STEP, Arg()] = Field(
        min_length=1, description="failure, partial, success or greater (or -2, -1, 0, +1)."
    )

    def command(self, state: CampaignState) -> Command:
        return CountdownOutcome(self.name, self.outcome)


class CountdownEndBody(_Verb, title="End a countdown"):
    """End a countdown by hand."""

    example: ClassVar[str] = 'countdown end "ghouls wake"'

    verb: Literal["countdown_end"]
    name: Annotated[str, COUNTDOWN, Arg()] = Field(
        min_length=1, description="The countdown to end."
    )

    def command(self, state: CampaignState) -> Command:
        return CountdownEnd(self.name)


class CountdownTriggerBody(_Verb, title="Trigger countdowns"):
    """An extra trigger (a wound, an action) ticks the countdowns listening to it [DG-CD-4]."""

    example: ClassVar[str] = "countdown trigger wound --subject Ulfarmi"

    verb: Literal["countdown_trigger"]
    trigger: Annotated[str, TRIGGER, Arg()] = Field(
        min_length=1, description="The trigger: wound, action..."
    )
    subject: Annotated[str | None, SUBJECT] = Field(
        None, description="Only the countdowns of this creature."
    )

    def command(self, state: CampaignState) -> Command:
        return CountdownTrigger(self.trigger, self.subject)


# --- parties of one world -----------------------------------------------------------------


#: More digits than this is past any count a journal keeps (2^63 - 1 has 19).
_MOST_DIGITS = 18


class PartySplitBody(_Verb, title="Split the party"):
    """Characters leave the party as a party of their own, at the same place and time."""

    example: ClassVar[str] = (
        'party split "Grey Band" Bea --take rations=2,torches=2; '
        'party split "Grey Band" Bea --take rations=2 --take arrows'
    )

    verb: Literal["party_split"]
    name: Annotated[str, Arg()] = Field(min_length=1, description="The new party's name.")
    characters: Annotated[Names, CHARACTER, Arg()] = Field(
        min_length=1, description="The characters who leave (henchmen and hirelings too)."
    )
    take: Annotated[Takes, SUPPLY] = Field(
        (),
        description="What they take of the party's supplies: ITEM=COUNT of a counted one, "
        "ITEM alone for a usage die, which goes whole [PG-USE-1]; comma-separated or again "
        "for more: rations=2,arrows.",
    )

    def command(self, state: CampaignState) -> Command:
        taken: dict[str, int] = {}
        whole: list[str] = []
        for item, count in self.take:
            if count is None:
                whole.append(item)
                continue
            # ASCII digits only: "²" is a digit to isdigit and no number to int (an internal
            # error), and int reads "٣" (an Arabic-Indic three) as 3
            written = count.strip()
            if not digits(written):
                raise IllegalCommandError(
                    f"--take {item}={count}: a count is a whole number written in the digits "
                    f"0 to 9, e.g. {item}=3"
                )
            if len(written.lstrip("0")) > _MOST_DIGITS:  # unread: int() stops at 4,300 digits
                raise IllegalCommandError(
                    f"--take {item}={written[:20]}...: more than any party carries; give the "
                    "count the leavers take"
                )
            taken[item] = taken.get(item, 0) + int(written)
        return SplitParty(self.name, self.characters, taken, tuple(dict.fromkeys(whole)))


class PartyNewBody(_Verb, title="A new party"):
    """A party of characters new to the world enters it, at the world's present."""

    example: ClassVar[str] = "party new Newcomers examples/newcomers.toml"

    verb: Literal["party_new"]
    name: Annotated[str, Arg()] = Field(min_length=1, description="The new party's name.")
    party_text: Annotated[FileText, _as_file("party_text"), Arg("FILE", file="party file")] = Field(
        description="The party file's text (TOML, docs/party.md)."
    )

    def command(self, state: CampaignState) -> Command:
        return NewParty(self.name, parse_party(self.party_text.text, self.party_text.name))


class PartySwitchBody(_Verb, title="Turn to a party"):
    """Run another party of the world: its present, its place, its supplies and affairs."""

    example: ClassVar[str] = 'party switch "Grey Band"'

    verb: Literal["party_switch"]
    name: Annotated[str, OTHER_PARTY, Arg()] = Field(min_length=1, description="The party.")

    def command(self, state: CampaignState) -> Command:
        return SwitchParty(self.name)


class PartyJoinBody(_Verb, title="Join parties"):
    """Another party joins the one run now: both at the same place and the same time."""

    example: ClassVar[str] = 'party join "Grey Band"'

    verb: Literal["party_join"]
    name: Annotated[str, OTHER_PARTY, Arg()] = Field(
        min_length=1, description="The party that joins."
    )

    def command(self, state: CampaignState) -> Command:
        return JoinParty(self.name)


class PartyShareBody(_Verb, title="Share what was found"):
    """Share what the party found with another: its map and its site's areas and notes.

    Until then, what a party found is its own."""

    example: ClassVar[str] = 'party share "Grey Band"'

    verb: Literal["party_share"]
    name: Annotated[str, OTHER_PARTY, Arg()] = Field(
        min_length=1, description="The party told what this one found."
    )

    def command(self, state: CampaignState) -> Command:
        return ShareKnowledge(self.name)


class PartyDoingBody(_Verb, title="Say what the party is doing"):
    """Say what the party is doing and where it is bound, in words: the timeline and each
    character's whereabouts tell it until it is told otherwise ("" stops telling it)."""

    example: ClassVar[str] = (
        'party doing "riding to the oracle" --to "the oracle" --as "Grey Band"; '
        'party doing "in Brindle, training"'
    )

    verb: Literal["party_doing"]
    doing: Annotated[str, Arg()] = Field(
        max_length=200, description='What the party is doing ("riding to the oracle").'
    )
    to: str = Field(
        "", max_length=200, description="Where it is bound (a town, a site, a hex), if anywhere."
    )

    def command(self, state: CampaignState) -> Command:
        return SetDoing(self.doing, self.to)


class PartyForwardBody(_Verb, title="Bring forward"):
    """Bring the party forward in downtime, to the world's present or for days [TP-TIME-1].

    The days pass as every command's days do: the day's meal at the ruleset's hour, the
    night's healing, the downtime die at each day's start; no light burns. With all, every
    party behind the world's present, each in turn."""

    example: ClassVar[str] = (
        'party forward; party forward --days 12 --as "Grey Band"; party forward --all'
    )

    verb: Literal["party_forward"]
    days: int | None = Field(
        None, ge=1, description="Days to spend (default: up to the world's present)."
    )
    all: bool = Field(
        False, description="Every party behind the world's present, to it, in one command."
    )

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        return state.site is None and not state.fight_running

    def command(self, state: CampaignState) -> Command:
        if self.all:
            if self.days is not None:
                raise IllegalCommandError(
                    "--all brings every party to the world's present: leave out --days"
                )
            return BringAllForward()
        return BringForward(self.days)


# --- sites --------------------------------------------------------------------------------


class SiteEnterBody(_Verb, title="Enter a site"):
    """Enter a site (a dungeon, ruin or cave): the clock switches to dungeon turns."""

    example: ClassVar[str] = "site enter examples/site.toml; site enter examples/site.toml --area 3"

    verb: Literal["site_enter"]
    site: Annotated[dict[str, Any] | None, NOT_ON_THE_LINE] = Field(
        None, description="The site as data: the site file's tables (docs/site-format.md)."
    )
    site_text: Annotated[FileText | None, _as_file("site_text"), Arg("FILE", file="site file")] = (
        Field(
            None, description="The site file's text (TOML, docs/site-format.md), instead of site."
        )
    )
    level: int | None = Field(None, description="The level to enter (default: the first).")
    area: Annotated[str | None, AREA] = Field(None, description="The keyed area to enter at.")

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        return state.site is None and not state.fight_running

    def command(self, state: CampaignState) -> Command:
        if (self.site is None) == (self.site_text is None):
            raise TurnkeeperError("site_enter: give the site as site (data) or site_text (TOML)")
        site = (
            parse_site(self.site_text.text, self.site_text.name)
            if self.site_text is not None
            else site_from_data(self.site or {}, "site")
        )
        return EnterSite(site, self.level, self.area)


class TurnBody(_Verb, title="Dungeon turn"):
    """One dungeon turn: ten minutes pass and the ruleset's turn procedure runs."""

    where = Place.SITE
    example: ClassVar[str] = "turn; turn --mode swift --noisy; turn --area 3"

    verb: Literal["turn"]
    mode: Annotated[str | None, MODE, Opt("--mode", "-m")] = Field(
        None, description="cautious, swift or running (the ruleset's movement modes)."
    )
    noisy: bool = Field(False, description="Tumult and trouble [EX-ENC-4].")
    skip_check: bool = Field(
        False, description="Off the lanes of traffic: no wandering check [EX-ENC-3]."
    )
    door: bool = Field(
        False, description="A door or barrier this turn: a running party halts [EX-MOV-3]."
    )
    level: int | None = Field(None, description="Go to this level of the site.")
    area: Annotated[str | None, AREA] = Field(None, description="Go to this keyed area.")
    hide: Annotated[bool, Opt("--hide/--no-hide")] = Field(
        True, description="Hide from what is heard coming [EX-ENC-5]."
    )
    both_unaware: bool = Field(
        False,
        description="The party and what it meets come on each other unawares: everyone rolls "
        "WIS/Scout against the difficulty; any who lose are surprised [EX-SUR-4].",
    )
    ambush: bool = Field(
        False,
        description="What the party meets this turn leaps on it from ambush: even a cautious "
        "party may be surprised [EX-SUR-1].",
    )

    def chosen(self, state: CampaignState) -> str:
        if self.mode is not None:
            return ""
        mode, _ = movement_mode(state, None)
        if mode is None:
            return ""
        last = state.site is not None and state.site.last_mode == mode
        why = "as the party moved last turn" if last else "the ruleset's first mode"
        return f"mode: {words(mode)} ({why}; --mode changes it)"

    def command(self, state: CampaignState) -> Command:
        return Turn(
            mode=MODE.read(self.mode, state) if self.mode else None,
            noisy=self.noisy,
            skip_check=self.skip_check,
            door=self.door,
            level=self.level,
            area=self.area,
            hide=self.hide,
            both_unaware=self.both_unaware,
            ambush=self.ambush,
        )


class SiteLeaveBody(_Verb, title="Leave the site"):
    """Leave the site the party is in."""

    where = Place.SITE
    example: ClassVar[str] = "site leave"

    verb: Literal["site_leave"]

    def command(self, state: CampaignState) -> Command:
        return LeaveSite()


class SiteClearBody(_Verb, title="Clear an area"):
    """The party cleared an area: no party meets its dwellers again.

    No party behind in time may act there until brought forward."""

    where = Place.SITE
    example: ClassVar[str] = 'site clear 1; site clear 3 --what "slew the ghouls in"'

    verb: Literal["site_clear"]
    area: Annotated[str | None, AREA, Arg()] = Field(
        None, description="The keyed area (default: where the party stands)."
    )
    level: int | None = Field(None, description="Its level (default: the party's).")
    what: str = Field(
        "cleared", min_length=1, max_length=200, description="What the party did there."
    )

    def command(self, state: CampaignState) -> Command:
        return ClearArea(self.area, self.level, self.what)


class SiteResumeBody(_Verb, title="Resume exploring"):
    """The encounter is over without a fight being run: go on exploring."""

    where = Place.SITE
    example: ClassVar[str] = "site resume; site resume --fought"

    verb: Literal["site_resume"]
    fought: bool = Field(False, description="It came to a fight: a rest is due [EX-REST-2].")

    def command(self, state: CampaignState) -> Command:
        return EndEncounter(self.fought)


class MapNoteBody(_Verb, title="Note on the party's map"):
    """Write a note on the party's map; the referee does not correct it [EX-MAP-2]."""

    where = Place.SITE
    line: ClassVar[str] = "site map note"
    example: ClassVar[str] = 'site map note "stairs down, behind the altar" --area "big hall"'

    verb: Literal["map_note"]
    text: Annotated[str, Arg()] = Field(
        min_length=1, description="What the mapper writes, as the party sees it."
    )
    area: Annotated[str | None, AREA] = Field(
        None, description="The party's label for the place (default: where it stands)."
    )
    level: int | None = Field(None, description="The level (default: this one).")

    def command(self, state: CampaignState) -> Command:
        return NoteMap(self.text, self.area, self.level)


# --- the wilderness -----------------------------------------------------------------------


class MapLoadBody(_Verb, title="Load a wilderness map"):
    """Lay a wilderness map out in the campaign (embedded in the journal) and place the party."""

    example: ClassVar[str] = "map load examples/vale.toml --at 0304"

    verb: Literal["map_load"]
    map: Annotated[MapFile | None, NOT_ON_THE_LINE] = Field(
        None, description="The map as data (the JSON map format)."
    )
    map_text: Annotated[FileText | None, _as_file("map_text"), Arg("FILE", file="map file")] = (
        Field(None, description="The map file's text (.toml, .json or .csv), instead of map.")
    )
    format: Annotated[Literal["toml", "json", "csv"] | None, NOT_ON_THE_LINE] = Field(
        None, description="The format of map_text (default: its file's extension, else toml)."
    )
    at: Annotated[str, HEX, Opt("--at")] = Field(
        min_length=1, description="The party's hex: a label (0304) or q,r."
    )
    vessel: Annotated[str | None, VESSEL] = Field(
        None,
        description="The vessel the party starts in (river boat...), to start on water; "
        "'' goes on foot.",
    )

    def command(self, state: CampaignState) -> Command:
        if (self.map is None) == (self.map_text is None):
            raise TurnkeeperError("map_load: give the map as map (data) or map_text (file text)")
        data = self.map
        if self.map_text is not None:
            named = Path(self.map_text.name)
            fmt = self.format or (format_for(named) if named.suffix else "toml")
            read = loads_map(self.map_text.text, fmt, where=self.map_text.name)
            data = MapFile.model_validate(map_to_data(read))
        assert data is not None
        return LoadMap(data, Hex.parse(self.at), self.vessel)


class TravelBody(_Verb, title="Travel"):
    """Travel toward a direction, a hex or a found feature, watch by watch [TP-WIL-6]."""

    where = Place.WILDERNESS
    example: ClassVar[str] = 'travel ne; travel 0506 --party mounted; travel "Ruined Tower"'

    as_lines = True
    grouped = True

    verb: Literal["travel"]
    target: Annotated[str, DESTINATION, Arg()] = Field(
        min_length=1, description="A direction (n ne se s sw nw), a hex (0304) or a found feature."
    )
    explore: bool = Field(False, description="Explore the way instead of travelling [TP-WENC-2].")
    party: Annotated[Names | None, TRAVELLERS] = Field(
        None, description="Travel conditions: mounted, carriage, over 20, over 50."
    )
    vessel: Annotated[str | None, VESSEL] = Field(
        None, description="A vessel of the ruleset (river boat, sailing ship...); '' clears."
    )
    milieu: str | None = Field(
        None, description="The wilderness die's milieu (desert, civilisation...); '' clears."
    )
    forage: bool = Field(False, description=_FORAGE)

    def command(self, state: CampaignState) -> Command:
        return Travel(
            self.target,
            explore=self.explore,
            party=self.party,
            vessel=self.vessel,
            milieu=self.milieu,
            waning="forage" if self.forage else "supplies",
        )


class ExploreBody(TravelBody, title="Explore"):
    """Explore toward a direction, a hex or a found feature: slower, and finds more [TP-WENC-2]."""

    example: ClassVar[str] = "explore ne; explore 0506"
    grouped = False

    verb: Literal["explore"]  # type: ignore[assignment]
    explore: Annotated[bool, NOT_ON_THE_LINE] = Field(
        True, description="Always true: exploring is travel that explores."
    )

    def command(self, state: CampaignState) -> Command:
        return TravelBody.command(self.model_copy(update={"explore": True}), state)


class SearchBody(_Verb, title="Search"):
    """Search the party's hex for a hidden feature, at the cost of 1 travel point [TP-DISC-2]."""

    where = Place.WILDERNESS
    example: ClassVar[str] = 'search; search --for "Ruined Tower"; search --all-day'

    as_lines = True

    verb: Literal["search"]
    feature: Annotated[str | None, Opt("--for", metavar="FEATURE")] = Field(
        None, description="A hidden feature the party seeks by name (2 TP) [TP-DISC-2]."
    )
    all_day: bool = Field(
        False, description="Search all day for secrets; only at dawn [TP-DISC-3]."
    )

    def command(self, state: CampaignState) -> Command:
        return Search(self.feature, self.all_day)


class CampBody(_Verb, title="Camp"):
    """Make the night camp: the die is rolled and the night passes until the morning.

    The day's meal, if not eaten yet, and the night's healing, on the map as off it
    [TP-WENC-1] [PG-HEAL-1].
    """

    where = Place.WILDERNESS
    example: ClassVar[str] = "camp; camp --forage"

    as_lines = True

    verb: Literal["camp"]
    forage: bool = Field(False, description=_FORAGE)

    def command(self, state: CampaignState) -> Command:
        return Camp("forage" if self.forage else "supplies")


class WeatherSetBody(_Verb, title="Set the weather"):
    """The referee sets the weather over a region (the party's by default)."""

    where = Place.WILDERNESS
    example: ClassVar[str] = 'weather set rain; weather set "heavy snow" --region north'

    verb: Literal["weather_set"]
    weather: Annotated[str, WEATHER, Arg()] = Field(
        min_length=1, description="The weather: clear, rain, heavy snow..."
    )
    region: str | None = Field(None, description="The region (default: the party's).")

    def command(self, state: CampaignState) -> Command:
        return SetWeather(WEATHER.read(self.weather, state), self.region)


class WeatherRollBody(_Verb, title="Roll the weather"):
    """Roll new weather for the party's region from the climate's table."""

    where = Place.WILDERNESS
    example: ClassVar[str] = "weather roll"

    verb: Literal["weather_roll"]

    def command(self, state: CampaignState) -> Command:
        return RollWeather()


class MapRevealBody(_Verb, title="Reveal on the party's map"):
    """Put hexes and features on the party's map by hand (a rumour, a bought map), or take
    them off it with `map hide` (recorded for the referee alone)."""

    where = Place.WILDERNESS
    example: ClassVar[str] = "map reveal 0308 --feature Ashford; map reveal 0304 0305"
    as_lines = True

    verb: Literal["map_reveal"]
    hexes: Annotated[Names, HEX, Arg("HEX")] = Field(
        (), description="Hexes by their numbers: 0304 0305."
    )
    features: Annotated[Names, FEATURE, Opt("--feature", "-f")] = Field(
        (), description="Features by name or id (repeat the option for more)."
    )
    # the command line says map hide instead
    hide: Annotated[bool, NOT_ON_THE_LINE] = Field(
        False, description="Take them off the party's map instead."
    )

    def command(self, state: CampaignState) -> Command:
        return RevealOnMap(tuple(Hex.parse(h) for h in self.hexes), self.features, self.hide)


class MapHideBody(MapRevealBody, title="Hide on the party's map"):
    """Take hexes and features off the party's map (the map was lost); for the referee only."""

    example: ClassVar[str] = "map hide 0308 --feature Ashford"

    verb: Literal["map_hide"]  # type: ignore[assignment]
    hide: Annotated[bool, NOT_ON_THE_LINE] = Field(
        True, description="Always true: hiding takes them off the party's map."
    )

    def command(self, state: CampaignState) -> Command:
        return MapRevealBody.command(self.model_copy(update={"hide": True}), state)


class MapClearBody(_Verb, title="Clear a hex"):
    """The party cleared a hex of its map (slew the dragon in its lair): a change to the world.

    No party behind in time may travel into it or act there until brought forward."""

    where = Place.WILDERNESS
    example: ClassVar[str] = 'map clear; map clear 0304 --what "slew the dragon in"'

    verb: Literal["map_clear"]
    hex: Annotated[str | None, HEX, Arg()] = Field(
        None, description="The hex by its number (default: the party's)."
    )
    what: str = Field(
        "cleared", min_length=1, max_length=200, description="What the party did there."
    )

    def command(self, state: CampaignState) -> Command:
        return ClearHex(self.hex, self.what)


# --- fights -------------------------------------------------------------------------------


class CombatStartBody(_Verb, title="Start a fight"):
    """Start a fight: the party against foes in stat lines, or the site's pending encounter."""

    example: ClassVar[str] = (
        "combat start --foes examples/foes.toml; "
        'combat start --monster "Rat:hd=1,ac=12,count=3" --surprise foes; '
        'combat start --monster "Ghoul:hd=2,ac=12" --meeting ambush --mode cautious'
    )

    verb: Literal["combat_start"]
    rosters: Annotated[
        tuple[Annotated[FileText, _as_file("foes file")], ...],
        Opt("--foes", metavar="FILE", file="foes file"),
    ] = Field(
        (),
        description="A foes file (TOML), e.g. examples/foes.toml; its [[allies]] join the "
        "party's side [CB-SIDE-1]. Over HTTP, the file's text.",
    )
    foes: Annotated[MonsterLines, Opt("--monster", metavar="LINE")] = Field(
        (),
        description=(
            "Foes, one stat line each (one per line in a form): "
            "Goblin:hd=1,hp=4,ac=12,dex=1,count=3. None: the site's pending encounter."
        ),
    )
    surprise: Literal["party", "foes", "both", "none"] | None = Field(
        None, description="Who is surprised (default: the encounter's, else rolled)."
    )
    aware: Annotated[tuple[SideName, ...], Opt("--aware")] = Field(
        (), description="Sides that cannot be surprised: party, foes."
    )
    attackers: SideName | None = Field(
        None, description="The side trying for surprise: party or foes [CB-SUR-1]."
    )
    allies: Annotated[MonsterLines, Opt("--ally", metavar="LINE")] = Field(
        (), description="Allies on the party's side, one stat line each [CB-SIDE-1]."
    )
    meeting: Literal["encounter", "occupied", "ambush", "both-unaware"] | None = Field(
        None,
        description="How the groups met, for the ruleset to settle surprise: encounter, "
        "occupied (the party moved into an occupied place) [EX-SUR-2], ambush (the foes "
        "leap from ambush) [EX-SUR-1], both-unaware (any who lose WIS/Scout against 9 are "
        "surprised) [EX-SUR-4].",
    )
    mode: str | None = Field(
        None,
        description="The party's movement mode when they met: cautious, swift, running "
        "[EX-SUR-1 to EX-SUR-3] (default: its last turn's in the site).",
    )

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        return not state.fight_running

    def command(self, state: CampaignState) -> Command:
        foes: list[Combatant] = []
        joining: list[Combatant] = []
        for roster in self.rosters:
            for combatant in parse_roster(roster.text, roster.name):
                (foes if combatant.side is Side.OPPOSITION else joining).append(combatant)
        for line in self.foes:
            foes += parse_monster(line)
        allies = joining + [a for line in self.allies for a in parse_monster(line, Side.PARTY)]
        surprised = parse_surprised(self.surprise) if self.surprise is not None else None
        return StartFight(
            foes=tuple(foes),
            allies=tuple(allies),
            surprised=surprised,
            aware=frozenset(_SIDES[side] for side in self.aware),
            attackers=_SIDES[self.attackers] if self.attackers else None,
            meeting=Meeting(self.meeting) if self.meeting else None,
            mode=self.mode.strip().lower() if self.mode else None,
        )


class CombatRoundBody(_Verb, title="Next round"):
    """Start the next round: the clock moves on and initiative is rolled (or kept)."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat round; combat round --adjust 1"

    verb: Literal["combat_round"]
    adjust: int = Field(
        0, description="The referee's adjustment to the initiative face [TP-CBT-1]."
    )
    influence: int = Field(
        0, description="The party's sway on the newcomers' reaction (face 1) [TP-INI-1]."
    )

    def command(self, state: CampaignState) -> Command:
        return BeginRound(self.adjust, self.influence)


class CombatDeclareBody(_Verb, title="Declare"):
    """Announce an actor's actions for this round; the rules refuse what is not allowed."""

    where = Place.FIGHT
    example: ClassVar[str] = (
        'combat declare Aldo attack "Goblin 1"; combat declare Bea move --feet 30 --then '
        'attack:"Goblin 2"'
    )

    verb: Literal["combat_declare"]
    actor: Annotated[str, FIGHTER, Arg()] = Field(min_length=1, description="Who declares.")
    action: Annotated[str, ACTION, Arg()] = Field(
        min_length=1,
        description="What they do first: attack, ranged, cast, move, move-far, maneuver, "
        'other, on-turn or instant; what the player describes may follow in brackets: "other '
        '(take oil from my pouch)".',
    )
    target: Annotated[str | None, foe("actor"), Arg()] = Field(
        None, description="The target of that action, if any."
    )
    note: str = Field("", description="What the player describes, e.g. take oil from my pouch.")
    then: Annotated[Names, Opt("--then")] = Field(
        (), description="Further actions, ACTION or ACTION:TARGET, e.g. move,attack:Goblin 1."
    )
    feet: int | None = Field(None, ge=0, description="How far a move goes [CB-ACT-3].")
    magic_dice: int = Field(1, ge=1, description="Magic dice a caster rolls [TP-MAG-1].")
    own_side: bool = Field(False, description="A blow at someone of the actor's own side is meant.")
    rolled: Faces | None = Field(
        None,
        description="The attack die's faces as the actor's player rolled them, for the first "
        "action's attack roll, e.g. 14 [TP-ATK-1, PG-ATK-2]; recorded as typed in.",
    )

    @field_validator("action", "then")
    @classmethod
    def _an_action(cls, value: Any) -> Any:
        # refused as the body is read, before any command: the words are the engine's own
        for text in [value] if isinstance(value, str) else value:
            try:
                parse_action(text)
            except TurnkeeperError as error:
                raise ValueError(str(error)) from None
        return value

    def command(self, state: CampaignState) -> Command:
        first = parse_action(self.action, self.target, self.feet, self.magic_dice, self.own_side)
        if self.rolled:
            first = first.model_copy(update={"rolled": tuple(self.rolled)})
        actions = (
            first.model_copy(update={"note": self.note.strip()}) if self.note.strip() else first,
            *(
                parse_action(extra, None, None, self.magic_dice, self.own_side)
                for extra in self.then
            ),
        )
        return Declare(self.actor, actions)


class CombatResolveBody(_Verb, title="Resolve the round"):
    """Resolve every declared action, beat by beat."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat resolve"

    verb: Literal["combat_resolve"]

    def command(self, state: CampaignState) -> Command:
        return Resolve()


class CombatSurrenderBody(_Verb, title="Surrender"):
    """Combatants yield: out of the fight; a side with nobody left fighting loses [PG-CBT-1]."""

    where = Place.FIGHT
    example: ClassVar[str] = 'combat surrender "Goblin 2" "Goblin 3"'

    verb: Literal["combat_surrender"]
    names: Annotated[Names, FIGHTER, Arg("NAME")] = Field(min_length=1, description="Who yields.")

    def command(self, state: CampaignState) -> Command:
        return Surrender(tuple(self.names))


class CombatAttackBody(_Verb, title="Attack"):
    """Roll one attack at once, and its damage on a hit."""

    where = Place.FIGHT
    example: ClassVar[str] = 'combat attack Aldo "Goblin 1"; combat attack Bea "Goblin 2" --ranged'

    verb: Literal["combat_attack"]
    attacker: Annotated[str, FIGHTER, Arg()] = Field(min_length=1, description="Who attacks.")
    target: Annotated[str, foe("attacker"), Arg()] = Field(min_length=1, description="Whom.")
    ranged: bool = Field(False, description="A ranged attack.")
    own_side: bool = Field(False, description="The blow is meant for someone of one's own side.")

    def command(self, state: CampaignState) -> Command:
        return Attack(self.attacker, self.target, self.ranged, self.own_side)


class CombatCheckBody(_Verb, title="Opposed check"):
    """Roll a risky action the referee asks to be rolled: d20 + the stat, higher than the
    target's defence succeeds [TP-OPP-1, TP-ROLL-1]; +1 for the party on a Second Wind."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat check Aldo STR --defence 12"

    verb: Literal["combat_check"]
    actor: Annotated[str, FIGHTER, Arg()] = Field(
        min_length=1, description="Who attempts the risky action."
    )
    stat: Annotated[str, STAT, Arg()] = Field(
        min_length=1, description="The relevant stat, e.g. STR."
    )
    defence: int = Field(description="The target's defence in that attribute, to roll higher.")

    def command(self, state: CampaignState) -> Command:
        return Check(self.actor, self.stat, self.defence)


class CombatSaveBody(_Verb, title="Saving throw"):
    """A saving throw against a spell, a trap, a poison: d20 equal to or over the target
    [PG-SAVE-1]; no action of the saver's."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat save Aldo"

    verb: Literal["combat_save"]
    name: Annotated[str, FIGHTER, Arg()] = Field(min_length=1, description="Who must save.")

    def command(self, state: CampaignState) -> Command:
        return Save(self.name)


class CombatAnnounceDoneBody(_Verb, title="Side done"):
    """Say a side has finished announcing (or acting) this round [TP-CBT-1, CB-RND-1]."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat announce-done party"

    verb: Literal["combat_announce_done"]
    side: Annotated[SideName, Arg()] = Field(description="party or foes.")

    def command(self, state: CampaignState) -> Command:
        return AnnounceDone(_SIDES[self.side])


class CombatPinBody(_Verb, title="Pin in the order"):
    """Pin a combatant to a place in the order of this and later rounds."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat pin Bea 1"

    verb: Literal["combat_pin"]
    name: Annotated[str, FIGHTER, Arg()] = Field(min_length=1, description="The combatant.")
    place: Annotated[int, Arg("N")] = Field(ge=1, description="Its place in the order, 1 first.")

    def command(self, state: CampaignState) -> Command:
        return Pin(self.name, self.place)


class CombatEndBody(_Verb, title="End the fight"):
    """End the fight: treasure, hit points back to the party, a rest due [PG-TRE-1, EX-REST-2]."""

    where = Place.FIGHT
    example: ClassVar[str] = "combat end; combat end --winner party"

    verb: Literal["combat_end"]
    winner: SideName | None = Field(
        None, description="party or foes (default: the side still standing)."
    )

    def command(self, state: CampaignState) -> Command:
        return EndCombat(_SIDES[self.winner] if self.winner else None)


# --- scenes -------------------------------------------------------------------------------


class SceneOpenBody(_Verb, title="Open a scene"):
    """The GM sets a scene; new players sit down with their tokens [DG-LOOP-1, DG-SPOT-2]."""

    example: ClassVar[str] = (
        "scene open combat --players Ulfarmi,Brenna --creatures ogre; "
        "scene open exploration --players Ulfarmi --round 8h"
    )
    as_lines = True

    verb: Literal["scene_open"]
    kind: Annotated[SceneKind, Arg()] = Field(description="combat, exploration, social or free.")
    players: Annotated[Names, CHARACTER, Opt("--players")] = Field(
        description="The players in the scene: a,b,c."
    )
    creatures: Annotated[Names, Opt("--creatures")] = Field(
        (), description="The GM's creatures: ogre,goblin."
    )
    tokens: Annotated[bool, Opt("--tokens/--no-tokens")] = Field(
        True, description="Spotlight tokens this scene [DG-SPOT-3]."
    )
    gm_first: bool = Field(False, description="The GM acts first each round.")
    round: Annotated[str | None, DURATION, Opt("--round")] = Field(
        None,
        description="How long each round lasts, for an exploration (2m to 8h) or a social "
        "(1m to 10m) scene; default: the ruleset's [DG-RND-1].",
    )

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        return state.ruleset.spotlight.enabled and state.scenes.scene is None

    def command(self, state: CampaignState) -> Command:
        seconds = None if self.round is None else parse_duration(self.round, state.ruleset.time)
        return OpenScene(
            self.kind, self.players, self.creatures, self.tokens, self.gm_first, seconds
        )


class SceneVoteBody(_Verb, title="Vote for the spotlight"):
    """A player votes who takes the spotlight next; the spotlight counts the votes cast
    [DG-SPOT-1]."""

    where = Place.SCENE
    example: ClassVar[str] = "scene vote Ulfarmi Brenna"

    verb: Literal["scene_vote"]
    voter: Annotated[str, SCENE_PLAYER, Arg()] = Field(min_length=1, description="Who votes.")
    candidate: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="Who they would have take the spotlight."
    )

    def command(self, state: CampaignState) -> Command:
        return VoteSpotlight(self.voter, self.candidate)


class SceneSpotlightBody(_Verb, title="Take the spotlight"):
    """The players choose who takes the spotlight; it costs a token [DG-SPOT-1, DG-SPOT-2]."""

    where = Place.SCENE
    example: ClassVar[str] = "scene spotlight --vote Ulfarmi=Brenna --vote Brenna=Brenna"
    as_lines = True

    verb: Literal["scene_spotlight"]
    votes: Annotated[Pairs, SCENE_PLAYER, Opt("--vote", metavar="VOTER=CANDIDATE")] = Field(
        (), description="Each voter's candidate: VOTER=CANDIDATE; none counts the votes cast."
    )
    gm: Annotated[str | None, SCENE_PLAYER] = Field(
        None, description="The GM's choice on a tie or dispute."
    )

    def command(self, state: CampaignState) -> Command:
        return TakeSpotlight(votes=self.votes, gm_choice=self.gm)


class SceneActBody(_Verb, title="Act"):
    """The spotlit player acts; momentum may keep the spotlight [DG-ACT-1, DG-MOM-1]."""

    where = Place.SCENE
    example: ClassVar[str] = (
        'scene act Brenna "swings at the ogre" --roll d20+2 --target 12 --tag momentum'
    )
    as_lines = True

    verb: Literal["scene_act"]
    player: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="The spotlit player."
    )
    what: Annotated[str, Arg()] = Field(min_length=1, description="What they do.")
    tags: Annotated[Names, Opt("--tag")] = Field((), description="Tags such as momentum.")
    outcome: Annotated[Outcome | None, _LOWERED] = Field(
        None, description="critical, success, partial or failure (or roll against a target)."
    )
    roll: str | None = Field(None, description="Roll this, e.g. d20+2.")
    target: int | None = Field(None, description="The number the roll must reach.")

    def command(self, state: CampaignState) -> Command:
        return Act(self.player, self.what, self.tags, self.outcome, self.roll, self.target)


class SceneFreeBody(_Verb, title="Free action"):
    """One free action per round [DG-FREE-1]."""

    where = Place.SCENE
    example: ClassVar[str] = 'scene free Brenna "shouts a warning"'
    as_lines = True

    verb: Literal["scene_free"]
    actor: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="A player, or a GM creature after the GM's action."
    )
    what: Annotated[str, Arg()] = Field(min_length=1, description="The free action.")

    def command(self, state: CampaignState) -> Command:
        return FreeAction(self.actor, self.what)


class SceneGmBody(_Verb, title="The GM acts"):
    """The GM acts; with the players' action it makes a round, and time passes [DG-RND-1]."""

    where = Place.SCENE
    example: ClassVar[str] = (
        'scene gm "the ogre swings" --creature ogre --roll d20+3 --target 12; scene gm'
    )
    as_lines = True

    verb: Literal["scene_gm"]
    what: Annotated[str, Arg()] = Field("passes", min_length=1, description="The GM's action.")
    creature: Annotated[str | None, CREATURE] = Field(None, description="The creature that acts.")
    tags: Annotated[Names, Opt("--tag")] = Field((), description="Tags such as momentum.")
    outcome: Annotated[Outcome | None, _LOWERED] = Field(
        None, description="critical, success, partial or failure."
    )
    roll: str | None = Field(None, description="Roll this, e.g. d20+2.")
    target: int | None = Field(None, description="The number the roll must reach.")
    during_rest: bool = Field(False, description="Taken during a rest: dread grows [DG-DREAD-1].")
    creature_free: Annotated[Pairs, CREATURE, Opt("--creature-free", metavar="CREATURE=WHAT")] = (
        Field(
            (),
            description="A creature's free action after the GM's: CREATURE=WHAT [DG-FREE-1].",
        )
    )

    def command(self, state: CampaignState) -> Command:
        return GmAct(
            self.what,
            self.creature,
            self.tags,
            self.outcome,
            self.roll,
            self.target,
            during_rest=self.during_rest,
            creature_free=self.creature_free,
        )


class SceneGiveBody(_Verb, title="Give tokens"):
    """Give spotlight tokens to another player [DG-SPOT-2]."""

    where = Place.SCENE
    example: ClassVar[str] = "scene give Ulfarmi Brenna 1"
    as_lines = True

    verb: Literal["scene_give"]
    giver: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="The player who gives."
    )
    receiver: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="The player who receives."
    )
    count: Annotated[int, Arg("N")] = Field(1, ge=1, description="How many tokens.")

    def command(self, state: CampaignState) -> Command:
        return GiveTokens(self.giver, self.receiver, self.count)


class DreadSpendBody(_Verb, title="Spend dread"):
    """Spend dread to enhance a creature the GM controls [DG-DREAD-1]."""

    where = Place.SCENE
    line: ClassVar[str] = "scene dread spend"
    example: ClassVar[str] = 'scene dread spend 2 "the ogre hits harder" --creature ogre'
    as_lines = True

    verb: Literal["dread_spend"]
    amount: Annotated[int, Arg("N")] = Field(ge=1, description="How much dread.")
    what: Annotated[str, Arg()] = Field(min_length=1, description="What it buys.")
    creature: Annotated[str | None, CREATURE] = Field(None, description="The creature enhanced.")

    def command(self, state: CampaignState) -> Command:
        return SpendDread(self.amount, self.what, self.creature)


class SceneCompromiseBody(_Verb, title="Compromise"):
    """Take a roll that missed by 1 or 2 as a success; the GM gains dread [DG-DREAD-1]."""

    where = Place.SCENE
    example: ClassVar[str] = "scene compromise Brenna"
    as_lines = True

    verb: Literal["scene_compromise"]
    player: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="The player whose last roll just missed."
    )

    def command(self, state: CampaignState) -> Command:
        return Compromise(self.player)


class SceneCloseBody(_Verb, title="Close the scene"):
    """The scene ends [DG-LOOP-1]."""

    where = Place.SCENE
    example: ClassVar[str] = "scene close"
    as_lines = True

    verb: Literal["scene_close"]

    def command(self, state: CampaignState) -> Command:
        return CloseScene()


# --- the world's month: its factions (issue 43) --------------------------------------------


class FactionLoadBody(_Verb, title="Lay out the world's factions"):
    """Lay out the world's factions: each acts at every month turn [TP-TIME-1].

    The factions file is docs/factions.md's; the ruleset's faction table says what a roll does."""

    example: ClassVar[str] = "faction load factions.toml"

    verb: Literal["faction_load"]
    factions_text: Annotated[
        FileText, _as_file("factions_text"), Arg("FILE", file="factions file")
    ] = Field(description="The factions file's text (TOML).")

    def command(self, state: CampaignState) -> Command:
        return LoadFactions(parse_factions(self.factions_text.text, self.factions_text.name))


class FactionRevealBody(_Verb, title="Reveal a faction's deed"):
    """Tell a faction's deed as a rumour to a party's players (--as) [TP-TIME-1].

    A deed is the referee's until told; a party hears only what the world did by its present."""

    example: ClassVar[str] = 'faction reveal "Red Hand" --as Scouts'
    as_lines = True

    verb: Literal["faction_reveal"]
    faction: Annotated[str, FACTION, Arg()] = Field(min_length=1, description="The faction.")
    deed: int | None = Field(
        None, ge=1, description="Which of its deeds, from 1 (default: the latest the party lived)."
    )
    text: str | None = Field(
        None, min_length=1, description="The rumour in the referee's words (default: the deed)."
    )

    def command(self, state: CampaignState) -> Command:
        return RevealDeed(self.faction, self.deed, self.text)


class HavenBody(_Verb, title="Spend a month at a haven"):
    """A character's month at a haven: an activity, its cost and living paid, its result.

    The party's month passes as a wait's days [TP-TIME-1]. A haven is off the maps: in no
    site, on no wilderness map. The ruleset's haven table (DEFAULT) gives each activity's
    cost, roll and bands."""

    example: ClassVar[str] = "haven Aldo work"
    as_lines = True

    verb: Literal["haven"]
    character: Annotated[str, CHARACTER, Arg()] = Field(
        min_length=1, description="Who spends the month."
    )
    activity: Annotated[str, ACTIVITY, Arg()] = Field(
        min_length=1, description="recover, train, research, work or carouse (the ruleset's)."
    )

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        return state.site is None and state.wilderness is None and not state.fight_running

    def command(self, state: CampaignState) -> Command:
        return HavenTurn(self.character, self.activity)


if TYPE_CHECKING:
    CommandBody = _Verb
else:
    CommandBody = Annotated[Union[tuple(VERBS.values())], Field(discriminator="verb")]  # noqa: UP007
"""One referee command as JSON, told apart by its ``verb``: the union of :data:`VERBS`."""
