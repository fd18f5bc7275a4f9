"""The players' phones (issue 40, "done when"): the referee at a laptop and two players on
phone-sized touch screens (390 x 844). A dungeon turn to an encounter; a fight in which the
players are called, pick their targets from menus and roll their own attacks on their phones,
one changes a declaration, and the referee resolves after seeing whom the table waits for; a
phone that loses its connection says so and catches up. Each step leaves a screenshot of every
screen in test-artefacts/ (phone-*.png) when ``TURNKEEPER_SHOTS=1`` asks for them, and every
player's screen fits a thumb at each step (tests.browser.thumb). Also the referee's tracker:
its row buttons send what they say."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from tests.browser.helpers import (
    ARTEFACTS,
    SECRETS,
    SHOTS,
    SITE,
    Table,
    act,
    hand_link,
    line,
    shoot,
)
from tests.browser.relay import Relay
from tests.browser.thumb import PHONE, measure

from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

FOLLOW_MS = 5000
README_SHOT = Path(__file__).resolve().parents[2] / "docs" / "players-phone.png"

#: A phone that records its buzzes: headless Chromium has no motor to ask.
BUZZ = """
window.buzzed = [];
Object.defineProperty(Navigator.prototype, "vibrate", {
  configurable: true, value: function (pattern) { window.buzzed.push(pattern); return true; },
});
"""


@pytest.fixture
def screens(browser: Browser) -> Iterator[tuple[Page, dict[str, Page]]]:
    """The referee's laptop, and a touch phone each for Aldo's player and Bea's."""
    laptop = browser.new_context(viewport={"width": 1366, "height": 900})
    phones = {
        who: browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        for who in ("Aldo", "Bea")
    }
    for context in phones.values():
        context.add_init_script(BUZZ)
    try:
        yield laptop.new_page(), {who: context.new_page() for who, context in phones.items()}
    finally:
        laptop.close()
        for context in phones.values():
            context.close()


def snap(step: str, referee: Page, phones: dict[str, Page]) -> None:
    """The step as each screen shows it; each phone keeps no secret and fits a thumb."""
    shoot(referee, f"phone-{step}-referee", whole=False)
    for who, phone in phones.items():
        shoot(phone, f"phone-{step}-{who.lower()}")
        shoot(phone, f"phone-{step}-{who.lower()}-screen", whole=False)
        html = phone.content()
        assert not [marker for marker in SECRETS.values() if marker in html], (step, who)
        found = measure(phone)
        assert found["small"] == [] and found["tiny"] == [], (step, who, found)
        assert found["sideways"] <= 0 and found["cut"] == [], (step, who, found)


def shows(page: Page, selector: str, words: str) -> None:
    page.wait_for_function(
        "([selector, words]) => { const found = document.querySelector(selector);"
        " return found !== null && found.innerText.includes(words); }",
        arg=[selector, words],
        timeout=FOLLOW_MS,
    )


def said(phone: Page, words: str) -> str:
    """What the phone answered its player's last choice, once it says ``words``."""
    shows(phone, "#said", words)
    return phone.inner_text("#said")


