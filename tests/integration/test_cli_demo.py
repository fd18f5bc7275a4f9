"""The quick start's first command: a seeded expedition on the embedded store."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.integration.conftest import Tk


def test_demo_plays_a_seeded_expedition_and_leaves_a_campaign_to_go_on_with(tk: Tk, tmp_path):
    db = str(tmp_path / "demo.db")
    first = tk(db, "demo")
    kinds = [record["kind"] for record in first["records"]]
    assert kinds.count("light.lit") == 2  # a second torch when the first gutters
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
