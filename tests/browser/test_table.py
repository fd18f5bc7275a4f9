"""The table in a real browser: the referee plays from the dashboard, the players' page follows.

Two windows over one real server: the referee's dashboard and the players' page beside it.
Every command the referee sends must reach the players' page by itself (no reload) within
about two seconds, and the players' page must never show a referee secret: a referee note,
a site's notes, a foe's armour class or hit points.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import expect
from tests.browser.helpers import SECRETS, SITE, Table, act, hand_link, shoot

from turnkeeper.campaign import Note
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from playwright.sync_api import APIResponse, Browser, Page, Route

FOLLOW_MS = 2000
"""How long the players' page may take to show a command (the promise is within a second)."""

VERSION = "Number(document.querySelector('#display .display').dataset.version)"


def shown_version(page: Page) -> int:
    return int(page.evaluate(VERSION))


def follows(players: Page, before: int) -> None:
    """The players' page moved past version ``before`` by itself, without a reload."""
    players.wait_for_function(f"v => {VERSION} > v", arg=before, timeout=FOLLOW_MS)


def no_secrets(players: Page) -> None:
    html = players.content()
    leaked = [what for what, marker in SECRETS.items() if marker in html]
    assert not leaked, f"the players' page shows {leaked}"


def play(referee: Page, players: Page, verb: str, fields: dict[str, str] | None = None) -> str:
    """One command from the dashboard, followed by the players' page; its answer."""
    before = shown_version(players)
    answer = act(referee, verb, fields)
    assert answer.startswith("Done"), (verb, answer)
    follows(players, before)
    no_secrets(players)
    return answer


def test_the_referee_plays_a_turn_a_fight_and_a_day_while_the_players_page_follows(
    table: Table, pages: tuple[Page, Page]
) -> None:
    referee, players = pages
    referee.goto(table.link(Role.REFEREE))
    players.goto(table.link(Role.PLAYER))
    loaded = players.evaluate("performance.timeOrigin")
    assert SECRETS["referee note"] in referee.content()
    no_secrets(players)

    # a dungeon turn
    play(referee, players, "site_enter", {"site_text": SITE})
    play(referee, players, "light")
    play(referee, players, "turn", {"mode": "cautious"})
    assert "Old Crypt" in players.inner_text(".site")
    expect(referee.locator(".group[data-place=site]")).to_be_visible()

    # a fight to its end: the foes' armour class and hit points stay the referee's
    play(referee, players, "combat_start", {"foes": "Goblin:hd=1,hp=37,ac=19,count=2"})
    expect(referee.locator(".group[data-place=fight]")).to_be_visible()
    play(referee, players, "combat_round")
    play(referee, players, "combat_attack", {"attacker": "Aldo", "target": "Goblin 1"})
    foe = players.locator(".tracker tr.opposition").first
    assert "Goblin 1" in foe.inner_text()
    assert "37" not in foe.inner_text() and "19" not in foe.inner_text()
    assert "19" in referee.locator(".tracker tr.opposition").first.inner_text()
    shoot(players, "players-fight")
    play(referee, players, "damage", {"target": "Goblin 1", "amount": "40", "reason": "a cleaver"})
    fallen = referee.locator(".tracker tr.opposition").first
    assert "down" in (fallen.get_attribute("class") or "")
    assert "down" in (foe.get_attribute("class") or "")
    shoot(referee, "referee-fight")
    # the last goblin down, the fight is over (PG-CBT-1): no tracker stays on either page,
    # and the journal says who won
    play(referee, players, "damage", {"target": "Goblin 2", "amount": "40", "reason": "a cleaver"})
    expect(referee.locator(".tracker tr")).to_have_count(0)
    expect(players.locator(".tracker tr")).to_have_count(0)
    assert "no fight" in players.inner_text(".tracker")
    assert "combat over: party wins" in referee.inner_text(".journal")

    # a day of travel on the generated map
    play(referee, players, "site_leave")
    expect(referee.locator(".group[data-place=wilderness]")).to_be_visible()
    expect(referee.locator(".group[data-place=site]")).to_be_hidden()
    hex_before = players.inner_text(".wilderness")
    play(referee, players, "travel", {"target": "n"})  # a hex, or partway into a costly one
    assert players.inner_text(".wilderness") != hex_before
    play(referee, players, "camp")
    assert "(day 2)" in players.inner_text(".meta")

    # the players' page was never reloaded: it followed all of that by itself
    assert players.evaluate("performance.timeOrigin") == loaded
    shoot(referee, "referee-dashboard")
    shoot(players, "players-page")
    no_secrets(players)


