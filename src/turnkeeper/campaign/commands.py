"""The command table: what a referee (or a bot) asks for, and :func:`decide`, which turns a
command into events.

Commands are small frozen dataclasses; :data:`HANDLERS` maps each command type to its
procedure, and ``decide`` dispatches through it. The table sits above every procedure, so
no procedure needs to know another's commands. An illegal command raises
IllegalCommandError before any event exists, so it changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args

from pydantic import ValidationError

from turnkeeper.campaign.bounds import check_numbers, check_texts
from turnkeeper.campaign.hooks import FIGHT_HOOKS, HOOKS
from turnkeeper.dice import DiceSource, Roll, roll
from turnkeeper.errors import IllegalCommandError
from turnkeeper.files.names import MAX_INT, MAX_TEXT_LENGTH, check_number
from turnkeeper.kernel.combat_state import Combatant, Condition, Phase
from turnkeeper.kernel.events import (
    ClockAdvanced,
    CommandRedone,
    CommandUndone,
    Event,
    NoteMade,
    RollRecord,
    Visibility,
)
from turnkeeper.kernel.party import Monster
from turnkeeper.kernel.schedule import Draft
from turnkeeper.kernel.state import CampaignState, same_party
from turnkeeper.procedures import countdowns, days, hit_points, light, rest, supplies
from turnkeeper.procedures.combat import (
    AskingCommand,
    CombatCommand,
    CombatEnded,
    Healed,
    StartFight,
    damage_events,
    decide_in_campaign,
    fold_combat,
    settle,
    with_countdowns,
)
from turnkeeper.procedures.domains import DomainCommand, decide_domains
from turnkeeper.procedures.dungeon import DungeonCommand, EncounterEnded, decide_dungeon
from turnkeeper.procedures.factions import FactionCommand, decide_factions
from turnkeeper.procedures.haven import HavenTurn, haven_turn
from turnkeeper.procedures.parties import (
    BringAllForward,
    BringForward,
    CatchUp,
    Forward,
    HavenMonth,
    PartyCommand,
    SwitchParty,
    bring_all_forward,
    catch_up,
    decide_parties,
    switch,
)
from turnkeeper.procedures.scenes import SceneCommand, campaign_scene_events
from turnkeeper.procedures.wilderness import WildernessCommand, decide_wilderness


@dataclass(frozen=True)
class Wait:
    """Let game time pass (``parse_duration`` reads "3 turns", "2h"...)."""

    seconds: int


@dataclass(frozen=True)
class Light:
    """Light a source from the ruleset's ``light.sources`` (``torch``, ``lamp``)."""

    source: str


@dataclass(frozen=True)
class Douse:
    """Put the burning light out."""


@dataclass(frozen=True)
class SetLight:
    """The referee sets how many turns the burning light has left."""

    turns_left: int


@dataclass(frozen=True)
class Rest:
    """Spend a turn (or ``turns``) resting (EX-REST-1 to EX-REST-3)."""

    turns: int | None = None


@dataclass(frozen=True)
class ForcedRest:
    """TP-ENC-1 face 3: rest this turn and consume food and water."""


@dataclass(frozen=True)
class WaningResources:
    """TP-ENC-1 face 4: relight the light source from the supplies, or darkness."""


@dataclass(frozen=True)
class MarkRunning:
    """EX-REST-2: the party ran this turn; a rest is due at once."""


@dataclass(frozen=True)
class MarkFight:
    """EX-REST-2: the party fought; a rest is due at once."""


@dataclass(frozen=True)
class NightRest:
    """PG-HEAL-1: a meal and a night's rest of ``hours``; ``interrupted`` spoils the healing."""

    hours: int = 8
    interrupted: bool = False


@dataclass(frozen=True)
class UseSupply:
    """Use ``amount`` of an item by hand; a usage-die item rolls its die (PG-USE-1)."""

    item: str
    amount: int = 1


@dataclass(frozen=True)
class AddSupply:
    """Add ``amount`` of a counted item, or give a usage-die item its die (``die="d8"``)."""

    item: str
    amount: int = 0
    die: str | None = None


@dataclass(frozen=True)
class Damage:
    """PG-HP-1: a character or monster takes damage: a number, or dice rolled and recorded
    (a trap's ``2d6``). In a fight, a combatant takes it in the fight."""

    target: str
    amount: int | str
    reason: str = ""


