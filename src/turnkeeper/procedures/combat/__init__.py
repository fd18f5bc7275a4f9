"""Combat: the tracker, surprise and initiative, the action economy, attacks, the round.

Pure: every procedure takes the fight's state, a command, the ruleset and a dice source, and
returns events (:mod:`turnkeeper.procedures.combat.events`) that fold into the next state.

>>> from turnkeeper.dice import TypedDice
>>> from turnkeeper.procedures.combat import Attack, CombatState, Combatant, Side, StartCombat
>>> from turnkeeper.procedures.combat import execute
>>> from turnkeeper.rules.schema import Ruleset, RulesetInfo
>>> rules = Ruleset(ruleset=RulesetInfo(name="x", title="x"))
>>> ann = Combatant(name="Ann", side=Side.PARTY, hp=6, max_hp=6, ac=13, stats={"STR": 1})
>>> orc = Combatant(name="Orc", side=Side.OPPOSITION, hp=5, max_hp=5, ac=13, hd=1)
>>> state, _ = execute(CombatState(), StartCombat((ann, orc), surprised=frozenset()), rules,
...                    TypedDice([]))
>>> state, events = execute(state, Attack("Ann", "Orc"), rules, TypedDice([12, 5]))
>>> [e.describe() for e in events]
['Ann attacks Orc: 13 against AC 13, hits', 'Orc takes 5 damage (Ann): 0 hp, dead']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from turnkeeper.lazy import lazy_names

if TYPE_CHECKING:  # the names, for type checkers; at run time they load on first use
    from turnkeeper.procedures.combat.actions import check_declaration, check_load
    from turnkeeper.procedures.combat.attacks import (
        attack,
        attack_bonus,
        damage_events,
        hits,
        magic,
        morale_check,
        opposed_check,
        opposed_save,
        save_target,
        saving_throw,
        treasure,
    )
    from turnkeeper.procedures.combat.events import CombatEvent, fold_combat
    from turnkeeper.procedures.combat.initiative import (
        hungry_reaction_modifier,
        pin_order,
        roll_initiative,
        settle_surprise,
    )
    from turnkeeper.procedures.combat.round import (
        Attack,
        BeginRound,
        CombatCommand,
        Declare,
        EndCombat,
        Pin,
        Resolve,
        StartCombat,
        decide_combat,
        execute,
        winner_of,
    )
    from turnkeeper.procedures.combat.state import (
        Action,
        ActionKind,
        Combatant,
        CombatState,
        Condition,
        Declaration,
        Phase,
        Side,
        other_side,
    )

# Loaded lazily: the campaign's state imports ``combat.state``, and combat's events import
# the campaign's, so importing the whole package eagerly would go round in a circle.
_WHERE = {
    "Action": "turnkeeper.procedures.combat.state",
    "ActionKind": "turnkeeper.procedures.combat.state",
    "Attack": "turnkeeper.procedures.combat.round",
    "BeginRound": "turnkeeper.procedures.combat.round",
    "CombatCommand": "turnkeeper.procedures.combat.round",
    "CombatEvent": "turnkeeper.procedures.combat.events",
    "CombatState": "turnkeeper.procedures.combat.state",
    "Combatant": "turnkeeper.procedures.combat.state",
    "Condition": "turnkeeper.procedures.combat.state",
    "Declaration": "turnkeeper.procedures.combat.state",
    "Declare": "turnkeeper.procedures.combat.round",
    "EndCombat": "turnkeeper.procedures.combat.round",
    "Phase": "turnkeeper.procedures.combat.state",
    "Pin": "turnkeeper.procedures.combat.round",
    "Resolve": "turnkeeper.procedures.combat.round",
    "Side": "turnkeeper.procedures.combat.state",
    "StartCombat": "turnkeeper.procedures.combat.round",
    "attack": "turnkeeper.procedures.combat.attacks",
    "attack_bonus": "turnkeeper.procedures.combat.attacks",
    "check_declaration": "turnkeeper.procedures.combat.actions",
    "check_load": "turnkeeper.procedures.combat.actions",
    "damage_events": "turnkeeper.procedures.combat.attacks",
    "decide_combat": "turnkeeper.procedures.combat.round",
    "execute": "turnkeeper.procedures.combat.round",
    "fold_combat": "turnkeeper.procedures.combat.events",
    "hits": "turnkeeper.procedures.combat.attacks",
    "hungry_reaction_modifier": "turnkeeper.procedures.combat.initiative",
    "magic": "turnkeeper.procedures.combat.attacks",
    "morale_check": "turnkeeper.procedures.combat.attacks",
    "opposed_check": "turnkeeper.procedures.combat.attacks",
    "opposed_save": "turnkeeper.procedures.combat.attacks",
    "other_side": "turnkeeper.procedures.combat.state",
    "pin_order": "turnkeeper.procedures.combat.initiative",
    "roll_initiative": "turnkeeper.procedures.combat.initiative",
    "save_target": "turnkeeper.procedures.combat.attacks",
    "saving_throw": "turnkeeper.procedures.combat.attacks",
    "settle_surprise": "turnkeeper.procedures.combat.initiative",
    "treasure": "turnkeeper.procedures.combat.attacks",
    "winner_of": "turnkeeper.procedures.combat.round",
}


__getattr__ = lazy_names(__name__, _WHERE)


__all__ = [
    "Action",
    "ActionKind",
    "Attack",
    "BeginRound",
    "CombatCommand",
    "CombatEvent",
    "CombatState",
    "Combatant",
    "Condition",
    "Declaration",
    "Declare",
    "EndCombat",
    "Phase",
    "Pin",
    "Resolve",
    "Side",
    "StartCombat",
    "attack",
    "attack_bonus",
    "check_declaration",
    "check_load",
    "damage_events",
    "decide_combat",
    "execute",
    "fold_combat",
    "hits",
    "hungry_reaction_modifier",
    "magic",
    "morale_check",
    "opposed_check",
    "opposed_save",
    "other_side",
    "pin_order",
    "roll_initiative",
    "save_target",
    "saving_throw",
    "settle_surprise",
    "treasure",
    "winner_of",
]
