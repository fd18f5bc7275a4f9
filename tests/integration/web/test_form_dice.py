"""A form says how many dice of which kinds its command rolls before they are typed in
(issue 40 item 5): the dashboard's forms ask ``POST /campaigns/{name}/dice`` with the form as
it would be posted, and nothing is run or recorded."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlencode

import pytest

from turnkeeper.dice import dice_named
from turnkeeper.verbs import VERBS
from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

FORM = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
TURN = {"verb": "turn", "mode": "cautious"}


def _post(served: Served, route: str, fields: dict[str, str], role: Role = Role.REFEREE) -> object:
    return served.client.post(
        f"/campaigns/Crypt/{route}?token={served.tokens[role]}",
        content=urlencode(fields),
        headers=FORM,
    )


@pytest.fixture(autouse=True)
def exploring(served: Served) -> None:
    """The crypt's pending encounter is left behind: the party goes on exploring."""
    assert _post(served, "commands", {"verb": "site_resume"}).status_code == 200


def _asked(served: Served, fields: dict[str, str], faces: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The engine's own count, for the body the form makes."""
    state = served.campaigns.state("Crypt")
    body = VERBS[fields["verb"]].model_validate(fields)
    return served.campaigns.dice_asked("Crypt", body.build(state), faces)


def test_a_form_without_dice_is_told_every_die_its_command_rolls(served: Served) -> None:
    """TP-ENC-1: a turn's encounter die showing 1 (as counted) calls for the encounter's
    dice too: the answer names them all, and nothing is recorded."""
    version = served.campaigns.state("Crypt").version
    answer = _post(served, "dice", TURN)
    assert answer.status_code == 200, answer.text
    asked = _asked(served, TURN)
    assert len(asked) > 1
    assert dice_named(asked) in answer.text
    assert f'data-count="{len(asked)}"' in answer.text
    assert served.campaigns.state("Crypt").version == version


def test_typing_that_many_dice_records_the_command(served: Served) -> None:
    asked = _asked(served, TURN)
    before = served.campaigns.state("Crypt").version
    dice = ", ".join("1" for _ in asked)
    done = _post(served, "commands", {**TURN, "dice": dice})
    assert done.status_code == 200, done.text
    assert "Done, version" in done.text
    assert served.campaigns.state("Crypt").version > before


def test_dice_typed_so_far_are_the_first_and_change_the_count(served: Served) -> None:
    """A wandering die that shows no encounter asks for none of the encounter's dice."""
    every = _asked(served, TURN)
    fewer = _asked(served, TURN, (2,))
    assert len(fewer) < len(every)
    answer = _post(served, "dice", {**TURN, "dice": "2"})
    assert dice_named(fewer) in answer.text
    assert "1 typed in" in answer.text


def test_a_form_that_makes_no_command_yet_says_why_and_changes_nothing(served: Served) -> None:
    version = served.campaigns.state("Crypt").version
    answer = _post(served, "dice", {"verb": "damage", "target": "Nobody", "amount": "2"})
    assert answer.status_code == 200
    assert "Nobody" in answer.text and "dice:" not in answer.text
    bad = _post(served, "dice", {**TURN, "dice": "9"})
    assert bad.status_code == 200 and "d6" in bad.text  # a d6 does not show 9
    assert served.campaigns.state("Crypt").version == version


def test_only_the_referee_counts_a_forms_dice(served: Served) -> None:
    answer = _post(served, "dice", TURN, role=Role.PLAYER)
    assert answer.status_code == 403


def test_the_dashboard_forms_ask_for_their_count(served: Served) -> None:
    page = served.get("/campaigns/Crypt", Role.REFEREE).text
    assert 'id="dice-asked-turn"' in page
    assert f'data-dice="/campaigns/Crypt/dice?token={served.tokens[Role.REFEREE]}"' in page