@dataclass(frozen=True)
class Heal:
    """A character or monster heals (a number, or dice such as a potion's ``1d6+1``), never
    above its maximum."""

    target: str
    amount: int | str
    reason: str = ""


@dataclass(frozen=True)
class AddMonster:
    """A monster or NPC stat line joins the record."""

    monster: Monster


@dataclass(frozen=True)
class CountdownAdd:
    """Start ``kind(length)``: a number or a die (DG-CD-3), with an optional failure countdown."""

    name: str
    kind: str
    length: str
    failure: str | None = None
    visibility: Visibility = Visibility.PARTY
    subject: str | None = None
    listens: tuple[str, ...] = ()
    after_end: Literal["end", "wound"] = "end"
    world: bool = False


@dataclass(frozen=True)
class CountdownTick:
    """Tick a countdown by hand ``ticks`` times."""

    name: str
    ticks: int = 1


@dataclass(frozen=True)
class CountdownOutcome:
    """DG-FCD-1: a subtask's outcome: failure, partial, success, greater (or -2, -1, 0, +1)."""

    name: str
    outcome: str


@dataclass(frozen=True)
class CountdownEnd:
    """End a countdown by hand."""

    name: str


@dataclass(frozen=True)
class CountdownTrigger:
    """DG-CD-4: an extra trigger (``wound``, ``action``) for ``subject``, or for all."""

    trigger: str
    subject: str | None = None


@dataclass(frozen=True)
class Note:
    """Write a note into the time record."""

    text: str
    visibility: Visibility = Visibility.PARTY


@dataclass(frozen=True)
class Undo:
    """Undo the latest command that is not yet undone (recorded, not erased); ``what`` says
    what it was in the referee's words and ``by`` the party it was run as (the service fills
    both from the command's records: an undo sent as a party takes back that party's only)."""

    what: str = ""
    by: str = ""


@dataclass(frozen=True)
class Redo:
    """Take back the latest undo (recorded too): the command it undid is live again, as it
    was, its dice not rolled again. Only while nothing was done since the undo (a redo of
    an earlier undo follows a redo); ``what`` and ``by`` as for :class:`Undo`."""

    what: str = ""
    by: str = ""


@dataclass(frozen=True)
class AsParty:
    """``command`` for the party ``party`` alone: the time record turns to that party, runs
    the command and turns back to the party run before (each turn recorded, none where
    ``party`` is the one run now). Two tables can each run their own party in one world
    without a separate step, and neither moves the other's; ``party switch`` is the one way
    to change the party run."""

    party: str
    command: Command


Handler = Callable[[CampaignState, Any, DiceSource], list[Event]]


def _passing_time(procedure: Callable[[Draft, Any, DiceSource], None]) -> Handler:
    """The handler of a procedure that may pass time: it writes into a draft whose waits run
    the default hooks (light, rest, countdowns, the turn's and the night's checks). Time
    passes this way only while the party can go on (:func:`_may_pass_time`)."""

    def handler(state: CampaignState, command: Any, dice: DiceSource) -> list[Event]:
        draft = Draft(state, HOOKS)
        procedure(draft, command, dice)
        if any(isinstance(event, ClockAdvanced) for event in draft.events):
            _may_pass_time(state)
        return draft.events

    return handler


def _may_pass_time(state: CampaignState) -> None:
    """Raise IllegalCommandError where exploring, travel, rest or waiting cannot pass time:
    in a fight, whose time passes round by round (PG-TIME-1, TP-TIME-1, CB-RND-1) and where
    nobody explores or rests; or with nobody in the party able to act (PG-HP-1)."""
    if state.fight_running:
        raise IllegalCommandError(
            "a fight is running: its time passes round by round (`combat round`); "
            "end it first with `combat end`"
        )
    if not state.party.able:
        fates = ", ".join(
            f"{c.name} {'dead' if not c.alive else 'unconscious'}" for c in state.party.characters
        )
        raise IllegalCommandError(
            f"nobody in the party can act ({fates}): bring one round with `heal NAME HP`, "
            "or start a new campaign with `new`"
        )


