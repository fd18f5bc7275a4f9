"""Surprise and initiative, per ruleset: who acts, and in what order of beats.

* Overloaded die (TP-CBT-1, TP-INI-1): the face says who has initiative and what happens;
  the referee's adjustment is recorded even when it is zero; everyone shares one beat
  (TP-INI-2), so the side with initiative only announces last.
* Side roll (PG-INI-1, CB-INI-1): each side rolls its die (d6; 1d8 + the best DEX among its
  members); the higher side's beat comes first; ties are simultaneous (PG) or go to the
  party (CB).
* Individual (CB-INI-3): each character rolls 1d8 + DEX, the referee once for the
  opposition; one order, highest first, ties to the party.
"""

from __future__ import annotations

from dataclasses import replace

from turnkeeper.dice import DiceSource, Roll, parse, roll
from turnkeeper.errors import RulesetError
from turnkeeper.kernel.combat_state import (
    Combatant,
    CombatState,
    Condition,
    Side,
    other_side,
    pin_order,
)
from turnkeeper.procedures.combat.attacks import damage_events, morale_check
from turnkeeper.procedures.combat.events import (
    CombatEvent,
    FaceEffect,
    InitiativeSettled,
    SurpriseSettled,
)
from turnkeeper.procedures.surprise import SurpriseResult, SurpriseSituation
from turnkeeper.procedures.surprise import settle_surprise as settle_meeting
from turnkeeper.rules.schema import FaceEvent, Ruleset
from turnkeeper.tables import reaction
from turnkeeper.words import of_creature
from turnkeeper.world.sites import SiteLevel, Wanderers, roll_wanderers

__all__ = [
    "hungry_reaction_modifier",
    "roll_initiative",
    "settle_surprise",
]


def _best(members: tuple[Combatant, ...], stat: str, rules: Ruleset | None = None) -> int:
    """The best modifier of ``stat`` among the standing members; given ``rules``, it is a
    skill check, and a wearied member rolls it at the ruleset's penalty (EX-REST-3)."""
    standing = [m for m in members if m.standing] or list(members)

    def value(member: Combatant) -> int:
        wearied = rules is not None and Condition.WEARIED in member.conditions
        return member.stat(stat) + (rules.rest.wearied_skill if wearied and rules else 0)

    return max((value(m) for m in standing), default=0)


def _side_roll(state: CombatState, side: Side, rules: Ruleset, dice: DiceSource) -> Roll:
    expression = parse(rules.initiative.die)
    values = {name: _best(state.members(side), name) for name in expression.names}
    return expression.roll(dice, values)


