"""Issue 22 over HTTP: every error is the API's own, and one campaign never stalls another.

- A malformed body, header or query gets one 4xx line (JSON on the API, the error page or
  fragment on the pages), with the safe headers, and changes nothing; a fault of the
  server's own is a generic JSON 500 that carries the safe headers too.
- A pasted file given as data in a dashboard form (a site, a map) is read with a file's
  limits, by the files' own reader, as its text (site_text, map_text) already was.
- While campaign A's lock is held by a long command, with many requests for A's display
  waiting, a command on campaign B runs at once; and a pasted file is parsed off the event
  loop, so B's reads go on while A's paste is read. These hold A by hand (an event the test
  sets), so they wait for nothing but the server, whatever the machine's load.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.conftest import serving
from tests.integration.web.conftest import Served

from turnkeeper.campaign import parse_party
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web import controls, guard
from turnkeeper.web.app import create_app
from turnkeeper.web.guard import PAGE_POLICY
from turnkeeper.web.tokens import Role, issue_tokens

API = "/api/campaigns/Crypt/commands"
PAGE = "/campaigns/Crypt/commands"
DEEP = "[" * 5000
SAFE = {
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "content-security-policy": PAGE_POLICY,
}


def referee(served: Served) -> dict[str, str]:
    return {"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"}


def refused_safely(served: Served, send: Callable[[], httpx.Response]) -> httpx.Response:
    """``send`` is answered 4xx with the safe headers and one line, and nothing changes."""
    before = served.campaigns.export_jsonl("Crypt")
    answer = send()
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text[:300])
    for header, value in SAFE.items():
        assert answer.headers.get(header) == value, (header, answer.headers)
    if answer.headers["content-type"].startswith("application/json"):
        message = answer.json()["error"]
        assert message and "\n" not in message
    assert "Traceback" not in answer.text
    assert served.campaigns.export_jsonl("Crypt") == before
    return answer


# -- bodies ----------------------------------------------------------------------------------

DATA_FIELDS = [
    ("site_enter", "site"),
    ("map_load", "map"),
    ("scene_spotlight", "votes"),
    ("scene_gm", "creature_free"),
]


@pytest.mark.parametrize(("verb", "field"), DATA_FIELDS)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_form_field_of_deep_brackets_is_400_on_the_pages(
    served: Served, verb: str, field: str, htmx: bool
) -> None:
    """The issue's 500: a form's data field was read by json.loads, which recursed."""
    headers = {**referee(served), **({"HX-Request": "true"} if htmx else {})}
    form = {"verb": verb, field: DEEP, "at": "0000"}
    answer = refused_safely(served, lambda: served.client.post(PAGE, data=form, headers=headers))
    assert answer.status_code == 400
    assert "nests arrays or tables 5000 deep" in answer.text


# -- pasted files: a file's limits -------------------------------------------------------------

INFINITE = '{"name": "Vale", "width": 1, "height": 1, "terrain": ["p"], "x": 1e999}'


@pytest.mark.parametrize(
    "fields",
    [
        {"verb": "map_load", "map": INFINITE, "at": "0000"},
        {"verb": "site_enter", "site": '{"site": {"name": "V", "x": 1e999}}'},
    ],
    ids=["map", "site"],
)
def test_a_pasted_file_as_form_data_is_read_with_a_files_limits(
    served: Served, fields: dict[str, str]
) -> None:
    """A site or map pasted as data into a form is read as a file is (its text, site_text
    and map_text, already was): here a number no file may hold."""
    answer = refused_safely(
        served,
        lambda: served.client.post(
            PAGE, data=fields, headers={**referee(served), "HX-Request": "true"}
        ),
    )
    assert answer.status_code == 400
    assert "not a number a file may hold" in answer.text


def test_newcomers_past_the_worlds_300_over_http_are_refused(served: Served) -> None:
    """Issue 38: a world holds at most 300 characters by every way in, the API's too (a
    party's text there is a field, at most 10,000 characters: some 300 characters)."""

    def newcomers(name: str, first: int) -> dict[str, str]:
        crowd = "".join(f'[[characters]]\nname="c{i}"\nhp=1\n' for i in range(first, first + 100))
        return {"verb": "party_new", "name": name, "party_text": crowd}

    for name, first in (("One", 0), ("Two", 100)):
        answer = served.client.post(API, json=newcomers(name, first), headers=referee(served))
        assert answer.status_code == 200, answer.text[:300]
    answer = refused_safely(
        served,
        lambda: served.client.post(API, json=newcomers("Three", 200), headers=referee(served)),
    )
    assert "the world has 201 characters" in answer.json()["error"]


