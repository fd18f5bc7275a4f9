"""``simulate expedition``: the vectorised delve agrees with the engine's own turn procedure
played command by command, and with every exact answer the project has (turn odds, usage
dice, torch lifetimes)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from turnkeeper.analysis.expedition import (
    MAX_RUNS,
    MAX_TURNS,
    Expedition,
    simulate_expedition,
    use_usage_dice,
)
from turnkeeper.analysis.turn_odds import turn_odds
from turnkeeper.campaign import Journal
from turnkeeper.campaign.commands import Light, Rest, decide
from turnkeeper.dice import SeededDice, usage_lifetime
from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.kernel.events import Event
from turnkeeper.kernel.party import Party, load_party
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.dungeon import EncounterRolled, EndEncounter, EnterSite, Turn
from turnkeeper.procedures.light import LightLit
from turnkeeper.procedures.rest import WEARIED, Rested
from turnkeeper.rules.loader import preset
from turnkeeper.world.sites import Site, load_site

from .conftest import agree

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.fixture(scope="module")
def site() -> Site:
    return load_site(EXAMPLES / "site.toml")


@pytest.fixture(scope="module")
def party() -> Party:
    return load_party(EXAMPLES / "party.toml")


def engine_expedition(plan: Expedition, seed: int) -> dict[str, int]:
    """One expedition through the engine's command procedure (``campaign.decide``), with the
    referee's policy the simulator models: end the encounter, light up in darkness, rest
    when due, else take a turn."""
    rules = plan.ruleset
    state: CampaignState = Journal.start("sim", rules, plan.party, seed).state
    dice = SeededDice(seed)

    def do(command: object) -> list[Event]:
        nonlocal state
        events = decide(state, command, dice)  # type: ignore[arg-type]
        for event in events:
            state = event.apply(state)
        return events

    do(EnterSite(plan.site, plan.level))
    start, turn = state.now, state.scales.turn
    out: Counter[str] = Counter()
    dark = wearied = False
    while (state.now - start) // turn < plan.turns:
        assert state.site is not None
        if state.site.encounter is not None:
            # the rest of the turn the meeting stopped passes as the party goes on, lit and
            # wearied as that turn was
            before = state.now
            do(EndEncounter(fought=plan.fights))
            spanned = (state.now - before) // turn
            out["dark_turns"] += dark * spanned
            out["wearied_turns"] += wearied * spanned
            continue  # the span may end with that turn
        if state.light.dark:
            for name, source in rules.light.sources.items():
                if state.supplies.count(source.supply) >= 1:
                    out[f"{source.supply}_used"] += 1
                    do(Light(name))
                    break
        before = state.now
        dark = state.light.dark
        wearied = any(c.has(WEARIED) for c in state.party.living)
        if plan.rests and state.rest.due_at is not None:
            events = do(Rest())
        else:
            events = do(Turn(mode=plan.mode))
        spanned = (state.now - before) // turn
        out["dark_turns"] += dark * spanned
        out["wearied_turns"] += wearied * spanned
        for event in events:
            if isinstance(event, EncounterRolled):
                out["encounters"] += 1
                out["surprised"] += event.encounter.party_surprised
            elif isinstance(event, LightLit):
                out[f"{event.supply}_used"] += 1
            elif isinstance(event, Rested):
                out["rests"] += 1
    for item, count in state.supplies.counted.items():
        out[f"{item}_left"] = count
    for item in rules.rest.consumes:
        if item in plan.party.supplies.dice:
            out[f"{item}_die"] = state.supplies.dice.get(item, 0)
    return dict(out)


SCENARIOS = [
    ("tp", "cautious", 18, True, False, 3000),  # TP-DUN-1, TP-ENC-2: the die every turn
    ("ex", "cautious", 18, True, False, 3000),  # EX-ENC-1, EX-LIGHT-1, EX-REST-1
    ("ex", "swift", 30, False, False, 1000),  # EX-SUR-2, EX-REST-3: pushing on wearies
    ("ex", "swift", 30, False, True, 1000),  # EX-REST-2: fights make rests due
    ("ex", "running", 12, True, True, 1000),  # EX-ENC-4, EX-SUR-3, EX-REST-2
    ("tp", "running", 60, True, False, 1000),  # torches run out: the lamp, then darkness
    ("pg", None, 24, True, False, 1000),  # PG-SUR-1: surprised on 2 in 6
]


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "mode", "turns", "rests", "fights", "runs"), SCENARIOS)
def test_the_vectorised_delve_agrees_with_the_engine(
    site: Site,
    party: Party,
    ruleset: str,
    mode: str | None,
    turns: int,
    rests: bool,
    fights: bool,
    runs: int,
) -> None:
    """The same model, two implementations: TP-DUN-1, TP-ENC-1 faces 3 and 4, TP-ENC-2,
    EX-ENC-1, EX-ENC-4, EX-LIGHT-1, EX-LIGHT-2, EX-REST-1 to EX-REST-3, EX-SUR-1 to EX-SUR-4,
    PG-SUR-1, seeded runs of the engine against the simulator's distributions."""
    plan = Expedition(
        preset(ruleset), party, site, mode=mode, turns=turns, rests=rests, fights=fights
    )
    engine = [engine_expedition(plan, seed) for seed in range(runs)]
    agree(simulate_expedition(plan, runs=100_000, seed=3), engine)


