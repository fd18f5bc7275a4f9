"""Events: the facts the journal records, each with its rolls and who may see it.

Every event type has a ``kind`` (``light.lit``); an :class:`EventRegistry` of the kinds a
journal may hold reads a stored record back into the same typed event (the command table
builds the one registry, :data:`turnkeeper.campaign.registry.EVENTS`). ``apply`` is the
fold step: it changes the state by what the event says, never rolling again (design: every
die is in an event).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Annotated, Any, ClassVar, Literal, NotRequired, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, with_config
from pydantic.fields import FieldInfo
from typing_extensions import TypedDict

from turnkeeper.clock.durations import format_duration
from turnkeeper.dice import DieFace, Roll, TypedDice, parse
from turnkeeper.errors import DiceInputError, DiceNotationError, TurnkeeperError
from turnkeeper.files.names import MAX_INT, MAX_TEXT_LENGTH
from turnkeeper.kernel.party import Party
from turnkeeper.kernel.state import CampaignState, RestState
from turnkeeper.rules.schema import Ruleset

Text = Annotated[str, Field(max_length=MAX_TEXT_LENGTH)]
"""A text a command gives an event (a note, a reason): at most :data:`MAX_TEXT_LENGTH`
characters, as a command takes it; declared on the event's field, so a journal's record is
held to it as it is read (an import), in its schema, at no cost per record."""

Amount = Annotated[int, Field(ge=0, le=MAX_INT)]
"""How much a command deals or gives (hit points, supplies): never negative, as the command
takes it (damage and healing of at least 1, a fight's blow of 0 that leaves the foe unhurt),
and within 64 bits; an import's records are held to it by their schema."""


class Visibility(StrEnum):
    """Who may see an event: the whole table, or the referee alone."""

    PARTY = "party"
    REFEREE = "referee"


class RollRecord(BaseModel):
    """A roll as the journal keeps it: the same fields as :meth:`Roll.to_record`."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    expression: str
    total: int
    dice: tuple[tuple[int, int, bool], ...] = ()
    breakdown: str
    typed_in: bool = False

    @classmethod
    def of(cls, roll: Roll) -> RollRecord:
        """Record a finished roll."""
        return cls(
            expression=roll.expression,
            total=roll.total,
            dice=tuple((d.sides, d.face, d.kept) for d in roll.dice),
            breakdown=roll.breakdown,
            typed_in=roll.typed_in,
        )

    @classmethod
    def of_die(cls, face: DieFace) -> RollRecord:
        """Record one die rolled alone (a usage die)."""
        text = f"d{face.sides}"
        return cls(
            expression=text,
            total=face.face,
            dice=((face.sides, face.face, True),),
            breakdown=f"{text} ({face.face}) = {face.face}",
            typed_in=face.typed_in,
        )

    def text(self) -> str:
        """The breakdown, marked when the dice were typed in."""
        return self.breakdown + (" (typed in)" if self.typed_in else "")

    def disagreement(self) -> str | None:
        """What is wrong with this roll by its own dice, or None when they agree: every face
        within its die's sides, and the expression rolled again with these faces, in their
        order (and the values its names had, as its breakdown says them: ``CHA (1)``), gives
        the same dice, total and breakdown. An import asks it of every roll it reads.

        >>> RollRecord(expression="2d6", total=9, dice=((6, 4, True), (6, 5, True)),
        ...            breakdown="2d6 (4, 5) = 9").disagreement()
        >>> RollRecord(expression="1d6", total=9, dice=((6, 9, True),),
        ...            breakdown="1d6 (9) = 9").disagreement()
        'a d6 shows 1 to 6, not 9'
        >>> RollRecord(expression="2d6+1", total=12, dice=((6, 4, True), (6, 5, True)),
        ...            breakdown="2d6 (4, 5) + 1 = 12").disagreement()
        'its dice make 2d6 (4, 5) + 1 = 10, not 12'
        """
        for sides, face, _ in self.dice:
            if not 1 <= face <= sides:
                return f"a d{sides} shows 1 to {sides}, not {face}"
        try:
            expression = parse(self.expression)
            values = {
                name: int(found.group(1))
                for name in expression.names
                if (found := re.search(_NAMED.format(re.escape(name)), self.breakdown))
            }
            again = expression.roll(TypedDice(face for _, face, _ in self.dice), values)
        except (DiceInputError, DiceNotationError) as error:
            return f"its dice are not those of {self.expression!r} ({error})"
        dice = tuple((d.sides, d.face, d.kept) for d in again.dice)
        if len(dice) != len(self.dice):
            return f"{self.expression!r} rolls {len(dice)} dice, not {len(self.dice)}"
        if dice != self.dice:
            return f"its dice are not those {self.expression!r} keeps or drops"
        if again.total != self.total:
            return f"its dice make {again.breakdown}, not {self.total}"
        if again.breakdown != self.breakdown:
            return f"it reads {self.breakdown!r}, but its dice read {again.breakdown!r}"
        return None


#: A name's value in a roll's breakdown, as the roller writes it: ``CHA (-1)``.
_NAMED = r"\b{} \((-?[0-9]{{1,19}})\)"


class Shown(StrEnum):
    """Who sees the events of a kind: every event class declares it, once (``shown``), and
    the journal, the players' views and an import's check all read it there."""

    PARTY = "party"
    """The whole table, always."""
    REFEREE = "referee"
    """The referee alone, always: a die the referee rolls behind the screen, a site's secrets."""
    CHOSEN = "chosen"
    """As each event says: the referee's choice (a note) or the procedure's, by what the event
    holds (:meth:`Event.seen_by` says which, where the engine decides)."""
    COUNTDOWN = "countdown"
    """As the countdown it names is seen (DG-CD-3): the event's :meth:`Event.seen_by`."""


class Event(BaseModel):
    """Base of every event: its kind, who may see it, every die rolled for it.

    Every event class declares its ``kind`` and who sees it (``shown``); the default of its
    ``visibility`` follows from that, so a procedure never says it again. A class that
    declares no ``shown`` of its own is refused when it is defined:

    >>> class Rumour(Event):
    ...     kind: ClassVar[str] = "rumour.heard"
    ...     shown: ClassVar[Shown] = Shown.REFEREE
    >>> Rumour().data(), Rumour().visibility
    ({}, <Visibility.REFEREE: 'referee'>)
    >>> class Whisper(Event):
    ...     kind: ClassVar[str] = "rumour.whispered"
    Traceback (most recent call last):
    TypeError: event Whisper declares no shown (who sees it: Shown.PARTY, REFEREE...)
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: ClassVar[str] = ""
    shown: ClassVar[Shown]
    visibility: Visibility = Field(default=Visibility.PARTY, exclude=True)
    rolls: tuple[RollRecord, ...] = Field(default=(), exclude=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if not cls.kind:
            raise TypeError(f"event {cls.__name__} needs a kind")
        if "shown" not in cls.__dict__:
            raise TypeError(
                f"event {cls.__name__} declares no shown (who sees it: Shown.PARTY, REFEREE...)"
            )
        if "visibility" in cls.__annotations__:
            raise TypeError(
                f"event {cls.__name__}: who sees it is its class's shown, not a visibility field"
            )
        # The schema is built on first use (defer_build): the default set here is the one
        # it reads, so an event records who sees it without its procedure saying so again.
        default = Visibility.REFEREE if cls.shown is Shown.REFEREE else Visibility.PARTY
        fields = cls.model_fields
        fields["visibility"] = FieldInfo.merge_field_infos(fields["visibility"], default=default)

    def seen_by(self, state: CampaignState) -> Visibility | None:
        """Who the engine shows this event to in ``state`` (the state before it): what an
        import checks a record's visibility against; None where the referee chooses."""
        shown = self.shown
        if shown is Shown.CHOSEN:
            return None
        if shown is Shown.COUNTDOWN:
            raise NotImplementedError(f"{self.kind} says which countdown it follows")
        return Visibility.REFEREE if shown is Shown.REFEREE else Visibility.PARTY

    def apply(self, state: CampaignState) -> CampaignState:
        """The fold step: the state after this event. Events that only record return it as is."""
        return state

    def describe(self) -> str:
        """One line a referee reads in the log."""
        return self.kind

    def describe_to_party(self) -> str | None:
        """The line the players read: what their characters perceive of this event, in plain
        words; None when they perceive nothing of it (a torch burning down a turn).

        The referee's line, unless an event carries what only the referee knows (a foe's
        armour class, hit points, hit dice, damage dice or morale, a light's turns left):
        then the event says here what the characters see instead (a foe is hit, falls; the
        torch gutters).
        """
        return self.describe()

    def rolls_to_party(self) -> tuple[RollRecord, ...]:
        """The rolls the players see with the party's line: all of them, unless the dice
        would tell what the line keeps back (an attack roll against an armour class, a
        foe's damage die)."""
        return self.rolls

    def data(self) -> dict[str, object]:
        """The event's own fields as JSON-able data (its visibility and rolls are not its own:
        they are written apart)."""
        dumped: dict[str, object] = self.model_dump(mode="json")
        return dumped


@dataclass(frozen=True, slots=True)
class Recorded:
    """An event as the journal keeps it: its number, its command, the game time after it, and
    in a world of several parties the party whose record it is (the one run after it, whose
    present ``at`` is: :attr:`~turnkeeper.kernel.state.CampaignState.record_party`)."""

    seq: int
    command: int
    at: int
    event: Event
    party: str | None = None

    def to_record(self) -> dict[str, object]:
        """JSON-able: ``{"seq", "command", "at", "kind", "visibility", "data", "rolls"}``,
        and ``"party"`` in a world of several parties."""
        seq, command, at, kind, visibility = self.columns()
        record: dict[str, object] = {
            "seq": seq,
            "command": command,
            "at": at,
            "kind": kind,
            "visibility": visibility,
            "data": self.event.data(),
            "rolls": [roll.model_dump(mode="json") for roll in self.event.rolls],
        }
        if self.party is not None:
            record["party"] = self.party
        return record

    def columns(self) -> tuple[int, int, int, str, str]:
        """What a store keeps beside a record's text to find it by: its seq, command, game
        time, kind and visibility (the record's first fields, in their order)."""
        # _value_, not .value: the enum's descriptor costs an import of 200,000 records
        return (self.seq, self.command, self.at, self.event.kind, self.event.visibility._value_)


@dataclass(frozen=True)
class RecordSchema:
    """How a stored record is validated: a union of one shape per event kind, told by ``kind``."""

    one: TypeAdapter[Any]
    many: TypeAdapter[list[Any]]


class EventRegistry:
    """The event kinds a journal may hold, each told by its ``kind``.

    A record is ``{"seq", "command", "at", "kind", "visibility", "data", "rolls"}``; its shape
    for a kind validates ``data`` as that kind's event (its own fields; visibility and rolls
    keep their defaults and are validated beside it, then set on the event). The schema is
    built on the first read, so a process that never reads a journal never builds it.

    >>> registry = EventRegistry(NoteMade)
    >>> registry.record({"seq": 1, "command": 1, "at": 0, "kind": "note.made",
    ...                  "visibility": "party", "data": {"text": "hello"}, "rolls": []}).event
    NoteMade(visibility=<Visibility.PARTY: 'party'>, rolls=(), text='hello')
    >>> try:
    ...     registry.record({"seq": 1, "command": 1, "at": 0, "kind": "light.lit"})
    ... except TurnkeeperError as error:
    ...     print(error)
    unknown event kind 'light.lit': is this journal from a newer turnkeeper?
    """

    def __init__(self, *events: type[Event]) -> None:
        kinds: dict[str, type[Event]] = {}
        for event in events:
            other = kinds.setdefault(event.kind, event)
            if other is not event:
                raise TypeError(
                    f"two events share the kind {event.kind!r}: {other.__name__}, {event.__name__}"
                )
        self.kinds: Mapping[str, type[Event]] = MappingProxyType(kinds)
        # the schema of every kind read so far, and those kinds (see :meth:`schema`)
        self._widest: tuple[frozenset[str], RecordSchema] | None = None

    def schema(self, kinds: Iterable[str] | None = None) -> RecordSchema:
        """A record schema that covers ``kinds`` (every kind here by default).

        The schema covers the kinds read so far in this process, so reading a short journal
        builds the models of the few kinds it holds, not of every procedure's events. A read
        of a kind not yet covered builds one schema of it and every kind read before, which
        then serves every set of those kinds: a server drawing each display's latest lines
        meets a new set of kinds at nearly every command, and a schema built per set cost it
        a tenth to a quarter of a second for most commands. A record validates the same
        under any schema that covers its kind (each kind's shape is told by ``kind``).
        """
        wanted = frozenset(kind for kind in kinds or () if kind in self.kinds)
        if not wanted:
            wanted = frozenset(self.kinds)
        widest = self._widest  # one read: another thread may widen it meanwhile
        if widest is not None and wanted <= widest[0]:
            return widest[1]
        covered = wanted | (widest[0] if widest is not None else frozenset())
        found = self._build(sorted(covered))
        self._widest = (covered, found)
        return found

    def _build(self, kinds: Sequence[str]) -> RecordSchema:
        make: Any = TypedDict  # the shapes are made at run time, one per kind
        # a field of no record (a journal changed by hand) is refused, as an event's is
        strict = with_config(ConfigDict(extra="forbid"))
        shapes = tuple(
            strict(
                make(
                    f"{self.kinds[kind].__name__}Record",
                    {
                        "seq": int,
                        "command": int,
                        "at": int,
                        "kind": Literal[kind],
                        # as its text, not the enum: pydantic-core writes a text without a
                        # call back into Python (.value) per record
                        "visibility": _VISIBILITY_TEXT,
                        "data": self.kinds[kind],
                        "rolls": tuple[RollRecord, ...],
                        # a world's records name their party; a world's older records do not
                        "party": NotRequired[str],
                    },
                )
            )
            for kind in kinds
        )
        one: Any = Annotated[Union[shapes], Field(discriminator="kind")]  # noqa: UP007
        return RecordSchema(TypeAdapter(one), TypeAdapter(list[one]))

    def record(self, record: Mapping[str, object]) -> Recorded:
        """Read back a record written by :meth:`Recorded.to_record`; TurnkeeperError if it is
        not one."""
        kind = record.get("kind")
        schema = self.schema([kind] if isinstance(kind, str) and kind in self.kinds else None)
        try:
            return _recorded(schema.one.validate_python(record))
        except ValidationError as error:
            raise _not_a_record(error, record) from None

    def records_json(self, text: str | bytes) -> list[Recorded]:
        """A whole journal (the JSON array of its records) read back in one go.

        pydantic-core applies the schema to the JSON text itself: no Python dict is made per
        record, which makes a full rebuild about three times faster than a record at a time.
        The schema is that of the kinds the text names. Records come back sorted by seq.
        """
        raw = text.encode() if isinstance(text, str) else text
        records = [_recorded(row) for row in self._rows(raw)[1]]
        if any(a.seq >= b.seq for a, b in itertools.pairwise(records)):
            records.sort(key=lambda r: r.seq)
        return records

    def journal_json(
        self, raw: bytes, kinds: Iterable[str] | None = None
    ) -> tuple[list[Recorded], bool]:
        """A journal from elsewhere (the JSON array of its records, an import's, as UTF-8;
        or a page of them, with the ``kinds`` the whole journal names) read in the text's
        own order, and whether the text is those records exactly as a store writes them
        (:meth:`Recorded.to_record`, compact): then each record's text can be stored as it
        is, where writing them all again cost an import a fifth of its time.

        The check is pydantic-core's own writing of the validated records, in one go, held
        against the text byte for byte: a text written otherwise (spaced, its fields in
        another order or left to their defaults) is no error, only written again.
        """
        schema, rows = self._rows(raw, kinds)
        records = [_recorded(row) for row in rows]
        return records, schema.many.dump_json(rows) == raw

    def kinds_named(self, raw: bytes) -> set[str]:
        """The kinds a JSON text (UTF-8) names: its records', and any field named so."""
        return {match.decode() for match in set(_KIND_IN_JSON.findall(raw))}

    def _rows(
        self, raw: bytes, kinds: Iterable[str] | None = None
    ) -> tuple[RecordSchema, list[Any]]:
        """The schema of ``kinds`` (else of the kinds ``raw`` names), and its records
        validated from the text."""
        schema = self.schema(self.kinds_named(raw) if kinds is None else kinds)
        try:
            return schema, schema.many.validate_json(raw)
        except ValidationError as error:
            raise _not_a_record(error, None) from None


#: Every ``"kind": "..."`` of a JSON text: each record's kind, and any field named so.
_KIND_IN_JSON = re.compile(rb'"kind"\s*:\s*"([^"\\]*)"')


_VISIBILITIES = {member.value: member for member in Visibility}
_VISIBILITY_TEXT: Any = Literal[tuple(_VISIBILITIES)]  # "party" or "referee"


def _recorded(row: Mapping[str, Any]) -> Recorded:
    event: Event = row["data"]
    visibility = _VISIBILITIES[row["visibility"]]
    if row["rolls"] or visibility is not event.visibility:
        event = event.model_copy(update={"visibility": visibility, "rolls": row["rolls"]})
    return Recorded(row["seq"], row["command"], row["at"], event, row.get("party"))


def _not_a_record(error: ValidationError, record: Mapping[str, object] | None) -> TurnkeeperError:
    """One clear message: an unknown kind (a newer journal?) or the first thing wrong."""
    first = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"]) or "kind"
    if first["type"] == "union_tag_not_found":
        first["msg"] = "missing"
    elif first["type"] == "extra_forbidden":
        first["msg"] = "a field turnkeeper never writes: was the journal changed by hand?"
    elif first["type"] == "union_tag_invalid":
        kind = first["input"].get("kind") if isinstance(first["input"], Mapping) else None
        return TurnkeeperError(
            f"unknown event kind {kind!r}: is this journal from a newer turnkeeper?"
        )
    shown = "" if record is None else f": {dict(record)!r}"
    if len(shown) > 300:  # a record of a 50 MB note is named, not printed
        shown = shown[:297] + "..."
    return TurnkeeperError(f"not a journal record ({where}: {first['msg']}){shown}")


# --- the events every campaign has ----------------------------------------------------------


class CampaignStarted(Event):
    """The campaign's first event: the resolved ruleset and the party, so replay needs no files."""

    kind: ClassVar[str] = "campaign.started"
    shown: ClassVar[Shown] = Shown.PARTY
    name: str
    seed: int
    ruleset: Ruleset
    party: Party
    # A world imported under another name: its records name the founding party by the name
    # it had (switches to it, the places it changed), so the party keeps it.
    party_name: str | None = Field(None, exclude_if=lambda name: name is None)

    @property
    def company(self) -> str:
        """The founding party's name (the campaign's, unless renamed on import)."""
        return self.party_name or self.name

    def start(self) -> CampaignState:
        """The state the campaign begins in."""
        return CampaignState(
            name=self.name,
            seed=self.seed,
            ruleset=self.ruleset,
            party=self.party.model_copy(update={"supplies": self.party.supplies.model_copy()}),
            supplies=self.party.supplies,
            rest=RestState(),
            party_name=self.party_name,
        )

    def apply(self, state: CampaignState) -> CampaignState:
        return self.start()

    def describe(self) -> str:
        names = ", ".join(c.name for c in self.party.characters)
        return f"campaign {self.name} starts under {self.ruleset.name}: {names}"


class ClockAdvanced(Event):
    """Game time passes to ``to`` (seconds since the campaign's start)."""

    kind: ClassVar[str] = "clock.advanced"
    shown: ClassVar[Shown] = Shown.PARTY
    to: int
    seconds: int

    def apply(self, state: CampaignState) -> CampaignState:
        return state.passing_to(self.to)

    def describe(self) -> str:
        return f"{format_duration(self.seconds)} pass"


class CommandUndone(Event):
    """Undo, itself recorded: the record keeps everything, the state forgets the command."""

    kind: ClassVar[str] = "command.undone"
    shown: ClassVar[Shown] = Shown.CHOSEN
    command: int
    what: str = Field("", exclude_if=lambda what: not what)  # older journals have none

    def seen_by(self, state: CampaignState) -> Visibility | None:
        # what it repeats of the command may be the referee's alone (a note, a foe's wound)
        return Visibility.REFEREE if self.what else Visibility.PARTY

    def describe(self) -> str:
        return (
            f"undid command {self.command}: {self.what}"
            if self.what
            else (f"command {self.command} undone")
        )

    def describe_to_party(self) -> str | None:
        return None  # the players' journal drops what was undone, and the undo with it


class CommandRedone(Event):
    """Redo, itself recorded: the command the latest undo took back is live again, its
    records as they were (its dice are not rolled again), as if the undo had not been."""

    kind: ClassVar[str] = "command.redone"
    shown: ClassVar[Shown] = Shown.CHOSEN
    command: int
    what: str = Field("", exclude_if=lambda what: not what)

    def seen_by(self, state: CampaignState) -> Visibility | None:
        # what it repeats of the command may be the referee's alone (a note, a foe's wound)
        return Visibility.REFEREE if self.what else Visibility.PARTY

    def describe(self) -> str:
        return (
            f"redid command {self.command}: {self.what}"
            if self.what
            else (f"command {self.command} redone")
        )

    def describe_to_party(self) -> str | None:
        return None  # the players' journal shows the redone command as if never undone


UNDO_EVENTS: tuple[type[CommandUndone], type[CommandRedone]] = (CommandUndone, CommandRedone)
"""The journal's bookkeeping events: they name a command to take back or to bring back."""


def undone_commands(records: Iterable[Recorded]) -> frozenset[int]:
    """The commands undone at the end of ``records`` (in seq order): each named by an undo
    and not brought back by a redo after it. An undo and a redo are read in their order, so
    a command undone, redone and undone again stays undone.

    >>> def at(seq: int, event: Event) -> Recorded:
    ...     return Recorded(seq=seq, command=seq, at=0, event=event)
    >>> undone_commands([at(3, CommandUndone(command=2)), at(4, CommandRedone(command=2))])
    frozenset()
    >>> undone_commands([at(3, CommandUndone(command=2)), at(5, CommandUndone(command=1))])
    frozenset({1, 2})
    """
    undone: set[int] = set()
    for record in records:
        event = record.event
        if isinstance(event, CommandUndone):
            undone.add(event.command)
        elif isinstance(event, CommandRedone):
            undone.discard(event.command)
    return frozenset(undone)


class NoteMade(Event):
    """A note in the time record, for the party or the referee alone."""

    kind: ClassVar[str] = "note.made"
    shown: ClassVar[Shown] = Shown.CHOSEN
    text: Text

    def describe(self) -> str:
        return self.text


#: The events every campaign has, whatever its procedures.
EVENTS: tuple[type[Event], ...] = (
    CampaignStarted,
    ClockAdvanced,
    CommandUndone,
    CommandRedone,
    NoteMade,
)