def test_an_error_shows_beside_its_form_and_the_form_keeps_what_was_typed(
    table: Table, pages: tuple[Page, Page]
) -> None:
    referee, _ = pages
    referee.goto(table.link(Role.REFEREE))
    answer = act(referee, "wait", {"duration": "a fortnight or so"}, dice="3")
    assert answer.startswith("400") and "duration" in answer, answer
    assert referee.input_value("#f-wait-duration") == "a fortnight or so"
    assert referee.input_value("#f-wait-dice") == "3"
    assert referee.url == table.link(Role.REFEREE)  # no redirect away from the dashboard
    answer = act(referee, "wait", {"duration": "1 turn"}, dice="3, 4")
    assert answer.startswith("400") and "left over" in answer, answer
    shoot(referee, "referee-error")


def test_a_command_from_another_process_reaches_the_open_pages_without_losing_a_form(
    table: Table, pages: tuple[Page, Page]
) -> None:
    referee, players = pages
    referee.goto(table.link(Role.REFEREE))
    players.goto(table.link(Role.PLAYER))
    referee.fill("#f-note-text", "half a note, typed while the table moves")
    before = shown_version(players)
    cli = Path(sys.executable).with_name("turnkeeper")
    subprocess.run(
        [str(cli), "wait", "2 turns", "--db", str(table.db)],
        check=True,
        capture_output=True,
        env={**os.environ, "TURNKEEPER_DB": str(table.db)},
    )
    follows(players, before)
    follows(referee, before)
    assert referee.input_value("#f-note-text") == "half a note, typed while the table moves"


def test_a_new_players_link_shuts_the_old_one_and_the_front_door_opens_the_new(
    table: Table, pages: tuple[Page, Page]
) -> None:
    referee, players = pages
    referee.goto(table.link(Role.REFEREE))
    players.goto(f"{table.base}/")
    assert "Paste the link" in players.inner_text("body") or "link" in players.inner_text("h1, p")
    assert table.tokens[Role.PLAYER] not in players.content()
    players.fill("#link", table.link(Role.PLAYER))
    players.click("form.open button")
    players.wait_for_selector("#display .display")

    referee.once("dialog", lambda dialog: dialog.accept())
    referee.click("#player-link button")
    referee.wait_for_selector("#player-link .outcome input.link")
    fresh = referee.input_value("#player-link .outcome input.link")
    assert fresh.startswith(f"{table.base}/campaigns/Vale?token=") and fresh != table.link(
        Role.PLAYER
    )

    # the old page is shut at once, before the table moves (issue 26: it kept showing the
    # table until the next command); the referee's own link still works
    players.wait_for_selector(".revoked .problem", timeout=FOLLOW_MS)
    assert referee.locator(".revoked .problem").count() == 0
    assert referee.goto(table.link(Role.REFEREE)).status == 200  # type: ignore[union-attr]
    assert players.goto(table.link(Role.PLAYER)).status == 401  # type: ignore[union-attr]
    assert players.goto(fresh).status == 200  # type: ignore[union-attr]


UNDER = """([x, y]) => {
    const svg = document.querySelector('.map svg');
    const point = svg.createSVGPoint(); point.x = x; point.y = y;
    const at = point.matrixTransform(svg.getScreenCTM().inverse());
    return [at.x, at.y, svg.viewBox.baseVal.width];
}"""


