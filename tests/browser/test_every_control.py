"""Every control is tested by pressing it (issue 40, item 6).

In each situation a table meets (a site, the wilderness with a map, a fight, a DG scene, a
world of two parties) the referee's dashboard and a player's own screen are walked: every
control the page shows is found in the page itself, never listed here, so a control added
later cannot escape. Each is filled with valid input for the situation (:data:`FILL`, by verb;
:data:`PHONE_FILL`, by the phone's choice), pressed, and must either record a command (the
journal's version moves) or show a refusal beside it, with no page error; the table is then
put back as it was (an undo) before the next. A control the walk does not know how to fill
or press fails the test, naming it. axe-core finds nothing serious or critical on either page
once it has been walked.

With ``TURNKEEPER_SHOTS=1`` screenshots of both pages in each situation go to test-artefacts/
(every-control-*.png).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from tests.browser.helpers import ARTEFACTS, SITE, Table, shoot
from tests.browser.test_where_tables_play import AXE, _blocking
from tests.browser.thumb import PHONE
from tests.conftest import serving

from turnkeeper.campaign import parse_party
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.lanes import Lanes
from turnkeeper.web.tokens import Role, issue_tokens
from turnkeeper.world.generate import generate_map
from turnkeeper.world.mapfile import map_to_data

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

SITUATIONS = ("site", "wilderness", "fight", "scene", "world")
FOLLOW_MS = 10_000
#: The walk's calls to the served table go straight to it, whatever proxy the machine has.
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))

PARTY = """
[[characters]]
name = "Aldo"
hp = 8
[[characters]]
name = "Bea"
hp = 6
[[characters]]
name = "Cato"
hp = 5
[supplies]
torches = 3
rations = 6
water = 6
"""
FACTIONS = '[[factions]]\nname = "Red Hand"\ngoal = "the keep"\nsegments = 4'
MAP = json.dumps({"name": "Moor", "width": 3, "height": 2, "terrain": ["ppp", "ppp"]})
FOES = "Goblin:hd=1,hp=9,ac=12,count=2"

#: A valid value for each field of each verb's form on the dashboard, by verb. A verb with no
#: entry fails the walk (a new control must be given one); a required field must be here; an
#: optional one left out keeps what the page drew. ``True`` ticks a box.
FILL: dict[str, dict[str, str | bool]] = {
    "wait": {"duration": "1 turn"},
    "rest": {"turns": "1"},
    "light": {"source": "torch"},
    "supply_use": {"item": "rations"},
    "supply_add": {"item": "rations", "amount": "2"},
    "damage": {"target": "Aldo", "amount": "1", "reason": "a fall"},
    "heal": {"target": "Aldo", "amount": "1"},
    "note": {"text": "the door was ajar", "referee": True},
    "undo": {},
    "redo": {},
    "countdown_add": {"name": "torrent", "kind": "short", "length": "4"},
    "countdown_tick": {"name": "flood"},
    "countdown_outcome": {"name": "flood", "outcome": "partial"},
    "countdown_end": {"name": "flood"},
    "countdown_trigger": {"trigger": "wound"},
    "party_split": {"name": "Red Band", "characters": "Bea"},
    "party_new": {"name": "Newcomers", "party_text": '[[characters]]\nname = "Eve"\nhp = 5'},
    "party_switch": {"name": "Grey Band"},
    "party_join": {"name": "Grey Band"},
    "party_share": {"name": "Grey Band"},
    "party_doing": {"doing": "riding to the oracle", "to": "the oracle"},
    "party_forward": {"days": "1"},
    "site_enter": {"site_text": SITE, "area": "1"},
    "turn": {"mode": "cautious"},
    "site_leave": {},
    "site_clear": {"area": "1"},
    "site_resume": {"fought": True},
    "map_note": {"text": "rats here", "area": "1"},
    "map_load": {"map": MAP, "at": "0000"},
    "travel": {"target": "n"},
    "explore": {"target": "se"},
    "search": {},
    "camp": {},
    "weather_set": {"weather": "rain"},
    "weather_roll": {},
    "map_reveal": {"hexes": "0304"},
    "map_hide": {"hexes": "0304"},
    "map_clear": {"hex": "0302", "what": "slew the wyrm in"},
    "combat_start": {"foes": FOES, "surprise": "none"},
    "combat_round": {},
    "combat_declare": {"actor": "Aldo", "action": "attack", "target": "Goblin 1"},
    "combat_resolve": {},
    "combat_surrender": {"names": "Goblin 1"},
    "combat_attack": {"attacker": "Aldo", "target": "Goblin 1"},
    "combat_check": {"actor": "Aldo", "stat": "STR", "defence": "12"},
    "combat_save": {"name": "Goblin 1"},
    "combat_ask": {"name": "Bea", "roll": "check", "stat": "STR", "defence": "12"},
    # nobody is asked yet (the ask pressed before it was undone): refused, saying so
    "combat_rolled": {"name": "Bea", "rolled": "14"},
    "combat_announce_done": {"side": "foes"},
    "combat_pin": {"name": "Aldo", "place": "1"},
    "combat_end": {"winner": "party"},
    "scene_open": {"kind": "exploration", "players": "Aldo, Bea"},
    "scene_vote": {"voter": "Aldo", "candidate": "Bea"},
    "scene_spotlight": {},
    "scene_act": {"player": "Aldo", "what": "leaps the gap", "outcome": "success"},
    "scene_free": {"actor": "Aldo", "what": "draws a knife"},
    "scene_gm": {"what": "roars"},
    "scene_give": {"giver": "Aldo", "receiver": "Bea", "count": "1"},
    "dread_spend": {"amount": "1", "what": "strikes twice"},
    "scene_compromise": {"player": "Aldo"},
    "scene_close": {},
    "faction_load": {"factions_text": FACTIONS},
    "faction_reveal": {"faction": "Red Hand", "deed": "1"},
    "haven": {"character": "Aldo", "activity": "work"},
    "domain_grant": {"character": "Aldo", "hex": "0302", "name": "Ford"},
    # no domain is held (the grant pressed before it was undone): refused, saying so
    "domain_collect": {"domain": "Ford", "amount": "5"},
    "domain_drop": {"domain": "Ford", "reason": "sold to the abbey"},
    "world_catch_up": {"today": "2026-11-29"},
}

#: Where a situation needs another value than :data:`FILL`'s, by situation and verb.
FILL_IN: dict[str, dict[str, dict[str, str | bool]]] = {
    # the party has initiative and announces last: the foes' blows come first (TP-CBT-1)
    "fight": {"combat_attack": {"attacker": "Goblin 1", "target": "Aldo"}},
}

#: A valid choice on a player's phone, by the form's verb and action (``verb:action``).
#: ``FIRST`` picks a menu's first choice (whom to attack: the foes standing); ``ROLL`` presses
#: the phone's own roll button, which fills the field with the faces it rolled.
FIRST = object()
ROLL = object()
PHONE_FILL: dict[str, dict[str, Any]] = {
    "combat_declare:attack": {"target": FIRST, "rolled": ROLL},
    "combat_declare:": {"action": FIRST, "target": FIRST, "rolled": ROLL},
    "combat_declare:cast": {"magic_dice": "1"},
    "combat_declare:move": {},
    "combat_declare:move_far": {},
    "combat_declare:other": {"note": "takes the oil from the pouch"},
    "scene_vote:": {},
}


# -- the situations -----------------------------------------------------------------------------


@dataclass
class Situation:
    """One served table in one situation, and what its walk found."""

    name: str
    table: Table
    pressed: dict[str, list[str]] = field(default_factory=dict)
    recorded: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)

    def api(self, verb: str, **fields: Any) -> int:
        """Run one command over the JSON API as the referee; the version after it."""
        status, answer = self._ask("commands", {"verb": verb, **fields})
        assert 200 <= status < 300, (verb, status, answer)
        return int(json.loads(answer)["version"])

    def state(self) -> dict[str, Any]:
        """The table as the referee's API gives it, without what every record moves on."""
        status, answer = self._ask("state")
        assert 200 <= status < 300, answer
        state: dict[str, Any] = json.loads(answer)
        for moving in ("version", "redoable"):  # the walk's undos leave the last one redoable
            state.pop(moving, None)
        return state

    def version(self) -> int:
        status, answer = self._ask("log?limit=1")
        assert 200 <= status < 300, answer
        return int(json.loads(answer)["version"])

    def _ask(self, path: str, command: dict[str, Any] | None = None) -> tuple[int, str]:
        """One call to the referee's JSON API from here, not through a browser: the walk makes
        three a press, and Playwright's own request client costs about four CPU milliseconds
        more each (its driver and the browser between); its status and body."""
        request = urllib.request.Request(
            f"{self.table.base}/api/campaigns/{self.table.name}/{path}",
            data=None if command is None else json.dumps(command).encode(),
            headers={
                "Authorization": f"Bearer {self.table.tokens[Role.REFEREE]}",
                "Content-Type": "application/json",
            },
        )
        try:
            with DIRECT.open(request, timeout=FOLLOW_MS / 1000) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