def _wait(draft: Draft, command: Wait, dice: DiceSource) -> None:
    if command.seconds < 1:
        raise IllegalCommandError(f"wait at least 1 second, not {command.seconds}")
    if draft.state.site is None:  # days pass one way out of a site: meals, nights, no turns
        days.pass_days(draft, command.seconds, dice)
    else:
        rest.wait_resting(draft, command.seconds, dice)  # waiting is resting (EX-REST-1)


def _undo(state: CampaignState, command: Undo, dice: DiceSource) -> list[Event]:
    if state.undoable is None:
        raise IllegalCommandError("nothing to undo")
    # what the command said may be the referee's alone (a note, a foe's wound): the undo
    # that repeats it is the referee's record too (the players' journal drops both anyway)
    seen = Visibility.REFEREE if command.what else Visibility.PARTY
    return [CommandUndone(command=state.undoable, what=command.what, visibility=seen)]


def _redo(state: CampaignState, command: Redo, dice: DiceSource) -> list[Event]:
    if not state.redoable:
        raise IllegalCommandError(
            "nothing to redo: the last command was not an undo (a redo takes back the latest "
            "undo, while nothing was done since it)"
        )
    seen = Visibility.REFEREE if command.what else Visibility.PARTY
    return [CommandRedone(command=state.redoable[-1], what=command.what, visibility=seen)]


def _forward(dice: DiceSource) -> Forward:
    """Downtime for a party, sent as that party: how the parties' procedures bring one on."""
    return lambda state, party, days: _as_party(state, AsParty(party, BringForward(days)), dice)


def _haven(dice: DiceSource) -> HavenMonth:
    """A character's month at a haven, sent as their party."""
    return lambda s, party, who, what: _as_party(s, AsParty(party, HavenTurn(who, what)), dice)


def _note(state: CampaignState, command: Note, dice: DiceSource) -> list[Event]:
    if not command.text.strip():
        raise IllegalCommandError("a note needs some text")
    if len(command.text) > MAX_TEXT_LENGTH:
        raise IllegalCommandError(
            f"a note of {len(command.text):,} characters: notes are at most "
            f"{MAX_TEXT_LENGTH:,} characters; split it"
        )
    return [NoteMade(text=command.text, visibility=command.visibility)]


def _amount(amount: int | str, dice: DiceSource) -> tuple[int, tuple[Roll, ...]]:
    """Hit points given as a number, or as dice notation rolled now (the roll is recorded)."""
    if isinstance(amount, int):
        return amount, ()
    # ASCII digits only: "²" is a digit to isdigit and not a number to int.
    digits = amount.strip().lstrip("+-")
    if digits.isascii() and digits.isdigit():
        if len(digits.lstrip("0")) > 24:  # past the bound unread: int() stops at 4,300
            digits = f"{digits[:20]}... ({len(digits):,} digits)"
            raise IllegalCommandError(
                f"amount {digits}: a number is at most {MAX_INT:,} (2^63 - 1); give a smaller one"
            )
        return check_number(int(amount), "amount", IllegalCommandError), ()
    rolled = roll(amount, dice)
    return rolled.total, (rolled,)


def _in_the_fight(state: CampaignState, target: str) -> Combatant | None:
    fight = state.combat
    if fight is None or fight.phase is Phase.ENDED:
        return None
    return fight.find(target)


def _damage(state: CampaignState, command: Damage, dice: DiceSource) -> list[Event]:
    amount, rolls = _amount(command.amount, dice)
    combatant = _in_the_fight(state, command.target)
    if combatant is not None:
        if amount < 1:
            raise IllegalCommandError(f"damage must be at least 1, not {amount}")
        if Condition.DEAD in combatant.conditions:
            raise IllegalCommandError(f"{combatant.name} is already dead")
        wounds = damage_events(combatant, amount, state.ruleset, cause=command.reason, rolls=rolls)
        fight = fold_combat(wounds, state.combat)
        draft = Draft(state, FIGHT_HOOKS)
        with_countdowns(draft, [*wounds, *settle(fight, state.ruleset, dice)], dice)
        return _after_fight(state, draft.events)
    events = hit_points.damage(state, command.target, amount, command.reason)
    return _with_rolls(events, rolls)


