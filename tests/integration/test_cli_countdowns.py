"""Dungeoneers' countdowns at the table: a suffocating character's countdown that wounds and
actions tick (DG-CD-4), and a subtask's outcomes on a countdown and its failure countdown
(DG-FCD-1), played through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from turnkeeper.errors import TurnkeeperError

from .conftest import Tk

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def db(tk: Tk, tmp_path: Path) -> str:
    path = str(tmp_path / "deep.db")
    tk(path, "new", "Deep", "--ruleset", "dg", "--party", str(EXAMPLES / "party.toml"))
    return path


def _left(tk: Tk, db: str) -> dict[str, int]:
    return {c["name"]: c["left"] for c in tk(db, "countdown", "list")}


def test_dg_cd_4_suffocating_is_ticked_by_wounds_and_actions_then_wounds(db: str, tk: Tk) -> None:
    listening = ("--subject", "Aldo", "--listens", "wound", "--listens", "action")
    tk(db, "countdown", "add", "Aldo suffocates", "--type", "rapid", "--length", "2",
       *listening, "--after-end", "wound")  # fmt: skip
    tk(db, "countdown", "trigger", "wound", "--subject", "Aldo")  # taking a wound ticks it
    assert _left(tk, db) == {"Aldo suffocates": 1}
    tk(db, "countdown", "trigger", "action", "--subject", "Aldo")  # so does taking an action
    assert _left(tk, db) == {"Aldo suffocates": 0}
    # once it has ended, each time it would tick the creature takes 1 precision wound
    wounded = tk(db, "countdown", "trigger", "wound", "--subject", "Aldo")
    assert [r["kind"] for r in wounded["records"]] == ["countdown.precision_wound"]
    assert "Aldo takes 1 precision wound" in wounded["records"][0]["text"]


def test_dg_cd_4_a_trigger_nobody_listens_for_is_one_clear_error(db: str, tk: Tk) -> None:
    tk(db, "countdown", "add", "Aldo suffocates", "--type", "rapid", "--length", "2",
       "--subject", "Aldo", "--listens", "wound")  # fmt: skip
    with pytest.raises(TurnkeeperError, match="no running countdown listens for 'wound' of Bea"):
        tk(db, "countdown", "trigger", "wound", "--subject", "Bea")
    with pytest.raises(TurnkeeperError, match="--after-end 'later': say end or wound"):
        tk(db, "countdown", "add", "x", "--type", "rapid", "--length", "2", "--after-end", "later")


def test_dg_fcd_1_outcomes_tick_the_countdown_and_its_failure_countdown(db: str, tk: Tk) -> None:
    tk(db, "countdown", "add", "pick the lock", "--type", "generic", "--length", "4",
       "--failure", "3")  # fmt: skip
    failure = "pick the lock (failure)"
    tk(db, "countdown", "outcome", "pick the lock", "partial")  # partial success: both tick once
    assert _left(tk, db) == {"pick the lock": 3, failure: 2}
    tk(db, "countdown", "outcome", "pick the lock", "success")  # success: the countdown ticks
    assert _left(tk, db) == {"pick the lock": 2, failure: 2}


def test_dg_cd_2_countdown_tick_of_a_day_countdown_ends_the_shorter_ones(db: str, tk: Tk) -> None:
    """DG-CD-2, "When a longer-lasting countdown ticks, all shorter-lasting countdowns end":
    `countdown tick` of DC(3) by hand, no day having ended, ends RC(5) and SC(4)."""
    tk(db, "countdown", "add", "poison", "--type", "RC", "--length", "5")
    tk(db, "countdown", "add", "patrol", "--type", "SC", "--length", "4")
    tk(db, "countdown", "add", "curse", "--type", "DC", "--length", "3")
    ticked = tk(db, "countdown", "tick", "curse")
    assert [r["kind"] for r in ticked["records"]] == [
        "countdown.ticked",
        "countdown.ended",
        "countdown.ended",
    ]
    assert (
        ticked["records"][1]["text"] == "countdown poison ends (a longer countdown, curse, ticked)"
    )
    assert _left(tk, db) == {"curse": 2}


def test_dg_cd_4_a_scene_creature_or_a_fights_monster_is_a_subject(db: str, tk: Tk) -> None:
    """DG-CD-4, "A creature who is suffocating": `countdown add ... --subject ogre` for the
    scene's ogre, whose GM action ticks it, and for the fight's Orc, whose wound ticks it."""
    tk(db, "scene", "open", "combat", "--players", "Aldo", "--creatures", "ogre", "--gm-first")
    tk(db, "countdown", "add", "ogre suffocates", "--type", "rapid", "--length", "4",
       "--subject", "ogre", "--listens", "action", "--after-end", "wound")  # fmt: skip
    tk(db, "scene", "gm", "the ogre heaves at the door", "--creature", "ogre")
    assert _left(tk, db) == {"ogre suffocates": 3}
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=9,ac=10", "--surprise", "none")
    tk(db, "countdown", "add", "orc suffocates", "--type", "rapid", "--length", "4",
       "--subject", "orc", "--listens", "wound")  # fmt: skip
    tk(db, "damage", "Orc", "1")
    assert _left(tk, db)["orc suffocates"] == 3
    with pytest.raises(TurnkeeperError, match="no creature called 'troll'"):
        tk(db, "countdown", "add", "x", "--type", "rapid", "--length", "2", "--subject", "troll")
