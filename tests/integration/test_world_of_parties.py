"""One world, many parties: the time record of every character's whereabouts (issue 28).

TP-TIME-1 gives the scales (downtime turns of a day; haven, domain and faction turns of a
month) and TP-TIME-2 the strictness: every turn that passes is recorded. The example played
here is the one the referee's texts tell of: four characters adventure together to day 50; on
day 51 one rides off with a hired henchman, three rest in town and two newcomers enter the
dungeon; the area the newcomers clear on day 51 is found cleared by the three when they are
brought forward and go in; a world countdown of 10 days ticks ten times in all while the
parties live through those days; and a party two days in cannot enter the lair whose dragon
another slew on day 7 until it is brought forward.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from turnkeeper.campaign import CampaignState, CountdownAdd, Redo, Undo, Wait, parse_party
from turnkeeper.campaign.commands import AsParty
from turnkeeper.campaign.time_record import character_record
from turnkeeper.clock.calendar import day_number
from turnkeeper.dice.sources import SeededDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.events import NoteMade, Visibility
from turnkeeper.procedures.countdowns import CountdownEnded, CountdownTicked
from turnkeeper.procedures.dungeon import EndEncounter, EnterSite, LeaveSite, Turn
from turnkeeper.procedures.dungeon.events import Perceived
from turnkeeper.procedures.parties import (
    BringForward,
    ClearArea,
    ClearHex,
    JoinParty,
    NewParty,
    ShareKnowledge,
    SplitParty,
    SwitchParty,
)
from turnkeeper.procedures.wilderness import (
    Camp,
    LoadMap,
    RollWeather,
    SetWeather,
    Travel,
    roll_weather,
)
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.views.party import player_state
from turnkeeper.views.timeline import timeline
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile
from turnkeeper.world.sites import parse_site

from .conftest import Shell

DAY = 24 * 3600

COMPANY = """
[[characters]]
name = "Aldo"
hp = 14
[[characters]]
name = "Bea"
hp = 6
[[characters]]
name = "Cato"
hp = 8
[[characters]]
name = "Dara"
hp = 7
[[characters]]
name = "Hugo"
class = "henchman"
hp = 5

[supplies]
rations = 400
water = 400
"""

NEWCOMERS = """
[[characters]]
name = "Eve"
hp = 9
[[characters]]
name = "Finn"
hp = 8

[supplies]
rations = 40
"""

BARROW = """
[site]
name = "Barrow"

[[levels]]
number = 1

[[levels.areas]]
key = "1"
name = "Antechamber"
occupied = true
occupants = "3 ghouls"
notes = "The ghouls guard the way down."

[[levels.areas]]
key = "2"
name = "Crypt"
"""

LAIR = """
[site]
name = "Lair"

[[levels]]
number = 1

[[levels.areas]]
key = "1"
name = "Hoard"
occupied = true
occupants = "the red dragon"
notes = "The cave's mouth opens on the hoard: the way in."

