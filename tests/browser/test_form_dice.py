"""A form's dice counted before they are typed in (issue 40 item 5), in a real browser: the
referee fills the dungeon turn's form, the form says how many dice of which kinds the turn
rolls, and exactly that many typed in run it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tests.browser.helpers import SITE, Table, shoot

from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from playwright.sync_api import Page

COUNTED = re.compile(r"^(\d+) (?:die|dice): (d\d+(?:, d\d+)*)")


def test_the_form_says_how_many_dice_then_that_many_run_the_command(
    table: Table, pages: tuple[Page, Page]
) -> None:
    referee, _ = pages
    referee.goto(table.link(Role.REFEREE))
    referee.click("details:has(#control-site_enter) > summary")
    referee.fill("#f-site_enter-site_text", SITE)
    referee.fill("#f-site_enter-area", "1")
    referee.click("#control-site_enter button")
    referee.wait_for_selector("#display [data-turn-mode]")
    before = int(referee.get_attribute("#display .display", "data-version") or 0)

    # filling the form asks for its count: the wandering die showing 1 is a meeting with
    # the site's giant rats, whose own dice (surprise, reaction...) are counted with it
    referee.fill("#f-turn-mode", "cautious")
    referee.wait_for_selector("#dice-asked-turn .asked")
    said = referee.inner_text("#dice-asked-turn")
    counted = COUNTED.match(said)
    assert counted, said
    count, kinds = int(counted[1]), counted[2].split(", ")
    assert count == len(kinds) > 1 and kinds[0] == "d6", said
    shoot(referee, "form-dice-counted")

    # as the dice are typed, the count follows them
    referee.fill("#f-turn-dice", "1")
    referee.wait_for_function(
        "() => document.querySelector('#dice-asked-turn').textContent.includes('1 typed in')"
    )
    referee.fill("#f-turn-dice", ", ".join("1" for _ in range(count)))
    referee.wait_for_function(
        f"() => document.querySelector('#dice-asked-turn').textContent.includes('{count} typed in')"
    )
    assert "to go" not in referee.inner_text("#dice-asked-turn")
    referee.click("#control-turn button")
    referee.wait_for_selector("#control-turn .outcome > *", state="attached")
    answer = referee.inner_text("#control-turn .outcome")
    assert answer.startswith("Done"), answer
    assert "giant rat" in answer, answer
    after = int(referee.get_attribute("#display .display", "data-version") or 0)
    assert after > before
    # the form went back to its defaults, and its count with it
    assert referee.inner_text("#dice-asked-turn") == ""


def test_a_count_arriving_moves_no_form_under_the_pointer(
    table: Table, pages: tuple[Page, Page]
) -> None:
    """The count comes in as the referee fills a form, maybe while the pointer is on its way
    to the next form's button: the room it takes is kept from the start, so nothing moves."""
    referee, _ = pages
    referee.goto(table.link(Role.REFEREE))
    closed = referee.locator("aside details:not([open]) > summary:visible")
    while closed.count():
        closed.first.click()
    below = referee.locator("#control-party_doing .fields > button")
    where = "el => el.getBoundingClientRect().top + window.scrollY"
    before = below.evaluate(where)
    # a refusal is the longest thing a count says (no such party: the whole reason)
    referee.fill("#f-party_share-name", "Grey Band of the long and winding road to the north")
    referee.wait_for_selector("#dice-asked-party_share span")
    assert "no party" in referee.inner_text("#dice-asked-party_share")
    assert below.evaluate(where) == before
