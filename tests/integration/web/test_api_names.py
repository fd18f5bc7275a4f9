"""Names over HTTP are checked as the CLI checks them (issue 22): a countdown named with an
escape sequence, or a zero-width space is one 400, and nothing changes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

COMMANDS = "/api/campaigns/Crypt/commands"


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("flood\x1b[31m", "U+001B"),
        ("flood\u200b", "U+200B"),
    ],
)
def test_countdown_add_refuses_a_name_that_is_not_printable_text(
    served: Served, name: str, said: str
) -> None:
    before = served.campaigns.state("Crypt").version
    response = served.client.post(
        COMMANDS,
        json={"verb": "countdown_add", "name": name, "kind": "short", "length": "5"},
        headers={"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"},
    )
    assert response.status_code == 400, response.text
    assert said in response.json()["error"]
    assert served.campaigns.state("Crypt").version == before
