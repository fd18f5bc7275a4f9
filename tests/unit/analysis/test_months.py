"""``simulate months`` against the engine's own month turn (TP-TIME-1's faction turn, the
project's DEFAULT table): the same factions file played through ``procedures.factions`` on a
campaign's state with seeded dice, month after month, and through the vectorised simulator.

With a roll that is a constant (``RESOURCES``) every run is the same and the two must agree
exactly, month by month; with the ruleset's 2d6 they must agree within 2 standard errors."""

from __future__ import annotations

import math
from importlib.resources import files
from typing import Any

import numpy as np
import pytest

from turnkeeper.analysis.months import MAX_MONTHS, Months, MonthsOdds, simulate_months
from turnkeeper.campaign import Journal, parse_party
from turnkeeper.clock.boundaries import Boundary
from turnkeeper.dice import SeededDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.schedule import Draft
from turnkeeper.procedures.factions import MONTH_HOOK, GoalReached, LoadFactions
from turnkeeper.rules.loader import parse_ruleset, preset
from turnkeeper.rules.schema import Ruleset
from turnkeeper.world.factions import FactionsFile, parse_factions

#: The shipped example world (examples/factions.toml): every act has something to act on,
#: and something to fall back from.
WORLD = parse_factions(files("turnkeeper.examples").joinpath("factions.toml").read_text("utf-8"))


def ruleset(**factions: Any) -> Ruleset:
    """tp, its ``[factions]`` section as given."""
    return parse_ruleset({**preset("tp").model_dump(mode="json"), "factions": factions})


def rows(*given: tuple[int, str] | str) -> list[dict[str, Any]]:
    """A faction table's rows: ``(up_to, act)`` each, the last an act alone."""
    return [{"act": g} if isinstance(g, str) else {"up_to": g[0], "act": g[1]} for g in given]


def engine(rules: Ruleset, world: FactionsFile, months: int, runs: int, seed: int) -> MonthsOdds:
    """The same question played by the engine: ``runs`` campaigns' month turns, one at a time
    (the month hook itself, on a campaign's state, with seeded dice); a goal is reached when
    the engine says so (its GoalReached), or when its clock is full from the start."""
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6')
    journal = Journal.start("Vale", rules, party, seed=1)
    journal.execute(LoadFactions(world))
    start = journal.state
    names = [f.name for f in world.factions]
    reached = np.zeros((len(names), months + 1), dtype=np.int64)
    filled = np.zeros((len(names), months + 1), dtype=np.int64)
    dice = SeededDice(seed)
    for _ in range(runs):
        draft = Draft(start)
        won = {f.name for f in world.factions if f.goal_reached}
        for month in range(months + 1):
            if month:
                told = len(draft.events)
                MONTH_HOOK.run(draft, Boundary(at=start.now, frames=("month",)), dice)
                won |= {e.faction for e in draft.events[told:] if isinstance(e, GoalReached)}
            assert draft.state.factions is not None
            for i, faction in enumerate(draft.state.factions.factions):
                reached[i, month] += faction.name in won
                filled[i, month] += faction.filled
    return MonthsOdds(
        ruleset=rules.name,
        factions=tuple(names),
        goals=tuple(f.goal for f in world.factions),
        segments=tuple(f.segments for f in world.factions),
        months=months,
        runs=runs,
        seed=seed,
        reached=reached,
        filled=filled,
    )


