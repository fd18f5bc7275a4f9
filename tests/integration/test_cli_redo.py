"""CLI: ``redo`` takes back the latest undo, recorded, its dice not rolled again (issue 25)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from turnkeeper.kernel.state import CampaignState
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store

from .conftest import texts

if TYPE_CHECKING:
    from tests.integration.conftest import Shell, Tk

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _state(db: str, name: str = "Keep") -> CampaignState:
    """The campaign's whole state, but for its version (an undo and a redo are records)."""
    store = open_store(db)
    try:
        state = Campaigns(store).state(name)
    finally:
        store.close()
    return state.model_copy(update={"version": 0})


def _keep(tmp_path: Path, tk: Tk) -> str:
    db = str(tmp_path / "keep.db")
    party = str(EXAMPLES / "fighters.toml")
    tk(db, "new", "Keep", "--ruleset", "ex", "--party", party, "--seed", "3")
    return db


def test_undo_then_redo_then_log(tmp_path: Path, tk: Tk) -> None:
    db = _keep(tmp_path, tk)
    waited = tk(db, "wait", "30m")
    before = _state(db)
    tk(db, "undo")
    assert tk(db, "status")["now"] == 0
    redone = tk(db, "redo")
    seq = waited["records"][0]["seq"]
    assert texts(redone) == [f"redid command {seq}: 30m pass"]  # what it brought back
    assert redone["records"][0]["visibility"] == "referee"
    assert _state(db) == before

    log = tk(db, "log")
    assert [r["kind"] for r in log[-2:]] == ["command.undone", "command.redone"]
    assert not any(r["undone"] for r in log)  # the wait is live again
    players = tk(db, "log", "--player")
    assert "30m pass" in [r["text"] for r in players]
    assert not {"command.undone", "command.redone"} & {r["kind"] for r in players}
    referee = tk(db, "export", "--format", "markdown")["text"]
    assert "~~" not in referee and "- 08:30 30m pass\n" in referee
    assert f"redid command {seq}: 30m pass" in referee
    text = tk(db, "log", as_json=False)
    assert "30m pass" in text and "undone" not in text.replace("command.undone", "")


def test_a_fight_and_turns_come_back_as_rolled(tmp_path: Path, tk: Tk) -> None:
    """Two dungeon turns (a wandering check rolled), a fight, a round and an attack: undone
    and redone, the state is the one before the undos, from the same records (no die rolled
    again), and an export imported again folds to it."""
    db = _keep(tmp_path, tk)
    tk(db, "site", "enter", str(EXAMPLES / "site.toml"))
    tk(db, "turn")
    tk(db, "turn")
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10", "--surprise", "none")
    tk(db, "combat", "round", "--dice", "6,1")
    tk(db, "combat", "attack", "Ann", "Orc")
    before, rolls = _state(db), [r["rolls"] for r in tk(db, "log")]
    for _ in range(5):
        tk(db, "undo")
    assert tk(db, "status")["now"] == 0
    for _ in range(5):
        tk(db, "redo")
    assert _state(db) == before
    log = tk(db, "log")
    assert [r["rolls"] for r in log][: len(rolls)] == rolls
    assert all(not r["rolls"] for r in log[len(rolls) :]) and not any(r["undone"] for r in log)

    out = tmp_path / "keep.jsonl"
    tk(db, "export", "--format", "jsonl", "--out", str(out))
    tk(db, "import", str(out), "--name", "Copy")
    assert _state(db, "Copy") == before.model_copy(update={"name": "Copy"})
    copied = tk(db, "log", "--campaign", "Copy")
    assert [(r["text"], r["rolls"], r["undone"]) for r in copied][1:] == [
        (r["text"], r["rolls"], r["undone"]) for r in log
    ][1:]


def test_redo_after_another_command_is_refused_and_changes_nothing(
    tmp_path: Path, tk: Tk, shell: Shell
) -> None:
    db = _keep(tmp_path, tk)
    tk(db, "wait", "30m")
    tk(db, "undo")
    tk(db, "wait", "10m")
    kept = shell.store(db)
    refused = shell("redo", "--db", db)
    assert refused.code != 0 and refused.err.strip().count("\n") == 0
    assert "nothing to redo: the last command was not an undo" in refused.err
    assert shell.store(db) == kept


def test_export_import_round_trip_with_a_redo(tmp_path: Path, tk: Tk) -> None:
    db = _keep(tmp_path, tk)
    tk(db, "note", "the door was barred")
    tk(db, "wait", "1h")
    tk(db, "undo")
    tk(db, "undo")
    tk(db, "redo")  # the note again; the hour stays undone
    out = tmp_path / "keep.jsonl"
    tk(db, "export", "--format", "jsonl", "--out", str(out))
    tk(db, "import", str(out), "--name", "Copy")
    assert _state(db, "Copy") == _state(db).model_copy(update={"name": "Copy"})
    copy, keep = tk(db, "status", "--campaign", "Copy"), tk(db, "status", "--campaign", "Keep")
    assert copy.pop("name") == "Copy" and keep.pop("name") == "Keep" and copy == keep
    assert keep["now"] == 0
    players = [r["text"] for r in tk(db, "log", "--player", "--campaign", "Copy")]
    assert "the door was barred" in players and "1h pass" not in players
    tk(db, "redo", "--campaign", "Copy")  # the imported journal redoes the hour as well
    assert tk(db, "status", "--campaign", "Copy")["now"] == 3600
