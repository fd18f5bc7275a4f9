"""Between sessions (issue 43, item 5): `world catch-up` brings every idle party forward by
the actual days since the last catch-up, under a ruleset that follows the real calendar
(TP-TIME-2's strict time record: the text's opening page lets one actual day be one game day
while the players are away).
"""

from __future__ import annotations

from datetime import date
from importlib.resources import files
from pathlib import Path

import pytest
from tests.integration.months_world import DAY, month_turns, new_world, real

from turnkeeper.campaign import Wait, parse_party
from turnkeeper.campaign.commands import AsParty
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import Combatant, Side
from turnkeeper.procedures.combat import EndCombat, StartFight
from turnkeeper.procedures.dungeon import EnterSite
from turnkeeper.procedures.factions import FactionActed, LoadFactions
from turnkeeper.procedures.haven import HavenResult, HavenTurnBegun
from turnkeeper.procedures.parties import (
    BringForward,
    CatchUp,
    DowntimeBegun,
    WorldCaughtUp,
)
from turnkeeper.rules import Ruleset, preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.verbs import VERBS
from turnkeeper.world.factions import parse_factions
from turnkeeper.world.sites import load_site

EXAMPLES = Path(str(files("turnkeeper.examples")))

#: Two factions of no map, each with a clock of nine segments.
FACTIONS = """
[[factions]]
name = "Red Hand"
goal = "rule the ford"
segments = 9

[[factions]]
name = "Grey Court"
goal = "crown a king"
segments = 9
"""

GOBLIN = Combatant(
    name="Goblin", side=Side.OPPOSITION, hp=4, max_hp=4, ac=12, hd=1, damage="d6", morale=7
)


def world(tmp_path: Path, ruleset: Ruleset) -> Campaigns:
    """A world of two parties, the company and the Scouts, both in town on day 1."""
    return new_world(tmp_path, ruleset, FACTIONS)


def catch_up(campaigns: Campaigns, today: str) -> None:
    campaigns.execute("World", CatchUp(date.fromisoformat(today)))


def refused(campaigns: Campaigns, command: CatchUp | AsParty, words: str) -> None:
    """``command`` is refused with ``words`` in its one line, and nothing changes."""
    before = campaigns.state("World")
    with pytest.raises(IllegalCommandError, match=words):
        campaigns.execute("World", command)
    assert campaigns.state("World") == before


def test_tp_time_2_a_catch_up_over_40_actual_days_moves_the_idle_party_alone(
    tmp_path: Path,
) -> None:
    """TP-TIME-2: 40 actual days between sessions are 40 game days for the idle company,
    each month turn in them runs once; the Scouts, fighting, are left where they are."""
    campaigns = world(tmp_path, real())
    campaigns.execute("World", AsParty("Scouts", StartFight(foes=(GOBLIN,))))
    scouts = campaigns.state("World").away_party("Scouts")
    start = campaigns.state("World").now

    catch_up(campaigns, "2026-10-20")  # the first catch-up marks the date, moves nothing
    state = campaigns.state("World")
    assert (state.now, state.caught_up) == (start, "2026-10-20")

    catch_up(campaigns, "2026-11-29")
    state = campaigns.state("World")
    assert state.now - start == 40 * DAY
    assert state.caught_up == "2026-11-29"
    assert month_turns(campaigns) == ["1-02"]
    acted = [
        r.event for r in campaigns.journal("World").records if isinstance(r.event, FactionActed)
    ]
    assert [a.faction for a in acted] == ["Red Hand", "Grey Court"]
    # the fight's party is untouched: its present, its fight, its supplies
    assert state.away_party("Scouts") == scouts
    told = campaigns.journal("World").records[-1].event
    assert isinstance(told, WorldCaughtUp)
    assert [(p.party, p.days, p.left) for p in told.parties] == [
        ("World", 40, False),
        ("Scouts", 0, True),
    ]
    assert told.describe() == (
        "the world catches up 2026-10-20 to 2026-11-29 (40 actual days): World lives 40 days; "
        "Scouts is left where it is (fighting: `combat end` first)"
    )

    # the next session: 40 actual days more cross month 3's boundary, which runs once
    catch_up(campaigns, "2027-01-08")
    assert campaigns.state("World").now - start == 80 * DAY
    assert month_turns(campaigns) == ["1-02", "1-03"]
    # the Scouts, their fight over, are brought forward by play: months 2 and 3 run no more
    assert campaigns.state("World").as_party("Scouts").now == start
    campaigns.execute("World", AsParty("Scouts", EndCombat()))
    campaigns.execute("World", AsParty("Scouts", BringForward()))
    assert campaigns.state("World").as_party("Scouts").now - start == 80 * DAY
    assert month_turns(campaigns) == ["1-02", "1-03"]


