"""What each role may see of a campaign: the referee's whole state, the party's view.

The party's view is built by ONE function, :func:`player_state`, from the state alone, so
every player response (the JSON state, the dashboard page) goes through the same filter.
Referee notes, encounter tables, hidden features, referee-only countdowns, monster stats,
the seed and the embedded ruleset never enter it.

The players' journal is what the characters perceive. :func:`player_log` picks the records
they may read: party-visible, not taken back by an undo (nor the undo itself), and seen at all
(a torch burning down a turn is not). :func:`player_record` shapes one: the event's party line
(:meth:`~turnkeeper.kernel.events.Event.describe_to_party`: a foe is hit or falls, never its
armour class or hit points; the torch gutters, never its turns left) and the rolls that line
may show, never the event's data (a party-visible event such as ``campaign.started`` embeds
the seed and the ruleset).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from turnkeeper.campaign import CampaignState, Recorded, Visibility
from turnkeeper.campaign.time_record import PartyLines, Stretch
from turnkeeper.clock.calendar import calendar, day_number
from turnkeeper.errors import NotFoundError
from turnkeeper.kernel.combat_state import Phase, Side
from turnkeeper.kernel.events import UNDO_EVENTS
from turnkeeper.kernel.events import undone_commands as _undone_commands
from turnkeeper.kernel.state import in_darkness
from turnkeeper.kernel.wilderness_state import WildernessState
from turnkeeper.procedures.parties import where
from turnkeeper.world.hexes import Hex
from turnkeeper.world.svg import LABELLED_HEXES, render_svg


class _View(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LightView(_View):
    """The party's light: what burns and how far it reaches (turns left are the referee's:
    a referee may set them in secret, EX-LIGHT-1)."""

    source: str | None
    radius_ft: int
    dark: bool


class RestView(_View):
    """Whether a rest is due (EX-REST-1) and why, and whether the party is resting."""

    due: bool
    reason: str | None
    resting: bool


class SuppliesView(_View):
    """Counted supplies and usage dice (PG-USE-1) the party carries."""

    counted: dict[str, int]
    dice: dict[str, int]


class CharacterView(_View):
    """A party member as the table sees them: who they are (class and level), hit points and
    conditions. No armour class: the players' pages show no one's."""

    name: str
    character_class: str = ""
    level: int = 1
    hp: int
    max_hp: int
    conditions: list[str]
    equipment: list[str] = []


class CountdownView(_View):
    """A countdown the party can see (visibility ``party``, DG-CD-3)."""

    name: str
    kind: str
    left: int
    length: int


class FeatureView(_View):
    """A wilderness feature the party has found: its name, hex and player-facing text."""

    id: str
    name: str
    hex: str
    text: str


class WildernessView(_View):
    """The party on the wilderness map: its hex, the hexes it has seen or been in, and the
    features it has found; nothing else of the map."""

    map: str
    width: int
    height: int
    position: str
    known: dict[str, str]
    visited: list[str]
    found: list[FeatureView]
    weather: str
    tp_spent: str


class CombatantView(_View):
    """One combatant in the tracker: the party's own hit points; a foe's name and state only."""

    name: str
    side: str
    hp: int | None
    max_hp: int | None
    conditions: list[str]


class AskedView(_View):
    """A roll asked of a character's player and not yet rolled: what, never the defence."""

    name: str
    roll: str
    stat: str
    number: int


class CombatView(_View):
    """The combat tracker as the party sees it: round, phase, who has initiative, the order
    of play; what the party's own members declared this round and who of them has yet to
    (the foes' plans are never in it: the party learns them as they are done)."""

    round: int
    phase: str
    initiative: str | None
    combatants: list[CombatantView]
    order: list[list[str]] = []
    declared: dict[str, str] = {}
    waiting: list[str] = []
    asked: list[AskedView] = []


class SeatView(_View):
    """A player's seat at a Dungeoneers table and the spotlight tokens it holds."""

    name: str
    tokens: int


class SceneView(_View):
    """The scene in play: its kind, round, whose turn, who holds the spotlight."""

    kind: str
    round: int
    turn: str
    spotlit: str | None
    players: list[str]
    votes: dict[str, str] = {}
    open_to_votes: bool = False