[[levels.areas]]
key = "2"
name = "Bone pit"
"""


#: A map whose climate has no weather table: the wilderness die turns no weather there by
#: itself (a referee's note asks for it), so the weather is only what the test sets.
STILL_VALE = MapFile.model_validate(
    {
        "name": "Vale",
        "width": 6,
        "height": 4,
        "terrain": ["pppppp"] * 4,
        "hexes": [{"at": "0000", "climate": "still"}],
    }
)


@pytest.fixture
def world(tmp_path: Path) -> Campaigns:
    campaigns = Campaigns(open_store(str(tmp_path / "t.db")))
    campaigns.new("Company", preset("tp"), parse_party(COMPANY), seed=11)
    return campaigns


def live_until(campaigns: Campaigns, day: int, party: str | None = None) -> None:
    """Wait (a day at most at a time: the downtime die may break a wait) until the party's
    day ``day`` at 08:00."""
    while True:
        state = campaigns.state("Company")
        if party is not None:
            state = state.as_party(party)
        left = (day - 1) * DAY - state.now
        if left <= 0:
            return
        wait = Wait(min(left, DAY))
        campaigns.execute("Company", wait if party is None else AsParty(party, wait))


def go_into(campaigns: Campaigns, area: str, party: str | None = None) -> list[str]:
    """Dungeon turns toward ``area`` until the party stands in it (a turn of TP-DUN-1's
    Forced Rest keeps it where it is): what the party perceived on the way."""
    told: list[str] = []
    for _ in range(20):
        turn = Turn(mode="cautious", area=area)
        records = campaigns.execute("Company", turn if party is None else AsParty(party, turn))
        told += [r.event.text for r in records if isinstance(r.event, Perceived)]
        state = campaigns.state("Company")
        site = (state if party is None else state.as_party(party)).site
        if site is not None and site.area == area:
            return told
    raise AssertionError(f"never reached area {area}")


def brought_forward(campaigns: Campaigns) -> None:
    """Bring the party run now to the world's present: in one command, and again after each
    encounter the downtime die (TP-ENC-1) breaks the downtime with, once it is played out."""
    while campaigns.state("Company").now < campaigns.state("Company").present:
        campaigns.execute("Company", BringForward())


def test_tp_time_1_the_example_of_many_groups_in_one_world(world: Campaigns) -> None:
    """TP-TIME-1, TP-TIME-2: the referee's example, played whole."""
    live_until(world, 50)  # four characters and a henchman adventure together to day 50
    assert world.state("Company").day == 50
    live_until(world, 51)
    world.execute("Company", CountdownAdd("the dragon wakes", "day", "10", world=True))

    # day 51: Aldo rides off to the oracle with Hugo, hired; the three rest in town
    world.execute("Company", SplitParty("Oracle Ride", ("Aldo", "Hugo"), {"rations": 30}))
    # two newcomers enter the world and the barrow, and clear its first area on day 51
    world.execute("Company", NewParty("Newcomers", parse_party(NEWCOMERS)))
    barrow = parse_site(BARROW, "barrow.toml")
    world.execute("Company", AsParty("Newcomers", EnterSite(barrow)))
    go_into(world, "1", party="Newcomers")
    state = world.state("Company")
    # --as runs one command: the company is still the party run, the newcomers on day 51
    assert state.company == "Company" and state.as_party("Newcomers").day == 51
    newcomers = state.as_party("Newcomers")
    if newcomers.site is not None and newcomers.site.encounter is not None:
        world.execute("Company", AsParty("Newcomers", EndEncounter(fought=True)))
    world.execute("Company", AsParty("Newcomers", ClearArea("1")))
    assert world.state("Company").places[0].party == "Newcomers"

    # the ride: five days on the road, through which the world countdown ticks
    live_until(world, 56, party="Oracle Ride")
    # the three, a day behind the oracle-riders' present, are brought forward in one command
    behind = world.state("Company")
    assert behind.day == 51 and behind.present // DAY == 55

    # the world countdown as it stood at their own present: the ride's days are not yet theirs
    def dragon(state: CampaignState) -> int:
        shown = {c.name: c.left for c in player_state(state).countdowns}
        return shown["the dragon wakes"]

    assert (dragon(behind), behind.countdown("the dragon wakes").left) == (10, 5)
    records = world.execute("Company", BringForward())
    spent = next(r.event for r in records if type(r.event).__name__ == "DowntimeBegun")
    assert spent.describe() == "Company spends 5 days in town"
    brought_forward(world)
    brought = world.state("Company")
    assert brought.now == brought.present and brought.day == 56
    assert dragon(brought) == 5
    assert brought.party.character("Bea") is not None
    assert brought.supplies.count("rations") < 400 - 30  # they ate, a meal a day

    # they go in: the antechamber the newcomers cleared is found cleared, no ghoul met
    world.execute("Company", EnterSite(barrow))
    told = go_into(world, "1")
    assert "Area 1 has been cleared: no one dwells here now." in told
    assert world.state("Company").site.encounter is None  # type: ignore[union-attr]

    # the newcomers leave and live on to day 61: the countdown's last five days
    world.execute("Company", AsParty("Newcomers", LeaveSite()))
    live_until(world, 61, party="Newcomers")

    journal = world.journal("Company").records
    ticks = [
        r.event
        for r in journal
        if isinstance(r.event, CountdownTicked) and r.event.name == "the dragon wakes"
    ]
    assert [t.left for t in ticks] == list(range(9, -1, -1))  # ten ticks in all, never twice
    ended = [r.event for r in journal if isinstance(r.event, CountdownEnded)]
    assert [e.reason for e in ended if e.name == "the dragon wakes"] == ["ran out"]

    # the referee's timeline: every character, where and when
    view = timeline(world.state("Company"))
    where = {c.name: (c.party, c.day) for c in view.characters}
    assert where == {
        "Aldo": ("Oracle Ride", 56),
        "Hugo": ("Oracle Ride", 56),
        "Bea": ("Company", 56),
        "Cato": ("Company", 56),
        "Dara": ("Company", 56),
        "Eve": ("Newcomers", 61),
        "Finn": ("Newcomers", 61),
    }
    lag = {p.name: p.behind_days for p in view.parties}
    assert lag == {"Newcomers": 0, "Company": 5, "Oracle Ride": 5}
    assert [p.party for p in view.places] == ["Newcomers"]

    # Aldo's own time record: with the company to day 51, then on his ride, never the others'
    aldo = list(character_record(journal, "Aldo"))
    assert {party for party, _ in aldo} == {"Company", "Oracle Ride"}
    rode = [r for party, r in aldo if party == "Oracle Ride"]
    assert rode and all(r.at >= 50 * DAY for r in rode)
    assert not any("Newcomers" in r.event.describe() for _, r in aldo)


