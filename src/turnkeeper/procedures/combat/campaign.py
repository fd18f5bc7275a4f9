"""Combat inside a campaign: the party joins the fight, and every roll goes to the journal.

The command table hands the combat commands to :func:`decide_in_campaign`. The fight lives
in ``CampaignState.combat``; each round passes the ruleset's round length through the
campaign's scheduler with the draft's hooks, so light burns and countdowns of turns and days
tick in a fight; the end of a fight writes the characters' hit points and conditions back
to the party (PG-HP-1); the countdowns run in a fight as out of one: a round's end ticks
those that tick on combat rounds (DG-CD-1), a wound dealt or an action taken those that
listen for its taker's wounds or actions (DG-CD-4). The command table adds what a fight's
end means elsewhere (the site's encounter settled, the rest due at once, EX-REST-2).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from turnkeeper.dice import DiceSource
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import ActionKind, Combatant, CombatState, Condition, Side
from turnkeeper.kernel.events import Event
from turnkeeper.kernel.schedule import Draft, wait
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.combat.asking import AnswerRoll, AskRoll, decide_asking
from turnkeeper.procedures.combat.events import RoundBegan, RoundResolved
from turnkeeper.procedures.combat.outcomes import (
    ActionTaken,
    AttackMade,
    Damaged,
    MagicRolled,
    Moved,
)
from turnkeeper.procedures.combat.roster import encounter_foes
from turnkeeper.procedures.combat.round import (
    DOWN,
    Attack,
    BeginRound,
    Declare,
    StartCombat,
    decide_combat,
)
from turnkeeper.procedures.countdowns import round_ended, trigger
from turnkeeper.procedures.supplies import SupplyUsed, roll_usage
from turnkeeper.procedures.surprise import Meeting, SurpriseSituation, meeting_situation

__all__ = [
    "StartFight",
    "decide_in_campaign",
    "meeting_of",
    "party_combatants",
    "with_countdowns",
]

_CONDITIONS = {c.value: c for c in Condition}


@dataclass(frozen=True)
class StartFight:
    """Start a fight between the campaign's party and ``foes`` (CB-SIDE-1).

    Surprise: ``surprised`` by hand; else the site's pending encounter's (EX-SUR-5,
    PG-SUR-1, CB-SUR-1, carried from the dungeon turn); else the ruleset's method rolls,
    told how the groups met: the ``meeting`` and the party's ``mode`` (default: the mode of
    its last turn in the site, if any). See :func:`meeting_of`.
    No ``foes`` and an encounter pending: its creatures join, as many as were met, each on
    the stat line the site gives its occupants, else on the roster's defaults (1 HD, 4 hp,
    AC 10, a d6); occupants the site only describes in words must be named.
    """

    foes: tuple[Combatant, ...]
    allies: tuple[Combatant, ...] = ()
    surprised: frozenset[Side] | None = None
    aware: frozenset[Side] = frozenset()
    attackers: Side | None = None
    meeting: Meeting | None = None
    mode: str | None = None


def meeting_of(
    state: CampaignState, command: StartFight
) -> tuple[SurpriseSituation | None, frozenset[Side], Side | None]:
    """How the groups met, for the ruleset's surprise method: the meeting to settle by
    movement (EX-SUR-1 to EX-SUR-4), and the sides aware and attacking for the others.

    By movement, a meeting told with no pace known is met at the ruleset's risk (EX-SUR-4's
    contest); with neither told, a party whose pace the site knows has simply met the
    foes, and a party whose pace nobody knows is not surprised (the texts tie surprise by
    movement to a pace). In six (PG-SUR-1), foes in ambush were aware of the party; opposed
    (CB-SUR-1), they are the attackers.
    """
    rules = state.ruleset
    modes = rules.dungeon.movement
    mode_name = command.mode
    if mode_name is not None and mode_name not in modes:
        known = ", ".join(modes) or f"none in {rules.name}"
        raise IllegalCommandError(f"no movement mode {mode_name!r}; modes: {known}")
    if rules.surprise.method != "movement":
        if mode_name is not None:
            raise IllegalCommandError(
                f"{rules.name} does not settle surprise by the party's movement mode "
                f"(it rolls {rules.surprise.method.replace('_', ' ')}): leave out the mode"
            )
        if command.meeting is not Meeting.AMBUSH:
            return None, command.aware, command.attackers
        if command.attackers is Side.PARTY:
            raise IllegalCommandError(
                "foes in ambush are the attackers, not the party: leave out one of the two"
            )
        return None, command.aware | {Side.OPPOSITION}, Side.OPPOSITION
    if mode_name is None and state.site is not None:
        mode_name = state.site.last_mode
    meeting = command.meeting
    if meeting is None and mode_name is None:
        return None, command.aware, command.attackers
    situation = meeting_situation(
        meeting or Meeting.ENCOUNTER, mode_name, modes.get(mode_name) if mode_name else None
    )
    # EX-LIGHT-3: a party bearing light in a dark site never surprises what lurks there.
    visit = state.site
    situation = replace(
        situation,
        party_has_light=visit is not None and not state.light.dark,
        foes_in_darkness=visit is None or not visit.site.site.lit,
        party_aware=Side.PARTY in command.aware,
        foes_aware=Side.OPPOSITION in command.aware,
    )
    return situation, command.aware, command.attackers


def party_combatants(state: CampaignState) -> tuple[Combatant, ...]:
    """The party's characters who can fight, as combatants with their weapons' damage (PG-ATK-2)."""
    fighters = []
    for character in state.party.characters:
        conditions = frozenset(_CONDITIONS[c] for c in character.conditions if c in _CONDITIONS) - {
            Condition.SURPRISED
        }
        if {Condition.DEAD, Condition.UNCONSCIOUS} & conditions:
            continue
        fighters.append(
            Combatant(
                name=character.name,
                side=Side.PARTY,
                hp=character.hp,
                max_hp=character.max_hp,
                ac=character.ac,
                stats=dict(character.stats),
                character_class=character.character_class,
                level=character.level,
                save=character.save,
                damage=character.damage,
                attack_bonus=character.attack_bonus,
                coins=character.coins,
                conditions=conditions,
            )
        )
    return tuple(fighters)


def _start(state: CampaignState, command: StartFight, dice: DiceSource) -> list[Event]:
    surprised, reaction, alone = command.surprised, None, frozenset[str]()
    encounter = state.site.encounter if state.site is not None else None
    told = command.meeting is not None or command.mode is not None
    if told and surprised is not None:
        raise IllegalCommandError(
            "surprise is already given by hand: leave out how the groups met (meeting, mode)"
        )
    if told and encounter is not None:
        raise IllegalCommandError(
            f"surprise with {encounter.creature} was settled when they were met: leave out "
            "how the groups met (meeting, mode); foes named here (--monster, --foes) fight "
            "in their place, with that surprise"
        )
    meeting, aware, attackers = meeting_of(state, command)
    if encounter is not None:
        reaction = encounter.reaction
        if surprised is None and not encounter.party_surprised:
            alone = frozenset(encounter.surprised_members)  # EX-SUR-4: any who lose
        if surprised is None:
            surprised = frozenset(
                side
                for side, flag in (
                    (Side.PARTY, encounter.party_surprised),
                    (Side.OPPOSITION, encounter.foes_surprised),
                )
                if flag
            )
    foes = command.foes
    if not foes:
        if encounter is None:
            raise IllegalCommandError(
                "name the foes: --foes FILE or --monster 'Goblin:hd=1,hp=4,ac=12' "
                "(with no foes named, a fight starts from the site's pending encounter)"
            )
        if encounter.described:
            raise IllegalCommandError(
                f"the occupants met ({encounter.creature}) are described in the site's "
                "words, not counted: name the foes, e.g. --monster "
                "'Skeleton:hd=1,ac=7,count=4' (the surprise settled when they were met "
                "still holds)"
            )
        line = encounter.foes.line() if encounter.foes is not None else None
        foes = tuple(encounter_foes(encounter.creature, encounter.number, line))
    fighters = party_combatants(state)
    if not fighters and not command.allies:
        fates = ", ".join(
            c.name + (" dead" if not c.alive else " unconscious") for c in state.party.characters
        )
        raise IllegalCommandError(
            f"nobody in the party can fight ({fates}): bring one round with `heal NAME HP`, "
            "or name allies who fight for them (--ally)"
        )
    combatants = (*fighters, *command.allies, *foes)
    start = StartCombat(
        combatants=combatants,
        surprised=surprised,
        aware=aware,
        attackers=attackers,
        reaction=reaction,
        surprised_members=tuple(c.name for c in combatants if c.name in alone),
        meeting=meeting,
    )
    return list(decide_combat(CombatState(), start, state.ruleset, dice))


def _acted(event: Event) -> str | None:
    """Who took an action, if ``event`` is one taken (a blow, a move, a spell, a deed)."""
    if isinstance(event, AttackMade):
        return event.attacker
    if isinstance(event, Moved):
        return event.actor
    if isinstance(event, MagicRolled):
        return event.caster
    if isinstance(event, ActionTaken) and event.text != DOWN:
        return event.actor
    return None


def _ammunition(state: CampaignState, shooter: str) -> str | None:
    """PG-USE-1: the supply a ranged attack by ``shooter`` uses, or None when the ruleset
    names none or the shooter is not the party's (a foe's quiver is the referee's)."""
    item = state.ruleset.attack.ammunition
    if item is None or state.party.character(shooter) is None:
        return None
    return item


