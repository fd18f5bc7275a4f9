"""A session at three screens (issue 26, "done when"): the referee at a laptop, two players at
their phones, each with their own link. A dungeon turn to an encounter; a fight in which both
players declare from their phones and the referee resolves; a day of travel chosen on the
map; then, in a DG campaign on the same server, a scene in which the players vote for the
spotlight. Every step leaves a screenshot of each screen in test-artefacts/ (story-*.png) when
``TURNKEEPER_SHOTS=1`` asks for them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from tests.browser.helpers import PARTY, SECRETS, SITE, Table, hand_link, line, shoot

from turnkeeper.campaign import parse_party
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.tokens import Role, issue_tokens

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

FOLLOW_MS = 3000


@pytest.fixture
def screens(browser: Browser) -> Iterator[tuple[Page, dict[str, Page]]]:
    """The referee's laptop, and a phone for Aldo's player and one for Bea's."""
    laptop = browser.new_context(viewport={"width": 1366, "height": 900})
    phones = {
        who: browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True)
        for who in ("Aldo", "Bea")
    }
    try:
        yield laptop.new_page(), {who: context.new_page() for who, context in phones.items()}
    finally:
        laptop.close()
        for context in phones.values():
            context.close()


def snap(step: str, referee: Page, phones: dict[str, Page]) -> None:
    """The step as each screen shows it: the laptop's window, and each phone whole."""
    shoot(referee, f"story-{step}-referee", whole=False)
    for who, phone in phones.items():
        shoot(phone, f"story-{step}-{who.lower()}")
        html = phone.content()
        assert not [marker for marker in SECRETS.values() if marker in html], (step, who)


def shows(page: Page, words: str) -> None:
    page.wait_for_function(
        "words => document.querySelector('#display').innerText.includes(words)",
        arg=words,
        timeout=FOLLOW_MS,
    )


def done(answer: str) -> str:
    assert answer.startswith("Done"), answer
    return answer


def hands(referee: Page, phones: dict[str, Page], link: str) -> None:
    """The referee's page at ``link``, and each player's own link on their phone."""
    referee.goto(link)
    for who, phone in phones.items():
        phone.goto(hand_link(referee, who))
        assert f"{who}'s player" in phone.inner_text("header")


def test_a_session_at_three_screens(table: Table, screens: tuple[Page, dict[str, Page]]) -> None:
    referee, phones = screens
    hands(referee, phones, table.link(Role.REFEREE))

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
    snap("1-encounter", referee, phones)

    # A fight: both players declare from their phones; the referee resolves.
    done(line(referee, "combat start --surprise none"))
    done(line(referee, "combat round"))
    for who, rat in (("Aldo", "giant rat 1"), ("Bea", "giant rat 2")):
        phone = phones[who]
        shows(phone, "round 1")
        phone.select_option("#now select[name=target]", rat)
        phone.click("#now form:has([name=target]) button.big")
        phone.wait_for_selector("#said > *", state="attached")
        assert f"{who} declares" in phone.inner_text("#said")
        shows(referee, f"{who} declares")
    snap("2-declared", referee, phones)
    done(line(referee, "combat resolve"))
    if referee.locator("#display .tracker .act").count():
        done(line(referee, "combat end"))
    shows(phones["Bea"], "the encounter ends")
    snap("3-resolved", referee, phones)

    # A day of travel chosen on the map: out of the crypt, a hex clicked, explored, camp.
    done(line(referee, "site leave"))
    # the map takes clicks once the page's script has made it ready (a display swapped in
    # a moment earlier holds a map that does not yet)
    referee.wait_for_selector(".map svg[data-zoomable]")
    referee.locator(".map svg text", has_text="0303").first.click()
    assert referee.input_value("#f-explore-target") == "0303"
    referee.eval_on_selector("#control-explore .outcome", "slot => { slot.innerHTML = '' }")
    referee.click("#control-explore button")
    referee.wait_for_selector("#control-explore .outcome > *", state="attached")
    done(referee.inner_text("#control-explore .outcome"))
    done(line(referee, "camp"))
    shows(phones["Aldo"], "0303")
    snap("4-travel", referee, phones)

    # A DG scene on the same server: the players vote for the spotlight from their phones.
    store = open_store(str(table.db))
    try:
        Campaigns(store).new("Hollow", preset("dg"), parse_party(PARTY), seed=5)
        hollow = Table(table.base, "Hollow", table.db, issue_tokens(store, "Hollow"))
    finally:
        store.close()
    hands(referee, phones, hollow.link(Role.REFEREE))
    done(line(referee, "scene open exploration --players Aldo,Bea"))
    for who in ("Aldo", "Bea"):
        phone = phones[who]
        shows(phone, "scene 1")
        phone.click("#now form:has([name=candidate][value=Bea]) button")
        phone.wait_for_selector("#said > *", state="attached")
        assert f"{who} votes for Bea" in phone.inner_text("#said")
        shows(referee, f"{who} for Bea")
    snap("5-votes", referee, phones)
    assert "Bea takes the spotlight" in done(line(referee, "scene spotlight"))
    shows(phones["Aldo"], "spotlight: Bea")
    snap("6-spotlight", referee, phones)