def settle_surprise(
    state: CombatState,
    rules: Ruleset,
    dice: DiceSource,
    *,
    aware: frozenset[Side] = frozenset(),
    attackers: Side | None = None,
    surprised: frozenset[Side] | None = None,
    members: tuple[str, ...] = (),
    meeting: SurpriseSituation | None = None,
) -> list[CombatEvent]:
    """Who is surprised at the start of a fight, and the free round it gives.

    ``members``: those surprised alone, not their whole group (EX-SUR-4, "any who lose are
    surprised"): each loses the first round, where the rest of both sides act.

    ``surprised`` given: the referee (or the exploration procedure, EX-SUR-1 to EX-SUR-4)
    already knows. Otherwise, by the ruleset: ``in_six`` rolls d6 for each group not
    ``aware``, surprised on 1..2 (PG-SUR-1); ``opposed`` rolls the ``attackers``' best
    DEX/Sneak against the defenders' best WIS/Notice, each d20 + stat (a wearied member at
    the skill penalty, EX-REST-3), and the attackers surprise on a strictly higher total
    (CB-SUR-1); aware defenders, or no attackers named, are not surprised. A side alone in
    being surprised loses a full round to the other (PG-SUR-1, CB-SUR-1, EX-SUR-5); both
    surprised cancel out. ``movement`` (EX-SUR-1 to EX-SUR-4) settles the ``meeting`` (how
    the groups came together, the party's pace) by the shared procedure the dungeon turn
    uses, with the fighters' own DEX and WIS; with no meeting told, nobody is surprised.
    An undisciplined surprised group of non-player characters, on either side (hirelings
    and allies too), checks morale when the ruleset says so (CB-SUR-2).
    """
    rolls: list[Roll] = []
    method = rules.surprise.method
    reason = ""
    if surprised is None:
        found: set[Side] = set()
        if method == "opposed":
            # CB-SUR-1: the attackers try for surprise, DEX/Sneak against WIS/Notice; the
            # text has no other way, so with no attackers named nobody is surprised.
            if attackers is None:
                reason = "no side named as the attackers"
            elif other_side(attackers) in aware:
                reason = f"the {other_side(attackers).value} side is aware of the attackers"
            else:
                defenders = other_side(attackers)
                sneak = roll("d20", dice)
                notice = roll("d20", dice)
                rolls += [sneak, notice]
                stealth, keen = rules.surprise.stealth_stat, rules.surprise.notice_stat
                sneak_total = sneak.total + _best(state.members(attackers), stealth, rules)
                notice_total = notice.total + _best(state.members(defenders), keen, rules)
                if sneak_total > notice_total:
                    found.add(defenders)
        elif method == "in_six":
            for side in Side:
                if side in aware or not state.members(side):
                    continue
                thrown = roll("d6", dice)
                rolls.append(thrown)
                if thrown.total <= rules.surprise.chance_in_six:
                    found.add(side)
        elif meeting is not None:
            met = settle_meeting(rules.surprise, _fighters(state, rules, meeting), dice)
            found |= {Side.PARTY} if met.party_surprised else set()
            found |= {Side.OPPOSITION} if met.foes_surprised else set()
            members += _alone(met)
            rolls += met.rolls
            reason = f"{met.rule}: {met.reason}"
        surprised = frozenset(found)
    free_round = None
    if len(surprised) == 1 and rules.surprise.surprised_lose_round:
        (loser,) = surprised
        free_round = other_side(loser)
    events: list[CombatEvent] = [
        SurpriseSettled(
            surprised=tuple(s for s in Side if s in surprised),
            free_round=free_round,
            reason=reason,
            rolls=tuple(rolls),
            members=members if rules.surprise.surprised_lose_round else (),
        )
    ]
    # CB-SUR-2 speaks of "non-player characters", not of foes: the party's undisciplined
    # hirelings and allies check too (the foes first, as the only ones ever did).
    for side in (Side.OPPOSITION, Side.PARTY):
        if not rules.surprise.morale_when_surprised or side not in surprised:
            continue
        unruly = [c for c in state.members(side) if not c.disciplined and c.standing]
        if unruly and unruly[0].morale is not None:
            events.append(morale_check(tuple(c.name for c in unruly), unruly[0].morale, dice))
    return events


def _fighters(state: CombatState, rules: Ruleset, meeting: SurpriseSituation) -> SurpriseSituation:
    """The meeting with the fighters' skills: the stealthiest and keenest of each side (a
    wearied one at the skill penalty, EX-REST-3), and each one's Scout for EX-SUR-4."""
    stealth, keen = rules.surprise.stealth_stat, rules.surprise.notice_stat

    def each(side: Side) -> tuple[tuple[str, int], ...]:
        return tuple((c.name, _best((c,), keen, rules)) for c in state.members(side) if c.standing)

    party, foes = state.members(Side.PARTY), state.members(Side.OPPOSITION)
    return replace(
        meeting,
        party_stealth=_best(party, stealth, rules),
        party_notice=_best(party, keen, rules),
        party_notice_each=each(Side.PARTY),
        foe_stealth=_best(foes, stealth, rules),
        foe_notice=_best(foes, keen, rules),
        foe_notice_each=each(Side.OPPOSITION),
        foe_count=max(len(foes), 1),
    )


def _alone(met: SurpriseResult) -> tuple[str, ...]:
    """EX-SUR-4's "any who lose are surprised": those surprised while their side is not."""
    party = () if met.party_surprised else met.surprised_members
    return party + (() if met.foes_surprised else met.surprised_foes)


