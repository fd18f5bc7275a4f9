"""The month turn of the world, and its factions' deeds (TP-TIME-1: a faction turn is a month).

The texts give only the scale ("Haven/Domain Turn / Faction Turn: 1 month"); the procedure
is the project's own, every number in the ruleset (``factions``):

- The month turn is the world's, as a world countdown is: it runs when the world's present
  passes a month's boundary of the calendar (the first day of a month, at midnight), once,
  whichever party's waiting, travel or downtime moves the world there. A party behind the
  world passes the same boundary later and lives what the world did then, running nothing
  again.
- At the month turn each faction of the world, in the file's order, rolls the ruleset's
  ``factions.roll`` (its resources summed as RESOURCES) and does what the table's row for the
  total says (:class:`~turnkeeper.rules.schema.FactionRules`). A hex it seizes is a change in
  the world's place ledger at the month turn's game time, made by the faction: a party behind
  that time may not act on the hex until brought forward (``check_in_order``).
- A faction's deeds are the referee's (a filled clock first among them). ``faction reveal``
  turns one into a rumour the players of the party it is told to hear, in that party's
  record; a party hears only of what the world had done by its present.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from turnkeeper.clock.boundaries import Boundary
from turnkeeper.clock.calendar import date_at
from turnkeeper.dice import DiceSource, roll
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.events import Event, RollRecord, Shown, Text
from turnkeeper.kernel.schedule import Draft, Hook
from turnkeeper.kernel.state import CampaignState, PlaceChange, same_party
from turnkeeper.rules.schema.months import RESOURCES, FactionAct
from turnkeeper.world.factions import Deed, Faction, Factions, FactionsFile

# --- events -------------------------------------------------------------------------------


def _with_deed(state: CampaignState, faction: str, text: str) -> CampaignState:
    world = state.factions
    assert world is not None
    deed = Deed(faction=faction, at=state.now, text=text)
    return state.model_copy(
        update={"factions": world.model_copy(update={"deeds": (*world.deeds, deed)})}
    )


class FactionsLoaded(Event):
    """The world's factions are laid out from a factions file (docs/factions.md)."""

    kind: ClassVar[str] = "factions.loaded"
    shown: ClassVar[Shown] = Shown.REFEREE
    world: FactionsFile

    def apply(self, state: CampaignState) -> CampaignState:
        loaded = Factions(**{f: getattr(self.world, f) for f in FactionsFile.model_fields})
        return state.model_copy(update={"factions": loaded})

    def describe(self) -> str:
        names = ", ".join(f.name for f in self.world.factions)
        return f"the world's factions: {names}"


class MonthTurned(Event):
    """The world's month turn: the world's present passed into a new month."""

    kind: ClassVar[str] = "month.turned"
    shown: ClassVar[Shown] = Shown.REFEREE
    month: str

    def describe(self) -> str:
        return f"the month turn of {self.month}: the factions act"


class FactionActed(Event):
    """A faction's month: its roll, the table's act, and what it did (``done``, the act or,
    with nothing to act on, advancing its goal). The referee's, until revealed."""

    kind: ClassVar[str] = "faction.acted"
    shown: ClassVar[Shown] = Shown.REFEREE
    faction: str
    act: FactionAct
    done: FactionAct
    filled: int
    segments: int
    map: str | None = None
    hex: str | None = None
    taken_from: str | None = None
    rival: str | None = None
    rival_filled: int | None = None

    def apply(self, state: CampaignState) -> CampaignState:
        world = state.factions
        assert world is not None
        me = world.faction(self.faction)
        changes: dict[str, object] = {"filled": self.filled}
        places = state.places
        if self.hex is not None and self.map is not None:
            changes["hexes"] = (*me.hexes, self.hex)
            if self.taken_from is not None:
                loser = world.faction(self.taken_from)
                kept = tuple(h for h in loser.hexes if h != self.hex)
                world = world.with_faction(loser.model_copy(update={"hexes": kept}))
            seized = PlaceChange(
                site=self.map, level=0, area=self.hex, at=state.now, party=self.faction,
                what="seized", hex=True,
            )  # fmt: skip
            places = (*places, seized)
        world = world.with_faction(me.model_copy(update=changes))
        if self.rival is not None and self.rival_filled is not None:
            rival = world.faction(self.rival)
            world = world.with_faction(rival.model_copy(update={"filled": self.rival_filled}))
        after = state.model_copy(update={"factions": world, "places": places})
        return _with_deed(after, self.faction, self.describe())

    def describe(self) -> str:
        clock = f"its goal at {self.filled} of {self.segments}"
        said = {
            "trouble": f"suffers trouble: {clock}",
            "lie_low": "lies low",
            "advance": f"advances its goal: {clock}",
            "expand": f"seizes hex {self.hex} of {self.map}"
            + (f" from {self.taken_from}" if self.taken_from else ""),
            "strike": f"strikes {self.rival}: its goal falls to {self.rival_filled}",
        }[self.done]
        instead = f" (rolled {_words(self.act)}, with nothing to {_words(self.act)})"
        return f"{self.faction} {said}{instead if self.done != self.act else ''}"


class GoalReached(Event):
    """A faction's clock is full: its goal is won, for the referee to see first."""

    kind: ClassVar[str] = "faction.goal_reached"
    shown: ClassVar[Shown] = Shown.REFEREE
    faction: str
    goal: Text

    def apply(self, state: CampaignState) -> CampaignState:
        return _with_deed(state, self.faction, self.describe())

    def describe(self) -> str:
        return f"{self.faction} has reached its goal: {self.goal}"


