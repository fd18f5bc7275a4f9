"""``simulate journey``: the vectorised walk agrees with the engine's own ``travel`` and
``camp`` commands played day by day, and with what the texts' numbers say exactly."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from turnkeeper.analysis.journey import Journey, in_season, simulate_journey
from turnkeeper.campaign import Journal
from turnkeeper.campaign.commands import decide
from turnkeeper.dice import SeededDice
from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.kernel.events import Event
from turnkeeper.kernel.party import Character, Party, Supplies
from turnkeeper.kernel.state import CampaignState, wilderness_of, with_wilderness
from turnkeeper.procedures.supplies import SupplyUsed, UsageDieRolled
from turnkeeper.procedures.wilderness import Camp, LoadMap, Travel
from turnkeeper.procedures.wilderness.events import (
    Camped,
    LostChecked,
    MoveMade,
    TravelPointsSpent,
    WildEncounter,
)
from turnkeeper.rules.loader import preset
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import HexMap
from turnkeeper.world.mapfile import MapFile, loads_map, map_to_data

from .conftest import agree

#: A small march: a road along the top, forest and hills below (lost chances 2 and 1 in 6),
#: marsh, a landmark tower, and a cold region in the south-east with its own weather.
MARCH = """
name = "The March"
width = 8
height = 5
terrain = [
  "pppffhhp",
  "pfffhhmp",
  "phffmmhp",
  "ppfhhdhp",
  "pfffhhpp",
]
roads = [
  "RRR.....",
  "........",
  "........",
  "........",
  "........",
]

[[hexes]]
at = "0301"
[[hexes.features]]
id = "tower"
name = "Tower"
landmark = true

[[hexes]]
at = "0503"
region = "Fells"
climate = "cold"
[[hexes]]
at = "0603"
region = "Fells"
climate = "cold"
[[hexes]]
at = "0604"
region = "Fells"
climate = "cold"
"""


@pytest.fixture(scope="module")
def march() -> HexMap:
    return loads_map(MARCH, "toml", "march")


def party(rations: int = 40, water: int = 40) -> Party:
    return Party(
        characters=(Character(name="Ana", hp=6), Character(name="Bo", hp=8)),
        supplies=Supplies(counted={"rations": rations, "water": water}),
    )


def engine_journey(plan: Journey, seed: int) -> dict[str, int]:
    """One journey through the engine's commands (``campaign.decide``): travel toward the
    goal, and camp whenever travel is refused for the day, until the party is there."""
    state: CampaignState = Journal.start("walk", plan.ruleset, plan.party, seed).state
    dice = SeededDice(seed)

    def do(command: object) -> list[Event]:
        nonlocal state
        events = decide(state, command, dice)  # type: ignore[arg-type]
        for event in events:
            state = event.apply(state)
        return events

    do(LoadMap(MapFile.model_validate(map_to_data(plan.hexmap)), plan.start))
    if not plan.explore:  # travel goes to a known destination (TP-WIL-10)
        wild = wilderness_of(state)
        state = with_wilderness(state, wild.with_(visited=wild.visited | {plan.goal}))
    out: Counter[str] = Counter()
    unit = Counter[str]()
    day = 0
    while day < plan.max_days:
        wild = wilderness_of(state)
        if wild.position == plan.goal and wild.pending is None:
            out["arrived"] = 1
            break
        try:
            events = do(Travel(plan.goal.label, explore=plan.explore, party=plan.conditions))
        except IllegalCommandError:
            events = do(Camp())
        for event in events:
            if isinstance(event, WildEncounter):
                out["good_encounters" if event.good else "encounters"] += 1
            elif isinstance(event, LostChecked):
                out["times_lost"] += event.lost
            elif isinstance(event, MoveMade):
                unit["tp"] += event.paid  # type: ignore[assignment]
            elif isinstance(event, TravelPointsSpent):
                unit["tp"] += event.amount  # type: ignore[assignment]
                out["forages"] += event.on == "forage"
            elif isinstance(event, Camped):
                day += 1
            elif isinstance(event, SupplyUsed):
                out[f"{event.item}_used"] += event.amount
            elif isinstance(event, UsageDieRolled):
                out[f"{event.item}_used"] += 1
    out["days"] = min(day + 1, plan.max_days)
    out["tp"] = math.ceil(unit["tp"])
    return dict(out)


SCENARIOS = [
    # (from, to, explore, conditions, season, rations, runs)
    ("0000", "0704", False, (), "winter", 40, 800),  # TP-WENC-1, weather in winter
    ("0004", "0700", True, (), "summer", 40, 800),  # TP-WENC-2: exploring
    ("0100", "0602", False, ("mounted",), "autumn", 2, 800),  # TP-WIL-3, foraging
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("start", "goal", "explore", "conditions", "season", "rations", "runs"), SCENARIOS
)
def test_the_vectorised_walk_agrees_with_the_engine(
    march: HexMap,
    start: str,
    goal: str,
    explore: bool,
    conditions: tuple[str, ...],
    season: str,
    rations: int,
    runs: int,
) -> None:
    """The same model, two implementations: TP-WIL-1, TP-WIL-3, TP-WIL-4, TP-WIL-6,
    TP-WIL-7, TP-LOST-1, TP-WENC-1 to TP-WENC-4, seeded engine journeys against the
    simulator's distributions."""
    plan = Journey(
        in_season(preset("tp"), season),
        party(rations, rations),
        march,
        Hex.parse(start),
        Hex.parse(goal),
        conditions,
        explore,
    )
    engine = [engine_journey(plan, seed) for seed in range(runs)]
    agree(simulate_journey(plan, runs=50_000, seed=4), engine)


