"""The calendar (issue 43, item 6): a month of the world as a grid of days.

A world of two parties passes months by play (waits) and by `party forward`; the calendar of
month 3 shows every party's days with its whereabouts, the world's month turn and the
factions' deeds; the players' calendar shows their party alone and what it heard (a deed the
referee keeps never reaches it, a revealed one does); a month that is not one is refused in
one line; and a month is read by game time, never the whole journal.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.integration.conftest import Shell
from tests.integration.months_world import (
    DAY,
    FACTIONS,
    MONTH_2,
    MONTH_3,
    PARTY,
    SEIZED,
    VALE,
    bring_forward,
    heard_by,
    new_world,
    wait_to,
)

from turnkeeper.campaign import parse_party
from turnkeeper.campaign.commands import AsParty
from turnkeeper.campaign.month_calendar import MonthCalendar
from turnkeeper.errors import NotFoundError
from turnkeeper.procedures.factions import LoadFactions, RevealDeed
from turnkeeper.procedures.parties import SplitParty
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.service.calendar import calendar_of
from turnkeeper.store import open_store
from turnkeeper.world.factions import parse_factions
from turnkeeper.world.hexes import Hex


@pytest.fixture
def world(tmp_path: Path) -> Campaigns:
    """Two parties, World and Scouts, and two factions, three months in: the Red Hand
    seizes hex 0102 at month 3's turn; World is on the Vale's map from the last day of month
    2; the Scouts take to the map on day 10 of month 2 and are brought forward to World."""
    campaigns = new_world(tmp_path)
    wait_to(campaigns, MONTH_2 - 3600)
    wait_to(campaigns, MONTH_2 + 3600, dice=[1, 1, 6, 6])  # Red Hand 3: trouble
    wait_to(campaigns, MONTH_3 - 3600)
    campaigns.execute("World", LoadMap(VALE, Hex.from_label("0101")))
    wait_to(campaigns, MONTH_3 + 3600, dice=[4, 4, 2, 2])  # Red Hand 9: expand, to 0102
    wait_to(campaigns, MONTH_3 + 5 * DAY)  # World lives days 1 to 6 of month 3
    wait_to(campaigns, 39 * DAY, party="Scouts")  # day 10 of month 2, 08:00
    campaigns.execute("World", AsParty("Scouts", LoadMap(VALE, Hex.from_label("0302"))))
    bring_forward(campaigns, "Scouts")
    campaigns.execute("World", RevealDeed("Red Hand"))  # World's players hear of the seizure
    return campaigns


def players(campaigns: Campaigns, party: str, month: str = "3") -> MonthCalendar:
    return calendar_of(campaigns, "World", month, party=party, keep=heard_by(campaigns, party))


def test_the_calendar_of_month_3_shows_every_partys_days(world: Campaigns) -> None:
    view = calendar_of(world, "World", "3")
    assert (view.month, view.parties, len(view.days)) == ("1-03", ["World", "Scouts"], 30)
    first = view.days[0]
    assert first.date == "1-03-01"
    assert [(p.party, p.lived, p.where) for p in first.parties] == [
        ("World", True, ["at hex 0101 of Vale"]),
        ("Scouts", True, ["at hex 0302 of Vale"]),
    ]
    assert first.events[:2] == ["the month turn of 1-03: the factions act", SEIZED]
    # both have lived to day 6, 01:00; no party has lived day 7 yet
    assert [d.day for d in view.days if all(p.lived for p in d.parties)] == [1, 2, 3, 4, 5, 6]
    assert not any(p.lived for d in view.days[6:] for p in d.parties)
    # and the seizure, told to World's players on day 6, is a line of that day
    assert [(d.day, d.events) for d in view.days[1:] if d.events] == [(6, [f"a rumour: {SEIZED}"])]


def test_a_partys_days_follow_its_whereabouts_through_the_month(world: Campaigns) -> None:
    view = calendar_of(world, "World", "1-02")
    where = {d.day: {p.party: p.where for p in d.parties} for d in view.days}
    assert where[1] == {"World": ["in town"], "Scouts": ["in town"]}
    assert where[10]["Scouts"] == ["in town", "at hex 0302 of Vale"]  # took to the map that day
    assert where[11]["Scouts"] == ["at hex 0302 of Vale"]
    assert where[29]["World"] == ["in town"]
    assert where[30]["World"] == ["in town", "at hex 0101 of Vale"]  # the map, at 23:00
    assert view.days[0].events[0] == "the month turn of 1-02: the factions act"
    assert (view.before, view.after) == ("1-01", "1-03")


def test_the_players_calendar_is_their_party_and_what_it_heard(world: Campaigns) -> None:
    world.execute("World", AsParty("Scouts", RevealDeed("grey court", text="the Court grows bold")))
    mine = players(world, "World")
    assert mine.player and mine.parties == ["World"]
    assert [p.party for d in mine.days for p in d.parties] == ["World"] * 30
    heard = [line for d in mine.days for line in d.events]
    # the seizure is the referee's deed until revealed: the players hear the rumour alone
    assert heard == [f"a rumour: {SEIZED}"]
    scouts = players(world, "Scouts")
    told = [line for d in scouts.days for line in d.events]
    assert scouts.parties == ["Scouts"] and told == ["a rumour: the Court grows bold"]
    # the referee's calendar keeps the deeds themselves
    referee = [line for d in calendar_of(world, "World", "3").days for line in d.events]
    assert SEIZED in referee and "a rumour: the Court grows bold" in referee


def test_a_deed_the_referee_keeps_never_reaches_a_players_calendar(tmp_path: Path) -> None:
    campaigns = Campaigns(open_store(str(tmp_path / "t.db")))
    campaigns.new("World", preset("ex"), parse_party(PARTY), seed=5)
    campaigns.execute("World", LoadFactions(parse_factions(FACTIONS)))
    wait_to(campaigns, MONTH_2 + 3600, dice=[1, 1, 6, 6])
    referee = [line for d in calendar_of(campaigns, "World", "2").days for line in d.events]
    assert any(line.startswith("Red Hand suffers trouble") for line in referee)
    mine = players(campaigns, "World", "2")
    assert [line for d in mine.days for line in d.events] == []
    campaigns.execute("World", RevealDeed("Red Hand"))
    mine = players(campaigns, "World", "2")
    assert [line for d in mine.days for line in d.events] == [
        "a rumour: Red Hand suffers trouble: its goal at 0 of 4"
    ]


@pytest.mark.parametrize(
    ("month", "said"),
    [
        ("13", "no such month '13': give a month of the calendar, 1 to 12"),
        ("Thermidor", "no such month 'Thermidor'"),
        ("1-00", "no such month '1-00'"),
        ("1-04", "month 1-04 has not begun: the world is at 1-03-06 00:00"),
    ],
)
def test_a_month_that_is_not_one_is_refused_in_one_line(
    world: Campaigns, month: str, said: str
) -> None:
    version = world.state("World").version
    with pytest.raises(NotFoundError, match=said):
        calendar_of(world, "World", month)
    assert world.state("World").version == version


def test_a_partys_calendar_ends_at_its_present(world: Campaigns) -> None:
    wait_to(world, MONTH_3 + 9 * DAY)  # World on to day 10
    with pytest.raises(NotFoundError, match="has not begun: the party is at"):
        calendar_of(world, "World", "1-04", party="Scouts")
    scouts = calendar_of(world, "World", "3", party="Scouts")
    assert [d.day for d in scouts.days if d.parties[0].lived] == [1, 2, 3, 4, 5, 6]
    assert scouts.after is None


def test_a_month_is_read_by_game_time_never_the_whole_journal(world: Campaigns) -> None:
    """The calendar reads the month's records of the kinds it shows, by the store's index on
    game time, and the few before it that place the parties; a journal grown by later
    months reads no more for it."""
    store = world.store
    read: list[int] = []
    timed = store.read_timed  # type: ignore[attr-defined]

    def counting(*args: object, **kwargs: object) -> list[object]:
        rows = timed(*args, **kwargs)
        read.append(len(rows))
        return rows  # type: ignore[no-any-return]

    store.read_timed = counting  # type: ignore[attr-defined]
    calendar_of(world, "World", "2")
    before = sum(read)
    for _ in range(3):  # three months more, by the day: many records after month 2
        wait_to(world, world.state("World").now + 30 * DAY)
    read.clear()
    later = calendar_of(world, "World", "2")
    assert sum(read) == before
    assert later.days[9].parties[1].where == ["in town", "at hex 0302 of Vale"]
    assert before < 40


def test_the_calendar_verb_draws_the_grid_and_refuses_in_one_line(
    world: Campaigns, shell: Shell
) -> None:
    db = world.store.url.removeprefix("sqlite:///")  # type: ignore[attr-defined]
    done = shell("calendar", "3", "--db", db, "--campaign", "World")
    assert done.code == 0, done.err
    assert "the calendar of month 1-03" in done.out and "Scouts" in done.out
    done = shell("calendar", "--player", "--party", "scouts", "--db", db, "--campaign", "World",
                 "--json")  # fmt: skip
    assert done.code == 0, done.err
    shown = json.loads(done.out)
    assert shown["parties"] == ["Scouts"] and "Red Hand" not in done.out
    done = shell("calendar", "13", "--db", db, "--campaign", "World")
    assert (done.code, done.out) == (2, "")
    assert done.err.startswith("error: no such month '13'") and done.err.count("\n") == 1


def test_a_party_split_off_before_the_month_starts_it_where_it_parted(tmp_path: Path) -> None:
    """The Riders split off on the map at hex 0101; the company went on to hex 0201 before
    month 2. Month 2 finds each where it last was: the walk back placing the Riders at their
    split reads on for where the company stood then."""
    campaigns = Campaigns(open_store(str(tmp_path / "t.db")))
    campaigns.new("World", preset("ex"), parse_party(PARTY), seed=5)
    campaigns.execute("World", LoadMap(VALE, Hex.from_label("0101")))
    campaigns.execute("World", SplitParty("Riders", ("Bea",), {"rations": 100, "water": 100}))
    campaigns.execute("World", LoadMap(VALE, Hex.from_label("0201")))
    wait_to(campaigns, MONTH_2 + DAY)
    wait_to(campaigns, MONTH_2 + DAY, party="Riders")
    view = calendar_of(campaigns, "World", "2")
    assert [(p.party, p.where) for p in view.days[0].parties] == [
        ("World", ["at hex 0201 of Vale"]),
        ("Riders", ["at hex 0101 of Vale"]),
    ]
