"""Fixtures for the browser tests: a real server over a temp SQLite store, and Chromium.

The server is uvicorn in a thread on a free localhost port, serving a ``tp`` campaign with a
generated wilderness map loaded and a referee note planted; the browser is Debian's Chromium
driven by Playwright. Without ``/usr/bin/chromium`` every test here is skipped, saying so
(``.ci/run`` installs it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from tests.browser.helpers import CHROMIUM, PARTY, SECRETS, Table
from tests.conftest import serving

from turnkeeper.campaign import Note, Visibility, parse_party
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.lanes import Lanes
from turnkeeper.web.tokens import issue_tokens
from turnkeeper.world.generate import generate_map
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile, map_to_data

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture(autouse=True)
def chromium() -> None:
    """Skip, saying why, on a machine without Debian's Chromium (``.ci/run`` installs it)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"the browser tests need Chromium at {CHROMIUM}: apt-get install -y chromium")


@pytest.fixture(scope="session")
def lanes() -> Iterator[Lanes]:
    """The route and map workers every server of this test process shares: a server's own
    are spawned at its first route priced, a second of CPU each (and seconds of a test's
    time on a busy machine)."""
    shared = Lanes()
    try:
        yield shared
    finally:
        shared.close()


@pytest.fixture
def table(tmp_path: Path, lanes: Lanes) -> Iterator[Table]:
    """A ``tp`` campaign with a generated map loaded, served by uvicorn on a free port."""
    from turnkeeper.web.app import create_app

    db = tmp_path / "table.db"
    store = open_store(str(db))
    campaigns = Campaigns(store)
    campaigns.new("Vale", preset("tp"), parse_party(PARTY), seed=11)
    hexmap = MapFile.model_validate(map_to_data(generate_map(8, 6, seed=3)))
    campaigns.execute("Vale", LoadMap(hexmap, Hex.from_label("0302")))
    campaigns.execute("Vale", Note(f"{SECRETS['referee note']}: the duke", Visibility.REFEREE))
    store.set_current("Vale")
    tokens = issue_tokens(store, "Vale")

    try:
        with serving(create_app(campaigns, lanes=lanes)) as url:
            yield Table(url, "Vale", db, tokens)
    finally:
        store.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, without the background chatter a test does not need.

    Per module, not per session: Playwright's sync API keeps an event loop running in the
    worker's thread while it is open, and a test of another module that a worker runs
    later (``play``'s prompt calls ``asyncio.run``) must find none."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                # each window (a context) otherwise loads the address bar's popup as two
                # WebUI pages in a renderer of their own, about a CPU second a context that
                # no test looks at (Chromium merges this list with Playwright's own)
                "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
            ],
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def pages(browser: Browser) -> Iterator[tuple[Page, Page]]:
    """Two browser windows side by side: the referee's and the players'."""
    referee = browser.new_context(viewport={"width": 1400, "height": 1000})
    players = browser.new_context(viewport={"width": 1000, "height": 900})
    try:
        yield referee.new_page(), players.new_page()
    finally:
        referee.close()
        players.close()
