"""What happens in a fight, as events: each carries its dice and folds into the next state.

Procedures roll and decide; events only record. ``apply`` is pure and rolls nothing, so a
fight's events rebuild its state exactly (the journal's promise in the design).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from pydantic import Field, field_validator

from turnkeeper.dice import Roll
from turnkeeper.kernel.combat_state import (
    Combatant,
    CombatState,
    Condition,
    Phase,
    Side,
    other_side,
    pin_order,
)
from turnkeeper.kernel.events import Event, RollRecord, Shown
from turnkeeper.kernel.state import CampaignState
from turnkeeper.rules.schema import FaceEvent

__all__ = [
    "CombatEnded",
    "CombatEvent",
    "CombatStarted",
    "FaceEffect",
    "InitiativeSettled",
    "MoraleChecked",
    "PlacePinned",
    "RoundBegan",
    "RoundResolved",
    "SideDone",
    "SurpriseSettled",
    "fold_combat",
]


class CombatEvent(Event):
    """Base of every combat event: its kind, its dice, how it changes the fight.

    A combat event is a campaign event (it goes into the journal): ``apply`` folds it into
    the campaign's ``combat`` and clock; ``apply_combat`` is the fight's own fold step, used
    by the pure engine and the simulation without a campaign.
    """

    kind: ClassVar[str] = "combat"
    shown: ClassVar[Shown] = Shown.PARTY

    @field_validator("rolls", mode="before")
    @classmethod
    def _record_rolls(cls, rolls: Any) -> Any:
        """Take the dice package's rolls as they come and keep them as journal records."""
        return tuple(RollRecord.of(r) if isinstance(r, Roll) else r for r in rolls)

    def apply_combat(self, state: CombatState) -> CombatState:
        """The fight's fold step: most events only record, and change nothing."""
        return state

    def apply(self, state: CampaignState) -> CampaignState:
        """Fold into a campaign: its fight, the party's hit points with it, and its clock for
        a new round."""
        fight = self.apply_combat(state.combat or CombatState())
        return state.with_fight(fight).model_copy(update={"now": state.now + self._elapsed()})

    def _elapsed(self) -> int:
        return 0

    def describe(self) -> str:
        """One line a referee reads in the log."""
        return self.kind


def fold_combat(events: Iterable[CombatEvent], state: CombatState | None = None) -> CombatState:
    """Rebuild a fight from its events, rolling nothing."""
    current = CombatState() if state is None else state
    for event in events:
        current = event.apply_combat(current)
    return current


def _rolls_text(rolls: tuple[RollRecord, ...]) -> str:
    return "; ".join(r.text() for r in rolls)


class CombatStarted(CombatEvent):
    """A fight begins with these combatants (CB-SIDE-1)."""

    kind: ClassVar[str] = "combat.started"
    shown: ClassVar[Shown] = Shown.PARTY
    combatants: tuple[Combatant, ...]
    reaction: str | None = None

    def apply_combat(self, state: CombatState) -> CombatState:
        return CombatState(combatants=self.combatants, reaction=self.reaction)

    def describe(self) -> str:
        sides = {
            side: ", ".join(c.name for c in self.combatants if c.side is side) for side in Side
        }
        return (
            f"combat: {sides[Side.PARTY] or 'nobody'} against {sides[Side.OPPOSITION] or 'nobody'}"
        )


class SurpriseSettled(CombatEvent):
    """Who is surprised, and which side is owed a free round (PG-SUR-1, CB-SUR-1, EX-SUR-5).

    Only the side that loses the surprise round carries the mark; where both sides are
    surprised neither loses anything, so nobody does. ``reason`` says why no roll was made.
    """

    kind: ClassVar[str] = "combat.surprise"
    shown: ClassVar[Shown] = Shown.PARTY
    surprised: tuple[Side, ...]
    free_round: Side | None
    reason: str = Field("", exclude_if=lambda reason: not reason)
    members: tuple[str, ...] = Field(
        (),
        description="EX-SUR-4's 'any who lose': those surprised alone, who lose the first round.",
        exclude_if=lambda members: not members,
    )

    def apply_combat(self, state: CombatState) -> CombatState:
        losing = other_side(self.free_round) if self.free_round is not None else None
        names = [c.name for c in state.combatants if c.side is losing] + list(self.members)
        return state.with_conditions(names, add=[Condition.SURPRISED]).model_copy(
            update={"free_round": self.free_round}
        )

    def describe(self) -> str:
        if not self.surprised:
            who = "nobody is surprised"
        else:
            who = " and ".join(s.value for s in self.surprised) + " surprised"
        if len(self.surprised) > 1:
            who += ", so neither loses a round"
        if self.members:
            alone = " and ".join(self.members)
            who += f"; {alone} {'is' if len(self.members) == 1 else 'are'} surprised and "
            who += "loses the first round"
        why = f" ({self.reason})" if self.reason else ""
        free = f"; {self.free_round.value} gets a free round" if self.free_round else ""
        dice = f" ({_rolls_text(self.rolls)})" if self.rolls else ""
        return f"surprise: {who}{why}{free}{dice}"


