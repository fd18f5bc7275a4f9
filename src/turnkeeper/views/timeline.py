"""The referee's world view: every party and character on one timeline, the world's
countdowns, the places parties changed, and a character's own time record as the CLI's and
the API's JSON give it. Never a player's: it shows every party."""

from __future__ import annotations

from typing import Any

from turnkeeper.campaign import CampaignState, Recorded, Visibility
from turnkeeper.campaign.time_record import Stretch
from turnkeeper.clock.calendar import calendar, day_number
from turnkeeper.frozen import Strict
from turnkeeper.procedures.parties import where
from turnkeeper.views.journal import party_perceives


class PartyOnTimeline(Strict):
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


class CharacterOnTimeline(Strict):
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


class PlaceOnTimeline(Strict):
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


class WorldCountdown(Strict):
    """A world countdown: it ticks as the world's present passes."""

    name: str
    kind: str
    left: int
    length: int
    referee: bool


class Timeline(Strict):
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