def _setup(situation: str, campaigns: Campaigns) -> str:
    """The campaign of ``situation``, made before the server starts; its name."""
    if situation == "scene":
        campaigns.new("Hollow", preset("dg"), parse_party(PARTY), seed=5)
        return "Hollow"
    campaigns.new("Vale", preset("tp"), parse_party(PARTY), seed=11)
    return "Vale"


def _arrive(situation: Situation) -> None:
    """Bring the table to its situation through the API, as a referee would."""
    api = situation.api
    api(
        "countdown_add",
        name="flood",
        kind="short",
        length="4",
        failure="3",
        listens=["wound"],
    )
    if situation.name == "scene":
        api("scene_open", kind="exploration", players="Aldo,Bea")
        return
    api("map_load", map=map_to_data(generate_map(8, 6, seed=3)), at="0302")
    if situation.name == "site":
        api("site_enter", site_text=SITE, area="1")
    elif situation.name == "fight":
        api("combat_start", foes=[FOES], surprise="none")
        api("combat_round")
    elif situation.name == "world":
        api("party_split", name="Grey Band", characters="Cato")


@pytest.fixture(params=SITUATIONS)
def situation(request: pytest.FixtureRequest, tmp_path: Path, lanes: Lanes) -> Iterator[Situation]:
    """The table served in one situation (its commands are sent once a page is open)."""
    from turnkeeper.web.app import create_app

    db = tmp_path / "table.db"
    store = open_store(str(db))
    campaigns = Campaigns(store)
    name = _setup(request.param, campaigns)
    store.set_current(name)
    tokens = issue_tokens(store, name)
    try:
        with serving(create_app(campaigns, lanes=lanes)) as url:
            yield Situation(request.param, Table(url, name, db, tokens))
    finally:
        store.close()


