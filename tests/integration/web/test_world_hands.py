"""Each party's players see their own party (issue 28): in a world of several parties, a
character's link shows the party the character is with, whichever party the referee runs, and
nothing of another party; a declaration from it runs as that party."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from turnkeeper.campaign import Note, Visibility, Wait, parse_party
from turnkeeper.procedures.parties import NewParty, SplitParty, SwitchParty
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens

PAGE = "/campaigns/Keep"
FORM = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
RIDE_NOTE = "ZQRIDENOTE"  # a line of the Oracle Ride's own journal
KEEP_NOTE = "ZQKEEPNOTE"  # a line of the Keep's own journal


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[TestClient, Campaigns, dict[str, str]]]:
    campaigns = Campaigns(open_store(str(tmp_path / "w.db")))
    party = parse_party(
        '[[characters]]\nname = "Aldo"\nhp = 8\n[[characters]]\nname = "Bea"\nhp = 6\n'
        '[[characters]]\nname = "Hugo"\nhp = 4\n[supplies]\nrations = 20'
    )
    campaigns.new("Keep", preset("tp"), party, seed=3)
    campaigns.execute("Keep", SplitParty("Oracle Ride", ("Aldo", "Hugo"), {"rations": 5}))
    campaigns.execute("Keep", SwitchParty("Oracle Ride"))
    campaigns.execute("Keep", Wait(3 * 3600))
    campaigns.execute("Keep", Note(RIDE_NOTE, Visibility.PARTY))
    campaigns.execute("Keep", SwitchParty("Keep"))
    campaigns.execute("Keep", Note(KEEP_NOTE, Visibility.PARTY))
    campaigns.execute(
        "Keep", NewParty("Newcomers", parse_party('[[characters]]\nname = "Eve"\nhp = 5'))
    )
    tokens = issue_tokens(campaigns.store, "Keep")
    with TestClient(create_app(campaigns)) as client:
        links = {"referee": tokens[Role.REFEREE], "table": tokens[Role.PLAYER]}
        for character in ("Aldo", "Bea", "Eve"):
            made = client.post(f"{PAGE}/hand-link?token={links['referee']}",
                               content=f"character={character}", headers=FORM)  # fmt: skip
            found = re.search(r'value="[^"]*\?token=([^"]+)"', made.text)
            assert found is not None, made.text
            links[character] = found[1]
        yield client, campaigns, links


def test_a_characters_link_shows_its_own_party_whoever_is_run(
    world: tuple[TestClient, Campaigns, dict[str, str]],
) -> None:
    client, _, links = world
    seen = {
        who: client.get(f"/api/campaigns/Keep/state?token={links[who]}").json()
        for who in ("Aldo", "Bea", "Eve", "table")
    }
    assert seen["Aldo"]["party_name"] == "Oracle Ride"
    assert [c["name"] for c in seen["Aldo"]["party"]] == ["Aldo", "Hugo"]
    assert seen["Aldo"]["date"] == "1-01-01 11:00"  # the ride's own present
    assert seen["Bea"]["party_name"] == "Keep" and seen["Bea"]["date"] == "1-01-01 08:00"
    assert [c["name"] for c in seen["Eve"]["party"]] == ["Eve"]
    assert seen["table"]["party_name"] == "Keep"  # the table's link: the party run now

    aldo_page = client.get(f"{PAGE}?token={links['Aldo']}").text
    bea_page = client.get(f"{PAGE}?token={links['Bea']}").text
    assert RIDE_NOTE in aldo_page and KEEP_NOTE not in aldo_page
    assert "<strong>Oracle Ride</strong>" in aldo_page  # whose present the page shows
    assert KEEP_NOTE in bea_page and RIDE_NOTE not in bea_page
    for page in (aldo_page, bea_page):
        assert "Newcomers" not in page and "Eve" not in page
    # Bea is named on Aldo's page only where the ride's characters lived with her: the
    # world's start, and Aldo and Hugo's leaving
    display = client.get(f"{PAGE}/display?token={links['Aldo']}").text
    lines_with_bea = [line for line in display.splitlines() if "Bea" in line]
    assert lines_with_bea and all("starts under tp: Aldo, Bea, Hugo" in line
                                  for line in lines_with_bea), lines_with_bea  # fmt: skip

    log = client.get(f"/api/campaigns/Keep/log?token={links['Aldo']}").json()
    lines = " ".join(r["text"] for r in log["records"])
    assert RIDE_NOTE in lines and KEEP_NOTE not in lines and "Eve" not in lines


def test_a_declaration_from_a_link_runs_as_its_characters_party(
    world: tuple[TestClient, Campaigns, dict[str, str]],
) -> None:
    client, campaigns, links = world
    state = campaigns.state("Keep")
    assert state.company == "Keep"
    # a form the hand may not send is refused; the referee's verbs are not a hand's
    refused = client.post(f"{PAGE}/hand?token={links['Aldo']}", content="verb=wait&duration=1h",
                          headers=FORM)  # fmt: skip
    assert refused.status_code == 403
    assert campaigns.state("Keep").version == state.version


def test_the_referee_sees_the_world_on_one_timeline(
    world: tuple[TestClient, Campaigns, dict[str, str]],
) -> None:
    client, _, links = world
    view = client.get(f"/api/campaigns/Keep/timeline?token={links['referee']}").json()
    assert [(p["name"], p["day"], p["running"]) for p in view["parties"]] == [
        ("Keep", 1, True),
        ("Oracle Ride", 1, False),
        ("Newcomers", 1, False),
    ]
    assert {c["name"]: c["party"] for c in view["characters"]} == {
        "Aldo": "Oracle Ride",
        "Hugo": "Oracle Ride",
        "Bea": "Keep",
        "Eve": "Newcomers",
    }
    page = client.get(f"{PAGE}?token={links['referee']}").text
    assert "The world: day 1" in page and "Oracle Ride" in page
    record = client.get(
        f"/api/campaigns/Keep/characters/aldo/record?token={links['referee']}"
    ).json()
    told = [line["line"] for line in record["record"]]
    assert RIDE_NOTE in told and KEEP_NOTE not in told
    assert record["record"][-1]["party"] == "Oracle Ride"
    for who in ("table", "Aldo"):  # the players' links never read the world's timeline
        assert client.get(f"/api/campaigns/Keep/timeline?token={links[who]}").status_code == 403
    missing = client.get(f"/api/campaigns/Keep/characters/Zed/record?token={links['referee']}")
    assert missing.status_code == 404 and "Zed" in missing.text


def test_the_dashboard_shows_a_characters_time_record_to_the_referee_alone(
    world: tuple[TestClient, Campaigns, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _, links = world
    page = client.get(f"{PAGE}?token={links['referee']}").text
    picker = page[page.index('id="f-record-character"') :]
    assert [re.findall(r"<option>([^<]+)</option>", picker[: picker.index("</select>")])] == [
        ["Bea", "Aldo", "Hugo", "Eve"]  # the world's every character: the run party's first
    ]
    shown = client.get(f"{PAGE}/record?token={links['referee']}&character=aldo", headers=FORM)
    assert shown.status_code == 200
    assert "Aldo's time record" in shown.text
    # whereabouts first: a stretch for each span (from, to, where, doing, with whom)
    stretches = re.findall(
        r'<tr><td class="when">([^<]+)</td><td class="when">([^<]+)</td><td>([^<]+)</td>'
        r"<td>([^<]*)</td><td>([^<]+)</td></tr>",
        shown.text,
    )
    assert stretches[-1] == ("1-01-01 08:00", "1-01-01 11:00", "in town", "", "Oracle Ride: Hugo")
    assert "Aldo's whereabouts" in shown.text
    rows = re.findall(r'<td class="when">([^<]+)</td><td>([^<]+)</td><td>([^<]+)</td>', shown.text)
    assert ("1-01-01 11:00", "Oracle Ride", RIDE_NOTE) in rows  # the ride's own time
    assert all(KEEP_NOTE not in what for _, _, what in rows)  # the Keep's, without Aldo
    assert "The latest" not in shown.text

    monkeypatch.setattr("turnkeeper.web.render.RECORD_LINES", 2)
    cut = client.get(f"{PAGE}/record?token={links['referee']}&character=Aldo", headers=FORM)
    total = len(rows)
    assert f"The latest 2 of {total} lines" in cut.text
    assert re.findall(r'<td class="when">([^<]+)</td><td>([^<]+)</td><td>([^<]+)</td>',
                      cut.text) == rows[-2:]  # fmt: skip

    for who in ("table", "Aldo"):
        refused = client.get(f"{PAGE}/record?token={links[who]}&character=Aldo", headers=FORM)
        assert refused.status_code == 403 and "Aldo's time record" not in refused.text
    unknown = client.get(f"{PAGE}/record?token={links['referee']}&character=Zed", headers=FORM)
    assert unknown.status_code == 404 and "Zed" in unknown.text and "Hugo" in unknown.text
