"""Travel points, multipliers, carry-over and caps (TP-WIL-1 to TP-WIL-10)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.kernel.wilderness_state import Movement
from turnkeeper.procedures.wilderness import (
    Camp,
    MoveMade,
    RevealOnMap,
    Search,
    Travel,
    TravelPointsSpent,
)
from turnkeeper.procedures.wilderness.costs import (
    daily_tp,
    hex_cost_for,
    is_impassable,
    tp_per_hex,
)
from turnkeeper.rules.loader import preset
from turnkeeper.world.hexes import Hex

from .conftest import quiet

TP = preset("tp")
NONE = TypedDice([])


def test_tp_wil_1_four_tp_a_day_one_per_watch(start) -> None:
    journal = start(["p"] * 6)
    for _ in range(4):
        journal.execute(Travel("s"), NONE)
    wild = journal.state.wilderness
    assert wild.tp_spent == 4 and wild.position == Hex(0, 4)
    assert journal.state.now == 4 * 4 * 3600  # four 4-hour watches
    with pytest.raises(IllegalCommandError, match="no TP left today"):
        journal.execute(Travel("s"), NONE)
    journal.execute(Camp(), NONE)
    assert journal.state.wilderness.tp_spent == 0
    assert journal.state.date == "1-01-02 08:00"


def test_tp_wil_2_a_hex_is_one_movement_point_one_tp_on_foot() -> None:
    assert tp_per_hex(TP, "plains") == 1


def test_tp_wil_3_party_multipliers_multiply() -> None:
    assert tp_per_hex(TP, "plains", party=["on_foot"]) == 1
    assert tp_per_hex(TP, "plains", party=["mounted"]) == Fraction(1, 2)
    assert tp_per_hex(TP, "plains", party=["carriage"]) == 2
    assert tp_per_hex(TP, "plains", party=["over_20"]) == 2
    assert tp_per_hex(TP, "plains", party=["over_20", "over_50"]) == 4  # x1/4 in all
    # More than 50 people are more than 20 as well: x1/4 however the party is described,
    # and a condition applies or not, so naming it twice changes nothing.
    assert tp_per_hex(TP, "plains", party=["over_50"]) == 4
    assert tp_per_hex(TP, "plains", party=["over_50", "over_20", "over_50"]) == 4
    assert tp_per_hex(TP, "plains", party=["mounted", "mounted"]) == Fraction(1, 2)
    with pytest.raises(NotFoundError, match="no party condition 'flying'"):
        tp_per_hex(TP, "plains", party=["flying"])


def _roster(people: int, dead: int = 0) -> str:
    """A party file of ``people`` characters on foot, the last ``dead`` of them dead."""
    sheets = (
        f'[[characters]]\nname = "C{i}"\nhp = 4\n'
        + ('conditions = ["dead"]\n' if i >= people - dead else "")
        for i in range(people)
    )
    return "".join(sheets) + "[supplies]\nrations = 99\nwater = 99\n"


@pytest.mark.parametrize(
    ("people", "dead", "tp"), [(20, 0, 1), (21, 0, 2), (22, 1, 2), (21, 1, 1), (51, 0, 4)]
)
def test_tp_wil_3_the_rosters_size_applies_of_itself(start, people, dead, tp) -> None:
    """TP-WIL-3: "Apply each that matches the party": "The party has more than 20 people
    x1/2", more than 50 a further x1/2. A roster of 21 living characters on foot pays 2 TP
    for a hex of plains with no `--party "over 20"` typed; 20 (the dead do not count) pay 1,
    51 pay 4."""
    journal = start(["p", "p"], party=_roster(people, dead))
    journal.execute(Travel("s"), NONE)
    assert journal.state.wilderness.tp_spent == tp


def test_tp_wil_3_the_other_reading_only_the_conditions_the_referee_names(start) -> None:
    """TP-WIL-3 with ``travel.party_size`` emptied: the roster's 21 pay 1 TP a plains hex until
    the referee names over_20."""
    rules = quiet(TP)
    rules = rules.model_copy(update={"travel": rules.travel.model_copy(update={"party_size": {}})})
    journal = start(["p", "p", "p"], rules=rules, party=_roster(21))
    journal.execute(Travel("s"), NONE)
    assert journal.state.wilderness.tp_spent == 1
    journal.execute(Travel("s", party=("over 20",)), NONE)
    assert journal.state.wilderness.tp_spent == 3


def test_tp_wil_4_environment_multipliers() -> None:
    assert tp_per_hex(TP, "hills") == Fraction(3, 2)
    assert tp_per_hex(TP, "marsh") == tp_per_hex(TP, "swamp") == 2
    assert tp_per_hex(TP, "forest") == tp_per_hex(TP, "woods") == 2
    assert tp_per_hex(TP, "deep_forest") == 2  # project default: as forest
    assert tp_per_hex(TP, "mountains") == 4
    assert tp_per_hex(TP, "high_mountains") is None
    assert tp_per_hex(TP, "forest", road="road") == 1
    assert tp_per_hex(TP, "plains", road="trail") == Fraction(2, 3)
    assert tp_per_hex(TP, "plains", weather="rain") == 2
    assert tp_per_hex(TP, "plains", weather="light_snow") == 2
    assert tp_per_hex(TP, "plains", weather="heavy_snow") == 4
    assert tp_per_hex(TP, "hills", road="road", weather="rain", party=["mounted"]) == Fraction(3, 4)


def test_tp_wil_5_mounted_with_a_carriage_moves_one_hex_per_tp() -> None:
    cost = hex_cost_for(TP, "plains", party=["mounted", "carriage"])
    assert cost.tp_per_hex == 1 and not cost.impassable


def test_tp_wil_6_three_then_three_and_two(start) -> None:
    """The seed's example: day 1 spends 3 and keeps 1 for day 2's first 3-point move."""
    # over_20 (x1/2) in hills (x2/3): 3 TP; over_20 on plains: 2 TP
    journal = start(["h", "h", "h", "p"], party=PARTY_OVER_20)
    journal.execute(Travel("s", party=("over_20",)), NONE)
    assert journal.state.wilderness.tp_spent == 3
    journal.execute(Travel("s"), NONE)  # begun with the last point of the day
    wild = journal.state.wilderness
    assert wild.position == Hex(0, 1)  # still in the old hex (TP-WIL-6)
    assert wild.pending is not None and wild.pending.paid == 1 and wild.tp_spent == 4
    journal.execute(Camp(), NONE)
    journal.execute(Travel("s"), NONE)  # finishes with day 2's first 2 points
    wild = journal.state.wilderness
    assert wild.position == Hex(0, 2) and wild.pending is None and wild.tp_spent == 2
    journal.execute(Travel("s"), NONE)  # the 2-point move
    assert journal.state.wilderness.tp_spent == 4  # day 2 spent its own 4 points: 2 + 2


def test_tp_wil_6_never_more_than_a_days_tp_in_one_day(start) -> None:
    """ "5 then 3" is not allowed: a 5-TP hex takes 4 today and 1 tomorrow."""
    # over_20 + over_50 (x1/4) in hills (x2/3): 6 TP
    journal = start(["p", "h"])
    journal.execute(Travel("s", party=("over_20", "over_50")), NONE)
    wild = journal.state.wilderness
    assert wild.tp_spent == 4 and wild.pending is not None and wild.pending.remaining == 2
    with pytest.raises(IllegalCommandError, match="no TP left today"):
        journal.execute(Travel("s"), NONE)
    journal.execute(Camp(), NONE)
    journal.execute(Travel("s"), NONE)
    assert journal.state.wilderness.position == Hex(0, 1)
    assert journal.state.wilderness.tp_spent == 2


def test_tp_wil_6_a_move_needing_a_third_day_is_not_begun(start) -> None:
    journal = start(["h", "h", "h"])
    journal.execute(Travel("s", party=("over_20",)), NONE)  # hills x1/2: 3 TP, 1 left
    before = journal.version
    # over 50 in hills: 6 TP, more than the 1 left plus tomorrow's 4
    with pytest.raises(IllegalCommandError, match="begin it fresh"):
        journal.execute(Travel("s", party=("over_20", "over_50")), NONE)
    assert journal.version == before
    journal.execute(Camp(), NONE)
    journal.execute(Travel("s", party=("over_20", "over_50")), NONE)
    assert journal.state.wilderness.pending is not None  # 4 today, 2 tomorrow


def test_tp_wil_7_mounted_on_a_road_four_hexes_cost_one_tp_and_four_hours(start) -> None:
    """TP-WIL-7 is a daily cap, not a per-hex price: mounted (x2) on a road (x2) a hex
    costs 1/4 TP, so 4 hexes take 1 TP and one 4-hour watch."""
    journal = start(["p"] * 10, roads=["R"] * 10)
    assert hex_cost_for(TP, "plains", "road", party=["mounted"]).tp_spent == Fraction(1, 4)
    journal.execute(Travel("0004", explore=True, party=("mounted",)), NONE)
    wild = journal.state.wilderness
    assert wild.position == Hex(0, 4) and wild.tp_spent == 1 and wild.movement_points == 4
    assert journal.state.now == 4 * 3600


def test_tp_wil_7_the_days_moves_stop_at_eight_movement_points(start) -> None:
    """ "With 4 travel points, they cannot move more than 8 movement points": mounted on a
    road the 8th hex is reached with 2 TP spent, and the day's moves stop there."""
    journal = start(["p"] * 12, roads=["R"] * 12)
    for _ in range(8):
        journal.execute(Travel("s", party=("mounted",)), NONE)
    wild = journal.state.wilderness
    assert wild.position == Hex(0, 8) and wild.tp_spent == 2 and wild.movement_points == 8
    before = journal.version
    with pytest.raises(IllegalCommandError, match=r"8 movement points today.*TP-WIL-7"):
        journal.execute(Travel("s"), NONE)
    assert journal.version == before
    journal.execute(Camp(), NONE)
    journal.execute(Travel("s"), NONE)  # a new day, a new 8
    assert journal.state.wilderness.movement_points == 1