def test_tp_time_2_no_party_acts_before_another_changed_the_place(world: Campaigns) -> None:
    """TP-TIME-2: one order of events. The company slays the dragon on day 7 in its hoard,
    the area the lair is entered by; Red Company, on day 2, is refused the lair by that way
    until brought forward, and then finds the hoard cleared."""
    world.execute("Company", SplitParty("Red Company", ("Cato", "Dara")))
    live_until(world, 7)
    lair = parse_site(LAIR, "lair.toml")
    world.execute("Company", EnterSite(lair, area="1"))
    world.execute("Company", ClearArea(what="slew the dragon in"))
    world.execute("Company", LeaveSite())

    world.execute("Company", SwitchParty("Red Company"))
    live_until(world, 2)
    version = world.state("Company").version
    with pytest.raises(IllegalCommandError) as refused:
        world.execute("Company", EnterSite(lair, area="1"))
    assert str(refused.value) == (
        "Red Company is at day 2; Company slew the dragon in area 1 of Lair on day 7: "
        "bring Red Company forward first (`party forward`)"
    )
    assert world.state("Company").version == version  # refused: nothing recorded

    brought_forward(world)
    world.execute("Company", EnterSite(lair))
    assert "Area 1 has been cleared: no one dwells here now." in go_into(world, "1")
    assert world.state("Company").site.encounter is None  # type: ignore[union-attr]


def travel_to(campaigns: Campaigns, label: str) -> None:
    """Travel until the party run now stands in hex ``label`` (the die may halt a journey,
    and a day's TP run out: then a camp, and on)."""
    for _ in range(10):
        wild = campaigns.state("Company").wilderness
        assert wild is not None
        if wild.position.label == label and wild.pending is None:
            return
        try:
            campaigns.execute("Company", Travel(label, explore=True))
        except IllegalCommandError as refused:
            if "camp" not in str(refused):
                raise
            campaigns.execute("Company", Camp())
    raise AssertionError(f"never reached hex {label}")


def test_tp_time_2_no_party_travels_into_a_hex_another_changed_later(world: Campaigns) -> None:
    """TP-TIME-2 on the map, a hex being a place as a site's area is: the company slays the
    dragon in its lair in hex 0100 on day 7; Red Company, on day 2 in the next hex, is
    refused the way in (nothing recorded) until brought forward, and the timeline names the
    hex."""
    vale = MapFile(name="Vale", width=6, height=4, terrain=["pppppp"] * 4)
    world.execute("Company", LoadMap(vale, Hex.from_label("0000")))
    world.execute("Company", SplitParty("Red Company", ("Cato", "Dara")))
    live_until(world, 7)
    travel_to(world, "0100")
    world.execute("Company", ClearHex(what="slew the dragon in"))
    cleared = world.state("Company").day

    world.execute("Company", SwitchParty("Red Company"))
    live_until(world, 2)
    version = world.state("Company").version
    with pytest.raises(IllegalCommandError) as refused:
        world.execute("Company", Travel("0100", explore=True))
    assert str(refused.value) == (
        f"Red Company is at day 2; Company slew the dragon in hex 0100 of Vale on day "
        f"{cleared}: bring Red Company forward first (`party forward`)"
    )
    assert world.state("Company").version == version  # refused: nothing recorded
    with pytest.raises(IllegalCommandError, match="hex 0100 of Vale"):
        world.execute("Company", ClearHex("0100"))  # nor act on it from afar

    brought_forward(world)
    travel_to(world, "0100")
    seen = timeline(world.state("Company"))
    assert {p.name: p.where for p in seen.parties}["Red Company"] == "at hex 0100"  # its label
    (place,) = [p for p in seen.places if not p.weather]  # the die may turn the weather
    assert (place.place, place.hex, place.what, place.day) == (
        "hex 0100 of Vale",
        True,
        "slew the dragon in",
        cleared,
    )


