"""A wait that passes a night on the wilderness map makes the night camp's roll
(TP-WENC-1, TP-WENC-2: "and at the night camp"), once a night, whoever makes it."""

from __future__ import annotations

from typing import Any

from turnkeeper.campaign import Wait
from turnkeeper.dice import TypedDice
from turnkeeper.procedures.wilderness import Camp, LoadMap, Travel
from turnkeeper.world.hexes import Hex

HOUR = 3600
NONE = TypedDice([])
FREE = 5  # the tp wilderness die's face 5: nothing happens


def camp_rolls(records: list[Any]) -> list[Any]:
    return [r for r in records if r.event.kind == "wilderness.die" and r.event.moment == "camp"]


def test_tp_wenc_1_a_wait_through_the_night_rolls_the_camp_die_at_midnight(
    start: Any, tp_rules: Any
) -> None:
    journal = start(["p"] * 3, rules=tp_rules())  # 08:00, day 1
    records = journal.execute(Wait(24 * HOUR), TypedDice([FREE]))
    rolled = camp_rolls(records)
    assert [r.at for r in rolled] == [16 * HOUR]  # midnight, once
    assert rolled[0].event.describe() == "wilderness die, camp (night camp): 5 Free turn"


def test_tp_wenc_2_three_nights_waited_roll_three_times(start: Any, tp_rules: Any) -> None:
    journal = start(["p"] * 3, rules=tp_rules())
    records = journal.execute(Wait(72 * HOUR), TypedDice([FREE] * 3))
    assert [r.at for r in camp_rolls(records)] == [16 * HOUR, 40 * HOUR, 64 * HOUR]


def test_tp_wenc_1_the_camp_commands_own_night_is_not_rolled_twice(
    start: Any, tp_rules: Any
) -> None:
    journal = start(["p"] * 3, rules=tp_rules())
    journal.execute(Wait(12 * HOUR), NONE)  # 20:00: no midnight yet
    records = journal.execute(Camp(), TypedDice([FREE]))  # sleeps past midnight to 08:00
    assert [r.at for r in camp_rolls(records)] == [12 * HOUR]
    assert journal.state.now == 24 * HOUR


def test_tp_wenc_1_a_camp_after_a_waited_midnight_does_not_roll_again(
    start: Any, tp_rules: Any
) -> None:
    journal = start(["p"] * 3, rules=tp_rules())
    records = journal.execute(Wait(18 * HOUR), TypedDice([FREE]))  # to 02:00: rolled at 00:00
    assert len(camp_rolls(records)) == 1
    records = journal.execute(Camp(), NONE)  # the same night: the die is not rolled again
    assert camp_rolls(records) == [] and journal.state.now == 24 * HOUR
    records = journal.execute(Wait(24 * HOUR), TypedDice([FREE]))  # the next night rolls
    assert [r.at for r in camp_rolls(records)] == [40 * HOUR]


def test_tp_wenc_1_travel_past_midnight_is_not_a_camp(start: Any, tp_rules: Any) -> None:
    journal = start(["p"] * 5, rules=tp_rules())
    journal.execute(Travel("s"), TypedDice([FREE]))  # 1 TP, exploring: "first"
    journal.execute(Travel("n"), TypedDice([FREE]))  # 2 TP: "half"
    journal.execute(Travel("s"), NONE)
    records = journal.execute(Travel("n"), NONE)  # the 4th watch ends at midnight
    assert journal.state.now == 16 * HOUR and camp_rolls(records) == []


def test_tp_wenc_4_an_encounter_at_the_night_camp_breaks_the_wait(
    start: Any, tp_rules: Any
) -> None:
    journal = start(["p"] * 3, rules=tp_rules())
    records = journal.execute(Wait(24 * HOUR), TypedDice([1]))  # face 1: an encounter
    assert [r.event.kind for r in records][-2:] == ["wilderness.encounter", "clock.wait_broken"]
    assert records[-1].event.unwaited == 8 * HOUR and journal.state.now == 16 * HOUR


def test_tp_wil_1_a_wait_into_a_new_day_gives_the_new_days_tp_without_camp(
    start: Any, tp_rules: Any
) -> None:
    """TP-WIL-1, "4 points of travel per day": the day's 4 TP spent, `wait 2d` passes two
    days and the party may move again, no `camp` typed; the night camp's die still rolls at
    each midnight the wait passes (TP-WENC-2)."""
    journal = start(["p"] * 7, rules=tp_rules())
    journal.execute(Travel("s"), TypedDice([FREE]))  # exploring: "first"
    for _ in range(3):
        journal.execute(Travel("s"), TypedDice([FREE]))  # the 4th is "last"
    assert journal.state.wilderness.tp_spent == 4 and journal.state.now == 16 * HOUR
    records = journal.execute(Wait(48 * HOUR), TypedDice([FREE] * 2))
    # the wait begins at midnight: it passes the midnights of days 3 and 4
    assert [r.at for r in camp_rolls(records)] == [40 * HOUR, 64 * HOUR]
    began = [r for r in records if r.event.kind == "wilderness.day_began"]
    assert [r.at for r in began] == [24 * HOUR, 48 * HOUR]  # each morning, 08:00
    assert journal.state.wilderness.tp_spent == 0
    journal.execute(Travel("s", explore=True), TypedDice([FREE]))
    assert journal.state.wilderness.tp_spent == 1


def test_tp_wil_1_a_wait_within_the_day_keeps_the_days_tp_spent(start: Any) -> None:
    """TP-WIL-1: the TP belong to the day: hours waited before the next morning give none."""
    journal = start(["p"] * 6)
    journal.execute(Travel("s"), NONE)
    journal.execute(Travel("s"), NONE)
    journal.execute(Wait(14 * HOUR), NONE)  # 16:00 to 06:00: the night, not yet morning
    assert journal.state.wilderness.tp_spent == 2
    journal.execute(Wait(2 * HOUR), NONE)  # 08:00: a new travel day
    assert journal.state.wilderness.tp_spent == 0


def test_tp_wil_1_the_day_begins_at_the_morning_even_off_the_watch(start: Any) -> None:
    """TP-WIL-1: a travel day begun at 08:05 ends at 08:05 the next day, between watches:
    travel then has the new day's 4 TP."""
    journal = start(["p"] * 7)
    journal.execute(Wait(300), NONE)
    journal.execute(LoadMap(journal.state.wilderness.map, Hex(0, 0)), NONE)  # at 08:05
    for _ in range(4):
        journal.execute(Travel("s"), NONE)
    journal.execute(Wait(8 * HOUR), NONE)  # to 08:05 on day 2: no watch ends then
    assert journal.state.date == "1-01-02 08:05"
    journal.execute(Travel("s"), NONE)
    assert journal.state.wilderness.tp_spent == 1
