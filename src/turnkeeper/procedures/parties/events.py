"""The events of a world of parties: a party splits, arrives, is switched to, says what it is
doing, joins another, clears a place, shares what it found, and spends downtime.

A split and a join do with each of a party's fields what ``procedures.parting.PARTING`` says.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from turnkeeper.clock.durations import format_duration
from turnkeeper.kernel.events import Event, Shown
from turnkeeper.kernel.party import Party, Supplies
from turnkeeper.kernel.state import CampaignState, PartyAway
from turnkeeper.procedures.parting import PARTING, Leaving, supplies_text


class PartySplit(Event):
    """Characters leave the party run now as a party of their own, with what they take."""

    kind: ClassVar[str] = "party.split"
    shown: ClassVar[Shown] = Shown.PARTY
    name: str
    left: str = ""
    characters: tuple[str, ...]
    supplies: Supplies = Supplies()

    def apply(self, state: CampaignState) -> CampaignState:
        leaving = Leaving(frozenset(self.characters), self.supplies, state.company)
        stays: dict[str, object] = {}
        goes: dict[str, object] = {}
        for name, parting in PARTING.items():  # every field of a party, as the table says
            stays[name], goes[name] = parting.part(getattr(state, name), leaving)
        new = PartyAway(name=self.name, **goes)
        return state.model_copy(update={**stays, "away": (*state.away, new)})

    def describe(self) -> str:
        taking = supplies_text(self.supplies)
        leave = "leaves" if len(self.characters) == 1 else "leave"
        return f"{', '.join(self.characters)} {leave} {self.left} as {self.name}" + (
            f", taking {taking}" if taking else ""
        )


class PartyArrived(Event):
    """A party of characters new to the world arrives at its present."""

    kind: ClassVar[str] = "party.arrived"
    shown: ClassVar[Shown] = Shown.REFEREE
    name: str
    party: Party
    at: int

    def apply(self, state: CampaignState) -> CampaignState:
        new = PartyAway(name=self.name, now=self.at, party=self.party, supplies=self.party.supplies)
        return state.model_copy(update={"away": (*state.away, new)})

    def describe(self) -> str:
        names = ", ".join(c.name for c in self.party.characters)
        return f"{self.name} enters the world: {names}"


class PartySwitched(Event):
    """The referee turns to another party: the commands that follow are that party's."""

    kind: ClassVar[str] = "party.switched"
    shown: ClassVar[Shown] = Shown.REFEREE
    to: str

    def apply(self, state: CampaignState) -> CampaignState:
        return state.switched_to(self.to)

    def describe(self) -> str:
        return f"the time record turns to {self.to}"


class PartyOccupied(Event):
    """The referee says what the party is doing and where it is bound, in words: what the
    timeline and a character's whereabouts say of it until it is told otherwise."""

    kind: ClassVar[str] = "party.doing"
    shown: ClassVar[Shown] = Shown.PARTY
    doing: str
    bound_for: str = Field("", exclude_if=lambda bound_for: not bound_for)

    def apply(self, state: CampaignState) -> CampaignState:
        told = state.whereabouts.model_copy(
            update={"doing": self.doing, "bound_for": self.bound_for}
        )
        return state.model_copy(update={"whereabouts": told})

    def describe(self) -> str:
        if not self.doing:
            return "the party's doings are no longer told"
        bound = f", bound for {self.bound_for}" if self.bound_for else ""
        return f"the party is {self.doing}{bound}"


class PartiesJoined(Event):
    """Another party joins the party run now: same place, same time, one party."""

    kind: ClassVar[str] = "party.joined"
    shown: ClassVar[Shown] = Shown.PARTY
    name: str
    into: str = ""
    brought: tuple[str, ...] = Field(
        (),
        description="What the joiners bring, in words (their light, their encounter, what "
        "they found...): every field of theirs is merged as procedures.parting.PARTING says.",
        exclude_if=lambda brought: not brought,  # the joins recorded before it stay as they were
    )

    def apply(self, state: CampaignState) -> CampaignState:
        other = state.away_party(self.name)
        update = {
            name: parting.meet(getattr(state, name), getattr(other, name))
            for name, parting in PARTING.items()
        }
        return state.model_copy(
            update={**update, "away": tuple(p for p in state.away if p is not other)}
        )

    def describe(self) -> str:
        line = f"{self.name} joins {self.into}"
        return line + (f", bringing {'; '.join(self.brought)}" if self.brought else "")


