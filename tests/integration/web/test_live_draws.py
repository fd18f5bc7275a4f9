"""Live pages that do not queue commands (issue 23, item 4).

A display is drawn once per campaign, version and role, however many pages of the role are
open (:class:`turnkeeper.web.live.Displays`), and drawn without the campaign's lock: a command
lands while a draw is held up. A page's journal lines are read from the store by seq back from
its version, never the whole journal. The players' pages still carry no referee secret when
both roles follow the table at once.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.conftest import serving
from tests.integration.web.conftest import SECRETS, SseEvents, plant_secrets

from turnkeeper.campaign import CampaignState, Journal, Note, Visibility, Wait, parse_party
from turnkeeper.errors import NotFoundError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web import live, render
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Hand, Role, issue_tokens

WAIT = {"verb": "wait", "duration": "10 minutes"}


@dataclass
class Table:
    base: str
    store: SqlStore
    tokens: dict[Role, str]
    displays: live.Displays

    def stream(self, role: Role) -> str:
        return f"{self.base}/campaigns/Crypt/live"

    def params(self, role: Role, since: int) -> dict[str, str]:
        return {"token": self.tokens[role], "since": str(since)}

    def command(self) -> int:
        """A referee command over HTTP; the version it left."""
        answer = httpx.post(
            f"{self.base}/api/campaigns/Crypt/commands",
            json=WAIT,
            headers={"Authorization": f"Bearer {self.tokens[Role.REFEREE]}"},
            timeout=30,
        )
        assert answer.status_code == 200, answer.text
        return int(answer.json()["version"])


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    store = SqlStore(f"sqlite:///{tmp_path / 'live.db'}")
    campaigns = Campaigns(store)
    plant_secrets(campaigns)
    tokens = issue_tokens(store, "Crypt")
    app = create_app(campaigns)
    try:
        with serving(app) as url:
            yield Table(url, store, tokens, app.state.displays)
    finally:
        store.close()


async def follow(
    http: httpx.AsyncClient, url: str, params: dict[str, str], seen: asyncio.Queue[Any]
) -> None:
    """An open page: each ``display`` event's id and data put on ``seen``."""
    async with http.stream("GET", url, params=params) as response:
        assert response.status_code == 200
        await seen.put(("open", ""))
        reader = SseEvents()
        async for line in response.aiter_lines():
            event = reader.feed(line)
            if event is not None and event[0] in ("display", "parts"):
                await seen.put((int(event[1]), event[2]))


def test_open_pages_of_a_role_share_one_draw_per_version(table: Table) -> None:
    """Four players' pages and two referee's pages, three commands: three draws per role,
    each page sent every version, the players' displays without a secret."""
    players, referees, commands = 4, 2, 3
    since = table.store.version("Crypt")

    async def run() -> list[tuple[Role, list[tuple[int, str]]]]:
        roles = [Role.PLAYER] * players + [Role.REFEREE] * referees
        queues: list[asyncio.Queue[Any]] = [asyncio.Queue() for _ in roles]
        async with httpx.AsyncClient(timeout=httpx.Timeout(30, read=None)) as http:
            pages = [
                asyncio.create_task(
                    follow(http, table.stream(role), table.params(role, since), queue)
                )
                for role, queue in zip(roles, queues, strict=True)
            ]
            try:
                for queue in queues:
                    assert (await asyncio.wait_for(queue.get(), 10))[0] == "open"
                seen: list[list[tuple[int, str]]] = [[] for _ in roles]
                for _ in range(commands):
                    version = await asyncio.to_thread(table.command)
                    for got, queue in zip(seen, queues, strict=True):
                        # every page is sent this version before the next command
                        while not got or got[-1][0] < version:
                            got.append(await asyncio.wait_for(queue.get(), 10))
                        assert got[-1][0] == version
            finally:
                for page in pages:
                    page.cancel()
                await asyncio.gather(*pages, return_exceptions=True)
        return list(zip(roles, seen, strict=True))

    shown = asyncio.run(run())
    assert table.displays.draws == {("Crypt", Role.PLAYER): 3, ("Crypt", Role.REFEREE): 3}
    for role, displays in shown:
        assert len(displays) == commands  # one display per version, each page
        for version, data in displays:
            assert f'data-version="{version}"' in data
            leaked = [what for what, marker in SECRETS.items() if marker in data]
            if role is Role.PLAYER:
                assert not leaked, f"a players' page was sent {leaked}"
        if role is Role.REFEREE:  # the first whole, then the parts that changed
            assert SECRETS["referee note"] in displays[0][1]
            assert all('class="parts"' in data for _, data in displays[1:])