def test_tp_wil_1_a_road_day_with_no_die_and_no_getting_lost(march: HexMap) -> None:
    """rule: TP-WIL-1, TP-WIL-4 - on a road (x2) a hex costs 1/2 TP: two road hexes take 1 TP
    of the day's 4, one day; a road is never a place to get lost (TP-LOST-1)."""
    plan = Journey(preset("tp"), party(), march, Hex.parse("0000"), Hex.parse("0200"))
    odds = simulate_journey(plan, runs=2000)
    assert odds.shares("days") == {1: 1} and odds.shares("tp") == {1: 1}
    assert odds.shares("times_lost") == {0: 1}


#: Seven hexes of plains in a line, all arid: in summer its weather table says clear on
#: every face, so a change of weather changes nothing and the days are known exactly.
STRIP = "\n".join(
    ['name = "Strip"', "width = 1", "height = 7", "terrain = [" + '"p",' * 7 + "]"]
    + [f'[[hexes]]\nat = "00{row:02d}"\nclimate = "arid"' for row in range(7)]
)


def test_tp_wenc_1_and_2_the_die_at_its_moments() -> None:
    """rule: TP-WENC-1, TP-WENC-2, TP-WENC-3, TP-WENC-4, TP-WIL-1 - 6 plains hexes are 6 TP:
    4 on day 1, 2 on day 2. Travelling, the die is rolled after half the day's TP (2) and at
    the night camp, where the hidden site face is an encounter at the camp: encounters have
    mean 1/6 + 2/6 + 1/6 = 2/3, good encounters 3/6. Exploring 4 hexes in one day: after the
    first TP and after the last, encounters mean 2/6."""
    strip = loads_map(STRIP, "toml", "strip")
    tp = in_season(preset("tp"), "summer")
    rules = tp.model_copy(update={"lost": tp.lost.model_copy(update={"enabled": False})})
    far = Journey(rules, party(), strip, Hex.parse("0000"), Hex.parse("0006"))
    odds = simulate_journey(far, runs=200_000, seed=2)
    assert odds.shares("days") == {2: 1} and odds.shares("tp") == {6: 1}
    assert odds.summary("encounters")["mean"] == pytest.approx(2 / 3, abs=0.01)
    assert odds.summary("good_encounters")["mean"] == pytest.approx(1 / 2, abs=0.01)
    near = Journey(rules, party(), strip, Hex.parse("0000"), Hex.parse("0004"), explore=True)
    odds = simulate_journey(near, runs=200_000, seed=3)
    assert odds.shares("days") == {1: 1} and odds.shares("tp") == {4: 1}
    assert odds.summary("encounters")["mean"] == pytest.approx(1 / 3, abs=0.01)


def test_bad_journeys_are_one_clear_error(march: HexMap) -> None:
    with pytest.raises(NotFoundError, match="--to 0909"):
        Journey(preset("tp"), party(), march, Hex.parse("0000"), Hex.parse("0909"))
    with pytest.raises(IllegalCommandError, match="same hex"):
        Journey(preset("tp"), party(), march, Hex.parse("0000"), Hex.parse("0000"))
    with pytest.raises(NotFoundError, match="seasons: winter"):
        in_season(preset("tp"), "monsoon")