def _check_ammunition(state: CampaignState, command: Any) -> None:
    """PG-USE-1: a character shoots only with the ruleset's ammunition in the party's supplies."""
    shots: list[str] = []
    if isinstance(command, Attack) and command.ranged:
        shots.append(command.attacker)
    if isinstance(command, Declare) and any(a.kind is ActionKind.RANGED for a in command.actions):
        shots.append(command.actor)
    for shooter in shots:
        item = _ammunition(state, shooter)
        has = item is not None and (item in state.supplies.dice or state.supplies.count(item) > 0)
        if item is not None and not has:
            raise IllegalCommandError(
                f"{shooter} has no {item} to shoot (PG-USE-1: the party has none left): "
                f"attack in melee, or add some (supply add {item} --die d6)"
            )


def _shot(state: CampaignState, event: AttackMade, dice: DiceSource) -> Event | None:
    """PG-USE-1, "when a resource is used": a character's shot rolls its ammunition's usage
    die (a counted supply loses one); None where nothing is spent, or none is left (a shot
    declared before a friend's shot used the last)."""
    item = _ammunition(state, event.attacker) if event.ranged else None
    if item is None:
        return None
    why = f"{event.attacker}'s shot"
    if item in state.supplies.dice:
        return roll_usage(state, item, dice, reason=why)
    if state.supplies.count(item) > 0:
        return SupplyUsed(item=item, amount=1, reason=why)
    return None


