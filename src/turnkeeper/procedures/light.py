"""Light: torches and lamps burning down turn by turn, or until Waning Resources.

- EX-LIGHT-1: a pitch torch lights 30 ft and lasts 3 turns.
- EX-LIGHT-2: an oil lamp with a full flask lights 10 ft and lasts 6 turns.
- TP-ENC-2: under the overloaded die (``light.burns == "waning_face"``) a light has no fixed
  duration; it lasts until a Waning Resources face, which relights it from the supplies
  or leaves the party in darkness (:func:`waning_resources`).

The referee may set how many turns a light has left (recorded, referee-only). A burning
light loses a turn at the end of each of its turns; on its last turn the party is warned.

A light lit mid-turn (the text does not say): by default (``light.burns_down =
"from_lighting"``) its turns are counted from when it was lit, so a torch lit at 08:05 lasts
its thirty minutes to 08:35, and a lamp its hour to 09:05; the other reading,
``"at_turn_ends"``, takes a turn off at each of the site's turn boundaries (the torch is out
at 08:30, the lamp at 09:00, a part turn counting whole).
"""

from __future__ import annotations

from typing import ClassVar

from turnkeeper.clock.boundaries import Boundary
from turnkeeper.dice import DiceSource
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.events import Event, Shown
from turnkeeper.kernel.schedule import Draft, Hook
from turnkeeper.kernel.state import CampaignState, LightState
from turnkeeper.procedures.supplies import roll_usage
from turnkeeper.words import counted, did_you_mean, key_of, listed

# --- events -------------------------------------------------------------------------------


class LightLit(Event):
    """A light source is lit, spending one of its supply item; from a usage-die supply the
    die rolled with it is spent instead (PG-USE-1: the :class:`UsageDieRolled` after it)."""

    kind: ClassVar[str] = "light.lit"
    shown: ClassVar[Shown] = Shown.PARTY
    source: str
    supply: str
    radius_ft: int
    turns: int | None
    usage_die: bool = False

    def apply(self, state: CampaignState) -> CampaignState:
        supplies = state.supplies
        if not self.usage_die:
            supplies = supplies.with_count(self.supply, supplies.count(self.supply) - 1)
        # its own turns start now (EX-LIGHT-1 read from lighting; unused at turn ends)
        burns_at = None if self.turns is None else state.now + state.scales.turn
        light = LightState(
            source=self.source, radius_ft=self.radius_ft, turns_left=self.turns, burns_at=burns_at
        )
        return state.model_copy(update={"supplies": supplies, "light": light})

    def data(self) -> dict[str, object]:
        """Left out at its default, so the journals of lights lit before it stay as they were."""
        dumped = super().data()
        if not self.usage_die:
            dumped.pop("usage_die")
        return dumped

    def _spent(self) -> str:
        return f"the {self.supply}' usage die" if self.usage_die else f"1 from {self.supply}"

    def describe(self) -> str:
        lasts = counted(self.turns, "turn") if self.turns is not None else "until resources wane"
        return f"{self.source} lit ({self.radius_ft} ft, {lasts}); {self._spent()}"

    def describe_to_party(self) -> str | None:
        """How far the light reaches, not how long it lasts (EX-LIGHT-1: the referee's)."""
        return f"{self.source} lit ({self.radius_ft} ft); {self._spent()}"


class LightBurned(Event):
    """A turn ends and the light has a turn less."""

    kind: ClassVar[str] = "light.burned"
    shown: ClassVar[Shown] = Shown.PARTY
    turns_left: int

    def apply(self, state: CampaignState) -> CampaignState:
        burns_at = state.now + state.scales.turn  # the end of the light's next turn
        update = {"turns_left": self.turns_left, "burns_at": burns_at}
        return state.model_copy(update={"light": state.light.model_copy(update=update)})

    def describe(self) -> str:
        return f"light burns down: {self.turns_left} turn{'s' * (self.turns_left != 1)} left"

    def describe_to_party(self) -> str | None:
        return None  # a flame burning on is nothing to see; the turns left are the referee's


class LightWarning(Event):
    """The light is on its last turn(s): time to light another."""

    kind: ClassVar[str] = "light.warning"
    shown: ClassVar[Shown] = Shown.PARTY
    source: str
    turns_left: int

    def describe(self) -> str:
        last = "its last turn" if self.turns_left == 1 else f"{self.turns_left} turns left"
        return f"warning: the {self.source} is on {last}"

    def describe_to_party(self) -> str | None:
        """The characters see the flame gutter; they do not count its turns."""
        return f"the {self.source} gutters: it will not burn much longer"


class LightOut(Event):
    """The light goes out: darkness, until another is lit."""

    kind: ClassVar[str] = "light.out"
    shown: ClassVar[Shown] = Shown.PARTY
    source: str
    reason: str = "burnt out"

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"light": LightState()})

    def describe(self) -> str:
        return f"the {self.source} goes out ({self.reason}): darkness"


