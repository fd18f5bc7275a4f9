"""CLI: travel cost | map load | travel | search | camp | route | weather (issue 5)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.cli.app import app
from turnkeeper.errors import TurnkeeperError

if TYPE_CHECKING:
    from tests.integration.conftest import Tk

runner = CliRunner()

MAP = """
name = "Vale"
width = 4
height = 4
terrain = ["pphp", "pfpp", "pppM", "pppp"]
roads = ["RR..", "....", "....", "...."]
[[hexes]]
at = "0200"
features = [{ id = "tower", name = "Old Tower", landmark = true }]
[[hexes]]
at = "0001"
features = [{ id = "cave", name = "Cave", visibility = "hidden", notes = "the dragon sleeps" }]
"""


def _run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_tp_wil_5_travel_cost_worked_example() -> None:
    code, text = _run(
        "travel", "cost", "--terrain", "plains", "--party", "mounted,carriage", "--json"
    )
    data = json.loads(text)
    assert code == 0 and data["tp_per_hex"] == "1" and data["impassable"] is False


def test_tp_wil_8_travel_cost_impassable() -> None:
    code, text = _run(
        "travel", "cost", "--terrain", "marsh", "--party", "over_20,over_50", "--json"
    )
    data = json.loads(text)
    assert code == 0 and (data["tp_per_hex"], data["impassable"]) == ("8", True)
    code, text = _run("travel", "cost", "--terrain", "hills", "--weather", "rain", "--json")
    assert code == 0 and json.loads(text)["tp_per_hex"] == "3"


@pytest.fixture
def campaign(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TURNKEEPER_DB", str(tmp_path / "t.db"))
    path = tmp_path / "vale.toml"
    path.write_text(MAP, encoding="utf-8")
    assert _run("new", "Keep", "--ruleset", "tp", "--solo", "--seed", "3")[0] == 0
    code, text = _run("map", "load", str(path), "--at", "0000", "--json")
    assert code == 0 and json.loads(text)["at"] == "0000"
    return tmp_path


def test_travel_search_camp_route_weather(campaign: Path) -> None:
    code, text = _run("travel", "s", "--json", "--dice", "5")  # exploring: the die after 1 TP
    data = json.loads(text)
    assert code == 0 and data["at"] == "0001" and data["tp_spent"] == "1"
    code, text = _run("search", "--json", "--player")
    data = json.loads(text)
    found = [r for r in data["records"] if r["kind"] == "wilderness.features_found"]
    assert found and "dragon" not in text  # referee notes never reach the player view
    code, text = _run("travel", "tower", "--json")  # TP-WIL-10: the landmark seen at the start
    assert json.loads(text)["at"] == "0200"
    code, text = _run("route", "here", "0303", "--json", "--svg", str(campaign / "r.svg"))
    route = json.loads(text)
    assert route["hexes"][0] == "0200" and route["hexes"][-1] == "0303" and route["days"] >= 1
    assert (campaign / "r.svg").read_text().startswith("<svg")
    code, text = _run("weather", "set", "rain", "--json")
    assert code == 0
    code, text = _run("weather", "--json")
    assert json.loads(text)["weather"] == {"wilds": "rain"}
    code, text = _run("camp", "--json", "--dice", "5")
    assert json.loads(text)["date"] == "1-01-02 08:00"


def test_mistakes_are_one_error(campaign: Path) -> None:
    with pytest.raises(TurnkeeperError, match="not a known destination"):
        _run("travel", "0303")
    _run("travel", "s", "--dice", "5")
    with pytest.raises(TurnkeeperError, match="TP-DISC-3"):
        _run("search", "--all-day")
    env = {**os.environ}
    result = subprocess.run(
        [sys.executable, "-c", "from turnkeeper.cli import main; main()", "travel", "zz"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 2 and "not a direction" in result.stderr


def test_map_show_draws_the_campaign_map_and_the_player_view_keeps_secrets(
    tmp_path: Path, tk: Tk
) -> None:
    # rule: TP-DISC-2 (an unfound hidden feature stays off the party's map)
    db = str(tmp_path / "play.db")
    path = tmp_path / "vale.toml"
    path.write_text(MAP, encoding="utf-8")
    tk(db, "new", "Keep", "--ruleset", "tp", "--solo", "--seed", "3")
    with pytest.raises(TurnkeeperError, match="map load"):
        tk(db, "map", "show", "--out", str(tmp_path / "none.svg"))
    tk(db, "map", "load", str(path), "--at", "0000")
    tk(db, "travel", "s", "--dice", "5")  # into 0001, where the hidden Cave lies unfound
    tk(db, "travel", "0000")
    referee, player = tmp_path / "referee.svg", tmp_path / "player.svg"
    shown = tk(db, "map", "show", "--out", str(referee))
    assert shown["campaign"] == "Keep" and shown["player"] is False
    mine = tk(db, "map", "show", "--out", str(player), "--player")
    everything, known = referee.read_text("utf-8"), player.read_text("utf-8")
    assert "Cave" in everything and "the dragon sleeps" in everything
    assert "Cave" not in known and "the dragon sleeps" not in known
    assert "Old Tower" in known  # the landmark the party saw (TP-DISC-1)
    assert "the party, hex 0000" in known and "the party, hex 0000" in everything
    hex_numbers = re.compile(r">\d{4}</text>")
    assert len(hex_numbers.findall(known)) < len(hex_numbers.findall(everything))
    assert 0 < mine["known_hexes"] < 16
    with pytest.raises(TurnkeeperError, match="--known and --party go with --map"):
        tk(db, "map", "show", "--out", str(tmp_path / "other.svg"), "--party", "0000")


def test_route_draws_on_the_campaign_map(tmp_path: Path, tk: Tk) -> None:
    db = str(tmp_path / "play.db")
    path = tmp_path / "vale.toml"
    path.write_text(MAP, encoding="utf-8")
    tk(db, "new", "Keep", "--ruleset", "tp", "--solo", "--seed", "3")
    tk(db, "map", "load", str(path), "--at", "0000")
    tk(db, "travel", "s", "--dice", "5")
    out = tmp_path / "route.svg"
    route = tk(db, "route", "here", "0200", "--out", str(out), "--player")
    assert route["hexes"] == ["0001", "0100", "0200"]
    assert route["svg"] == str(out) and route["campaign"] == "Keep"
    assert route["planned_over"] == "the hexes the party has seen or visited"
    drawn = out.read_text("utf-8")
    days = route["days"]
    assert f"day {days}: " in drawn and f"{days} day" in drawn  # each day's end is marked
    assert "<polyline" in drawn and "(the party’s map)" in drawn and "dragon" not in drawn
    back = tk(db, "route", "0303", "here")
    assert back["hexes"][-1] == "0001" and "planned_over" not in back
    # issue 5 (player view): 0303 is unseen, so the party has no route there; the referee has
    referee = tk(db, "route", "here", "0303")
    assert referee["hexes"][0] == "0001" and referee["hexes"][-1] == "0303"
    with pytest.raises(TurnkeeperError, match="no known route: the party has not seen 0303"):
        tk(db, "route", "here", "0303", "--player")
    with pytest.raises(TurnkeeperError, match="no party"):
        tk(db, "route", "here", "0303", "--map", str(path))
    with pytest.raises(TurnkeeperError, match="--player"):
        tk(db, "route", "0000", "0303", "--map", str(path), "--player")


ROAD_THEN_FOREST = """
name = "Road"
width = 1
height = 12
terrain = ["p", "p", "p", "p", "p", "f", "f", "f", "f", "f", "p", "p"]
roads = ["R", "R", "R", "R", "R", ".", ".", ".", ".", ".", "R", "R"]
"""


def _ride(tmp_path: Path, tk: Tk) -> str:
    db = str(tmp_path / "ride.db")
    path = tmp_path / "road.toml"
    path.write_text(ROAD_THEN_FOREST, encoding="utf-8")
    tk(db, "new", "Ride", "--ruleset", "tp", "--solo", "--seed", "3")
    tk(db, "map", "load", str(path), "--at", "0000")
    return db


def test_tp_wil_7_mounted_on_a_road_four_hexes_take_one_tp_and_four_hours(
    tmp_path: Path, tk: Tk
) -> None:
    """TP-WIL-7 is a daily cap, not a per-hex price: mounted (x2) on a road (x2), 4 hexes
    take 1 TP and one 4-hour watch (the exploring die, after the first TP: 5, free turn)."""
    db = _ride(tmp_path, tk)
    data = tk(db, "travel", "0004", "--explore", "--party", "mounted", "--dice", "5")
    assert (data["at"], data["tp_spent"], data["date"]) == ("0004", "1", "1-01-01 12:00")
    code, text = _run(
        "travel", "cost", "--terrain", "plains", "--road", "road", "--party", "mounted", "--json"
    )
    cost = json.loads(text)
    assert code == 0 and cost["tp_per_hex"] == cost["tp_spent"] == "1/4"


def test_tp_wil_7_four_road_hexes_then_forest_make_seven_hexes_in_a_day(
    tmp_path: Path, tk: Tk
) -> None:
    """Mounted: 4 road hexes for 1 TP, then forest (x2 x1/2, 1 TP a hex) for the 3 TP left:
    7 hexes in the day. Dice: the die after the first TP 5 (free turn); getting lost off
    the road 6 (on course); the die after the last TP 5."""
    db = _ride(tmp_path, tk)
    data = tk(db, "travel", "0011", "--explore", "--party", "mounted", "--dice", "5,6,5")
    assert (data["at"], data["tp_spent"], data["date"]) == ("0007", "4", "1-01-02 00:00")
    # The time of arrival moves the die: after the first TP at 12:00 (4 hexes), not 16:00.
    die = [
        (r["data"]["moment"], r["date"]) for r in data["records"] if r["kind"] == "wilderness.die"
    ]
    assert die == [("first", "1-01-01 12:00"), ("last", "1-01-02 00:00")]


def test_tp_wil_7_the_days_moves_stop_at_eight_movement_points(tmp_path: Path, tk: Tk) -> None:
    """ "With 4 travel points, they cannot move more than 8 movement points": on the road
    the party takes 8 hexes for 2 TP, then must camp with 2 TP unspent."""
    db = str(tmp_path / "long.db")
    path = tmp_path / "long.toml"
    rows = ", ".join(['"p"'] * 10)
    roads = ", ".join(['"R"'] * 10)
    text = f'name = "Long"\nwidth = 1\nheight = 10\nterrain = [{rows}]\nroads = [{roads}]\n'
    path.write_text(text, encoding="utf-8")
    tk(db, "new", "Long", "--ruleset", "tp", "--solo", "--seed", "3")
    tk(db, "map", "load", str(path), "--at", "0000")
    data = tk(db, "travel", "0009", "--explore", "--party", "mounted", "--dice", "5")
    assert (data["at"], data["tp_spent"], data["date"]) == ("0008", "2", "1-01-01 16:00")
    with pytest.raises(TurnkeeperError, match="8 movement points today"):
        tk(db, "travel", "s")


def test_tp_wil_1_wait_2d_gives_the_new_days_tp_without_camp(campaign: Path) -> None:
    """TP-WIL-1, "4 points of travel per day": the day's TP spent, `wait 2d` passes two
    days and the party travels again, no `camp` typed (the night camp's die still rolls at
    each midnight the wait passes)."""
    for step in ("s", "n", "s", "n"):  # 4 TP: exploring, then travelling on known hexes
        assert _run("travel", step, "--json")[0] == 0
    with pytest.raises(TurnkeeperError, match="no TP left today"):
        _run("travel", "s")
    code, text = _run("wait", "2d", "--json")
    assert code == 0 and json.loads(text)["date"] == "1-01-04 00:00"
    code, text = _run("travel", "s", "--json")
    data = json.loads(text)
    assert code == 0 and data["at"] == "0001" and data["tp_spent"] == "1"


def test_tp_wil_3_a_roster_of_21_pays_2_tp_a_plains_hex_untold(tmp_path: Path, tk: Tk) -> None:
    """TP-WIL-3, "Apply each that matches the party": "more than 20 people x1/2". A party
    file of 21 characters on foot travels a hex of plains for 2 TP, nobody typing
    `--party "over 20"`: the roster already says so."""
    db = str(tmp_path / "host.db")
    party, vale = tmp_path / "host.toml", tmp_path / "vale.toml"
    sheets = "".join(f'[[characters]]\nname = "C{i}"\nhp = 4\n' for i in range(21))
    party.write_text(sheets + "[supplies]\nrations = 99\nwater = 99\n", encoding="utf-8")
    vale.write_text('name = "Vale"\nwidth = 1\nheight = 3\nterrain = ["p", "p", "p"]\n')
    tk(db, "new", "Host", "--ruleset", "tp", "--party", str(party), "--seed", "3")
    tk(db, "map", "load", str(vale), "--at", "0000")
    went = tk(db, "travel", "s", "--dice", "5,5")
    assert (went["at"], went["tp_spent"]) == ("0001", "2")
