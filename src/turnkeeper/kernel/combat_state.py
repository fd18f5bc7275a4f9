"""The combat tracker's state: two sides, their combatants, the round and its order.

A combat has two sides, the player characters with their allies and the opposition
(CB-SIDE-1). Every combatant carries what the attack, damage and save rules read: hit points,
armour class, stat modifiers, hit dice for monsters, class and level for characters, and the
conditions a fight hands out. Who is in melee with whom is kept as a set of names on each
combatant (both ends of a melee name each other).

The state is frozen: procedures return events and events build the next state.

>>> goblin = Combatant(name="Goblin", side=Side.OPPOSITION, hp=4, max_hp=4, ac=12, hd=1)
>>> state = CombatState(combatants=(goblin,))
>>> state.get("goblin").is_monster, state.side_standing(Side.OPPOSITION)
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from pydantic import Field

from turnkeeper.errors import NotFoundError
from turnkeeper.frozen import Strict
from turnkeeper.rules.schema import FaceEvent, Side
from turnkeeper.rules.schema.combat import ActionKind
from turnkeeper.words import did_you_mean

__all__ = [
    "OUT_OF_FIGHT",
    "Action",
    "ActionKind",
    "AskedKind",
    "AskedRoll",
    "CombatState",
    "Combatant",
    "Condition",
    "Declaration",
    "Phase",
    "Side",
    "other_side",
    "pin_order",
]


class Condition(StrEnum):
    """What a fight does to a combatant."""

    UNCONSCIOUS = "unconscious"
    DEAD = "dead"
    SURPRISED = "surprised"
    WEARIED = "wearied"
    FLED = "fled"
    SURRENDERED = "surrendered"


#: Conditions that take a combatant out of the fight.
OUT_OF_FIGHT = frozenset(
    {Condition.UNCONSCIOUS, Condition.DEAD, Condition.FLED, Condition.SURRENDERED}
)


def other_side(side: Side) -> Side:
    """The side facing ``side`` (CB-SIDE-1)."""
    return Side.OPPOSITION if side is Side.PARTY else Side.PARTY


class Combatant(Strict):
    """One participant: a character, an ally or a monster.

    ``stats`` holds modifiers (``{"STR": 1, "DEX": -1}``), not scores. ``hd`` is set for
    monsters (PG-ATK-2, PG-SAVE-1, PG-HP-1) and ``None`` for characters, who use ``level``.
    ``attack_bonus`` is the HB and any magic weapon bonus (PG-ATK-2).
    """

    name: str
    side: Side
    hp: int
    max_hp: int
    ac: int
    stats: dict[str, int] = Field(default_factory=dict)
    hd: int | None = None
    character_class: str = ""
    level: int = 1
    damage: str = "d6"
    attack_bonus: int = 0
    save: int | None = Field(None, description="PG-SAVE-1: the sheet's save target, if any.")
    morale: int | None = Field(None, description="Morale score, 2d6 at or under it holds.")
    disciplined: bool = Field(True, description="CB-SUR-2: undisciplined groups check morale.")
    xp: int = Field(0, description="PG-TRE-1: what overcoming this monster is worth.")
    coins: int = Field(0, description="PG-MOV-2: coins carried.")
    move_feet: int | None = Field(None, description="CB-ACT-3: move rate, if not the ruleset's.")
    conditions: frozenset[Condition] = frozenset()
    melee_with: frozenset[str] = frozenset()

    @property
    def is_monster(self) -> bool:
        """Monsters have hit dice; characters have a level."""
        return self.hd is not None

    @property
    def standing(self) -> bool:
        """Still in the fight: not unconscious, dead, fled or surrendered."""
        return not (self.conditions & OUT_OF_FIGHT)

    def stat(self, name: str) -> int:
        """A stat modifier, 0 where the sheet gives none."""
        return self.stats.get(name.upper(), 0)


class Phase(StrEnum):
    """Where the round stands."""

    BETWEEN = "between"  # no round running: start the next one
    DECLARE = "declare"  # initiative is known; actors declare
    ENDED = "ended"


class Action(Strict):
    """One thing an actor means to do this round.

    ``target`` names a combatant; a move with a foe for target closes into melee with it, a
    move without one, or towards a friend, leaves every melee. ``feet`` is the distance of a
    CB move action; ``dice`` the number of magic dice a caster rolls (TP-MAG-1); ``stat``
    the stat of a maneuver's opposed save (TP-INI-2); ``note`` what the player describes
    ("take oil from my pouch"), which tells two things of one kind apart (TP-ACT-1);
    ``own_side`` says an attack on a friend is meant, not a slip of the tongue; ``rolled``
    the faces of an attack die the actor's player rolled themselves (at the table or on the
    phone), used for the attack roll instead of the seeded dice.
    """

    kind: ActionKind
    target: str | None = None
    feet: int | None = None
    dice: int = 1
    stat: str = "STR"
    note: str = ""
    own_side: bool = Field(False, exclude_if=lambda own_side: not own_side)
    rolled: tuple[int, ...] = Field((), exclude_if=lambda rolled: not rolled)

    def __str__(self) -> str:
        text = self.kind.value
        if self.target:
            text += f" {self.target}"
        if self.feet is not None:
            text += f" {self.feet} ft"
        text += f" ({self.note})" if self.note else ""
        return text + (f", rolling {', '.join(map(str, self.rolled))}" if self.rolled else "")


class AskedKind(StrEnum):
    """What a character's player may be asked to roll in a fight."""

    SAVE = "save"
    CHECK = "check"


