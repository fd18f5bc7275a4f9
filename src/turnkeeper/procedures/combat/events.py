"""What happens in a fight, as events: each carries its dice and folds into the next state.

Procedures roll and decide; events only record. ``apply`` is pure and rolls nothing, so a
fight's events rebuild its state exactly (the journal's promise in the design).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from pydantic import Field, field_validator

from turnkeeper.campaign.events import Event, RollRecord
from turnkeeper.dice import Roll
from turnkeeper.procedures.combat.state import (
    Combatant,
    CombatState,
    Condition,
    Declaration,
    Phase,
    Side,
)
from turnkeeper.rules.schema import FaceEvent

if TYPE_CHECKING:
    from turnkeeper.campaign.state import CampaignState

__all__ = [
    "ActionTaken",
    "AttackMade",
    "CombatEnded",
    "CombatEvent",
    "CombatStarted",
    "Damaged",
    "Declared",
    "FaceEffect",
    "InitiativeSettled",
    "MagicRolled",
    "MoraleChecked",
    "Moved",
    "OpposedSave",
    "PlacePinned",
    "RoundBegan",
    "RoundResolved",
    "SaveRolled",
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

    @field_validator("rolls", mode="before")
    @classmethod
    def _record_rolls(cls, rolls: Any) -> Any:
        """Take the dice package's rolls as they come and keep them as journal records."""
        return tuple(RollRecord.of(r) if isinstance(r, Roll) else r for r in rolls)

    def apply_combat(self, state: CombatState) -> CombatState:
        """The fight's fold step: most events only record, and change nothing."""
        return state

    def apply(self, state: CampaignState) -> CampaignState:
        """Fold into a campaign: its fight, and its clock for a new round."""
        combat = self.apply_combat(state.combat or CombatState())
        return state.model_copy(update={"combat": combat, "now": state.now + self._elapsed()})

    def _elapsed(self) -> int:
        return 0

    def describe(self) -> str:
        """One line a referee reads in the log."""
        return self.kind


def fold_combat(events: list[CombatEvent], state: CombatState | None = None) -> CombatState:
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
    """Who is surprised, and which side is owed a free round (PG-SUR-1, CB-SUR-1, EX-SUR-5)."""

    kind: ClassVar[str] = "combat.surprise"
    surprised: tuple[Side, ...]
    free_round: Side | None

    def apply_combat(self, state: CombatState) -> CombatState:
        names = [c.name for c in state.combatants if c.side in self.surprised]
        return state.with_conditions(names, add=[Condition.SURPRISED]).model_copy(
            update={"free_round": self.free_round}
        )

    def describe(self) -> str:
        if not self.surprised:
            who = "nobody is surprised"
        else:
            who = " and ".join(s.value for s in self.surprised) + " surprised"
        free = f"; {self.free_round.value} gets a free round" if self.free_round else ""
        dice = f" ({_rolls_text(self.rolls)})" if self.rolls else ""
        return f"surprise: {who}{free}{dice}"


class MoraleChecked(CombatEvent):
    """A morale check, 2d6 at or under the score holds; a failed group flees (CB-SUR-2)."""

    kind: ClassVar[str] = "combat.morale"
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


class RoundBegan(CombatEvent):
    """A new round: the clock moves on by the ruleset's round length."""

    kind: ClassVar[str] = "combat.round"
    round: int
    seconds: int
    free_round: bool = False

    def apply_combat(self, state: CombatState) -> CombatState:
        return state.model_copy(
            update={
                "round": self.round,
                "seconds": state.seconds + self.seconds,
                "declarations": (),
                "instants_used": (),
                "second_wind": False,
                "face": None,
                "face_event": None,
                "in_free_round": self.free_round,
            }
        )

    def _elapsed(self) -> int:
        return self.seconds

    def describe(self) -> str:
        free = " (surprise round)" if self.free_round else ""
        return f"round {self.round}{free}: {self.seconds} s pass"


