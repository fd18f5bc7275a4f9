"""Views and secrets: nothing of the referee's ever leaves the server in a player response.

The served campaign hides a marker in every kind of secret (site, level and area notes, an
unrolled wandering row, a met encounter's notes, a hidden map feature and its notes, a
referee-only countdown and note); referee-only rolls are the dungeon die's. Every player
response is searched for every marker, and the referee's responses must carry them, so the
search is known to look in the right place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from turnkeeper.views import player_state
from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

PATHS = (
    "/api/campaigns/Crypt/state",
    "/api/campaigns/Crypt/log",
    "/api/campaigns/Crypt/map.svg",
    "/campaigns/Crypt",
)


def _texts(served: Served, role: Role) -> dict[str, str]:
    out = {}
    for path in PATHS:
        response = served.get(path, role)
        assert response.status_code == 200, (path, response.text)
        out[path] = response.text
    return out


def test_no_player_response_carries_a_referee_secret(
    served: Served, markers: dict[str, str]
) -> None:
    """EX-MAP-2 (the party's map), TP-DISC-1 (hidden features), DG-CD-3 (referee countdowns)."""
    for path, text in _texts(served, Role.PLAYER).items():
        leaked = [what for what, marker in markers.items() if marker in text]
        assert not leaked, f"{path} shows the players: {leaked}"
        assert '"seed"' not in text and "Waning resources" not in text, path


def test_the_referee_sees_the_secrets_the_players_do_not(
    served: Served, markers: dict[str, str]
) -> None:
    seen = "".join(_texts(served, Role.REFEREE).values())
    missing = [what for what, marker in markers.items() if marker not in seen]
    assert not missing, f"the referee's responses lack {missing}: the player check proves nothing"
    svg = served.get("/api/campaigns/Crypt/map.svg", Role.REFEREE).text
    assert markers["hidden feature"] in svg


def test_player_log_has_no_referee_records_and_no_event_data(served: Served) -> None:
    referee = served.get("/api/campaigns/Crypt/log", Role.REFEREE).json()["records"]
    player = served.get("/api/campaigns/Crypt/log", Role.PLAYER).json()["records"]
    secret = {r["seq"] for r in referee if r["visibility"] == "referee"}
    rolled = {r["seq"] for r in referee if r["visibility"] == "referee" and r["rolls"]}
    assert rolled, "the fixture should have referee-only rolls"
    assert secret.isdisjoint(r["seq"] for r in player)
    assert {r["seq"] for r in player} == {r["seq"] for r in referee} - secret
    keys = {"seq", "command", "at", "date", "kind", "visibility", "text", "rolls"}
    assert all(set(r) == keys and r["visibility"] == "party" for r in player)


def test_player_state_is_the_party_view(served: Served) -> None:
    state = served.campaigns.state("Crypt")
    body = served.get("/api/campaigns/Crypt/state", Role.PLAYER).json()
    assert body == player_state(state).model_dump(mode="json")
    assert [c["name"] for c in body["countdowns"]] == []  # torch smoke ran out; the other is hidden
    assert body["site"]["where"] == {"level": 1, "area": "1", "turns": 3}
    assert [a["key"] for a in body["site"]["site"]["levels"][0]["areas"]] == ["1"]
    assert body["wilderness"]["position"] == "0000"
    assert body["wilderness"]["found"] == [] or all(
        f["id"] != "crypt" for f in body["wilderness"]["found"]
    )


def test_player_combat_tracker_hides_foe_stats() -> None:
    """The tracker shows the party's hit points, a foe's name and conditions only."""
    from turnkeeper.campaign import Journal, parse_party
    from turnkeeper.kernel.combat_state import Combatant, CombatState, Side
    from turnkeeper.rules.loader import preset

    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6')
    state = Journal.start("Fight", preset("cb"), party, seed=1).state
    combat = CombatState(
        combatants=(
            Combatant(name="Aldo", side=Side.PARTY, hp=6, max_hp=6, ac=12),
            Combatant(name="ogre", side=Side.OPPOSITION, hp=29, max_hp=31, ac=15, morale=7),
        ),
        round=2,
    )
    view = player_state(state.model_copy(update={"combat": combat}))
    assert view.combat is not None
    aldo, ogre = view.combat.combatants
    assert (aldo.hp, aldo.max_hp) == (6, 6)
    assert (ogre.hp, ogre.max_hp) == (None, None)
    assert "29" not in view.model_dump_json() and "31" not in view.model_dump_json()