class RumourHeard(Event):
    """A faction's deed, told as a rumour to the players of the party it is told to."""

    kind: ClassVar[str] = "faction.rumour"
    shown: ClassVar[Shown] = Shown.PARTY
    faction: str
    text: Text

    def describe(self) -> str:
        return f"a rumour: {self.text}"


def _words(act: str) -> str:
    return act.replace("_", " ")


# --- the month turn -----------------------------------------------------------------------


def _frames(state: CampaignState) -> frozenset[str]:
    return frozenset({"month"}) if state.factions is not None else frozenset()


def _month_turn(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
    """The world's month turn at ``boundary``, unless the world lived it already (another
    party's present is at or past it): then this party only lives what it left."""
    state = draft.state
    if state.now <= state.passed_by_others or state.factions is None:
        return
    date = date_at(state.now, state.ruleset.time)
    draft.add(MonthTurned(month=f"{date.year}-{date.month:02d}"))
    for faction in state.factions.factions:
        faction_turn(draft, faction.name, dice)


def faction_turn(draft: Draft, name: str, dice: DiceSource) -> None:
    """One faction's month: roll, the table's act, and a full clock told the referee."""
    world = draft.state.factions
    assert world is not None
    faction = world.faction(name)
    rules = draft.state.ruleset.factions
    rolled = roll(rules.roll, dice, {RESOURCES: faction.modifier})
    act = rules.act_for(rolled.total)
    acted = _outcome(world, faction, act, draft.state.now)
    draft.add(acted.model_copy(update={"rolls": (RollRecord.of(rolled),)}))
    if acted.filled >= faction.segments > faction.filled:
        draft.add(GoalReached(faction=faction.name, goal=faction.goal))


def _outcome(world: Factions, faction: Faction, act: FactionAct, now: int) -> FactionActed:
    """What ``faction`` does with the table's ``act``; with nothing to act on, it advances."""
    base = FactionActed(
        faction=faction.name, act=act, done=act, filled=faction.filled, segments=faction.segments
    )
    if act == "lie_low":
        return base
    if act == "trouble":
        return base.model_copy(update={"filled": max(0, faction.filled - 1)})
    if act == "expand":
        target = next((h for h in faction.covets if h not in faction.hexes), None)
        if target is not None:
            holder = world.holder(target)
            return base.model_copy(
                update={
                    "map": world.map,
                    "hex": target,
                    "taken_from": holder.name if holder is not None else None,
                }
            )
    if act == "strike":
        rivals = (world.faction(name) for name in faction.rivals)
        struck = next((r for r in rivals if r.filled > 0), None)
        if struck is not None:
            update = {"rival": struck.name, "rival_filled": struck.filled - 1}
            return base.model_copy(update=update)
    if faction.goal_reached:
        return base.model_copy(update={"done": "lie_low"})
    return base.model_copy(update={"done": "advance", "filled": faction.filled + 1})


#: At each month's boundary the world passes first: the factions' turns.
MONTH_HOOK = Hook("month", _frames, _month_turn)

# --- commands -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadFactions:
    """Lay out the world's factions (a factions file, read)."""

    world: FactionsFile


@dataclass(frozen=True)
class RevealDeed:
    """Tell the party run a faction's deed as a rumour: its ``deed``-th (from 1), by default
    the latest the world had done by the party's present; ``text``: the referee's words."""

    faction: str
    deed: int | None = None
    text: str | None = None


FactionCommand = LoadFactions | RevealDeed


def load_factions(state: CampaignState, world: FactionsFile) -> list[Event]:
    """The world's factions, once: a faction's name is no party's (the ledger names both)."""
    if state.factions is not None:
        names = ", ".join(f.name for f in state.factions.factions)
        raise IllegalCommandError(
            f"the world's factions are laid out already ({names}): one factions file a world"
        )
    for faction in world.factions:
        party = next((p for p in state.companies if same_party(p, faction.name)), None)
        if party is not None:
            raise IllegalCommandError(
                f"faction {faction.name!r} has the name of the party {party}: rename one"
            )
    return [FactionsLoaded(world=world)]


def reveal(state: CampaignState, command: RevealDeed) -> list[Event]:
    """The deed told as a rumour to the party run; refused for a deed the world did after
    the party's present (one order of events)."""
    world = state.factions
    if world is None:
        raise IllegalCommandError("the world has no factions: lay them out with `faction load`")
    faction = _named(world, command.faction)
    deeds = world.deeds_of(faction.name)
    if command.deed is None:
        lived = [d for d in deeds if d.at <= state.now]
        if not lived:
            raise IllegalCommandError(
                f"{faction.name} has done nothing by {state.company}'s present (day "
                f"{state.day}): its deeds come with the month turns"
            )
        deed = lived[-1]
    else:
        if not 1 <= command.deed <= len(deeds):
            raise IllegalCommandError(
                f"{faction.name} has {len(deeds)} deed{'s' * (len(deeds) != 1)}: give "
                f"--deed from 1 to {len(deeds)}"
                if deeds
                else f"{faction.name} has no deeds yet"
            )
        deed = deeds[command.deed - 1]
        if deed.at > state.now:
            raise state.out_of_order(state.before(deed.text, deed.at))
    return [RumourHeard(faction=faction.name, text=command.text or deed.text)]


def _named(world: Factions, name: str) -> Faction:
    try:
        return world.faction(name)
    except ValueError as error:
        raise IllegalCommandError(str(error)) from None


def decide_factions(state: CampaignState, command: FactionCommand) -> list[Event]:
    """The events of a faction command."""
    if isinstance(command, LoadFactions):
        return load_factions(state, command.world)
    return reveal(state, command)


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    FactionsLoaded,
    MonthTurned,
    FactionActed,
    GoalReached,
    RumourHeard,
)
