"""The pages in words (issue 26): travel points as mixed numbers, found features by name, no
alarm for an unlit torch out on the wilderness map, the fight panel gone once the fight
ended, and a refusal that names the dashboard's control rather than a command to type.

The words, the light and the refusal failed before: the pages showed ``5/2 TP``, ``well``, a
red "darkness" on the plains, and "make camp with `turnkeeper camp`". The fight has left the
state at its end since the seams were mended (issue 21): this holds both pages to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from turnkeeper.campaign import parse_party
from turnkeeper.procedures.wilderness import LoadMap, Travel
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens
from turnkeeper.world.hexes import Hex

from .conftest import MAP

PAGE = "/campaigns/Vale"


@pytest.fixture
def vale(tmp_path: Path) -> Iterator[tuple[TestClient, Campaigns, dict[Role, str]]]:
    """Aldo, mounted, has ridden from 0100 to 0000 (the Old Well) and back and forth: 5/2 TP
    of the day's 4 spent on the plains, no torch lit."""
    campaigns = Campaigns(SqlStore(f"sqlite:///{tmp_path / 'vale.db'}"))
    aldo = parse_party('[[characters]]\nname = "Aldo"\nhp = 8')
    campaigns.new("Vale", preset("tp"), aldo, seed=5)
    campaigns.execute("Vale", LoadMap(MAP, Hex.from_label("0100")))
    for way in ("nw", "se", "nw", "se", "nw"):
        campaigns.execute("Vale", Travel(way, party=("mounted",)))
    tokens = issue_tokens(campaigns.store, "Vale")
    with TestClient(create_app(campaigns)) as client:
        yield client, campaigns, tokens


def _page(client: TestClient, tokens: dict[Role, str], role: Role) -> str:
    page = client.get(PAGE, headers={"Authorization": f"Bearer {tokens[role]}"})
    assert page.status_code == 200
    return page.text


def test_travel_points_and_found_features_read_as_words(vale: tuple) -> None:  # type: ignore[type-arg]
    client, _, tokens = vale
    referee, players = (_page(client, tokens, role) for role in (Role.REFEREE, Role.PLAYER))
    for page in (referee, players):
        assert "2½ TP" in page and "5/2" not in page
        assert "Old Well (0000)" in page
        assert '<span class="bad">darkness</span>' not in page and "none lit" in page
    assert "<td>well</td>" not in referee


def _do(client: TestClient, tokens: dict[Role, str], form: str) -> str:
    """A dashboard form sent (htmx); its answer."""
    return client.post(
        f"{PAGE}/commands?token={tokens[Role.REFEREE]}",
        content=form,
        headers={"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"},
    ).text


def test_the_fight_panel_goes_when_the_fight_ends(vale: tuple) -> None:  # type: ignore[type-arg]
    client, _, tokens = vale
    assert "Done" in _do(client, tokens, "verb=combat_start&foes=Wolf:hd=1,hp=5,ac=12")
    for role in (Role.REFEREE, Role.PLAYER):
        assert "<td>Wolf</td>" in _page(client, tokens, role)
    assert "Done" in _do(client, tokens, "verb=combat_end")
    for role in (Role.REFEREE, Role.PLAYER):
        panel = _page(client, tokens, role).split("<h2>Journal</h2>")[0]
        assert "no fight" in panel and "<td>Wolf</td>" not in panel and "round 0" not in panel


def test_a_refusal_beside_a_form_names_the_dashboards_control(vale: tuple) -> None:  # type: ignore[type-arg]
    client, campaigns, tokens = vale
    for way in ("se", "nw", "se"):  # the day's 4 TP are spent
        campaigns.execute("Vale", Travel(way, party=("mounted",)))
    refused = _do(client, tokens, "verb=travel&target=nw").replace("&#34;", '"')
    assert 'make camp with the "Camp" control' in refused, refused
    assert "turnkeeper camp" not in refused


def test_the_party_table_says_who_each_is(vale: tuple) -> None:  # type: ignore[type-arg]
    """The referee's party table gives each character's class, level and armour class; the
    players' gives class and level (no armour class on their pages, as for the foes)."""
    client, _, tokens = vale
    referee, players = (_page(client, tokens, role) for role in (Role.REFEREE, Role.PLAYER))
    assert "level 1 · AC 10" in referee
    assert "level 1" in players and "AC 10" not in players
