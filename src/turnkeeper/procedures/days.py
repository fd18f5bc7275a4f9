"""Days that pass out of a site: one rule for every command that spends them (issue 39).

"Resource management is represented as a number of turns between which players must spend
those resources (food, water, light, etc.)" (TP-TIME-2). ``wait``, ``party forward``
(downtime), ``camp`` off the map and on it, and a ride off the map sent ``--as`` a party all
spend their days through :func:`pass_days`:

- The day's meal at the ruleset's hour (``days.meal_hour``; DEFAULT the evening meal at
  18:00): every living character eats ``days.meal`` (a ration and a water by default; a
  usage-die supply rolls its die once, PG-USE-1); those the food does not reach go hungry, a
  recorded shortfall. Under ``days.meals = "die"`` (TP-ENC-2: the overloaded die replaces
  fixed resource durations) no meal is stamped: food and water go on the die's Forced Rest
  faces (``rest.consumes``), and the party counts as fed for its night.
- The night runs from the meal to the morning (the hour the calendar starts at). A night
  passed whole in one command, or a camp, heals as PG-HEAL-1 says (``hit_points``): a hit
  point for each who ate, once a calendar day. DEFAULT (PG-HEAL-1 names no place): the night
  heals on a wilderness map as in a haven. A wait broken by an encounter stops before the
  morning, and heals nobody.
- The downtime die (TP-ENC-1) rolls at each day's start where the ruleset has one: it is a
  hook of the waits (:data:`turnkeeper.procedures.dungeon.DOWNTIME_HOOK`), so it rolls in
  every day-passing command alike.
- Nothing of the dungeon: a light that burns by turns (EX-LIGHT-1) is put out when days
  begin to pass out of a site, never burnt down by them; under TP-ENC-2 a light has no turns
  and lasts until the die's Waning Resources face, in downtime too (TP-ENC-1 face 4). The
  hours pass as waiting, which is rest (EX-REST-1): no rest cadence is counted out of a site.

In a site the days are the site's turns: ``wait`` rests there (:func:`rest.wait_resting`)
and the camp is the night of :func:`hit_points.night_rest`, with the site's checks.
"""

from __future__ import annotations

from turnkeeper.clock.calendar import start_offset
from turnkeeper.dice import DiceSource
from turnkeeper.kernel.schedule import Draft, WaitBroken, check_span
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.hit_points import heal_the_night
from turnkeeper.procedures.light import LightOut
from turnkeeper.procedures.rest import wait_resting
from turnkeeper.procedures.supplies import SupplyShortfall, SupplyUsed, roll_usage

MEAL = "the day's meal"

# --- procedures ---------------------------------------------------------------------------


def _next_at(after: int, phase: int, day: int) -> int:
    """The first instant strictly after ``after`` whose time of day is ``phase``."""
    return after + (phase - after) % day or after + day


