"""The wilderness die on its schedule, and the watches that TP spent take (TP-WENC-1..4).

- TP-TIME-1: each TP spent is a watch on the clock, passed through the core's scheduler.
- TP-WENC-1: travelling, the die is rolled after half the day's TP, and at the night camp.
- TP-WENC-2: exploring, after the first TP, after the last, and at the night camp.
- TP-WENC-3: faces swapped by the referee's milieu, by the terrain when the die has a milieu
  of that name (a desert), and at the night camp.
- TP-WENC-4: faces 1 and 6 halt the journey for the referee's encounter; face 2 finds a
  hidden feature (TP-DISC-2); face 3 is paid from the supplies or by foraging the next TP;
  face 4 rolls new weather.

A wait that passes a night on the wilderness map without the ``camp`` command still makes
the night camp's roll: :data:`NIGHT_CAMP_HOOK` rolls the die at the midnight the wait
passes, unless this night's camp die was already rolled (``camp_rolled``, set by any
``camp`` roll), so the ``camp`` command's own overnight wait never rolls twice. Travel and
search leave the hook out (their watches are not a camp).

TP-WIL-1's travel points are the day's: a travel day lasts from its morning (the morning the
party broke camp, or when the map was laid out) to the same hour the next day. Time that
passes the next morning with no ``camp`` made (a wait, days in a site) begins a new travel
day with its full TP: :data:`TRAVEL_DAY_HOOK` at each watch's end a wait passes, and
:func:`begin_travel_day` before any TP is spent, for a morning that falls between watches.
Travel and search leave that hook out as well: a move's TP are paid on the day it was made.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import floor
from typing import Literal

from turnkeeper.clock.boundaries import Boundary
from turnkeeper.clock.calendar import day_number
from turnkeeper.dice import DiceSource, roll
from turnkeeper.kernel.events import Event, RollRecord
from turnkeeper.kernel.schedule import Draft, Hook, wait
from turnkeeper.kernel.state import CampaignState, night_of, wilderness_of
from turnkeeper.kernel.wilderness_state import Movement, WildernessState
from turnkeeper.procedures.supplies import consume
from turnkeeper.procedures.wilderness.costs import daily_tp
from turnkeeper.procedures.wilderness.discovery import find_one_hidden
from turnkeeper.procedures.wilderness.events import (
    ForageOwed,
    Moment,
    TravelDayBegan,
    TravelPointsSpent,
    WildEncounter,
    WildernessDieRolled,
)
from turnkeeper.procedures.wilderness.weather import roll_weather
from turnkeeper.rules.schema import Face, FaceEvent

Waning = Literal["supplies", "forage"]


def _wild(draft: Draft) -> WildernessState:
    return wilderness_of(draft.state)


def _daily(draft: Draft) -> int:
    return daily_tp(draft.state.ruleset, _wild(draft).vessel)


# --- the clock and the die's schedule ----------------------------------------------------


def _thresholds(daily: int) -> dict[str, Fraction]:
    """TP-WENC-1/-2: after the first TP, after half of them, after all of them."""
    return {"first": Fraction(1), "half": Fraction(daily, 2), "last": Fraction(daily)}


def _place_milieu(draft: Draft, faces_of: dict[str, dict[int, Face]]) -> str | None:
    wild = _wild(draft)
    if wild.milieu is not None:
        return wild.milieu
    terrain = wild.hexmap.terrain_at(wild.position).key
    return terrain if terrain in faces_of else None


def roll_wilderness_die(draft: Draft, moment: Moment, dice: DiceSource, waning: Waning) -> bool:
    """Roll the wilderness die (TP-WENC-4) at ``moment`` and play its face; True to halt."""
    rules = draft.state.ruleset
    die = rules.dice.get(rules.wilderness.die)
    if die is None:
        return False
    milieu = _place_milieu(draft, die.milieus)
    faces = {**die.faces, **(die.milieus.get(milieu, {}) if milieu else {})}
    if moment == "camp" and "night_camp" in die.milieus:
        faces.update(die.milieus["night_camp"])
    rolled = roll(f"d{die.sides}", dice)
    face = faces[rolled.total]
    shown = ", ".join(m for m in (milieu, "night_camp" if moment == "camp" else None) if m)
    draft.add(
        WildernessDieRolled(
            moment=moment,
            face=rolled.total,
            event=face.event.value,
            label=face.label,
            milieu=shown or None,
            rolls=(RollRecord.of(rolled),),
        )
    )
    here = _wild(draft).position
    if face.event in (FaceEvent.ENCOUNTER, FaceEvent.GOOD_ENCOUNTER):
        good = face.event is FaceEvent.GOOD_ENCOUNTER
        draft.add(WildEncounter(good=good, hex=here, at_camp=moment == "camp", label=face.label))
        return True
    if face.event is FaceEvent.HIDDEN_SITE:
        found = find_one_hidden(draft.state, dice, "stumbled")
        draft.add(*found)
        return any(e.kind == "wilderness.features_found" for e in found)
    if face.event in (FaceEvent.WANING_RESOURCES, FaceEvent.FORCED_REST):
        _waning(draft, dice, waning)
    elif face.event in (FaceEvent.WEATHER_CHANGE, FaceEvent.ENVIRONMENT):
        draft.add(*roll_weather(draft.state, dice, by_die=True))
    return False


def _waning(draft: Draft, dice: DiceSource, waning: Waning) -> None:
    """TP-WENC-4 face 3: eat from the supplies if they suffice, else forage the next TP."""
    state = draft.state
    eaters = len(state.party.living)
    needs = {item: each * eaters for item, each in state.ruleset.rest.consumes.items()}
    enough = all(
        item in state.supplies.dice or state.supplies.count(item) >= need
        for item, need in needs.items()
    )
    if waning == "forage" or not enough:
        draft.add(ForageOwed())
        return
    for item, need in needs.items():
        draft.add(*consume(draft.state, item, need, dice, "waning resources"))


def pass_watches(draft: Draft, before: Fraction, dice: DiceSource) -> None:
    """TP-TIME-1: the TP spent since ``before`` pass as watches (1 TP = 4 hours) on the clock.

    Whole seconds are counted from the day's start, so fractions of a watch never drift.
    """
    watch = draft.state.scales.watch
    seconds = floor(_wild(draft).tp_spent * watch) - floor(before * watch)
    if seconds > 0:
        wait(draft, seconds, dice)


def _schedule(draft: Draft, movement: Movement) -> Sequence[str]:
    rules = draft.state.ruleset.wilderness
    return rules.explore_checks if movement is Movement.EXPLORE else rules.travel_checks


def next_check_in(draft: Draft, movement: Movement) -> Fraction | None:
    """TP until the next moment of the movement's schedule still to come today, or None.

    The die falls at that moment even in the middle of a move (a 3-TP hex explored: after
    its first TP), so a move is paid up to it, the die rolled, and then the rest paid.
    """
    rules = draft.state.ruleset
    if rules.dice.get(rules.wilderness.die) is None:
        return None
    wild = _wild(draft)
    thresholds = _thresholds(_daily(draft))
    ahead = [
        thresholds[moment] - wild.tp_spent
        for moment in _schedule(draft, movement)
        if moment in thresholds
        and moment not in wild.checks_done
        and thresholds[moment] > wild.tp_spent
    ]
    return min(ahead, default=None)


def checks(
    draft: Draft, before: Fraction, movement: Movement, dice: DiceSource, waning: Waning
) -> bool:
    """TP-WENC-1/-2: roll the die at each moment of the movement's schedule that the TP
    spent since ``before`` crossed (each once a day). True when the journey must halt."""
    wild = _wild(draft)
    schedule = _schedule(draft, movement)
    halt = False
    moments: tuple[Moment, ...] = ("first", "half", "last")
    thresholds = _thresholds(_daily(draft))
    for moment in moments:
        crossed = before < thresholds[moment] <= wild.tp_spent
        if moment in schedule and crossed and moment not in _wild(draft).checks_done:
            halt = roll_wilderness_die(draft, moment, dice, waning) or halt
    return halt


def forage(draft: Draft, dice: DiceSource, movement: Movement, waning: Waning) -> bool:
    """Spend the owed TP foraging (TP-WENC-4 face 3); False if no whole TP is left today."""
    wild = _wild(draft)
    if wild.tp_left(_daily(draft)) < 1:
        return False
    draft.add(TravelPointsSpent(amount=Fraction(1), on="forage"))
    pass_watches(draft, wild.tp_spent, dice)
    checks(draft, wild.tp_spent, movement, dice, waning)
    return True


# --- the night camp a wait passes ----------------------------------------------------------

NIGHT_CAMP = "night_camp"


def camps_at_night(state: CampaignState) -> bool:
    """TP-WENC-1/-2: the ruleset rolls the wilderness die at the night camp."""
    rules = state.ruleset.wilderness
    return "camp" in rules.travel_checks or "camp" in rules.explore_checks


def camp_rolled_tonight(state: CampaignState, at: int) -> bool:
    """True if the camp die of the night ``at`` belongs to has been rolled."""
    wild = state.wilderness
    return wild is not None and wild.camp_rolled == night_of(state, at)


def _night_frames(state: CampaignState) -> frozenset[str]:
    on_map = state.wilderness is not None and state.site is None
    return frozenset({"day"}) if on_map and camps_at_night(state) else frozenset()


def _night_passed(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
    """TP-WENC-1/-2: the party spends the night on the map: the night camp's roll, once."""
    if not camp_rolled_tonight(draft.state, boundary.at):
        roll_wilderness_die(draft, "camp", dice, "supplies")


