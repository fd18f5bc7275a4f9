"""A save asked of a player, rolled on their phone (issue 40 item 2): the referee asks Bea's
player for a save from the dashboard's form, Bea's phone (390 x 844, touch) calls her and
shows the ask first, she types the die her own dice show (a face the die cannot show is
refused in words first), and the referee's journal shows the save marked as her roll.
Screenshots in test-artefacts/ (phone-roll-*.png) with ``TURNKEEPER_SHOTS=1``; the phone fits
a thumb at each step."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from tests.browser.helpers import SECRETS, Table, hand_link, line, shoot
from tests.browser.test_phone import BUZZ, FOLLOW_MS, said, shows
from tests.browser.thumb import PHONE, measure

from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture
def screens(browser: Browser) -> Iterator[tuple[Page, Page]]:
    """The referee's laptop and Bea's player's touch phone."""
    laptop = browser.new_context(viewport={"width": 1366, "height": 900})
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.add_init_script(BUZZ)
    try:
        yield laptop.new_page(), phone.new_page()
    finally:
        laptop.close()
        phone.close()


def snap(step: str, referee: Page, bea: Page) -> None:
    """The step on both screens; the phone keeps no secret and fits a thumb."""
    shoot(referee, f"phone-roll-{step}-referee", whole=False)
    shoot(bea, f"phone-roll-{step}-bea")
    html = bea.content()
    assert not [marker for marker in SECRETS.values() if marker in html], step
    found = measure(bea)
    assert found["small"] == [] and found["tiny"] == [], (step, found)
    assert found["sideways"] <= 0 and found["cut"] == [], (step, found)


def test_the_referee_asks_bea_for_a_save_and_she_rolls_it_on_her_phone(
    table: Table, screens: tuple[Page, Page]
) -> None:
    referee, bea = screens
    errors: list[str] = []
    for page in (referee, bea):
        page.on("pageerror", lambda error: errors.append(str(error)))
    referee.goto(table.link(Role.REFEREE))
    bea.goto(hand_link(referee, "Bea"))
    started = line(referee, 'combat start --monster "Goblin:hd=1,hp=4,ac=12" --surprise none')
    assert started.startswith("Done"), started
    assert line(referee, "combat round").startswith("Done")
    shows(bea, "#now .round", "round 1")

    # the referee asks from the dashboard's own form, which the verb table draws
    referee.fill("#f-combat_ask-name", "Bea")
    referee.select_option("#f-combat_ask-roll", "save")
    referee.click("#control-combat_ask button")
    referee.wait_for_selector("#control-combat_ask .outcome > *", state="attached")
    asked = referee.inner_text("#control-combat_ask .outcome")
    assert "Bea's player is asked to roll a save" in asked, asked
    shows(referee, "#display .tracker", "rolls asked of the players: Bea (a save)")

    # Bea's phone calls her, the ask first
    bea.wait_for_selector("#now[data-call='roll']", timeout=FOLLOW_MS)
    bea.wait_for_selector("body[data-called='roll 1']", timeout=FOLLOW_MS)
    assert bea.title().startswith("● Your roll"), bea.title()
    assert bea.evaluate("window.buzzed.length") >= 1
    assert bea.inner_text("#now h2").startswith("Roll a save for Bea")
    assert bea.locator("#asked-roll").bounding_box()["y"] < 400  # type: ignore[index]
    snap("1-asked", referee, bea)

    # a face a d20 cannot show is refused in words, and nothing is recorded
    before = referee.get_attribute("#display .display", "data-version")
    bea.fill("#asked-roll [name=rolled]", "25")
    bea.tap("#asked-roll button.big")
    refused = said(bea, "a d20 shows 1 to 20")
    assert not any(code in refused for code in ("400", "422")), refused
    assert referee.get_attribute("#display .display", "data-version") == before
    snap("2-refused", referee, bea)

    # her own dice show 18: sent as typed, her save recorded as her roll
    bea.fill("#asked-roll [name=rolled]", "18")
    bea.tap("#asked-roll button.big")
    assert "Bea saves (rolled by Bea's player)" in said(bea, "rolled by Bea's player")
    shows(referee, "#display .journal", "Bea saves against 18: 18, saves (rolled by Bea's player)")
    assert "d20 (18) = 18 (typed in)" in referee.inner_text("#display .journal")
    bea.wait_for_selector("#now:not([data-call='roll'])", timeout=FOLLOW_MS)
    assert bea.locator("#asked-roll").count() == 0
    assert "rolls asked" not in referee.inner_text("#display .tracker")
    snap("3-rolled", referee, bea)
    assert errors == []
