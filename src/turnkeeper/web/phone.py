"""A player's phone: what is wanted of one character now, drawn from the party's view.

A character's own link shows first what the table waits for from that character (its
declaration in a fight, its vote in a scene), then its sheet. Everything here is read from
:func:`~turnkeeper.views.party.player_state` and the ruleset (public: the players have the rules
too), never from the referee's state, so the phone cannot show a foe's statistics or plan.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from turnkeeper.dice import roll
from turnkeeper.kernel.combat_state import ActionKind, AskedKind
from turnkeeper.procedures.combat.asking import die_of
from turnkeeper.rules.schema import Ruleset
from turnkeeper.views.party import AskedView, CharacterView, CombatView, PlayerState, SceneView

#: What a character's own link may send: the verbs its player says for the character, each
#: with the field that names who acts (the character, filled in by the page).
HAND_VERBS = {"combat_declare": "actor", "scene_vote": "voter", "combat_rolled": "name"}

#: The choices a phone offers for a declaration, in this order, where the ruleset has them.
CHOICES = (
    ActionKind.ATTACK,
    ActionKind.RANGED,
    ActionKind.CAST,
    ActionKind.MOVE,
    ActionKind.MOVE_FAR,
    ActionKind.OTHER,
)

#: A form's field as the verb table names it in a refusal: ``combat_declare.rolled.0: ``.
_FIELD = re.compile(r"^[a-z_]+\.([a-z_]+)(?:\.\d+)*: ")

#: The phone's words for the fields its choices send.
FIELD_WORDS = {
    "rolled": "I rolled",
    "magic_dice": "magic dice",
    "target": "whom",
    "note": "what",
    "candidate": "the vote",
}


def in_words(message: str) -> str:
    """A refusal as the phone says it: a field named as its choice names it.

    >>> in_words("combat_declare.rolled.0: not a whole number")
    'I rolled: not a whole number'
    >>> in_words("no combatant named 'Gobbo' in this fight")
    "no combatant named 'Gobbo' in this fight"
    """
    found = _FIELD.match(message)
    if found is None:
        return message
    name = found[1]
    return f"{FIELD_WORDS.get(name, name.replace('_', ' '))}: {message[found.end() :]}"


#: The conditions that take a combatant out of the fight, as the party's view spells them.
_OUT = frozenset({"dead", "unconscious", "fled"})


@dataclass(frozen=True)
class Wanted:
    """What one character's player sees first.

    ``call``: what the table waits for from this player (``roll``, ``declare``, ``vote``, or
    ``""``), and ``key`` which time it is (``declare 3``: round 3's; ``roll 2``: the fight's
    second ask), so that the phone calls its player once for each. ``asked``: the roll the
    referee asks of this player (a save, a check), shown first, with ``ask_die`` and its
    sides ``ask_sides`` for the phone's "roll". ``choices``: the kinds of action the ruleset
    has that the phone offers; ``foes``: the foes still standing, whom an attack may take;
    ``die``: the sides of each die of the ruleset's attack roll, which the player may roll
    themselves; ``magic_dice``: a caster says how many magic dice they roll (TP-MAG-1).
    """

    hand: str
    sheet: CharacterView | None
    call: str = ""
    key: str = ""
    fight: CombatView | None = None
    standing: bool = False
    declared: str | None = None
    choices: tuple[str, ...] = ()
    foes: tuple[str, ...] = ()
    attack_die: str = ""
    die: tuple[int, ...] = ()
    magic_dice: bool = False
    scene: SceneView | None = None
    voted: str | None = None
    candidates: tuple[str, ...] = field(default=())
    asked: AskedView | None = None
    ask_die: str = ""
    ask_sides: tuple[int, ...] = ()


class _Asked:
    """A dice source that notes each die asked for and shows 1: which dice a roll takes."""

    def __init__(self) -> None:
        self.sides: list[int] = []

    def die(self, sides: int) -> int:
        self.sides.append(sides)
        return 1

    @property
    def typed_in(self) -> bool:
        return False


def dice_of(expression: str) -> tuple[int, ...]:
    """The sides of each die ``expression`` rolls, in the order it rolls them.

    >>> dice_of("d20"), dice_of("2d6+1")
    ((20,), (6, 6))
    """
    asked = _Asked()
    roll(expression, asked)
    return tuple(asked.sides)


def wanted_of(view: PlayerState, rules: Ruleset, hand: str) -> Wanted:
    """What is wanted of ``hand`` now, from the party's ``view``: in a fight that takes
    declarations and waits for ``hand``'s, a declaration; in a scene open to votes where
    ``hand`` has not voted, a vote; else nothing (the sheet and the table alone)."""
    sheet = next((c for c in view.party if c.name == hand), None)
    fight = view.combat if view.combat is not None and view.combat.phase != "ended" else None
    scene = view.scene
    if fight is not None:
        me = next((c for c in fight.combatants if c.name == hand), None)
        standing = me is not None and not _OUT & set(me.conditions)
        foes = tuple(
            c.name
            for c in fight.combatants
            if me is not None and c.side != me.side and not _OUT & set(c.conditions)
        )
        allowed = rules.actions.allowed_kinds
        waited = fight.phase == "declare" and hand in fight.waiting
        asked = next((a for a in fight.asked if a.name == hand), None)
        ask_die = die_of(AskedKind(asked.roll), rules) if asked is not None else ""
        call, key = ("declare", f"declare {fight.round}") if waited else ("", "")
        if asked is not None:  # a roll asked comes first: the table waits on it now
            call, key = "roll", f"roll {asked.number}"
        return Wanted(
            hand=hand,
            sheet=sheet,
            call=call,
            key=key,
            asked=asked,
            ask_die=ask_die,
            ask_sides=dice_of(ask_die) if ask_die else (),
            fight=fight,
            standing=standing and fight.phase == "declare",
            declared=fight.declared.get(hand),
            choices=tuple(kind.value for kind in CHOICES if kind in allowed),
            foes=foes,
            attack_die=rules.attack.die,
            die=dice_of(rules.attack.die),
            magic_dice=rules.actions.economy == "tp",
        )
    if scene is not None and hand in scene.players:
        voted = scene.votes.get(hand)
        open_to_votes = scene.open_to_votes
        return Wanted(
            hand=hand,
            sheet=sheet,
            call="vote" if open_to_votes and voted is None else "",
            key=f"vote {scene.round}" if open_to_votes and voted is None else "",
            scene=scene if open_to_votes else None,
            voted=voted,
            candidates=tuple(scene.players),
        )
    return Wanted(hand=hand, sheet=sheet)
