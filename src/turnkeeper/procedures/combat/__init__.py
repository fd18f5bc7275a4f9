"""Combat: the tracker, surprise and initiative, the action economy, attacks, the round.

Pure: every procedure takes the fight's state, a command, the ruleset and a dice source, and
returns events (:mod:`turnkeeper.procedures.combat.events`) that fold into the next state.

>>> from turnkeeper.dice import TypedDice
>>> from turnkeeper.procedures.combat import Attack, BeginRound, CombatState, Combatant, Side
>>> from turnkeeper.procedures.combat import StartCombat, execute
>>> from turnkeeper.rules.schema import Ruleset, RulesetInfo
>>> rules = Ruleset(ruleset=RulesetInfo(name="x", title="x"))
>>> ann = Combatant(name="Ann", side=Side.PARTY, hp=6, max_hp=6, ac=13, stats={"STR": 1})
>>> orc = Combatant(name="Orc", side=Side.OPPOSITION, hp=5, max_hp=5, ac=13, hd=1)
>>> state, _ = execute(CombatState(), StartCombat((ann, orc), surprised=frozenset()), rules,
...                    TypedDice([]))
>>> state, _ = execute(state, BeginRound(), rules, TypedDice([5, 2]))  # the party first
>>> state, events = execute(state, Attack("Ann", "Orc"), rules, TypedDice([12, 5]))
>>> for event in events:  # the orc down, its side has nobody standing: the fight is over
...     print(event.describe())
Ann attacks Orc: 13 against AC 13, hits
Orc takes 5 damage (Ann): 0 hp, dead
the round is resolved
combat over: party wins
"""

from turnkeeper.kernel.combat_state import (
    Action,
    ActionKind,
    Combatant,
    CombatState,
    Condition,
    Declaration,
    Phase,
    Side,
    other_side,
    pin_order,
)
from turnkeeper.procedures.combat.actions import (
    check_declaration,
    check_load,
)
from turnkeeper.procedures.combat.asking import AnswerRoll, AskingCommand, AskRoll, RollAsked
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
from turnkeeper.procedures.combat.campaign import (
    StartFight,
    decide_in_campaign,
    party_combatants,
    with_countdowns,
)
from turnkeeper.procedures.combat.events import (
    CombatEnded,
    CombatEvent,
    fold_combat,
)
from turnkeeper.procedures.combat.initiative import (
    hungry_reaction_modifier,
    roll_initiative,
    settle_surprise,
)
from turnkeeper.procedures.combat.outcomes import Healed
from turnkeeper.procedures.combat.round import (
    AnnounceDone,
    Attack,
    BeginRound,
    Check,
    CombatCommand,
    Declare,
    EndCombat,
    Pin,
    Resolve,
    Save,
    StartCombat,
    Surrender,
    decide_combat,
    execute,
    settle,
    winner_of,
)

__all__ = [
    "Action",
    "ActionKind",
    "AnnounceDone",
    "AnswerRoll",
    "AskRoll",
    "AskingCommand",
    "Attack",
    "BeginRound",
    "Check",
    "CombatCommand",
    "CombatEnded",
    "CombatEvent",
    "CombatState",
    "Combatant",
    "Condition",
    "Declaration",
    "Declare",
    "EndCombat",
    "Healed",
    "Phase",
    "Pin",
    "Resolve",
    "RollAsked",
    "Save",
    "Side",
    "StartCombat",
    "StartFight",
    "Surrender",
    "attack",
    "attack_bonus",
    "check_declaration",
    "check_load",
    "damage_events",
    "decide_combat",
    "decide_in_campaign",
    "execute",
    "fold_combat",
    "hits",
    "hungry_reaction_modifier",
    "magic",
    "morale_check",
    "opposed_check",
    "opposed_save",
    "other_side",
    "party_combatants",
    "pin_order",
    "roll_initiative",
    "save_target",
    "saving_throw",
    "settle",
    "settle_surprise",
    "treasure",
    "winner_of",
    "with_countdowns",
]