def test_the_map_zooms_around_the_pointer_pans_and_keeps_its_view_through_updates(
    table: Table, pages: tuple[Page, Page]
) -> None:
    referee, players = pages
    players.goto(table.link(Role.PLAYER))
    referee.goto(table.link(Role.REFEREE))
    where = players.locator(".map svg").bounding_box()
    assert where is not None
    x, y = where["x"] + where["width"] / 2, where["y"] + where["height"] / 2
    before = players.evaluate(UNDER, [x, y])
    players.mouse.move(x, y)
    players.mouse.wheel(0, -300)  # zoom in
    players.wait_for_function(
        f"document.querySelector('.map svg').viewBox.baseVal.width < {before[2]}"
    )
    after = players.evaluate(UNDER, [x, y])
    assert abs(after[0] - before[0]) < 1 and abs(after[1] - before[1]) < 1  # the hex stays put
    players.mouse.down()
    players.mouse.move(x + 40, y + 10)
    players.mouse.up()
    panned = players.evaluate(UNDER, [x, y])
    assert panned[0] < after[0] - 5  # the map moved with the pointer
    zoomed = panned[2]
    shown = shown_version(players)
    play(referee, players, "note", {"text": "a crow circles the party"})
    assert shown_version(players) > shown
    assert players.evaluate(UNDER, [x, y])[2] == zoomed  # the live update kept the view
    players.locator(".map svg").focus()
    players.keyboard.press("0")
    assert players.evaluate(UNDER, [x, y])[2] == before[2]


def test_damage_typed_as_dice_on_the_dashboard_rolls_them(
    table: Table, pages: tuple[Page, Page]
) -> None:
    """Issue 24: the dashboard's amount takes dice like the command line's; ``2d6`` with the
    physical dice 3 and 4 deals 7 (it once read as 26)."""
    referee, players = pages
    referee.goto(table.link(Role.REFEREE))
    players.goto(table.link(Role.PLAYER))
    answer = act(referee, "damage", {"target": "Aldo", "amount": "2d6"}, dice="3, 4")
    assert answer.startswith("Done"), answer
    assert "takes 7 damage" in answer, answer
    answer = act(referee, "heal", {"target": "Aldo", "amount": "1d6+1"}, dice="2")
    assert "heals 3" in answer, answer


def test_a_late_answer_never_replaces_the_newer_display_of_the_live_stream(
    table: Table, pages: tuple[Page, Page]
) -> None:
    """Issue 26: a form's answer carries the display after its command, and the live stream
    brings it too. Here the answer is held back until the stream has shown a newer move (a
    command from another process): the answer's display must neither replace the newer one
    nor show as markup (it once came escaped, its HTML as text)."""
    referee, _ = pages
    referee.goto(table.link(Role.REFEREE))
    held: list[tuple[Route, APIResponse]] = []
    referee.route("**/commands?*", lambda route: held.append((route, route.fetch())))
    referee.fill("#f-note-text", "the answer to this comes late")
    referee.click("#control-note button")
    while not held:  # the command has run on the server; its answer is held here
        referee.wait_for_timeout(20)
    cli = Path(sys.executable).with_name("turnkeeper")
    moved = subprocess.run(
        [str(cli), "wait", "2 turns", "--db", str(table.db), "--json"],
        check=True,
        capture_output=True,
        text=True,
    )
    newest = json.loads(moved.stdout)["version"]
    referee.wait_for_function(f"v => {VERSION} >= v", arg=newest, timeout=FOLLOW_MS)
    route, response = held[0]
    route.fulfill(response=response)
    referee.wait_for_selector("#control-note .outcome .done")
    assert shown_version(referee) == newest
    shown = referee.inner_text("#display")
    assert "data-version" not in shown and "<div" not in shown, shown[:200]
    assert referee.locator("#display .display table").count() > 0