class InitiativeSettled(CombatEvent):
    """Who has initiative and the round's order of beats (TP-INI-1, PG-INI-1, CB-INI-1..3).

    Under the overloaded die, ``rolled`` is the face thrown and ``face`` the face after the
    referee's adjustment (TP-CBT-1 step 2), recorded even when zero.
    """

    kind: ClassVar[str] = "combat.initiative"
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
    """What an initiative face makes happen besides initiative (TP-INI-1): noise, the dungeon."""

    kind: ClassVar[str] = "combat.face"
    face_event: FaceEvent
    text: str

    def describe(self) -> str:
        return self.text


class Damaged(CombatEvent):
    """Hit points lost, and what that makes of the combatant (PG-HP-1)."""

    kind: ClassVar[str] = "combat.damage"
    target: str
    amount: int
    hp_after: int
    becomes: tuple[Condition, ...] = ()
    cause: str = ""

    def apply_combat(self, state: CombatState) -> CombatState:
        target = state.get(self.target)
        changed = target.model_copy(
            update={"hp": self.hp_after, "conditions": target.conditions | set(self.becomes)}
        )
        return state.replace(changed)

    def describe(self) -> str:
        becomes = f", {' and '.join(c.value for c in self.becomes)}" if self.becomes else ""
        cause = f" ({self.cause})" if self.cause else ""
        return f"{self.target} takes {self.amount} damage{cause}: {self.hp_after} hp{becomes}"


class Declared(CombatEvent):
    """An actor announces what they will do (TP-CBT-1 steps 3 to 5, CB-ACT-*, PG-MOV-1)."""

    kind: ClassVar[str] = "combat.declared"
    declaration: Declaration
    instant: bool = False

    def apply_combat(self, state: CombatState) -> CombatState:
        update: dict[str, object] = {"declarations": (*state.declarations, self.declaration)}
        if self.instant:
            update["instants_used"] = (*state.instants_used, self.declaration.actor)
        return state.model_copy(update=update)

    def describe(self) -> str:
        actions = ", then ".join(str(a) for a in self.declaration.actions)
        return f"{self.declaration.actor} declares: {actions}"


class OpposedSave(CombatEvent):
    """Incompatible actions settled by an opposed save; the winner acts first (TP-INI-2)."""

    kind: ClassVar[str] = "combat.opposed"
    first: str
    second: str
    totals: tuple[int, int]
    winner: str | None

    def describe(self) -> str:
        who = f"{self.winner} acts first" if self.winner else "a tie: both act at once"
        return (
            f"opposed save {self.first} {self.totals[0]} against {self.second} "
            f"{self.totals[1]}: {who}"
        )


class AttackMade(CombatEvent):
    """One attack roll against an armour class (TP-ATK-1, PG-ATK-1, PG-ATK-2)."""

    kind: ClassVar[str] = "combat.attack"
    attacker: str
    target: str
    aimed_at: str
    ranged: bool
    total: int
    ac: int
    hit: bool

    def apply_combat(self, state: CombatState) -> CombatState:
        if self.ranged:
            return state
        attacker, target = state.get(self.attacker), state.get(self.target)
        return state.replace(
            attacker.model_copy(update={"melee_with": attacker.melee_with | {target.name}}),
            target.model_copy(update={"melee_with": target.melee_with | {attacker.name}}),
        )

    def describe(self) -> str:
        how = "shoots at" if self.ranged else "attacks"
        stray = f" (aimed at {self.aimed_at})" if self.aimed_at != self.target else ""
        result = "hits" if self.hit else "misses"
        roll = f"{self.total} against AC {self.ac}"
        return f"{self.attacker} {how} {self.target}{stray}: {roll}, {result}"


class Moved(CombatEvent):
    """A move: into melee with a target, or out of every melee (PG-MOV-1, CB-ACT-3)."""

    kind: ClassVar[str] = "combat.moved"
    actor: str
    engage: str | None = None
    feet: int | None = None

    def apply_combat(self, state: CombatState) -> CombatState:
        actor = state.get(self.actor)
        if self.engage is None:
            others = [state.get(n) for n in actor.melee_with]
            return state.replace(
                actor.model_copy(update={"melee_with": frozenset()}),
                *(o.model_copy(update={"melee_with": o.melee_with - {actor.name}}) for o in others),
            )
        target = state.get(self.engage)
        return state.replace(
            actor.model_copy(update={"melee_with": actor.melee_with | {target.name}}),
            target.model_copy(update={"melee_with": target.melee_with | {actor.name}}),
        )

    def describe(self) -> str:
        where = f"into melee with {self.engage}" if self.engage else "out of melee"
        return f"{self.actor} moves {where}"


