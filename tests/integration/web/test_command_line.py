"""The dashboard's command line (issue 26, item 2): the verbs as play takes them, completed as
play completes them, for the referee alone; a line that cannot be read is one clear refusal
that changes nothing, and a line aimed at a table that moved on is refused as a form is."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from turnkeeper.campaign import parse_party
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens

PAGE = "/campaigns/Keep"
FORM = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[TestClient, Campaigns, dict[Role, str]]]:
    campaigns = Campaigns(SqlStore(f"sqlite:///{tmp_path / 'keep.db'}"))
    party = parse_party(
        '[[characters]]\nname = "Aldo"\nhp = 8\n[[characters]]\nname = "Bea"\nhp = 6'
    )
    campaigns.new("Keep", preset("ex"), party, seed=3)
    tokens = issue_tokens(campaigns.store, "Keep")
    with TestClient(create_app(campaigns)) as client:
        yield client, campaigns, tokens


def _send(client: TestClient, token: str, line: str, seen: int | None = None) -> tuple[int, str]:
    form = "line=" + quote(line) + ("" if seen is None else f"&expected_version={seen}")
    sent = client.post(f"{PAGE}/line?token={token}", content=form, headers=FORM)
    return sent.status_code, sent.text


def test_a_line_runs_its_verb_and_the_page_shows_the_command_line(served) -> None:  # type: ignore[no-untyped-def]
    client, campaigns, tokens = served
    page = client.get(f"{PAGE}?token={tokens[Role.REFEREE]}").text
    assert 'id="command-line"' in page and "/complete?token=" in page
    before = campaigns.state("Keep").version
    code, text = _send(client, tokens[Role.REFEREE], 'damage Bea 2 --reason "a fall"', before)
    assert code == 200 and "Done, version" in text
    state = campaigns.state("Keep")
    assert state.version > before
    assert next(c for c in state.party.characters if c.name == "Bea").hp == 4


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("fly north", "&#39;fly&#39; names no verb here"),
        ("turn --speed 3", "--speed: not an option of `turn`"),
        ("heal Aldo 3 4", "one word too many"),
        ("site enter examples/site.toml", "give its text in the form instead"),
        ("", "an empty line"),
    ],
)
def test_a_line_that_cannot_be_read_is_refused_and_changes_nothing(
    served, line: str, says: str
) -> None:  # type: ignore[no-untyped-def]
    client, campaigns, tokens = served
    before = campaigns.state("Keep").version
    code, text = _send(client, tokens[Role.REFEREE], line)
    assert code == 422 and says in text
    assert campaigns.state("Keep").version == before


def test_a_line_aimed_at_an_older_table_is_refused(served) -> None:  # type: ignore[no-untyped-def]
    client, campaigns, tokens = served
    seen = campaigns.state("Keep").version
    assert _send(client, tokens[Role.REFEREE], "wait 10m", seen)[0] == 200
    code, text = _send(client, tokens[Role.REFEREE], "wait 10m", seen)
    assert code == 409 and f"version {seen + 1}" in text
    assert campaigns.state("Keep").version == seen + 1


def test_completion_offers_what_play_offers_and_players_get_neither(served) -> None:  # type: ignore[no-untyped-def]
    client, _, tokens = served
    asked = client.get(f"{PAGE}/complete", params={"token": tokens[Role.REFEREE], "line": "heal "})
    assert asked.status_code == 200 and asked.json() == {"start": 5, "words": []}  # nobody hurt
    asked = client.get(f"{PAGE}/complete", params={"token": tokens[Role.REFEREE], "line": "dam"})
    assert asked.json() == {"start": 0, "words": ["damage"]}
    asked = client.get(
        f"{PAGE}/complete", params={"token": tokens[Role.REFEREE], "line": "damage "}
    )
    assert asked.json()["words"] == ["Aldo", "Bea"]
    player = tokens[Role.PLAYER]
    assert client.get(f"{PAGE}/complete", params={"token": player, "line": "d"}).status_code == 403
    assert _send(client, player, "wait 1h")[0] == 403


def test_a_route_is_priced_only_in_the_wilderness_and_for_the_referee(served) -> None:  # type: ignore[no-untyped-def]
    """Issue 26: the map's chosen hex is priced beside it (the browser test prices one); out
    of the wilderness, or for the players' token, the price is refused in words."""
    client, _, tokens = served
    asked = client.get(
        f"{PAGE}/route", params={"token": tokens[Role.REFEREE], "to": "0303"}, headers=FORM
    )
    assert asked.status_code == 422 and "not in the wilderness: no route to price" in asked.text
    asked = client.get(f"{PAGE}/route", params={"token": tokens[Role.PLAYER], "to": "0303"})
    assert asked.status_code == 403