# -- headers -------------------------------------------------------------------------------


# -- a fault of the server's own -------------------------------------------------------------


def test_a_fault_is_a_generic_json_500_with_the_safe_headers(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Starlette's own 500 was sent outside the guard, without the safe headers."""

    def broken(state: Any) -> Any:
        raise RuntimeError("ZQFAULT: a bug of ours, naming the journal's secrets")

    monkeypatch.setattr("turnkeeper.web.routes.campaign.referee_state", broken)
    client = type(served.client)(served.client.app, raise_server_exceptions=False)
    with client:
        answer = client.get("/api/campaigns/Crypt/state", headers=referee(served))
    assert answer.status_code == 500
    for header, value in SAFE.items():
        assert answer.headers.get(header) == value, (header, answer.headers)
    assert answer.json()["type"] == "InternalError"
    assert "ZQFAULT" not in answer.text


# -- one campaign never stalls another -------------------------------------------------------

QUIET = parse_party('[[characters]]\nname = "Aldo"\nhp = 8')


class Arrivals:
    """An ASGI app that counts the requests reaching it, by path, and passes them on: a test
    waits for its requests to be in the server, not for a while it hopes is enough."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.paths: Counter[str] = Counter()
        self.arrived = threading.Condition()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            with self.arrived:
                self.paths[scope["path"]] += 1
                self.arrived.notify_all()
        await self.app(scope, receive, send)

    def wait(self, path: str, count: int, timeout: float) -> bool:
        """Whether ``count`` requests for ``path`` have reached the app within ``timeout``."""
        with self.arrived:
            return self.arrived.wait_for(lambda: self.paths[path] >= count, timeout)


@dataclass
class Two:
    url: str
    campaigns: Campaigns
    tokens: dict[str, dict[Role, str]]
    arrivals: Arrivals

    def bearer(self, name: str, role: Role = Role.REFEREE) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[name][role]}"}


@pytest.fixture
def two(tmp_path: Path) -> Iterator[Two]:
    store = SqlStore(f"sqlite:///{tmp_path / 'two.db'}")
    campaigns = Campaigns(store)
    for name in ("A", "B"):
        campaigns.new(name, preset("ex"), QUIET, seed=3)
    tokens = {name: issue_tokens(store, name) for name in ("A", "B")}
    arrivals = Arrivals(create_app(campaigns))
    try:
        with serving(arrivals) as url:
            yield Two(url, campaigns, tokens, arrivals)
    finally:
        store.close()


def _held(release: threading.Event, entered: threading.Event) -> Callable[..., Any]:
    """A stand-in that holds its caller until ``release`` (a command as long as the test
    wants), saying when it was entered."""

    def hold(*args: Any, **kwargs: Any) -> None:
        entered.set()
        assert release.wait(120), "never released"

    return hold


WAITERS = 80
"""Requests for A's display queued behind A's long command: more than the server's 40
worker threads, which each held one while it waited for A's lock."""


def test_b_commands_while_a_is_held_and_many_wait_for_a(
    two: Two, monkeypatch: pytest.MonkeyPatch
) -> None:
    release, entered = threading.Event(), threading.Event()
    run = two.campaigns.run  # what the server's commands call
    hold = _held(release, entered)

    def slow_for_a(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "A":
            hold()
        return run(name, *args, **kwargs)

    monkeypatch.setattr(two.campaigns, "run", slow_for_a)
    pool = ThreadPoolExecutor(WAITERS + 2)
    client = httpx.Client(base_url=two.url, timeout=120, limits=httpx.Limits(max_connections=200))
    try:
        note = {"verb": "note", "text": "held"}
        a_command = pool.submit(client.post, "/api/campaigns/A/commands", json=note,
                                headers=two.bearer("A"))  # fmt: skip
        assert entered.wait(60), "A's command never started"
        display = "/campaigns/A/display"
        shown = {"token": two.tokens["A"][Role.PLAYER]}
        waiting = [pool.submit(client.get, display, params=shown) for _ in range(WAITERS)]
        assert two.arrivals.wait(display, WAITERS, 60), "the requests for A never reached it"
        b_command: Future[httpx.Response] = pool.submit(
            client.post, "/api/campaigns/B/commands", json=note, headers=two.bearer("B")
        )
        try:
            answered = b_command.result(timeout=60)
        except TimeoutError:
            pytest.fail("B's command waited for A's lock to be free")
        assert answered.status_code == 200, answered.text
        assert not a_command.done() and not release.is_set()  # A was held all along
    finally:
        release.set()
        answers = [w.result(timeout=120) for w in (a_command, *waiting)]
        client.close()
        pool.shutdown(wait=True)
    assert all(a.status_code == 200 for a in answers)
    assert two.campaigns.state("A").version == two.campaigns.state("B").version


@pytest.mark.parametrize("route", ["api", "form"])
def test_a_pasted_site_is_read_off_the_loop_while_b_is_read(
    two: Two, monkeypatch: pytest.MonkeyPatch, route: str
) -> None:
    """A paste's parsing held by hand: were it on the event loop, B's read would wait."""
    release, entered = threading.Event(), threading.Event()
    hold = _held(release, entered)
    marker = "ZQSLOWPASTE"
    module = guard if route == "api" else controls
    parse = module.parse_json

    def slow(text: str, *args: Any, **kwargs: Any) -> Any:
        if marker in text:
            hold()
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(module, "parse_json", slow)
    site = {"site": {"name": marker}, "levels": [{"number": 1}]}
    pool = ThreadPoolExecutor(2)
    client = httpx.Client(base_url=two.url, timeout=120)
    try:
        if route == "api":
            # small, as a command's body is: one naming a site goes off the loop at any size
            pasted = pool.submit(client.post, "/api/campaigns/A/commands",
                                 json={"verb": "site_enter", "site": site},
                                 headers=two.bearer("A"))  # fmt: skip
        else:
            form = {"verb": "site_enter", "site": json.dumps(site)}
            pasted = pool.submit(client.post, "/campaigns/A/commands", data=form,
                                 headers={**two.bearer("A"), "HX-Request": "true"})  # fmt: skip
        assert entered.wait(60), "the paste was never read"
        try:
            read = client.get("/api/campaigns/B/state", headers=two.bearer("B", Role.PLAYER),
                              timeout=30)  # fmt: skip
        except httpx.TimeoutException:
            pytest.fail("B's read waited for A's paste to be parsed")
        assert read.status_code == 200
        assert not release.is_set()
    finally:
        release.set()
        done = pasted.result(timeout=120)
        client.close()
        pool.shutdown(wait=True)
    assert done.status_code == 200, done.text


@pytest.mark.parametrize("seen", ["\u00b2", "\u00b9\u00b2", "9" * 5000, "9" * 20, "-1", "x"])
def test_a_last_event_id_that_is_no_version_is_400(two: Two, seen: str) -> None:
    """``²`` is a digit to str.isdigit and not to int: it was a 500; 5,000 digits too. Served
    for real: a stream that is not refused never ends, and the test must not wait for it."""
    live = f"{two.url}/campaigns/A/live?token={two.tokens['A'][Role.PLAYER]}"
    header = {b"Last-Event-ID": seen.encode("latin-1")}  # as a client sends it: latin-1 bytes
    with httpx.stream("GET", live, headers=header, timeout=30) as answer:
        assert answer.status_code == 400, answer.status_code
        for name, value in SAFE.items():
            assert answer.headers.get(name) == value, (name, answer.headers)
        assert "Last-Event-ID" in answer.read().decode()


@pytest.mark.parametrize("query", ["after", "since"])
def test_a_log_page_past_64_bits_is_400(served: Served, query: str) -> None:
    """A page of the log asked after a seq of 2^63 or more: one 400, not SQLite's overflow
    as a 500."""
    refused_safely(
        served,
        lambda: served.client.get(
            f"/api/campaigns/Crypt/log?{query}={2**63}", headers=referee(served)
        ),
    )
