"""The wilderness die on its schedule (TP-WENC-1..4), discovery (TP-DISC-1..3), getting lost
(TP-LOST-1), weather, routes, and replay of the journal."""

from __future__ import annotations

from fractions import Fraction

import pytest

from turnkeeper.campaign import EVENTS, fold
from turnkeeper.clock.calendar import calendar
from turnkeeper.dice import SeededDice, TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.wilderness_state import hexmap_of
from turnkeeper.procedures.wilderness import Camp, RollWeather, Search, SetWeather, Travel
from turnkeeper.procedures.wilderness.costs import best_route
from turnkeeper.procedures.wilderness.discovery import landmarks_in_sight
from turnkeeper.procedures.wilderness.weather import season_of
from turnkeeper.rules.loader import preset
from turnkeeper.world.hexes import Hex

NONE = TypedDice([])
CAVE = {"at": "0000", "features": [{"id": "cave", "name": "Cave", "visibility": "hidden"}]}


def _moments(records, of_kind):  # type: ignore[no-untyped-def]
    return [e.moment for e in of_kind(records, "wilderness.die")]


def test_tp_wenc_1_travelling_rolls_after_half_the_tp_and_at_camp(start, tp_rules, of_kind):
    journal = start(["p"] * 5, rules=tp_rules())
    journal.execute(Travel("s"), TypedDice([5]))  # first TP: exploring the unknown hex
    journal.execute(Travel("n"), TypedDice([5]))  # back: travel; crosses half (2 TP)
    records = journal.records
    assert _moments(records, of_kind) == ["first", "half"]
    journal.execute(Travel("s"), NONE)  # travel, 3 TP: no moment
    journal.execute(Travel("n"), NONE)  # travel, 4 TP: "last" is not on the travel schedule
    assert _moments(journal.records, of_kind) == ["first", "half"]
    camp = journal.execute(Camp(), TypedDice([5]))
    assert _moments(camp, of_kind) == ["camp"]
    # A day of pure travel over known hexes: nothing after the first TP, the die at half (2).
    assert _moments(journal.execute(Travel("s"), NONE), of_kind) == []
    assert _moments(journal.execute(Travel("n"), TypedDice([5])), of_kind) == ["half"]
    assert _moments(journal.execute(Travel("s"), NONE), of_kind) == []


def test_tp_wenc_1_travelling_into_a_3_tp_hex_rolls_at_half_two_thirds_of_the_way_in(
    start, tp_rules, of_kind
):
    """TP-WENC-1: "rolled after the party has spent half of its travel point": travelling
    back into a known hills hex with a carriage (3 TP) from a fresh morning, the die falls
    after 2 TP at 16:00, two thirds of the way in; the move ends at 20:00."""
    journal = start(["h", "p"], rules=tp_rules())  # 0000 hills, 0001 plains
    journal.execute(Travel("s"), TypedDice([5]))  # exploring: the die after the first TP
    journal.execute(Camp(), TypedDice([5]))
    records = journal.execute(Travel("0000", party=("carriage",)), TypedDice([5]))
    (die,) = of_kind(records, "wilderness.die")
    rolled = next(r for r in records if r.event is die)
    assert (die.moment, calendar(rolled.at, journal.state.ruleset.time)) == (
        "half",
        "1-01-02 16:00",
    )
    moves = of_kind(records, "wilderness.moved")
    assert [m.paid for m in moves] == [Fraction(2), Fraction(1)]
    assert journal.state.wilderness.position == Hex.parse("0000")
    assert journal.state.date == "1-01-02 20:00"


# rule: TP-WENC-2
def test_tp_wenc_2_exploring_rolls_after_the_first_and_the_last_tp(start, tp_rules, of_kind):
    journal = start(["p"] * 5, rules=tp_rules())
    assert _moments(journal.execute(Travel("s"), TypedDice([5])), of_kind) == ["first"]
    assert _moments(journal.execute(Travel("s"), NONE), of_kind) == []  # half: travel only
    assert _moments(journal.execute(Travel("s"), NONE), of_kind) == []
    assert _moments(journal.execute(Travel("s"), TypedDice([5])), of_kind) == ["last"]
    assert _moments(journal.execute(Camp(), TypedDice([5])), of_kind) == ["camp"]


def test_tp_wenc_3_faces_swap_by_milieu_and_at_night(start, tp_rules, of_kind):
    journal = start(["d", "d"], rules=tp_rules())
    records = journal.execute(Travel("s"), TypedDice([5]))  # a desert: free turn -> waning
    assert of_kind(records, "wilderness.die")[0].event == "waning_resources"
    records = journal.execute(Camp(), TypedDice([2]))  # night camp: hidden site -> encounter
    assert of_kind(records, "wilderness.encounter")[0].at_camp
    records = journal.execute(Travel("n", explore=True, milieu="civilisation"), TypedDice([5]))
    assert of_kind(records, "wilderness.die")[0].event == "good_encounter"


