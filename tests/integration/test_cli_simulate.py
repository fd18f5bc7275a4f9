"""CLI: the designer's bench, ``simulate expedition|fight`` and ``odds turn --plot``, run as a
designer would: tables, ``--json`` columns, ``--vs``, plots and one-line refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.integration.conftest import printed, refused

import turnkeeper.cli  # noqa: F401  (registers every verb group)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SITE, PARTY = str(EXAMPLES / "site.toml"), str(EXAMPLES / "party.toml")


def _expedition(*extra: str) -> list[str]:
    return ["simulate", "expedition", "--site", SITE, "--party", PARTY, *extra]


def test_ex_light_1_a_three_hour_delve_burns_six_torches_through_the_cli() -> None:
    """rule: EX-LIGHT-1, EX-REST-1 - 3 hours are 18 turns of 10 minutes; a torch lasts 3 of
    them, so every delve burns 6 torches; --json gives each column's summary and histogram."""
    data = json.loads(
        printed(*_expedition("--ruleset", "ex", "--hours", "3", "--runs", "2000", "--json"))
    )
    assert data["turns"] == 18 and data["runs"] == 2000 and data["mode"] == "cautious"
    torches = data["columns"]["torches_used"]
    assert torches["histogram"] == {"6": 2000} and torches["mean"] == 6
    assert (torches["lower_quartile"], torches["median"], torches["upper_quartile"]) == (6, 6, 6)
    for column in data["columns"].values():
        assert sum(column["histogram"].values()) == 2000


def test_tp_against_ex_side_by_side_and_in_one_plot(tmp_path: Path) -> None:
    """The README's picture: torches burnt in a 3-hour delve, tp against ex (TP-ENC-2 against
    EX-LIGHT-1), in one table and one plot."""
    plot = tmp_path / "torches.png"
    args = _expedition("-r", "tp", "--vs", "ex", "--hours", "3", "--runs", "5000")
    table = printed(*args, "--plot", str(plot), "--column", "torches_used")
    assert "tp against ex" in table and "mean (ex)" in table and plot.stat().st_size > 10_000
    data = json.loads(printed(*args, "--json"))
    tp, ex = data["compared"]
    assert (tp["ruleset"], ex["ruleset"]) == ("tp", "ex")
    assert tp["columns"]["torches_used"]["mean"] < ex["columns"]["torches_used"]["mean"] == 6


def test_pushing_on_wearies_the_party_ex_rest_3() -> None:
    """rule: EX-REST-3 - a party that never rests is wearied from the turn after its rest
    fell due (turn 6, EX-REST-1) to the end."""
    quiet = json.loads(
        printed(*_expedition("-r", "ex", "--turns", "12", "--push-on", "--runs", "500", "--json"))
    )
    assert quiet["columns"]["rests"]["histogram"] == {"0": 500}
    assert quiet["columns"]["wearied_turns"]["least"] == 6
    assert quiet["columns"]["wearied_turns"]["most"] == 6


def test_fighting_every_encounter_makes_a_rest_due_at_once_ex_rest_2() -> None:
    """rule: EX-REST-2 - a fight must be followed at once by a turn of rest: a party that
    pushes on and fights what it meets on turn 2 is wearied from turn 4, 9 of 12 turns."""
    args = _expedition("-r", "ex", "--turns", "12", "--push-on", "--runs", "2000", "--json")
    fought = json.loads(printed(*args, "--fight"))
    assert fought["columns"]["wearied_turns"]["most"] == 9


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (("--turns", "6", "--hours", "1"), "not both"),
        (("--runs", "10000001"), "10,000,000"),
        (("--turns", "10001"), "10,000"),
        (("--mode", "crawling"), "modes: cautious, swift, running"),
        (("--runs", "10", "--column", "gold"), "columns: encounters"),
        (("--runs", "10", "--plot", "x.gif"), ".png or .svg"),
        (("--seed", "-1"), "--seed -1"),
    ],
)
def test_bad_input_is_one_clear_line(extra: tuple[str, ...], words: str) -> None:
    assert words in refused(*_expedition(*extra))


