"""Rolls that settle a fight: attacks, damage, saves, opposed checks, magic, morale, treasure.

Each function takes the combatants, the ruleset and a dice source, and returns events; any
source works, so typed-in physical dice serve every roll.
"""

from __future__ import annotations

from turnkeeper import tables
from turnkeeper.dice import DiceSource, Roll, TypedDice, roll
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import Combatant, CombatState, Condition, Side
from turnkeeper.procedures.combat.events import CombatEvent, MoraleChecked
from turnkeeper.procedures.combat.outcomes import (
    AttackMade,
    Damaged,
    MagicRolled,
    OpposedSave,
    SaveRolled,
)
from turnkeeper.rules.schema import Ruleset

__all__ = [
    "attack",
    "attack_bonus",
    "damage",
    "damage_events",
    "hits",
    "magic",
    "morale_check",
    "opposed_check",
    "opposed_save",
    "save_target",
    "saving_throw",
    "treasure",
]


def attack_bonus(attacker: Combatant, rules: Ruleset, *, ranged: bool, second_wind: bool) -> int:
    """What the attacker adds to the attack die.

    The stat for melee or range (TP-ATK-1: STR and WIS; PG-ATK-2: STR and DEX), the HB and
    magic weapon (``attack_bonus``), +1 per HD for monsters (PG-ATK-2), -4 when wearied
    (EX-REST-3), +1 for the party on a Second Wind round (TP-INI-1 face 6).

    >>> from turnkeeper.rules.schema import AttackRules, RulesetInfo
    >>> pg = Ruleset(ruleset=RulesetInfo(name="x", title="x"),
    ...              attack=AttackRules(monster_bonus_per_hd=1))
    >>> ogre = Combatant(name="Ogre", side=Side.OPPOSITION, hp=20, max_hp=20, ac=14, hd=3,
    ...                  stats={"STR": 1})
    >>> attack_bonus(ogre, pg, ranged=False, second_wind=False)
    4
    """
    stat = rules.attack.ranged_stat if ranged else rules.attack.melee_stat
    bonus = attacker.stat(stat) + attacker.attack_bonus
    if attacker.hd is not None:
        bonus += rules.attack.monster_bonus_per_hd * attacker.hd
    if Condition.WEARIED in attacker.conditions:
        bonus += rules.rest.wearied_to_hit
    if second_wind and attacker.side is Side.PARTY:
        bonus += 1
    return bonus


def hits(total: int, ac: int, rules: Ruleset) -> bool:
    """TP-ATK-1 hits strictly above AC; PG-ATK-2 hits at or above it."""
    return total > ac if rules.attack.hits == "above" else total >= ac


#: PG-ATK-1's "randomly determine if friend or foe is attacked": two outcomes, on a d2.
FRIEND_OR_FOE = "1d2"
FRIEND = 1


def _friend_or_foe(
    state: CombatState, attacker: Combatant, aimed: Combatant, dice: DiceSource
) -> tuple[Combatant, tuple[Roll, ...]]:
    """PG-ATK-1: a shot into a melee where the shooter's friends fight its foe strikes a
    friend or the foe, at random: a d2, 1 a friend (any one of them, at random), 2 the foe
    aimed at. With no friend of the shooter's in that melee there is nobody else to hit."""
    friends = sorted(
        n
        for n in state.in_melee(aimed)
        if n != attacker.name and state.get(n).side is attacker.side
    )
    if aimed.side is attacker.side or not friends:
        return aimed, ()
    which = roll(FRIEND_OR_FOE, dice)
    if which.total != FRIEND:
        return aimed, (which,)
    if len(friends) == 1:
        return state.get(friends[0]), (which,)
    chosen = roll(f"1d{len(friends)}", dice)
    return state.get(friends[chosen.total - 1]), (which, chosen)