def test_tp_wenc_4_faces(start, tp_rules, of_kind):
    rules = tp_rules()
    # 1 Encounter halts a journey of several hexes for the referee
    journal = start(["p"] * 5, rules=rules)
    journal.execute(Travel("0004", explore=True), TypedDice([1]))
    assert journal.state.wilderness.position == Hex(0, 1)
    # 2 Hidden site: the party stumbles on the hex's hidden feature
    journal = start(["p", "p"], rules=rules, hexes=[{**CAVE, "at": "0001"}])
    journal.execute(Travel("s"), TypedDice([2]))
    assert "cave" in journal.state.wilderness.found
    # 3 Waning resources: eat from the supplies (2 characters: 2 rations, 2 water) ...
    journal = start(["p"] * 5, rules=rules)
    journal.execute(Travel("s"), TypedDice([3]))
    assert journal.state.supplies.count("rations") == 2
    # ... or, with --forage (or no food), the next TP is spent foraging
    journal.execute(Travel("s"), NONE)
    journal.execute(Travel("s"), NONE)  # 3 TP spent, none foraging yet
    journal.execute(Travel("s", waning="forage"), TypedDice([3]))  # last TP: waning -> forage
    assert journal.state.wilderness.forage_owed
    journal.execute(Camp(), TypedDice([5]))
    records = journal.execute(Travel("n"), TypedDice([5]))  # forage 1 TP, move 1: half
    spent = of_kind(records, "wilderness.tp_spent")
    assert spent[0].on == "forage" and journal.state.wilderness.tp_spent == 2
    # 4 Change of weather: rolled on the climate's table (temperate winter, d6 6: heavy snow)
    journal = start(["p", "p"], rules=rules)
    journal.execute(Travel("s"), TypedDice([4, 6]))
    assert journal.state.wilderness.weather["wilds"] == "heavy_snow"
    # 5 Free turn: nothing; 6 Good encounter: the referee rolls one
    journal = start(["p", "p"], rules=rules)
    records = journal.execute(Travel("s"), TypedDice([6]))
    assert of_kind(records, "wilderness.encounter")[0].good


def test_tp_disc_1_overt_known_on_entering_landmarks_from_two_hexes(start):
    hexes = [
        {"at": "0002", "features": [{"id": "inn", "name": "Inn"}]},
        {"at": "0004", "features": [{"id": "spire", "name": "Spire", "landmark": True}]},
    ]
    journal = start(["p", "p", "p", "p", "p"], hexes=hexes)
    assert journal.state.wilderness.found == frozenset()
    journal.execute(Travel("s"), NONE)
    # in 0001: the inn's hex is not entered yet and the spire is 3 hexes off
    assert journal.state.wilderness.found == frozenset()
    journal.execute(Travel("s"), NONE)  # into 0002: the inn is known, the spire 2 hexes off seen
    assert journal.state.wilderness.found == {"inn", "spire"}
    assert journal.state.wilderness.is_known_destination(Hex.parse("0004"))


def test_tp_disc_1_high_mountains_deep_forest_and_canopy_block_the_view(start):
    spire = [{"id": "s", "name": "Spire", "landmark": True}]
    for middle, extra in (("H", {}), ("F", {}), ("p", {"blocks_view": True})):
        journal = start(
            ["p", middle, "p"],
            hexes=[{"at": "0002", "features": spire}, {"at": "0001", **extra}]
            if extra
            else [{"at": "0002", "features": spire}],
        )
        hexmap = hexmap_of(journal.state.wilderness.map)
        assert landmarks_in_sight(hexmap, Hex(0, 0)) == []
    journal = start(["p", "p", "p"], hexes=[{"at": "0002", "features": spire}])
    assert "s" in journal.state.wilderness.found  # seen on arrival at the start hex


# rule: TP-DISC-2
def test_tp_disc_2_search_one_at_random_for_1_tp_a_named_one_for_2(start):
    hidden = [
        {"id": "cave", "name": "Cave", "visibility": "hidden"},
        {"id": "shrine", "name": "Shrine", "visibility": "hidden"},
    ]
    journal = start(["p"], hexes=[{"at": "0000", "features": hidden}])
    journal.execute(Search(), TypedDice([2]))  # d2 picks the second
    assert journal.state.wilderness.found == {"shrine"}
    assert journal.state.wilderness.tp_spent == 1
    journal.execute(Search("Cave"), NONE)
    assert journal.state.wilderness.found == {"shrine", "cave"}
    assert journal.state.wilderness.tp_spent == 3
    with pytest.raises(IllegalCommandError, match="takes 2 TP and 1 are left"):
        journal.execute(Search("anything"), NONE)


