"""What every verb of the table is: a body model (:class:`VerbBody`), the place it fits in
(:class:`Place`), and the field types a form, a JSON body or a command line fills in text.

A verb is a body model: its ``verb`` name, its fields (each a pydantic field with its type,
bounds and description, and the markers of :mod:`turnkeeper.verbs.kinds`: what it names in
the game and how a command line types it), its help (the docstring and a worked ``example``,
with the rule IDs), ``where`` the party must be for it to make sense, and the command it
builds (:meth:`VerbBody.command`). The bodies are declared by group, one module a group
(:mod:`turnkeeper.verbs.combat`, ...), and gathered in :mod:`turnkeeper.verbs.table`.

No rules live here: each verb builds its command with the engine's own parsers (durations,
monster lines, sites, maps).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Annotated, Any, ClassVar, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    model_validator,
)
from pydantic.fields import FieldInfo

from turnkeeper.campaign import (
    AsParty,
    CampaignState,
    Command,
    Visibility,
)
from turnkeeper.verbs.kinds import (
    PARTY,
    Cli,
    Kind,
)


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


def _items(value: Any, read: Callable[[str], list[Any]]) -> Any:
    """A mapping's items, or the items of each text (a command line's repeated option, or one
    text alone) as ``read`` reads it, in the order given; anything else as it is, for the
    model to refuse."""
    if isinstance(value, Mapping):
        return list(value.items())
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple):
        return value
    items: list[Any] = []
    for item in value:
        items.extend(read(item) if isinstance(item, str) else [item])
    return items


def _pair(item: str) -> list[tuple[str, str]]:
    """``NAME=VALUE`` as a pair; a name given twice stays twice, for the rules to judge (a
    double vote)."""
    left, sep, right = item.partition("=")
    if not sep or not left.strip() or not right.strip():
        raise ValueError(f"{item!r}: write NAME=VALUE, e.g. Aldo=Bea")
    return [(left.strip(), right.strip())]


class FileText(BaseModel):
    """A file's text, and the name its messages call it by (its path, from a command line)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "the file"
    text: str


def as_file(what: str) -> Any:
    """A text given alone (JSON's way) is the file's text, called ``what`` in messages."""
    return BeforeValidator(
        lambda value: {"name": what, "text": value} if isinstance(value, str) else value
    )


#: Pairs of names, as ``{name: value}``, ``[[name, value]]`` or ``NAME=VALUE`` texts.
Pairs = Annotated[tuple[tuple[str, str], ...], BeforeValidator(lambda v: _items(v, _pair))]


def _take(item: str) -> list[tuple[str, str | None]]:
    """What leavers take: ``ITEM=COUNT`` of a counted supply, or ``ITEM`` alone for a usage
    die, which goes whole (PG-USE-1), each text comma-separated (``rations=2,torches=1``); a
    mapping gives ``{"arrows": null}`` for a whole die."""
    takes: list[tuple[str, str | None]] = []
    for part in (part.strip() for part in item.split(",")):
        if not part:
            continue
        name, sep, count = part.partition("=")
        if not name.strip() or (sep and not count.strip()):
            raise ValueError(f"{part!r}: write ITEM=COUNT, e.g. rations=2, or ITEM for a die")
        takes.append((name.strip(), count.strip() if sep else None))
    return takes


#: Supplies taken, each ``(item, count)``: a count None takes a usage die whole.
Takes = Annotated[tuple[tuple[str, str | None], ...], BeforeValidator(lambda v: _items(v, _take))]


def _counts(annotation: Any) -> bool:
    """Whether a field holds a number and never a yes or no."""
    kinds = set(get_args(annotation)) or {annotation}
    return bool(kinds & {int, float}) and bool not in kinds


#: The fields every verb takes: its name, the faces of physical dice, the version seen.
SHARED = frozenset({"verb", "dice", "expected_version", "as_party"})


def problem_in_words(problem: Any) -> str:
    """One of pydantic's problems in plain words: bounds as "at least 1", "at most 10,000".

    >>> problem_in_words({"type": "less_than_equal", "ctx": {"le": 10_000}, "msg": "..."})
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


class VerbBody(BaseModel):
    """A referee command as JSON; subclasses declare ``verb: Literal["name"]``, each in its
    group's module, which the table (:data:`turnkeeper.verbs.table.VERBS`) gathers."""

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


def seen_by(referee: bool) -> Visibility:
    """Who sees what a verb records: the referee alone, or the whole table."""
    return Visibility.REFEREE if referee else Visibility.PARTY


#: The help of a field that keeps what it records to the referee.
REFEREE_ONLY = "Only the referee sees it."