def test_a_form_is_back_to_its_defaults_once_its_command_ran(
    table: Table, pages: tuple[Page, Page]
) -> None:
    """Issue 26: a box left ticked went out with the next command (Bea's "ranged" made the
    Ogre's next attack a shot). After a command that ran, its form is as the page drew it;
    after a refusal, it keeps what was typed (the test above)."""
    referee, _ = pages
    referee.goto(table.link(Role.REFEREE))
    referee.check("#f-note-referee")
    answer = act(referee, "note", {"text": "the referee's own"})
    assert answer.startswith("Done"), answer
    assert not referee.is_checked("#f-note-referee")
    assert referee.input_value("#f-note-text") == ""
    answer = act(referee, "note", {"text": "for everyone"})
    assert "referee" not in answer.lower(), answer


def test_the_journal_pages_back_to_the_first_record(table: Table, pages: tuple[Page, Page]) -> None:
    """Issue 26: the journal showed its latest 40 lines and no more. Both pages now ask for
    the lines before the oldest shown, a page at a time, down to the first record; a move of
    the table brings the newest back without a gap."""
    referee, players = pages
    store = open_store(str(table.db))  # another process's hundred notes: three pages
    try:
        elsewhere = Campaigns(store)
        for number in range(100):
            elsewhere.execute(table.name, Note(f"note {number}"))
    finally:
        store.close()
    referee.goto(table.link(Role.REFEREE))
    players.goto(table.link(Role.PLAYER))
    for page in (referee, players):
        seqs = "[...document.querySelectorAll('.journal li[data-seq]')].map(l => +l.dataset.seq)"
        shown = page.evaluate(seqs)
        assert 1 not in shown
        while page.locator("button#older-journal").count():
            before = len(page.evaluate(seqs))
            page.click("button#older-journal")
            page.wait_for_function(
                "n => document.querySelectorAll('.journal li[data-seq]').length > n"
                " || !document.querySelector('button#older-journal')",
                arg=before,
            )
        every = page.evaluate(seqs)
        assert every == sorted(every, reverse=True) and every[-1] == 1
        assert "the first record is shown" in page.inner_text(".older")
    no_secrets(players)
    # a move clears the older lines, which would leave a gap, and offers them again
    before = shown_version(players)
    act(referee, "note", {"text": "after the paging"})
    follows(players, before)
    assert players.locator("#older-lines li").count() == 0
    assert players.locator("button#older-journal").count() == 1


HEX_ON_SCREEN = """label => {
    const svg = document.querySelector('.map svg');
    const col = parseInt(label.slice(0, 2), 10), row = parseInt(label.slice(2), 10);
    const size = 20, x = size * (1 + 1.5 * col);
    const y = size * Math.sqrt(3) * (0.5 + row + 0.5 * (col & 1));
    const point = svg.createSVGPoint(); point.x = x; point.y = y;
    const at = point.matrixTransform(svg.getScreenCTM());
    return [at.x, at.y];
}"""


def test_a_hex_chosen_on_the_map_is_where_the_party_travels(
    table: Table, pages: tuple[Page, Page]
) -> None:
    """Issue 26: travel by choosing a hex. A click (not a drag) on a hex of the referee's map
    puts its number into Travel and Explore; the party then explores toward it."""
    referee, players = pages
    referee.goto(table.link(Role.REFEREE))
    players.goto(table.link(Role.PLAYER))
    x, y = referee.evaluate(HEX_ON_SCREEN, "0303")
    referee.mouse.click(x, y)
    assert referee.input_value("#f-travel-target") == "0303"
    assert referee.input_value("#f-explore-target") == "0303"
    assert "hex 0303 chosen" in referee.inner_text("#chosen-hex")
    # its route is priced beside the map: days, TP and hexes by the best route
    referee.wait_for_function(
        "() => document.querySelector('#chosen-hex').innerText.includes('TP by the best route')"
    )
    assert "1 day, 1 TP by the best route (1 hex)" in referee.inner_text("#chosen-hex")
    # issue 40: the move that works is offered (0303 is no known destination: explore), the
    # hex is marked and its route drawn, from the party's hex to it
    assert "Explore toward it: not a known destination" in referee.inner_text("#chosen-hex")
    assert referee.locator("#chosen-mark").count() == 1
    assert len(referee.get_attribute("#chosen-route", "points").split()) == 2
    # a drag pans the map and chooses nothing
    x, y = referee.evaluate(HEX_ON_SCREEN, "0402")
    referee.mouse.move(x, y)
    referee.mouse.down()
    referee.mouse.move(x + 40, y + 30, steps=4)
    referee.mouse.up()
    assert referee.input_value("#f-travel-target") == "0303"
    before = shown_version(players)
    answer = act(referee, "explore", {})
    assert answer.startswith("Done") and "toward hex 0303" in answer, answer
    follows(players, before)
    # the players' map chooses nothing: they have no forms
    players.mouse.click(*players.evaluate(HEX_ON_SCREEN, "0302"))
    assert players.locator("#chosen-hex").count() == 0


