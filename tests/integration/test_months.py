"""The month (issue 43): TP-TIME-1's "Haven/Domain Turn / Faction Turn: 1 month", played.

A small world of two parties and two factions lives three months. The world's month turn
runs once at each month's boundary, whichever party's waiting or downtime moves the world
there; the Red Hand seizes a hex at the month turn of month 3, and the Scouts, still in
month 2, are refused that hex until brought forward; each party's players hear only the
rumours revealed to them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.integration.months_world import (
    DAY,
    FACTIONS,
    MONTH_2,
    MONTH_3,
    MONTH_4,
    month_turns,
    new_world,
    party_log,
    rumours,
    scouts_refused_the_seized_hex,
    wait_to,
)

from turnkeeper.campaign.commands import AsParty
from turnkeeper.clock.durations import parse_duration
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.factions import (
    FactionActed,
    LoadFactions,
    RevealDeed,
)
from turnkeeper.procedures.parties import BringForward, ClearHex
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.world.factions import FactionsError, parse_factions


@pytest.fixture
def world(tmp_path: Path) -> Campaigns:
    return new_world(tmp_path)


def test_tp_time_1_haven_domain_and_faction_turns_are_a_month_of_the_calendar() -> None:
    """TP-TIME-1: a haven, domain or faction turn lasts a month, the calendar's month."""
    for name in ("ex", "tp", "pg", "dg", "cb"):
        time = preset(name).time
        month = time.month_days * time.day_hours * 3600
        for words in ("1 month", "1 haven turn", "1 domain turn", "1 faction turn"):
            assert parse_duration(words, time) == month
    assert parse_duration("2 haven turns") == 60 * DAY


def test_tp_time_1_the_month_turn_runs_once_whichever_party_moves_the_world(
    world: Campaigns,
) -> None:
    """TP-TIME-1: months pass by play (a wait) and by `party forward`; each month turn runs
    once, by the party that moves the world's present past its boundary, never again by the
    party behind that passes the same day later."""
    # the company moves the world into month 2 (typed dice: the two factions' rolls)
    wait_to(world, MONTH_2 - 3600)
    wait_to(world, MONTH_2 + 3600, dice=[3, 4, 2, 5])  # Red Hand 3+4+1=8, Grey Court 7
    assert month_turns(world) == ["1-02"]
    acted = [r.event for r in world.journal("World").records if isinstance(r.event, FactionActed)]
    assert [(a.faction, a.done, a.filled) for a in acted] == [
        ("Red Hand", "advance", 1),
        ("Grey Court", "advance", 1),
    ]
    assert [a.rolls[0].breakdown for a in acted] == [
        "2d6 (3, 4) + RESOURCES (1) = 8",
        "2d6 (2, 5) + RESOURCES (0) = 7",
    ]
    # the scouts, behind, live through month 2's boundary by downtime: no second month turn
    world.execute("World", AsParty("Scouts", BringForward()))
    assert month_turns(world) == ["1-02"]
    # the scouts now move the world into month 3 themselves: it runs, by them
    wait_to(world, MONTH_3 + 3600, party="Scouts")
    assert month_turns(world) == ["1-02", "1-03"]
    # and the company, brought forward through it, runs it no more
    while world.state("World").now < world.state("World").present:
        world.execute("World", BringForward())
    assert month_turns(world) == ["1-02", "1-03"]
    wait_to(world, MONTH_4 + 3600)
    assert month_turns(world) == ["1-02", "1-03", "1-04"]


def test_tp_time_2_a_party_behind_may_not_act_on_a_hex_a_faction_seized_later(
    world: Campaigns,
) -> None:
    """TP-TIME-2 with the month: the Red Hand seizes hex 0102 at month 3's turn; the Scouts,
    on day 40 in month 2, are refused the hex (nothing recorded) until brought forward, and
    hear of the seizure only once their present has passed it."""
    wait_to(world, MONTH_2 - 3600)
    wait_to(world, MONTH_2 + 3600, dice=[1, 1, 6, 6])  # Red Hand 3: trouble; Grey Court 12
    wait_to(world, MONTH_3 - 3600)
    wait_to(world, MONTH_3 + 3600, dice=[4, 4, 2, 2])  # Red Hand 9: expand; Grey Court 4
    seized = [
        r.event
        for r in world.journal("World").records
        if isinstance(r.event, FactionActed) and r.event.hex is not None
    ]
    assert [(s.faction, s.map, s.hex, s.act) for s in seized] == [
        ("Red Hand", "Vale", "0102", "expand")
    ]
    state = world.state("World")
    assert state.factions is not None and state.factions.faction("Red Hand").hexes == (
        "0304",
        "0102",
    )
    assert state.day == 61

    scouts_refused_the_seized_hex(world)
    version = world.state("World").version
    with pytest.raises(IllegalCommandError, match="bring Scouts forward first"):
        world.execute("World", AsParty("Scouts", RevealDeed("Red Hand", deed=2)))
    assert world.state("World").version == version  # refused: nothing recorded
    world.execute("World", AsParty("Scouts", ClearHex("0103")))  # the rest of the map is open

    # the company, at day 61, hears of the seizure; the scouts of Grey Court's first month
    world.execute("World", RevealDeed("Red Hand"))
    world.execute("World", AsParty("Scouts", RevealDeed("grey court", text="the Court grows bold")))
    heard = {party: rumours(world, party) for party in ("World", "Scouts")}
    assert heard == {
        "World": ["a rumour: Red Hand seizes hex 0102 of Vale"],
        "Scouts": ["a rumour: the Court grows bold"],
    }
    # the deeds themselves are the referee's: no player hears a faction act
    for party in ("World", "Scouts"):
        lines = [r.event.kind for r in party_log(world, party)]
        assert "faction.acted" not in lines and "month.turned" not in lines


A_FACTION = '[[factions]]\nname = "A"\ngoal = "g"\n'


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('map = "Vale"\n' + A_FACTION + "segmints = 3", "did you mean 'segments'"),
        (A_FACTION + 'segments = 3\nhexes = ["0102"]', "name the map"),
        (A_FACTION + 'segments = 3\nrivals = ["B"]', "'B' is no other faction"),
        (A_FACTION + 'segments = "3"', "factions.0.segments"),
        (A_FACTION + "segments = 3\nresources = { force = 9 }", "from -5 to 5"),
        (A_FACTION + "segments = 3\nfilled = 4", "4 of a clock of 3"),
    ],
)
def test_a_factions_file_that_does_not_read_is_one_error(text: str, said: str) -> None:
    with pytest.raises(FactionsError, match=f"^factions.toml: .*{re.escape(said)}"):
        parse_factions(text, "factions.toml")


def test_a_world_lays_out_its_factions_once(world: Campaigns) -> None:
    version = world.state("World").version
    with pytest.raises(IllegalCommandError, match="laid out already"):
        world.execute("World", LoadFactions(parse_factions(FACTIONS)))
    assert world.state("World").version == version
