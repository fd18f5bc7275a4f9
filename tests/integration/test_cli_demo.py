"""The quick start's first command: a seeded expedition on the embedded store."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.integration.conftest import Tk


def test_demo_plays_a_seeded_expedition_and_leaves_a_campaign_to_go_on_with(tk: Tk, tmp_path):
    db = str(tmp_path / "demo.db")
    first = tk(db, "demo")
    kinds = [record["kind"] for record in first["records"]]
    # a second torch when the first gutters, the lamp when the second is spent
    assert kinds.count("light.lit") == 3
    assert first["status"]["light"]["source"] == "lamp"  # the party never runs in the dark
    # the default seed meets marsh goblins on the way; the scripted party slips past them
    assert "dungeon.encounter_ended" in kinds and first["status"]["site"]["encounter"] is None
    assert first["status"]["site"]["site"]["site"]["name"] == "The Sunken Abbey"
    assert first["status"]["supplies"]["counted"]["torches"] == 4  # 6 carried, 2 lit
    # The same seed replays the same expedition; the earlier demo is replaced, not doubled.
    again = tk(db, "demo")
    assert [r["data"] for r in again["records"]] == [r["data"] for r in first["records"]]
    assert tk(db, "campaigns")["campaigns"] == ["demo"]
    # The demo is the current campaign, so play goes on from it.
    status = tk(db, "status")
    assert status["name"] == "demo" and status["version"] == first["status"]["version"]


def test_status_says_where_the_party_is(tk: Tk, tmp_path):
    db = str(tmp_path / "demo.db")
    tk(db, "demo")
    text = tk(db, "status", as_json=False)
    assert "The Sunken Abbey, level 1" in text
    assert "turn 8" in text  # 6 turns taken and 2 turns of rest passed in the site


def test_every_seed_plays_the_whole_expedition(tk: Tk, tmp_path) -> None:
    """An encounter on the way is slipped past, so no seed stops the demo halfway; one still
    pending at the end is named, with what to do about it."""
    db = str(tmp_path / "demo.db")
    for seed in range(1, 21):
        played = tk(db, "demo", "--seed", str(seed))
        assert played["status"]["site"]["turns"] == 8, seed
    pending = tk(db, "demo", "--seed", "7", as_json=False)
    assert "Meet what came with `turnkeeper combat start`" in pending


def test_the_demo_names_each_roll_of_an_encounter_and_says_how_it_ends(tk: Tk, tmp_path):
    """Issue 25: the encounter's line was a string of unnamed dice, then "the encounter is
    over". Each roll is named, in the order of the dice shown after the line, with what it
    gave; the surprise contest's two rolls say whose they are; the end says no fight."""
    db = str(tmp_path / "demo.db")
    met = tk(db, "demo")
    (line,) = [r["text"] for r in met["records"] if r["kind"] == "dungeon.encounter"]
    assert line.endswith(
        "; rolled: table 4 (marsh goblins), number 3, distance 50 ft, reaction 4 (unfriendly)"
    )
    ended = [r["text"] for r in met["records"] if r["kind"] == "dungeon.encounter_ended"]
    assert ended == ["the encounter ends without a fight: the party goes on exploring"]
    swift = tk(db, "demo", "--seed", "7")
    (line,) = [r["text"] for r in swift["records"] if r["kind"] == "dungeon.encounter"]
    assert "the foes' Stealth 6, the party's Scout 12, reaction 11 (indifferent)" in line
    (rolls,) = [r["rolls"] for r in swift["records"] if r["kind"] == "dungeon.encounter"]
    assert [roll["total"] for roll in rolls] == [3, 1, 60, 6, 12, 11]
    text = tk(db, "demo", as_json=False)
    assert "it slips past what it meets on the way" in " ".join(text.split())


def test_the_demo_says_what_to_type_next_as_it_was_run(tmp_path) -> None:
    """Issue 25: after the quick start (`.venv/bin/turnkeeper demo`) `turnkeeper` is not on
    PATH, so the demo's next commands are given by the script's path as it was typed; with
    turnkeeper on PATH, by its name."""
    script = Path(sys.executable).parent / "turnkeeper"
    env = {**os.environ, "TURNKEEPER_DB": str(tmp_path / "demo.db"), "COLUMNS": "300"}
    bare = {**env, "PATH": "/usr/bin:/bin"}
    said = subprocess.run(
        [str(script), "demo"], env=bare, capture_output=True, text=True, check=True
    ).stdout
    assert f"Go on with `{script} turn`, `{script} status`" in said
    on_path = {**env, "PATH": f"{script.parent}{os.pathsep}/usr/bin:/bin"}
    said = subprocess.run(
        [str(script), "demo"], env=on_path, capture_output=True, text=True, check=True
    ).stdout
    assert "Go on with `turnkeeper turn`, `turnkeeper status`" in said