# -- what the pages show ------------------------------------------------------------------------

#: Every control a page shows, each claimed by the part of the walk that presses it: a verb's
#: form (``verb:NAME``), a phone's choice (``hand:VERB:ACTION``), else the first of
#: :data:`LOOSE` whose selector it matches; what nothing claims is ``unknown``.
ENUMERATE = """loose => {
  const shown = el => {
    const box = el.getBoundingClientRect(), style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== "hidden";
  };
  const found = [];
  document.querySelectorAll(
    "button, summary, input:not([type=hidden]), select, textarea, .map svg"
  ).forEach(el => {
    if (!shown(el)) return;
    let claim = "unknown";
    const verbForm = el.closest("form.control[data-verb]");
    const handForm = el.closest("form[data-hand-form]");
    if (verbForm) claim = "verb:" + verbForm.dataset.verb;
    else if (handForm) {
      const action = handForm.querySelector("input[type=hidden][name=action]");
      claim = "hand:" + handForm.querySelector("[name=verb]").value + ":" +
        (action ? action.value : "");
    } else {
      const hit = loose.find(([name, selector]) => el.matches(selector));
      if (hit) claim = hit[0];
    }
    found.push({
      claim: claim,
      name: el.getAttribute("name") || "",
      required: el.required || false,
      html: el.outerHTML.slice(0, 160),
    });
  });
  return found;
}"""