def test_tp_wil_7_four_road_hexes_then_forest_make_seven_hexes_in_the_day(start) -> None:
    """Mounted: 4 road hexes (1/4 TP each, 1 TP in all), then forest (x2 x1/2: 1 TP a hex)
    for the 3 TP left: 7 hexes in the day, as the text's numbers give."""
    journal = start(["p"] * 5 + ["f"] * 5, roads=["R"] * 5 + ["."] * 5)
    journal.execute(Travel("0009", explore=True, party=("mounted",)), NONE)
    wild = journal.state.wilderness
    assert wild.position == Hex(0, 7) and wild.tp_spent == 4 and wild.movement_points == 7
    assert journal.state.now == 16 * 3600


def test_tp_wil_8_a_hex_costing_eight_tp_is_impassable(start) -> None:
    assert is_impassable(TP, tp_per_hex(TP, "marsh", party=["over_20", "over_50"]))  # 8 TP
    assert not is_impassable(TP, Fraction(15, 2))
    assert hex_cost_for(TP, "high_mountains").impassable
    journal = start(["p", "H"])
    before = journal.version
    with pytest.raises(IllegalCommandError, match="impassable"):
        journal.execute(Travel("s"), NONE)
    assert journal.version == before  # nothing changed
    # mountains for a party over 20: 8 TP, impassable until conditions change (mounts)
    assert hex_cost_for(TP, "mountains", party=["over_20"]).impassable
    assert not hex_cost_for(TP, "mountains", party=["over_20", "mounted"]).impassable