class PlayerState(_View):
    """Everything the party may know now: the payload of every player state response."""

    campaign: str
    party_name: str
    ruleset: str
    version: int
    date: str
    day: int
    light: LightView
    rest: RestView
    supplies: SuppliesView
    party: list[CharacterView]
    countdowns: list[CountdownView]
    site: dict[str, Any] | None
    wilderness: WildernessView | None
    combat: CombatView | None
    seats: list[SeatView]
    scene: SceneView | None


def player_state(state: CampaignState) -> PlayerState:
    """The party's view of ``state``: the one filter every player response goes through.

    >>> from turnkeeper.campaign import Journal, parse_party
    >>> from turnkeeper.rules.loader import preset
    >>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
    >>> view = player_state(Journal.start("Keep", preset("ex"), party, seed=1).state)
    >>> view.date, [c.name for c in view.party], view.site, view.light.dark
    ('1-01-01 08:00', ['Aldo'], None, True)
    """
    light, rest, combat, scenes = state.light, state.rest, state.combat, state.scenes
    scene = scenes.scene
    return PlayerState(
        campaign=state.name,
        party_name=state.company,
        ruleset=state.ruleset.name,
        version=state.version,
        date=state.date,
        day=state.day,
        light=LightView(source=light.source, radius_ft=light.radius_ft, dark=in_darkness(state)),
        rest=RestView(due=rest.due_at is not None, reason=rest.due_reason, resting=rest.resting),
        supplies=SuppliesView(counted=dict(state.supplies.counted), dice=dict(state.supplies.dice)),
        party=[
            CharacterView(
                name=c.name,
                character_class=c.character_class,
                level=c.level,
                hp=c.hp,
                max_hp=c.max_hp,
                conditions=list(c.conditions),
                equipment=list(c.equipment),
            )
            for c in state.party.characters
        ],
        countdowns=[
            CountdownView(name=c.name, kind=c.kind, left=c.left_at(state.now), length=c.length)
            for c in state.countdowns
            if c.visibility == Visibility.PARTY.value
        ],
        site=state.site.player_view() if state.site is not None else None,
        wilderness=_wilderness(state.wilderness) if state.wilderness is not None else None,
        combat=_combat(state) if combat is not None and combat.combatants else None,
        seats=[SeatView(name=s.name, tokens=s.tokens) for s in scenes.seats],
        scene=None
        if scene is None
        else SceneView(
            kind=scene.kind.value,
            round=scene.round,
            turn=scene.turn.value,
            spotlit=scene.spotlit,
            players=list(scene.players),
            votes=dict(scene.votes),
            # DG-SPOT-1: the players vote while the spotlight is theirs to give
            open_to_votes=not scene.free and scene.turn.value == "players" and not scene.spotlit,
        ),
    )


def _wilderness(wild: WildernessState) -> WildernessView:
    hexmap = wild.hexmap
    known = sorted(wild.seen | wild.visited | {wild.position}, key=lambda h: h.label)
    found = [
        FeatureView(id=f.id, name=f.name, hex=h.label, text=f.text)
        for h, f in hexmap.all_features()
        if f.id in wild.found
    ]
    return WildernessView(
        map=hexmap.name,
        width=hexmap.width,
        height=hexmap.height,
        position=wild.position.label,
        known={h.label: hexmap.terrain_at(h).key for h in known if h in hexmap},
        visited=sorted(h.label for h in wild.visited),
        found=found,
        weather=wild.weather_at(wild.position),
        tp_spent=str(wild.tp_spent),
    )


def _combat(state: CampaignState) -> CombatView:
    combat = state.combat
    assert combat is not None
    return CombatView(
        round=combat.round,
        phase=combat.phase.value,
        initiative=combat.initiative.value if combat.initiative is not None else None,
        combatants=[
            CombatantView(
                name=c.name,
                side=c.side.value,
                hp=c.hp if c.side is Side.PARTY else None,
                max_hp=c.max_hp if c.side is Side.PARTY else None,
                conditions=sorted(str(x) for x in c.conditions),
            )
            for c in combat.combatants
        ],
        order=[list(beat) for beat in combat.order],
        declared={
            d.actor: ", then ".join(str(a) for a in d.actions)
            for d in combat.declarations
            if combat.get(d.actor).side is Side.PARTY and not d.instant
        },
        waiting=list(combat.still_to_act(Side.PARTY)) if combat.phase is Phase.DECLARE else [],
        asked=[
            AskedView(name=a.name, roll=a.roll.value, stat=a.stat, number=a.number)
            for a in combat.asked
        ],
    )