def test_two_players_declare_from_their_own_pages_and_the_referee_resolves(
    table: Table, pages: tuple[Page, Page], browser: Browser
) -> None:
    """Issue 26, the players' hands: the referee makes a link for Aldo and one for Bea; in a
    third and fourth window their players declare from their own pages, the referee sees
    each declaration arrive and resolves the round."""
    referee, _ = pages
    referee.goto(table.link(Role.REFEREE))
    links = {character: hand_link(referee, character) for character in ("Aldo", "Bea")}
    referee.check("#every-control")
    referee.click("details:has(#control-combat_start) > summary")
    referee.select_option("#f-combat_start-surprise", "none")
    act(referee, "combat_start", {"foes": "Goblin:hd=1,hp=4,ac=12,count=2"})
    act(referee, "combat_round", {})
    hands: dict[str, Page] = {}
    try:
        for character, link in links.items():
            context = browser.new_context(viewport={"width": 375, "height": 667}, is_mobile=True)
            hands[character] = context.new_page()
            hands[character].goto(link)
            assert f"{character}'s player" in hands[character].inner_text("header")
        for character, target in (("Aldo", "Goblin 1"), ("Bea", "Goblin 2")):
            hand = hands[character]
            hand.select_option("#now select[name=target]", target)
            hand.click("#now form:has([name=target]) button.big")
            hand.wait_for_selector("#said > *", state="attached")
            said = hand.inner_text("#said")
            assert f"{character} declares" in said, said
            referee.wait_for_function(
                "who => document.querySelector('#display').innerText.includes(who + ' declares')",
                arg=character,
                timeout=FOLLOW_MS,
            )
        shoot(hands["Bea"], "players-hand")
        answer = act(referee, "combat_resolve", {})
        assert answer.startswith("Done"), answer
        for hand in hands.values():
            no_secrets(hand)
    finally:
        for hand in hands.values():
            hand.context.close()


def test_a_dungeon_turn_in_one_click_with_its_mode(table: Table, pages: tuple[Page, Page]) -> None:
    """Issue 26: in a site, the site panel offers a turn in each of the ruleset's movement
    modes; one click sends the Dungeon turn form with that mode."""
    referee, players = pages
    referee.goto(table.link(Role.REFEREE))
    players.goto(table.link(Role.PLAYER))
    referee.click("details:has(#control-site_enter) > summary")
    referee.fill("#f-site_enter-site_text", SITE)
    referee.fill("#f-site_enter-area", "1")
    referee.click("#control-site_enter button")
    referee.wait_for_selector("#display [data-turn-mode]")
    # the site's key beside it: the area the party stands in, its notes, the wandering table
    key = referee.inner_text("#display .site-key")
    assert "1. Stair: Worn steps." in key and SECRETS["area notes"] in referee.content()
    assert "wandering (d6)" in key
    before = shown_version(players)
    referee.click("#display [data-turn-mode='running']")
    referee.wait_for_selector("#control-turn .outcome > *", state="attached")
    said = referee.inner_text("#control-turn .outcome")
    assert said.startswith("Done") and "running" in said, said
    follows(players, before)
    assert "(running)" in referee.inner_text("#display .site")


