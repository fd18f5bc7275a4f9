"""The ``scene`` verbs end to end against a temporary --db (DG-LOOP-1, DG-SPOT-1, DG-SPOT-2,
DG-RND-1, DG-MOM-1, DG-DREAD-1): every verb is a command in the stored campaign's journal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers every verb group)
from turnkeeper.cli.app import app
from turnkeeper.errors import IllegalCommandError, TurnkeeperError

from .conftest import kinds

runner = CliRunner()

if TYPE_CHECKING:
    from tests.integration.conftest import Shell, Tk


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A store holding one Dungeoneers campaign, the current one."""
    path = str(tmp_path / "campaigns.db")
    made = runner.invoke(
        app, ["new", "Barrow", "--ruleset", "dg", "--solo", "--seed", "5", "--db", path]
    )
    assert made.exit_code == 0, made.output
    return path


@pytest.fixture
def scene(tk: Tk) -> Tk:
    """``scene(db, *args)``: run ``scene ARGS`` and return its JSON."""
    return lambda db, *args: tk(db, "scene", *args)


def test_dg_dread_1_dread_is_not_spent_on_a_party_character(tmp_path: Path, tk: Tk) -> None:
    """DG-DREAD-1: dread enhances "creatures that they control": `scene dread spend 1 "iron
    skin" --creature Aldo` is refused for the party's Aldo, seated or not, and spends
    nothing; the ogre takes it."""
    db = str(tmp_path / "deep.db")
    party = str(Path(__file__).resolve().parents[2] / "examples" / "party.toml")
    tk(db, "new", "Deep", "--ruleset", "dg", "--party", party)
    tk(db, "scene", "open", "exploration", "--players", "Bea", "--creatures", "ogre", "--gm-first")
    tk(db, "scene", "gm", "wolves circle the camp", "--during-rest")
    for name in ("Aldo", "bea"):
        with pytest.raises(IllegalCommandError, match="is a player's character"):
            tk(db, "scene", "dread", "spend", "1", "iron skin", "--creature", name)
    spent = tk(db, "scene", "dread", "spend", "1", "iron skin", "--creature", "ogre")
    assert spent["state"]["dread"] == 0


def test_cli_scene_a_round_with_a_compromise_and_dread(db: str, scene: Tk, tk: Tk) -> None:
    """DG-LOOP-1 to DG-DREAD-1 through the verbs: d20 shows 11 against 12, a compromise."""
    opened = scene(db, "open", "combat", "--players", "freya,ulfarmi", "--creatures", "ogre")
    assert opened["campaign"] == "Barrow" and opened["version"] == 2
    assert opened["state"]["seats"] == [
        {"name": "freya", "tokens": 3},
        {"name": "ulfarmi", "tokens": 3},
    ]
    taken = scene(db, "spotlight", "--vote", "freya=ulfarmi", "--vote", "ulfarmi=ulfarmi")
    assert taken["state"]["seats"][1]["tokens"] == 2
    scene(db, "free", "freya", "draws her bow")
    acted = scene(
        db, "act", "ulfarmi", "leap the chasm", "--roll", "d20", "--target", "12", "--dice", "11"
    )
    assert acted["records"][0]["data"]["outcome"] == "partial"
    assert acted["records"][0]["rolls"][0]["total"] == 11
    assert acted["records"][0]["rolls"][0]["typed_in"] is True
    comp = scene(db, "compromise", "ulfarmi")
    assert kinds(comp) == ["scene.compromise_taken", "scene.dread_gained"]
    assert comp["state"]["dread"] == 1
    gm = scene(db, "gm", "the ogre roars", "--creature", "ogre", "--creature-free", "ogre=stomps")
    assert kinds(gm)[-2:] == ["scene.round_ended", "clock.advanced"]
    assert gm["records"][-2]["data"] == {"round": 1, "frame": "combat_round", "seconds": 6}
    assert gm["date"] == "1-01-01 08:00" and gm["records"][-1]["at"] == 6  # DG-RND-1: 6 s
    spent = scene(db, "dread", "spend", "1", "the ogre strikes twice", "--creature", "ogre")
    assert spent["state"]["dread"] == 0
    assert spent["state"]["bought"][0]["what"] == "the ogre strikes twice"
    status = scene(db, "status")
    assert status["scene"]["round"] == 2 and status["ruleset"] == "dg"
    closed = scene(db, "close")
    assert closed["state"]["scene"] is None
    log = tk(db, "log")
    assert "scene.round_ended" in json.dumps(log)