def undone_commands(records: Iterable[Recorded]) -> frozenset[int]:
    """The commands an undo took back and no redo brought back, in a whole journal (the
    record keeps them)."""
    return _undone_commands(records)


def party_perceives(record: Recorded, undone: frozenset[int]) -> bool:
    """Whether the players' journal holds ``record``: a party-visible event of a command not
    undone, that is not an undo or a redo, and that the characters perceive at all."""
    event = record.event
    return (
        event.visibility is Visibility.PARTY
        and record.command not in undone
        and not isinstance(event, UNDO_EVENTS)
        and event.describe_to_party() is not None
    )


def perceived_by(lines: PartyLines, undone: frozenset[int]) -> Callable[[Recorded], bool]:
    """Which records the players of a party read in a world: those the party perceives
    (:func:`party_perceives`) of its own ``lines`` (:meth:`~turnkeeper.service.Campaigns.
    party_lines`: made while the time record was run for it, or before it split off for the
    party it left). Another party's delve is never theirs.

    >>> from turnkeeper.kernel.events import NoteMade
    >>> mine = PartyLines("Scouts", [(5, "Scouts"), (9, "Keep")], [], "Keep")
    >>> keep = perceived_by(mine, frozenset())
    >>> [keep(Recorded(seq, seq, 0, NoteMade(text="tracks"))) for seq in (3, 7, 9)]
    [False, True, False]
    """

    def keep(record: Recorded) -> bool:
        return party_perceives(record, undone) and record.seq in lines

    return keep


def player_log(records: Sequence[Recorded], since: int = 0) -> list[Recorded]:
    """The players' journal after seq ``since``, from the campaign's WHOLE journal
    (``records``): an undo later on takes back what its command recorded, so the undone
    commands are read from every record, not only the ones after ``since``.

    >>> from turnkeeper.campaign import Journal, Light, Undo, parse_party
    >>> from turnkeeper.rules.loader import preset
    >>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6\\n[supplies]\\ntorches = 1')
    >>> journal = Journal.start("Keep", preset("ex"), party, seed=1)
    >>> _ = journal.execute(Light("torch")), journal.execute(Undo())
    >>> [r.event.kind for r in journal.records], [r.event.kind for r in player_log(journal.records)]
    (['campaign.started', 'light.lit', 'command.undone'], ['campaign.started'])
    """
    undone = undone_commands(records)
    return [r for r in records if r.seq > since and party_perceives(r, undone)]


def referee_record(
    record: Recorded, state: CampaignState, undone: frozenset[int] | None = None
) -> dict[str, Any]:
    """A journal record for the referee: the whole record, its game date and its line; with
    ``undone`` (:func:`undone_commands` of the journal), whether an undo took it back."""
    out = record.to_record()
    out["date"] = calendar(record.at, state.ruleset.time)
    out["text"] = record.event.describe()
    if undone is not None:
        out["undone"] = record.command in undone
    return out


def referee_record_json(
    stored: str,
    record: Recorded,
    state: CampaignState,
    undone: frozenset[int],
    ascii_only: bool = False,
) -> str:
    """:func:`referee_record` as compact JSON, from the record's text as the store keeps it
    (``stored``, the JSON object of ``record``): that text is written as it is and only the
    date, the line and whether it was undone are made, so a whole log streams at about the
    cost of reading it. ``ascii_only`` escapes every non-ASCII character (JSON text outside
    strings is ASCII, so only strings change)."""
    extra = {
        "date": calendar(record.at, state.ruleset.time),
        "text": record.event.describe(),
        "undone": record.command in undone,
    }
    tail = json.dumps(extra, ensure_ascii=ascii_only, separators=(",", ":"))
    if ascii_only and not stored.isascii():
        stored = _NON_ASCII.sub(lambda m: json.dumps(m.group())[1:-1], stored)
    return stored[:-1] + "," + tail[1:]


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def player_record(record: Recorded, state: CampaignState) -> dict[str, Any]:
    """A party-visible record for players: the line the party reads and the rolls it may
    show, never the event's data. A record the characters do not perceive (pick records with
    :func:`player_log`) has an empty line."""
    if record.event.visibility is not Visibility.PARTY:
        raise ValueError(f"record {record.seq} is the referee's")
    line = record.event.describe_to_party()
    return {
        "seq": record.seq,
        "command": record.command,
        "at": record.at,
        "date": calendar(record.at, state.ruleset.time),
        "kind": record.event.kind,
        "visibility": record.event.visibility.value,
        "text": line or "",
        "rolls": [roll.text() for roll in record.event.rolls_to_party()] if line else [],
    }


