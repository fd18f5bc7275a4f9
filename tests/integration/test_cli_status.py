"""``status`` prints the glance the service kept after the last command, or folds the journal
when there is none to read: both ways give the same document."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from turnkeeper.cli.status import folded_glance
from turnkeeper.store.glance import read_glance

from .conftest import Tk


def _store(tmp_path: Path) -> str:
    return str(tmp_path / "keep.db")


def test_the_kept_glance_is_the_folded_one_after_every_command(tk: Tk, tmp_path: Path) -> None:
    db = _store(tmp_path)
    tk(db, "demo")
    url = f"sqlite:///{db}"
    for args in (("wait", "1h"), ("light", "torch"), ("undo",), ("rest",)):
        tk(db, *args)
        assert read_glance(url, None) == folded_glance(db, None)
        assert read_glance(url, "demo") == folded_glance(db, "demo")
    assert tk(db, "status") == folded_glance(db, None)["referee"]


def test_a_stale_or_foreign_glance_is_never_read(tk: Tk, tmp_path: Path) -> None:
    db = _store(tmp_path)
    tk(db, "demo")
    url = f"sqlite:///{db}"
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE glances SET version = version - 1")
    assert read_glance(url, None) is None
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE glances SET version = version + 1, format = 'older'")
    assert read_glance(url, None) is None
    # status folds the journal instead, and says the same
    assert tk(db, "status")["version"] == folded_glance(db, None)["referee"]["version"]
    assert read_glance(url, "nobody") is None
    assert read_glance("postgresql+psycopg://postgres@127.0.0.1/none", None) is None
    assert read_glance(f"sqlite:///{tmp_path / 'none.db'}", None) is None


def test_status_draws_the_glance_as_the_referee_s_panel(tk: Tk, tmp_path: Path) -> None:
    db = _store(tmp_path)
    tk(db, "demo")
    tk(db, "new", "[/oops]", "--ruleset", "ex", "--solo")
    shown = tk(db, "status", as_json=False)
    assert "[/oops] · ex · version" in shown and "date" in shown
    assert "The Sunken Abbey" in tk(db, "status", "--campaign", "demo", as_json=False)
