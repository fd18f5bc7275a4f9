"""Made for a thumb (issue 40, item 4): what a page offers a finger, measured in the browser.

:data:`MEASURE` runs in a page and answers its controls under 44 CSS px either way (a box
ticked through its label is measured as the label, which takes the touch), its form fields
whose text is under 16 px (a phone's browser zooms in on those), how far the page scrolls
sideways, and the tables wider than the box they sit in (cut off). The browser tests assert
each is none on every player's screen at every step; ``python -m tests.browser.thumb URL...``
prints the same counts for pages already served.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

PHONE = {"width": 390, "height": 844}
"""A phone's screen in CSS pixels (an iPhone 12 to 15)."""

MEASURE = """() => {
  const shown = el => {
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden";
  };
  const named = el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    (el.name ? "[name=" + el.name + "]" : "") + " " + (el.innerText || el.value || "").slice(0, 20);
  const controls = [...document.querySelectorAll(
    "button, input:not([type=hidden]), select, textarea, a[href], summary")].filter(shown);
  const ticked = "input[type=checkbox], input[type=radio]";
  const target = el => (el.matches(ticked) && el.closest("label")) || el;
  const small = controls.filter(el => {
    const box = target(el).getBoundingClientRect();
    return box.width < 44 || box.height < 44;
  });
  const fields = controls.filter(el => el.matches("input, select, textarea"));
  const tiny = fields.filter(el => parseFloat(getComputedStyle(el).fontSize) < 16);
  const cut = [...document.querySelectorAll("table")].filter(shown).filter(
    table => table.getBoundingClientRect().width > table.parentElement.clientWidth + 1);
  return {
    controls: controls.length,
    small: small.map(el => {
      const box = target(el).getBoundingClientRect();
      return named(el) + " " + Math.round(box.width) + "x" + Math.round(box.height);
    }),
    fields: fields.length,
    tiny: tiny.map(el => named(el) + " " + getComputedStyle(el).fontSize),
    sideways: document.documentElement.scrollWidth - window.innerWidth,
    cut: cut.map(table => table.className + " " + Math.round(table.getBoundingClientRect().width)),
  };
}"""


def measure(page: Page) -> dict[str, Any]:
    """The page's thumb measure (:data:`MEASURE`) as it stands."""
    found: dict[str, Any] = page.evaluate(MEASURE)
    return found


def fits_a_thumb(page: Page) -> bool:
    """No control under 44 px, no field under 16 px, nothing wider than the screen."""
    found = measure(page)
    return not (found["small"] or found["tiny"] or found["sideways"] > 0 or found["cut"])


def main(links: list[str]) -> int:
    """Open each link on a phone-sized touch screen and print its counts."""
    from playwright.sync_api import sync_playwright
    from tests.browser.helpers import CHROMIUM

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            for link in links:
                context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
                page = context.new_page()
                page.goto(link)
                page.wait_for_selector("#display .display")
                found = measure(page)
                print(
                    f"{link}: {found['controls']} controls, {len(found['small'])} under 44 px; "
                    f"{found['fields']} fields, {len(found['tiny'])} under 16 px; "
                    f"{found['sideways']} px sideways; {len(found['cut'])} tables cut off"
                )
                for line in found["small"] + found["tiny"] + found["cut"]:
                    print("  ", line)
                context.close()
        finally:
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
