"""Usable where tables play (issue 26, item 5): the players' page on a phone and the
referee's on a laptop, without scrolling sideways, and no serious or critical accessibility
violation that axe-core finds on either, in exploring, in a fight, beside a refusal and under
a character's time record.

axe-core comes from npm (``.ci/run`` installs the pinned version into ``node_modules``) and is
read from there into the page under test: nothing is fetched from the network. Without it
these tests are skipped, saying how to install it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from tests.browser.helpers import Table, act, shoot

from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 375, "height": 667}
LAPTOP = {"width": 1366, "height": 768}
#: What a violation may not be: axe's two worst impacts.
BLOCKING = ("serious", "critical")


@pytest.fixture(autouse=True)
def axe() -> None:
    if not AXE.is_file():
        pytest.skip(f"the accessibility tests need axe-core at {AXE}: npm install axe-core@4.14.1")


def _open(browser: Browser, table: Table, role: Role) -> Page:
    phone = role is Role.PLAYER
    context = browser.new_context(
        viewport=PHONE if phone else LAPTOP,
        is_mobile=phone,
        has_touch=phone,
        bypass_csp=True,  # the pages allow no inline script; axe is injected as one
    )
    page = context.new_page()
    page.goto(table.link(role))
    page.wait_for_selector("#display .display")
    return page


def _sideways(page: Page) -> int:
    """How far the page scrolls sideways, in CSS pixels (0: it fits its window)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))


def _blocking(page: Page) -> list[Any]:
    """axe-core's serious and critical violations on the page as it stands."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "axe.run().then(r => r.violations.map(v => ({id: v.id, impact: v.impact, "
        "nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)})))"
    )
    return [v for v in found if v["impact"] in BLOCKING]


def test_the_pages_fit_a_phone_and_a_laptop_and_axe_finds_nothing_serious(
    table: Table, browser: Browser
) -> None:
    players, referee = _open(browser, table, Role.PLAYER), _open(browser, table, Role.REFEREE)
    try:
        for moment in ("exploring", "a fight", "a refusal", "a character's record"):
            if moment == "a fight":
                referee.check("#every-control")
                act(referee, "combat_start", {"foes": "Goblin:hd=1,hp=4,ac=12,count=2"})
                act(referee, "damage", {"target": "Goblin 1", "amount": "9"})  # one fallen
                players.wait_for_selector(".combatants tr.down")
            elif moment == "a refusal":
                act(referee, "wait", {"duration": "a fortnight or so"})
            elif moment == "a character's record":
                referee.click("#character-record button")
                referee.wait_for_selector("#record-shown .record table.whereabouts td.when")
                # the whereabouts first; every line of the record a click away
                assert not referee.is_visible("#record-shown details table")
                referee.click("#record-shown details summary")
                referee.wait_for_selector("#record-shown details table td.when")
            for page, who in ((players, "players"), (referee, "referee")):
                assert _sideways(page) == 0, (who, moment)
                assert _blocking(page) == [], (who, moment)
        shoot(players, "players-phone")
        shoot(referee, "referee-laptop")
    finally:
        players.context.close()
        referee.context.close()
