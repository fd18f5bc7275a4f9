"""The faction turn's table (TP-TIME-1's month, the project's DEFAULT), act by act, with typed
dice: 2d6 + RESOURCES, up to 4 trouble, 6 lie low, 8 advance, 10 expand, higher strike."""

from __future__ import annotations

import pytest

from turnkeeper.campaign import Journal, Wait, parse_party
from turnkeeper.dice import TypedDice
from turnkeeper.errors import RulesetError
from turnkeeper.procedures.factions import FactionActed, GoalReached, LoadFactions, MonthTurned
from turnkeeper.rules.loader import parse_ruleset, preset
from turnkeeper.world.factions import parse_factions

DAY = 24 * 3600
#: From 08:00 of day 1 to 01:00 of day 31 (ex): the wait crosses month 2's boundary only.
TO_MONTH_2 = 30 * DAY - 7 * 3600

FACTIONS = """
map = "Vale"
[[factions]]
name = "Red Hand"
goal = "rule the ford"
segments = 2
filled = 1
resources = { force = 1 }
covets = ["0102"]
rivals = ["Grey Court"]
[[factions]]
name = "Grey Court"
goal = "crown a king"
segments = 3
hexes = ["0102"]
"""


def month(faces: list[int], factions: str = FACTIONS) -> list[object]:
    """The events of a wait into month 2, the factions rolling ``faces``."""
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6\n[supplies]\nrations = 90')
    journal = Journal.start("Vale", preset("ex"), party, seed=1)
    journal.execute(LoadFactions(parse_factions(factions)))
    records = journal.execute(Wait(TO_MONTH_2), TypedDice(faces))
    return [
        r.event for r in records if isinstance(r.event, MonthTurned | FactionActed | GoalReached)
    ]


def acts(events: list[object]) -> list[tuple[str, str, str, int]]:
    return [(e.faction, e.act, e.done, e.filled) for e in events if isinstance(e, FactionActed)]


def test_tp_time_1_a_total_of_8_advances_the_goal_and_a_full_clock_is_told_once() -> None:
    # Red Hand 3+4+1 = 8: advance, its clock 2 of 2, its goal reached; Grey Court 3+3 = 6
    events = month([3, 4, 3, 3])
    assert acts(events) == [
        ("Red Hand", "advance", "advance", 2),
        ("Grey Court", "lie_low", "lie_low", 0),
    ]
    reached = [e for e in events if isinstance(e, GoalReached)]
    assert [r.describe() for r in reached] == ["Red Hand has reached its goal: rule the ford"]
    assert [type(e).__name__ for e in events][:3] == ["MonthTurned", "FactionActed", "GoalReached"]


def test_tp_time_1_trouble_takes_a_segment_and_never_below_none() -> None:
    # Red Hand 1+1+1 = 3: trouble, 1 -> 0; Grey Court 1+2 = 3: trouble, stays at 0
    assert acts(month([1, 1, 1, 2])) == [
        ("Red Hand", "trouble", "trouble", 0),
        ("Grey Court", "trouble", "trouble", 0),
    ]


def test_tp_time_1_expand_seizes_the_coveted_hex_from_its_holder() -> None:
    # Red Hand 4+5+1 = 10: expand into 0102, held by Grey Court; Grey Court 5+5 = 10: expand,
    # with nothing coveted: it advances instead
    events = month([4, 5, 5, 5])
    assert acts(events) == [
        ("Red Hand", "expand", "expand", 1),
        ("Grey Court", "expand", "advance", 1),
    ]
    seized = events[1]
    assert isinstance(seized, FactionActed)
    assert seized.describe() == "Red Hand seizes hex 0102 of Vale from Grey Court"
    assert events[2].describe() == (  # type: ignore[attr-defined]
        "Grey Court advances its goal: its goal at 1 of 3 (rolled expand, with nothing to expand)"
    )


def test_tp_time_1_strike_takes_a_segment_from_the_first_rival_with_one() -> None:
    # Grey Court acts second: Red Hand strikes first (6+6+1 = 13), but the Court has nothing
    # to lose yet: Red Hand advances; with a filled segment the Court loses it
    assert acts(month([6, 6, 3, 3]))[0] == ("Red Hand", "strike", "advance", 2)
    court_ahead = FACTIONS.replace("segments = 3\nhexes", "segments = 3\nfilled = 2\nhexes")
    events = month([6, 6, 3, 3], court_ahead)
    assert acts(events)[0] == ("Red Hand", "strike", "strike", 1)
    assert events[1].describe() == "Red Hand strikes Grey Court: its goal falls to 1"  # type: ignore[attr-defined]


def test_the_faction_table_is_checked_when_the_ruleset_loads() -> None:
    data = preset("ex").model_dump(mode="json")
    rows = [{"up_to": 6, "act": "advance"}, {"up_to": 4, "act": "expand"}]
    with pytest.raises(RulesetError, match=r"factions\.table: .*last row"):
        parse_ruleset({**data, "factions": {"table": rows}})
    rows.append({"act": "strike"})
    with pytest.raises(RulesetError, match=r"factions\.table: .*each up_to above"):
        parse_ruleset({**data, "factions": {"table": rows}})
