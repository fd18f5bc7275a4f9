"""What the browser tests share: the campaign's secrets and site, the served table, shots."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = "/usr/bin/chromium"
ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artefacts"
SHOTS = os.environ.get("TURNKEEPER_SHOTS", "") not in ("", "0")
"""Whether the browser tests keep screenshots of their pages (``TURNKEEPER_SHOTS=1``). They
are for a person to look at and no test reads them; a run that keeps them spends about ten
CPU seconds more on drawing and encoding PNGs (a whole dashboard costs half a second)."""

SECRETS = {
    "referee note": "ZQREFEREENOTE",
    "site notes": "ZQSITENOTE",
    "area notes": "ZQAREANOTE",
}

PARTY = """
[[characters]]
name = "Aldo"
hp = 8
[[characters]]
name = "Bea"
hp = 6
[supplies]
torches = 3
rations = 6
water = 6
"""

#: A site whose wandering table answers every roll of its die: giant rats.
WANDERING = "".join(
    f'[[levels.encounters.rows]]\nroll = {n}\ncreature = "giant rat"\nnumber = "2"\n'
    'text = "Squeaking."\n'
    for n in range(1, 7)
)
SITE = f"""
[site]
name = "Old Crypt"
description = "Damp steps down."
notes = "{SECRETS["site notes"]}"
[[levels]]
number = 1
name = "Upper"
[levels.encounters]
dice = "d6"
{WANDERING}
[[levels.areas]]
key = "1"
name = "Stair"
description = "Worn steps."
notes = "{SECRETS["area notes"]}"
"""


@dataclass
class Table:
    """A campaign served over HTTP: where, its two links, and the store's file."""

    base: str
    name: str
    db: Path
    tokens: dict[Role, str]

    def link(self, role: Role) -> str:
        return f"{self.base}/campaigns/{self.name}?token={self.tokens[role]}"


def shoot(page: Page, name: str, whole: bool = True) -> Path:
    """Keep a screenshot of ``page`` in test-artefacts/ (for a person to look at) when
    :data:`SHOTS` asks for them: the whole page, or (``whole=False``) its window."""
    path = ARTEFACTS / f"{name}.png"
    if SHOTS:
        ARTEFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(path), full_page=whole)
    return path


def act(referee: Page, verb: str, fields: dict[str, str] | None = None, dice: str = "") -> str:
    """Fill one verb's form on the dashboard, send it, and answer what came back beside it."""
    form = f"#control-{verb}"
    summary = referee.locator(f"details:has({form}) > summary")
    if summary.count() and not referee.locator(form).is_visible():
        summary.click()  # a bulky verb is folded away until opened
    referee.eval_on_selector(f"{form} .outcome", "slot => { slot.innerHTML = '' }")
    for name, value in (fields or {}).items():
        referee.fill(f"#f-{verb}-{name}", value)
    if dice:
        referee.fill(f"#f-{verb}-dice", dice)
    referee.click(f"{form} button")
    # attached, not visible: a verb that takes the party elsewhere hides its own group
    referee.wait_for_selector(f"{form} .outcome > *", state="attached")
    return referee.inner_text(f"{form} .outcome")


def hand_link(referee: Page, character: str) -> str:
    """Make a character's own link on the referee's page, and answer it."""
    referee.select_option("#f-hand-character", character)
    referee.eval_on_selector("#hand-link .outcome", "slot => { slot.innerHTML = '' }")
    referee.click("#hand-link button")
    referee.wait_for_selector("#hand-link .outcome input.link")
    return referee.input_value("#hand-link .outcome input.link")


def line(referee: Page, text: str) -> str:
    """Run one line on the dashboard's command line, and answer what came back beside it."""
    referee.eval_on_selector("#command-line .outcome", "slot => { slot.innerHTML = '' }")
    referee.fill("#line", text)
    referee.press("#line", "Enter")
    referee.wait_for_selector("#command-line .outcome > *", state="attached")
    return referee.inner_text("#command-line .outcome")