PAGE_WINDOW_HEXES = 10_000
"""Maps of more hexes than this are drawn on a page as a window around the party."""

PAGE_WINDOW_RADIUS = 15
"""The radius, in hexes, of the window a page draws of a large map."""

#: A page's map writes hex numbers and symbols when it draws at most this many hexes: a page
#: is sent again on every command, and a phone reads it.
PAGE_LABELLED_HEXES = 4000

MAX_WINDOW_RADIUS = 500
"""The widest window the API draws on request, in hexes of radius."""


def map_svg(
    state: CampaignState,
    player: bool,
    around: Hex | None = None,
    radius: int | None = None,
    labels_up_to: int = LABELLED_HEXES,
) -> str:
    """The wilderness map as SVG: the referee's whole drawing, or with ``player`` only the
    hexes the party has seen or been in and the features it has found (as ``map show``);
    ``around`` and ``radius`` draw only a window (as ``map show --around --radius``)."""
    wild = state.wilderness
    if wild is None:
        raise NotFoundError(
            f"campaign {state.name!r} has no wilderness map: load one with "
            "`turnkeeper map load FILE --at HEX`"
        )
    if around is not None and around not in wild.hexmap:
        raise NotFoundError(f"hex {around.label} is off the map {wild.hexmap.name!r}")
    known = wild.seen | wild.visited | {wild.position}
    return render_svg(
        wild.hexmap,
        wild.position,
        known,
        player=player,
        found_features=set(wild.found),
        around=around,
        radius=radius,
        track=wild.track,
        labels_up_to=labels_up_to,
    )


def page_map_svg(state: CampaignState, player: bool) -> str:
    """The map a page shows: whole, or for a map of more than :data:`PAGE_WINDOW_HEXES`
    hexes a window of :data:`PAGE_WINDOW_RADIUS` around the party, so a page stays small
    (a 1000 x 1000 map drawn whole is megabytes; the API's map.svg still gives all of it)."""
    wild = state.wilderness
    if wild is not None and wild.hexmap.width * wild.hexmap.height > PAGE_WINDOW_HEXES:
        return map_svg(
            state,
            player,
            around=wild.position,
            radius=PAGE_WINDOW_RADIUS,
            labels_up_to=PAGE_LABELLED_HEXES,
        )
    return map_svg(state, player, labels_up_to=PAGE_LABELLED_HEXES)


# --- the referee's world view: every party and character on one timeline -----------------


class PartyOnTimeline(_View):
    """A party of the world: where and when it is, what it is doing, how far it lags."""

    name: str
    running: bool
    characters: list[str]
    date: str
    day: int
    behind_days: int
    lagging: bool
    where: str
    doing: str


class CharacterOnTimeline(_View):
    """A character (henchmen and hirelings too) and the party it is with."""

    name: str
    party: str
    date: str
    day: int
    behind_days: int
    where: str
    doing: str
    hp: int
    max_hp: int
    conditions: list[str]


class PlaceOnTimeline(_View):
    """A recorded change to a place of the world: what, by whom, when. The place is a site's
    area, with ``hex`` a map's hex (``site`` the map, ``area`` the hex), with ``weather`` the
    weather over a map's region (``site`` the map, ``area`` the region); ``place`` names it
    ("area 2 of Lair", "hex 0304 of Vale", "wilds of Vale")."""

    site: str
    level: int
    area: str
    hex: bool
    weather: bool = False
    place: str
    what: str
    party: str
    day: int
    date: str


class WorldCountdown(_View):
    """A world countdown: it ticks as the world's present passes."""

    name: str
    kind: str
    left: int
    length: int
    referee: bool


class Timeline(_View):
    """The referee's world view: every party and character on one timeline, the world's
    countdowns and the places parties changed. Never a player's: it shows every party."""

    campaign: str
    present: str
    present_day: int
    lag_warning_days: int
    parties: list[PartyOnTimeline]
    characters: list[CharacterOnTimeline]
    countdowns: list[WorldCountdown]
    places: list[PlaceOnTimeline]


