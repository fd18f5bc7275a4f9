"""Numbers and names at every scale (issue 38): a ruleset with ``travel_points_per_day`` or
``max_movement_factor`` at 2^62 passed ``rules check`` and then ``route`` died with an
internal ``OverflowError`` in the day kernel; ``plains = 0.1`` cost
18014398509481984/3602879701896397 TP; a party of 20,000 characters was accepted and every
``status`` after it took 20 s; ``map load --at`` put the party in a lake, from which every
route was "no passable route".

Each refusal: exit 2, one ``error:`` line naming the key or the terrain, no traceback, the
store unchanged (or never made).
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from tests.integration.hostile.refusals import refused, refused_in

from turnkeeper.world.hexes import Hex

HUGE = 2**62

VALE = """name = "Vale"
width = 4
height = 4
terrain = ["pphp", "pfpp", "pppM", "pwpp"]
"""
LAKE = "0103"  # the "w" of the last row: water, impassable on foot (TP-WIL-8)


def _ok(shell, *args: str) -> str:
    said = shell(*args)
    assert said.code == 0, said.err
    return said.out


def _ruleset(folder: Path, travel: str, name: str = "mine") -> str:
    path = folder / f"{name}.toml"
    text = f'extends = "tp"\n[ruleset]\nname = "{name}"\ntitle = "Mine"\n{travel}'
    path.write_text(text, encoding="utf-8")
    return str(path)


def _vale(folder: Path) -> str:
    path = folder / "vale.toml"
    path.write_text(VALE, encoding="utf-8")
    return str(path)


def _party(folder: Path, count: int, first: int = 0) -> str:
    path = folder / f"party-{first}-{count}.toml"
    tables = (f'[[characters]]\nname = "C{i}"\nhp = 5\n' for i in range(first, first + count))
    path.write_text("".join(tables), encoding="utf-8")
    return str(path)


# --- a ruleset's numbers are bounded where it is read ----------------------------------------


@pytest.mark.parametrize(
    ("travel", "key", "bound"),
    [
        (f"[travel]\ntravel_points_per_day = {HUGE}\n", "travel.travel_points_per_day", "1000"),
        (f"[travel]\nmax_movement_factor = {HUGE}\n", "travel.max_movement_factor", "100"),
        (f"[travel]\nimpassable_factor = {HUGE}\n", "travel.impassable_factor", "100"),
        (
            f'[travel.vessels.raft]\ntravel_points_per_day = {HUGE}\nover = ["water"]\n',
            "travel.vessels.raft.travel_points_per_day",
            "1000",
        ),
        (f"[time]\nround_seconds = {HUGE}\n", "time.round_seconds", "1000000"),
        (f"[rest]\nrest_turns = {HUGE}\n", "rest.rest_turns", "1000000"),
        (f"[surprise]\nhungry_reaction_modifier = {-HUGE}\n", "surprise.", "-1000000"),
        # the dice a ruleset's numbers make are within a dice expression's bounds
        ("[magic]\ndie = 1000000\n", "magic.die", "10000"),
        ("[magic]\nmax_dice = 5000\n", "magic.max_dice", "1000"),
        ("[dungeon]\ncheck_die = 20000\n", "dungeon.check_die", "10000"),
    ],
)
def test_a_ruleset_number_past_its_bound_is_refused_where_it_is_read(
    shell, tmp_path: Path, travel: str, key: str, bound: str
) -> None:
    mine = _ruleset(tmp_path, travel)
    line = refused(shell, [mine], "rules", "check", mine, words=(key, bound))
    assert "internal error" not in line
    db = tmp_path / "k.db"
    refused(shell, [db], "new", "K", "--ruleset", mine, "--solo", "--db", str(db), words=(key,))
    assert not db.exists()


def test_a_ruleset_at_its_bounds_plans_a_route(shell, tmp_path: Path) -> None:
    """The bounds leave the route search's 64-bit counts room: at 1000 TP a day and the
    factors at 100, a route is planned (2^62 died with OverflowError in the day kernel)."""
    travel = "[travel]\ntravel_points_per_day = 1000\nmax_movement_factor = 100\n"
    mine = _ruleset(tmp_path, travel + "impassable_factor = 100\n[travel.terrain]\nhills = 0.001\n")
    db = str(tmp_path / "k.db")
    _ok(shell, "new", "K", "--ruleset", mine, "--solo", "--seed", "1", "--db", db)
    _ok(shell, "map", "load", _vale(tmp_path), "--at", "0000", "--db", db)
    route = json.loads(_ok(shell, "route", "here", "0200", "--db", db, "--json"))
    assert route["hexes"] == ["0000", "0100", "0200"] and route["tp"] == "1001"


@pytest.mark.parametrize("value", ["1e300", "0.0001", "1001", '"1/3000"', f'"{HUGE}/3"'])
def test_a_multiplier_past_its_bounds_is_refused(shell, tmp_path: Path, value: str) -> None:
    mine = _ruleset(tmp_path, f"[travel.terrain]\nplains = {value}\n")
    line = refused(shell, [mine], "rules", "check", mine, words=("travel.terrain.plains",))
    assert "from 0 to 1000 in parts of at least 1/1000" in line and len(line) < 300


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (f'[weather]\nstart = "{"x" * 20_000}"\n', "weather.start"),
        (f"[travel.terrain]\n{'y' * 20_000} = 1\n", "travel.terrain.yyyy"),
        (f'[tables.reaction]\ndice = "2d6"\nrows = [{{ result = "{"z" * 20_000}" }}]\n', "result"),
    ],
    ids=["a value", "a key", "a table's result"],
)
def test_a_rulesets_text_is_as_long_as_a_commands(
    shell, tmp_path: Path, text: str, key: str
) -> None:
    mine = _ruleset(tmp_path, text)
    line = refused(shell, [mine], "rules", "check", mine, words=(key,))
    assert "a text of 20,000 characters; at most 10,000: shorten it" in line and len(line) < 300


# --- a decimal is the fraction it says -------------------------------------------------------


def test_a_decimal_multiplier_is_the_fraction_it_says(shell, tmp_path: Path) -> None:
    """``plains = 0.1`` is 1/10: a plains hex costs 10 TP, not 18014398509481984/...397."""
    mine = _ruleset(tmp_path, "[travel]\nimpassable_factor = 3\n[travel.terrain]\nplains = 0.1\n")
    cost = json.loads(
        _ok(shell, "travel", "cost", "--terrain", "plains", "--ruleset", mine, "--json")
    )
    assert cost["tp_per_hex"] == "10"
    db = str(tmp_path / "k.db")
    _ok(shell, "new", "K", "--ruleset", mine, "--solo", "--seed", "1", "--db", db)
    _ok(shell, "map", "load", _vale(tmp_path), "--at", "0000", "--db", db)
    route = json.loads(_ok(shell, "route", "here", "0200", "--db", db, "--json"))
    assert route["tp"] == "23/2"  # a plains hex at 10 TP, then hills at 3/2
    said = _ok(shell, "route", "here", "0200", "--db", db)
    assert "11½ TP" in said and "3602879701896397" not in said


# --- a party's size ----------------------------------------------------------------------------


def test_a_party_of_20000_characters_is_refused_as_it_is_read(shell, tmp_path: Path) -> None:
    party = _party(tmp_path, 20_000)
    db = tmp_path / "k.db"
    line = refused(shell, [db, party], "new", "K", "-r", "ex", "--party", party, "--db", str(db))
    assert "20,000 characters; a party holds at most 300" in line
    assert not db.exists()


def test_newcomers_past_the_worlds_300_are_refused(shell, tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")
    _ok(shell, "new", "K", "-r", "ex", "--party", _party(tmp_path, 200), "--db", db)
    line = refused_in(shell, db, "party", "new", "Many", _party(tmp_path, 101, first=200))
    assert "the world has 200 characters" in line and "at most 300" in line
    _ok(shell, "party", "new", "Enough", _party(tmp_path, 100, first=200), "--db", db)
    assert len(json.loads(_ok(shell, "party", "timeline", "--db", db, "--json"))) > 0


def test_a_characters_words_are_as_long_as_a_name(shell, tmp_path: Path) -> None:
    path = tmp_path / "party.toml"
    path.write_text(f'[[characters]]\nname = "Aldo"\nhp = 5\nclass = "{"x" * 20_000}"\n')
    db = tmp_path / "k.db"
    line = refused(shell, [db], "new", "K", "-r", "ex", "--party", str(path), "--db", str(db))
    assert "characters[0].class" in line and len(line) < 400


@pytest.mark.parametrize("forged", ["party", "ruleset"])
def test_an_imported_journal_holds_the_same_bounds(
    shell, db: str, tmp_path: Path, forged: str
) -> None:
    """A journal's party of 20,000 characters, or its ruleset's 2^62 travel points a day,
    is refused by ``import`` as a file's would be. (That a refused import leaves no store
    file behind is the import's own work, item 1 of the issue: not watched here.)"""
    lines = _ok(shell, "export", "--db", db).splitlines()
    started = json.loads(lines[0])
    assert started["kind"] == "campaign.started"
    if forged == "party":
        one = started["data"]["party"]["characters"][0]
        started["data"]["party"]["characters"] = [{**one, "name": f"C{i}"} for i in range(20_000)]
    else:
        started["data"]["ruleset"]["travel"]["travel_points_per_day"] = HUGE
    journal = tmp_path / "forged.jsonl"
    journal.write_text("\n".join([json.dumps(started), *lines[1:]]) + "\n", encoding="utf-8")
    fresh = tmp_path / "fresh.db"
    key = "party.characters" if forged == "party" else "ruleset.travel.travel_points_per_day"
    refused(shell, [journal], "import", str(journal), "--db", str(fresh), words=(key,))