def test_parties_join_only_at_the_same_place_and_time(world: Campaigns) -> None:
    world.execute("Company", SplitParty("Grey Band", ("Bea",), {"rations": 10}))
    world.execute("Company", AsParty("Grey Band", Wait(DAY)))
    with pytest.raises(IllegalCommandError, match="Company is 1 day behind Grey Band"):
        world.execute("Company", AsParty("Company", JoinParty("Grey Band")))
    brought_forward(world)
    world.execute("Company", JoinParty("Grey Band"))
    state = world.state("Company")
    assert [c.name for c in state.party.characters] == ["Aldo", "Cato", "Dara", "Hugo", "Bea"]
    assert state.away == ()
    assert state.supplies.count("rations") <= 400  # what Grey Band took came back, less meals


@pytest.mark.parametrize(
    ("command", "refusal"),
    [
        (SplitParty("Company", ("Bea",)), "a party called 'Company' is already in the world"),
        (
            SplitParty("All", ("Aldo", "Bea", "Cato", "Dara", "Hugo")),
            "everyone would leave Company",
        ),
        (SplitParty("Few", ("Zed",)), "no character called 'Zed'"),
        (SplitParty("Few", ("Bea",), {"rations": 9999}), "carries 400 rations"),
        (SwitchParty("Nobody"), "no party called 'Nobody'"),
        (BringForward(), "at the world's present already"),
        (ClearArea(), "is in no site"),
    ],
)
def test_a_party_command_that_cannot_be_is_refused_and_changes_nothing(
    world: Campaigns, command: object, refusal: str
) -> None:
    version = world.state("Company").version
    with pytest.raises(IllegalCommandError, match=refusal):
        world.execute("Company", command)  # type: ignore[arg-type]
    assert world.state("Company").version == version


def test_no_party_sees_another_partys_secrets(world: Campaigns) -> None:
    world.execute("Company", SplitParty("Oracle Ride", ("Aldo", "Hugo")))
    world.execute("Company", NewParty("Newcomers", parse_party(NEWCOMERS)))
    world.execute("Company", AsParty("Newcomers", EnterSite(parse_site(BARROW, "b.toml"))))
    state = world.state("Company")
    for party, others in {
        "Company": ("Aldo", "Hugo", "Eve", "Finn", "Barrow", "Oracle Ride", "Newcomers"),
        "Oracle Ride": ("Bea", "Cato", "Eve", "Finn", "Barrow", "Newcomers"),
        "Newcomers": ("Aldo", "Bea", "Hugo", "Oracle Ride"),
    }.items():
        seen = player_state(state.as_party(party)).model_dump_json()
        assert json.loads(seen)["party_name"] == party
        for secret in others:
            assert secret not in seen, (party, secret)
    assert "ghouls" not in player_state(state).model_dump_json()  # the referee's key


def test_a_world_countdown_is_for_the_world_not_a_round(world: Campaigns) -> None:
    with pytest.raises(IllegalCommandError, match="world countdown ticks on the world's days"):
        world.execute("Company", CountdownAdd("torch smoke", "short", "3", world=True))


def test_a_journal_of_one_party_replays_as_it_was(world: Campaigns) -> None:
    """Existing campaigns open as a world of one party: no record names the world."""
    world.execute("Company", Wait(DAY))
    exported = world.export_jsonl("Company")
    assert "party." not in exported and "world" not in exported
    assert timeline(world.state("Company")).parties[0].name == "Company"


def test_what_a_party_found_is_its_own_until_shared(world: Campaigns) -> None:
    """Each party keeps its own knowledge of the map (EX-MAP-2's party map): the Grey Band,
    splitting off in the barrow, walks into the crypt; the company has not seen it until the
    band shares what it found, by a recorded command."""
    barrow = parse_site(BARROW, "barrow.toml")
    world.execute("Company", EnterSite(barrow))
    world.execute("Company", SplitParty("Grey Band", ("Bea",)))
    go_into(world, "2", party="Grey Band")

    def company_knows_the_crypt() -> bool:
        seen = player_state(world.state("Company").as_party("Company")).model_dump_json()
        return "Crypt" in seen

    assert not company_knows_the_crypt()
    # the company is behind the band's present: it cannot be told what was not found yet
    with pytest.raises(IllegalCommandError, match=r"Company is \d+[hm].* behind Grey Band"):
        world.execute("Company", AsParty("Grey Band", ShareKnowledge("Company")))
    world.execute("Company", AsParty("Company", Wait(3600)))
    world.execute("Company", AsParty("Grey Band", ShareKnowledge("Company")))
    assert company_knows_the_crypt()
    records = world.log("Company")
    assert records[-2].event.describe() == "Grey Band shares what it found with Company"