class LightTimeSet(Event):
    """The referee sets how long the light has left."""

    kind: ClassVar[str] = "light.time_set"
    shown: ClassVar[Shown] = Shown.REFEREE
    turns_left: int

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(
            update={"light": state.light.model_copy(update={"turns_left": self.turns_left})}
        )

    def describe(self) -> str:
        return f"referee: the light has {counted(self.turns_left, 'turn')} left"

    def describe_to_party(self) -> str | None:
        return None  # the referee's secret, even if a record of it were marked party


# --- procedures ---------------------------------------------------------------------------


def light(state: CampaignState, source: str, dice: DiceSource) -> list[Event]:
    """Light ``source`` (``torch``, ``lamp``), spending one of its supply (EX-LIGHT-1/2), or
    rolling its usage die when the supply is kept by one (PG-USE-1: lighting is using).

    A light still burning is put out first. No supply left is an IllegalCommandError.
    """
    sources = state.ruleset.light.sources
    source = key_of(source, sources)
    chosen = sources.get(source)
    if chosen is None:
        known = listed(sources) or "none in this ruleset"
        raise IllegalCommandError(
            f"no light source called {source!r}{did_you_mean(source, sources)} (known: {known})"
        )
    if not _in_supply(state, chosen.supply):
        raise IllegalCommandError(
            f"no {chosen.supply} left to light a {source}; add some with a supply command first"
        )
    events: list[Event] = []
    if state.light.source is not None:
        events.append(LightOut(source=state.light.source, reason="replaced"))
    return events + _lit(state, source, dice)


def _in_supply(state: CampaignState, supply: str) -> bool:
    return supply in state.supplies.dice or state.supplies.count(supply) >= 1


def _lit(state: CampaignState, source: str, dice: DiceSource) -> list[Event]:
    """The light lit from its supply: one item counted off, or the usage die rolled."""
    chosen = state.ruleset.light.sources[source]
    turns = chosen.turns if state.ruleset.light.burns == "turns" else None
    by_die = chosen.supply in state.supplies.dice
    lit = LightLit(
        source=source,
        supply=chosen.supply,
        radius_ft=chosen.radius_ft,
        turns=turns,
        usage_die=by_die,
    )
    if not by_die:
        return [lit]
    return [lit, roll_usage(state, chosen.supply, dice, f"a {source} lit")]


def douse(state: CampaignState) -> list[Event]:
    """Put the light out by choice."""
    if state.light.source is None:
        raise IllegalCommandError("no light is burning")
    return [LightOut(source=state.light.source, reason="put out")]


def set_light(state: CampaignState, turns_left: int) -> list[Event]:
    """The referee sets the turns the burning light has left (referee visibility)."""
    if state.light.source is None:
        raise IllegalCommandError("no light is burning: light one first")
    if turns_left < 1:
        raise IllegalCommandError(f"a burning light has at least 1 turn left, not {turns_left}")
    return [LightTimeSet(turns_left=turns_left)]


def waning_resources(state: CampaignState, dice: DiceSource) -> list[Event]:
    """TP-ENC-1 face 4 / TP-DUN-1 face 3: the light must be relit from the supplies.

    The burning light goes out; a new one of the same source is lit if its supply lasts,
    otherwise the party is left in darkness. The dungeon procedure calls this on the face.
    """
    if state.light.source is None:
        return []
    source = state.light.source
    events: list[Event] = [LightOut(source=source, reason="resources wane")]
    chosen = state.ruleset.light.sources.get(source)
    if chosen is not None and _in_supply(state, chosen.supply):
        events += _lit(state, source, dice)
    return events


def _turn_end(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
    light_now = draft.state.light
    if light_now.source is None or light_now.turns_left is None:
        return
    left = light_now.turns_left - 1
    if left <= 0:
        draft.add(LightBurned(turns_left=0), LightOut(source=light_now.source))
        return
    draft.add(LightBurned(turns_left=left))
    if left <= draft.state.ruleset.light.warn_turns_left:
        draft.add(LightWarning(source=light_now.source, turns_left=left))


def _own_turns(state: CampaignState) -> int | None:
    """When a light counted from its lighting next loses a turn; None if it is not one."""
    light_now = state.light
    if light_now.source is None or light_now.turns_left is None:
        return None
    if state.ruleset.light.burns_down != "from_lighting":
        return None
    return light_now.burns_at


def _frames(state: CampaignState) -> frozenset[str]:
    burning = state.light.source is not None and state.light.turns_left is not None
    if not burning or _own_turns(state) is not None:
        return frozenset()
    return frozenset({"turn"})  # at_turn_ends (or a light whose own turns are unknown)


#: At the end of each of its turns a burning light loses a turn (EX-LIGHT-1, EX-LIGHT-2):
#: its own turns from its lighting, or the site's turns (``light.burns_down``). Under
#: TP-ENC-2 a light has no turns, and the hook never runs.
LIGHT_HOOK = Hook("light", _frames, _turn_end, due=_own_turns)

#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    LightLit,
    LightBurned,
    LightWarning,
    LightOut,
    LightTimeSet,
)