class Declaration(Strict):
    """What one actor announced for this round, in the order they will do it."""

    actor: str
    actions: tuple[Action, ...]

    @property
    def casts(self) -> bool:
        return any(action.kind is ActionKind.CAST for action in self.actions)

    @property
    def instant(self) -> bool:
        return any(action.kind is ActionKind.INSTANT for action in self.actions)


class AskedRoll(Strict):
    """A roll the referee asks of a character's player (TP-ROLL-1: the players roll what is
    risky): a save (PG-SAVE-1), or a check of ``stat`` against a ``defence`` the referee
    knows (TP-OPP-1). ``number``: which ask of the fight it is, so that a phone calls its
    player once for each."""

    name: str
    roll: AskedKind
    stat: str = ""
    defence: int | None = None
    number: int = Field(ge=1)

    def __str__(self) -> str:
        return "a save" if self.roll is AskedKind.SAVE else f"a {self.stat} check"


class CombatState(Strict):
    """The whole fight: combatants, the round, initiative and what has been declared.

    ``order`` is the round's sequence of beats: each beat is a group of names that act at
    once, and each beat's results take effect before the next (PG-CBT-1, CB-RND-1). Under
    the overloaded die (TP-INI-2) everyone shares one beat.
    """

    combatants: tuple[Combatant, ...] = ()
    round: int = 0
    seconds: int = 0
    phase: Phase = Phase.BETWEEN
    initiative: Side | None = None
    order: tuple[tuple[str, ...], ...] = ()
    pinned: tuple[tuple[str, int], ...] = ()
    free_round: Side | None = Field(None, description="A surprise round owed to this side.")
    in_free_round: bool = False
    face: int | None = None
    face_event: FaceEvent | None = None
    second_wind: bool = False
    declarations: tuple[Declaration, ...] = ()
    acted: tuple[str, ...] = Field(
        (), description="Who has acted at once this round (`combat attack`): nothing to resolve."
    )
    done: tuple[Side, ...] = Field(
        (), description="Sides the referee has said are done announcing (or acting) this round."
    )
    fell_at_once: tuple[str, ...] = Field(
        (),
        description="Who fell this round to an action taken at once where everything happens "
        "at once (TP-INI-2): they still act this round.",
    )
    instants_used: tuple[str, ...] = ()
    reaction: str | None = None
    winner: Side | None = None
    rest_due: bool = False
    asked: tuple[AskedRoll, ...] = Field(
        (), description="The rolls asked of characters' players and not yet rolled."
    )
    asks: int = Field(0, description="How many rolls have been asked of players this fight.")

    def asked_of(self, name: str) -> AskedRoll | None:
        """The roll asked of ``name``'s player and not yet rolled, if any."""
        return next((a for a in self.asked if a.name.casefold() == name.casefold()), None)

    def answered(self, name: str, roll: AskedKind) -> CombatState:
        """This state without the ``roll`` asked of ``name`` (rolled now, by whoever)."""
        asked = self.asked_of(name)
        if asked is None or asked.roll is not roll:
            return self
        return self.model_copy(update={"asked": tuple(a for a in self.asked if a is not asked)})

    def find(self, name: str) -> Combatant | None:
        """A combatant by name, case-insensitive."""
        wanted = name.casefold()
        for combatant in self.combatants:
            if combatant.name.casefold() == wanted:
                return combatant
        return None

    def get(self, name: str) -> Combatant:
        """A combatant by name, or a clear error listing who is here."""
        found = self.find(name)
        if found is None:
            known = [c.name for c in self.combatants]
            raise NotFoundError(
                f"no combatant named {name!r} in this fight{did_you_mean(name, known)}"
                f" (there: {', '.join(known) or 'nobody'})"
            )
        return found

    def members(self, side: Side) -> tuple[Combatant, ...]:
        """Every combatant of a side, standing or not."""
        return tuple(c for c in self.combatants if c.side is side)

    def side_standing(self, side: Side) -> bool:
        """True while at least one member of ``side`` is still in the fight."""
        return any(c.standing for c in self.members(side))

    def declaration(self, name: str) -> Declaration | None:
        """What ``name`` declared for their turn this round, if anything (an instant reaction
        taken outside the turn is not their turn's declaration, CB-ACT-5)."""
        for declaration in self.declarations:
            if declaration.actor.casefold() == name.casefold() and not declaration.instant:
                return declaration
        return None

    def pending(self) -> tuple[Declaration, ...]:
        """The declarations still to resolve: not taken at once, not instant reactions."""
        acted = {n.casefold() for n in self.acted}
        return tuple(
            d for d in self.declarations if d.actor.casefold() not in acted and not d.instant
        )

    def can_act(self, combatant: Combatant) -> bool:
        """Standing (or struck down this round where everything happens at once, TP-INI-2),
        and not losing the surprise round (PG-SUR-1, CB-SUR-1, EX-SUR-5) or, surprised alone
        (EX-SUR-4's "any who lose"), the first round."""
        lost = Condition.SURPRISED in combatant.conditions  # gone once the round is resolved
        return (combatant.standing or combatant.name in self.fell_at_once) and not lost

    def still_to_act(self, side: Side) -> tuple[str, ...]:
        """Members of ``side`` able to act who have neither declared nor acted this round;
        none once the referee says the side is done."""
        if side in self.done:
            return ()
        return tuple(
            c.name
            for c in self.members(side)
            if self.can_act(c) and self.declaration(c.name) is None
        )

    def in_melee(self, combatant: Combatant) -> frozenset[str]:
        """Who ``combatant`` is in melee with now: partners still standing (TP-INI-1 face 2)."""
        return frozenset(n for n in combatant.melee_with if self.get(n).standing)

    def replace(self, *changed: Combatant) -> CombatState:
        """This state with some combatants swapped for their new versions (by name)."""
        new = {c.name: c for c in changed}
        return self.model_copy(
            update={"combatants": tuple(new.get(c.name, c) for c in self.combatants)}
        )

    def with_conditions(
        self, names: Iterable[str], add: Iterable[Condition] = (), drop: Iterable[Condition] = ()
    ) -> CombatState:
        """Add and drop conditions on several combatants at once."""
        added, dropped = frozenset(add), frozenset(drop)
        wanted = {n.casefold() for n in names}
        return self.model_copy(
            update={
                "combatants": tuple(
                    c.model_copy(update={"conditions": (c.conditions - dropped) | added})
                    if c.name.casefold() in wanted
                    else c
                    for c in self.combatants
                )
            }
        )


def pin_order(
    order: tuple[tuple[str, ...], ...], name: str, place: int
) -> tuple[tuple[str, ...], ...]:
    """The order with ``name`` taken out of its beat and given a beat of its own at ``place``.

    >>> pin_order((("Ann", "Bo"), ("Orc",)), "Bo", 3)
    (('Ann',), ('Orc',), ('Bo',))
    """
    rest = [tuple(n for n in beat if n != name) for beat in order]
    beats = [beat for beat in rest if beat]
    index = max(0, min(place - 1, len(beats)))
    beats.insert(index, (name,))
    return tuple(beats)
