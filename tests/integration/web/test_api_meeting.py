"""The API's combat_start body takes how the groups met (EX-SUR-1 to EX-SUR-4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from turnkeeper.procedures.dungeon import EndEncounter
from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served


def test_ex_sur_3_the_api_combat_start_takes_the_meeting(served: Served) -> None:
    """EX-SUR-3 over HTTP: the combat_start body's `mode` and `meeting`; a meeting the rules
    do not know is refused with one error."""
    served.campaigns.execute("Crypt", EndEncounter(False))
    headers = {"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"}
    commands = "/api/campaigns/Crypt/commands"
    body = {"verb": "combat_start", "foes": ["Ghoul:hd=2,ac=12"], "meeting": "ambush"}
    bad = served.client.post(commands, json={**body, "meeting": "sneak"}, headers=headers)
    assert bad.status_code in (400, 422) and "both-unaware" in bad.text
    started = served.client.post(commands, json={**body, "mode": "running"}, headers=headers)
    assert started.status_code == 200, started.text
    settled = next(r for r in started.json()["records"] if r["kind"] == "combat.surprise")
    assert settled["data"]["surprised"] == ["party"] and "EX-SUR-3" in settled["text"]