class AreaCleared(Event):
    """The party run now cleared an area (its dwellers are met no more): a change to the
    world that every party finds, and that no party behind in time may act against."""

    kind: ClassVar[str] = "site.area_cleared"
    shown: ClassVar[Shown] = Shown.PARTY
    site: str
    level: int
    area: str
    what: str = "cleared"

    def apply(self, state: CampaignState) -> CampaignState:
        return state.changed(self.site, self.level, self.area, self.what)

    def describe(self) -> str:
        return f"area {self.area} of {self.site} (level {self.level}): {self.what}"


class HexCleared(Event):
    """The party run now cleared a hex of its wilderness map (slew the dragon in its lair,
    burnt the bandits' camp): a change to the world that no party behind in time may act
    against, nor travel into, until brought forward."""

    kind: ClassVar[str] = "map.hex_cleared"
    shown: ClassVar[Shown] = Shown.PARTY
    map: str
    hex: str
    what: str = "cleared"

    def apply(self, state: CampaignState) -> CampaignState:
        return state.changed(self.map, 0, self.hex, self.what, hex=True)

    def describe(self) -> str:
        return f"hex {self.hex} of {self.map}: {self.what}"


class KnowledgeShared(Event):
    """The party run now shares what it found with another party: the hexes it saw and
    visited and the features it found on their common map, the areas it stood in and its map
    notes in their common site. Until then, what a party found is its own."""

    kind: ClassVar[str] = "party.shared"
    shown: ClassVar[Shown] = Shown.PARTY
    to: str
    giver: str = ""

    def apply(self, state: CampaignState) -> CampaignState:
        other = state.away_party(self.to)
        update: dict[str, object] = {}
        mine, theirs = state.wilderness, other.wilderness
        if mine is not None and theirs is not None and mine.map.name == theirs.map.name:
            update["wilderness"] = theirs.model_copy(
                update={
                    "visited": theirs.visited | mine.visited,
                    "seen": theirs.seen | mine.seen,
                    "found": theirs.found | mine.found,
                }
            )
        here, there = state.site, other.site
        if here is not None and there is not None and here.site.name == there.site.name:
            visited = (*there.visited, *(v for v in here.visited if v not in there.visited))
            notes = (*there.map_notes, *(n for n in here.map_notes if n not in there.map_notes))
            update["site"] = there.model_copy(update={"visited": visited, "map_notes": notes})
        informed = other.model_copy(update=update)
        away = tuple(informed if p is other else p for p in state.away)
        return state.model_copy(update={"away": away})

    def describe(self) -> str:
        return f"{self.giver} shares what it found with {self.to}"


class DowntimeBegun(Event):
    """The party spends days in downtime, brought forward in the world's time."""

    kind: ClassVar[str] = "party.downtime"
    shown: ClassVar[Shown] = Shown.PARTY
    party: str
    days: int
    where: str
    seconds_more: int = Field(
        0,
        description="The seconds beyond the whole days (a lag of 1 h 50 min is no day); the "
        "records made before it counted a part day as a day.",
        exclude_if=lambda seconds: not seconds,
    )

    def describe(self) -> str:
        days = "1 day" if self.days == 1 else f"{self.days} days" if self.days else ""
        part = format_duration(self.seconds_more) if self.seconds_more else ""
        return f"{self.party} spends {' and '.join(p for p in (days, part) if p)} {self.where}"


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    PartySplit,
    PartyArrived,
    PartySwitched,
    PartyOccupied,
    PartiesJoined,
    AreaCleared,
    HexCleared,
    KnowledgeShared,
    DowntimeBegun,
)
