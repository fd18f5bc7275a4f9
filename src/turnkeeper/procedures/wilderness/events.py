"""The events of wilderness travel: what the journal records of a day on the road.

Each event's ``apply`` changes only the campaign's :class:`WildernessState` (the clock moves
by the core's ``clock.advanced`` events, one watch per TP, TP-TIME-1). Rolls of the
wilderness die and of getting lost are the referee's; the party sees what happens.
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar, Literal

from turnkeeper.dice import format_mixed
from turnkeeper.kernel.events import Event, Shown
from turnkeeper.kernel.state import CampaignState, night_of, wilderness_of, with_wilderness
from turnkeeper.kernel.wilderness_state import (
    DEFAULT_REGION,
    Movement,
    PendingMove,
    WildernessState,
    hexmap_of,
)
from turnkeeper.words import listed, words
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile

Moment = Literal["first", "half", "last", "camp"]
SpentOn = Literal["search", "named_search", "all_day", "forage"]


def _tp(value: Fraction) -> str:
    return format_mixed(value) + " TP"


class MapLoaded(Event):
    """A wilderness map is laid out and the party placed on it (the whole map is embedded,
    referee's secrets and all, so this event is the referee's)."""

    kind: ClassVar[str] = "wilderness.map_loaded"
    shown: ClassVar[Shown] = Shown.REFEREE
    map: MapFile
    at: Hex
    weather: str = "clear"

    def apply(self, state: CampaignState) -> CampaignState:
        hexmap = hexmap_of(self.map)
        regions = {DEFAULT_REGION, *hexmap.regions.values()}
        wild = WildernessState(
            map=self.map,
            position=self.at,
            weather=dict.fromkeys(sorted(regions), self.weather),
            day_started_at=state.now,
        )
        return with_wilderness(state, wild)

    def describe(self) -> str:
        return f"map {self.map.name!r} ({self.map.width}x{self.map.height}) laid out"


class ConditionsSet(Event):
    """How the party travels: TP-WIL-3 conditions, a vessel (TP-WIL-9), the milieu (TP-WENC-3)."""

    kind: ClassVar[str] = "wilderness.conditions"
    shown: ClassVar[Shown] = Shown.PARTY
    party: tuple[str, ...] = ()
    vessel: str | None = None
    milieu: str | None = None

    def apply(self, state: CampaignState) -> CampaignState:
        wild = wilderness_of(state)
        return with_wilderness(
            state, wild.with_(party=self.party, vessel=self.vessel, milieu=self.milieu)
        )

    def describe(self) -> str:
        parts = [listed(self.party) or "on foot"]
        if self.vessel:
            parts.append(f"by {words(self.vessel)}")
        if self.milieu:
            parts.append(f"milieu {words(self.milieu)}")
        return "the party travels " + "; ".join(parts)


class MoveMade(Event):
    """TP spent moving into ``to`` (TP-WIL-2, TP-WIL-6): the party is there once the whole
    cost is paid; until then it stays in its hex, the move pending overnight."""

    kind: ClassVar[str] = "wilderness.moved"
    shown: ClassVar[Shown] = Shown.PARTY
    to: Hex
    cost: Fraction
    paid: Fraction
    movement: Movement = Movement.TRAVEL

    def apply(self, state: CampaignState) -> CampaignState:
        wild = wilderness_of(state)
        before = wild.pending.paid if wild.pending else Fraction(0)
        pending = PendingMove(
            to=self.to, cost=self.cost, paid=before + self.paid, movement=self.movement
        )
        arrived = pending.remaining <= 0
        return with_wilderness(
            state,
            wild.with_(
                tp_spent=wild.tp_spent + self.paid,
                movement_points=wild.movement_points + arrived,
                pending=None if arrived else pending,
            ),
        )

    def describe(self) -> str:
        verb = "explores" if self.movement is Movement.EXPLORE else "travels"
        return f"the party {verb} toward hex {self.to.label}: {_tp(self.paid)} of {_tp(self.cost)}"


class TravelPointsSpent(Event):
    """TP spent on something other than moving: searching (TP-DISC-2/3) or foraging."""

    kind: ClassVar[str] = "wilderness.tp_spent"
    shown: ClassVar[Shown] = Shown.PARTY
    amount: Fraction
    on: SpentOn

    def apply(self, state: CampaignState) -> CampaignState:
        wild = wilderness_of(state)
        owed = wild.forage_owed and self.on != "forage"
        return with_wilderness(
            state, wild.with_(tp_spent=wild.tp_spent + self.amount, forage_owed=owed)
        )

    def describe(self) -> str:
        doing = {
            "search": "searching the hex",
            "named_search": "searching for something named",
            "all_day": "searching the hex all day",
            "forage": "foraging",
        }
        return f"{_tp(self.amount)} {doing[self.on]}"


class WildernessDieRolled(Event):
    """The wilderness die (TP-WENC-4) at one of the moments of TP-WENC-1/-2; the referee's."""

    kind: ClassVar[str] = "wilderness.die"
    shown: ClassVar[Shown] = Shown.REFEREE
    moment: Moment
    face: int
    event: str
    label: str
    milieu: str | None = None

    def apply(self, state: CampaignState) -> CampaignState:
        wild = wilderness_of(state).with_(
            checks_done=(*wilderness_of(state).checks_done, self.moment)
        )
        if self.moment == "camp":  # this night's camp die is rolled: not again tonight
            wild = wild.with_(camp_rolled=night_of(state, state.now))
        return with_wilderness(state, wild)

    def describe(self) -> str:
        where = f" ({words(self.milieu)})" if self.milieu else ""
        return f"wilderness die, {self.moment}{where}: {self.face} {self.label}"