def test_tp_dun_1_encounters_and_waning_resources_as_odds_turn_says(
    site: Site, party: Party
) -> None:
    """rule: TP-DUN-1, TP-ENC-2 - 18 turns with torches to spare: encounters and relights are
    Binomial(18, 1/6), as ``odds turn --turns 18`` says exactly (mean 3, at least one
    1 - (5/6)^18); one torch is lit at the start."""
    plenty = party.model_copy(
        update={"supplies": party.supplies.model_copy(update={"counted": {"torches": 40}})}
    )
    odds = simulate_expedition(
        Expedition(preset("tp"), plenty, site, turns=18), runs=400_000, seed=5
    )
    exact = turn_odds(preset("tp"), turns=18)
    for column, event, offset in (
        ("encounters", "encounter", 0),
        ("torches_used", "waning_resources", 1),
    ):
        rate = exact.event(event)
        counts = odds.columns[column]
        mean = float((np.arange(counts.size) * counts).sum()) / odds.runs - offset
        assert mean == pytest.approx(float(rate.expected), abs=0.01)
        at_least_one = 1 - counts[offset] / odds.runs
        assert at_least_one == pytest.approx(float(rate.at_least_one), abs=0.003)
    assert float(exact.event("at_least_one" if False else "encounter").expected) == 3


def test_tp_enc_2_a_torch_lasts_until_the_waning_face(site: Site, party: Party) -> None:
    """rule: TP-ENC-2 - a torch lasts 6 turns on average (``odds turn``'s lifetime): over 600
    turns a party with torches to spare lights about 600 / 6 + 1 of them."""
    plenty = party.model_copy(
        update={"supplies": party.supplies.model_copy(update={"counted": {"torches": 1000}})}
    )
    odds = simulate_expedition(Expedition(preset("tp"), plenty, site, turns=600), runs=20_000)
    lifetime = turn_odds(preset("tp")).light_source("torch").expected_turns
    assert lifetime == 6
    assert odds.summary("torches_used")["mean"] == pytest.approx(600 / 6 + 1, abs=0.1)


def test_ex_light_1_and_2_torches_last_three_turns_then_the_lamp_six(
    site: Site, party: Party
) -> None:
    """rule: EX-LIGHT-1, EX-LIGHT-2 - a 3-hour delve (18 turns) with 6 torches burns all six
    (3 turns each, ``odds turn``'s lifetime) and never sees darkness; 24 turns with 2 torches
    and 2 flasks of oil: 6 turns of torchlight, 12 of lamplight, then 6 dark turns."""
    ex = preset("ex")
    assert turn_odds(ex).light_source("torch").expected_turns == 3
    odds = simulate_expedition(Expedition(ex, party, site, turns=18), runs=2000)
    assert odds.shares("torches_used") == {6: 1} and odds.shares("dark_turns") == {0: 1}
    few = party.model_copy(
        update={"supplies": party.supplies.model_copy(update={"counted": {"torches": 2, "oil": 2}})}
    )
    odds = simulate_expedition(Expedition(ex, few, site, turns=24), runs=2000)
    assert odds.shares("torches_used") == {2: 1} and odds.shares("oil_used") == {2: 1}
    assert odds.shares("dark_turns") == {6: 1}


def test_ex_enc_1_an_18_turn_delve_checks_nine_times(site: Site, party: Party) -> None:
    """rule: EX-ENC-1 - a check every 2 turns at 1 in 6, resting turns too: 18 turns make 9
    checks, at least one encounter 1 - (5/6)^9, as ``odds turn --turns 18`` says."""
    odds = simulate_expedition(
        Expedition(preset("ex"), party, site, mode="cautious", turns=18), runs=400_000, seed=2
    )
    exact = turn_odds(preset("ex"), turns=18, mode="cautious").event("encounter")
    assert exact.at_least_one == 1 - Fraction(5, 6) ** 9
    none = odds.columns["encounters"][0] / odds.runs
    assert 1 - none == pytest.approx(float(exact.at_least_one), abs=0.003)
    assert odds.summary("encounters")["mean"] == pytest.approx(1.5, abs=0.01)


