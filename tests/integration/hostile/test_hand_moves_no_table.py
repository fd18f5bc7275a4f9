"""A player's hand never moves the referee's table (issue 38): with Oracle Ride in a fight and
the referee running marches, Aldo's own link posts his declaration; it runs as Oracle Ride for
that one command, and the party run stays marches: the table's players' link shows marches,
and the referee's next command lands on marches.

In the attacker's run the party run became Oracle Ride. ``--as`` running one command only
(the time record turned to the party and back) fixed it before this test was written; the
test keeps it fixed, over HTTP as the players' phones send it.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    # Starlette 1.x would rather have httpx2; httpx 0.28 is what the project pins
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from turnkeeper.campaign import parse_party
from turnkeeper.procedures.parties import SplitParty, SwitchParty
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens

PAGE = "/campaigns/marches"
FORM = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TestClient, Campaigns, dict[str, str]]]:
    campaigns = Campaigns(open_store(str(tmp_path / "m.db")))
    party = parse_party(
        '[[characters]]\nname = "Aldo"\nhp = 30\nac = 14\n[[characters]]\nname = "Bea"\n'
        'hp = 6\n[[characters]]\nname = "Hugo"\nhp = 4\n[supplies]\nrations = 20'
    )
    campaigns.new("marches", preset("ex"), party, seed=3)
    campaigns.execute("marches", SplitParty("Oracle Ride", ("Aldo", "Hugo"), {"rations": 5}))
    tokens = issue_tokens(campaigns.store, "marches")
    links = {"referee": tokens[Role.REFEREE], "table": tokens[Role.PLAYER]}
    with TestClient(create_app(campaigns)) as client:

        def referee(form: str) -> None:
            sent = client.post(f"{PAGE}/commands?token={links['referee']}", content=form,
                               headers=FORM)  # fmt: skip
            assert sent.status_code == 200 and "Done, version" in sent.text, sent.text

        # the ride meets goblins; the referee turns back to marches, the fight left waiting
        campaigns.execute("marches", SwitchParty("Oracle Ride"))
        referee("verb=combat_start&foes=Goblin:hd=1,hp=40,ac=12,count=2&surprise=none")
        referee("verb=combat_round")
        campaigns.execute("marches", SwitchParty("marches"))
        made = client.post(f"{PAGE}/hand-link?token={links['referee']}",
                           content="character=Aldo", headers=FORM)  # fmt: skip
        found = re.search(r'value="[^"]*\?token=([^"]+)"', made.text)
        assert found is not None, made.text
        links["Aldo"] = found[1]
        yield client, campaigns, links


def test_a_players_declaration_leaves_the_party_run_as_it_was(
    table: tuple[TestClient, Campaigns, dict[str, str]],
) -> None:
    client, campaigns, links = table
    before = campaigns.state("marches")
    assert before.company == "marches" and not before.fight_running

    declared = client.post(
        f"{PAGE}/hand?token={links['Aldo']}",
        content="verb=combat_declare&actor=Aldo&action=attack&target=Goblin 1",
        headers=FORM,
    )
    # the phone is answered with what its command did (the display comes by the live stream)
    assert declared.status_code == 200 and "Aldo declares" in declared.text, declared.text

    after = campaigns.state("marches")
    assert after.version > before.version
    assert after.company == "marches"  # the party run stays marches
    ride = after.as_party("Oracle Ride")
    assert ride.combat is not None
    assert [d.actor for d in ride.combat.declarations] == ["Aldo"]  # it ran as the ride

    # the table's players' link shows marches, not the ride's fight
    seen = client.get(f"/api/campaigns/marches/state?token={links['table']}").json()
    assert seen["party_name"] == "marches"
    assert sorted(c["name"] for c in seen["party"]) == ["Bea"]
    assert "Goblin" not in client.get(f"{PAGE}/display?token={links['table']}").text

    # and the referee's next command lands on marches
    sent = client.post(f"{PAGE}/commands?token={links['referee']}",
                       content="verb=wait&duration=1h", headers=FORM)  # fmt: skip
    assert sent.status_code == 200, sent.text
    last = campaigns.state("marches")
    assert last.company == "marches" and last.now == after.now + 3600
    assert last.as_party("Oracle Ride").now == ride.now  # the ride's time did not pass
