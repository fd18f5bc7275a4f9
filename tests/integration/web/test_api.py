"""The HTTP API: tokens, the referee's commands, the party's view, errors as status codes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from turnkeeper.campaign import Wait
from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

STATE = "/api/campaigns/Crypt/state"
LOG = "/api/campaigns/Crypt/log"
COMMANDS = "/api/campaigns/Crypt/commands"
MAP = "/api/campaigns/Crypt/map.svg"
PAGE = "/campaigns/Crypt"


def _post(served: Served, body: dict[str, object], role: Role = Role.REFEREE) -> object:
    headers = {"Authorization": f"Bearer {served.tokens[role]}"}
    return served.client.post(COMMANDS, json=body, headers=headers)


# -- tokens --------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [STATE, LOG, MAP, PAGE])
def test_no_token_is_401_with_one_message(served: Served, path: str) -> None:
    response = served.get(path, None)
    assert response.status_code == 401
    if path != PAGE:
        assert response.json() == {"error": response.json()["error"], "type": "Unauthorized"}
        assert "Authorization: Bearer" in response.json()["error"]
        assert response.headers["WWW-Authenticate"] == "Bearer"


def test_wrong_token_is_401(served: Served) -> None:
    response = served.client.get(STATE, headers={"Authorization": "Bearer not-the-token"})
    assert response.status_code == 401
    assert "does not open campaign 'Crypt'" in response.json()["error"]
    assert served.client.get(STATE, params={"token": "nope"}).status_code == 401


def test_a_token_opens_only_its_own_campaign(served: Served) -> None:
    response = served.client.get(
        "/api/campaigns/Other/state",
        headers={"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"},
    )
    assert response.status_code == 401


def test_player_token_on_a_referee_route_is_403(served: Served) -> None:
    response = _post(served, {"verb": "wait", "duration": "1 turn"}, Role.PLAYER)
    assert response.status_code == 403
    assert response.json()["type"] == "Forbidden"
    assert served.campaigns.state("Crypt").version == 24  # nothing ran


def test_token_in_the_query_string_works_for_links(served: Served) -> None:
    response = served.client.get(STATE, params={"token": served.tokens[Role.PLAYER]})
    assert response.status_code == 200
    assert "seed" not in response.json()


# -- the referee plays -----------------------------------------------------------------------


def test_referee_plays_commands_through_the_api(served: Served) -> None:
    """Light (EX-LIGHT-1 via the tp preset's torch), a turn, a wait, a countdown, an undo."""
    from turnkeeper.procedures.dungeon import EndEncounter

    served.campaigns.execute("Crypt", EndEncounter(False))
    before = served.campaigns.state("Crypt")
    lit = _post(served, {"verb": "light", "source": "torch"})
    assert lit.status_code == 200, lit.text
    assert any(r["kind"] == "light.lit" for r in lit.json()["records"])
    turn = _post(served, {"verb": "turn", "mode": "cautious", "dice": [4]})
    assert turn.status_code == 200, turn.text
    rolled = [roll for r in turn.json()["records"] for roll in r["rolls"]]
    assert any(roll["typed_in"] for roll in rolled)  # typed-in dice are marked
    wait = _post(served, {"verb": "wait", "duration": "2 turns"})
    assert wait.status_code == 200, wait.text
    added = _post(
        served, {"verb": "countdown_add", "name": "flood", "kind": "short", "length": "5"}
    )
    ticked = _post(served, {"verb": "countdown_tick", "name": "flood", "ticks": 2})
    assert added.status_code == ticked.status_code == 200, (added.text, ticked.text)
    state = served.get(STATE, Role.REFEREE).json()
    assert state["now"] > before.now
    assert any(c["name"] == "flood" and c["left"] == 3 for c in state["countdowns"])
    undo = _post(served, {"verb": "undo"})
    assert undo.status_code == 200
    after = served.get(STATE, Role.REFEREE).json()
    assert next(c for c in after["countdowns"] if c["name"] == "flood")["left"] == 5
    assert after["version"] == served.campaigns.state("Crypt").version


def test_wilderness_commands_map_to_the_procedures(served: Served) -> None:
    """TP-DISC-2 search and a camp through the API, once the party is out of the site."""
    from turnkeeper.procedures.dungeon import EndEncounter, LeaveSite

    served.campaigns.execute("Crypt", EndEncounter(False))
    served.campaigns.execute("Crypt", LeaveSite())
    search = _post(served, {"verb": "search"})
    assert search.status_code == 200, search.text
    travel = _post(served, {"verb": "travel", "target": "se"})
    assert travel.status_code == 200, travel.text
    camp = _post(served, {"verb": "camp"})
    assert camp.status_code == 200, camp.text
    assert served.get(STATE, Role.PLAYER).json()["wilderness"]["position"] != "0000"


def test_log_since_returns_only_newer_records(served: Served) -> None:
    records = served.get(LOG, Role.REFEREE, since=21).json()["records"]
    assert [r["seq"] for r in records] == [22, 23, 24]
    assert served.get(LOG, Role.PLAYER, since=21).json()["records"][0]["seq"] == 24


# -- errors --------------------------------------------------------------------------------


def test_errors_are_one_json_message_with_their_status(served: Served) -> None:
    unknown = _post(served, {"verb": "dance"})
    assert unknown.status_code == 400
    assert set(unknown.json()) == {"error", "type"}
    bad_duration = _post(served, {"verb": "wait", "duration": "soon"})
    assert bad_duration.status_code == 400, bad_duration.text
    no_countdown = _post(served, {"verb": "countdown_tick", "name": "nothing"})
    assert no_countdown.status_code == 422
    assert no_countdown.json()["type"] == "IllegalCommandError"
    assert "no countdown called 'nothing'" in no_countdown.json()["error"]
    leftover = _post(served, {"verb": "light", "source": "torch", "dice": [3]})
    assert leftover.status_code == 400
    assert leftover.json()["type"] == "DiceInputError"
    assert served.get(LOG, Role.REFEREE, since=-1).status_code == 400
    assert served.campaigns.state("Crypt").version == 24  # none of them changed anything


def test_campaign_without_a_map_gives_404_for_the_svg(served: Served) -> None:
    from turnkeeper.campaign import parse_party
    from turnkeeper.rules.loader import preset
    from turnkeeper.web.tokens import issue_tokens

    served.campaigns.new("Bare", preset("ex"), parse_party('[[characters]]\nname = "A"\nhp = 4'))
    token = issue_tokens(served.campaigns.store, "Bare")[Role.REFEREE]
    response = served.client.get("/api/campaigns/Bare/map.svg", params={"token": token})
    assert response.status_code == 404
    assert "no wilderness map" in response.json()["error"]


def test_stale_expected_version_is_409_and_changes_nothing(served: Served) -> None:
    seen = served.get(STATE, Role.REFEREE).json()["version"]
    served.campaigns.execute("Crypt", Wait(60))  # another referee's tab got there first
    response = _post(served, {"verb": "wait", "duration": "1 turn", "expected_version": seen})
    assert response.status_code == 409
    assert response.json()["type"] == "ConflictError"
    assert "reload and retry" in response.json()["error"]
    assert served.campaigns.state("Crypt").version == seen + 1
    fresh = _post(served, {"verb": "wait", "duration": "1 turn", "expected_version": seen + 1})
    assert fresh.status_code == 200


def test_openapi_document_lists_the_routes(served: Served) -> None:
    document = served.client.get("/openapi.json").json()
    paths = document["paths"]
    for path in (
        "/api/campaigns/{name}/state",
        "/api/campaigns/{name}/log",
        "/api/campaigns/{name}/commands",
        "/api/campaigns/{name}/map.svg",
        "/campaigns/{name}",
    ):
        assert path in paths
    assert "post" in paths["/api/campaigns/{name}/commands"]
    assert "HTTPBearer" in document["components"]["securitySchemes"]


def test_a_large_map_is_drawn_on_the_page_as_a_window_and_whole_by_the_api(
    served: Served,
) -> None:
    from turnkeeper.campaign import parse_party
    from turnkeeper.procedures.wilderness import LoadMap
    from turnkeeper.rules.loader import preset
    from turnkeeper.web.tokens import issue_tokens
    from turnkeeper.world.generate import generate_map
    from turnkeeper.world.hexes import Hex
    from turnkeeper.world.mapfile import MapFile, map_to_data

    wide = MapFile.model_validate(map_to_data(generate_map(150, 100, seed=2)))
    served.campaigns.new("Wide", preset("tp"), parse_party('[[characters]]\nname = "A"\nhp = 4'))
    served.campaigns.execute("Wide", LoadMap(wide, Hex.from_label("7550")))
    token = {"token": issue_tokens(served.campaigns.store, "Wide")[Role.REFEREE]}
    whole = served.client.get("/api/campaigns/Wide/map.svg", params=token)
    window = served.client.get(
        "/api/campaigns/Wide/map.svg", params={**token, "around": "7550", "radius": 5}
    )
    page = served.client.get("/campaigns/Wide", params=token)
    assert whole.status_code == window.status_code == page.status_code == 200
    # 15,000 hexes: the page draws a window of 15 hexes around the party, not the whole map
    drawn = page.text[page.text.index("<svg") : page.text.index("</svg>")]
    assert len(window.text) < len(drawn) < len(whole.text) / 3
    assert 'width="4622"' in whole.text and 'width="4622"' not in drawn
    off = served.client.get("/api/campaigns/Wide/map.svg", params={**token, "around": "99,120"})
    assert off.status_code == 404 and "off the map" in off.json()["error"]
    wider = served.client.get("/api/campaigns/Wide/map.svg", params={**token, "radius": 501})
    assert wider.status_code in (400, 422)