def test_tp_time_2_two_idle_parties_run_each_month_turn_once(tmp_path: Path) -> None:
    """TP-TIME-2: both parties live the 40 days; the month turn runs by the first to pass its
    boundary, and `party forward` after it runs no month turn again."""
    campaigns = world(tmp_path, real())
    start = campaigns.state("World").now
    catch_up(campaigns, "2026-10-20")
    catch_up(campaigns, "2026-11-29")
    state = campaigns.state("World")
    assert state.now - start == 40 * DAY
    assert state.as_party("Scouts").now - start == 40 * DAY
    assert month_turns(campaigns) == ["1-02"]
    downtime = [
        r.event for r in campaigns.journal("World").records if isinstance(r.event, DowntimeBegun)
    ]
    assert [(d.party, d.days) for d in downtime] == [("World", 40), ("Scouts", 40)]
    # months pass by play after it: a wait into month 3, the Scouts' downtime behind
    campaigns.execute("World", Wait(21 * DAY))
    campaigns.execute("World", AsParty("Scouts", BringForward()))
    assert month_turns(campaigns) == ["1-02", "1-03"]


def test_tp_time_2_the_same_catch_up_twice_does_nothing_the_second_time(tmp_path: Path) -> None:
    campaigns = world(tmp_path, real())
    catch_up(campaigns, "2026-10-20")
    catch_up(campaigns, "2026-10-27")
    refused(campaigns, CatchUp(date(2026, 10, 27)), "caught up to 2026-10-27 already")


def test_tp_time_2_refusals_change_nothing(tmp_path: Path) -> None:
    """An earlier date, a ruleset that keeps the world still: one line, nothing changed."""
    campaigns = world(tmp_path, real())
    catch_up(campaigns, "2026-10-20")
    refused(campaigns, CatchUp(date(2026, 10, 19)), "before 2026-10-20.*runs forward only")
    (tmp_path / "still").mkdir()
    still = world(tmp_path / "still", preset("ex"))
    before = still.state("World")
    with pytest.raises(IllegalCommandError, match="keeps the world still between sessions"):
        still.execute("World", CatchUp(date(2026, 10, 20)))
    assert still.state("World") == before


def test_tp_time_2_the_verb_takes_the_date_as_typed_or_the_machine_s(tmp_path: Path) -> None:
    """The core reads no clock: the verb gives the command its date (--today, else the
    machine's); a malformed date or a catch-up sent --as a party is refused in one line."""
    state = world(tmp_path, real()).state("World")
    body = VERBS["world_catch_up"]
    typed = body.model_validate({"verb": "world_catch_up", "today": "2026-11-29"})
    assert typed.build(state) == CatchUp(date(2026, 11, 29))
    machine = body.model_validate({"verb": "world_catch_up"}).build(state)
    assert isinstance(machine, CatchUp)
    for wrong in ("2026-13-01", "29/11/2026", "20261129", "yesterday"):
        made = body.model_validate({"verb": "world_catch_up", "today": wrong})
        with pytest.raises(IllegalCommandError, match="is not a date: write the actual date"):
            made.build(state)
    sent = body.model_validate(
        {"verb": "world_catch_up", "today": "2026-11-29", "as_party": "Scouts"}
    )
    with pytest.raises(IllegalCommandError, match=r"the world.s: .*leave out --as"):
        sent.build(state)


def test_tp_time_2_game_days_per_actual_day_and_spans_past_the_longest_wait(
    tmp_path: Path,
) -> None:
    """Three game days an actual day: 10 actual days are 30 game days, passed in commands of
    the ruleset's longest wait (12 days here), as one catch-up."""
    campaigns = world(tmp_path, real(game_days_per_day=3, max_wait_days=12))
    start = campaigns.state("World").now
    catch_up(campaigns, "2026-10-20")
    catch_up(campaigns, "2026-10-30")
    state = campaigns.state("World")
    assert state.now - start == 30 * DAY
    assert state.as_party("Scouts").now - start == 30 * DAY
    downtime = [
        r.event for r in campaigns.journal("World").records if isinstance(r.event, DowntimeBegun)
    ]
    assert [d.days for d in downtime] == [12, 12, 6, 12, 12, 6]
    assert (
        campaigns.journal("World")
        .records[-1]
        .event.describe()
        .startswith("the world catches up 2026-10-20 to 2026-10-30 (10 actual days, 30 game days)")
    )