def test_tp_wil_9_vessels_are_the_projects_defaults(start) -> None:
    assert tp_per_hex(TP, "water", vessel_name="river_boat") == Fraction(2, 3)
    assert tp_per_hex(TP, "plains", vessel_name="river_boat") is None
    assert tp_per_hex(TP, "water") is None  # no walking on water
    assert daily_tp(TP, "sailing_ship") == 6
    assert tp_per_hex(TP, "high_mountains", vessel_name="flying_mount") == Fraction(1, 3)
    # on water only in a vessel: the party boards as the map is laid out (issue 38)
    journal = start(["w", "w", "w"], vessel="river_boat")
    journal.execute(Travel("s"), NONE)
    assert journal.state.wilderness.tp_spent == Fraction(2, 3)
    assert journal.state.now == 2 * 3600 + 40 * 60  # 2/3 of a 4-hour watch


def test_tp_wil_10_travel_needs_a_known_destination(start) -> None:
    hexes = [{"at": "0003", "features": [{"id": "cave", "name": "Cave", "visibility": "hidden"}]}]
    journal = start(["p"] * 5, hexes=hexes)
    with pytest.raises(IllegalCommandError, match="not a known destination"):
        journal.execute(Travel("0003"), NONE)
    records = journal.execute(Travel("0003", explore=True), NONE)
    assert {e.movement.value for e in _moves(records)} == {"explore"}
    journal.execute(Search(), NONE)  # one hidden feature at random: the only one
    assert "cave" in journal.state.wilderness.found
    journal.execute(Camp(), NONE)
    journal.execute(Travel("n"), NONE)
    journal.execute(Travel("n"), NONE)
    records = journal.execute(Travel("cave"), NONE)  # the recorded site is a destination
    assert {e.movement.value for e in _moves(records)} == {"travel"}
    assert journal.state.wilderness.position == Hex.parse("0003")


