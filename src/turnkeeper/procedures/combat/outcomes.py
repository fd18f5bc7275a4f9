"""What the actors do in a fight and what it does to them, as events (see ``events``).

Declarations, attacks, damage, moves, magic, saves, opposed saves and the actions the referee
adjudicates in words; each carries its dice and folds into the next state.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from turnkeeper.errors import TurnkeeperError
from turnkeeper.kernel.combat_state import (
    Action,
    ActionKind,
    AskedKind,
    CombatState,
    Condition,
    Declaration,
)
from turnkeeper.kernel.events import Amount, Event, RollRecord, Shown, Text
from turnkeeper.procedures.combat.events import CombatEvent

__all__ = [
    "ActionTaken",
    "AttackMade",
    "CheckRolled",
    "Damaged",
    "Declared",
    "MagicRolled",
    "Moved",
    "OpposedSave",
    "SaveRolled",
    "Surrendered",
]


#: How a record marks a roll its character's player made, as the referee asked.
_BY_PLAYER = " (rolled by {}'s player)"


class Damaged(CombatEvent):
    """Hit points lost, and what that makes of the combatant (PG-HP-1).

    ``at_once``: dealt by an action taken at once in a round where everything happens at
    once (TP-INI-2): one it fells still acts this round ("resolve both attacks, then check
    who is still standing").
    """

    kind: ClassVar[str] = "combat.damage"
    shown: ClassVar[Shown] = Shown.PARTY
    target: str
    amount: Amount
    hp_after: int
    becomes: tuple[Condition, ...] = ()
    cause: Text = ""
    at_once: bool = Field(False, exclude_if=lambda at_once: not at_once)

    def apply_combat(self, state: CombatState) -> CombatState:
        target = state.get(self.target)
        if self.hp_after != target.hp - self.amount:  # (a journal changed by hand)
            raise TurnkeeperError(
                f"{self.target} at {target.hp} hp takes {self.amount} damage, which leaves "
                f"{target.hp - self.amount} hp, not {self.hp_after}"
            )
        conditions = target.conditions | set(self.becomes)
        if Condition.DEAD in conditions:
            conditions -= {Condition.UNCONSCIOUS}  # dead, not both (PG-HP-1)
        changed = target.model_copy(update={"hp": self.hp_after, "conditions": conditions})
        state = state.replace(changed)
        if self.at_once and not changed.standing and target.standing:
            state = state.model_copy(update={"fell_at_once": (*state.fell_at_once, target.name)})
        return state

    def describe(self) -> str:
        becomes = f", {' and '.join(c.value for c in self.becomes)}" if self.becomes else ""
        cause = f" ({self.cause})" if self.cause else ""
        return f"{self.target} takes {self.amount} damage{cause}: {self.hp_after} hp{becomes}"

    def describe_to_party(self) -> str | None:
        """A blow as the characters see it: who is hurt or falls, never hit points left."""
        if Condition.DEAD in self.becomes:
            fate = "is struck down, dead"
        elif Condition.UNCONSCIOUS in self.becomes:
            fate = "falls unconscious"
        elif self.amount > 0:
            fate = "is wounded"
        else:
            fate = "is struck but unhurt"
        cause = f" ({self.cause})" if self.cause else ""
        return f"{self.target} {fate}{cause}"

    def rolls_to_party(self) -> tuple[RollRecord, ...]:
        return ()  # the damage die is the striker's weapon, a foe's stat


class Healed(CombatEvent):
    """Hit points given back in a fight (a potion, a spell), never above the most; above 0
    a fallen character comes to (PG-HP-1: unconscious at 0)."""

    kind: ClassVar[str] = "combat.healed"
    shown: ClassVar[Shown] = Shown.PARTY
    target: str
    amount: Amount
    hp_after: int
    cause: Text = ""

    def apply_combat(self, state: CombatState) -> CombatState:
        target = state.get(self.target)
        if self.hp_after != target.hp + self.amount or (
            self.amount and self.hp_after > target.max_hp
        ):  # (a journal changed by hand)
            raise TurnkeeperError(
                f"{self.target} at {target.hp} of {target.max_hp} hp heals {self.amount} to "
                f"{self.hp_after} hp: healing adds what it says, never above the most"
            )
        conditions = target.conditions
        if self.hp_after > 0:
            conditions = conditions - {Condition.UNCONSCIOUS}
        changed = target.model_copy(update={"hp": self.hp_after, "conditions": conditions})
        return state.replace(changed)

    def describe(self) -> str:
        cause = f" ({self.cause})" if self.cause else ""
        return f"{self.target} heals {self.amount}{cause}: {self.hp_after} hp"

    def describe_to_party(self) -> str | None:
        cause = f" ({self.cause})" if self.cause else ""
        return f"{self.target} is healed{cause}"


class Declared(CombatEvent):
    """An actor announces what they will do (TP-CBT-1 steps 3 to 5, CB-ACT-*, PG-MOV-1).

    ``held``: announced by the side with initiative before the other side has finished, so
    it waits until the other side has announced and may still be changed (TP-CBT-1 step 5);
    a declaration from an actor who has one replaces it. ``unheard``: the foes' plan, which
    the party does not hear: only the side with initiative hears the other side announce
    (TP-CBT-1, "Having Initiative"), so the players learn it only as it is done.
    ``changed``: it replaces the actor's earlier declaration of this round (the journal
    keeps both, the later one in force).
    """

    kind: ClassVar[str] = "combat.declared"
    shown: ClassVar[Shown] = Shown.PARTY
    declaration: Declaration
    instant: bool = False
    held: bool = Field(False, exclude_if=lambda held: not held)
    unheard: bool = Field(False, exclude_if=lambda unheard: not unheard)
    changed: bool = Field(False, exclude_if=lambda changed: not changed)

    def apply_combat(self, state: CombatState) -> CombatState:
        update: dict[str, object] = {"declarations": _declaring(state, self.declaration)}
        if self.instant:
            update["instants_used"] = (*state.instants_used, self.declaration.actor)
        return state.model_copy(update=update)

    def describe(self) -> str:
        actions = ", then ".join(str(a) for a in self.declaration.actions)
        held = " (held until the other side has announced)" if self.held else ""
        says = "changes the declaration to" if self.changed else "declares:"
        return f"{self.declaration.actor} {says} {actions}{held}"

    def describe_to_party(self) -> str | None:
        return None if self.unheard else self.describe()


def _declaring(
    state: CombatState, declaration: Declaration, *, adding: bool = False
) -> tuple[Declaration, ...]:
    """The round's declarations with ``declaration`` in: replacing the actor's own, or
    ``adding`` to it; an instant reaction stands beside the actor's turn (CB-ACT-5)."""
    earlier = None if declaration.instant else state.declaration(declaration.actor)
    if earlier is None:
        return (*state.declarations, declaration)
    if adding:
        actions = (*earlier.actions, *declaration.actions)
        declaration = declaration.model_copy(update={"actions": actions})
    return tuple(declaration if d is earlier else d for d in state.declarations)