def test_cli_scene_momentum_keeps_the_spotlight(db: str, scene: Tk) -> None:
    scene(db, "open", "combat", "--players", "freya,ulfarmi")
    scene(db, "spotlight", "--vote", "freya=freya", "--vote", "ulfarmi=freya")
    data = scene(db, "act", "freya", "strike", "--tag", "momentum", "--outcome", "success")
    assert kinds(data)[-1] == "scene.momentum_kept"
    people = runner.invoke(app, ["scene", "status", "--db", db])
    assert people.exit_code == 0 and "spotlight with the players" in people.stdout


def test_cli_scene_give_tokens_and_people_output(db: str, scene: Tk) -> None:
    scene(db, "open", "social", "--players", "freya,ulfarmi")
    given = runner.invoke(app, ["scene", "give", "freya", "ulfarmi", "2", "--db", db])
    assert given.exit_code == 0
    assert "freya gives 2 spotlight tokens to ulfarmi" in given.stdout
    votes = ["--vote", "freya=ulfarmi", "--vote", "ulfarmi=ulfarmi"]
    rolled = runner.invoke(app, ["scene", "spotlight", *votes, "--db", db])
    assert rolled.exit_code == 0 and "ulfarmi takes the spotlight" in rolled.stdout


def test_cli_scene_undo_and_the_campaign_option(db: str, scene: Tk, tk: Tk) -> None:
    """A scene command is a journal command: ``undo`` takes it back; --campaign picks one."""
    tk(db, "new", "Keep", "--ruleset", "ex", "--solo", "--seed", "1")  # now the current campaign
    scene(db, "open", "combat", "--players", "freya", "--campaign", "Barrow")
    scene(db, "spotlight", "--vote", "freya=freya", "-c", "Barrow")
    tk(db, "use", "Barrow")
    assert scene(db, "status")["seats"] == [{"name": "freya", "tokens": 2}]
    tk(db, "undo")
    status = scene(db, "status")
    assert status["seats"] == [{"name": "freya", "tokens": 3}]
    assert status["scene"]["spotlit"] is None


def test_cli_scene_refusals_change_nothing(db: str, scene: Tk, tk: Tk) -> None:
    scene(db, "open", "combat", "--players", "freya,ulfarmi")
    before = scene(db, "status")
    version = tk(db, "status")["version"]
    for args in (
        ["spotlight", "--vote", "freya=freya", "--vote", "ulfarmi=ulfarmi"],
        ["act", "freya", "strike"],
        ["free", "mallory", "waves"],
        ["dread", "spend", "1", "more ogre"],
        ["act", "freya", "x", "--outcome", "great"],
        ["spotlight", "--vote", "freya"],
    ):
        result = runner.invoke(app, ["scene", *args, "--db", db])
        assert isinstance(result.exception, IllegalCommandError), args
    assert scene(db, "status") == before
    assert tk(db, "status")["version"] == version


def test_cli_scene_needs_a_spotlight_ruleset(db: str, scene: Tk, tk: Tk) -> None:
    tk(db, "new", "Keep", "--ruleset", "ex", "--solo", "--seed", "1")
    with pytest.raises(TurnkeeperError, match="has no spotlight"):
        scene(db, "open", "combat", "--players", "freya")


def _shell(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    """One `turnkeeper` invocation in its own process, as from a shell."""
    code = "import sys; from turnkeeper.cli import main; sys.argv[0] = 'turnkeeper'; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "TURNKEEPER_DB": db},
    )


@pytest.mark.slow
def test_cli_scene_persists_between_shell_invocations(db: str, shell: Shell) -> None:
    """DG-SPOT-2 across processes: the spotlight taken in one shell command holds in the next.
    Three processes show it; the close and the mistake after it go through the console
    script's own path in this one (a process each cost most of the test)."""
    opened = _shell(db, "scene", "open", "social", "--players", "freya,ulfarmi")
    assert opened.returncode == 0, opened.stderr
    taken = _shell(db, "scene", "spotlight", "--vote", "freya=freya", "--vote", "ulfarmi=freya")
    assert taken.returncode == 0, taken.stderr
    status = _shell(db, "scene", "status", "--json")
    assert status.returncode == 0, status.stderr
    data = json.loads(status.stdout)
    assert data["scene"]["spotlit"] == "freya"
    assert data["seats"] == [{"name": "freya", "tokens": 2}, {"name": "ulfarmi", "tokens": 3}]
    closed = shell("scene", "close", "--db", db)
    assert closed.code == 0, closed.err
    again = shell("scene", "close", "--db", db)  # a user's mistake: one line, exit 2
    assert again.code == 2
    assert again.err.strip().splitlines() == [
        "error: no scene is open: the GM sets one first (scene open KIND)"
    ]


