"""The ``scene`` verbs end to end (DG-LOOP-1, DG-SPOT-1, DG-SPOT-2, DG-MOM-1, DG-DREAD-1)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers every verb group)
from turnkeeper.cli import scene
from turnkeeper.cli.app import app
from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.scenes import SceneTable, dungeoneers_rules

runner = CliRunner()


@pytest.fixture(autouse=True)
def fresh_table() -> Iterator[None]:
    scene.reset_table(SceneTable(dungeoneers_rules(), TypedDice([11, 20])))
    yield
    scene.reset_table()


def run_json(*args: str) -> Any:
    result = runner.invoke(app, ["scene", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def kinds(data: Any) -> list[str]:
    return [event["kind"] for event in data["events"]]


def test_cli_scene_a_round_with_a_compromise_and_dread() -> None:
    """DG-LOOP-1 to DG-DREAD-1 through the verbs: d20 shows 11 against 12, a compromise."""
    opened = run_json("open", "combat", "--players", "freya,ulfarmi", "--creatures", "ogre")
    assert opened["state"]["seats"] == [
        {"name": "freya", "tokens": 3},
        {"name": "ulfarmi", "tokens": 3},
    ]
    taken = run_json("spotlight", "--vote", "freya=ulfarmi", "--vote", "ulfarmi=ulfarmi")
    assert taken["state"]["seats"][1]["tokens"] == 2
    run_json("free", "freya", "draws her bow")
    acted = run_json("act", "ulfarmi", "leap the chasm", "--roll", "d20", "--target", "12")
    assert acted["events"][0]["data"]["outcome"] == "partial"
    assert acted["events"][0]["rolls"][0]["total"] == 11
    comp = run_json("compromise", "ulfarmi")
    assert kinds(comp) == ["scene.compromise_taken", "scene.dread_gained"]
    assert comp["state"]["dread"] == 1
    gm = run_json("gm", "the ogre roars", "--creature", "ogre", "--creature-free", "ogre=stomps")
    assert gm["events"][-1]["data"] == {"round": 1, "frame": "combat_round", "seconds": 6}
    spent = run_json("dread", "spend", "1", "the ogre strikes twice", "--creature", "ogre")
    assert spent["state"]["dread"] == 0
    assert spent["state"]["bought"][0]["what"] == "the ogre strikes twice"
    status = run_json("status")
    assert status["scene"]["round"] == 2 and status["ruleset"] == "dg"
    closed = run_json("close")
    assert closed["state"]["scene"] is None


def test_cli_scene_momentum_keeps_the_spotlight() -> None:
    run_json("open", "combat", "--players", "freya,ulfarmi")
    run_json("spotlight", "--vote", "freya=freya", "--vote", "ulfarmi=freya")
    data = run_json("act", "freya", "strike", "--tag", "momentum", "--outcome", "success")
    assert kinds(data)[-1] == "scene.momentum_kept"
    people = runner.invoke(app, ["scene", "status"])
    assert people.exit_code == 0 and "spotlight with the players" in people.stdout


def test_cli_scene_give_tokens_and_people_output() -> None:
    run_json("open", "social", "--players", "freya,ulfarmi")
    given = runner.invoke(app, ["scene", "give", "freya", "ulfarmi", "2"])
    assert given.exit_code == 0
    assert "freya gives 2 spotlight tokens to ulfarmi" in given.stdout
    rolled = runner.invoke(app, ["scene", "spotlight", "--vote", "freya=ulfarmi"])
    assert rolled.exit_code == 0 and "ulfarmi takes the spotlight" in rolled.stdout


def test_cli_scene_refusals_change_nothing() -> None:
    run_json("open", "combat", "--players", "freya,ulfarmi")
    before = run_json("status")
    for args in (
        ["spotlight", "--vote", "freya=freya", "--vote", "ulfarmi=ulfarmi"],
        ["act", "freya", "strike"],
        ["free", "mallory", "waves"],
        ["dread", "spend", "1", "more ogre"],
        ["act", "freya", "x", "--outcome", "great"],
        ["spotlight", "--vote", "freya"],
    ):
        result = runner.invoke(app, ["scene", *args])
        assert isinstance(result.exception, IllegalCommandError), args
    assert run_json("status") == before


def test_cli_scene_user_mistake_exits_2_with_one_line() -> None:
    code = (
        "import sys; sys.argv = ['turnkeeper', 'scene', 'close']\n"
        "from turnkeeper.cli import main; main()"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: no scene is open: the GM sets one first (scene open KIND)"
    ]