def _shown_version(page: Page) -> int:
    return int(page.evaluate("Number(document.querySelector('#display .display').dataset.version)"))


def _caught_up(page: Page, version: int, heard: list[str] | None = None) -> None:
    """The page shows the table at ``version`` (or later), by its live stream."""
    try:
        page.wait_for_function(
            "v => Number(document.querySelector('#display .display').dataset.version) >= v",
            arg=version,
            timeout=FOLLOW_MS,
        )
    except Exception as error:
        shown = _shown_version(page)
        raise AssertionError(
            f"{page.url}: shows version {shown}, not {version}; the last answers it had:\n"
            + "\n".join((heard or [])[-15:])
        ) from error


@dataclass
class Walk:
    """A page walked in a situation: its errors, and how to put the table back."""

    situation: Situation
    page: Page
    who: str
    errors: list[str] = field(default_factory=list)
    heard: list[str] = field(default_factory=list)
    """The page's last answers from the server (not its static files), for a failure."""
    version: int = 0
    """The table's version before the next press: the journal's, read when the walk starts
    and after each loose control, and known from each press's own check (:meth:`outcome`),
    so a press is not preceded by a read of the journal of its own."""

    def look(self) -> None:
        """Read the table's version afresh (a control pressed outside :meth:`outcome`)."""
        self.version = self.situation.version()

    def watch(self) -> None:
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        # what went out and never came back tells a press not sent from one not answered
        self.page.on(
            "request",
            lambda r: (
                self.heard.append(f"sent {r.method} {r.url[:90]}")
                if "/static/" not in r.url
                else None
            ),
        )
        self.page.on(
            "requestfailed",
            lambda r: self.heard.append(f"failed {r.method} {r.url[:90]}: {r.failure}"),
        )
        self.page.on(
            "response",
            lambda r: (
                self.heard.append(f"{r.status} {r.request.method} {r.url[:90]}")
                if "/static/" not in r.url
                else None
            ),
        )
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        # a refusal comes back as a 4xx answer the page shows: the browser logs its status;
        # a phone not yet touched may not vibrate when it calls its player: Chromium says so
        if message.type == "error" and not any(
            known in message.text for known in ("Failed to load resource", "navigator.vibrate")
        ):
            self.errors.append(f"console: {message.text}")

    def outcome(self, what: str, before: int, said: str, refused: bool) -> None:
        """Check one press: a command recorded, or a refusal shown; then the table put back."""
        situation = self.situation
        after = situation.version()
        situation.pressed.setdefault(self.who, []).append(what)
        assert said[:1] != "5", f"{what} failed on the server: {said!r}"
        if refused:
            assert after == before, f"{what} was refused ({said!r}) but recorded"
            situation.refused[f"{self.who}: {what}"] = said
        else:
            assert after > before, f"{what} answered {said!r} and recorded nothing"
            situation.recorded.append(f"{self.who}: {what}")
            undo = "redo" if what == "verb:undo" else "undo"
            after = situation.api(undo)
        self.version = after
        _caught_up(self.page, after, self.heard)  # the page shows the table put back
        assert not self.errors, (what, self.errors)


# -- the referee's dashboard --------------------------------------------------------------------


def _fill(page: Page, scope: str, name: str, value: Any) -> None:
    """Fill the control ``name`` inside ``scope`` with ``value`` as a person would."""
    control = page.locator(f"{scope} [name='{name}']:not([type=hidden])").first
    tag = control.evaluate("el => el.tagName + (el.type ? ':' + el.type : '')")
    if tag == "INPUT:checkbox":
        control.set_checked(bool(value))
    elif tag.startswith("SELECT"):
        if value is FIRST:
            value = control.evaluate("el => [...el.options].find(o => o.value).value")
        control.select_option(str(value))
    else:
        control.fill(str(value))