def test_undo_takes_back_a_split_and_a_turn_to_another_party(world: Campaigns) -> None:
    """Party commands are commands like any: an undo takes back the time record's turn to a
    party with the command it carried, and the split itself; a redo brings them back."""
    world.execute("Company", SplitParty("Grey Band", ("Bea",)))
    world.execute("Company", AsParty("Grey Band", Wait(3600)))
    world.execute("Company", Undo())
    state = world.state("Company")
    assert (state.company, state.now, [p.name for p in state.away]) == ("Company", 0, ["Grey Band"])
    world.execute("Company", Redo())
    redone = world.state("Company")
    assert (redone.company, redone.as_party("Grey Band").now) == ("Company", 3600)
    world.execute("Company", Undo())
    world.execute("Company", Undo())
    state = world.state("Company")
    assert state.away == () and state.party.character("Bea") is not None


def test_one_tables_undo_never_takes_back_another_tables_command(world: Campaigns) -> None:
    """Two tables in one world, each sending its commands --as its party: the latest command
    is the Grey Band's, so the company's table may not undo it, nothing recorded; the Grey
    Band's table may, and then the company's own command is the latest."""
    world.execute("Company", SplitParty("Grey Band", ("Bea",)))
    world.execute("Company", AsParty("Company", Wait(600)))
    world.execute("Company", AsParty("Grey Band", Wait(3600)))
    version = world.state("Company").version
    with pytest.raises(IllegalCommandError) as refused:
        world.execute("Company", AsParty("Company", Undo()))
    assert str(refused.value) == (
        "the latest command was Grey Band's, not Company's: an undo takes back the latest "
        "command only, and Company's table may not undo another's "
        '(`undo --as "Grey Band"` is theirs to do)'
    )
    assert world.state("Company").version == version
    (undone,) = world.execute("Company", AsParty("Grey Band", Undo()))
    assert world.state("Company").as_party("Grey Band").now == 0
    assert undone.event.describe() == (
        "undid command 4: 1h pass"  # what it took back
    )
    world.execute("Company", AsParty("Company", Undo()))  # its own wait, the latest now
    assert world.state("Company").as_party("Company").now == 0


def test_the_worlds_weather_reaches_a_party_behind_as_its_time_passes(world: Campaigns) -> None:
    """The world shares its map's weather: the rain the Grey Band meets on day 3 is the
    company's too once the company's own time reaches day 3, never before; the company may
    not set snow on day 2, a day the world has lived already (the band changed the weather
    there after it), and the world keeps the change when every party is past it."""
    world.execute("Company", LoadMap(STILL_VALE, Hex.from_label("0000")))
    world.execute("Company", SplitParty("Grey Band", ("Bea",)))
    live_until(world, 3, party="Grey Band")
    world.execute("Company", AsParty("Grey Band", SetWeather("rain")))
    world.execute("Company", AsParty("Grey Band", Wait(2 * 3600)))

    def weather(party: str) -> str:
        wild = world.state("Company").as_party(party).wilderness
        assert wild is not None
        return wild.weather_at(wild.position)

    assert (weather("Grey Band"), weather("Company")) == ("rain", "clear")
    live_until(world, 2, party="Company")
    version = world.state("Company").version
    with pytest.raises(IllegalCommandError) as refused:
        world.execute("Company", AsParty("Company", SetWeather("light_snow")))
    assert str(refused.value) == (
        "Company is at day 2; Grey Band had the weather turn rain over wilds of Vale on day 3: "
        "bring Company forward first (`party forward`)"
    )
    assert world.state("Company").version == version
    live_until(world, 3, party="Company")  # day 3 08:00, when the rain came
    assert (weather("Grey Band"), weather("Company")) == ("rain", "rain")
    live_until(world, 4, party="Company")  # every party past it: the world keeps its history
    kept = world.state("Company").weather_changes
    time = world.state("Company").ruleset.time
    assert [(c.party, c.weather, day_number(c.at, time)) for c in kept] == [
        ("Grey Band", "rain", 3)
    ]