class WildEncounter(Event):
    """TP-WENC-4 faces 1 and 6: the referee rolls an encounter for the milieu."""

    kind: ClassVar[str] = "wilderness.encounter"
    shown: ClassVar[Shown] = Shown.PARTY
    good: bool = False
    hex: Hex
    at_camp: bool = False
    label: str = ""

    def describe(self) -> str:
        said = self.label or ("a good encounter" if self.good else "an encounter")
        # a label that names the camp already is not told it twice (issue 25)
        camp = self.at_camp and "camp" not in said.casefold()
        return f"{said} in hex {self.hex.label}" + (" at the camp" if camp else "")


class ForageOwed(Event):
    """TP-WENC-4 face 3 without supplies to spare: the next TP is spent foraging."""

    kind: ClassVar[str] = "wilderness.forage_owed"
    shown: ClassVar[Shown] = Shown.PARTY

    def apply(self, state: CampaignState) -> CampaignState:
        wild = wilderness_of(state)
        return with_wilderness(state, wild.with_(forage_owed=True))

    def describe(self) -> str:
        return "waning resources: the party must spend its next TP foraging"


class LostChecked(Event):
    """TP-LOST-1 (the project's default): the day's check for getting lost; the referee's."""

    kind: ClassVar[str] = "wilderness.lost_check"
    shown: ClassVar[Shown] = Shown.REFEREE
    chance_in_six: int
    lost: bool
    intended: Hex
    drift: Hex | None = None

    def apply(self, state: CampaignState) -> CampaignState:
        wild = wilderness_of(state)
        return with_wilderness(state, wild.with_(lost_checked=True))

    def describe(self) -> str:
        if not self.lost:
            return f"getting lost ({self.chance_in_six} in 6): the party keeps its course"
        if self.drift is None:
            return "getting lost: the party strays but no hex lies that way; it keeps its course"
        return (
            f"getting lost ({self.chance_in_six} in 6): the party drifts into hex "
            f"{self.drift.label} instead of {self.intended.label}"
        )


def _fresh_day(state: CampaignState, morning: int) -> CampaignState:
    """TP-WIL-1: the travel day beginning at ``morning`` has its full TP, none spent yet; a
    move begun yesterday stays pending, for today's first points to finish (TP-WIL-6)."""
    wild = wilderness_of(state)
    return with_wilderness(
        state,
        wild.with_(
            tp_spent=Fraction(0),
            movement_points=0,
            checks_done=(),
            lost_checked=False,
            day_started_at=morning,
        ),
    )


class Camped(Event):
    """The night camp is over: a new travel day begins with its full TP (TP-WIL-1)."""

    kind: ClassVar[str] = "wilderness.camped"
    shown: ClassVar[Shown] = Shown.PARTY
    morning: int
    day: int

    def apply(self, state: CampaignState) -> CampaignState:
        return _fresh_day(state, self.morning)

    def describe(self) -> str:
        return f"the party breaks camp: travel day {self.day} begins"


class TravelDayBegan(Event):
    """A new travel day began at ``morning`` with no camp made (a wait, a rest, days in a
    site): TP-WIL-1's travel points are the day's, so the party has the new day's TP."""

    kind: ClassVar[str] = "wilderness.day_began"
    shown: ClassVar[Shown] = Shown.PARTY
    morning: int
    day: int

    def apply(self, state: CampaignState) -> CampaignState:
        return _fresh_day(state, self.morning)

    def describe(self) -> str:
        return f"travel day {self.day} begins: the day's travel points are fresh"


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    MapLoaded,
    ConditionsSet,
    MoveMade,
    TravelPointsSpent,
    WildernessDieRolled,
    WildEncounter,
    ForageOwed,
    LostChecked,
    Camped,
    TravelDayBegan,
)