def test_a_session_on_the_players_phones(
    table: Table, screens: tuple[Page, dict[str, Page]]
) -> None:
    referee, phones = screens
    referee.goto(table.link(Role.REFEREE))
    relay = Relay(table.base)  # Aldo's phone's network, which the test cuts
    for who, phone in phones.items():
        link = hand_link(referee, who)
        phone.goto(relay.url(link) if who == "Aldo" else link)
        assert f"{who}'s player" in phone.inner_text("header")
        # nothing is asked outside a fight: no form at all, the sheet first
        assert phone.locator("#now form").count() == 0
        assert phone.get_attribute("body", "data-awake") in ("yes", "refused", "unsupported")
    snap("1-exploring", referee, phones)

    # A dungeon turn to an encounter: cautious turns in one click until one comes.
    referee.click("details:has(#control-site_enter) > summary")
    referee.fill("#f-site_enter-site_text", SITE)
    referee.fill("#f-site_enter-area", "1")
    referee.click("#control-site_enter button")
    referee.wait_for_selector("#display [data-turn-mode]")
    for _ in range(20):
        if "pending" in referee.inner_text("#display .site"):
            break
        referee.eval_on_selector("#control-turn .outcome", "slot => { slot.innerHTML = '' }")
        referee.click("#display [data-turn-mode='cautious']")
        referee.wait_for_selector("#control-turn .outcome > *", state="attached")
    assert "giant rat" in referee.inner_text("#display .site")
    snap("2-encounter", referee, phones)

    # The fight: each phone calls its player (a buzz, the title) and shows the order of play.
    assert line(referee, "combat start --surprise none").startswith("Done")
    assert line(referee, "combat round").startswith("Done")
    for who, phone in phones.items():
        phone.wait_for_selector("#now[data-call='declare']", timeout=FOLLOW_MS)
        phone.wait_for_selector("body[data-called='declare 1']", timeout=FOLLOW_MS)
        assert phone.title().startswith("● Your turn"), phone.title()
        assert phone.evaluate("window.buzzed.length") == 1, who
        order = phone.inner_text("#now .play-order")
        assert "giant rat 1" in order and who in order
        # the fight first on a phone: what is wanted, then the sheet, then the tracker
        assert phone.locator("#now").bounding_box()["y"] < 400  # type: ignore[index]
    shows(referee, "#display .waiting", "Aldo, Bea")
    snap("3-called", referee, phones)

    # Aldo rolls on his phone; a typo in Bea's dice is refused in words and goes once mended.
    aldo, bea = phones["Aldo"], phones["Bea"]
    aldo.select_option("#now select[name=target]", "giant rat 1")
    aldo.tap("#now [data-roll]")
    rolled = aldo.input_value("#now [name=rolled]")
    assert rolled.isdigit() and 1 <= int(rolled) <= 20, rolled
    aldo.tap("#now form:has([name=target]) button.big")
    assert f"Aldo declares: attack giant rat 1, rolling {rolled}" in said(aldo, "Aldo declares")
    bea.select_option("#now select[name=target]", "giant rat 2")
    bea.fill("#now [name=rolled]", "25")
    bea.tap("#now form:has([name=target]) button.big")
    refused = said(bea, "a d20 shows 1 to 20")
    assert not any(code in refused for code in ("400", "422")), refused
    assert bea.input_value("#now [name=rolled]") == "25"  # kept, to be mended
    snap("4-refused", referee, phones)
    bea.fill("#now [name=rolled]", "15")
    bea.tap("#now form:has([name=target]) button.big")
    assert "Bea declares: attack giant rat 2, rolling 15" in said(bea, "Bea declares")
    assert "d20" not in bea.inner_text("#said")  # the refusal went with the question
    # Bea changes her mind: the other rat, rolled again
    shows(bea, "#now .mine", "attack giant rat 2")
    bea.select_option("#now select[name=target]", "giant rat 1")
    bea.fill("#now [name=rolled]", "12")
    bea.tap("#now form:has([name=target]) button.big")
    changed = said(bea, "changes the declaration")
    assert "Bea changes the declaration to attack giant rat 1, rolling 12" in changed
    for phone in phones.values():
        shows(phone, "#now", "the party has declared")
        assert phone.title().startswith("Vale")  # nothing wanted now: the title is back
    shows(referee, "#display .tracker", "Bea: attack giant rat 1, rolling 12")
    snap("5-declared", referee, phones)
    if SHOTS:  # the README's picture, drawn again only when the screenshots are kept
        shutil.copyfile(ARTEFACTS / "phone-5-declared-bea-screen.png", README_SHOT)

    # The referee sees whom the table waits for (the rats alone), and resolves.
    waiting = referee.inner_text("#display .waiting")
    assert "giant rat" in waiting and "Aldo" not in waiting and "Bea" not in waiting
    assert line(referee, "combat resolve").startswith("Done")
    journal = referee.inner_text("#display .journal")
    assert f"d20 ({rolled}) = {rolled} (typed in)" in journal
    assert "d20 (12) = 12 (typed in)" in journal
    for phone in phones.values():
        shows(phone, "#display .journal", "Bea attacks giant rat 1")
    snap("6-resolved", referee, phones)

    # Aldo's phone loses its connection: a banner says so; back, it catches up.
    relay.cut()
    aldo.wait_for_selector("#connection.lost", state="visible", timeout=FOLLOW_MS)
    assert line(referee, "damage Aldo 1").startswith("Done")
    snap("7-offline", referee, phones)
    shows(bea, ".sheet", "Bea")
    assert "8 of 8" in aldo.inner_text(".sheet")  # the old state, under the banner
    relay.mend()
    aldo.wait_for_selector("#connection.back", state="visible", timeout=FOLLOW_MS * 4)
    shows(aldo, ".sheet", "7 of 8")
    snap("8-back", referee, phones)
    relay.close()


def test_the_trackers_row_buttons_send_damage_heal_and_attack(
    table: Table, browser: Browser
) -> None:
    """Issue 40: a foe's row takes 5 and its damage button; heal; an attack from Aldo's row.
    A variable named ``send`` once hid the function (``send is not a function``)."""
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    referee = context.new_page()
    errors: list[str] = []
    referee.on("pageerror", lambda error: errors.append(str(error)))
    try:
        referee.goto(table.link(Role.REFEREE))
        referee.check("#every-control")
        referee.click("details:has(#control-combat_start) > summary")
        referee.select_option("#f-combat_start-surprise", "none")
        act(referee, "combat_start", {"foes": "Goblin:hd=1,hp=9,ac=12,count=2"})
        act(referee, "combat_round", {})
        referee.fill("[data-amount-for='Goblin 1']", "5")
        referee.click("[data-hurt='Goblin 1']")
        shows(referee, "#display .journal", "Goblin 1 takes 5 damage: 4 hp")
        referee.fill("[data-amount-for='Goblin 1']", "2")
        referee.click("[data-mend='Goblin 1']")
        shows(referee, "#display .journal", "Goblin 1 heals 2")
        # whichever side has initiative, the foes are done: Aldo's blow is his turn (TP-CBT-1)
        assert line(referee, "combat announce-done foes").startswith("Done")
        referee.select_option("[data-attack-from='Aldo']", "Goblin 2")
        referee.click("[data-attack='Aldo']")
        referee.wait_for_selector("#control-combat_attack .outcome > *", state="attached")
        assert "Aldo attacks Goblin 2" in referee.inner_text("#control-combat_attack .outcome")
        assert errors == []
    finally:
        context.close()
