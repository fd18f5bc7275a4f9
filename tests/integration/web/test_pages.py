"""The dashboard page: the referee's forms run commands; players get the party's view."""

from __future__ import annotations

from typing import TYPE_CHECKING

from turnkeeper.campaign import Note
from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

PAGE = "/campaigns/Crypt"


def test_referee_dashboard_shows_clock_countdowns_map_journal_and_forms(served: Served) -> None:
    page = served.get(PAGE, Role.REFEREE)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    text = page.text
    for heading in ("Clock, light and supplies", "Countdowns", "Party", "Combat", "Map", "Journal"):
        assert f"<h2>{heading}</h2>" in text
    assert "<svg" in text and 'name="verb" value="turn"' in text
    assert 'name="expected_version" value="28"' in text


def test_player_page_has_no_forms(served: Served) -> None:
    text = served.get(PAGE, Role.PLAYER).text
    assert "the party's view" in text
    assert "<form" not in text and "<svg" in text


def test_a_form_runs_a_wait_and_comes_back_to_the_dashboard(served: Served) -> None:
    token = served.tokens[Role.REFEREE]
    response = served.client.post(
        f"{PAGE}/commands?token={token}",
        content="verb=wait&duration=2+turns&expected_version=28",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )
    assert response.status_code == 303, response.text
    assert response.headers["location"] == f"{PAGE}?token={token}"
    assert served.campaigns.state("Crypt").version > 28


def test_a_stale_form_is_a_409_page(served: Served) -> None:
    token = served.tokens[Role.REFEREE]
    response = served.client.post(
        f"{PAGE}/commands?token={token}",
        content="verb=undo&expected_version=3",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 409
    assert "reload and retry" in response.text and "<h1>409</h1>" in response.text


def test_a_player_cannot_post_the_form(served: Served) -> None:
    response = served.client.post(
        f"{PAGE}/commands?token={served.tokens[Role.PLAYER]}",
        content="verb=wait&duration=1h",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 403
    assert served.campaigns.state("Crypt").version == 28


def test_everything_on_the_page_is_escaped(served: Served) -> None:
    served.campaigns.execute("Crypt", Note('<script>alert("x")</script>'))
    for role in Role:
        text = served.get(PAGE, role).text
        assert "<script>" not in text
        assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in text