def test_a_command_lands_while_a_page_is_being_drawn(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The players' draw is held up; meanwhile a command and a state read are answered,
    so the draw holds no lock. Released, the page gets the newest display."""
    started, release = threading.Event(), threading.Event()
    original = render.player_display

    def held(*args: Any) -> str:
        started.set()
        assert release.wait(30), "the test never released the draw"
        return original(*args)

    monkeypatch.setattr(render, "player_display", held)
    since = table.store.version("Crypt")

    async def run() -> tuple[float, int, int]:
        queue: asyncio.Queue[Any] = asyncio.Queue()
        async with httpx.AsyncClient(timeout=httpx.Timeout(30, read=None)) as http:
            page = asyncio.create_task(
                follow(http, table.stream(Role.PLAYER), table.params(Role.PLAYER, since), queue)
            )
            try:
                assert (await asyncio.wait_for(queue.get(), 10))[0] == "open"
                await asyncio.to_thread(table.command)
                assert await asyncio.to_thread(started.wait, 10), "the page was never drawn"
                clock = time.monotonic()
                landed = await asyncio.to_thread(table.command)  # while the draw is held
                state = await http.get(
                    f"{table.base}/api/campaigns/Crypt/state",
                    headers={"Authorization": f"Bearer {table.tokens[Role.REFEREE]}"},
                )
                assert state.status_code == 200
                took = time.monotonic() - clock
                assert not release.is_set()
                release.set()
                version, _ = await asyncio.wait_for(queue.get(), 10)
                while version < landed:  # the held draw's version, then the newest
                    version, _ = await asyncio.wait_for(queue.get(), 10)
                return took, landed, version
            finally:
                release.set()
                page.cancel()
                await asyncio.gather(page, return_exceptions=True)

    took, landed, version = asyncio.run(run())
    assert took < 5, f"a command waited {took:.1f} s for a page's draw"
    assert version == landed


# -- the shared drawing, without a server -------------------------------------------------------


def state_at(version: int) -> CampaignState:
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6')
    state = Journal.start("Keep", preset("ex"), party, seed=1).state
    return state.model_copy(update={"version": version})


def displays_of(
    versions: list[int], draw: Callable[[str, CampaignState, Role], str]
) -> tuple[live.Displays, list[int]]:
    """Displays over a campaign at ``versions[0]`` (append to move it); the snapshots taken."""
    taken: list[int] = []

    async def snapshot(name: str) -> CampaignState:
        if name != "Keep":
            raise NotFoundError(f"no campaign named {name!r}")
        await asyncio.sleep(0.01)
        taken.append(versions[-1])
        return state_at(versions[-1])

    return live.Displays(snapshot, draw), taken


def test_displays_draw_once_per_version_and_role_for_every_page() -> None:
    drawn: list[tuple[int, Role]] = []

    def draw(name: str, state: CampaignState, role: Role) -> str:
        drawn.append((state.version, role))
        time.sleep(0.05)
        return f"{role.value} at {state.version}"

    versions = [7]
    displays, taken = displays_of(versions, draw)

    async def run() -> None:
        pages = [displays.display("Keep", Role.PLAYER, 7) for _ in range(10)]
        assert await asyncio.gather(*pages) == [("player at 7", 7)] * 10
        assert taken == [7]  # one look at the state for all ten: the others awaited it
        both = [displays.display("Keep", role, 7) for role in (Role.PLAYER, Role.REFEREE)]
        assert await asyncio.gather(*both) == [("player at 7", 7), ("referee at 7", 7)]
        versions.append(9)  # the table moved twice while the watcher looked once
        assert await displays.display("Keep", Role.PLAYER, 8) == ("player at 9", 9)
        assert await displays.display("Keep", Role.PLAYER, 9) == ("player at 9", 9)
        state = state_at(9)
        assert await displays.display("Keep", Role.PLAYER, state=state) == ("player at 9", 9)

    asyncio.run(run())
    assert drawn == [(7, Role.PLAYER), (7, Role.REFEREE), (9, Role.PLAYER)]
    assert displays.draws == {("Keep", Role.PLAYER): 2, ("Keep", Role.REFEREE): 1}


def test_the_state_a_command_here_left_is_drawn_without_a_look() -> None:
    """Issue 41: the state this server's command left is told to the displays, so the pages
    woken at its version draw it (and the players' seats are found in it) without a look at
    the campaign, which would wait for its lock and read the store; a version it was not told
    (another process's command, made since) is looked at."""
    versions = [7]
    displays, taken = displays_of(versions, lambda name, state, role: f"{role} {state.version}")

    async def run() -> None:
        versions.append(8)
        displays.told("Keep", state_at(8))
        assert (await displays.state("Keep", 8)).version == 8
        pages = [displays.display("Keep", role, 8) for role in (Role.PLAYER, Role.REFEREE)] * 3
        assert {drawn for drawn, _ in await asyncio.gather(*pages)} == {"player 8", "referee 8"}
        assert taken == []
        versions.append(9)  # another process's command: its state is not told here
        assert (await displays.state("Keep", 9)).version == 9
        assert await displays.display("Keep", Role.PLAYER, 9) == ("player 9", 9)
        assert taken == [9, 9]

    asyncio.run(run())


def _drawing_into(
    drawn: list[tuple[int, str]],
    held: tuple[int, str] | None = None,
    hold: threading.Event | None = None,
) -> Callable[[str, CampaignState, object], str]:
    """A page drawer that writes down each (version, seat) it draws, and waits for ``hold``
    while it draws ``held``."""

    def draw(name: str, state: CampaignState, role: object) -> str:
        who = role.character if isinstance(role, Hand) else str(role)
        drawn.append((state.version, who))
        if hold is not None and (state.version, who) == held:
            assert hold.wait(10)
        return f"{who} {state.version}"

    return draw


def test_the_seats_followed_are_drawn_before_the_referees_answer() -> None:
    """Issue 41: after a command from the referee's form, the seats whose pages follow the
    campaign (a stream asked for a version still kept) are drawn at its state first, and
    their pages are sent it, before the answer's own drawing takes the interpreter; the
    referee's seat, and a seat drawn for a page that never followed, are not drawn by it."""
    drawn: list[tuple[int, str]] = []
    versions = [7]
    displays, _ = displays_of(versions, _drawing_into(drawn))

    async def run() -> None:
        await displays.display("Keep", Role.PLAYER, 7)
        await displays.display("Keep", Role.REFEREE, 7)
        await displays.display("Keep", Hand("Aldo"), state=state_at(7))  # a page drawn, alone
        await displays.followed_first("Nowhere", state_at(8), but=Role.REFEREE)  # no page
        versions.append(8)
        displays.told("Keep", state_at(8))
        await displays.followed_first("Keep", state_at(8), but=Role.REFEREE)
        assert drawn[3:] == [(8, "player")]
        assert await displays.display("Keep", Role.PLAYER, 8) == ("player 8", 8)  # shared
        assert await displays.display("Keep", Role.REFEREE, state=state_at(8)) == ("referee 8", 8)

    asyncio.run(run())
    assert drawn == [(7, "player"), (7, "referee"), (7, "Aldo"), (8, "player"), (8, "referee")]


def test_a_command_draws_its_pages_ahead_and_they_take_that_drawing() -> None:
    """Issue 41: a command of this server draws its state for the seats whose pages follow
    the campaign, in its own thread, before they are woken (draw_ahead); the pages woken take
    that drawing, drawn once; the seat its answer draws is not drawn ahead, nor a seat whose
    drawing is under way (the command does not wait for it)."""
    drawn: list[tuple[int, str]] = []
    hold = threading.Event()
    versions = [7]
    displays, taken = displays_of(versions, _drawing_into(drawn, held=(7, "Aldo"), hold=hold))

    async def run() -> None:
        await displays.display("Keep", Role.PLAYER, 7)
        await displays.display("Keep", Role.REFEREE, 7)
        aldo = asyncio.create_task(displays.display("Keep", Hand("Aldo"), 7))
        while (7, "Aldo") not in drawn:
            await asyncio.sleep(0.01)
        versions.append(8)
        displays.told("Keep", state_at(8))
        await asyncio.to_thread(displays.draw_ahead, "Keep", state_at(8), Role.REFEREE)
        assert drawn[3:] == [(8, "player")]  # not the referee's, nor Aldo's under way
        hold.set()
        assert await aldo == ("Aldo 7", 7)
        assert await displays.display("Keep", Role.PLAYER, 8) == ("player 8", 8)
        assert await displays.display("Keep", Role.REFEREE, state=state_at(8)) == ("referee 8", 8)

    asyncio.run(run())
    assert drawn == [(7, "player"), (7, "referee"), (7, "Aldo"), (8, "player"), (8, "referee")]
    assert displays.draws[("Keep", Role.PLAYER)] == 2
    assert taken == [7, 7, 7]  # version 8 was told: never looked at


def test_a_table_moving_fast_is_drawn_at_its_newest_version_one_drawing_at_a_time() -> None:
    """Issue 41: versions 2, 3 and 4 land while version 1 is being drawn: one more drawing,
    of version 4, begun when 1 is drawn and sent to the pages woken at each; the first
    command after a pause is drawn at once, with no gap waited out."""
    drawn: list[int] = []

    def draw(name: str, state: CampaignState, role: Role) -> str:
        drawn.append(state.version)
        time.sleep(0.2)
        return f"at {state.version}"

    versions = [1]
    displays, taken = displays_of(versions, draw)

    async def run() -> list[tuple[str, int]]:
        first = asyncio.create_task(displays.display("Keep", Role.PLAYER, 1))
        await asyncio.sleep(0.05)  # version 1 is being drawn
        pages = []
        for version in (2, 3, 4):
            versions.append(version)
            pages.append(asyncio.create_task(displays.display("Keep", Role.PLAYER, version)))
            await asyncio.sleep(0.02)
        assert await first == ("at 1", 1)
        shown = await asyncio.gather(*pages)
        await asyncio.sleep(0.5)  # a pause: the next command is drawn at once
        versions.append(5)
        assert await displays.display("Keep", Role.PLAYER, 5) == ("at 5", 5)
        return shown

    assert asyncio.run(run()) == [("at 4", 4)] * 3
    assert drawn == [1, 4, 5]
    assert taken == [1, 4, 5]


def test_a_page_that_leaves_does_not_stop_the_others_draw() -> None:
    def draw(name: str, state: CampaignState, role: Role) -> str:
        time.sleep(0.1)
        return "drawn"

    displays, _ = displays_of([3], draw)

    async def run() -> None:
        first = asyncio.create_task(displays.display("Keep", Role.PLAYER, 3))
        second = asyncio.create_task(displays.display("Keep", Role.PLAYER, 3))
        await asyncio.sleep(0.03)
        first.cancel()  # its page closed while the drawing it started went on
        assert await second == ("drawn", 3)
        with pytest.raises(asyncio.CancelledError):
            await first

    asyncio.run(run())
    assert displays.draws == {("Keep", Role.PLAYER): 1}


def test_a_failed_draw_is_drawn_again_and_a_lost_campaign_says_so() -> None:
    failures = [RuntimeError("the store went away")]

    def draw(name: str, state: CampaignState, role: Role) -> str:
        if failures:
            raise failures.pop()
        return "drawn"

    displays, _ = displays_of([4], draw)

    async def run() -> None:
        with pytest.raises(RuntimeError):
            await displays.display("Keep", Role.PLAYER, 4)
        assert await displays.display("Keep", Role.PLAYER, 4) == ("drawn", 4)
        with pytest.raises(NotFoundError):
            await displays.display("Gone", Role.PLAYER, 4)

    asyncio.run(run())


# -- the journal lines, read by seq ---------------------------------------------------------------


def test_a_display_reads_its_lines_by_seq_not_the_whole_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A journal of 3,000 records ending in a long stretch of referee's notes: the players'
    display reads back only as far as its last lines, the referee's only its last lines."""
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 6')
    journal = Journal.start("Keep", preset("ex"), party, seed=1)
    while journal.version < 2500:
        journal.execute(Wait(600))
    while journal.version < 3000:
        journal.execute(Note("ZQSECRET", Visibility.REFEREE))
    store = SqlStore(f"sqlite:///{tmp_path / 'long.db'}")
    store.create("Keep", [r.to_record() for r in journal.records])
    tokens = issue_tokens(store, "Keep")
    reads: list[tuple[int, int | None]] = []
    plain = store.read_json

    def counted(campaign: str, since: int = 0, limit: int | None = None, **kw: Any) -> str:
        reads.append((since, limit))
        return plain(campaign, since, limit, **kw)

    app = create_app(Campaigns(store))
    try:
        with serving(app) as url:
            for role in (Role.PLAYER, Role.REFEREE):
                # a new version, so the display is drawn afresh (not the one kept), and the
                # server's journal caught up with it (a read of the new records alone)
                Campaigns(store).execute("Keep", Note("ZQSECRET", Visibility.REFEREE))
                caught_up = httpx.get(
                    f"{url}/api/campaigns/Keep/state",
                    headers={"Authorization": f"Bearer {tokens[Role.REFEREE]}"},
                )
                assert caught_up.status_code == 200
                monkeypatch.setattr(store, "read_json", counted)
                reads.clear()
                shown = httpx.get(
                    f"{url}/campaigns/Keep/display", params={"token": tokens[role]}
                ).text
                monkeypatch.undo()
                assert ("ZQSECRET" in shown) is (role is Role.REFEREE)
                assert reads, "the display read no journal lines"
                assert all(limit is not None for _, limit in reads), reads
                read = sum(limit or 0 for _, limit in reads)
                wanted = 1000 if role is Role.PLAYER else render.JOURNAL_LINES + 5
                assert read < wanted, f"the {role.value}'s display read {read} records: {reads}"
    finally:
        store.close()
