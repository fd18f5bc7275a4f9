"""Two groups of one world play at once on two servers sharing one store (issue 28): each
server's commands run as its own party (``--as``), every command of both lands in the one time
record, in the order the store took them, and each server reads the other's at once. On
SQLite, and on PostgreSQL with TURNKEEPER_TEST_PG (the ``backend`` fixture)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from turnkeeper.campaign import AsParty, Note, Wait, parse_party
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.parties import BringForward, JoinParty, SplitParty
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore

if TYPE_CHECKING:
    from tests.conftest import Backend

PARTY = parse_party(
    '[[characters]]\nname = "Aldo"\nhp = 7\n[[characters]]\nname = "Bea"\nhp = 5\n'
    "[supplies]\nrations = 20\nwater = 20"
)
HOUR = 3600


@pytest.fixture
def servers(backend: Backend) -> Iterator[tuple[Campaigns, Campaigns]]:
    first = SqlStore(backend.url, schema=backend.schema)
    second = SqlStore(backend.url, schema=backend.schema)
    yield Campaigns(first), Campaigns(second)
    first.close()
    second.close()


def test_two_servers_run_two_parties_of_one_world(servers: tuple[Campaigns, Campaigns]) -> None:
    red, grey = servers
    red.new("World", preset("ex"), PARTY, seed=4)
    red.execute("World", SplitParty("Grey Band", ("Bea",), {"rations": 5}))
    for hour in range(3):  # the two tables take turns at the store, each as its own party
        red.execute("World", AsParty("World", Wait(HOUR)))
        grey.execute("World", AsParty("Grey Band", Note(f"Bea's hour {hour}")))
        grey.execute("World", AsParty("Grey Band", Wait(2 * HOUR)))
    seen_by_red, seen_by_grey = red.state("World"), grey.state("World")
    assert seen_by_red == seen_by_grey  # one world, one state, whichever server folds it
    assert seen_by_red.as_party("World").now == 3 * HOUR
    assert seen_by_red.as_party("Grey Band").now == 6 * HOUR
    notes = [r for r in red.log("World") if r.event.kind == "note.made"]
    assert [r.event.describe() for r in notes] == [f"Bea's hour {n}" for n in range(3)]

    # the red table may not join the grey band before it has caught up
    with pytest.raises(IllegalCommandError, match="World is 3h behind Grey Band"):
        red.execute("World", AsParty("World", JoinParty("Grey Band")))
    red.execute("World", AsParty("World", BringForward()))
    red.execute("World", JoinParty("Grey Band"))
    assert [c.name for c in grey.state("World").party.characters] == ["Aldo", "Bea"]
