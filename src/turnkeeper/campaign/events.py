"""Events: the facts the journal records, each with its rolls and who may see it.

Every event type has a ``kind`` (``light.lit``) under which it is registered, so a record
read back from a store becomes the same typed event. ``apply`` is the fold step: it changes
the state by what the event says, never rolling again (design: every die is in an event).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from turnkeeper.campaign.party import Party
from turnkeeper.campaign.state import CampaignState, RestState
from turnkeeper.clock.durations import format_duration
from turnkeeper.dice import DieFace, Roll
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.schema import Ruleset


class Visibility(StrEnum):
    """Who may see an event: the whole table, or the referee alone."""

    PARTY = "party"
    REFEREE = "referee"


class RollRecord(BaseModel):
    """A roll as the journal keeps it: the same fields as :meth:`Roll.to_record`."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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


EVENT_KINDS: dict[str, type[Event]] = {}


class Event(BaseModel):
    """Base of every event: its kind, who may see it, every die rolled for it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ClassVar[str] = ""
    visibility: Visibility = Visibility.PARTY
    rolls: tuple[RollRecord, ...] = ()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if not cls.kind:
            raise TypeError(f"event {cls.__name__} needs a kind")
        if (
            EVENT_KINDS.get(cls.kind, cls) is not cls
            and EVENT_KINDS[cls.kind].__qualname__ != cls.__qualname__
        ):
            raise TypeError(f"two events share the kind {cls.kind!r}")
        EVENT_KINDS[cls.kind] = cls

    def apply(self, state: CampaignState) -> CampaignState:
        """The fold step: the state after this event. Events that only record return it as is."""
        return state

    def describe(self) -> str:
        """One line a referee reads in the log."""
        return self.kind

    def data(self) -> dict[str, object]:
        """The event's own fields as JSON-able data."""
        dumped: dict[str, object] = self.model_dump(mode="json", exclude={"visibility", "rolls"})
        return dumped


def event_from(kind: str, data: Mapping[str, object], visibility: str, rolls: object) -> Event:
    """Rebuild a typed event from its kind and data."""
    cls = EVENT_KINDS.get(kind)
    if cls is None:
        raise TurnkeeperError(
            f"unknown event kind {kind!r}: is this journal from a newer turnkeeper?"
        )
    return cls.model_validate({**data, "visibility": visibility, "rolls": rolls})


@dataclass(frozen=True)
class Recorded:
    """An event as the journal keeps it: its number, its command, the game time after it."""

    seq: int
    command: int
    at: int
    event: Event

    def to_record(self) -> dict[str, object]:
        """JSON-able: ``{"seq", "command", "at", "kind", "visibility", "data", "rolls"}``."""
        return {
            "seq": self.seq,
            "command": self.command,
            "at": self.at,
            "kind": self.event.kind,
            "visibility": self.event.visibility.value,
            "data": self.event.data(),
            "rolls": [roll.model_dump(mode="json") for roll in self.event.rolls],
        }

    @classmethod
    def from_record(cls, record: Mapping[str, object]) -> Recorded:
        """Read back a record written by :meth:`to_record`."""
        try:
            data = record["data"]
            if not isinstance(data, Mapping):
                raise TypeError("data is not an object")
            event = event_from(
                str(record["kind"]), data, str(record["visibility"]), record["rolls"]
            )
            return cls(
                int(str(record["seq"])), int(str(record["command"])), int(str(record["at"])), event
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, TurnkeeperError):
                raise
            raise TurnkeeperError(f"not a journal record ({error}): {dict(record)!r}") from None


# --- the events every campaign has ----------------------------------------------------------


class CampaignStarted(Event):
    """The campaign's first event: the resolved ruleset and the party, so replay needs no files."""

    kind: ClassVar[str] = "campaign.started"
    name: str
    seed: int
    ruleset: Ruleset
    party: Party

    def start(self) -> CampaignState:
        """The state the campaign begins in."""
        return CampaignState(
            name=self.name,
            seed=self.seed,
            ruleset=self.ruleset,
            party=self.party.model_copy(update={"supplies": self.party.supplies.model_copy()}),
            supplies=self.party.supplies,
            rest=RestState(),
        )

    def apply(self, state: CampaignState) -> CampaignState:
        return self.start()

    def describe(self) -> str:
        names = ", ".join(c.name for c in self.party.characters)
        return f"campaign {self.name} starts under {self.ruleset.name}: {names}"


class ClockAdvanced(Event):
    """Game time passes to ``to`` (seconds since the campaign's start)."""

    kind: ClassVar[str] = "clock.advanced"
    to: int
    seconds: int

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"now": self.to})

    def describe(self) -> str:
        return f"{format_duration(self.seconds)} pass"


class CommandUndone(Event):
    """Undo, itself recorded: the record keeps everything, the state forgets the command."""

    kind: ClassVar[str] = "command.undone"
    command: int

    def describe(self) -> str:
        return f"command {self.command} undone"


class NoteMade(Event):
    """A note in the time record, for the party or the referee alone."""

    kind: ClassVar[str] = "note.made"
    text: str

    def describe(self) -> str:
        return self.text