def _meal(draft: Draft, dice: DiceSource) -> None:
    """The day's meal: each living character eats ``days.meal`` while the food lasts; those
    it does not reach go hungry and spend nothing (a shortfall of each item short). Who ate
    rides on the first food spent (:class:`SupplyUsed`'s ``fed``): a day's upkeep, no line
    of its own in the players' record or a character's whereabouts."""
    state = draft.state
    living = [c.name for c in state.party.living]
    meal = {item: each for item, each in state.ruleset.days.meal.items() if each > 0}
    fed = len(living)
    for item, each in meal.items():
        if item not in state.supplies.dice:  # a usage die feeds all while it lasts
            fed = min(fed, state.supplies.count(item) // each)
    told = tuple(living[:fed])
    for item, each in meal.items():
        if item in draft.state.supplies.dice:
            if fed:
                draft.add(roll_usage(draft.state, item, dice, MEAL))
            continue
        if fed:
            draft.add(SupplyUsed(item=item, amount=each * fed, reason=MEAL, fed=told))
            told = ()
        have, need = state.supplies.count(item), each * len(living)
        if have < need:
            draft.add(SupplyShortfall(item=item, needed=need, had=have, reason=MEAL))


def _fed(state: CampaignState, since: int) -> set[str]:
    """Who ate the day's meal since ``since`` (everyone living where the die feeds them, or
    where the meal is of usage dice alone, which feed all while they last)."""
    days = state.ruleset.days
    counted = [
        item for item, each in days.meal.items() if each > 0 and item not in state.supplies.dice
    ]
    if days.meals == "die" or not counted:
        return {c.name for c in state.party.living}
    rest = state.rest
    return set(rest.fed) if rest.fed_at is not None and rest.fed_at >= since else set()


def pass_days(
    draft: Draft, seconds: int, dice: DiceSource, camp: bool = False, downtime: bool = False
) -> str | None:
    """Let ``seconds`` pass out of a site as days pass (see the module's docstring): the
    day's meals at their hour, each night's healing at its morning, the waits' hooks (the
    downtime die, countdowns) between. ``camp``: the span is a night that ends at its
    morning, and the party eats at once if it has not eaten since the last morning and no
    meal falls in the span. ``downtime``: the party lives its days in a haven, its light put
    out however short the span (a wait under a day keeps a light lit). Returns why the
    passing was broken (an encounter), or None."""
    state = draft.state
    check_span(state, seconds)  # before the span's days are counted out
    day = state.scales.day
    start, end = state.now, state.now + seconds
    offset = start_offset(state.ruleset.time)
    rules = state.ruleset.days
    meal_phase = (rules.meal_hour * 3600 - offset) % day
    daily = rules.meals == "daily"
    points: list[tuple[int, int, str]] = []  # (instant, order, what): a morning before a meal
    t = _next_at(start, 0, day)
    while t <= end:
        points.append((t, 0, "morning"))
        t += day
    if camp and (not points or points[-1][0] != end):
        points.append((end, 0, "morning"))
    t = _next_at(start, meal_phase, day)
    while daily and t < end:
        points.append((t, 1, "meal"))
        t += day
    points.sort()
    if points or downtime:
        put_out_the_light(draft)
    last_morning = start - (start % day)
    meal_ahead = any(what == "meal" for _, _, what in points)
    if camp and daily and not meal_ahead and not _fed(state, last_morning):
        _meal(draft, dice)
    for at, _, what in points:
        if what == "morning" and not _wounded(draft.state):
            last_morning = at  # nobody to heal: the morning is no stop of its own
            continue
        stretch = len(draft.events)
        broken = wait_resting(draft, at - draft.state.now, dice, "days out of a site")
        if broken is not None:
            _unwaited(draft, stretch, end, broken)
            return broken
        if what == "meal":
            if not _fed(draft.state, last_morning):
                _meal(draft, dice)
            continue
        # a whole night: this command passed its evening (the meal's hour), or is the camp
        evening = at - ((at - meal_phase) % day or day)
        if camp or evening >= start:
            heal_the_night(draft, _fed(draft.state, at - day))
        last_morning = at
    return wait_resting(draft, end - draft.state.now, dice, "days out of a site")


def put_out_the_light(draft: Draft) -> None:
    """No dungeon turns out of a site: a light that burns by turns (EX-LIGHT-1) is put out
    as days or a wilderness watch begin to pass there, never burnt down by them (TP-TIME-2).
    Under TP-ENC-2 a light has no turns, and the die's Waning Resources face governs it."""
    state = draft.state
    counted = state.ruleset.light.burns == "turns"
    if counted and state.light.source is not None and state.site is None:
        draft.add(LightOut(source=state.light.source, reason="put out: days pass out of a site"))


def _wounded(state: CampaignState) -> bool:
    """Someone living is below their most hit points: a morning may heal them."""
    return any(c.hp < c.max_hp for c in state.party.living)


def _unwaited(draft: Draft, stretch: int, end: int, why: str) -> None:
    """The passing broken in one of its stretches (its events from index ``stretch``): what
    is not waited is the rest of the whole span, not of the stretch (one :class:`WaitBroken`
    says so)."""
    left = end - draft.state.now
    if left <= 0:
        return
    told = WaitBroken(when=draft.state.date, reason=why, unwaited=left)
    for index in range(len(draft.events) - 1, stretch - 1, -1):
        if isinstance(draft.events[index], WaitBroken):
            # no state of its own: the stretch's word on it is replaced where it stands (a
            # rest's interruption may follow it)
            draft.events[index] = told
            return
    draft.add(told)