class OpposedSave(CombatEvent):
    """Incompatible actions settled by an opposed save; the winner acts first (TP-INI-2)."""

    kind: ClassVar[str] = "combat.opposed"
    shown: ClassVar[Shown] = Shown.PARTY
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

    def describe_to_party(self) -> str | None:
        """Who wins the clash, not the totals (a foe's save bonus is its stat)."""
        who = f"{self.winner} acts first" if self.winner else "neither gives way: both act at once"
        return f"{self.first} and {self.second} clash: {who}"

    def rolls_to_party(self) -> tuple[RollRecord, ...]:
        return ()


class AttackMade(CombatEvent):
    """One attack roll against an armour class (TP-ATK-1, PG-ATK-1, PG-ATK-2).

    ``at_once``: rolled by `combat attack`, declared and taken in one step, so it counts as
    one of the attacker's actions this round and leaves nothing to resolve.
    """

    kind: ClassVar[str] = "combat.attack"
    shown: ClassVar[Shown] = Shown.PARTY
    attacker: str
    target: str
    aimed_at: str
    ranged: bool
    total: int
    ac: int
    hit: bool
    at_once: bool = Field(False, exclude_if=lambda at_once: not at_once)

    def apply_combat(self, state: CombatState) -> CombatState:
        if self.at_once:
            kind = ActionKind.RANGED if self.ranged else ActionKind.ATTACK
            taken = Declaration(
                actor=self.attacker, actions=(Action(kind=kind, target=self.aimed_at),)
            )
            acted = state.acted if self.attacker in state.acted else (*state.acted, self.attacker)
            state = state.model_copy(
                update={"declarations": _declaring(state, taken, adding=True), "acted": acted}
            )
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

    def describe_to_party(self) -> str | None:
        """The attack as the table sees it: a hit or a miss, never the armour class."""
        how = "shoots at" if self.ranged else "attacks"
        stray = f" (aimed at {self.aimed_at})" if self.aimed_at != self.target else ""
        return f"{self.attacker} {how} {self.target}{stray}: {'hits' if self.hit else 'misses'}"

    def rolls_to_party(self) -> tuple[RollRecord, ...]:
        return ()  # a total beside hit or miss brackets the armour class