def _heal(state: CampaignState, command: Heal, dice: DiceSource) -> list[Event]:
    amount, rolls = _amount(command.amount, dice)
    combatant = _in_the_fight(state, command.target)
    if combatant is not None:
        if amount < 1:
            raise IllegalCommandError(f"healing must be at least 1, not {amount}")
        if Condition.DEAD in combatant.conditions:
            raise IllegalCommandError(f"{combatant.name} is dead and cannot heal")
        hp = min(combatant.max_hp, combatant.hp + amount)
        healed = Healed(
            target=combatant.name, amount=hp - combatant.hp, hp_after=hp, cause=command.reason
        )
        return _with_rolls([healed], rolls)
    return _with_rolls(hit_points.heal(state, command.target, amount, command.reason), rolls)


def _with_rolls(events: list[Event], rolls: tuple[Roll, ...]) -> list[Event]:
    """The first event carries the dice that were rolled for it."""
    if not rolls or not events:
        return events
    first = events[0].model_copy(update={"rolls": tuple(RollRecord.of(r) for r in rolls)})
    return [first, *events[1:]]


def _fight(
    state: CampaignState, command: CombatCommand | AskingCommand | StartFight, dice: DiceSource
) -> list[Event]:
    """A combat command. A round's time passes with the fight's hooks
    (:data:`turnkeeper.campaign.hooks.FIGHT_HOOKS`)."""
    draft = Draft(state, FIGHT_HOOKS)
    decide_in_campaign(draft, command, dice)
    return _after_fight(state, draft.events)


def _after_fight(state: CampaignState, events: list[Event]) -> list[Event]:
    """``events`` and, when they end the fight (by `combat end`, or by a side falling),
    what that means elsewhere: the site's encounter is settled, so exploring and its
    wandering checks go on, and a rest is due at once (EX-REST-2)."""
    if not any(isinstance(event, CombatEnded) for event in events):
        return events
    if state.site is not None and state.site.encounter is not None:
        events.append(EncounterEnded(fought=True))
    events.extend(rest.mark_fight(state))
    return events


def _countdown_trigger(
    state: CampaignState, command: CountdownTrigger, dice: DiceSource
) -> list[Event]:
    events = countdowns.trigger(state, command.trigger, command.subject)
    if not events:
        whose = f" of {command.subject}" if command.subject else ""
        raise IllegalCommandError(
            f"no running countdown listens for {command.trigger!r}{whose}: start one with "
            "`countdown add ... --listens TRIGGER`, or see `countdown list`"
        )
    return events


HANDLERS: dict[type, Handler] = {
    Wait: _passing_time(_wait),
    Light: lambda s, c, d: light.light(s, c.source, d),
    Douse: lambda s, c, d: light.douse(s),
    SetLight: lambda s, c, d: light.set_light(s, c.turns_left),
    Rest: _passing_time(lambda draft, c, d: rest.take_rest(draft, d, "rest", c.turns)),
    ForcedRest: _passing_time(lambda draft, c, d: rest.forced_rest(draft, d)),
    WaningResources: lambda s, c, d: light.waning_resources(s, d),
    MarkRunning: lambda s, c, d: rest.mark_running(s),
    MarkFight: lambda s, c, d: rest.mark_fight(s),
    NightRest: _passing_time(
        lambda draft, c, d: hit_points.night_rest(draft, d, c.hours * 3600, c.interrupted)
    ),
    UseSupply: lambda s, c, d: supplies.use_supply(s, c.item, c.amount, d),
    AddSupply: lambda s, c, d: supplies.add_supply(s, c.item, c.amount, c.die),
    Damage: _damage,
    Heal: _heal,
    AddMonster: lambda s, c, d: hit_points.add_monster(s, c.monster),
    CountdownAdd: lambda s, c, d: countdowns.start_countdown(
        s,
        d,
        c.name,
        c.kind,
        c.length,
        c.failure,
        c.visibility,
        c.subject,
        c.listens,
        c.after_end,
        c.world,
    ),
    CountdownTick: lambda s, c, d: countdowns.tick(s, c.name, c.ticks),
    CountdownOutcome: lambda s, c, d: countdowns.outcome(s, c.name, c.outcome),
    CountdownEnd: lambda s, c, d: countdowns.end_countdown(s, c.name),
    CountdownTrigger: _countdown_trigger,
    Note: _note,
    Undo: _undo,
    Redo: _redo,
    BringAllForward: lambda s, c, d: bring_all_forward(s, _forward(d)),
    CatchUp: lambda s, c, d: catch_up(s, c, _forward(d), _haven(d)),
    **dict.fromkeys(get_args(SceneCommand), _passing_time(campaign_scene_events)),  # DG-LOOP-1
    **dict.fromkeys(get_args(DungeonCommand), _passing_time(decide_dungeon)),
    **dict.fromkeys(get_args(WildernessCommand), _passing_time(decide_wilderness)),
    **dict.fromkeys(get_args(PartyCommand), _passing_time(decide_parties)),
    **dict.fromkeys((*get_args(CombatCommand), *get_args(AskingCommand), StartFight), _fight),
    **dict.fromkeys(get_args(FactionCommand), lambda s, c, d: decide_factions(s, c)),
    **dict.fromkeys(get_args(DomainCommand), lambda s, c, d: decide_domains(s, c)),
    HavenTurn: _passing_time(haven_turn),
}