def hungry_reaction_modifier(rules: Ruleset, *, hungry: bool, won_surprise: bool) -> int:
    """EX-SUR-5: a hungry foe that won surprise is more inclined to attack at once.

    >>> from turnkeeper.rules.schema import RulesetInfo
    >>> rules = Ruleset(ruleset=RulesetInfo(name="x", title="x"))
    >>> hungry_reaction_modifier(rules, hungry=True, won_surprise=True)
    -2
    """
    return rules.surprise.hungry_reaction_modifier if hungry and won_surprise else 0


def _apply_pins(
    state: CombatState, order: tuple[tuple[str, ...], ...]
) -> tuple[tuple[str, ...], ...]:
    for name, place in state.pinned:
        order = pin_order(order, name, place)
    return order


def _names(state: CombatState, side: Side) -> tuple[str, ...]:
    return tuple(c.name for c in state.members(side))


def _sides_order(state: CombatState, first: Side | None) -> tuple[tuple[str, ...], ...]:
    if first is None:
        return (tuple(c.name for c in state.combatants),)
    return (_names(state, first), _names(state, other_side(first)))


def roll_initiative(
    state: CombatState,
    rules: Ruleset,
    dice: DiceSource,
    *,
    adjustment: int = 0,
    influence: int = 0,
    level: SiteLevel | None = None,
    leader_cha: int | None = None,
) -> list[CombatEvent]:
    """Initiative for the round about to start, with the effects of an overloaded face.

    ``adjustment`` is the referee's (TP-CBT-1 step 2); ``influence`` is the party's sway
    on the reaction roll of whatever the noise brings (TP-INI-1 face 1), and ``level`` the
    site level the fight is in, whose wandering table says what that is (None: no site);
    ``leader_cha`` the party leader's CHA, which that reaction roll adds (PG-REA-1).
    """
    if state.in_free_round and state.free_round is not None:
        # The surprise round: the side not surprised acts alone, no initiative rolled.
        return [
            InitiativeSettled(
                initiative=state.free_round, order=_sides_order(state, state.free_round)
            )
        ]
    method = rules.initiative.method
    if state.order and not rules.initiative.reroll_each_round and state.round > 1:
        # CB-RND-1, CB-INI-2: the order of sides holds for every later round.
        kept_face = None if method != "overloaded" else state.face
        return [InitiativeSettled(initiative=state.initiative, order=state.order, face=kept_face)]
    if method == "overloaded":
        return _overloaded(state, rules, dice, adjustment, influence, level, leader_cha)
    if method == "individual":
        return [_individual(state, rules, dice)]
    party, opposition = (
        _side_roll(state, Side.PARTY, rules, dice),
        _side_roll(state, Side.OPPOSITION, rules, dice),
    )
    first: Side | None
    if party.total != opposition.total:
        first = Side.PARTY if party.total > opposition.total else Side.OPPOSITION
    else:
        first = Side.PARTY if rules.initiative.ties == "party" else None
    return [
        InitiativeSettled(
            initiative=first,
            order=_apply_pins(state, _sides_order(state, first)),
            totals={"party": party.total, "opposition": opposition.total},
            rolls=(party, opposition),
        )
    ]


def _individual(state: CombatState, rules: Ruleset, dice: DiceSource) -> InitiativeSettled:
    expression = parse(rules.initiative.die)
    rolls: list[Roll] = []
    entries: list[tuple[int, int, int, tuple[str, ...]]] = []
    for index, member in enumerate(state.members(Side.PARTY)):
        values = {name: member.stat(name) for name in expression.names}
        thrown = expression.roll(dice, values)
        rolls.append(thrown)
        entries.append((thrown.total, 0, index, (member.name,)))
    opposition = _side_roll(state, Side.OPPOSITION, rules, dice)
    rolls.append(opposition)
    entries.append((opposition.total, 1, 0, _names(state, Side.OPPOSITION)))
    # Highest first; on a tie the party goes first (CB-INI-3, the project's default).
    entries.sort(key=lambda e: (-e[0], e[1], e[2]))
    order = tuple(names for *_, names in entries if names)
    totals = {names[0] if side == 0 else "opposition": total for total, side, _, names in entries}
    best_party = max((e[0] for e in entries if e[1] == 0), default=None)
    first = (
        Side.PARTY if best_party is not None and best_party >= opposition.total else Side.OPPOSITION
    )
    return InitiativeSettled(
        initiative=first, order=_apply_pins(state, order), totals=totals, rolls=tuple(rolls)
    )