def test_what_a_party_saw_on_the_map_is_its_own_until_shared(world: Campaigns) -> None:
    """The map's half of a party's knowledge: the hexes the Grey Band entered are its own
    until it shares them with the company, which then knows them too (the players' map)."""
    vale = MapFile(name="Vale", width=6, height=4, terrain=["pppppp"] * 4)
    world.execute("Company", LoadMap(vale, Hex.from_label("0000")))
    world.execute("Company", SplitParty("Grey Band", ("Bea",)))
    world.execute("Company", AsParty("Grey Band", Travel("se")))
    band = world.state("Company").as_party("Grey Band")
    company = world.state("Company").as_party("Company")
    assert band.wilderness is not None and company.wilderness is not None
    found_by_band = band.wilderness.visited - company.wilderness.visited
    assert found_by_band  # the band has been where the company has not
    world.execute("Company", AsParty("Company", Wait(band.now - company.now)))
    world.execute("Company", AsParty("Grey Band", ShareKnowledge("Company")))
    told = world.state("Company").as_party("Company").wilderness
    assert told is not None and found_by_band <= told.visited
    assert band.wilderness.seen <= told.seen


# --- the place ledger is a history (issue 37) ------------------------------------------------


def barrow_of_three(campaigns: Campaigns) -> None:
    """Three groups in the barrow on day 1: Rearguard (Cato) walks into the crypt, area 2;
    Ghoul-watch (Dara) stands in the antechamber, area 1; the company goes out and comes
    back on day 7 to slay the ghouls of area 1."""
    barrow = parse_site(BARROW, "barrow.toml")
    campaigns.execute("Company", EnterSite(barrow))
    campaigns.execute("Company", SplitParty("Rearguard", ("Cato",)))
    campaigns.execute("Company", SplitParty("Ghoul-watch", ("Dara",)))
    go_into(campaigns, "2", party="Rearguard")
    go_into(campaigns, "1", party="Ghoul-watch")
    campaigns.execute("Company", AsParty("Company", LeaveSite()))
    live_until(campaigns, 7, party="Company")
    campaigns.execute("Company", EnterSite(barrow))
    go_into(campaigns, "1")
    if campaigns.state("Company").site.encounter is not None:  # type: ignore[union-attr]
        campaigns.execute("Company", EndEncounter(fought=True))
    campaigns.execute("Company", ClearArea("1", what="slew the ghouls in"))


@pytest.mark.parametrize("party", ["Rearguard", "Ghoul-watch"])
def test_no_party_inside_a_site_clears_an_area_another_changed_later(
    world: Campaigns, party: str
) -> None:
    """The company slays the ghouls of area 1 on day 7; neither group still on day 1 in the
    barrow (one in the crypt, one standing in area 1 itself) may clear area 1 before: the
    record of area 1 stays the company's deed on day 7, nothing recorded."""
    barrow_of_three(world)
    version = world.state("Company").version
    with pytest.raises(IllegalCommandError) as refused:
        world.execute("Company", AsParty(party, ClearArea("1", what="slew the ghouls in")))
    assert str(refused.value) == (
        f"{party} is at day 1; Company slew the ghouls in area 1 of Barrow on day 7: "
        f"bring {party} forward first (`party forward`)"
    )
    assert world.state("Company").version == version
    (place,) = timeline(world.state("Company")).places
    assert (place.party, place.what, place.place, place.day) == (
        "Company",
        "slew the ghouls in",
        "area 1 of Barrow",
        7,
    )


def test_the_ledger_keeps_every_change_to_a_place(world: Campaigns) -> None:
    """A place's history, not only its latest change: the company slays the ghouls of area
    1 on day 7; the rearguard, brought forward past it, clears the area again on day 8 (its
    bones picked clean); both deeds stay the area's record, each with its day and party."""
    barrow_of_three(world)
    world.execute("Company", SwitchParty("Rearguard"))
    world.execute("Company", LeaveSite())
    brought_forward(world)
    live_until(world, 8)
    world.execute("Company", EnterSite(parse_site(BARROW, "barrow.toml"), area="1"))
    world.execute("Company", ClearArea(what="picked clean the bones in"))
    seen = [(p.day, p.party, p.what) for p in timeline(world.state("Company")).places]
    assert seen == [
        (7, "Company", "slew the ghouls in"),
        (8, "Rearguard", "picked clean the bones in"),
    ]


