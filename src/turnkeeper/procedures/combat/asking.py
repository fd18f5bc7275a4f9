"""Rolls the referee asks of the players: a character's save or check, rolled by its player.

TP-ROLL-1 has the players roll what is risky, and a save (PG-SAVE-1) is the saver's own
throw: the referee asks a character's player for one (:class:`AskRoll`), the party's phones
show it, and the player's dice come back as the roll (:class:`AnswerRoll`), recorded as that
player's (``by_player``) and typed in. The save or check is the fight's own (``Save``,
``Check``): the answer runs it with the player's faces. The referee may still roll it
instead (``combat save``, ``combat check``), which answers the ask too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from turnkeeper.dice import DiceInputError, TypedDice, roll
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import AskedKind, AskedRoll, CombatState, Phase
from turnkeeper.kernel.events import Event, Shown
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.combat.events import CombatEvent
from turnkeeper.procedures.combat.outcomes import CheckRolled, SaveRolled
from turnkeeper.procedures.combat.round import Check, Save, decide_combat
from turnkeeper.rules.schema import Ruleset

__all__ = [
    "EVENTS",
    "AnswerRoll",
    "AskRoll",
    "AskingCommand",
    "RollAsked",
    "decide_asking",
    "die_of",
]


@dataclass(frozen=True)
class AskRoll:
    """The referee asks ``name``'s player to roll: a save, or a check of ``stat`` against
    ``defence`` (the referee's, never shown to the players)."""

    name: str
    roll: AskedKind
    stat: str = ""
    defence: int | None = None


@dataclass(frozen=True)
class AnswerRoll:
    """``name``'s player rolled what was asked: ``rolled``, the die's faces as they fell."""

    name: str
    rolled: tuple[int, ...]


AskingCommand = AskRoll | AnswerRoll


class RollAsked(CombatEvent):
    """A roll asked of a character's player: the phones of the party show it, and the
    player's own phone calls them (TP-ROLL-1, PG-SAVE-1)."""

    kind: ClassVar[str] = "combat.asked"
    shown: ClassVar[Shown] = Shown.PARTY
    name: str
    roll: AskedKind
    stat: str = ""
    defence: int | None = None

    def apply_combat(self, state: CombatState) -> CombatState:
        number = state.asks + 1
        asked = AskedRoll(
            name=self.name, roll=self.roll, stat=self.stat, defence=self.defence, number=number
        )
        return state.model_copy(update={"asked": (*state.asked, asked), "asks": number})

    def _what(self) -> str:
        return "a save" if self.roll is AskedKind.SAVE else f"a {self.stat} check"

    def describe(self) -> str:
        against = f" against {self.defence}" if self.defence is not None else ""
        return f"{self.name}'s player is asked to roll {self._what()}{against}"

    def describe_to_party(self) -> str | None:
        """What is asked, not the defence to beat (the referee's)."""
        return f"{self.name}'s player is asked to roll {self._what()}"


def die_of(roll: AskedKind, rules: Ruleset) -> str:
    """The dice an asked roll throws: the save's die (PG-SAVE-1), or the check's d20 (the
    ruleset's attack die, TP-OPP-1).

    >>> from turnkeeper.rules.loader import preset
    >>> die_of(AskedKind.SAVE, preset("pg")), die_of(AskedKind.CHECK, preset("tp"))
    ('d20', 'd20')
    """
    return rules.saves.die if roll is AskedKind.SAVE else rules.attack.die


def _fight(state: CampaignState) -> CombatState:
    fight = state.combat
    if fight is None or fight.phase is Phase.ENDED:
        raise IllegalCommandError(
            "no fight is running: a save or a check is asked in a fight (`combat start`)"
        )
    return fight


def _ask(state: CampaignState, command: AskRoll) -> list[CombatEvent]:
    fight = _fight(state)
    who = fight.get(command.name)
    if state.party.character(who.name) is None:
        players = ", ".join(c.name for c in state.party.characters) or "none"
        raise IllegalCommandError(
            f"{who.name} is not a player's character (the party's: {players}): the referee "
            f"rolls for them with `combat save {who.name}` or `combat check`"
        )
    if not who.standing:
        raise IllegalCommandError(f"{who.name} is out of the fight and rolls nothing")
    pending = fight.asked_of(who.name)
    if pending is not None:
        raise IllegalCommandError(
            f"{who.name}'s player is already asked for {pending} and has not rolled it: wait "
            f"for it, roll it for them (`combat {pending.roll.value} {who.name}`), or undo the ask"
        )
    rules = state.ruleset
    if command.roll is AskedKind.SAVE:
        if command.stat or command.defence is not None:
            raise IllegalCommandError(
                "a save needs no stat and no defence (its target is the saver's, PG-SAVE-1): "
                f"`combat ask {who.name} save`"
            )
        return [RollAsked(name=who.name, roll=AskedKind.SAVE)]
    stat = command.stat.strip().upper()
    if stat not in rules.stats:
        raise IllegalCommandError(
            f"a check names one of {rules.name}'s stats ({', '.join(rules.stats)}), not "
            f"{command.stat!r}: `combat ask {who.name} check STR --defence 12`"
        )
    if command.defence is None:
        raise IllegalCommandError(
            f"a check needs the defence to beat (TP-OPP-1): `combat ask {who.name} check "
            f"{stat} --defence 12`"
        )
    return [RollAsked(name=who.name, roll=AskedKind.CHECK, stat=stat, defence=command.defence)]


def _answer(state: CampaignState, command: AnswerRoll) -> list[CombatEvent]:
    fight = _fight(state)
    who = fight.get(command.name)
    asked = fight.asked_of(who.name)
    if asked is None:
        raise IllegalCommandError(
            f"no roll is asked of {who.name}'s player: the referee asks with "
            f"`combat ask {who.name} save` (or check)"
        )
    rules = state.ruleset
    die = die_of(asked.roll, rules)
    if not command.rolled:
        raise IllegalCommandError(f"{asked} is {die}: give the faces {who.name}'s player rolled")
    faces = TypedDice(command.rolled)
    try:
        roll(die, faces)
    except DiceInputError as error:
        raise IllegalCommandError(f"{asked} is {die}: {error}") from None
    if faces.remaining:
        raise IllegalCommandError(
            f"{asked} is {die}, {len(command.rolled)} dice given: give its faces alone"
        )
    thrown = TypedDice(command.rolled)
    if asked.roll is AskedKind.SAVE:
        events = decide_combat(fight, Save(who.name), rules, thrown)
    else:
        assert asked.defence is not None  # an ask of a check always names its defence
        events = decide_combat(fight, Check(who.name, asked.stat, asked.defence), rules, thrown)
    return [
        e.model_copy(update={"by_player": True}) if isinstance(e, SaveRolled | CheckRolled) else e
        for e in events
    ]


def decide_asking(state: CampaignState, command: AskingCommand) -> list[CombatEvent]:
    """The events of a roll asked of a player, or of its answer (the command's rules)."""
    if isinstance(command, AskRoll):
        return _ask(state, command)
    return _answer(state, command)


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (RollAsked,)