def _noise(
    state: CombatState,
    rules: Ruleset,
    dice: DiceSource,
    influence: int,
    level: SiteLevel | None,
    leader_cha: int | None,
) -> FaceEffect:
    """TP-INI-1 face 1: something comes, from the encounter table at hand; its reaction roll,
    which the party may sway.

    In a site (``level``, the level the fight is in) the level's wandering table says who
    comes and how many, rolled as the dungeon die's face 1 rolls it (TP-DUN-1); out of a
    site, or on a level with no table, the event says the referee rolls one. The reaction is
    rolled at once (2d6 + the leader's CHA + the party's ``influence``) when the ruleset
    has a reaction table. The newcomers are recorded, not thrown into the fight: the
    referee brings them in (the project's reading, docs/rules.md TP-INI-1).
    """
    text = "noise attracts something"
    table = level.encounters if level is not None else None
    came: Wanderers | None = roll_wanderers(table, dice) if table is not None else None
    if came is not None and level is not None:
        many = of_creature(came.number.total, came.row.creature)
        text += f": {many} {'comes' if came.number.total == 1 else 'come'} (level {level.number}'s "
        text += "encounter table)"
    elif level is not None:
        text += f": level {level.number} has no encounter table, so the referee rolls one"
    else:
        text += ": not in a site: no encounter table at hand, so the referee rolls one"
    found = (came.table_roll, came.number) if came is not None else ()
    creature, number = (came.row.creature, came.number.total) if came else (None, None)
    if "reaction" not in rules.tables:
        return FaceEffect(
            face_event=FaceEvent.NOISE,
            text=text + "; the party may influence its reaction",
            creature=creature,
            number=number,
            rolls=found,
        )
    # PG-REA-1: the leader's CHA, as every reaction roll reads it; a fight on its own, with
    # no party to name a leader, is led by the party side's first member.
    party = state.members(Side.PARTY)
    if leader_cha is None:
        leader_cha = party[0].stat("CHA") if party else 0
    result = reaction(rules, dice, leader_cha, modifier=influence)
    sway = f", swayed {influence:+d}" if influence else ""
    return FaceEffect(
        face_event=FaceEvent.NOISE,
        text=f"{text}; its reaction{sway}: {result.result} ({result.total})",
        creature=creature,
        number=number,
        rolls=(*found, result.roll),
    )


def _overloaded(
    state: CombatState,
    rules: Ruleset,
    dice: DiceSource,
    adjustment: int,
    influence: int,
    level: SiteLevel | None,
    leader_cha: int | None,
) -> list[CombatEvent]:
    name = rules.initiative.overloaded_die
    if name not in rules.dice:
        raise RulesetError(f"initiative.overloaded_die: no overloaded die {name!r} in [dice]")
    die = rules.dice[name]
    thrown = roll(f"d{die.sides}", dice)
    face_number = max(1, min(die.sides, thrown.total + adjustment))
    face = die.faces[face_number]
    initiative = face.initiative
    events: list[CombatEvent] = [
        InitiativeSettled(
            initiative=initiative,
            order=_apply_pins(state, (tuple(c.name for c in state.combatants),)),
            rolled=thrown.total,
            adjustment=adjustment,
            face=face_number,
            face_event=face.event,
            label=face.label,
            rolls=(thrown,),
        )
    ]
    if face.event is FaceEvent.FATIGUE:
        # TP-INI-1 face 2: anyone in melee takes 1 damage.
        for combatant in state.combatants:
            if combatant.standing and state.in_melee(combatant):
                events.extend(damage_events(combatant, 1, rules, cause="fatigue"))
    elif face.event is FaceEvent.NOISE:
        events.append(_noise(state, rules, dice, influence, level, leader_cha))
    elif face.event in (FaceEvent.DUNGEON_REACTS, FaceEvent.ENVIRONMENT):
        events.append(
            FaceEffect(face_event=face.event, text="the dungeon reacts: an environmental effect")
        )
    elif face.event is FaceEvent.SECOND_WIND:
        events.append(
            FaceEffect(face_event=face.event, text="second wind: every party check gets +1")
        )
    return events