def doing(state: CampaignState) -> str:
    """What the party run in ``state`` is doing, in a few words."""
    if state.fight_running and state.combat is not None:
        return f"fighting (round {state.combat.round})"
    if state.scenes.scene is not None:
        return f"in a {state.scenes.scene.kind.value} scene"
    if state.rest.resting:
        return "resting"
    if state.site is not None:
        if state.site.encounter is not None:
            return f"meeting {state.site.encounter.creature}"
        return f"exploring (turn {state.site.turns})"
    if state.whereabouts.doing:
        return state.whereabouts.doing
    if state.wilderness is not None:
        return "travelling"
    return "in downtime"


def timeline(state: CampaignState) -> Timeline:
    """The referee's world view of ``state``: the parties in the world's order (the one run now
    first), each character with its party, the world's countdowns, the changed places."""
    time = state.ruleset.time
    day = state.scales.day
    parties: list[PartyOnTimeline] = []
    characters: list[CharacterOnTimeline] = []
    for name in state.companies:
        lived = state.as_party(name)
        behind = state.present - lived.now
        days_behind = day_number(state.present, time) - lived.day
        here, now_doing = where(lived), doing(lived)
        parties.append(
            PartyOnTimeline(
                name=name,
                running=name == state.company,
                characters=[c.name for c in lived.party.characters],
                date=lived.date,
                day=lived.day,
                behind_days=days_behind,
                lagging=behind > time.lag_warning,
                where=here,
                doing=now_doing,
            )
        )
        characters.extend(
            CharacterOnTimeline(
                name=c.name,
                party=name,
                date=lived.date,
                day=lived.day,
                behind_days=days_behind,
                where=here,
                doing=now_doing,
                hp=c.hp,
                max_hp=c.max_hp,
                conditions=list(c.conditions),
            )
            for c in lived.party.characters
        )
    return Timeline(
        campaign=state.name,
        present=calendar(state.present, time),
        present_day=day_number(state.present, time),
        lag_warning_days=time.lag_warning // day,
        parties=parties,
        characters=sorted(characters, key=lambda c: (c.day, c.name)),
        countdowns=[
            WorldCountdown(
                name=c.name,
                kind=c.kind,
                left=c.left,
                length=c.length,
                referee=c.visibility == Visibility.REFEREE.value,
            )
            for c in state.countdowns
            if c.world
        ],
        places=_place_history(state),
    )


def _place_history(state: CampaignState) -> list[PlaceOnTimeline]:
    """Every change to a place of the world (areas, hexes, the weather over regions) in game
    time order, each with its party: the ledger's whole history, not only the latest."""
    time = state.ruleset.time
    changes: list[tuple[int, PlaceOnTimeline]] = [
        (
            p.at,
            PlaceOnTimeline(
                site=p.site,
                level=p.level,
                area=p.area,
                hex=p.hex,
                place=p.place,
                what=p.what,
                party=p.party,
                day=day_number(p.at, time),
                date=calendar(p.at, time),
            ),
        )
        for p in state.places
    ]
    changes += [
        (
            w.at,
            PlaceOnTimeline(
                site=w.map,
                level=0,
                area=w.region,
                hex=False,
                weather=True,
                place=w.place,
                what=w.what,
                party=w.party,
                day=day_number(w.at, time),
                date=calendar(w.at, time),
            ),
        )
        for w in state.weather_changes
    ]
    return [shown for _, shown in sorted(changes, key=lambda c: c[0])]


def stretch_data(
    stretch: Stretch, state: CampaignState, undone: frozenset[int], player: bool = False
) -> dict[str, Any]:
    """A stretch of a character's whereabouts as the CLI's and the API's JSON give it; for
    the players (``player``) the notes they perceive, in their words."""
    time = state.ruleset.time
    notes = [
        {
            "seq": r.seq,
            "date": calendar(r.at, time),
            "line": r.event.describe_to_party() if player else r.event.describe(),
        }
        for r in stretch.notes
        if not player or party_perceives(r, undone)
    ]
    return {
        "party": stretch.party,
        "from": calendar(stretch.since, time),
        "to": calendar(stretch.until, time),
        "days": day_number(stretch.until, time) - day_number(stretch.since, time) + 1,
        "where": stretch.where,
        "doing": stretch.doing,
        "with": list(stretch.company),
        "notes": notes,
        "lines": stretch.lines,
    }


def record_line(party: str, record: Recorded, state: CampaignState) -> dict[str, Any]:
    """One line of a character's own time record, as the CLI's and the API's JSON give it."""
    return {
        "seq": record.seq,
        "at": record.at,
        "date": calendar(record.at, state.ruleset.time),
        "party": party,
        "line": record.event.describe(),
    }
