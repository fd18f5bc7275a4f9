"""The haven turn (issue 43): a character's month at a haven, TP-TIME-1's "Haven/Domain Turn:
1 month", spent on an activity of the ruleset's haven table (DEFAULT: the texts give only the
month). The party's month passes as every wait's days pass (TP-TIME-2: its meals are spent),
and the world's month turn runs in it as in any wait.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from turnkeeper.campaign import parse_party
from turnkeeper.errors import IllegalCommandError, RulesetError
from turnkeeper.procedures.factions import FactionActed, LoadFactions, MonthTurned
from turnkeeper.procedures.haven import CoinsChanged, HavenResult, HavenTurn, HavenTurnBegun
from turnkeeper.procedures.hit_points import HitPointsChanged
from turnkeeper.procedures.supplies import SupplyUsed
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.rules.loader import load_ruleset, preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.world.factions import parse_factions
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile

if TYPE_CHECKING:
    from tests.integration.conftest import Tk

DAY = 24 * 3600

PARTY = """
[[characters]]
name = "Aldo"
hp = 10
max_hp = 100
coins = 100
stats = { STR = 2, CON = 1, CHA = -1 }
conditions = ["wearied"]
[[characters]]
name = "Bea"
hp = 6
coins = 45
[supplies]
rations = 400
water = 400
"""


@pytest.fixture
def haven(tmp_path: Path) -> Campaigns:
    campaigns = Campaigns(open_store(str(tmp_path / "t.db")))
    campaigns.new("Haven", preset("ex"), parse_party(PARTY), seed=5)
    return campaigns


def _new(campaigns: Campaigns, before: int) -> list[object]:
    return [r.event for r in campaigns.journal("Haven").records[before:]]


def test_tp_time_1_a_month_of_work_pays_living_passes_30_days_and_earns(
    haven: Campaigns,
) -> None:
    """TP-TIME-1: a haven turn is a month (30 days of the ex calendar). Aldo works: pays 10
    coins of living, the party eats 30 days' meals (TP-TIME-2), and 2d6 (4, 3) + STR 2 = 9
    falls in the band "works steadily", earning 15: 100 - 10 + 15 = 105 coins."""
    before = len(haven.journal("Haven").records)
    haven.execute("Haven", HavenTurn("Aldo", "work"), [4, 3])
    state = haven.state("Haven")
    assert state.now == 30 * DAY
    assert state.character("Aldo").coins == 105
    events = _new(haven, before)
    begun = [e for e in events if isinstance(e, HavenTurnBegun)]
    assert [(b.character, b.activity, b.days) for b in begun] == [("Aldo", "work", 30)]
    paid = [(e.change, e.coins, e.reason) for e in events if isinstance(e, CoinsChanged)]
    assert paid == [(-10, 90, "a month's living and work"), (15, 105, "a month's work")]
    result = next(e for e in events if isinstance(e, HavenResult))
    assert (result.total, result.text) == (9, "works steadily")
    assert result.rolls[0].breakdown == "2d6 (4, 3) + STR (2) = 9"
    # the month's meals: 30 evenings of two rations and two waters
    rations = sum(e.amount for e in events if isinstance(e, SupplyUsed) and e.item == "rations")
    assert rations == 60
    assert state.supplies.count("rations") == 340


def test_tp_time_1_recovery_heals_and_cures_after_the_month_s_nights(haven: Campaigns) -> None:
    """TP-TIME-1, DEFAULT recover: Aldo fed every night heals 1 a night for 30 nights
    (PG-HEAL-1), then 2d6 (5, 4) + CON 1 = 10 recovers fully: 8 more and wearied cured."""
    before = len(haven.journal("Haven").records)
    haven.execute("Haven", HavenTurn("Aldo", "recover"), [5, 4])
    aldo = haven.state("Haven").character("Aldo")
    events = _new(haven, before)
    nights = [e for e in events if isinstance(e, HitPointsChanged) and e.target == "Aldo"]
    assert [e.change for e in nights] == [1] * 30 + [8]
    assert nights[-1].reason == "a month's recover"
    assert aldo.hp == 10 + 30 + 8 == 48
    assert not aldo.has("wearied")
    assert aldo.coins == 90  # living only: recovery costs nothing more


def test_tp_time_1_carousing_s_complication_spends_at_most_what_is_left(
    haven: Campaigns,
) -> None:
    """TP-TIME-1, DEFAULT carouse: Bea pays 10 living + 30 = 40 of her 45 coins; 2d6 (1, 1) = 2
    is a complication costing 20 more, of which she has only 5."""
    haven.execute("Haven", HavenTurn("Bea", "carouse"), [1, 1])
    assert haven.state("Haven").character("Bea").coins == 0
    result = [r.event for r in haven.journal("Haven").records if isinstance(r.event, HavenResult)]
    assert result[-1].text.startswith("a complication")


def test_tp_time_1_a_haven_turn_refused_changes_nothing(haven: Campaigns) -> None:
    """Who cannot pay, an activity not in the table, a party on a map: refused, nothing done."""
    haven.execute("Haven", HavenTurn("Bea", "carouse"), [6, 6])  # 45 - 40 = 5 coins left
    version = len(haven.journal("Haven").records)
    with pytest.raises(IllegalCommandError, match="Bea has 5 coins; a month's research costs 30"):
        haven.execute("Haven", HavenTurn("Bea", "research"))
    with pytest.raises(IllegalCommandError, match="no haven activity 'dance'"):
        haven.execute("Haven", HavenTurn("Aldo", "dance"))
    with pytest.raises(IllegalCommandError, match="no character called 'Cy'"):
        haven.execute("Haven", HavenTurn("Cy", "work"))
    assert len(haven.journal("Haven").records) == version
    vale = MapFile(name="Vale", width=2, height=2, terrain=["pp"] * 2)
    haven.execute("Haven", LoadMap(vale, Hex.from_label("0101")))
    version = len(haven.journal("Haven").records)
    with pytest.raises(IllegalCommandError, match=r"on the map 'Vale'.*`map leave` first"):
        haven.execute("Haven", HavenTurn("Aldo", "work"))
    assert len(haven.journal("Haven").records) == version


def test_tp_time_1_the_world_s_month_turn_runs_within_a_haven_turn(haven: Campaigns) -> None:
    """TP-TIME-1: the haven turn's month passes the calendar's month boundary (day 31), so the
    world's month turn runs in it as in any wait: the faction's dice (3, 4) first, then the
    activity's (6, 6)."""
    factions = '[[factions]]\nname = "Red Hand"\ngoal = "rule the ford"\nsegments = 4\n'
    haven.execute("Haven", LoadFactions(parse_factions(factions)))
    before = len(haven.journal("Haven").records)
    haven.execute("Haven", HavenTurn("Aldo", "train"), [3, 4, 6, 6])
    events = _new(haven, before)
    kinds = [type(e) for e in events if isinstance(e, (MonthTurned, FactionActed, HavenResult))]
    assert kinds == [MonthTurned, FactionActed, HavenResult]
    acted = next(e for e in events if isinstance(e, FactionActed))
    assert (acted.done, acted.filled) == ("advance", 1)  # 3 + 4 = 7
    result = next(e for e in events if isinstance(e, HavenResult))
    assert result.total == 12  # 6 + 6 + INT 0
    assert haven.state("Haven").character("Aldo").coins == 100 - 10 - 50