def attack(
    state: CombatState,
    attacker_name: str,
    target_name: str,
    rules: Ruleset,
    dice: DiceSource,
    *,
    ranged: bool = False,
    at_once: bool = False,
    rolled: tuple[int, ...] = (),
) -> list[CombatEvent]:
    """One attack and, on a hit, its damage (TP-ATK-1, PG-ATK-1, PG-ATK-2, PG-HP-1);
    ``at_once``: the attacker's action of the round, taken as it is declared; ``rolled``: the
    attack die's faces as the attacker's player rolled them (recorded as typed in).

    A ranged attack into a melee where the shooter's friends fight strikes a friend or the
    foe at random, when the ruleset says so (PG-ATK-1: "randomly determine if friend or foe
    is attacked"); the attack roll is still made against whoever is struck.
    """
    attacker, aimed = state.get(attacker_name), state.get(target_name)
    target = aimed
    rolls: list[Roll] = []
    if ranged and rules.attack.ranged_into_melee_random:
        target, chosen = _friend_or_foe(state, attacker, aimed, dice)
        rolls.extend(chosen)
    bonus = attack_bonus(attacker, rules, ranged=ranged, second_wind=state.second_wind)
    # the bonus rolled with the die, so the roll reads as the total it gives: d20 (15) + 2 = 17
    expression = f"{rules.attack.die}{bonus:+d}" if bonus else rules.attack.die
    thrown = roll(expression, TypedDice(rolled) if rolled else dice)
    total = thrown.total
    rolls.append(thrown)
    hit = hits(total, target.ac, rules)
    events: list[CombatEvent] = [
        AttackMade(
            attacker=attacker.name,
            target=target.name,
            aimed_at=aimed.name,
            ranged=ranged,
            total=total,
            ac=target.ac,
            hit=hit,
            at_once=at_once,
            rolls=tuple(rolls),
        )
    ]
    if hit:
        events.extend(damage(attacker, target, rules, dice))
    return events


def damage(
    attacker: Combatant, target: Combatant, rules: Ruleset, dice: DiceSource
) -> list[CombatEvent]:
    """The weapon's damage die, plus STR for the classes that add it (PG-ATK-2)."""
    thrown = roll(attacker.damage, dice)
    amount = thrown.total
    if attacker.character_class.casefold() in {
        c.casefold() for c in rules.attack.strength_damage_classes
    }:
        amount += attacker.stat(rules.attack.melee_stat)
    return damage_events(target, max(amount, 0), rules, cause=f"{attacker.name}", rolls=(thrown,))


def damage_events(
    target: Combatant,
    amount: int,
    rules: Ruleset,
    *,
    cause: str = "",
    rolls: tuple[Roll, ...] = (),
) -> list[CombatEvent]:
    """Hit points lost, and the condition they bring (PG-HP-1).

    Characters fall unconscious at 0 and die at minus their level; monsters die at 0.

    >>> from turnkeeper.rules.schema import RulesetInfo
    >>> rules = Ruleset(ruleset=RulesetInfo(name="x", title="x"))
    >>> hero = Combatant(name="Ann", side=Side.PARTY, hp=2, max_hp=8, ac=12, level=3)
    >>> [e.describe() for e in damage_events(hero, 5, rules)]
    ['Ann takes 5 damage: -3 hp, dead']
    """
    hp = target.hp - amount
    points = rules.hit_points
    becomes: list[Condition] = []
    if target.is_monster:
        if hp <= points.monsters_dead_at:
            becomes.append(Condition.DEAD)
    elif points.dead_at_minus_level and hp <= -target.level:
        becomes.append(Condition.DEAD)
    elif hp <= points.unconscious_at:
        becomes.append(Condition.UNCONSCIOUS)
    becomes = [c for c in becomes if c not in target.conditions]
    return [
        Damaged(
            target=target.name,
            amount=amount,
            hp_after=hp,
            becomes=tuple(becomes),
            cause=cause,
            rolls=rolls,
        )
    ]


def save_target(combatant: Combatant, rules: Ruleset) -> int:
    """PG-SAVE-1: the sheet's target, else 19 - HD for monsters, 19 - level for characters.

    >>> from turnkeeper.rules.schema import RulesetInfo
    >>> rules = Ruleset(ruleset=RulesetInfo(name="x", title="x"))
    >>> troll = Combatant(name="Troll", side=Side.OPPOSITION, hp=30, max_hp=30, ac=15, hd=6)
    >>> save_target(troll, rules)
    13
    """
    if combatant.is_monster:
        return tables.save_target(rules=rules, hd=combatant.hd or 0, explicit=combatant.save)
    return tables.save_target(rules=rules, level=combatant.level, explicit=combatant.save)


