"""Route planning reads the ruleset's travel numbers (TP-WIL-1, TP-WIL-7, TP-WIL-8).

The tp preset's limits are the text's (4 TP a day, 8 movement points, impassable at 8 TP);
a user ruleset that ``extends = "tp"`` may change each, and routes and travel follow it.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.wilderness_state import hexmap_of
from turnkeeper.procedures.wilderness import Camp, SetWeather, Travel
from turnkeeper.procedures.wilderness.costs import best_route, tp_per_hex
from turnkeeper.rules.loader import load_ruleset, preset
from turnkeeper.rules.schema import Ruleset
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import HexMap

from .conftest import make_map, quiet

NONE = TypedDice([])
RAIN = {"wilds": "rain"}


def grid(terrain: list[str], roads: list[str] | None = None) -> HexMap:
    return hexmap_of(make_map(terrain, roads))


# One row: the only way from 0000 to 0200 is through the mountains at 0100.
PASS = grid(["pMp"])
WEST, PEAK, EAST = Hex.parse("0000"), Hex.parse("0100"), Hex.parse("0200")


def user_rules(tmp_path: Path, travel: str) -> Ruleset:
    path = tmp_path / "mine.toml"
    path.write_text(
        f'extends = "tp"\n[ruleset]\nname = "mine"\ntitle = "Mine"\n[travel]\n{travel}\n',
        encoding="utf-8",
    )
    return load_ruleset(path)


def test_tp_wil_8_impassable_factor_three_lets_a_route_cross_an_eight_tp_hex(
    tmp_path: Path,
) -> None:
    tp = preset("tp")
    assert tp_per_hex(tp, "mountains", weather="rain") == 8  # x1/4 x1/2
    with pytest.raises(IllegalCommandError, match="TP-WIL-8"):
        best_route(tp, PASS, WEST, EAST, RAIN)
    mine = user_rules(tmp_path, "impassable_factor = 3")
    route = best_route(mine, PASS, WEST, EAST, RAIN)
    assert route.hexes == (WEST, PEAK, EAST)
    # 8 TP over two days (TP-WIL-6 carry), then 2 TP of plains in the rain on the third.
    assert (route.tp, route.days) == (Fraction(10), 3)


def test_tp_wil_8_the_travel_procedure_follows_the_ruleset_too(start, tmp_path: Path) -> None:
    mine = user_rules(tmp_path, "impassable_factor = 3")
    for rules, crosses in ((preset("tp"), False), (mine, True)):
        journal = start(["pMp"], rules=quiet(rules))
        journal.execute(SetWeather("rain"), NONE)
        if not crosses:
            with pytest.raises(IllegalCommandError, match="impassable"):
                journal.execute(Travel("se"), NONE)
            continue
        journal.execute(Travel("se"), NONE)  # begun with the day's 4 TP (TP-WIL-6)
        wild = journal.state.wilderness
        assert wild.position == WEST and wild.pending is not None and wild.pending.paid == 4
        journal.execute(Camp(), NONE)
        journal.execute(Travel(PEAK.label), NONE)
        assert journal.state.wilderness.position == PEAK


def test_tp_wil_7_max_movement_factor_sets_the_daily_cap(tmp_path: Path) -> None:
    road = grid(["p" * 10], ["R" * 10])
    goal = Hex.parse("0900")
    mounted = ("mounted",)  # x2 x2 on the road: 1/4 TP a hex, 8 hexes a day at most
    route = best_route(preset("tp"), road, WEST, goal, party=mounted)
    assert (route.tp, route.days) == (Fraction(9, 4), 2)
    mine = user_rules(tmp_path, "max_movement_factor = 4")  # 16 movement points a day
    route = best_route(mine, road, WEST, goal, party=mounted)
    assert (route.tp, route.days) == (Fraction(9, 4), 1)


def test_tp_wil_1_travel_points_per_day_moves_the_impassable_limit(tmp_path: Path) -> None:
    mine = user_rules(tmp_path, "travel_points_per_day = 6")  # impassable at 12 TP
    route = best_route(mine, PASS, WEST, EAST, RAIN)
    assert route.tp == 10 and route.days == 2  # 6 + (2 carried, 2 of the rain plains)


# The party's plan (issue 5, player view; TP-DISC-1: the party knows what it has seen): a
# 3x3 plain where the straight way from 0000 to 0200 crosses 0100, which the party never saw.
PLAIN = grid(["ppp", "ppp", "ppp"])
MIDDLE = Hex.parse("0100")
SEEN_BUT_MIDDLE = frozenset(h for h in PLAIN.hexes() if h != MIDDLE)


def test_tp_disc_1_the_party_plans_only_over_the_hexes_it_knows() -> None:
    rules = preset("tp")
    referee = best_route(rules, PLAIN, WEST, EAST)
    assert [h.label for h in referee.hexes] == ["0000", "0100", "0200"]
    party = best_route(rules, PLAIN, WEST, EAST, known=SEEN_BUT_MIDDLE)
    assert MIDDLE not in party.hexes and (referee.tp, party.tp) == (2, 4)  # 1 TP a plain
    assert party.hexes[0] == WEST and party.hexes[-1] == EAST
    assert all(h in SEEN_BUT_MIDDLE for h in party.hexes)


def test_tp_disc_1_no_known_route_when_the_known_hexes_do_not_connect() -> None:
    with pytest.raises(IllegalCommandError, match="no known route from 0000 to 0200"):
        best_route(preset("tp"), PLAIN, WEST, EAST, known={WEST, EAST})
    with pytest.raises(IllegalCommandError, match="has not seen 0200"):
        best_route(preset("tp"), PLAIN, WEST, EAST, known={WEST, MIDDLE})