def _press_verb(walk: Walk, verb: str, found: list[dict[str, Any]]) -> None:
    page, situation = walk.page, walk.situation
    form = f"#control-{verb}"
    names = sorted({c["name"] for c in found if c["name"]} - {"dice"})
    if verb not in FILL:
        raise AssertionError(
            f"the dashboard's control {form} ({verb}) in the {situation.name} has no entry in "
            f"FILL: add FILL[{verb!r}] with valid values for its fields {names}"
        )
    values = {**FILL[verb], **FILL_IN.get(situation.name, {}).get(verb, {})}
    missing = [c["name"] for c in found if c["required"] and c["name"] not in values]
    assert not missing, f"FILL[{verb!r}] lacks the required fields {missing} of {form}"
    page.eval_on_selector(f"{form} .outcome", "slot => { slot.innerHTML = '' }")
    for name, value in values.items():
        assert name in names, f"FILL[{verb!r}] names {name!r}, which {form} does not have"
        _fill(page, form, name, value)
    before = walk.version
    page.click(f"{form} .fields > button")
    _answered(walk, f"verb:{verb}", f"{form} .outcome", before)


def _answered(walk: Walk, what: str, slot: str, before: int) -> None:
    """Wait for the answer in ``slot`` and check it (:meth:`Walk.outcome`)."""
    page = walk.page
    try:
        page.wait_for_selector(f"{slot} > *", state="attached", timeout=FOLLOW_MS)
    except Exception as error:
        # a form the browser finds invalid is not sent: say which field and why
        invalid = page.eval_on_selector(
            slot,
            "slot => { const form = slot.closest('form'); return form ? [...form.elements]"
            ".filter(el => el.willValidate && !el.checkValidity())"
            ".map(el => el.name + ': ' + el.validationMessage) : []; }",
        )
        raise AssertionError(
            f"{what} was pressed and nothing answered: no command recorded, no refusal shown; "
            f"page errors: {walk.errors}; fields the browser finds invalid: {invalid}; "
            f"the slot holds {page.inner_html(slot)!r}; the last requests and answers:\n"
            + "\n".join(walk.heard[-10:])
        ) from error
    said = page.inner_text(slot).strip()
    refused = page.locator(f"{slot} .problem").count() > 0
    assert refused or page.locator(f"{slot} .done").count(), f"{what}: neither done nor refused"
    walk.outcome(what, before, said, refused)


def _press_line(walk: Walk, found: list[dict[str, Any]]) -> None:
    page = walk.page
    page.eval_on_selector("#command-line .outcome", "slot => { slot.innerHTML = '' }")
    page.fill("#line", 'note "a line typed on the command line"')
    before = walk.version
    page.click("#command-line button")
    _answered(walk, "command line", "#command-line .outcome", before)


def _press_row(walk: Walk, found: list[dict[str, Any]]) -> None:
    """The combat tracker's row buttons: each combatant's attack, damage and heal."""
    page = walk.page
    rows = page.eval_on_selector_all(
        "#display [data-attack], #display [data-hurt], #display [data-mend]",
        "els => els.map(el => [...el.attributes].filter(a => a.name.startsWith('data-'))"
        ".map(a => [a.name, a.value])[0])",
    )
    assert rows, "the tracker's row controls were found but no row button"
    forms = {"data-attack": "combat_attack", "data-hurt": "damage", "data-mend": "heal"}
    for attribute, name in rows:
        verb = forms[attribute]
        button = f'#display [{attribute}="{name}"]'
        amount = f'#display [data-amount-for="{name}"]'
        if attribute != "data-attack":
            page.fill(amount, "1")
        page.eval_on_selector(f"#control-{verb} .outcome", "slot => { slot.innerHTML = '' }")
        before = walk.version
        page.click(button)
        _answered(walk, f"row {attribute} {name}", f"#control-{verb} .outcome", before)


def _press_quick_turn(walk: Walk, found: list[dict[str, Any]]) -> None:
    page = walk.page
    modes = page.eval_on_selector_all(
        "#display [data-turn-mode]", "els => els.map(el => el.dataset.turnMode)"
    )
    for mode in modes:
        page.eval_on_selector("#control-turn .outcome", "slot => { slot.innerHTML = '' }")
        before = walk.version
        page.click(f"#display [data-turn-mode='{mode}']")
        _answered(walk, f"a turn: {mode}", "#control-turn .outcome", before)