def test_dg_spot_1_one_players_repeated_votes_count_once(db: str, scene: Tk) -> None:
    """DG-SPOT-1: the players agree by majority, one vote each: freya voting ulfarmi three
    times against alberich's own vote is a tie of one vote each, which the GM breaks, not a
    3-1 majority for ulfarmi; a player naming two candidates is refused."""
    scene(db, "open", "exploration", "--players", "freya,ulfarmi,alberich")
    votes = ["--vote", "freya=ulfarmi"] * 3 + ["--vote", "alberich=alberich"]
    with pytest.raises(IllegalCommandError, match=r"no majority \(ulfarmi 1, alberich 1\)"):
        scene(db, "spotlight", *votes)
    with pytest.raises(IllegalCommandError, match="freya votes for both ulfarmi and alberich"):
        scene(db, "spotlight", "--vote", "freya=ulfarmi", "--vote", "freya=alberich")
    taken = scene(db, "spotlight", *votes, "--gm", "alberich")
    assert taken["records"][0]["data"]["votes"] == [["freya", "ulfarmi"], ["alberich", "alberich"]]


def test_dg_spot_1_a_table_of_five_needs_three_votes(db: str, scene: Tk) -> None:
    """DG-SPOT-1, "the players must agree on who gets the spotlight (majority consensus,
    ties/disputes broken by the GM)": at a table of five one vote is refused, a 2-2-1 split
    is a dispute the GM breaks with --gm, and three votes of five give the spotlight."""
    scene(db, "open", "exploration", "--players", "ana,bo,cy,dee,eli")
    with pytest.raises(IllegalCommandError, match=r"no majority \(bo 1\), 3 of the 5 players"):
        scene(db, "spotlight", "--vote", "ana=bo")
    split = ["ana=bo", "bo=bo", "cy=dee", "dee=dee", "eli=eli"]
    split_votes = [arg for vote in split for arg in ("--vote", vote)]
    disputed = r"no majority \(bo 2, dee 2, eli 1\).*the GM breaks ties and disputes \(--gm NAME\)"
    with pytest.raises(IllegalCommandError, match=disputed):
        scene(db, "spotlight", *split_votes)
    taken = scene(db, "spotlight", *split_votes, "--gm", "dee")
    assert taken["records"][0]["data"]["player"] == "dee"
    assert taken["records"][0]["data"]["by_gm"] is True
    scene(db, "act", "dee", "reads the runes")
    scene(db, "gm", "the runes glow")
    three = ["--vote", "ana=cy", "--vote", "bo=cy", "--vote", "cy=cy"]
    taken = scene(db, "spotlight", *three)
    assert taken["records"][0]["data"]["player"] == "cy"
    assert taken["records"][0]["data"]["by_gm"] is False


def test_dg_cd_1_wait_1m_ticks_a_rapid_countdown_ten_times_not_eleven(
    db: str, scene: Tk, tk: Tk
) -> None:
    """DG-CD-1 with DG-RND-1: `wait 1m` out of a scene passes 10 combat rounds of 6 s; the
    social round ending with the tenth is not a second kind of round at the same time."""
    tk(db, "countdown", "add", "fuse", "--type", "rapid", "--length", "20")
    waited = tk(db, "wait", "1m")
    assert [r["kind"] for r in waited["records"]].count("countdown.ticked") == 10


def test_dg_rnd_1_scene_open_round_sets_an_exploration_round_of_8_hours(
    db: str, scene: Tk, tk: Tk
) -> None:
    """DG-RND-1 through the verb: `scene open exploration --round 8h` plays a round of the
    text's longest exploration round, 8 hours on the campaign clock; `--round 9h` and a
    combat scene's `--round` are refused, one line each, and change nothing."""
    version = tk(db, "status")["version"]
    for args, says in (
        (["exploration", "--round", "9h"], "an exploration round lasts 2m to 8h (DG-RND-1)"),
        (["combat", "--round", "1m"], "a combat round is 6s (DG-RND-1)"),
    ):
        result = runner.invoke(app, ["scene", "open", *args, "--players", "freya", "--db", db])
        assert isinstance(result.exception, IllegalCommandError), args
        assert says in str(result.exception)
    assert tk(db, "status")["version"] == version
    opened = scene(db, "open", "exploration", "--players", "freya", "--round", "8h")
    assert opened["records"][0]["data"]["round_seconds"] == 8 * 3600
    assert opened["state"]["scene"]["round_seconds"] == 8 * 3600
    scene(db, "spotlight", "--vote", "freya=freya")
    scene(db, "act", "freya", "searches the barrow")
    gm = scene(db, "gm", "the barrow is silent")
    ended = next(r for r in gm["records"] if r["kind"] == "scene.round_ended")
    assert ended["data"] == {
        "round": 1,
        "frame": "exploration_round",
        "seconds": 8 * 3600,
    }
    assert gm["date"] == "1-01-01 16:00"