Command = (
    Wait | Light | Douse | SetLight | Rest | ForcedRest | WaningResources | MarkRunning | MarkFight
    | NightRest | UseSupply | AddSupply | Damage | Heal | AddMonster | CountdownAdd | CountdownTick
    | CountdownOutcome | CountdownEnd | CountdownTrigger | Note | Undo | Redo
    | SceneCommand | DungeonCommand | WildernessCommand | CombatCommand | AskingCommand
    | StartFight | PartyCommand | AsParty | BringAllForward | CatchUp | FactionCommand
    | HavenTurn | DomainCommand
)  # fmt: skip


def _as_party(state: CampaignState, command: AsParty, dice: DiceSource) -> list[Event]:
    """The events of ``command.command`` run as ``command.party``, between a turn of the time
    record to that party and a turn back to the party run now (where it is still a party of
    the world: a join may have made it one with another)."""
    inner = command.command
    if isinstance(inner, SwitchParty):
        raise IllegalCommandError(
            "`party switch` changes the party run for every command after it and takes no "
            f'--as: `party switch "{inner.name}"` alone'
        )
    if isinstance(inner, (Undo, Redo)) and inner.by and inner.by != command.party:
        # each table undoes and redoes its own: the latest command (or undo) was another's
        verb = "undo" if isinstance(inner, Undo) else "redo"
        article = "an" if isinstance(inner, Undo) else "a"
        latest = "command" if isinstance(inner, Undo) else "undo"
        raise IllegalCommandError(
            f"the latest {latest} was {inner.by}'s, not {command.party}'s: {article} {verb} "
            f"takes back the latest {latest} only, and {command.party}'s table may not {verb} "
            f'another\'s (`{verb} --as "{inner.by}"` is theirs to do)'
        )
    if isinstance(inner, (Undo, Redo)):
        return decide(state, inner, dice)  # it takes a command back: no party's time passes
    turned = switch(state, command.party)
    if not turned:
        return decide(state, inner, dice)
    there = turned[0].apply(state)
    events = decide(there, inner, dice)
    after = there
    for event in events:
        after = event.apply(after)
    home = state.company
    if same_party(home, after.company) or not any(home == p.name for p in after.away):
        return [*turned, *events]
    return [*turned, *events, *switch(after, home)]


def decide(state: CampaignState, command: Command, dice: DiceSource) -> list[Event]:
    """The events that follow from ``command`` now (rules: ``state.ruleset``); pure.

    Raises IllegalCommandError, changing nothing, when the rules do not allow it.
    """
    if isinstance(command, AsParty):
        return _as_party(state, command, dice)
    handler = HANDLERS.get(type(command))
    if handler is None:
        raise IllegalCommandError(f"unknown command {type(command).__name__}")
    check_numbers(command)
    try:
        events = handler(state, command, dice)
    except ValidationError:
        # an event's field bounds a text as a command does (kernel.events.Text): a text past
        # it that the procedure did not refuse itself is the command's, and said so
        check_texts(command)
        raise
    check_texts(command)
    if not events:
        raise IllegalCommandError(f"{type(command).__name__} changes nothing now")
    return events