def test_tp_time_2_the_date_caught_up_to_is_kept_in_the_time_record(tmp_path: Path) -> None:
    """A new process reads the date back from the journal, and the second catch-up of the
    same date is still refused."""
    campaigns = world(tmp_path, real())
    catch_up(campaigns, "2026-10-20")
    again = Campaigns(open_store(str(tmp_path / "t.db")))
    assert again.state("World").caught_up == "2026-10-20"
    refused(again, CatchUp(date(2026, 10, 20)), "caught up to 2026-10-20 already")


def test_tp_time_2_a_party_in_a_site_is_left_and_told_why(tmp_path: Path) -> None:
    """A party in a site spends no downtime there: the catch-up leaves it, says why, and
    brings the idle one forward."""
    campaigns = world(tmp_path, real())
    site = load_site(str(EXAMPLES / "site.toml"))
    campaigns.execute("World", AsParty("Scouts", EnterSite(site)))
    scouts = campaigns.state("World").away_party("Scouts")
    catch_up(campaigns, "2026-10-20")
    catch_up(campaigns, "2026-10-22")
    state = campaigns.state("World")
    assert state.away_party("Scouts") == scouts
    told = campaigns.journal("World").records[-1].event
    assert isinstance(told, WorldCaughtUp)
    assert [p.told() for p in told.parties] == [
        "World lives 2 days",
        f"Scouts is left where it is (in {site.name}: downtime is spent out of sites)",
    ]


HAVEN_PARTY = """
[[characters]]
name = "Aldo"
hp = 8
coins = 100
stats = { STR = 2 }
[[characters]]
name = "Bea"
hp = 6
coins = 15
[supplies]
rations = 400
water = 400
"""


def test_tp_time_1_the_whole_months_of_a_catch_up_are_haven_turns_in_turn(
    tmp_path: Path,
) -> None:
    """TP-TIME-1's haven turn in a catch-up: the characters given an activity spend the
    span's whole months at a haven in turn, as `haven` does (paid, rolled); the days left
    over are downtime. Bea cannot pay a month's carousing: her turn ends the haven turns,
    the rest passing as downtime, and the record says why."""
    campaigns = Campaigns(open_store(str(tmp_path / "t.db")))
    campaigns.new("World", real(), parse_party(HAVEN_PARTY), seed=5)
    campaigns.execute("World", LoadFactions(parse_factions(FACTIONS)))
    start = campaigns.state("World").now
    catch_up(campaigns, "2026-10-20")
    havens = (("Aldo", "work"), ("Bea", "carouse"))
    campaigns.execute("World", CatchUp(date(2026, 12, 29), havens))
    state = campaigns.state("World")
    assert state.now - start == 70 * DAY
    records = campaigns.journal("World").records
    begun = [r.event for r in records if isinstance(r.event, HavenTurnBegun)]
    assert [(b.character, b.activity) for b in begun] == [("Aldo", "work")]
    assert len([r for r in records if isinstance(r.event, HavenResult)]) == 1
    assert month_turns(campaigns) == ["1-02", "1-03"]
    told = records[-1].event
    assert isinstance(told, WorldCaughtUp)
    (world_,) = told.parties
    assert world_.haven_turns == ("Aldo work",)
    assert world_.days == 70
    assert "Bea has 15 coins; a month's carouse costs 40" in world_.why
    # Aldo paid 10 of living and earned by his roll; Bea paid nothing
    assert state.party.character("Bea").coins == 15


def test_tp_time_1_a_catch_up_naming_no_character_or_activity_of_the_world_is_refused(
    tmp_path: Path,
) -> None:
    campaigns = world(tmp_path, real())
    catch_up(campaigns, "2026-10-20")
    refused(campaigns, CatchUp(date(2026, 11, 1), (("Zed", "work"),)), "no character called 'Zed'")
    refused(campaigns, CatchUp(date(2026, 11, 1), (("Aldo", "fish"),)), "no haven activity 'fish'")