class MagicRolled(CombatEvent):
    """Magic dice rolled and summed for a spell (TP-MAG-1)."""

    kind: ClassVar[str] = "combat.magic"
    caster: str
    dice: int
    total: int
    note: str = ""

    def describe(self) -> str:
        spell = f" for {self.note}" if self.note else ""
        return f"{self.caster} rolls {self.dice} magic dice{spell}: {self.total}"


class SaveRolled(CombatEvent):
    """A saving throw: d20 equal to or over the target (PG-SAVE-1)."""

    kind: ClassVar[str] = "combat.save"
    name: str
    target: int
    total: int
    success: bool

    def describe(self) -> str:
        result = "saves" if self.success else "fails"
        return f"{self.name} saves against {self.target}: {self.total}, {result}"


class ActionTaken(CombatEvent):
    """An action the referee adjudicates in words (TP-ROLL-1: only risky actions are rolled)."""

    kind: ClassVar[str] = "combat.action"
    actor: str
    text: str

    def describe(self) -> str:
        return f"{self.actor}: {self.text}"


class PlacePinned(CombatEvent):
    """The referee pins a combatant to a place in the order of beats (1 is first)."""

    kind: ClassVar[str] = "combat.pinned"
    name: str
    place: int

    def apply_combat(self, state: CombatState) -> CombatState:
        from turnkeeper.procedures.combat.initiative import pin_order

        pinned = (*((n, p) for n, p in state.pinned if n != self.name), (self.name, self.place))
        return state.model_copy(
            update={"pinned": pinned, "order": pin_order(state.order, self.name, self.place)}
        )

    def describe(self) -> str:
        return f"{self.name} is pinned to place {self.place} in the order"


class RoundResolved(CombatEvent):
    """Every declared action has been resolved; the round is over."""

    kind: ClassVar[str] = "combat.resolved"

    def apply_combat(self, state: CombatState) -> CombatState:
        if state.in_free_round:
            state = state.with_conditions(
                [c.name for c in state.combatants], drop=[Condition.SURPRISED]
            ).model_copy(update={"free_round": None, "in_free_round": False})
        return state.model_copy(update={"phase": Phase.BETWEEN, "declarations": ()})

    def describe(self) -> str:
        return "the round is resolved"


class CombatEnded(CombatEvent):
    """The fight is over; treasure is worked out and a turn of rest is due (PG-TRE-1, EX-REST-2)."""

    kind: ClassVar[str] = "combat.ended"
    winner: Side | None
    treasure: int | None = None
    rest_due: bool = True

    def apply_combat(self, state: CombatState) -> CombatState:
        return state.model_copy(
            update={"phase": Phase.ENDED, "winner": self.winner, "rest_due": self.rest_due}
        )

    def apply(self, state: CampaignState) -> CampaignState:
        """Also write the fighters' hit points and fates back to the party (PG-HP-1)."""
        state = super().apply(state)
        combat = state.combat or CombatState()
        characters = []
        for character in state.party.characters:
            fighter = combat.find(character.name)
            if fighter is None or fighter.side is not Side.PARTY or fighter.is_monster:
                characters.append(character)
                continue
            fates = fighter.conditions & {Condition.UNCONSCIOUS, Condition.DEAD}
            characters.append(
                character.model_copy(update={"hp": fighter.hp}).with_conditions(
                    add=tuple(sorted(c.value for c in fates))
                )
            )
        party = state.party.model_copy(update={"characters": tuple(characters)})
        return state.model_copy(update={"party": party})

    def describe(self) -> str:
        who = f"{self.winner.value} wins" if self.winner else "no winner"
        gold = f"; treasure worth {self.treasure} gp" if self.treasure is not None else ""
        rest = "; a turn of rest is due" if self.rest_due else ""
        return f"combat over: {who}{gold}{rest}"
