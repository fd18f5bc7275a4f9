"""The pages: templates, the referee's forms from the command table, the players' view only.

The forms post with htmx and get a fragment back beside the form (a refusal keeps the form);
without htmx a form still works and comes back to the page. The front door lists nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from turnkeeper.campaign import Note
from turnkeeper.web.controls import table
from turnkeeper.web.tokens import Role, role_of

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

PAGE = "/campaigns/Crypt"
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
HTMX = {**FORM, "HX-Request": "true"}


def _post(served: Served, body: str, role: Role = Role.REFEREE, htmx: bool = True) -> object:
    token = served.tokens[role]
    return served.client.post(
        f"{PAGE}/commands?token={token}",
        content=body,
        headers=HTMX if htmx else FORM,
        follow_redirects=False,
    )


def test_referee_dashboard_shows_the_table_and_a_form_for_every_verb(served: Served) -> None:
    page = served.get(PAGE, Role.REFEREE)
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    text = page.text
    for heading in ("Clock, light and supplies", "Site", "Combat", "Countdowns", "Party"):
        assert f"<h2>{heading}</h2>" in text
    assert "<h2>Map</h2>" in text and "<h2>Journal</h2>" in text and "<svg" in text
    for control in table():
        assert f'id="control-{control.verb}"' in text, control.verb
        assert f'id="f-{control.verb}-dice"' in text, control.verb
    assert 'data-version="24"' in text
    assert f"/campaigns/Crypt/live?token={served.tokens[Role.REFEREE]}" in text
    assert 'src="/static/htmx.min.js"' in text and "cdn" not in text.lower()


def test_controls_that_do_not_fit_where_the_party_is_start_hidden(served: Served) -> None:
    text = served.get(PAGE, Role.REFEREE).text
    assert '<section class="group" data-place="site">' in text  # the party is in the crypt
    assert '<section class="group" data-place="fight" hidden>' in text
    assert 'data-place="anywhere" data-always>' in text


def test_player_page_has_no_forms_and_follows_the_table(served: Served) -> None:
    text = served.get(PAGE, Role.PLAYER).text
    assert "the party's view" in text
    assert "<form" not in text and "<svg" in text
    assert f"/campaigns/Crypt/live?token={served.tokens[Role.PLAYER]}" in text


def test_static_files_are_served_from_the_package(served: Served) -> None:
    for name in ("htmx.min.js", "htmx-ext-sse.min.js", "turnkeeper.js", "turnkeeper.css"):
        response = served.client.get(f"/static/{name}")
        assert response.status_code == 200, name
    assert "Zero-Clause BSD" in served.client.get("/static/htmx.min.js").text[:300]


def test_an_htmx_form_runs_and_answers_beside_the_form(served: Served) -> None:
    response = _post(served, "verb=wait&duration=2+turns&dice=&expected_version=24")
    assert response.status_code == 200, response.text
    assert "Done, version" in response.text
    assert 'id="display" hx-swap-oob="innerHTML"' in response.text
    assert served.campaigns.state("Crypt").version > 24


def test_typed_dice_are_faces_separated_by_commas(served: Served) -> None:
    response = _post(served, "verb=turn&mode=cautious&dice=1%2C+2")
    assert response.status_code in (200, 400, 422), response.text
    response = _post(served, "verb=wait&duration=1+turn&dice=4%2Cx")
    assert response.status_code == 400
    assert "is not a die" in response.text and 'class="problem"' in response.text


def test_a_refused_htmx_form_is_a_fragment_with_the_status_and_message(served: Served) -> None:
    response = _post(served, "verb=wait&duration=soon")
    assert response.status_code == 400
    assert response.text.startswith('<p class="problem"') and "duration" in response.text
    assert "<html" not in response.text  # a fragment for beside the form, not a page
    response = _post(served, "verb=undo&expected_version=3")
    assert response.status_code == 409 and "reload and retry" in response.text


def test_a_plain_form_comes_back_to_the_dashboard(served: Served) -> None:
    token = served.tokens[Role.REFEREE]
    response = _post(served, "verb=wait&duration=2+turns&expected_version=24", htmx=False)
    assert response.status_code == 303, response.text
    assert response.headers["location"] == f"{PAGE}?token={token}"
    assert served.campaigns.state("Crypt").version > 24


def test_a_stale_plain_form_is_a_409_page(served: Served) -> None:
    response = _post(served, "verb=undo&expected_version=3", htmx=False)
    assert response.status_code == 409
    assert "reload and retry" in response.text and "<h1>409</h1>" in response.text


def test_a_player_cannot_post_the_form(served: Served) -> None:
    response = _post(served, "verb=wait&duration=1h", role=Role.PLAYER)
    assert response.status_code == 403
    assert served.campaigns.state("Crypt").version == 24


def test_the_referee_makes_a_new_players_link_and_keeps_their_own(served: Served) -> None:
    referee, player = served.tokens[Role.REFEREE], served.tokens[Role.PLAYER]
    response = served.client.post(f"{PAGE}/player-link?token={referee}", headers=HTMX)
    assert response.status_code == 200, response.text
    assert "the old one no longer opens" in response.text
    fresh = response.text.split("token=", 1)[1].split('"', 1)[0]
    store = served.campaigns.store
    assert role_of(store, "Crypt", fresh) is Role.PLAYER
    assert role_of(store, "Crypt", player) is None
    assert role_of(store, "Crypt", referee) is Role.REFEREE
    assert served.client.post(f"{PAGE}/player-link?token={fresh}").status_code == 403


def test_the_front_door_asks_for_a_link_and_lists_nothing(served: Served) -> None:
    page = served.client.get("/")
    assert page.status_code == 200 and 'name="link"' in page.text
    assert "Crypt" not in page.text
    link = f"http://testserver{PAGE}?token={served.tokens[Role.PLAYER]}"
    opened = served.client.get("/open", params={"link": link}, follow_redirects=False)
    assert opened.status_code == 303
    assert opened.headers["location"] == f"{PAGE}?token={served.tokens[Role.PLAYER]}"
    elsewhere = served.client.get("/open", params={"link": "https://example.com/"})
    assert elsewhere.status_code == 400 and "not a campaign link" in elsewhere.text


def test_everything_on_the_page_is_escaped(served: Served) -> None:
    served.campaigns.execute("Crypt", Note('<script>alert("x")</script>'))
    for role in Role:
        text = served.get(PAGE, role).text
        assert "<script>alert" not in text
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in text