def test_a_party_behind_enters_a_site_by_an_area_nobody_changed_after_its_present(
    world: Campaigns,
) -> None:
    """The place is the area, not the whole site: the company slays the dragon in the
    lair's hoard on day 7; Red Company on day 2 enters the lair and goes down to the bone
    pit, which nobody changed, and only a turn into the hoard is refused."""
    world.execute("Company", SplitParty("Red Company", ("Cato", "Dara")))
    live_until(world, 7)
    lair = parse_site(LAIR, "lair.toml")
    world.execute("Company", EnterSite(lair, area="1"))
    world.execute("Company", ClearArea(what="slew the dragon in"))

    world.execute("Company", SwitchParty("Red Company"))
    live_until(world, 2)
    world.execute("Company", EnterSite(lair))
    go_into(world, "2")
    assert world.state("Company").site.area == "2"  # type: ignore[union-attr]
    # TP-DUN-1: a turn whose die holds the party (a forced rest) never reaches the hoard's
    # door, so it is not refused: the referee turns again (the die as the seed rolls it)
    for _ in range(6):
        version = world.state("Company").version
        try:
            world.execute("Company", Turn(mode="cautious", area="1"))
        except IllegalCommandError as error:
            refused = error
            break
        assert world.state("Company").site.area == "2"  # type: ignore[union-attr]
    assert str(refused) == (
        "Red Company is at day 2; Company slew the dragon in area 1 of Lair on day 7: "
        "bring Red Company forward first (`party forward`)"
    )
    assert world.state("Company").version == version


def rain_from_day_3_to_7(campaigns: Campaigns) -> None:
    """The company (Grey Band split off on day 1 in hex 0000 of Vale) lives days 3 to 7 in
    rain in hex 0000."""
    campaigns.execute("Company", LoadMap(STILL_VALE, Hex.from_label("0000")))
    campaigns.execute("Company", SplitParty("Grey Band", ("Bea",)))
    live_until(campaigns, 3, party="Company")
    campaigns.execute("Company", AsParty("Company", SetWeather("rain")))
    live_until(campaigns, 7, party="Company")


@pytest.mark.parametrize("command", [SetWeather("clear"), RollWeather()])
def test_no_party_behind_changes_the_weather_of_days_the_world_has_lived(
    world: Campaigns, command: object
) -> None:
    """A day's weather is a place the world lives once: the company lived days 3 to 7 in
    rain in hex 0000; the Grey Band, on day 4 there, may neither set nor roll the weather."""
    rain_from_day_3_to_7(world)
    live_until(world, 4, party="Grey Band")
    version = world.state("Company").version
    with pytest.raises(IllegalCommandError) as refused:
        world.execute("Company", AsParty("Grey Band", command))  # type: ignore[arg-type]
    assert str(refused.value) == (
        "Grey Band is at day 4; Company had the weather turn rain over wilds of Vale on day 3 "
        "and lived it to day 7: bring Grey Band forward first (`party forward`)"
    )
    assert world.state("Company").version == version


def test_no_party_behind_changes_the_weather_another_lived_unchanged(world: Campaigns) -> None:
    """Lived weather needs no change to be the world's: the company lives days 1 to 7 on the
    map as the weather was; the Grey Band on day 4 may not set it, and once brought to the
    company's present it may."""
    world.execute("Company", LoadMap(STILL_VALE, Hex.from_label("0000")))
    world.execute("Company", SplitParty("Grey Band", ("Bea",)))
    live_until(world, 7, party="Company")
    live_until(world, 4, party="Grey Band")
    lived_to = world.state("Company").as_party("Company").day
    world.execute("Company", SwitchParty("Grey Band"))
    with pytest.raises(IllegalCommandError) as refused:
        world.execute("Company", SetWeather("light_snow"))
    assert str(refused.value) == (
        f"Grey Band is at day 4; Company has lived to day {lived_to} on Vale, and the "
        "weather over wilds with it: bring Grey Band forward first (`party forward`)"
    )
    brought_forward(world)
    world.execute("Company", SetWeather("light_snow"))
    assert world.state("Company").weather_changes[-1].party == "Grey Band"