def _press_hand_link(walk: Walk, found: list[dict[str, Any]]) -> None:
    page = walk.page
    page.select_option("#f-hand-character", "Aldo")  # the phone walked is Bea's
    page.eval_on_selector("#hand-link .outcome", "slot => { slot.innerHTML = '' }")
    page.click("#hand-link button")
    page.wait_for_selector("#hand-link .outcome input.link", timeout=FOLLOW_MS)
    walk.situation.pressed.setdefault(walk.who, []).append("hand link")


def _press_players_link(walk: Walk, found: list[dict[str, Any]]) -> None:
    page = walk.page
    page.once("dialog", lambda dialog: dialog.accept())
    page.eval_on_selector("#player-link .outcome", "slot => { slot.innerHTML = '' }")
    page.click("#player-link button")
    page.wait_for_selector("#player-link .outcome input.link", timeout=FOLLOW_MS)
    walk.situation.pressed.setdefault(walk.who, []).append("players' link")


def _press_record(walk: Walk, found: list[dict[str, Any]]) -> None:
    page = walk.page
    page.select_option("#f-record-character", "Aldo")
    page.eval_on_selector("#record-shown", "slot => { slot.innerHTML = '' }")
    page.click("#character-record button")
    page.wait_for_selector("#record-shown .record", timeout=FOLLOW_MS)
    walk.situation.pressed.setdefault(walk.who, []).append("a character's record")


def _press_older(walk: Walk, found: list[dict[str, Any]]) -> None:
    page = walk.page
    page.click("#older-journal")
    # older lines below, or the word that the first record is already shown
    try:
        page.wait_for_function(
            "() => document.querySelector('#older-lines li') !== null ||"
            " document.querySelector('#older-journal').tagName !== 'BUTTON'",
            timeout=FOLLOW_MS,
        )
    except Exception as error:
        raise AssertionError(page.inner_html(".older")) from error
    walk.situation.pressed.setdefault(walk.who, []).append("older journal lines")


def _press_every(walk: Walk, found: list[dict[str, Any]]) -> None:
    page = walk.page
    page.check("#every-control")
    hidden = page.eval_on_selector_all(".controls .group[data-place][hidden]", "els => els.length")
    assert hidden == 0, "'show every control' left a group hidden"
    page.uncheck("#every-control")
    walk.situation.pressed.setdefault(walk.who, []).append("show every control")


def _press_map(walk: Walk, found: list[dict[str, Any]]) -> None:
    """The map: a hex clicked chooses it where the party can travel; it zooms by its keys."""
    page = walk.page
    page.wait_for_selector(".map svg[data-zoomable]", timeout=FOLLOW_MS)
    home = page.get_attribute(".map svg", "viewBox")
    page.focus(".map svg")
    page.keyboard.press("+")
    assert page.get_attribute(".map svg", "viewBox") != home, "the map did not zoom"
    page.keyboard.press("0")
    if page.locator("#chosen-hex").count():
        before = page.inner_text("#chosen-hex")
        page.locator(".map svg text", has_text="0303").first.click()
        try:  # the route is priced by the server: a word of days and TP, or a refusal
            page.wait_for_function(
                "b => { const said = document.querySelector('#chosen-hex').innerText;"
                " return said !== b && !/chosen: Travel or Explore/.test(said); }",
                arg=before,
                timeout=FOLLOW_MS * 2,
            )
        except Exception as error:
            raise AssertionError(
                f"a hex clicked on the map: {page.inner_text('#chosen-hex')!r}\n"
                + "\n".join(walk.heard[-8:])
            ) from error
    walk.situation.pressed.setdefault(walk.who, []).append("the map")


def _press_summary(walk: Walk, found: list[dict[str, Any]]) -> None:
    """What is folded away opens (the aside's were opened before the walk)."""
    page = walk.page
    count = page.locator("#display details").count()
    for n in range(count):
        summary = page.locator("#display details > summary").nth(n)
        if summary.is_visible():
            summary.click()
    walk.situation.pressed.setdefault(walk.who, []).append(f"{count} folded parts")