def test_tp_disc_3_secrets_need_a_whole_day_begun_at_dawn(start):
    vault = [{"id": "vault", "name": "Vault", "visibility": "secret"}]
    journal = start(["p", "p"], hexes=[{"at": "0000", "features": vault}])
    journal.execute(Search("vault"), NONE)  # a named search never finds a secret
    assert journal.state.wilderness.found == frozenset()
    with pytest.raises(IllegalCommandError, match="TP-DISC-3"):
        journal.execute(Search(all_day=True), NONE)
    journal.execute(Camp(), NONE)
    journal.execute(Search(all_day=True), NONE)
    assert journal.state.wilderness.found == {"vault"}
    assert journal.state.wilderness.tp_spent == 4


def test_tp_lost_1_off_road_without_landmark_once_a_day(start, tp_rules, of_kind):
    rules = tp_rules(die=False, lost=True)
    journal = start(["fff"] * 4, rules=rules, at="0101")
    # forest: 2 in 6. d6 2 = lost; d2 2 = drift one side to the right of the course (s -> sw)
    records = journal.execute(Travel("s"), TypedDice([2, 2]))
    check = of_kind(records, "wilderness.lost_check")[0]
    assert check.lost and check.chance_in_six == 2 and check.intended == Hex.parse("0102")
    assert journal.state.wilderness.position == check.drift == Hex.parse("0002")
    records = journal.execute(Travel("n"), NONE)  # once a day: no second check
    assert of_kind(records, "wilderness.lost_check") == []
    # on a road, or with a landmark in sight, no check at all
    journal = start(["f", "f"], rules=rules, roads=["R", "R"])
    assert of_kind(journal.execute(Travel("s"), NONE), "wilderness.lost_check") == []
    mark = [{"at": "0002", "features": [{"id": "m", "name": "Menhir", "landmark": True}]}]
    journal = start(["p", "p", "p"], rules=rules, hexes=mark)
    assert of_kind(journal.execute(Travel("s"), NONE), "wilderness.lost_check") == []
    # plains: 1 in 6; a 2 keeps the course
    journal = start(["p", "p"], rules=rules)
    records = journal.execute(Travel("s"), TypedDice([2]))
    assert not of_kind(records, "wilderness.lost_check")[0].lost
    assert journal.state.wilderness.position == Hex(0, 1)


def test_weather_feeds_the_rain_multiplier_and_has_default_tables(start):
    journal = start(["p", "p", "p"])
    journal.execute(SetWeather("rain"), NONE)
    journal.execute(Travel("s"), NONE)
    assert journal.state.wilderness.tp_spent == 2  # rain x1/2: plains cost 2 TP
    assert season_of(preset("tp"), 0) == "winter"
    journal.execute(RollWeather(), TypedDice([1]))  # temperate winter, 1: clear
    assert journal.state.wilderness.weather["wilds"] == "clear"
    with pytest.raises(Exception, match="no weather 'fog'"):
        journal.execute(SetWeather("fog"), NONE)


def test_route_fewest_days_then_tp_under_the_weather(start):
    journal = start(["ppp", "pfp", "ppp"])
    wild = journal.state.wilderness
    route = best_route(preset("tp"), wild.hexmap, Hex(1, 0), Hex.parse("0102"), wild.weather)
    assert (route.tp, route.days) == (3, 1)  # round the forest, or through it: 3 TP
    rainy = best_route(preset("tp"), wild.hexmap, Hex(1, 0), Hex.parse("0102"), {"wilds": "rain"})
    assert (rainy.tp, rainy.days) == (6, 2)  # rain x1/2: 6 TP, two days
    mounted = best_route(preset("tp"), wild.hexmap, Hex(1, 0), Hex.parse("0102"), {}, ["mounted"])
    assert (mounted.tp, mounted.days) == (Fraction(3, 2), 1)


def test_replaying_the_journal_rebuilds_the_wilderness(start, tp_rules):
    journal = start(["pphp", "pfpp", "pppM", "pppp"], rules=tp_rules(lost=True), hexes=[CAVE])
    dice = SeededDice(11)
    for command in (Travel("s"), Travel("se"), Search(), Camp(), Travel("0000"), Camp()):
        try:
            journal.execute(command, dice)
        except IllegalCommandError:
            journal.execute(Camp(), dice)
    records = [EVENTS.record(r.to_record()) for r in journal.records]
    again = fold(records)
    assert again.wilderness == journal.state.wilderness
    assert again.now == journal.state.now
    assert journal.state.wilderness.tp_spent == Fraction(0) or journal.state.now > 0
