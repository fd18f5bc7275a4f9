"""The calendar over HTTP (issue 43, item 6): the referee's page and JSON show every party's
days; the players' (the table's link, a character's own link) their party's alone and what it
heard; a month that is not one is one refusal."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from turnkeeper.campaign import Wait, parse_party
from turnkeeper.procedures.parties import SplitParty, SwitchParty
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens

PAGE = "/campaigns/Keep"
FORM = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
DAY = 24 * 3600


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """Keep and the Oracle Ride, split on day 1; the Ride rides 40 days into month 2, the
    Keep waits 3 days."""
    campaigns = Campaigns(open_store(str(tmp_path / "w.db")))
    party = parse_party(
        '[[characters]]\nname = "Aldo"\nhp = 8\n[[characters]]\nname = "Bea"\nhp = 6\n'
        "[supplies]\nrations = 200\nwater = 200"
    )
    campaigns.new("Keep", preset("ex"), party, seed=3)
    campaigns.execute("Keep", SplitParty("Oracle Ride", ("Aldo",), {"rations": 100, "water": 100}))
    campaigns.execute("Keep", SwitchParty("Oracle Ride"))
    campaigns.execute("Keep", Wait(40 * DAY))
    campaigns.execute("Keep", SwitchParty("Keep"))
    campaigns.execute("Keep", Wait(3 * DAY))
    tokens = issue_tokens(campaigns.store, "Keep")
    with TestClient(create_app(campaigns)) as client:
        links = {"referee": tokens[Role.REFEREE], "table": tokens[Role.PLAYER]}
        made = client.post(f"{PAGE}/hand-link?token={links['referee']}",
                           content="character=Aldo", headers=FORM)  # fmt: skip
        found = re.search(r'value="[^"]*\?token=([^"]+)"', made.text)
        assert found is not None, made.text
        links["Aldo"] = found[1]
        yield client, links


def test_the_referees_calendar_shows_every_partys_days(
    world: tuple[TestClient, dict[str, str]],
) -> None:
    client, links = world
    shown = client.get(f"/api{PAGE}/calendar", params={"token": links["referee"], "month": "1"})
    assert shown.status_code == 200, shown.text
    view = shown.json()
    assert view["parties"] == ["Keep", "Oracle Ride"] and not view["player"]
    lived = {p["party"]: 0 for p in view["days"][0]["parties"]}
    for day in view["days"]:
        for p in day["parties"]:
            lived[p["party"]] += p["lived"]
    assert lived == {"Keep": 4, "Oracle Ride": 30}
    page = client.get(f"{PAGE}/calendar", params={"token": links["referee"], "month": "2"})
    assert page.status_code == 200
    assert 'id="month-before"' in page.text and "Oracle Ride" in page.text
    assert 'id="month-after"' not in page.text  # month 3 has not begun
    dashboard = client.get(PAGE, params={"token": links["referee"]})
    assert f'href="{PAGE}/calendar?token={links["referee"]}"' in dashboard.text


def test_the_players_calendar_is_their_partys_alone(
    world: tuple[TestClient, dict[str, str]],
) -> None:
    client, links = world
    for who, party in (("table", "Keep"), ("Aldo", "Oracle Ride")):
        view = client.get(f"/api{PAGE}/calendar", params={"token": links[who]}).json()
        assert view["player"] and view["parties"] == [party], who
        assert {p["party"] for d in view["days"] for p in d["parties"]} == {party}
        page = client.get(f"{PAGE}/calendar", params={"token": links[who]})
        assert "the players' calendar" in page.text and "back to the party's page" in page.text
        other = "Oracle Ride" if party == "Keep" else "Keep"
        assert f'<th scope="col">{other}</th>' not in page.text
    players = client.get(PAGE, params={"token": links["table"]})
    assert f'href="{PAGE}/calendar?token={links["table"]}"' in players.text


def test_a_month_that_is_not_one_is_refused(world: tuple[TestClient, dict[str, str]]) -> None:
    client, links = world
    refused = client.get(f"/api{PAGE}/calendar", params={"token": links["referee"], "month": "x"})
    assert refused.status_code == 404
    assert "no such month 'x'" in refused.json()["error"]
    page = client.get(f"{PAGE}/calendar", params={"token": links["table"], "month": "1-09"})
    assert page.status_code == 404 and "has not begun" in page.text
    assert client.get(f"{PAGE}/calendar", params={"month": "1"}).status_code == 401
