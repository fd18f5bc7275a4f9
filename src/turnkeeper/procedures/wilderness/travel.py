"""Wilderness travel by watches: moving, the wilderness die's schedule, camp (TP-WIL, TP-WENC).

- TP-WIL-1, TP-TIME-1: 4 TP a day, each a 4-hour watch; the clock advances by the TP spent
  (a 1/2-TP hex takes 2 hours), through the core's scheduler so every hook runs.
- TP-WIL-6: a move that does not fit in the TP left may be begun with them; the party stays
  in its hex, and the next day's first points finish it. A move that would need a third day
  is not begun: camp and start it fresh (from a fresh morning any passable hex is begun,
  which matters only when a ruleset's ``impassable_factor`` is above 2).
- TP-WIL-7: each hex costs its exact TP (a mounted party on a road enters 4 hexes with
  1 TP, in 4 hours), and a day's moves stop at twice the daily TP in movement points (8
  hexes), whatever TP remain: the party makes camp.
- TP-WIL-8: impassable hexes (:mod:`.costs`).
- TP-WIL-10: ``travel`` to a hex or a found feature needs a known destination; a step into a
  hex the party has never entered is exploration, and so is ``--explore``.
- TP-WENC-1, TP-WENC-2: the die is rolled when the day's spent TP crosses the moments of the
  movement's schedule (after half; after the first and after the last), and at the night camp;
  a move is paid up to such a moment and the die rolled there, so in a hex costing 3 TP the
  die after the first TP falls a third of the way in, the party still in its old hex.
- TP-WENC-3: faces swapped by the referee's milieu, the terrain (a desert), and the night camp.
- TP-WENC-4: encounters halt the journey for the referee; a hidden site is found (TP-DISC-2);
  waning resources are paid from supplies or by foraging the next TP; weather changes.
- TP-LOST-1 (the project's default): once a day, off road with no landmark in sight, a
  chance in six by terrain; a lost party drifts into the hex beside the one it meant.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from turnkeeper.dice import DiceSource, format_mixed
from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.files.names import check_name
from turnkeeper.kernel.events import Event, NoteMade
from turnkeeper.kernel.schedule import Draft
from turnkeeper.kernel.state import CampaignState, wilderness_of
from turnkeeper.kernel.wilderness_state import Movement, WildernessState
from turnkeeper.procedures.days import pass_days, put_out_the_light
from turnkeeper.procedures.hit_points import night_rest
from turnkeeper.procedures.wilderness.costs import (
    best_route,
    conditions_of,
    daily_tp,
    hex_cost_for,
    max_movement_points,
    vessel,
)
from turnkeeper.procedures.wilderness.die import (
    NIGHT_CAMP,
    TRAVEL_DAY,
    Waning,
    begin_travel_day,
    camp_rolled_tonight,
    camps_at_night,
    checks,
    forage,
    next_check_in,
    pass_watches,
    roll_wilderness_die,
)
from turnkeeper.procedures.wilderness.discovery import (
    enter_hex,
    find_all_day,
    find_named,
    find_one_hidden,
)
from turnkeeper.procedures.wilderness.events import (
    Camped,
    ConditionsSet,
    MapLoaded,
    MoveMade,
    SpentOn,
    TravelPointsSpent,
)
from turnkeeper.procedures.wilderness.lost import cost_here, lost_check
from turnkeeper.procedures.wilderness.reveal import RevealOnMap, reveal_on_map
from turnkeeper.procedures.wilderness.weather import roll_weather, set_weather
from turnkeeper.words import key_of, unknown
from turnkeeper.world.hexes import Direction, Hex
from turnkeeper.world.mapfile import MapFile


def _wild(draft: Draft) -> WildernessState:
    return wilderness_of(draft.state)


def _daily(draft: Draft) -> int:
    return daily_tp(draft.state.ruleset, _wild(draft).vessel)


# --- commands ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadMap:
    """Lay out a wilderness map and put the party on ``at``, in ``vessel`` if given (None
    keeps how it travels; an empty one goes on foot)."""

    map: MapFile
    at: Hex
    vessel: str | None = None


@dataclass(frozen=True)
class Travel:
    """Travel or explore toward ``target``: a direction (n, ne, se, s, sw, nw), a hex, or a
    found feature's id. ``party``/``vessel``/``milieu`` change the conditions first (None
    keeps them; an empty ``vessel`` or ``milieu`` clears them)."""

    target: str
    explore: bool = False
    party: tuple[str, ...] | None = None
    vessel: str | None = None
    milieu: str | None = None
    waning: Waning = "supplies"


@dataclass(frozen=True)
class Camp:
    """Make the night camp (the die is rolled, TP-WENC-1/-2) and sleep until morning."""

    waning: Waning = "supplies"


@dataclass(frozen=True)
class Search:
    """Search the party's hex: one hidden feature at random (1 TP), a named one (2 TP), or
    all day for secrets (TP-DISC-2, TP-DISC-3)."""

    feature: str | None = None
    all_day: bool = False
    waning: Waning = "supplies"


def load_map(state: CampaignState, command: LoadMap) -> list[Event]:
    """The map is embedded in the journal and the party placed on its start hex."""
    rules = state.ruleset
    loaded = MapLoaded(map=command.map, at=command.at, weather=rules.weather.start)
    after = loaded.apply(state)
    wild = wilderness_of(after)
    if command.at not in wild.hexmap:
        raise NotFoundError(
            f"hex {command.at.label if command.at.q >= 0 else command.at} is not on map "
            f"{command.map.name!r} ({command.map.width} x {command.map.height})"
        )
    boarded: list[Event] = []
    if command.vessel is not None:
        chosen = key_of(command.vessel, rules.travel.vessels) or None
        vessel(rules, chosen)  # an unknown vessel is one clear error
        if chosen != wild.vessel:
            boarded.append(ConditionsSet(party=wild.party, vessel=chosen, milieu=wild.milieu))
            wild = wilderness_of(boarded[0].apply(after))
    # A party put where it may not stand (a lake, x0) could never leave: every route from it
    # was "no passable route"
    terrain, road = wild.hexmap.terrain_at(command.at), wild.hexmap.road_at(command.at)
    weather = wild.weather_at(command.at, rules.weather.start)
    try:
        price = hex_cost_for(rules, terrain, road, weather, conditions_of(after), wild.vessel)
    except NotFoundError:
        # a ruleset without travel numbers for this hex (ex has no roads): travel says so
        price = None
    if price is not None and price.impassable:
        shown = "x0" if price.tp_per_hex is None else f"{price.tp_per_hex} TP a hex"
        raise IllegalCommandError(
            f"hex {command.at.label} is {terrain.key.replace('_', ' ')}, impassable ({shown}; "
            "TP-WIL-8): the party cannot stand there; put it on a hex it can enter "
            "(`map load FILE --at HEX`), or in a vessel that goes there (`--vessel`)"
        )
    radius = rules.wilderness.landmark_sight_hexes
    return [loaded, *boarded, enter_hex(wild, command.at, radius)]


def resolve_target(wild: WildernessState, target: str) -> tuple[Hex, bool]:
    """The hex a ``travel`` target names, and whether it is one step (a direction); a found
    feature by its id or its name, in any case (``travel "Ruined Tower"``)."""
    text = target.strip().lower()
    for direction in Direction:
        if text == direction.value:
            return wild.position.neighbour(direction), True
    for hex_, feature in wild.hexmap.all_features():
        named = text in (feature.id.lower(), feature.name.lower())
        if named and feature.id in wild.found:
            return hex_, False
    try:
        return Hex.parse(target), False
    except Exception:
        raise IllegalCommandError(
            f"{target!r} is not a direction (n, ne, se, s, sw, nw), a hex (0304 or q,r) or "
            "a feature the party has found"
        ) from None


def _conditions(draft: Draft, command: Travel) -> None:
    wild = _wild(draft)
    rules = draft.state.ruleset
    die = rules.dice.get(rules.wilderness.die)
    milieus = sorted(die.milieus) if die else []
    # each name as words or as its key, kept as its key
    party = (
        wild.party
        if command.party is None
        else tuple(key_of(p, rules.travel.party) for p in command.party)
    )
    chosen = (
        wild.vessel
        if command.vessel is None
        else (key_of(command.vessel, rules.travel.vessels) or None)
    )
    milieu = wild.milieu if command.milieu is None else (key_of(command.milieu, milieus) or None)
    if (party, chosen, milieu) == (wild.party, wild.vessel, wild.milieu):
        return
    vessel(rules, chosen)
    hex_cost_for(rules, "plains", party=party)  # an unknown party condition is one clear error
    if milieu is not None and milieu not in milieus:
        raise NotFoundError(unknown("milieu on the wilderness die", milieu, milieus, listing=True))
    draft.add(ConditionsSet(party=tuple(party), vessel=chosen, milieu=milieu))


def _movement(wild: WildernessState, goal: Hex, one_step: bool, explore: bool) -> Movement:
    """TP-WIL-10: travel needs a known destination; the uncharted is explored."""
    if explore:
        return Movement.EXPLORE
    if wild.pending is not None and goal == wild.pending.to:
        return wild.pending.movement  # finishing a move begun yesterday (TP-WIL-6)
    if one_step:
        return Movement.TRAVEL if wild.is_known_destination(goal) else Movement.EXPLORE
    if wild.is_known_destination(goal):
        return Movement.TRAVEL
    raise IllegalCommandError(
        f"hex {goal.label} is not a known destination (TP-WIL-10): explore toward it with "
        "--explore, or go one hex at a time by direction"
    )


#: Watches spent travelling or searching are not a camp: a midnight they pass rolls nothing;
#: and their TP are the day's they were begun on (TP-WIL-1), even past the next morning.
_ON_THE_MOVE = frozenset({NIGHT_CAMP, TRAVEL_DAY})


def travel(draft: Draft, command: Travel, dice: DiceSource) -> None:
    """Move toward the target hex by hex until it is reached, the day's TP run out (a move
    may be begun and left pending, TP-WIL-6), or the die halts the journey."""
    moving = draft.fork(_ON_THE_MOVE)
    begin_travel_day(moving)  # a morning passed since the last watch's end (TP-WIL-1)
    _conditions(moving, command)
    wild = _wild(moving)
    goal, one_step = resolve_target(wild, command.target)
    if goal not in wild.hexmap:
        shown = goal.label if goal.col >= 0 and goal.row >= 0 else str(goal)
        raise NotFoundError(f"hex {shown} is off the map {wild.map.name!r}")
    if goal == wild.position and wild.pending is None:
        raise IllegalCommandError(f"the party is already in hex {goal.label}")
    if one_step and wild.pending is not None and wild.pending.to != goal:
        raise IllegalCommandError(
            f"the party is partway into hex {wild.pending.to.label} (TP-WIL-6): finish that "
            f"move first with `travel {wild.pending.to.label}`"
        )
    movement = _movement(wild, goal, one_step, command.explore)
    put_out_the_light(moving)  # the watches are no dungeon turns (TP-TIME-2)
    rules = draft.state.ruleset
    radius = rules.wilderness.landmark_sight_hexes
    acted = False

    def stop(message: str) -> bool:
        if not acted:
            raise IllegalCommandError(message)
        return True

    while True:
        wild = _wild(moving)
        daily = _daily(moving)
        left = wild.tp_left(daily)
        if wild.position == goal and wild.pending is None:
            break
        if left <= 0 and stop(
            f"no TP left today ({format_mixed(wild.tp_spent)} of {daily} spent): "
            "make camp with `turnkeeper camp`"
        ):
            break
        cap = max_movement_points(rules, wild.vessel)
        if wild.movement_points >= cap and stop(
            f"the party has moved {cap} movement points today, the most a day allows "
            f"(twice its {daily} TP, TP-WIL-7): make camp with `turnkeeper camp`"
        ):
            break
        if wild.forage_owed:
            if not forage(moving, dice, movement, command.waning) and stop(
                "the party must forage for a whole TP (TP-WENC-4 face 3) and has less "
                "left today: make camp"
            ):
                break
            acted = True
            continue
        if wild.pending is not None:
            nxt, cost, remaining = wild.pending.to, wild.pending.cost, wild.pending.remaining
        else:
            nxt = goal if one_step else _next_step(moving, goal)
            nxt = lost_check(moving, nxt, dice)
            # one order of events: not into a hex another party changed later (TP-TIME-2)
            moving.state.check_in_order(wild.map.name, 0, nxt.label, hex=True)
            price = cost_here(moving, nxt)
            if price.tp_spent is None:
                shown = "x0" if price.tp_per_hex is None else f"{price.tp_per_hex} TP"
                if stop(
                    f"hex {nxt.label} is impassable ({shown}; TP-WIL-8): change the travel "
                    "conditions or go round"
                ):
                    break
                continue
            cost = remaining = price.tp_spent
            # From a fresh morning any passable hex may be begun: with a ruleset's
            # impassable_factor above 2 a move may take more than two days (TP-WIL-6/8).
            if (
                remaining > left + daily
                and left < daily
                and stop(
                    f"hex {nxt.label} costs {format_mixed(cost)} TP and only "
                    f"{format_mixed(left)} are left today: camp and begin it fresh (TP-WIL-6)"
                )
            ):
                break
        # TP-WENC-1/-2: the die falls after the first (half, last) TP even in mid-move, the
        # party still in its hex: the move is paid up to that moment, then the rest.
        due = next_check_in(moving, movement)
        pay = min(left, remaining, remaining if due is None else due)
        before = wild.tp_spent
        moving.add(MoveMade(to=nxt, cost=cost, paid=pay, movement=movement))
        acted = True
        pass_watches(moving, before, dice)
        arrived = pay == remaining
        if arrived:
            moving.add(enter_hex(_wild(moving), nxt, radius))
        if checks(moving, before, movement, dice, command.waning) or (arrived and one_step):
            break
    draft.join(moving)


def _next_step(draft: Draft, goal: Hex) -> Hex:
    wild = _wild(draft)
    route = best_route(
        draft.state.ruleset,
        wild.hexmap,
        wild.position,
        goal,
        {**dict.fromkeys(wild.weather, draft.state.ruleset.weather.start), **wild.weather},
        conditions_of(draft.state),
        wild.vessel,
    )
    return route.hexes[1]


def camp(draft: Draft, command: Camp, dice: DiceSource) -> None:
    """The night camp: the die is rolled (TP-WENC-1/-2, night faces, TP-WENC-3), the night's
    watches pass until the next morning, and a new travel day begins (TP-WIL-1). Off the
    map (a village, a haven) there is no die to roll nor travel day to begin. Off the map or
    in a site, the camp is PG-HEAL-1's night, wherever it is taken: the evening meal, the
    night until the morning, and a hit point back for each who ate; in a site the night's
    turns pass with the site's checks (EX-ENC-1, TP-DUN-1), and an encounter breaks the
    night off, healing nobody."""
    state = draft.state
    day = state.scales.day
    morning = (state.now // day + 1) * day
    if state.wilderness is None:
        if state.site is not None:
            night_rest(draft, dice, morning - state.now)  # the site's turns run the night
        else:
            pass_days(draft, morning - state.now, dice, camp=True)
        return
    wild = _wild(draft)
    # A wait may already have made tonight's roll (NIGHT_CAMP_HOOK): never twice a night.
    if camps_at_night(state) and not camp_rolled_tonight(state, state.now):
        roll_wilderness_die(draft, "camp", dice, command.waning)
    start = _wild(draft).day_started_at
    morning = start + ((draft.state.now - start) // day + 1) * day
    night = draft.fork(frozenset({TRAVEL_DAY}))  # Camped begins the morning's travel day
    if state.site is not None:
        night_rest(night, dice, morning - draft.state.now)  # PG-HEAL-1 in the site too
    else:
        pass_days(night, morning - draft.state.now, dice, camp=True)  # PG-HEAL-1 here too
    draft.join(night)
    draft.add(Camped(morning=morning, day=draft.state.day))
    del wild


def search(draft: Draft, command: Search, dice: DiceSource) -> None:
    """Search the party's hex (TP-DISC-2, TP-DISC-3); the TP spent count for the die's
    exploring schedule (TP-WENC-2), which falls at its moment even in mid-search."""
    moving = draft.fork(_ON_THE_MOVE)
    begin_travel_day(moving)  # a morning passed since the last watch's end (TP-WIL-1)
    wild = _wild(moving)
    rules = draft.state.ruleset
    daily = _daily(moving)
    if wild.pending is not None:
        raise IllegalCommandError(
            f"the party is partway into hex {wild.pending.to.label} (TP-WIL-6): finish the "
            "move before searching"
        )
    moving.state.check_in_order(wild.map.name, 0, wild.position.label, hex=True)
    on: SpentOn
    if command.all_day:
        if command.feature is not None:
            raise IllegalCommandError("search either --for a feature or --all-day, not both")
        if wild.tp_spent > 0 or wild.forage_owed:
            raise IllegalCommandError(
                "a whole day's search must begin before any TP of the day is spent "
                "(TP-DISC-3): make camp, then search --all-day in the morning"
            )
        cost, on = Fraction(daily), "all_day"
    elif command.feature is not None:
        # a feature's name or id, as the map file's are (an over-long one names nothing)
        check_name(command.feature, "feature sought (search --for)")
        cost, on = Fraction(rules.wilderness.search_named_tp), "named_search"
    else:
        cost, on = Fraction(rules.wilderness.search_hidden_tp), "search"
    owed = Fraction(1 if wild.forage_owed else 0)
    left = wild.tp_left(daily)
    if cost + owed > left:
        extra = " after the TP owed to foraging" if owed else ""
        raise IllegalCommandError(
            f"this search takes {format_mixed(cost)} TP and {format_mixed(left)} are "
            f"left today{extra}: make camp first"
        )
    put_out_the_light(moving)  # the watches are no dungeon turns (TP-TIME-2)
    if owed:
        forage(moving, dice, Movement.EXPLORE, command.waning)
    # TP-WENC-2: the die falls after the first TP even in mid-search; an encounter there
    # breaks the search off, the TP spent so far spent and nothing found.
    while (due := next_check_in(moving, Movement.EXPLORE)) is not None and due < cost:
        before = _wild(moving).tp_spent
        moving.add(TravelPointsSpent(amount=due, on=on))
        pass_watches(moving, before, dice)
        cost -= due
        if checks(moving, before, Movement.EXPLORE, dice, command.waning):
            broken = f"the search is broken off with {format_mixed(cost)} TP of it unspent"
            moving.add(NoteMade(text=broken + ": nothing is found"))
            draft.join(moving)
            return
    before = _wild(moving).tp_spent
    moving.add(TravelPointsSpent(amount=cost, on=on))
    pass_watches(moving, before, dice)
    if command.all_day:
        moving.add(*find_all_day(moving.state))
    elif command.feature is not None:
        moving.add(*find_named(moving.state, command.feature))
    else:
        moving.add(*find_one_hidden(moving.state, dice, "search"))
    checks(moving, before, Movement.EXPLORE, dice, command.waning)
    draft.join(moving)


@dataclass(frozen=True)
class SetWeather:
    """The referee sets the weather over a region (the party's by default)."""

    weather: str
    region: str | None = None


@dataclass(frozen=True)
class RollWeather:
    """Roll new weather for the party's region from the ruleset's table."""


WildernessCommand = LoadMap | Travel | Camp | Search | SetWeather | RollWeather | RevealOnMap


def decide_wilderness(draft: Draft, command: WildernessCommand, dice: DiceSource) -> None:
    """Dispatch a wilderness command to its procedure (for the command table's ``decide``)."""
    state = draft.state
    if isinstance(command, LoadMap):
        draft.add(*load_map(state, command))
    elif isinstance(command, Travel):
        travel(draft, command, dice)
    elif isinstance(command, Camp):
        camp(draft, command, dice)
    elif isinstance(command, Search):
        search(draft, command, dice)
    elif isinstance(command, SetWeather):
        draft.add(*set_weather(state, command.weather, command.region))
    elif isinstance(command, RevealOnMap):
        draft.add(*reveal_on_map(state, command))
    else:
        draft.add(*roll_weather(state, dice))