def test_ex_rest_1_one_turn_in_six_and_ex_rest_3_pushing_on(site: Site, party: Party) -> None:
    """rule: EX-REST-1, EX-REST-3 - resting when due, 18 turns hold 3 rests and no weary turn
    (when no encounter breaks one); pushing on, the party is wearied from turn 7 to 18."""
    quiet = site.model_copy(update={"site": site.site.model_copy(update={"wandering": False})})
    odds = simulate_expedition(Expedition(preset("ex"), party, quiet, turns=18), runs=100)
    assert odds.shares("rests") == {3: 1} and odds.shares("wearied_turns") == {0: 1}
    pushing = Expedition(preset("ex"), party, quiet, turns=18, rests=False)
    odds = simulate_expedition(pushing, runs=100)
    assert odds.shares("rests") == {0: 1} and odds.shares("wearied_turns") == {12: 1}


def test_pg_use_1_usage_dice_step_down_as_the_exact_lifetime(site: Site) -> None:
    """rule: PG-USE-1 - the simulator's usage die (rations on a d8) lasts as
    ``odds --usage d8`` says: the mean 4 + 3 + 2 uses (d8, d6, d4) and the whole law."""
    rng = np.random.default_rng(1)
    sides = np.full(200_000, 8, dtype=np.int32)
    uses = np.zeros(sides.size, dtype=np.int64)
    while (sides > 0).any():
        uses += sides > 0
        sides = use_usage_dice(sides, (12, 10, 8, 6, 4), rng)
    exact = usage_lifetime(8)
    assert exact.mean == 9
    assert uses.mean() == pytest.approx(9, abs=0.05)
    for count, chance in list(exact.distribution.items())[:12]:
        assert (uses == count).mean() == pytest.approx(float(chance), abs=0.004)


def test_tp_enc_1_forced_rest_eats_from_a_usage_die(site: Site, party: Party) -> None:
    """rule: TP-ENC-1, PG-USE-1 - rations on a usage die: each forced rest rolls it once (the
    party's meal is one use), the engine and the simulator alike."""
    fed = party.model_copy(
        update={
            "supplies": party.supplies.model_copy(
                update={"counted": {"torches": 6, "water": 20}, "dice": {"rations": 6}}
            )
        }
    )
    plan = Expedition(preset("tp"), fed, site, turns=30)
    engine = [engine_expedition(plan, seed) for seed in range(600)]
    agree(simulate_expedition(plan, runs=50_000, seed=9), engine)


def test_bounds_and_unknown_modes_are_one_clear_error(site: Site, party: Party) -> None:
    plan = Expedition(preset("ex"), party, site)
    with pytest.raises(IllegalCommandError, match="10,000,000"):
        simulate_expedition(plan, runs=MAX_RUNS + 1)
    with pytest.raises(IllegalCommandError, match="--turns"):
        simulate_expedition(Expedition(preset("ex"), party, site, turns=MAX_TURNS + 1))
    with pytest.raises(NotFoundError, match="crawling"):
        simulate_expedition(Expedition(preset("ex"), party, site, mode="crawling"))


def test_chunks_change_nothing_but_the_memory(site: Site, party: Party) -> None:
    """Runs are worked on in chunks: the histograms add up to the runs asked for."""
    odds = simulate_expedition(Expedition(preset("tp"), party, site), runs=25_001, chunk=10_000)
    assert all(int(counts.sum()) == 25_001 for counts in odds.columns.values())


def test_ex_sur_1_a_cautious_delve_is_surprised_only_at_rest_as_the_ruleset_reads_it(
    site: Site, party: Party
) -> None:
    """EX-SUR-1: "Adventurers in cautious movement cannot be surprised"; the delve's surprises
    come from its turns of rest, which the text does not cover: the ruleset's
    ``surprise.at_rest`` reads them. Under ex's DEFAULT "risk" about 18% of 3-hour cautious
    delves are surprised (all in rest turns: pushing on, none); under "never", none."""
    ex = preset("ex")
    still = ex.model_copy(update={"surprise": ex.surprise.model_copy(update={"at_rest": "never"})})
    at_risk = simulate_expedition(
        Expedition(ex, party, site, mode="cautious", turns=18), runs=20_000
    )
    assert at_risk.summary("surprised")["mean"] == pytest.approx(0.18, abs=0.02)
    pushing = Expedition(ex, party, site, mode="cautious", turns=18, rests=False)
    assert simulate_expedition(pushing, runs=2_000).shares("surprised") == {0: 1}
    as_cautious = Expedition(still, party, site, mode="cautious", turns=18)
    assert simulate_expedition(as_cautious, runs=20_000).shares("surprised") == {0: 1}