#: The controls outside a verb's form, by the part of the walk that presses them.
LOOSE: dict[str, tuple[str, Callable[[Walk, list[dict[str, Any]]], None]]] = {
    "command line": ("#command-line *", _press_line),
    "tracker row": (
        "[data-attack], [data-hurt], [data-mend], [data-amount-for], [data-attack-from]",
        _press_row,
    ),
    "quick turn": ("[data-turn-mode]", _press_quick_turn),
    "hand link": ("#hand-link *", _press_hand_link),
    "players' link": ("#player-link *", _press_players_link),
    "record": ("#character-record *", _press_record),
    "older lines": ("#older-journal", _press_older),
    "every control": ("#every-control", _press_every),
    "map": (".map svg", _press_map),
    "folded": ("summary", _press_summary),
}


def _controls(page: Page, loose: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Every control the page shows now, by what claims it (``loose``: name to selector)."""
    found = page.evaluate(ENUMERATE, list(loose.items()))
    claimed: dict[str, list[dict[str, Any]]] = {}
    for control in found:
        claimed.setdefault(control["claim"], []).append(control)
    unknown = claimed.pop("unknown", [])
    assert not unknown, (
        "controls the walk does not know how to press (give each a LOOSE entry): "
        + "; ".join(c["html"] for c in unknown)
    )
    return claimed


def _walk_referee(walk: Walk) -> dict[str, list[dict[str, Any]]]:
    page = walk.page
    # what is folded away in the aside is opened first, so its controls are walked too
    # (a folded form may sit inside a folded group: open until nothing folded shows)
    closed = page.locator("aside details:not([open]) > summary:visible")
    while closed.count():
        closed.first.click()
    claimed = _controls(page, {name: selector for name, (selector, _) in LOOSE.items()})
    walk.look()
    for claim, found in claimed.items():
        if claim.startswith("verb:"):
            _press_verb(walk, claim.removeprefix("verb:"), found)
        else:
            LOOSE[claim][1](walk, found)
            walk.look()
    return claimed


# -- the player's phone -------------------------------------------------------------------------


def _walk_phone(walk: Walk) -> dict[str, list[dict[str, Any]]]:
    page = walk.page
    claimed = _controls(page, LOOSE_ON_PHONE)
    walk.look()
    for claim, found in claimed.items():
        if claim.startswith("hand:"):
            _press_choices(walk, claim.removeprefix("hand:"), found)
        else:
            (_press_older if claim == "older lines" else PHONE_LOOSE[claim])(walk, found)
            walk.look()
    return claimed


def _press_choices(walk: Walk, key: str, found: list[dict[str, Any]]) -> None:
    """Each of the phone's choices that ``key`` names: filled, pressed, answered in #said."""
    page, situation = walk.page, walk.situation
    if key not in PHONE_FILL:
        raise AssertionError(
            f"the phone's choice {key!r} in the {situation.name} has no entry in PHONE_FILL"
        )
    missing = sorted({c["name"] for c in found if c["required"]} - set(PHONE_FILL[key]))
    assert not missing, f"PHONE_FILL[{key!r}] lacks the required fields {missing}"
    verb, action = key.split(":")
    scope = f"#now form:has([name=verb][value={verb}])"
    if action:
        scope += f":has(input[type=hidden][name=action][value={action}])"
    else:
        scope += ":not(:has(input[type=hidden][name=action]))"
    for n in range(page.locator(scope).count()):
        form = f"{scope} >> nth={n}"
        for name, value in PHONE_FILL[key].items():
            if page.locator(f"{form} >> [name='{name}']:not([type=hidden])").count():
                _fill_phone(page, form, name, value)
        page.eval_on_selector("#said", "slot => { slot.innerHTML = '' }")
        before = walk.version
        page.locator(form).locator("button.big").click()
        _answered(walk, f"hand:{key}#{n}", "#said", before)


def _fill_phone(page: Page, form: str, name: str, value: Any) -> None:
    control = page.locator(form).locator(f"[name='{name}']:not([type=hidden])").first
    if value is ROLL:
        page.locator(form).locator("[data-roll]").click()
        rolled = control.input_value()
        assert rolled and all(part.strip().isdigit() for part in rolled.split(",")), rolled
    elif control.evaluate("el => el.tagName") == "SELECT":
        if value is FIRST:
            value = control.evaluate("el => [...el.options].find(o => o.value).value")
        control.select_option(str(value))
    else:
        control.fill(str(value))


def _press_sound(walk: Walk, found: list[dict[str, Any]]) -> None:
    page = walk.page
    page.check("#call-sound")
    assert page.evaluate("localStorage.getItem('turnkeeper-sound')") == "on"
    page.uncheck("#call-sound")
    walk.situation.pressed.setdefault(walk.who, []).append("a sound when wanted")


PHONE_LOOSE: dict[str, Callable[[Walk, list[dict[str, Any]]], None]] = {
    "map": _press_map,
    "sound": _press_sound,
}
LOOSE_ON_PHONE = {
    "sound": "#call-sound",
    "older lines": "#older-journal",
    "map": ".map svg",
}


# -- the test -----------------------------------------------------------------------------------


def test_every_control_of_both_screens_works_when_pressed(
    situation: Situation, browser: Browser
) -> None:
    if not AXE.is_file():
        pytest.skip(f"the accessibility check needs axe-core at {AXE}: npm install axe-core")
    laptop = browser.new_context(viewport={"width": 1366, "height": 900}, bypass_csp=True)
    phone_context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, bypass_csp=True
    )
    referee, phone = laptop.new_page(), phone_context.new_page()
    for page in (referee, phone):
        page.set_default_timeout(FOLLOW_MS)
        page.set_default_navigation_timeout(30_000)
    try:
        _arrive(situation)  # before the page is opened: it opens in the situation
        referee.goto(situation.table.link(Role.REFEREE))
        _caught_up(referee, situation.version())
        bea = _link_for(referee, "Bea")
        here = referee.get_attribute("#display .display", "data-here")
        as_it_was = situation.state()
        shoot(referee, f"every-control-{situation.name}-referee")

        walk = Walk(situation, referee, "referee")
        walk.watch()
        referee_claims = _walk_referee(walk)
        # the phone is opened once the referee's walk has put the table back: following each
        # of its presses and undos live would cost a drawing of the players' display per
        # version (test_table shows a page following the table live)
        phone.goto(bea)
        _caught_up(phone, situation.version())
        shoot(phone, f"every-control-{situation.name}-phone")
        phone_walk = Walk(situation, phone, "phone")
        phone_walk.watch()
        phone_claims = _walk_phone(phone_walk)

        # the walk put the table back each time: the situation is as it was
        assert referee.get_attribute("#display .display", "data-here") == here
        assert situation.state() == as_it_was
        # axe-core looks at each page once, as the walk leaves it: what it drew at first, now
        # with every folded part open and an answer beside each form (a run on the dashboard
        # costs about a CPU second, and before the walk it saw only less of the same page)
        for page, who in ((referee, "referee"), (phone, "phone")):
            assert _blocking(page) == [], (situation.name, who, "after the walk")
        _caught_up(referee, situation.version())
        # what was found, pressed, recorded and refused, for a person to read
        ARTEFACTS.mkdir(exist_ok=True)  # a fresh clone has none until something is kept
        (ARTEFACTS / f"every-control-{situation.name}.json").write_text(
            json.dumps(
                {
                    "controls": {
                        "referee": {k: len(v) for k, v in referee_claims.items()},
                        "phone": {k: len(v) for k, v in phone_claims.items()},
                    },
                    "pressed": situation.pressed,
                    "recorded": situation.recorded,
                    "refused": situation.refused,
                },
                indent=1,
            )
        )
    finally:
        laptop.close()
        phone_context.close()


def _link_for(referee: Page, character: str) -> str:
    referee.select_option("#f-hand-character", character)
    referee.click("#hand-link button")
    referee.wait_for_selector("#hand-link .outcome input.link")
    link = referee.input_value("#hand-link .outcome input.link")
    referee.eval_on_selector("#hand-link .outcome", "slot => { slot.innerHTML = '' }")
    return link
