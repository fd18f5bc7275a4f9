"""The verbs of time passing and of the party's upkeep: waiting, resting, light, supplies,
wounds and healing, and the record itself (notes, undo, redo)."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    BeforeValidator,
    Field,
)

from turnkeeper.campaign import (
    AddSupply,
    CampaignState,
    Command,
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
    Wait,
    parse_duration,
)
from turnkeeper.errors import IllegalCommandError
from turnkeeper.files import digits
from turnkeeper.verbs.body import (
    REFEREE_ONLY,
    VerbBody,
    seen_by,
)
from turnkeeper.verbs.kinds import (
    DICE,
    DICE_OR_NUMBER,
    DURATION,
    LIGHT_SOURCE,
    SUPPLY,
    TARGET,
    WOUNDED,
    Arg,
    Opt,
)


class WaitBody(VerbBody, title="Wait"):
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


class RestBody(VerbBody, title="Rest"):
    """Rest a turn, as the party must now and then [EX-REST-1]."""

    example: ClassVar[str] = "rest; rest --turns 2"

    verb: Literal["rest"]
    turns: int | None = Field(None, ge=1, description="Turns to rest (default: 1).")

    def command(self, state: CampaignState) -> Command:
        return Rest(self.turns)


class LightBody(VerbBody, title="Light"):
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
        description=f"Set the turns the burning light has left (at most 10,000). {REFEREE_ONLY}",
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


class SupplyUseBody(VerbBody, title="Use supplies"):
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


class SupplyAddBody(VerbBody, title="Add supplies"):
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


class DamageBody(VerbBody, title="Damage"):
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


class HealBody(VerbBody, title="Heal"):
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


class NoteBody(VerbBody, title="Note"):
    """Write a note into the time record, for the whole table or the referee alone."""

    example: ClassVar[str] = 'note "The door was barred from inside"; note "Ogre awake" --referee'
    as_lines = True

    verb: Literal["note"]
    text: Annotated[str, Arg()] = Field(min_length=1, description="The note.")
    referee: bool = Field(False, description=f"A note for the referee. {REFEREE_ONLY}")

    def command(self, state: CampaignState) -> Command:
        return Note(self.text, seen_by(self.referee))


class UndoBody(VerbBody, title="Undo"):
    """Undo the latest command (recorded in the log, forgotten by the state)."""

    example: ClassVar[str] = "undo"

    verb: Literal["undo"]

    def command(self, state: CampaignState) -> Command:
        return Undo()


class RedoBody(VerbBody, title="Redo"):
    """Redo what the latest undo took back, as it was: no die rolled again (recorded too)."""

    example: ClassVar[str] = "redo"

    verb: Literal["redo"]

    def command(self, state: CampaignState) -> Command:
        return Redo()