def _night_breaks(events: Sequence[Event]) -> str | None:
    return "an encounter" if any(isinstance(e, WildEncounter) for e in events) else None


#: At each midnight a wait passes on the wilderness map: the night camp's die (TP-WENC-1/-2).
NIGHT_CAMP_HOOK = Hook(NIGHT_CAMP, _night_frames, _night_passed, _night_breaks)


# --- the travel day a wait passes ----------------------------------------------------------

TRAVEL_DAY = "travel_day"


def begin_travel_day(draft: Draft) -> None:
    """TP-WIL-1: if a morning has passed since today's travel began, a new travel day has
    begun with its full TP (the latest such morning is its start)."""
    wild = draft.state.wilderness
    if wild is None:
        return
    day = draft.state.scales.day
    morning = wild.day_started_at + (draft.state.now - wild.day_started_at) // day * day
    if morning > wild.day_started_at:
        draft.add(
            TravelDayBegan(morning=morning, day=day_number(morning, draft.state.ruleset.time))
        )


def _watch_frames(state: CampaignState) -> frozenset[str]:
    return frozenset() if state.wilderness is None else frozenset({"watch"})


def _watch_passed(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
    begin_travel_day(draft)


#: At each watch's end a wait passes with a wilderness map laid out: a new travel day's TP
#: once its morning has come (TP-WIL-1), camp or no camp.
TRAVEL_DAY_HOOK = Hook(TRAVEL_DAY, _watch_frames, _watch_passed)
