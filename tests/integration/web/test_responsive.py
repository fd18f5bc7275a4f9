"""Issue 16: one request cannot stall the server.

A real server (uvicorn in a thread on a free localhost port) keeps two campaigns. While the
referee of campaign A runs the longest wait A's ruleset allows in a quiet site, where every
one of its turns is counted and recorded, a player of campaign B reads B's state again and
again: no read waits behind the wait. The reads are measured against the wait's own duration
(seconds on this machine), never against a clock's bound, so the test holds however loaded
the machine is; the issue's 200 ms is the benchmarks' (bench/serve.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from tests.conftest import free_port, serving

from turnkeeper.campaign import parse_party
from turnkeeper.procedures.dungeon import EnterSite
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens
from turnkeeper.world.sites import parse_site

QUIET_SITE = """
[site]
name = "Still Vault"
wandering = false
[[levels]]
number = 1
[[levels.areas]]
key = "1"
name = "Dry cell"
"""

PARTY = parse_party('[[characters]]\nname = "Aldo"\nhp = 8')

LONGEST_DAYS = 270
"""Campaign A's ruleset allows waits of 270 days at most (``time.max_wait_days``): the longest
wait it allows records 38,880 turns, a few seconds of work even on a quiet machine (90 days
took under the second the test needs to see reads all through it), and the test stays short."""


@dataclass
class Server:
    url: str
    tokens: dict[str, dict[Role, str]]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    store = SqlStore(f"sqlite:///{tmp_path / 'two.db'}")
    campaigns = Campaigns(store)
    rules = preset("dg")
    quick = rules.model_copy(
        update={"time": rules.time.model_copy(update={"max_wait_days": LONGEST_DAYS})}
    )
    campaigns.new("A", quick, PARTY, seed=3)
    campaigns.new("B", rules, PARTY, seed=3)
    campaigns.execute("A", EnterSite(parse_site(QUIET_SITE), 1, "1"))
    tokens = {name: issue_tokens(store, name) for name in ("A", "B")}
    try:
        with serving(create_app(campaigns)) as url:
            yield Server(url, tokens)
    finally:
        store.close()


def _bearer(server: Server, campaign: str, role: Role) -> dict[str, str]:
    return {"Authorization": f"Bearer {server.tokens[campaign][role]}"}


def test_a_players_read_of_b_never_waits_behind_the_longest_wait_of_a(
    server: Server,
) -> None:
    player_b = _bearer(server, "B", Role.PLAYER)
    with httpx.Client(base_url=server.url, timeout=30) as reader:
        assert reader.get("/api/campaigns/B/state", headers=player_b).status_code == 200
        done: dict[str, object] = {}

        def wait_longest() -> None:
            started = time.monotonic()
            with httpx.Client(base_url=server.url, timeout=120) as referee:
                done["response"] = referee.post(
                    "/api/campaigns/A/commands",
                    json={"verb": "wait", "duration": f"{LONGEST_DAYS}d"},
                    headers=_bearer(server, "A", Role.REFEREE),
                )
            done["seconds"] = time.monotonic() - started

        waiter = threading.Thread(target=wait_longest)
        waiter.start()
        latencies: list[float] = []
        while waiter.is_alive():
            started = time.monotonic()
            answer = reader.get("/api/campaigns/B/state", headers=player_b)
            latencies.append(time.monotonic() - started)
            assert answer.status_code == 200
            time.sleep(0.02)
        waiter.join()
    response = done["response"]
    assert isinstance(response, httpx.Response) and response.status_code == 200, response
    assert response.json()["version"] > LONGEST_DAYS * 144  # every turn was counted
    wait_seconds = done["seconds"]
    assert isinstance(wait_seconds, float)
    ordered = sorted(latencies)
    typical = ordered[int(0.95 * (len(ordered) - 1))]
    print(f"wait {wait_seconds:.2f} s; {len(latencies)} reads of B, 95% within {typical:.3f} s, "
          f"slowest {ordered[-1]:.3f} s")  # fmt: skip
    # Blind to the machine's speed: a read that waited behind the wait (as every read did
    # before campaigns had locks of their own, 11.9 s) takes about as long as the wait
    # itself, whatever the machine. So the reads are held to the wait's own duration, not to
    # the issue's 200 ms (bench/serve.py measures that bound): the slowest read takes under a
    # fifth of the wait, and the reads kept coming all through it.
    assert ordered[-1] < wait_seconds / 5, (ordered[-1], wait_seconds, len(latencies))
    assert len(latencies) >= 10, (wait_seconds, len(latencies))


def test_a_wait_past_the_rulesets_most_is_refused_naming_the_limit(server: Server) -> None:
    """B's ruleset leaves time.max_wait_days unset: a year of 12 months is the most."""
    referee = _bearer(server, "B", Role.REFEREE)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        before = client.get("/api/campaigns/B/state", headers=referee).json()["version"]
        refused = client.post(
            "/api/campaigns/B/commands",
            json={"verb": "wait", "duration": "99999999d"},
            headers=referee,
        )
        assert refused.status_code in (400, 422), refused.text
        refused = client.post(
            "/api/campaigns/B/commands", json={"verb": "wait", "duration": "361d"}, headers=referee
        )
        assert refused.status_code == 422
        assert "at most 360 days" in refused.json()["error"]
        assert "time.max_wait_days" in refused.json()["error"]
        assert client.get("/api/campaigns/B/state", headers=referee).json()["version"] == before


def test_the_server_stops_on_sigterm(tmp_path: Path) -> None:
    """`turnkeeper serve` ends within seconds of a SIGTERM, a live page still open. The
    server is a process of its own (the signal is the point); its store is made here."""
    db = str(tmp_path / "serve.db")
    store = SqlStore(f"sqlite:///{db}")
    try:
        Campaigns(store).new("Keep", preset("ex"), PARTY, seed=3)
        token = issue_tokens(store, "Keep")[Role.PLAYER]
    finally:
        store.close()
    port = free_port()
    served = subprocess.Popen(
        [sys.executable, "-m", "turnkeeper", "serve", "--port", str(port), "--db", db],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60  # a hang guard: a loaded machine starts it slowly
        while True:
            try:
                httpx.get(f"{url}/", timeout=1)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        live = f"{url}/campaigns/Keep/live?token={token}&since=0"
        with httpx.Client(timeout=10) as client, client.stream("GET", live):
            os.kill(served.pid, signal.SIGTERM)
            started = time.monotonic()
            served.wait(timeout=15)
        assert time.monotonic() - started < 10
    finally:
        if served.poll() is None:
            served.kill()
            served.wait()