def test_tp_wil_10_a_hex_on_the_map_the_party_was_given_is_a_destination(start) -> None:
    """TP-WIL-10: "the main difference between travel and exploration is simply the
    knowledge of the destination", and "Players should have access to a map of the region":
    the referee reveals 0001 0002 0003 0004 (a bought map), and the party travels to 0004,
    every move of it travel; a hex taken off the map again is not a destination."""
    journal = start(["p"] * 6)
    journal.execute(RevealOnMap(tuple(Hex.parse(h) for h in ("0001", "0002", "0003", "0004"))))
    records = journal.execute(Travel("0004"), NONE)
    assert [e.movement.value for e in _moves(records)] == ["travel"] * 4
    assert journal.state.wilderness.position == Hex.parse("0004")
    journal.execute(RevealOnMap((Hex.parse("0005"),)))
    journal.execute(RevealOnMap((Hex.parse("0005"),), hide=True))
    with pytest.raises(IllegalCommandError, match="0005 is not a known destination"):
        journal.execute(Travel("0005"), NONE)


@settings(deadline=None, max_examples=30)
@given(st.lists(st.sampled_from(["p", "h", "f", "M", "m"]), min_size=2, max_size=8))
def test_tp_wil_1_tp_wil_6_a_day_never_spends_more_than_its_tp(column: list[str]) -> None:
    """Whatever the terrain, walking south day after day never spends over 4 TP a day."""
    from turnkeeper.campaign import Journal, parse_party
    from turnkeeper.procedures.wilderness import LoadMap
    from turnkeeper.world.mapfile import MapFile

    rules = TP.model_copy(
        update={
            "wilderness": TP.wilderness.model_copy(
                update={"travel_checks": [], "explore_checks": []}
            ),
            "lost": TP.lost.model_copy(update={"enabled": False}),
        }
    )
    journal = Journal.start("p", rules, parse_party('[[characters]]\nname = "A"\nhp = 3'), 1)
    m = MapFile(name="c", width=1, height=len(column), terrain=column)
    journal.execute(LoadMap(m, Hex(0, 0)), NONE)
    for _ in range(len(column) * 8):
        if journal.state.wilderness.position == Hex(0, len(column) - 1):
            break
        try:
            journal.execute(Travel("s"), NONE)
        except IllegalCommandError:
            journal.execute(Camp(), NONE)
        assert 0 <= journal.state.wilderness.tp_spent <= 4
    assert journal.state.wilderness.position == Hex(0, len(column) - 1)


PARTY_OVER_20 = '[[characters]]\nname = "Aldo"\nhp = 10\n[supplies]\nrations = 4\nwater = 4'


def _moves(records):  # type: ignore[no-untyped-def]
    return [r.event for r in records if r.event.kind == "wilderness.moved"]


def test_travel_points_read_as_mixed_numbers_for_people() -> None:
    from fractions import Fraction

    from turnkeeper.world.hexes import Hex

    moved = MoveMade(to=Hex.from_offset(1, 1), cost=Fraction(9, 4), paid=Fraction(3, 2),
                     movement=Movement.TRAVEL)  # fmt: skip
    assert moved.describe().endswith(": 1½ TP of 2¼ TP")
    assert TravelPointsSpent(amount=Fraction(75, 4), on="search").describe().startswith("18¾ TP")