def test_tp_time_1_every_act_and_its_fallback_month_by_month_as_the_engine() -> None:
    """rule: TP-TIME-1 (DEFAULT table) - a constant roll (RESOURCES) fixes each faction's act:
    Red Hand (2) expands every month, into 0102 held by Grey Court, then into 0103, which it
    and Black Sail (2, expanding too) seize from each other month after month; Grey Court (3)
    strikes, Red Hand has no segment to lose, so Black Sail's full clock loses one a month,
    and with no rival left to strike Grey Court advances to its goal; Ash Wives (-2) lose
    their full clock to trouble, their goal reached still. Every month's clocks and goals as
    the engine leaves them, exactly."""
    world = parse_factions("""
map = "Vale"
[[factions]]
name = "Red Hand"
goal = "rule the ford"
segments = 5
resources = { force = 2 }
covets = ["0102", "0103"]
rivals = ["Grey Court"]
[[factions]]
name = "Grey Court"
goal = "crown a king"
segments = 3
resources = { wealth = 3 }
hexes = ["0102"]
rivals = ["Red Hand", "Black Sail"]
[[factions]]
name = "Black Sail"
goal = "hold the coast"
segments = 4
filled = 4
resources = { ships = 2 }
covets = ["0103"]
[[factions]]
name = "Ash Wives"
goal = "burn the abbey"
segments = 2
filled = 2
resources = { luck = -2 }
""")
    table = rows((-1, "trouble"), (0, "lie_low"), (1, "advance"), (2, "expand"), "strike")
    rules = ruleset(roll="RESOURCES", table=table)
    fast = simulate_months(Months(rules, world, months=12), runs=5, seed=3)
    slow = engine(rules, world, months=12, runs=1, seed=3)
    assert (fast.filled == 5 * slow.filled).all(), (fast.filled // 5, slow.filled)
    assert (fast.reached == 5 * slow.reached).all(), (fast.reached // 5, slow.reached)
    # what the engine did, so the comparison is of something
    assert slow.filled[:, :8].tolist() == [
        [0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 1, 2, 3],
        [4, 3, 2, 1, 0, 0, 0, 0],
        [2, 1, 0, 0, 0, 0, 0, 0],
    ]
    assert slow.reached[:, -1].tolist() == [0, 1, 1, 1]


@pytest.mark.parametrize("act", ["trouble", "lie_low", "advance", "expand", "strike"])
def test_tp_time_1_a_table_of_one_act_month_by_month_as_the_engine(act: str) -> None:
    """rule: TP-TIME-1 - a table whose every total does ``act``: the interactions (a hex
    seized and seized back, strikes on the first rival with a segment, the fallback to
    advancing) leave every clock where the engine leaves it, every month."""
    rules = ruleset(table=[{"act": act}])
    fast = simulate_months(Months(rules, WORLD, months=10), runs=4, seed=1)
    slow = engine(rules, WORLD, months=10, runs=1, seed=1)
    assert (fast.filled == 4 * slow.filled).all(), (fast.filled // 4, slow.filled)
    assert (fast.reached == 4 * slow.reached).all(), (fast.reached // 4, slow.reached)


#: The months compared, and the runs of each side: the engine's few, the simulator's many.
CHECKED = (12, 18, 24)
ENGINE_RUNS, FAST_RUNS = 600, 40_000


def deviations(fast: MonthsOdds, slow: MonthsOdds) -> list[tuple[str, int, float, float]]:
    """For each faction and checked month: the two shares' difference in combined standard
    errors (the two samples' pooled share, as a two-proportion test has it), and that error."""
    out = []
    for i, name in enumerate(fast.factions):
        for month in CHECKED:
            pooled = (fast.reached[i, month] + slow.reached[i, month]) / (fast.runs + slow.runs)
            spread = math.sqrt(pooled * (1 - pooled) * (1 / fast.runs + 1 / slow.runs))
            gap = fast.share(i, month) - slow.share(i, month)
            out.append((name, month, gap / spread if spread else 0.0, spread))
    return out


@pytest.fixture(scope="module")
def played() -> MonthsOdds:
    return engine(preset("tp"), WORLD, months=max(CHECKED), runs=ENGINE_RUNS, seed=11)


def test_tp_time_1_the_simulator_agrees_with_the_engine_within_2_standard_errors(
    played: MonthsOdds,
) -> None:
    """rule: TP-TIME-1 (DEFAULT: 2d6 + RESOURCES, up to 4 trouble, 6 lie low, 8 advance, 10
    expand, higher strike) - every faction's share of runs with its goal reached by months 12,
    18 and 24, from the simulator and from the engine's month turn, within 2 combined
    standard errors; the shares are no foregone 0 or 1 and the errors no wide margin."""
    fast = simulate_months(Months(preset("tp"), WORLD, months=max(CHECKED)), runs=FAST_RUNS)
    found = deviations(fast, played)
    assert all(abs(z) <= 2 for _, _, z, _ in found), found
    assert all(spread < 0.025 for *_, spread in found), found
    middling = [0.1 < played.share(i, 12) < 0.9 for i in range(len(WORLD.factions))]
    assert all(middling), [played.share(i, 12) for i in range(3)]


@pytest.mark.parametrize(
    "changed",
    [
        # the table's advance and lie-low rows swapped
        {"table": rows((4, "trouble"), (6, "advance"), (8, "lie_low"), (10, "expand"), "strike")},
        # strikes two points rarer
        {"table": rows((4, "trouble"), (6, "lie_low"), (8, "advance"), (12, "expand"), "strike")},
        # a point more on every roll
        {"roll": "2d6+RESOURCES+1"},
        # Red Hand strikes Black Sail first, not Grey Court
        {"rivals": ["Black Sail", "Grey Court"]},
    ],
)
def test_the_check_fails_for_another_model(played: MonthsOdds, changed: dict[str, Any]) -> None:
    """The agreement above can fail: the simulator under a ruleset a little changed, or with
    Red Hand's rivals in the other order, is told apart from the engine's runs by more than 3
    standard errors somewhere."""
    changed = dict(changed)
    rivals = changed.pop("rivals", None)
    world = WORLD
    if rivals is not None:
        hand = world.factions[0].model_copy(update={"rivals": tuple(rivals)})
        world = world.model_copy(update={"factions": (hand, *world.factions[1:])})
    rules = ruleset(**changed) if changed else preset("tp")
    fast = simulate_months(Months(rules, world, months=max(CHECKED)), runs=FAST_RUNS)
    assert max(abs(z) for _, _, z, _ in deviations(fast, played)) > 3


def test_the_same_seed_gives_the_same_figures_and_json_has_every_month() -> None:
    plan = Months(preset("tp"), WORLD, months=36)
    first = simulate_months(plan, runs=3000, seed=5, chunk=1000)
    again = simulate_months(plan, runs=3000, seed=5, chunk=1000)
    assert (first.reached == again.reached).all() and (first.filled == again.filled).all()
    data = first.to_dict()
    assert [f["name"] for f in data["factions"]] == ["Red Hand", "Grey Court", "Black Sail"]
    sail = data["factions"][2]
    assert len(sail["reached"]) == len(sail["standard_error"]) == len(sail["mean_filled"]) == 36
    assert sail["reached"] == sorted(sail["reached"])  # a goal once reached stays reached
    assert sail["mean_filled"][0] != 2 and not sail["reached_at_start"]
    p = sail["reached"][11]
    assert sail["standard_error"][11] == pytest.approx(math.sqrt(p * (1 - p) / 3000), abs=1e-6)
    assert data["factions"][1]["half_by"] == first.half_by(1) is not None


def test_months_and_rolls_out_of_bounds_are_refused_with_one_line() -> None:
    with pytest.raises(IllegalCommandError, match=r"--months 0: simulate from 1 to 1,200"):
        Months(preset("tp"), WORLD, months=0)
    with pytest.raises(IllegalCommandError, match=r"--months 1201"):
        Months(preset("tp"), WORLD, months=MAX_MONTHS + 1)
    with pytest.raises(IllegalCommandError, match=r"names FORCE; .* only RESOURCES"):
        Months(ruleset(roll="2d6+FORCE"), WORLD)
    with pytest.raises(IllegalCommandError, match=r"--runs 0"):
        simulate_months(Months(preset("tp"), WORLD), runs=0)
