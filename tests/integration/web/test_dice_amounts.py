"""Hit points by hand take dice over HTTP and on the dashboard (issue 24): ``2d6`` is rolled
and recorded, never read as 26 or refused by a number field."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

COMMANDS = "/api/campaigns/Crypt/commands"
PAGE = "/campaigns/Crypt"


def _aldo(served: Served) -> int:
    return next(c.hp for c in served.campaigns.state("Crypt").party.characters if c.name == "Aldo")


def _last(served: Served) -> list[dict[str, object]]:
    lines = served.campaigns.export_jsonl("Crypt").splitlines()
    return [json.loads(line) for line in lines]


def test_damage_of_2d6_rolls_the_dice_and_records_the_roll(served: Served) -> None:
    before = _aldo(served)
    answer = served.client.post(
        COMMANDS,
        json={"verb": "damage", "target": "Aldo", "amount": "2d6", "reason": "a falling grate"},
        headers={"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"},
    )
    assert answer.status_code == 200, answer.text
    taken = before - _aldo(served)
    rolled = [r for r in _last(served) if "2d6" in json.dumps(r)][-1]
    assert rolled["kind"] == "hp.changed" and rolled["data"]["target"] == "Aldo", rolled  # type: ignore[index]
    rolls = rolled["rolls"]
    assert isinstance(rolls, list) and rolls[0]["expression"] == "2d6", rolled
    total = rolls[0]["total"]
    assert 2 <= total <= 12 and taken == min(total, before), (taken, total)


def test_the_dashboard_takes_dice_for_damage_and_healing(served: Served) -> None:
    page = served.get(PAGE, Role.REFEREE).text
    for verb in ("damage", "heal"):
        field = re.search(rf'<input id="f-{verb}-amount"[^>]*>', page)
        assert field is not None, verb
        assert 'type="number"' not in field.group(0)
        assert 'placeholder="6 or 2d6' in field.group(0)
    token = served.tokens[Role.REFEREE]
    hx = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
    for body in ("verb=damage&target=Aldo&amount=2d6", "verb=heal&target=Aldo&amount=1d6%2B1"):
        answer = served.client.post(f"{PAGE}/commands?token={token}", content=body, headers=hx)
        assert answer.status_code == 200, answer.text
    assert "26 damage" not in " ".join(str(r) for r in _last(served))
