"""serve on a store of several campaigns makes every campaign's tokens (issue 25): the loop
over roles in cli.serve._links once overwrote the role asked for, so only the first campaign
got a referee token."""

from __future__ import annotations

from pathlib import Path

from tests.integration.hostile.refusals import PARTY

from turnkeeper.cli.serve import _links
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store


def test_every_campaign_gets_a_referee_and_a_player_link(tmp_path: Path, shell) -> None:
    db = str(tmp_path / "tk.db")
    for name in ("alpha", "beta", "gamma"):
        said = shell("new", name, "-r", "ex", "--party", PARTY, "--seed", "1", "--db", db)
        assert said.code == 0, said.err
    store = open_store(db)
    try:
        campaigns = Campaigns(store)
        links = _links("http://localhost:8765", campaigns, campaigns.names(), rotate=False)
    finally:
        store.close()
    assert [entry["campaign"] for entry in links] == ["alpha", "beta", "gamma"]
    for entry in links:
        assert entry["referee"] and "token=" in entry["referee"], entry
        assert entry["player"] and "token=" in entry["player"], entry