class MoraleChecked(CombatEvent):
    """A morale check, 2d6 at or under the score holds; a failed group flees (CB-SUR-2)."""

    kind: ClassVar[str] = "combat.morale"
    shown: ClassVar[Shown] = Shown.PARTY
    names: tuple[str, ...]
    score: int
    total: int
    holds: bool

    def apply_combat(self, state: CombatState) -> CombatState:
        if self.holds:
            return state
        return state.with_conditions(self.names, add=[Condition.FLED])

    def describe(self) -> str:
        result = "holds" if self.holds else "breaks and flees"
        return f"morale of {', '.join(self.names)}: {self.total} against {self.score}, {result}"

    def describe_to_party(self) -> str | None:
        """What the party sees of morale: the foes stand or run, never their morale score."""
        result = "stand their ground" if self.holds else "break and flee"
        return f"{', '.join(self.names)} {result}"

    def rolls_to_party(self) -> tuple[RollRecord, ...]:
        return ()  # 2d6 beside holds or breaks brackets the morale score


class RoundBegan(CombatEvent):
    """A new round of the ruleset's round length.

    In a campaign the round's time passes through the scheduler right after this event
    (``scheduled``), so a torch burns and countdowns tick at the boundaries it crosses;
    a journal from before that moved the clock here, and still folds the same way.
    """

    kind: ClassVar[str] = "combat.round"
    shown: ClassVar[Shown] = Shown.PARTY
    round: int
    seconds: int
    free_round: bool = False
    scheduled: bool = Field(False, exclude_if=lambda scheduled: not scheduled)

    def apply_combat(self, state: CombatState) -> CombatState:
        return state.model_copy(
            update={
                "round": self.round,
                "seconds": state.seconds + self.seconds,
                "declarations": (),
                "acted": (),
                "done": (),
                "fell_at_once": (),
                "instants_used": (),
                "second_wind": False,
                "face": None,
                "face_event": None,
                "in_free_round": self.free_round,
            }
        )

    def _elapsed(self) -> int:
        return 0 if self.scheduled else self.seconds

    def describe(self) -> str:
        free = " (surprise round)" if self.free_round else ""
        passing = "" if self.scheduled else f": {self.seconds} s pass"  # the wait says so
        return f"round {self.round}{free}{passing}"


class InitiativeSettled(CombatEvent):
    """Who has initiative and the round's order of beats (TP-INI-1, PG-INI-1, CB-INI-1..3).

    Under the overloaded die, ``rolled`` is the face thrown and ``face`` the face after the
    referee's adjustment (TP-CBT-1 step 2), recorded even when zero.
    """

    kind: ClassVar[str] = "combat.initiative"
    shown: ClassVar[Shown] = Shown.PARTY
    initiative: Side | None
    order: tuple[tuple[str, ...], ...]
    rolled: int | None = None
    adjustment: int = 0
    face: int | None = None
    face_event: FaceEvent | None = None
    label: str = ""
    totals: dict[str, int] = Field(default_factory=dict)

    def apply_combat(self, state: CombatState) -> CombatState:
        return state.model_copy(
            update={
                "phase": Phase.DECLARE,
                "initiative": self.initiative,
                "order": self.order,
                "face": self.face,
                "face_event": self.face_event,
                "second_wind": self.face_event is FaceEvent.SECOND_WIND,
            }
        )

    def describe(self) -> str:
        who = self.initiative.value if self.initiative else "nobody (simultaneous)"
        text = f"initiative: {who}"
        if self.face is not None:
            adjusted = f", adjusted {self.adjustment:+d} to {self.face}" if self.adjustment else ""
            text += f"; face {self.rolled}{adjusted}: {self.label}"
        if self.totals:
            text += " (" + ", ".join(f"{k} {v}" for k, v in self.totals.items()) + ")"
        return text


