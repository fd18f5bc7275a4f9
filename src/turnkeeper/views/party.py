"""The party's view: what the players may know now of a campaign's state.

It is built by ONE function, :func:`player_state`, from the state alone, so every player
response (the JSON state, the dashboard page, a phone) goes through the same filter. Referee
notes, encounter tables, hidden features, referee-only countdowns, monster stats, the seed
and the embedded ruleset never enter it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from turnkeeper.campaign import CampaignState, Visibility
from turnkeeper.kernel.combat_state import Phase, Side
from turnkeeper.kernel.state import in_darkness
from turnkeeper.kernel.wilderness_state import WildernessState


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
