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


def test_a_party_is_told_what_it_does_and_where_it_is_bound(shell: Shell, marches: str) -> None:
    """Whereabouts (issue 37): the referee says what a party is doing and where it is bound;
    the timeline tells it, and a party that walked out of a barrow is by the barrow, not in
    town."""
    assert shell("site", "leave", "--as", "Newcomers", "--db", marches).code == 0
    said = shell(
        "party", "doing", "riding to the oracle", "--to", "the oracle", "--as", "marches",
        "--db", marches,
    )  # fmt: skip
    assert said.code == 0, said.err
    told = json.loads(shell("party", "timeline", "--json", "--db", marches).out)
    seen = {p["name"]: (p["where"], p["doing"]) for p in told["parties"]}
    assert seen == {
        "marches": ("on the way to the oracle", "riding to the oracle"),
        "Newcomers": ("by The Sunken Abbey", "in downtime"),
    }
    before = shell.store(marches)
    refused = shell("party", "doing", "riding to the oracle", "--to", "the oracle",
                    "--db", marches)  # fmt: skip
    assert refused.code == 2 and "already riding to the oracle" in refused.err
    assert shell.store(marches) == before


def test_a_characters_record_reads_as_whereabouts(shell: Shell, marches: str) -> None:
    """`party record` gives a stretch for each span in one place, doing one thing, with one
    company: from, to, where, doing what, with whom, the events of note under it; `--lines`
    gives every raw line."""
    assert shell("site", "leave", "--as", "Newcomers", "--db", marches).code == 0
    assert shell("wait", "3d", "--as", "Newcomers", "--db", marches).code == 0
    said = json.loads(shell("party", "record", "Eve", "--json", "--db", marches).out)
    stretches = [
        (s["party"], s["from"], s["to"], s["where"], s["with"]) for s in said["whereabouts"]
    ]
    assert stretches == [  # they arrive at the abbey's door: the instant is the delve's
        ("Newcomers", "1-02-20 08:00", "1-02-20 08:10", "in The Sunken Abbey", ["Finn"]),
        ("Newcomers", "1-02-20 08:10", "1-02-23 08:10", "by The Sunken Abbey", ["Finn"]),
    ]
    notes = [n["line"] for n in said["whereabouts"][0]["notes"]]
    assert "area 1 of The Sunken Abbey (level 1): drove the ghouls from" in notes
    assert not any("pass" in line for line in notes)  # the clock is no event of note
    raw = json.loads(shell("party", "record", "Eve", "--lines", "--json", "--db", marches).out)
    assert len(raw["record"]) == sum(s["lines"] for s in said["whereabouts"])


def test_every_party_behind_comes_forward_in_one_command(shell: Shell, marches: str) -> None:
    assert shell("wait", "5d", "--as", "marches", "--db", marches).code == 0
    before = shell.store(marches)
    inside = shell("party", "forward", "--all", "--db", marches)  # the newcomers delve still
    assert inside.code == 2 and "Newcomers is in The Sunken Abbey" in inside.err
    assert shell.store(marches) == before
    assert shell("site", "leave", "--as", "Newcomers", "--db", marches).code == 0
    assert shell("party", "forward", "--all", "--db", marches).code == 0
    told = json.loads(shell("party", "timeline", "--json", "--db", marches).out)
    assert {p["name"]: p["behind_days"] for p in told["parties"]} == {
        "marches": 0,
        "Newcomers": 0,
    }
    assert told["parties"][0]["running"] and told["parties"][0]["name"] == "marches"
    said = shell("party", "forward", "--all", "--db", marches)
    assert said.code == 2 and "every party is at the world's present already" in said.err