def test_the_haven_verb_on_the_command_line(tmp_path: Path, tk: Tk) -> None:
    """`haven CHARACTER ACTIVITY --dice`: the turn's records, typed dice recorded."""
    party = tmp_path / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    db = str(tmp_path / "c.db")
    tk(db, "new", "Keep", "--ruleset", "ex", "--party", str(party), "--seed", "3")
    out = tk(db, "haven", "Aldo", "work", "--dice", "6,6", as_json=False)
    assert "Aldo spends a month (30 days) at a haven: work" in out
    assert "Aldo's work (14): works well" in out
    assert "Aldo earns 30 coins (a month's work): 120 left" in out
    assert tk(db, "status")["party"]["characters"][0]["coins"] == 120


def test_tp_time_1_a_ruleset_changes_one_activity_and_keeps_the_others(tmp_path: Path) -> None:
    """DEFAULT haven table: a ruleset naming one activity changes that one; a roll naming a
    stat the ruleset lacks is refused as the file is read."""
    path = tmp_path / "h.toml"
    path.write_text(
        'extends = "ex"\n[ruleset]\nname = "h"\n[haven]\nliving = 5\n'
        '[haven.activities.work]\nroll = "2d6+DEX"\n'
        'bands = [{ up_to = 7, text = "odd jobs", coins = 3 }, { text = "a trade", coins = 12 }]\n',
        encoding="utf-8",
    )
    rules = load_ruleset(path).haven
    assert rules.living == 5
    assert list(rules.activities) == ["recover", "train", "research", "work", "carouse"]
    assert rules.activities["work"].band_for(8).coins == 12
    assert rules.activities["recover"].roll == "2d6+CON"
    path.write_text(
        'extends = "ex"\n[ruleset]\nname = "h"\n[haven.activities.work]\n'
        'roll = "2d6+LUCK"\nbands = [{ text = "odd jobs" }]\n',
        encoding="utf-8",
    )
    with pytest.raises(RulesetError, match=r"haven\.activities\.work\.roll: 'LUCK' is not one"):
        load_ruleset(path)


def test_tp_time_1_faction_list_shows_each_clock_resources_and_holdings(
    tmp_path: Path, tk: Tk
) -> None:
    """TP-TIME-1's faction turns, read: `faction list` gives the referee each faction's clock,
    resources and holdings, after a month turn's advance (2d6 (3, 4) + 1 = 8)."""
    party = tmp_path / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    factions = tmp_path / "factions.toml"
    factions.write_text(
        'map = "Vale"\n[[factions]]\nname = "Red Hand"\ngoal = "rule the ford"\nsegments = 4\n'
        'resources = { force = 2, wealth = -1 }\nhexes = ["0304"]\nsites = ["Barrow"]\n',
        encoding="utf-8",
    )
    db = str(tmp_path / "c.db")
    tk(db, "new", "Keep", "--ruleset", "ex", "--party", str(party), "--seed", "3")
    assert "No factions" in tk(db, "faction", "list", as_json=False)
    tk(db, "faction", "load", str(factions))
    tk(db, "wait", "30 days", "--dice", "3,4")
    listed = tk(db, "faction", "list")
    assert [(f["name"], f["filled"], f["segments"]) for f in listed] == [("Red Hand", 1, 4)]
    assert listed[0]["resources"] == {"force": 2, "wealth": -1}
    out = " ".join(tk(db, "faction", "list", as_json=False).split())
    told = "Red Hand: rule the ford 1/4; resources force +2, wealth -1; holds hex 0304, Barrow"
    assert told in out