def test_cb_side_1_an_unbeatable_ally_wins_against_a_rat(tmp_path: Path) -> None:
    """rule: CB-SIDE-1 - the party's side is the player characters with their allies: an
    ally from the foes file fights for the party (it won 0.0% when every combatant of the
    foes file was made a foe)."""
    party = tmp_path / "party.toml"
    party.write_text('[[characters]]\nname = "Ann"\nhp = 1\nac = 10\ndamage = "1"\n')
    foes = tmp_path / "foes.toml"
    foes.write_text(
        '[[foes]]\nname = "Rat"\nhd = 1\nhp = 1\nac = 10\ndamage = "1"\n'
        '[[allies]]\nname = "Golem"\nhp = 1000\nac = 100\ndamage = "2"\n'
    )
    args = ["simulate", "fight", "-r", "pg", "--party", str(party), "--foes", str(foes)]
    data = json.loads(printed(*args, "--runs", "2000", "--json"))
    assert data["party_wins"] == 1.0 and data["opposition_wins"] == 0.0


def test_simulate_fight_vs_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "rounds.svg"
    foes, party = str(EXAMPLES / "foes.toml"), str(EXAMPLES / "fighters.toml")
    args = ["simulate", "fight", "-r", "pg", "--vs", "cb", "--party", party, "--foes", foes]
    data = json.loads(printed(*args, "--runs", "1000", "--plot", str(plot), "--json"))
    assert [c["ruleset"] for c in data["compared"]] == ["pg", "cb"]
    assert sum(data["compared"][0]["columns"]["rounds"]["histogram"].values()) == 1000
    assert "pg: mean" in plot.read_text(encoding="utf-8")
    assert "fights (cb)" in printed(*args, "--runs", "500")


def test_odds_turn_plots_the_encounters_of_two_rulesets(tmp_path: Path) -> None:
    """rule: TP-DUN-1, EX-ENC-1 - 18 turns: tp meets 3 encounters on average, ex 1½ (9 checks
    at 1 in 6), drawn in one plot with their means."""
    plot = tmp_path / "encounters.svg"
    args = ["odds", "turn", "-r", "tp", "--vs", "ex", "--turns", "18", "--plot", str(plot)]
    data = json.loads(printed(*args, "--json"))
    assert data["plot"] == str(plot)
    drawn = plot.read_text(encoding="utf-8")
    assert "tp: mean 3" in drawn and "ex: mean 1½" in drawn
    assert "no event 'gold'" in refused(*args, "--force", "--event", "gold")


def test_a_refusal_is_one_line_on_stderr_and_exit_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "turnkeeper", *_expedition("--runs", "0")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "error: --runs 0: simulate from 1 to 10,000,000 runs"
    ]


def test_simulate_journey_on_a_map_tp_wil_1(tmp_path: Path) -> None:
    """rule: TP-WIL-1, TP-WIL-4, TP-LOST-1 - two road hexes (x2: 1/2 TP each) from 0000 on
    the map are 1 TP of one day, and nobody gets lost on a road; a journey's JSON has every
    column, and --plot draws the days."""
    wild = tmp_path / "wild.toml"
    wild.write_text(
        'name = "Vale"\nwidth = 4\nheight = 2\nterrain = ["pppf", "pffh"]\n'
        'roads = ["RRR.", "...."]\n'
    )
    plot = tmp_path / "days.png"
    args = ["simulate", "journey", "--map", str(wild), "--from", "0000", "--to", "0200"]
    data = json.loads(printed(*args, "--runs", "1000", "--plot", str(plot), "--json"))
    columns = data["columns"]
    assert columns["days"]["histogram"] == {"1": 1000} and columns["tp"]["histogram"] == {"1": 1000}
    assert columns["times_lost"]["histogram"] == {"0": 1000} and plot.stat().st_size > 5000
    far = json.loads(printed(*args[:-1], "0301", "--season", "winter", "--runs", "500", "--json"))
    assert far["columns"]["arrived"]["histogram"] == {"1": 500}
    assert "--to 0909" in refused(*args[:-1], "0909")
    assert "seasons: winter" in refused(*args, "--season", "monsoon")


