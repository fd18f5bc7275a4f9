"""The dungeon turn: ten minutes in a site, and the ruleset's turn procedure with them.

- EX-TIME-1: time in a site passes in 10-minute turns (``ruleset.time.turn_minutes``).
- Overloaded rulesets (TP-DUN-1, TP-DUN-2): the dungeon die is rolled at the start of every
  turn and its face, read from the ruleset's data, applies: an encounter, the dungeon rouses
  (an omen from the site's table), waning resources (the light is relit from the supplies,
  spell effects end), forced rest (the turn is a rest; food and water are eaten), slumber,
  a good encounter.
- Classic rulesets (EX-ENC-1 to EX-ENC-4): a wandering check every 2 turns, skipped off the
  lanes (EX-ENC-3), raised by noise or running (EX-ENC-4).
- Movement modes (EX-MOV-1 to EX-MOV-3): feet per turn, the map in hand or not (EX-MAP-1),
  halting at a door when running, and the rest running makes due (EX-REST-2).

Every roll lands in a referee-only event; the party sees what its characters perceive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from turnkeeper.dice import DiceSource, Roll, roll
from turnkeeper.errors import IllegalCommandError
from turnkeeper.files.names import check_name
from turnkeeper.kernel.events import Event, NoteMade, RollRecord, Visibility
from turnkeeper.kernel.schedule import Draft, wait
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.dungeon.encounter import (
    TurnSituation,
    meet_encounter,
    meet_occupants,
)
from turnkeeper.procedures.dungeon.events import (
    DungeonDieRolled,
    DungeonTurnTaken,
    EncounterEnded,
    GoodEncounterRolled,
    OmenRolled,
    PartyMapNoted,
    Perceived,
    SiteEntered,
    SiteLeft,
    SpellEffectsEnded,
    WanderingChecked,
    _visit,
)
from turnkeeper.procedures.dungeon.wandering import check_due, wandering_chance, wandering_check
from turnkeeper.procedures.light import waning_resources
from turnkeeper.procedures.rest import (
    forced_rest,
    forced_rest_waited,
    mark_fight,
    mark_running,
)
from turnkeeper.rules.schema import FaceEvent, MovementMode
from turnkeeper.tables import FaceResult, roll_overloaded
from turnkeeper.world.sites import Site
from turnkeeper.world.visits import MapNote, SiteVisit

__all__ = [
    "DungeonCommand",
    "EndEncounter",
    "EnterSite",
    "LeaveSite",
    "NoteMap",
    "Turn",
    "decide_dungeon",
    "dungeon_turn",
    "end_encounter",
    "enter_site",
    "leave_site",
    "note_map",
    "turn_check",
]

REFEREE = Visibility.REFEREE
_OMENS = {FaceEvent.DUNGEON_ROUSES, FaceEvent.ENVIRONMENT, FaceEvent.DUNGEON_REACTS}


def _records(*rolls: Roll) -> tuple[RollRecord, ...]:
    return tuple(RollRecord.of(r) for r in rolls)


# --- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class EnterSite:
    """Enter a site (at a level, optionally an area): the clock switches to dungeon turns."""

    site: Site
    level: int | None = None
    area: str | None = None


@dataclass(frozen=True)
class LeaveSite:
    """Leave the site the party is in."""


@dataclass(frozen=True)
class Turn:
    """One dungeon turn: ``turnkeeper turn [--mode M] [--noisy] [--skip-check]``.

    ``door``: the party comes to a door or barrier this turn (EX-MOV-3 halts a running
    party). ``level`` and ``area`` move the party's position (areas may be off the lanes,
    occupied, or offer a hiding place). ``hide``: hide from what is heard coming (EX-ENC-5).
    ``both_unaware``: the referee judges that the party and what it meets come on each other
    unawares (EX-SUR-4: both may be surprised), so nobody hides. ``ambush``: what the party
    meets this turn leaps on it from ambush (EX-SUR-1, the one way a cautious party is
    surprised). Moving into an occupied area, the party meets its occupants (EX-SUR-1 to
    EX-SUR-3) unless a wandering encounter came first.
    """

    mode: str | None = None
    noisy: bool = False
    skip_check: bool = False
    door: bool = False
    level: int | None = None
    area: str | None = None
    hide: bool = True
    both_unaware: bool = False
    ambush: bool = False


@dataclass(frozen=True)
class NoteMap:
    """The party's mapper writes on the party's map (EX-MAP-2): ``site map note TEXT``.

    ``level`` and ``area`` default to where the party stands; ``area`` is the party's own
    label and is not checked against the true map (that would tell what is there).
    """

    text: str
    area: str | None = None
    level: int | None = None


@dataclass(frozen=True)
class EndEncounter:
    """Hand back from an encounter (or combat) to exploring."""

    fought: bool = False


DungeonCommand = EnterSite | LeaveSite | Turn | EndEncounter | NoteMap


def decide_dungeon(draft: Draft, command: DungeonCommand, dice: DiceSource) -> None:
    """Dispatch a dungeon command to its procedure (for the command table's ``decide``)."""
    state = draft.state
    if isinstance(command, EnterSite):
        draft.add(*enter_site(state, command.site, command.level, command.area))
    elif isinstance(command, LeaveSite):
        draft.add(*leave_site(state))
    elif isinstance(command, EndEncounter):
        end_encounter(draft, dice, command.fought)
    elif isinstance(command, NoteMap):
        draft.add(*note_map(state, command))
    else:
        dungeon_turn(draft, command, dice)


# --- procedures ---------------------------------------------------------------------------


def enter_site(
    state: CampaignState, site: Site, level: int | None = None, area: str | None = None
) -> list[Event]:
    """The party enters ``site``: referee's record of the site, the party's arrival."""
    if state.site is not None:
        raise IllegalCommandError(
            f"the party is already in {state.site.site.name}: leave it first (`site leave`)"
        )
    state.check_able(f"enter {site.name}")
    number = site.levels[0].number if level is None else level
    chosen = site.level(number)
    if area is not None:
        chosen.area(area)
        # one order of events, place by place: the area it enters by, not the whole site
        state.check_in_order(site.name, number, area)
    title = f"level {number}" + (f", {chosen.name}" if chosen.name else "")
    seen = f"The party enters {site.name} ({title})."
    if chosen.description:
        seen += f" {chosen.description}"
    return [
        SiteEntered(site=site, level=number, area=area),
        Perceived(text=seen),
    ]


def leave_site(state: CampaignState) -> list[Event]:
    """The party leaves its site."""
    visit = _visit(state)
    return [SiteLeft(name=visit.site.name, turns=visit.turns)]


def note_map(state: CampaignState, command: NoteMap) -> list[Event]:
    """EX-MAP-2: add the party's note to the party's map, as written; nothing is corrected."""
    visit = _visit(state)
    text = command.text.strip()
    if not text:
        raise IllegalCommandError('a map note needs some text: `site map note "what you saw"`')
    area = (
        visit.area
        if command.area is None
        else check_name(command.area, "area", IllegalCommandError)
    )
    level = visit.level if command.level is None else command.level
    return [PartyMapNoted(note=MapNote(text=text, level=level, area=area))]


def end_encounter(draft: Draft, dice: DiceSource, fought: bool = False) -> None:
    """Back to exploring after an encounter; a fight makes a rest due (EX-REST-2).

    An encounter met in a turn stopped the turn's time at the meeting: the rest of that
    turn is the encounter's, and passes now (EX-TIME-1: a turn is ten minutes; TP-TIME-2:
    every turn is recorded), so the turn's light burns and its rest cadence counts after
    the meeting, not before it. A fight's end settles the encounter with no more time: its
    rounds were the encounter's time, and the rest it makes due follows at once."""
    encounter = _visit(draft.state).encounter
    if encounter is None:
        raise IllegalCommandError("no encounter is under way")
    draft.add(EncounterEnded(fought=fought))
    ends = encounter.turn_ends
    if ends is not None and draft.state.now < ends:
        rest_of_turn = draft.fork(_QUIET)  # the turn was counted and checked when taken
        wait(rest_of_turn, ends - draft.state.now, dice)
        draft.join(rest_of_turn)
    _, mode = movement_mode(draft.state, None)
    if ends is not None and mode is not None and mode.rest_after:
        draft.add(*mark_running(draft.state))  # EX-REST-2: after the turn of running
    if fought:
        draft.add(*mark_fight(draft.state))


def movement_mode(state: CampaignState, name: str | None) -> tuple[str | None, MovementMode | None]:
    """The movement mode a turn uses (EX-MOV-1): ``name``, else the mode of the party's last
    turn in this site, else the ruleset's first; (None, None) in a ruleset without modes."""
    modes = state.ruleset.dungeon.movement
    if name is None:
        visit = state.site
        name = visit.last_mode if visit and visit.last_mode else next(iter(modes), None)
        return name, modes.get(name) if name else None
    if name not in modes:
        known = ", ".join(modes) or "none in this ruleset"
        raise IllegalCommandError(f"no movement mode {name!r}; modes: {known}")
    return name, modes[name]


def dungeon_turn(draft: Draft, command: Turn, dice: DiceSource) -> None:
    """One dungeon turn (EX-TIME-1) with the ruleset's turn procedure; see the module doc."""
    state = draft.state
    visit = _visit(state)
    if visit.encounter is not None:
        raise IllegalCommandError(
            f"an encounter with {visit.encounter.creature} is under way: fight it (combat) "
            "or go on exploring with `turnkeeper site resume`"
        )
    if command.both_unaware and state.ruleset.surprise.method != "movement":
        raise IllegalCommandError(
            "both sides unaware is the Exploration text's check (EX-SUR-4: everyone rolls "
            f"WIS/Scout against a difficulty); {state.ruleset.name} settles surprise "
            "otherwise: leave out --both-unaware"
        )
    mode_name, mode = movement_mode(state, command.mode)
    level_number = visit.level if command.level is None else command.level
    level = visit.site.level(level_number)
    area_key = command.area if command.area is not None else visit.area
    if command.level is not None and command.area is None and level_number != visit.level:
        area_key = None
    area = level.area(area_key) if area_key is not None else None
    can_read = not state.light.dark or visit.site.site.lit
    if mode is not None and mode.reads_map:
        _check_map_reading(visit, mode_name, level_number, area_key, can_read)
    # TP-DUN-1: the die is rolled at the start of the turn it governs; a Forced Rest face
    # makes the turn a rest where the party stays put, so it must be known before the move.
    overloaded = state.ruleset.dungeon.procedure == "overloaded"
    rolled = (
        roll_overloaded(state.ruleset.dice[state.ruleset.dungeon.die], dice) if overloaded else None
    )
    resting = rolled is not None and rolled.face.event is FaceEvent.FORCED_REST
    if resting:
        level_number, area_key = visit.level, visit.area
        area = level.area(area_key) if area_key is not None else None
    # The turn passes below; the dungeon hook must not check this turn a second time.
    this_turn = draft.fork(_QUIET)
    turn = visit.turns + 1
    this_turn.add(
        DungeonTurnTaken(
            turn=turn,
            mode=mode_name,
            feet=mode.feet_per_turn if mode and not resting else None,
            map_use=(mode.map_use if mode else True) and can_read,  # EX-MAP-1
            halted_at_door=command.door and bool(mode and mode.halts_at_doors) and not resting,
            noisy=command.noisy,
            level=level_number,
            area=area_key,
            resting=resting,
        )
    )
    hiding = command.hide and bool(area and area.hiding_place) and not command.both_unaware
    off_lanes = command.skip_check or bool(area and area.off_lanes)
    entering = (level_number, area_key) != (visit.level, visit.area) and not resting
    if entering and area_key is not None:
        state.check_in_order(visit.site.name, level_number, area_key)
    cleared = state.cleared(visit.site.name, level_number, area_key)
    occupied = bool(area and (area.occupied or area.occupants)) and not cleared
    situation = TurnSituation(
        mode_name,
        mode,
        hiding,
        occupied,
        command.both_unaware,
        command.ambush,
        turn_ends=state.now + state.scales.turn,
    )
    rested = turn_check(this_turn, dice, turn, situation, command.noisy, off_lanes, rolled)
    # EX-SUR-2, EX-SUR-3: moving into an occupied place meets whoever dwells there; one
    # encounter at a time, so a wandering one met as the party comes in is met instead.
    if entering and cleared:
        this_turn.add(Perceived(text=f"Area {area_key} has been cleared: no one dwells here now."))
    site_now = this_turn.state.site
    if area is not None and occupied and entering and site_now and site_now.encounter is None:
        meet_occupants(this_turn, dice, situation, area)
    # The time record stops where the groups meet (TP-TIME-2): the rest of the turn is the
    # encounter's, played out by the referee (a fight's rounds pass their own time; going
    # on exploring passes what is left of it), so no light burns out behind the meeting.
    met = this_turn.state.site is not None and this_turn.state.site.encounter is not None
    if not rested and not met:
        wait(this_turn, this_turn.state.scales.turn, dice)
    if mode is not None and mode.rest_after and not resting and not met:
        # EX-REST-2: at once, after the turn (a turn stopped at a meeting ends after it)
        this_turn.add(*mark_running(this_turn.state))
    draft.join(this_turn)


_QUIET = frozenset({"dungeon"})


def _check_map_reading(
    visit: SiteVisit, mode_name: str | None, level: int, area: str | None, can_read: bool
) -> None:
    """EX-MOV-2: a swift party "is merely reading their map as it ventures through an area
    they have already explored"; EX-MAP-1: it may consult its map unless "there is not
    enough light to read". A turn at such a pace into a place the party has not been, or
    with no light to read by, is refused, and the referee told what to do instead."""
    if not can_read:
        raise IllegalCommandError(
            f"a {mode_name} party goes by reading its map, and there is not enough light to "
            "read (EX-MOV-2, EX-MAP-1): light a torch or lamp first (`light torch`), or move "
            "cautiously (`--mode cautious`)"
        )
    if (level, area) not in visit.visited:
        place = f"area {area}" if area is not None else f"level {level}"
        where = f" --area {area}" if area is not None else f" --level {level}"
        raise IllegalCommandError(
            f"a {mode_name} party goes only through areas it has already explored, reading "
            f"its map (EX-MOV-2): it has not been in {place}; explore it cautiously first "
            f"(`turn --mode cautious{where}`), or run (`--mode running`)"
        )


def turn_check(
    draft: Draft,
    dice: DiceSource,
    turn: int,
    situation: TurnSituation,
    noisy: bool = False,
    off_lanes: bool = False,
    rolled: FaceResult | None = None,
    waiting: bool = False,
) -> bool:
    """The ruleset's check for site turn ``turn``; True if the turn was spent resting.

    Overloaded (TP-DUN-1, TP-DUN-2): the dungeon die and its face. Classic (EX-ENC-1 to
    EX-ENC-4): the wandering check when ``turn`` is due, skipped off the lanes (EX-ENC-3).
    The turn command and the wait's dungeon hook both come here; a forced rest's turn
    leaves out the hooks the draft is quiet about. ``rolled``: the dungeon die the turn
    command rolled at the turn's start. ``waiting``: the turn passes in a wait, so a forced
    rest is that waited turn (its food and water eaten), not a turn more.
    """
    rules = draft.state.ruleset.dungeon
    if rules.procedure == "overloaded":
        return _overloaded_face(draft, dice, situation, rolled, waiting)
    if not (_visit(draft.state).site.site.wandering and check_due(turn, rules.check_every_turns)):
        return False
    chance = wandering_chance(rules, situation.mode_name, noisy)
    if off_lanes:
        why = "the party keeps off the lanes of traffic (EX-ENC-3)"
        draft.add(WanderingChecked(chance=chance, sides=rules.check_die, skipped=why))
        return False
    check = wandering_check(rules, chance, dice)
    draft.add(
        WanderingChecked(
            chance=chance,
            sides=rules.check_die,
            encounter=check.encounter,
            rolls=_records(check.roll),
            visibility=REFEREE,
        )
    )
    if check.encounter:
        meet_encounter(draft, dice, situation)
    return False


def _overloaded_face(
    draft: Draft,
    dice: DiceSource,
    situation: TurnSituation,
    rolled: FaceResult | None = None,
    waiting: bool = False,
) -> bool:
    """Roll the dungeon die (unless ``rolled``) and apply its face; True if the turn was
    spent resting."""
    state = draft.state
    result = rolled or roll_overloaded(state.ruleset.dice[state.ruleset.dungeon.die], dice)
    face = result.face
    draft.add(
        DungeonDieRolled(
            face=result.number,
            event=face.event,
            label=face.label,
            rolls=_records(result.roll),
        )
    )
    if face.event is FaceEvent.ENCOUNTER:
        meet_encounter(draft, dice, situation)
    elif face.event in _OMENS:
        _from_table(draft, dice, "omens", OmenRolled)
    elif face.event is FaceEvent.GOOD_ENCOUNTER:
        _from_table(draft, dice, "good", GoodEncounterRolled)
    elif face.event is FaceEvent.WANING_RESOURCES:
        draft.add(*waning_resources(draft.state, dice))
        draft.add(SpellEffectsEnded())
    elif face.event is FaceEvent.FORCED_REST:
        if waiting:
            forced_rest_waited(draft, dice)
        else:
            forced_rest(draft, dice)
        return True
    return False


def _from_table(
    draft: Draft,
    dice: DiceSource,
    table_name: Literal["omens", "good"],
    event: type[OmenRolled] | type[GoodEncounterRolled],
) -> None:
    level = _visit(draft.state).current_level
    table = getattr(level, table_name)
    if table is None:
        text = f"level {level.number} has no {table_name} table: the referee improvises"
        draft.add(NoteMade(text=text, visibility=REFEREE))
        return
    got = roll(table.dice, dice)
    row = table.row_for(got.total)
    draft.add(event(text=row.text, notes=row.notes, rolls=_records(got)))
    if row.text:
        draft.add(Perceived(text=row.text))
