"""Numbers over HTTP are typed in the digits 0 to 9 (issue 38): ``take: ["torches=²"]`` and
the dashboard's line ``party split ... --take torches=²`` were a 500 (``"²".isdigit()`` is
True, ``int("²")`` fails), ``torches=٣`` was read as 3. Each is one refusal naming the count,
and the campaign stays as it was."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import quote

import pytest

from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

COMMANDS = "/api/campaigns/Crypt/commands"
LINE = "/campaigns/Crypt/line"
FORM = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
COUNTS = ["\u00b2", "\u0663", "1\u00b2"]


@pytest.mark.parametrize("count", COUNTS)
def test_the_verbs_body_refuses_a_count_not_in_ascii_digits(served: Served, count: str) -> None:
    before = served.campaigns.state("Crypt").version
    answer = served.client.post(
        COMMANDS,
        json={
            "verb": "party_split",
            "name": "Grey Band",
            "characters": "Aldo",
            "take": [f"torches={count}"],
        },
        headers={"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"},
    )
    assert answer.status_code in (400, 422), answer.text
    assert "a count is a whole number written in the digits 0 to 9" in answer.text
    assert served.campaigns.state("Crypt").version == before


@pytest.mark.parametrize("count", COUNTS)
def test_the_command_line_refuses_a_count_not_in_ascii_digits(served: Served, count: str) -> None:
    before = served.campaigns.state("Crypt").version
    line = f'party split "Grey Band" Aldo --take torches={count}'
    answer = served.client.post(
        f"{LINE}?token={served.tokens[Role.REFEREE]}",
        content="line=" + quote(line),
        headers=FORM,
    )
    assert answer.status_code in (400, 422), answer.text
    assert "a count is a whole number written in the digits 0 to 9" in answer.text
    assert served.campaigns.state("Crypt").version == before


def test_the_command_lines_version_seen_in_another_script_is_no_500(served: Served) -> None:
    answer = served.client.post(
        f"{LINE}?token={served.tokens[Role.REFEREE]}",
        content="line=" + quote("wait 10m") + "&expected_version=%C2%B2",
        headers=FORM,
    )
    assert answer.status_code < 500, answer.text