def test_the_command_line_takes_plays_verbs_with_tab_and_the_keys(
    table: Table, pages: tuple[Page, Page]
) -> None:
    """Issue 26, item 2: "/" comes to the command line, Tab completes as play's does (the
    verb, then the living by name), Enter runs the line and the players' page follows; a line
    that cannot be read is refused beside it and kept, and the up arrow brings back the last
    line sent."""
    referee, players = pages
    referee.goto(table.link(Role.REFEREE))
    players.goto(table.link(Role.PLAYER))
    before = shown_version(players)
    referee.locator("body").press("/")
    assert referee.evaluate("() => document.activeElement.id") == "line"
    referee.keyboard.type("dam")
    referee.wait_for_function("() => document.querySelectorAll('#line-words option').length > 0")
    referee.keyboard.press("Tab")
    assert referee.input_value("#line") == "damage "
    referee.wait_for_function(
        "() => [...document.querySelectorAll('#line-words option')].some("
        "o => o.value === 'damage Bea')"
    )
    referee.keyboard.type("Be")
    referee.keyboard.press("Tab")
    assert referee.input_value("#line") == "damage Bea "
    referee.keyboard.type("2")
    referee.keyboard.press("Enter")
    referee.wait_for_selector("#command-line .outcome .done")
    assert "Bea takes 2" in referee.inner_text("#command-line .outcome")
    assert referee.input_value("#line") == ""
    follows(players, before)
    no_secrets(players)
    referee.keyboard.type("fly north")
    referee.keyboard.press("Enter")
    referee.wait_for_selector(
        "#command-line .outcome .problem, #command-line .outcome [role=alert]"
    )
    assert "names no verb here" in referee.inner_text("#command-line .outcome")
    assert referee.input_value("#line") == "fly north"
    referee.fill("#line", "")
    referee.keyboard.press("ArrowUp")
    assert referee.input_value("#line") == "fly north"
    shoot(referee, "command-line")


def test_a_page_that_connects_late_is_sent_the_parts_that_changed(
    table: Table, pages: tuple[Page, Page]
) -> None:
    """Issue 23: the players' page is drawn at version v; its live stream connects only after
    a note was written by another process. It is sent the parts that changed (the journal,
    the bar), which take their places: the map it already shows is not drawn again."""
    _, players = pages
    held: list[Route] = []
    players.route("**/live?**", lambda route: held.append(route), times=1)
    players.goto(table.link(Role.PLAYER))
    players.wait_for_function("() => document.querySelector('.map svg') !== null")
    players.evaluate("() => { document.querySelector('.map svg').dataset.kept = 'yes'; }")
    before = shown_version(players)
    store = open_store(str(table.db))
    try:
        Campaigns(store).execute(table.name, Note("the bridge is out"))
    finally:
        store.close()
    players.wait_for_timeout(100)  # the held stream has been asked for
    assert held, "the page asks for its live stream"
    held[0].continue_()
    follows(players, before)
    assert "the bridge is out" in players.inner_text("#display .journal")
    assert players.evaluate("() => document.querySelector('.map svg').dataset.kept") == "yes"
    assert players.inner_html("#parts") == ""
    no_secrets(players)


def test_the_answer_to_a_form_moves_the_referees_page_by_its_parts(
    table: Table, pages: tuple[Page, Page]
) -> None:
    """Issue 41: the answer to the referee's own form carries the parts that changed since
    the version the page showed, which take their places: the page shows the new version and
    line, its map is not drawn again, and nothing of the answer's parts is left beside the
    form."""
    referee, _ = pages
    referee.goto(table.link(Role.REFEREE))
    referee.wait_for_function("() => document.querySelector('.map svg') !== null")
    referee.evaluate("() => { document.querySelector('.map svg').dataset.kept = 'yes'; }")
    before = shown_version(referee)
    answer = act(referee, "note", {"text": "the answer brings this line"})
    assert answer.startswith("Done"), answer
    referee.wait_for_function(f"v => {VERSION} > v", arg=before, timeout=FOLLOW_MS)
    assert "the answer brings this line" in referee.inner_text("#display .journal")
    assert referee.evaluate("() => document.querySelector('.map svg').dataset.kept") == "yes"
    assert referee.locator("#control-note .outcome .parts").count() == 0