def test_the_wilderness_die_leaves_lived_weather_as_the_world_lived_it(
    world: Campaigns,
) -> None:
    """TP-WENC-4 face 4 for a party behind: the die turns no weather the world has lived
    (the Grey Band's travel goes on); a referee's note says why."""
    rain_from_day_3_to_7(world)
    live_until(world, 4, party="Grey Band")
    state = world.state("Company").as_party("Grey Band")
    (note,) = roll_weather(state, SeededDice(1), by_die=True)
    assert isinstance(note, NoteMade) and note.visibility is Visibility.REFEREE
    assert note.text == (
        "change of weather over wilds: none, the world's weather of this time is written "
        "already (Grey Band is at day 4; Company had the weather turn rain over wilds of Vale "
        "on day 3 and lived it to day 7)"
    )


def test_a_world_countdown_keeps_the_time_it_was_set_from(world: Campaigns) -> None:
    """Set on day 1 by a party behind while the world is on day 6, a 10-day world countdown
    counts the days the world lived since: 10 left at the setter's day 1, 5 at the world's
    day 6; it runs out on day 11, whichever party lives that day, never on day 16."""
    world.execute("Company", SplitParty("Grey Band", ("Bea",)))
    live_until(world, 6, party="Grey Band")
    world.execute("Company", AsParty("Company", CountdownAdd("the flood", "day", "10", world=True)))

    def left(party: str) -> int:
        shown = player_state(world.state("Company").as_party(party)).countdowns
        return {c.name: c.left for c in shown}["the flood"]

    assert (left("Company"), left("Grey Band")) == (10, 5)
    live_until(world, 3, party="Company")
    assert left("Company") == 8  # the world's days, as they stood on day 3
    live_until(world, 12, party="Grey Band")
    journal = world.journal("Company").records
    (ended,) = [(r.event, r.at) for r in journal if isinstance(r.event, CountdownEnded)]
    time = world.state("Company").ruleset.time
    assert (ended[0].reason, day_number(ended[1], time)) == ("ran out", 11)
    ticks = [r.event for r in journal if isinstance(r.event, CountdownTicked)]
    assert [t.left for t in ticks] == [4, 3, 2, 1, 0]  # the lived five counted when set


def test_a_world_countdown_set_behind_may_have_run_out_already(world: Campaigns) -> None:
    """A 3-day world countdown set on day 1 while the world is on day 6 ran out on day 4:
    it starts and ends in one command, and says so."""
    world.execute("Company", SplitParty("Grey Band", ("Bea",)))
    live_until(world, 6, party="Grey Band")
    command = AsParty("Company", CountdownAdd("the tide", "day", "3", world=True))
    lines = [r.event.describe() for r in world.execute("Company", command)]
    assert lines[-2:] == [
        "countdown the tide starts: day (3), 0 left: the world has lived 3 of it",
        "countdown the tide ends (ran out on day 4, which the world has lived already)",
    ]
    assert world.state("Company").countdowns == ()


def test_site_clear_through_the_cli_refuses_an_area_another_changed_later(
    shell: Shell, tmp_path: Path
) -> None:
    """At the table: Bea stays in the abbey's area 2 on day 1 as the Rearguard; the company
    comes back on day 7 and drives the ghouls from area 1; `site clear 1 --as Rearguard`
    exits 2 with one line naming the place, the party and the day, and changes nothing."""
    db = str(tmp_path / "t.db")
    examples = Path(__file__).parents[2] / "examples"
    site = str(examples / "site.toml")
    lines = [
        ("new", "Keep", "--ruleset", "ex", "--party", str(examples / "party.toml")),
        ("site", "enter", site, "--as", "Keep"),
        ("party", "split", "Rearguard", "Bea", "--as", "Keep"),
        ("turn", "--area", "2", "--as", "Rearguard"),
        ("site", "leave", "--as", "Keep"),
        ("wait", "6d", "--as", "Keep"),
        ("site", "enter", site, "--area", "1", "--as", "Keep"),
        ("site", "clear", "1", "--what", "drove the ghouls from", "--as", "Keep"),
    ]
    for line in lines:
        said = shell(*line, "--db", db)
        assert said.code == 0, (line, said.err)
    kept = shell.store(db)
    refused = shell("site", "clear", "1", "--as", "Rearguard", "--db", db)
    assert refused.code == 2
    assert (
        "Rearguard is at day 1; Keep drove the ghouls from area 1 of The Sunken Abbey on day 7: "
        "bring Rearguard forward first (`party forward`)"
    ) in refused.err
    assert shell.store(db) == kept
    places = json.loads(shell("party", "timeline", "--json", "--db", db).out)["places"]
    assert [(p["day"], p["party"], p["place"]) for p in places] == [
        (7, "Keep", "area 1 of The Sunken Abbey")
    ]