class Moved(CombatEvent):
    """A move: into melee with a foe, or out of every melee, to a friend's side if ``to``
    names one ("I cower behind the Fighter", TP-ACT-1) (PG-MOV-1, CB-ACT-3)."""

    kind: ClassVar[str] = "combat.moved"
    shown: ClassVar[Shown] = Shown.PARTY
    actor: str
    engage: str | None = None
    feet: int | None = None
    to: str | None = Field(None, exclude_if=lambda to: to is None)

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
        if self.to is not None:
            return f"{self.actor} moves to {self.to}, out of melee"
        where = f"into melee with {self.engage}" if self.engage else "out of melee"
        return f"{self.actor} moves {where}"


class MagicRolled(CombatEvent):
    """Magic dice rolled and summed for a spell (TP-MAG-1)."""

    kind: ClassVar[str] = "combat.magic"
    shown: ClassVar[Shown] = Shown.PARTY
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
    shown: ClassVar[Shown] = Shown.PARTY
    name: str
    target: int
    total: int
    success: bool
    by_player: bool = Field(False, exclude_if=lambda by_player: not by_player)
    """Rolled by the character's player, as the referee asked (the roll typed in)."""

    def apply_combat(self, state: CombatState) -> CombatState:
        return state.answered(self.name, AskedKind.SAVE)

    def describe(self) -> str:
        result = "saves" if self.success else "fails"
        text = f"{self.name} saves against {self.target}: {self.total}, {result}"
        return text + (_BY_PLAYER.format(self.name) if self.by_player else "")

    def describe_to_party(self) -> str | None:
        """Whether the save holds, not the number it needed (a foe's is its hit dice's)."""
        text = f"{self.name} {'saves' if self.success else 'fails a save'}"
        return text + (_BY_PLAYER.format(self.name) if self.by_player else "")

    def rolls_to_party(self) -> tuple[RollRecord, ...]:
        return ()


class CheckRolled(CombatEvent):
    """A risky action rolled as an opposed check: d20 + the stat, strictly higher than the
    target's defence succeeds (TP-OPP-1)."""

    kind: ClassVar[str] = "combat.check"
    shown: ClassVar[Shown] = Shown.PARTY
    actor: str
    stat: str
    defence: int
    total: int
    success: bool
    by_player: bool = Field(False, exclude_if=lambda by_player: not by_player)
    """Rolled by the character's player, as the referee asked (the roll typed in)."""

    def apply_combat(self, state: CombatState) -> CombatState:
        return state.answered(self.actor, AskedKind.CHECK)

    def describe(self) -> str:
        result = "succeeds" if self.success else "fails"
        text = f"{self.actor} checks {self.stat} against {self.defence}: {self.total}, {result}"
        return text + (_BY_PLAYER.format(self.actor) if self.by_player else "")

    def describe_to_party(self) -> str | None:
        """Whether the check succeeds, not the defence it had to beat (the referee's)."""
        text = f"{self.actor} {'succeeds' if self.success else 'fails'} a {self.stat} check"
        return text + (_BY_PLAYER.format(self.actor) if self.by_player else "")

    def rolls_to_party(self) -> tuple[RollRecord, ...]:
        return ()


class ActionTaken(CombatEvent):
    """An action the referee adjudicates in words (TP-ROLL-1: only risky actions are rolled)."""

    kind: ClassVar[str] = "combat.action"
    shown: ClassVar[Shown] = Shown.PARTY
    actor: str
    text: str

    def describe(self) -> str:
        return f"{self.actor}: {self.text}"


class Surrendered(CombatEvent):
    """Combatants yield: out of the fight, neither acting nor a target (PG-CBT-1: when a
    side has nobody left fighting, the combat is resolved)."""

    kind: ClassVar[str] = "combat.surrendered"
    shown: ClassVar[Shown] = Shown.PARTY
    names: tuple[str, ...]

    def apply_combat(self, state: CombatState) -> CombatState:
        return state.with_conditions(self.names, add=[Condition.SURRENDERED])

    def describe(self) -> str:
        return f"{', '.join(self.names)} {'yields' if len(self.names) == 1 else 'yield'}"


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    Surrendered,
    Damaged,
    Healed,
    Declared,
    OpposedSave,
    AttackMade,
    Moved,
    MagicRolled,
    SaveRolled,
    CheckRolled,
    ActionTaken,
)
