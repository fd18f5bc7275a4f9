"""The referee's commands as JSON: a small vocabulary, each word mapped to a command class.

The body of ``POST /api/campaigns/{name}/commands`` is one object with a ``verb`` and that
verb's fields, plus two optional fields every verb takes: ``dice`` (faces of physical dice,
typed in, used in order) and ``expected_version`` (the version the client last saw; a stale
one is a 409 conflict, so two referees' tabs never act on a state they did not see).

No rules live here: each word builds the same command the CLI verb builds.

>>> from pydantic import TypeAdapter
>>> body = TypeAdapter(CommandBody).validate_python({"verb": "turn", "mode": "cautious"})
>>> body.verb, body.dice
('turn', None)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from turnkeeper.campaign import (
    CampaignState,
    Command,
    CountdownAdd,
    CountdownEnd,
    CountdownTick,
    Douse,
    Light,
    Rest,
    SetLight,
    Undo,
    Visibility,
    Wait,
    parse_duration,
)
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.dungeon import Turn
from turnkeeper.procedures.wilderness import Camp, Search, Travel


class _Verb(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    dice: list[Annotated[int, Field(ge=1)]] | None = Field(
        None, description="Faces of physical dice rolled, in order, instead of seeded dice."
    )
    expected_version: int | None = Field(
        None, ge=0, description="The campaign version the client saw; stale: 409, nothing done."
    )

    def command(self, state: CampaignState) -> Command:
        """The command this body asks for, read against the state (for its ruleset)."""
        raise NotImplementedError


class WaitBody(_Verb):
    """Let game time pass: ``{"verb": "wait", "duration": "3 turns"}`` (2h, 1d, 10m...)."""

    verb: Literal["wait"]
    duration: str = Field(min_length=1)

    def command(self, state: CampaignState) -> Command:
        return Wait(parse_duration(self.duration, state.ruleset.time))


class LightBody(_Verb):
    """Light a source (default: the ruleset's first), set its turns left, or douse it."""

    verb: Literal["light"]
    source: str | None = None
    set_turns: int | None = Field(None, ge=0)
    douse: bool = False

    def command(self, state: CampaignState) -> Command:
        if sum([self.source is not None, self.set_turns is not None, self.douse]) > 1:
            raise IllegalCommandError("light: give one of source, set_turns or douse")
        if self.douse:
            return Douse()
        if self.set_turns is not None:
            return SetLight(self.set_turns)
        sources = list(state.ruleset.light.sources)
        if self.source is None and not sources:
            raise IllegalCommandError(f"{state.ruleset.name} has no light sources")
        return Light(self.source or sources[0])


class RestBody(_Verb):
    """Rest a turn, or ``turns`` turns (EX-REST-1)."""

    verb: Literal["rest"]
    turns: int | None = Field(None, ge=1)

    def command(self, state: CampaignState) -> Command:
        return Rest(self.turns)


class TurnBody(_Verb):
    """One dungeon turn (the fields of ``turnkeeper turn``)."""

    verb: Literal["turn"]
    mode: str | None = None
    noisy: bool = False
    skip_check: bool = False
    door: bool = False
    level: int | None = None
    area: str | None = None
    hide: bool = True

    def command(self, state: CampaignState) -> Command:
        return Turn(
            mode=self.mode,
            noisy=self.noisy,
            skip_check=self.skip_check,
            door=self.door,
            level=self.level,
            area=self.area,
            hide=self.hide,
        )


class TravelBody(_Verb):
    """Travel or explore toward a direction, a hex or a found feature (TP-WIL-*)."""

    verb: Literal["travel"]
    target: str = Field(min_length=1)
    explore: bool = False
    party: list[str] | None = None
    vessel: str | None = None
    milieu: str | None = None
    forage: bool = False

    def command(self, state: CampaignState) -> Command:
        return Travel(
            self.target,
            explore=self.explore,
            party=tuple(self.party) if self.party is not None else None,
            vessel=self.vessel,
            milieu=self.milieu,
            waning="forage" if self.forage else "supplies",
        )


class CampBody(_Verb):
    """Make the night camp (TP-WENC-1/-2)."""

    verb: Literal["camp"]
    forage: bool = False

    def command(self, state: CampaignState) -> Command:
        return Camp("forage" if self.forage else "supplies")


class SearchBody(_Verb):
    """Search the party's hex (TP-DISC-2), for a named feature, or all day (TP-DISC-3)."""

    verb: Literal["search"]
    feature: str | None = None
    all_day: bool = False

    def command(self, state: CampaignState) -> Command:
        return Search(self.feature, self.all_day)


class UndoBody(_Verb):
    """Undo the latest command (recorded; the state forgets it)."""

    verb: Literal["undo"]

    def command(self, state: CampaignState) -> Command:
        return Undo()


class CountdownAddBody(_Verb):
    """Start a countdown (DG-CD-3); ``referee``: hidden from the players."""

    verb: Literal["countdown_add"]
    name: str = Field(min_length=1)
    kind: str = Field(min_length=1)
    length: str = Field(min_length=1, description="A number or a die, e.g. 4 or d6.")
    failure: str | None = None
    referee: bool = False

    def command(self, state: CampaignState) -> Command:
        visibility = Visibility.REFEREE if self.referee else Visibility.PARTY
        return CountdownAdd(self.name, self.kind, self.length, self.failure, visibility)


class CountdownTickBody(_Verb):
    """Tick a countdown by hand."""

    verb: Literal["countdown_tick"]
    name: str = Field(min_length=1)
    ticks: int = Field(1, ge=1)

    def command(self, state: CampaignState) -> Command:
        return CountdownTick(self.name, self.ticks)


class CountdownEndBody(_Verb):
    """End a countdown by hand."""

    verb: Literal["countdown_end"]
    name: str = Field(min_length=1)

    def command(self, state: CampaignState) -> Command:
        return CountdownEnd(self.name)


CommandBody = Annotated[
    WaitBody
    | LightBody
    | RestBody
    | TurnBody
    | TravelBody
    | CampBody
    | SearchBody
    | UndoBody
    | CountdownAddBody
    | CountdownTickBody
    | CountdownEndBody,
    Field(discriminator="verb"),
]
"""One referee command as JSON, told apart by its ``verb``."""