def test_simulate_fight_surprise_and_missiles_through_the_cli() -> None:
    """rule: CB-SUR-1, PG-SUR-1 - under cb the foes try for surprise only when they are the
    attackers; under pg --surprise none turns the 2 in 6 off; a shooter must be a combatant."""
    foes, party = str(EXAMPLES / "foes.toml"), str(EXAMPLES / "fighters.toml")
    args = ["simulate", "fight", "--party", party, "--foes", foes, "--runs", "2000", "--json"]
    cb = json.loads(printed(*args, "-r", "cb", "--attackers", "foes"))
    assert 0 < cb["surprised"]["party"] < 1 and cb["surprised"]["opposition"] == 0
    pg = json.loads(
        printed(
            *args,
            "-r",
            "pg",
            "--surprise",
            "none",
            "--range-rounds",
            "2",
            "--shooter",
            "Bo",
            "--shooter",
            "Goblin",
        )
    )
    assert pg["surprised"] == {"party": 0.0, "opposition": 0.0}
    assert "no combatant called 'Zed'" in refused(*args, "--shooter", "Zed")
    assert "say party or foes" in refused(*args, "--surprise", "everyone")


def test_odds_usage_vs_a_ruleset_with_a_shorter_chain(tmp_path: Path) -> None:
    """rule: PG-USE-1 - a d8 steps down d8, d6, d4 under pg: 8/2 + 6/2 + 4/2 = 9 uses on
    average; a ruleset whose chain is d8, d4 lasts 4 + 2 = 6; both in one plot."""
    short = tmp_path / "short.toml"
    short.write_text('extends = "pg"\nusage_die = [8, 4]\n[ruleset]\nname = "short"\ntitle = "S"\n')
    plot = tmp_path / "uses.svg"
    args = ["odds", "--usage", "d8", "-r", "pg", "--vs", str(short), "--plot", str(plot)]
    data = json.loads(printed(*args, "--json"))
    assert [(c["ruleset"], c["mean"]) for c in data["compared"]] == [("pg", "9"), ("short", "6")]
    assert "short: mean 6" in plot.read_text(encoding="utf-8")
    assert "--vs compares rulesets" in refused("odds", "3d6", "--vs", "tp")


@pytest.mark.parametrize("verb", ["expedition", "journey", "fight"])
def test_a_plot_with_nowhere_to_go_is_refused_before_the_simulation(
    verb: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25 (`simulate ... --plot /no/such/dir/x.png` ran the whole simulation, then
    failed): the plot's folder, and a file already there without --force, are refused
    before any run; the simulations here would fail the test if they were started."""
    import turnkeeper.analysis.expedition as expedition
    import turnkeeper.analysis.journey as journey
    import turnkeeper.analysis.simulate as fights

    def started(*args: object, **kwargs: object) -> None:
        raise AssertionError("the simulation ran before the plot's path was checked")

    for module, name in (
        (expedition, "simulate_expedition"),
        (journey, "simulate_journey"),
        (fights, "simulate_fight"),
    ):
        monkeypatch.setattr(module, name, started)
    wild = tmp_path / "wild.toml"
    printed("map", "new", "--width", "6", "--height", "6", "--seed", "1", "--out", str(wild))
    args = {
        "expedition": _expedition(),
        "journey": ["simulate", "journey", "--map", str(wild), "--from", "0101", "--to", "0404"],
        "fight": ["simulate", "fight", "-r", "pg", "--party", str(EXAMPLES / "fighters.toml"),
                  "--foes", str(EXAMPLES / "foes.toml")],
    }[verb]  # fmt: skip
    nowhere = tmp_path / "no" / "such" / "x.png"
    assert "no folder" in refused(*args, "--plot", str(nowhere))
    there = tmp_path / "x.png"
    there.write_bytes(b"a picture")
    assert "give --force" in refused(*args, "--plot", str(there))
    assert there.read_bytes() == b"a picture"