# --- map load puts the party where it can stand ------------------------------------------------


def test_map_load_refuses_a_lake_naming_its_terrain(shell, tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")
    _ok(shell, "new", "K", "-r", "tp", "--solo", "--seed", "1", "--db", db)
    vale = _vale(tmp_path)
    line = refused_in(shell, db, "map", "load", vale, "--at", LAKE)
    assert f"hex {LAKE} is water, impassable" in line and "--vessel" in line
    # in a boat the party may start on the lake
    args = ("map", "load", vale, "--at", LAKE, "--vessel", "river boat", "--db", db, "--json")
    loaded = json.loads(_ok(shell, *args))
    assert loaded["at"] == LAKE and "the party travels on foot; by river boat" in json.dumps(loaded)
    refused_in(shell, db, "map", "load", vale, "--at", LAKE, "--vessel", "yacht")


# --- drawing that grows with what is drawn ------------------------------------------------------


def _map_file(folder: Path, terrain: list[str], roads: list[str] | None = None) -> str:
    path = folder / "big.toml"
    rows = ", ".join(f'"{row}"' for row in terrain)
    text = f'name = "Big"\nwidth = {len(terrain[0])}\nheight = {len(terrain)}\nterrain = [{rows}]\n'
    if roads is not None:
        text += "roads = [" + ", ".join(f'"{row}"' for row in roads) + "]\n"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_road_in_every_hex_is_drawn_a_stroke_a_line_of_hexes(shell, tmp_path: Path) -> None:
    """Issue 38: 500 x 500 with a road in every hex drew in 8 s (0.3 s without roads), and
    2000 x 2000 took minutes and 2 GB, a segment for every two hexes. Hexes in line are one
    stroke now: on 60 x 60, 237 strokes, not 10,500 segments."""
    side = 60
    drawn = _map_file(tmp_path, ["p" * side] * side, ["R" * side] * side)
    svg, png = tmp_path / "roads.svg", tmp_path / "roads.png"
    _ok(shell, "map", "show", "--map", drawn, "--out", str(svg))
    road = re.search(
        r'stroke="#7a4a1a" stroke-width="3" stroke-linecap="round" d="([^"]*)"', svg.read_text()
    )
    assert road is not None and road[1].count("M") < 4 * side  # 60 down, about 90 a diagonal
    _ok(shell, "map", "show", "--map", drawn, "--out", str(png), "--png-size", "2000")
    assert png.read_bytes().startswith(b"\x89PNG")


def test_a_winding_route_lists_every_hex_of_its_way(shell, tmp_path: Path) -> None:
    """Issue 38: a serpentine route of about 2 million hexes took 107 s and 1.5 GB for its
    ``--json`` alone. Its days are split in whole units of a TP and its labels made
    together now; at this size, every hex is still listed, in order, each beside the next."""
    width, height = 21, 40
    terrain = [["p"] * width for _ in range(height)]
    for col in range(1, width, 2):  # walls of water, a gap at alternate ends
        for row in range(height):
            terrain[row][col] = "w"
        terrain[height - 1 if col // 2 % 2 == 0 else 0][col] = "p"
    winding = _map_file(tmp_path, ["".join(row) for row in terrain])
    goal = f"{width - 1:02d}{height - 1:02d}"
    route = json.loads(_ok(shell, "route", "0000", goal, "--map", winding, "--json"))
    hexes = [Hex.from_label(label) for label in route["hexes"]]
    assert route["hexes"][0] == "0000" and route["hexes"][-1] == goal
    assert len(hexes) == len(set(hexes)) > 10 * height  # up and down all 11 columns
    assert all(b in a.neighbours() for a, b in itertools.pairwise(hexes))
    moves = len(hexes) - 1  # plains, 1 TP each: 4 a day (TP-WIL-1)
    assert route["tp"] == str(moves) and route["days"] == -(-moves // 4)