def saving_throw(combatant: Combatant, rules: Ruleset, dice: DiceSource) -> SaveRolled:
    """A save: the die equal to or over the target succeeds (PG-SAVE-1)."""
    thrown = tables.saving_throw(save_target(combatant, rules), dice, rules)
    return SaveRolled(
        name=combatant.name,
        target=thrown.target,
        total=thrown.roll.total,
        success=thrown.succeeded,
        rolls=(thrown.roll,),
    )


def opposed_check(
    actor: Combatant,
    stat: str,
    defence: int,
    rules: Ruleset,
    dice: DiceSource,
    *,
    second_wind: bool = False,
) -> tuple[bool, Roll]:
    """TP-OPP-1: d20 + the stat succeeds if strictly higher than the target's defence."""
    bonus = actor.stat(stat) + (1 if second_wind and actor.side is Side.PARTY else 0)
    thrown = roll(
        f"{rules.attack.die}+{bonus}" if bonus >= 0 else f"{rules.attack.die}{bonus}", dice
    )
    return thrown.total > defence, thrown


def opposed_save(
    first: Combatant,
    second: Combatant,
    stat: str,
    rules: Ruleset,
    dice: DiceSource,
    *,
    second_wind: bool = False,
) -> OpposedSave:
    """TP-INI-2: each rolls the opposed save plus the stat; higher acts first, a tie both."""
    totals: list[int] = []
    rolls: list[Roll] = []
    for who in (first, second):
        thrown = roll(rules.initiative.opposed_save, dice)
        bonus = who.stat(stat) + (1 if second_wind and who.side is Side.PARTY else 0)
        totals.append(thrown.total + bonus)
        rolls.append(thrown)
    winner = None
    if totals[0] != totals[1]:
        winner = first.name if totals[0] > totals[1] else second.name
    return OpposedSave(
        first=first.name,
        second=second.name,
        totals=(totals[0], totals[1]),
        winner=winner,
        rolls=tuple(rolls),
    )


def magic(
    caster: Combatant,
    count: int,
    rules: Ruleset,
    dice: DiceSource,
    *,
    second_wind: bool = False,
    note: str = "",
) -> MagicRolled:
    """TP-MAG-1: the caster rolls the magic dice they choose, summed; Second Wind adds 1."""
    if not 1 <= count <= rules.magic.max_dice:
        raise IllegalCommandError(
            f"a caster rolls 1 to {rules.magic.max_dice} magic dice, not {count}"
        )
    thrown = roll(f"{count}d{rules.magic.die}", dice)
    bonus = 1 if second_wind and caster.side is Side.PARTY else 0
    return MagicRolled(
        caster=caster.name, dice=count, total=thrown.total + bonus, note=note, rolls=(thrown,)
    )


def morale_check(names: tuple[str, ...], score: int, dice: DiceSource) -> MoraleChecked:
    """A morale check: 2d6 at or under the morale score holds; above it, the group flees.

    The seeds name morale (CB-SUR-2) but give no procedure; this is the classic one, the
    project's documented default.
    """
    thrown = roll("2d6", dice)
    return MoraleChecked(
        names=names,
        score=score,
        total=thrown.total,
        holds=thrown.total <= score,
        rolls=(thrown,),
    )


def treasure(state: CombatState, rules: Ruleset, dice: DiceSource) -> tuple[int, Roll]:
    """PG-TRE-1: "the total XP value of the monsters the characters have overcome or
    outwitted", times 1d3+1, in gold: the party has won, so every foe counts, the fallen,
    the fled and those still standing that it outwitted (they yielded, were tricked, were
    left behind: the referee named the party the winner)."""
    overcome = sum(c.xp for c in state.members(Side.OPPOSITION))
    multiplier = roll(rules.treasure_multiplier, dice)
    return overcome * multiplier.total, multiplier