def with_countdowns(draft: Draft, events: list[Event], dice: DiceSource) -> None:
    """Add the fight's ``events`` to ``draft``, each followed by the time and the countdown
    ticks it causes.

    A round's time passes through the scheduler with the draft's hooks as the round
    begins (PG-TIME-1, TP-TIME-1, CB-RND-1): a torch burns down at a turn's end and
    countdowns of turns and days tick there. DG-CD-1: a rapid countdown "ticks at the end
    of a combat round": once as each round is resolved. DG-CD-4: "Taking a wound or taking
    an action ticks the countdown by 1": each wound (damage of at least 1) ticks the
    countdowns listening for its taker's wounds as it lands; an actor's turn of actions
    ticks those listening for their actions once, at its first action (a turn of several
    things, TP-ACT-1, is one action taken)."""
    acted: set[str] = set()
    for event in events:
        if isinstance(event, RoundBegan):
            draft.add(event.model_copy(update={"scheduled": True}))
            wait(draft, event.seconds, dice)
            continue
        draft.add(event)
        if isinstance(event, AttackMade) and (spent := _shot(draft.state, event, dice)):
            draft.add(spent)
        if isinstance(event, RoundResolved):
            # DG-CD-1: "Ticks at the end of a combat round"; a fight's round ends resolved.
            draft.add(*round_ended(draft.state, "combat_round"))
            continue
        cause: tuple[str, str] | None = None
        if isinstance(event, Damaged) and event.amount > 0:
            cause = ("wound", event.target)
        elif (actor := _acted(event)) is not None and actor not in acted:
            acted.add(actor)
            cause = ("action", actor)
        if cause is not None:
            draft.add(*trigger(draft.state, *cause))


def decide_in_campaign(draft: Draft, command: Any, dice: DiceSource) -> None:
    """Add to ``draft`` the events a combat command causes in a campaign (rules: the
    state's ruleset); the draft's hooks are those that run while a fight's rounds pass."""
    state = draft.state
    if isinstance(command, StartFight):
        draft.add(*_start(state, command, dice))
        return
    combat = state.combat or CombatState()
    if isinstance(command, BeginRound) and command.level is None and state.site is not None:
        # TP-INI-1 face 1: the noise brings what the wandering table of the level the
        # fight is in sends (TP-DUN-1 face 1 rolls the same table).
        command = replace(command, level=state.site.current_level)
    if isinstance(command, BeginRound) and command.leader_cha is None:
        # PG-REA-1: the noise's reaction adds the leader's CHA, as a dungeon encounter's does.
        command = replace(command, leader_cha=state.party.leader_cha)
    if isinstance(command, AskRoll | AnswerRoll):
        with_countdowns(draft, list[Event](decide_asking(state, command)), dice)
        return
    _check_ammunition(state, command)
    with_countdowns(draft, list(decide_combat(combat, command, state.ruleset, dice)), dice)
