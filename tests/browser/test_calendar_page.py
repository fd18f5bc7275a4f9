"""The calendar's page in a browser (issue 43, item 6): the referee follows the dashboard's
link to the month, presses the months before and after it and asks for one by its number,
and a month that is not one is refused; the players' link opens their party's calendar.
axe-core finds nothing serious on either, and the players' fits a phone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.browser.helpers import Table
from tests.browser.test_where_tables_play import LAPTOP, PHONE, _blocking, _sideways, axe

from turnkeeper.campaign import AddSupply, Wait
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from playwright.sync_api import Browser

__all__ = ["axe"]  # (axe-core present, or every test here skipped, saying why)

DAY = 24 * 3600


def _into_month_2(table: Table) -> None:
    """The party waits into month 2 (a wait an encounter breaks is waited on)."""
    store = open_store(str(table.db))
    try:
        campaigns = Campaigns(store)
        for item in ("rations", "water"):
            campaigns.execute(table.name, AddSupply(item, 200))
        while campaigns.state(table.name).day < 35:
            campaigns.execute(table.name, Wait(35 * DAY - campaigns.state(table.name).now))
    finally:
        store.close()


def test_the_calendar_is_a_link_away_and_its_months_a_press_away(
    table: Table, browser: Browser
) -> None:
    _into_month_2(table)
    referee = browser.new_context(viewport=LAPTOP, bypass_csp=True).new_page()
    players = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True
    ).new_page()
    try:
        referee.goto(table.link(Role.REFEREE))
        referee.click("#calendar-link")
        referee.wait_for_selector("#calendar")
        assert "Month 1-02" in referee.inner_text("#calendar caption")
        assert _blocking(referee) == []
        referee.click("#month-before")
        referee.wait_for_selector("#calendar caption:has-text('Month 1-01')")
        assert _blocking(referee) == []
        referee.click("#month-after")
        referee.wait_for_selector("#calendar caption:has-text('Month 1-02')")
        referee.fill("#f-month", "1")
        referee.click("#month-form button")
        referee.wait_for_selector("#calendar caption:has-text('Month 1-01')")
        first = referee.inner_text("#calendar tbody tr:first-child")
        assert "at hex 0302" in first, first
        referee.fill("#f-month", "13")
        referee.click("#month-form button")
        referee.wait_for_selector("p.error")
        assert "no such month '13'" in referee.inner_text("p.error")
        referee.go_back()
        referee.click("#calendar-back")
        referee.wait_for_selector("#display .display")

        players.goto(table.link(Role.PLAYER))
        players.click("#calendar-link")
        players.wait_for_selector("#calendar")
        assert "the players' calendar" in players.inner_text("header")
        assert _sideways(players) == 0
        assert _blocking(players) == []
        players.click("#calendar-back")
        players.wait_for_selector("#display .display")
    finally:
        referee.context.close()
        players.context.close()
