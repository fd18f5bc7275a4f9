"""One world you can trust (issue 37): each party's players see their own party, and `--as`
runs one command as a party, leaving the party the referee runs as it was.

Played as a referee running two groups through the CLI and the players' link: the main
party stays in town all along while the newcomers delve the Sunken Abbey, each newcomer
command sent `--as Newcomers`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from fastapi.testclient import TestClient

from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens

if TYPE_CHECKING:
    from tests.integration.conftest import Shell

#: What the newcomers' delve writes into the players' journal of the newcomers alone.
DELVE = ("The party enters The Sunken Abbey", "drove the ghouls from")


@pytest.fixture
def marches(shell: Shell, tmp_path: Path) -> str:
    """The README's world: Aldo and Bea to day 50, the newcomers delving `--as` their party."""
    db = str(tmp_path / "w.db")
    for line in (
        ("new", "marches", "--ruleset", "ex", "--party", "examples/party.toml", "--seed", "8"),
        ("wait", "49d"),
        ("party", "new", "Newcomers", "examples/newcomers.toml"),
        ("site", "enter", "examples/site.toml", "--as", "Newcomers"),
        ("turn", "--area", "1", "--as", "Newcomers"),
        ("site", "clear", "1", "--what", "drove the ghouls from", "--as", "Newcomers"),
        ("note", "ZQMARCHES", "--as", "marches"),
    ):
        said = shell(*line, "--db", db)
        assert said.code == 0, (line, said.err)
    return db


def test_as_runs_one_command_and_leaves_the_party_run_as_it_was(shell: Shell, marches: str) -> None:
    said = shell("turn", "--area", "1", "--as", "Newcomers", "--db", marches)
    assert said.code == 0, said.err
    assert "marches · Newcomers · " in said.out  # the footer names the party it ran as
    status = json.loads(shell("status", "--json", "--db", marches).out)
    assert status["party_name"] == "marches"  # still the party run
    # a bare command is the party run's, not the last --as party's
    waited = json.loads(shell("wait", "1h", "--json", "--db", marches).out)
    assert waited["party"] == "marches" and waited["date"] == "1-02-20 09:00"


def test_party_switch_is_the_one_way_to_change_the_party_run(shell: Shell, marches: str) -> None:
    before = shell.store(marches)
    said = shell("party", "switch", "Newcomers", "--as", "marches", "--db", marches)
    assert said.code == 2
    assert "takes no --as" in said.err
    assert shell.store(marches) == before


def test_the_players_of_the_party_run_never_read_another_partys_delve(
    shell: Shell, marches: str
) -> None:
    said = shell("log", "--player", "--db", marches)
    assert said.code == 0, said.err
    assert "ZQMARCHES" in said.out
    for line in DELVE:
        assert line not in said.out
    copy = shell("export", "--format", "markdown", "--player", "--db", marches).out
    assert "ZQMARCHES" in copy and not any(line in copy for line in DELVE)
    # the newcomers' own players read their delve, and nothing of the main party's
    shell("party", "switch", "Newcomers", "--db", marches)
    theirs = shell("log", "--player", "--db", marches).out
    assert all(line in theirs for line in DELVE) and "ZQMARCHES" not in theirs


def test_the_tables_link_reads_the_party_run_alone(marches: str) -> None:
    campaigns = Campaigns(open_store(marches))
    table = issue_tokens(campaigns.store, "marches")[Role.PLAYER]
    with TestClient(create_app(campaigns)) as client:
        log = client.get(f"/api/campaigns/marches/log?token={table}&limit=500").json()
        page = client.get(f"/campaigns/marches?token={table}").text
    lines = " ".join(record["text"] for record in log["records"])
    assert "ZQMARCHES" in lines and "ZQMARCHES" in page
    for line in DELVE:
        assert line not in lines and line not in page


def test_a_tables_redo_never_brings_back_another_tables_command(shell: Shell, marches: str) -> None:
    assert shell("wait", "1h", "--as", "Newcomers", "--db", marches).code == 0
    assert shell("undo", "--as", "Newcomers", "--db", marches).code == 0
    before = shell.store(marches)
    said = shell("redo", "--as", "marches", "--db", marches)
    assert said.code == 2
    assert "the latest undo was Newcomers's, not marches's" in said.err
    assert shell.store(marches) == before
    assert shell("redo", "--as", "Newcomers", "--db", marches).code == 0