class FaceEffect(CombatEvent):
    """What an initiative face makes happen besides initiative (TP-INI-1): noise, the dungeon.

    On a noise in a site, ``creature`` and ``number`` are who the level's wandering table
    sends and how many: the referee's to bring in, so the players hear only the noise.
    """

    kind: ClassVar[str] = "combat.face"
    shown: ClassVar[Shown] = Shown.PARTY
    face_event: FaceEvent
    text: str
    # Left out of the journal when nothing came from a table, so journals written before
    # the noise rolled a site's table stay identical.
    creature: str | None = Field(None, exclude_if=lambda creature: creature is None)
    number: int | None = Field(None, exclude_if=lambda number: number is None)

    def describe(self) -> str:
        return self.text

    def describe_to_party(self) -> str | None:
        if self.creature is None:
            return self.text
        return "noise attracts something"

    def rolls_to_party(self) -> tuple[RollRecord, ...]:
        # the table's dice and the reaction would tell what the referee's table sent
        return () if self.creature is not None else self.rolls


class PlacePinned(CombatEvent):
    """The referee pins a combatant to a place in the order of beats (1 is first)."""

    kind: ClassVar[str] = "combat.pinned"
    shown: ClassVar[Shown] = Shown.PARTY
    name: str
    place: int

    def apply_combat(self, state: CombatState) -> CombatState:
        pinned = (*((n, p) for n, p in state.pinned if n != self.name), (self.name, self.place))
        return state.model_copy(
            update={"pinned": pinned, "order": pin_order(state.order, self.name, self.place)}
        )

    def describe(self) -> str:
        return f"{self.name} is pinned to place {self.place} in the order"


class SideDone(CombatEvent):
    """The referee says a side has finished announcing (or acting) this round (TP-CBT-1
    steps 4 and 5, PG-CBT-1, CB-RND-1); its members who declared nothing do nothing."""

    kind: ClassVar[str] = "combat.side_done"
    shown: ClassVar[Shown] = Shown.PARTY
    side: Side
    passing: tuple[str, ...] = ()

    def apply_combat(self, state: CombatState) -> CombatState:
        return state.model_copy(update={"done": (*state.done, self.side)})

    def describe(self) -> str:
        does = "does" if len(self.passing) == 1 else "do"
        passing = f"; {', '.join(self.passing)} {does} nothing" if self.passing else ""
        return f"the {self.side.value} side is done this round{passing}"


class RoundResolved(CombatEvent):
    """Every declared action has been resolved; the round is over.

    Surprise no longer applies to anyone. The end of a surprise round leaves no order of
    sides behind: initiative is rolled when it ends (CB-SUR-1, PG-SUR-1), even where the
    order then holds for the rest of the fight (CB-INI-2).
    """

    kind: ClassVar[str] = "combat.resolved"
    shown: ClassVar[Shown] = Shown.PARTY

    def apply_combat(self, state: CombatState) -> CombatState:
        state = state.with_conditions(
            [c.name for c in state.combatants], drop=[Condition.SURPRISED]
        )
        if state.in_free_round:
            state = state.model_copy(
                update={"free_round": None, "in_free_round": False, "order": (), "initiative": None}
            )
        return state.model_copy(
            update={
                "phase": Phase.BETWEEN,
                "declarations": (),
                "acted": (),
                "done": (),
                "fell_at_once": (),
            }
        )

    def describe(self) -> str:
        return "the round is resolved"


class CombatEnded(CombatEvent):
    """The fight is over; treasure is worked out and a turn of rest is due (PG-TRE-1, EX-REST-2)."""

    kind: ClassVar[str] = "combat.ended"
    shown: ClassVar[Shown] = Shown.PARTY
    winner: Side | None
    treasure: int | None = None
    rest_due: bool = True

    def apply_combat(self, state: CombatState) -> CombatState:
        return state.model_copy(
            update={"phase": Phase.ENDED, "winner": self.winner, "rest_due": self.rest_due}
        )

    def apply(self, state: CampaignState) -> CampaignState:
        """The fight leaves the state: it is history in the journal, and the party's hit
        points, kept on the party all through it, are as the last blow left them."""
        return state.with_fight(None)

    def describe(self) -> str:
        who = f"{self.winner.value} wins" if self.winner else "no winner"
        gold = f"; treasure worth {self.treasure} gp" if self.treasure is not None else ""
        rest = "; a turn of rest is due" if self.rest_due else ""
        return f"combat over: {who}{gold}{rest}"


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    CombatStarted,
    SurpriseSettled,
    MoraleChecked,
    RoundBegan,
    InitiativeSettled,
    FaceEffect,
    PlacePinned,
    RoundResolved,
    CombatEnded,
    SideDone,
)
