"""A state read's answer is kept while the state stands (issue 41), and never served stale: a
read after a command sees it, whether this server ran the command or another process did."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from turnkeeper.campaign import Wait, glance
from turnkeeper.web.routes import campaign
from turnkeeper.web.tokens import Role

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

STATE = "/api/campaigns/Crypt/state"
COMMANDS = "/api/campaigns/Crypt/commands"

ELSEWHERE = """
import sys
from turnkeeper.campaign import Wait
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
store = open_store(sys.argv[1])
Campaigns(store).execute("Crypt", Wait(600))
store.close()
"""
"""Another process's command on the same store: ten minutes waited."""


def _read(served: Served, role: Role) -> dict[str, object]:
    answer = served.get(STATE, role)
    assert answer.status_code == 200  # type: ignore[attr-defined]
    found: dict[str, object] = answer.json()  # type: ignore[attr-defined]
    return found


@pytest.mark.parametrize("role", [Role.REFEREE, Role.PLAYER])
def test_a_read_after_this_servers_command_sees_it(served: Served, role: Role) -> None:
    before = _read(served, role)
    assert _read(served, role) == before  # kept, and the same
    headers = {"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"}
    posted = served.client.post(
        COMMANDS, json={"verb": "wait", "duration": "1 hour"}, headers=headers
    )
    assert posted.status_code == 200
    after = _read(served, role)
    assert after["version"] == posted.json()["version"] > before["version"]
    assert after != before


@pytest.mark.parametrize("role", [Role.REFEREE, Role.PLAYER])
def test_a_read_after_another_process_command_sees_it(served: Served, role: Role) -> None:
    before = _read(served, role)
    assert _read(served, role) == before
    url = served.campaigns.store.url  # type: ignore[attr-defined]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    subprocess.run([sys.executable, "-c", ELSEWHERE, url], env=env, check=True, timeout=120)
    after = _read(served, role)
    now = served.campaigns.store.version("Crypt")
    assert after["version"] == now > before["version"]  # type: ignore[operator]
    assert after != before


def test_a_state_is_shaped_once_for_all_its_reads(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    shaped: list[int] = []
    real = glance.referee_state

    def counted(state: object) -> object:
        shaped.append(1)
        return real(state)  # type: ignore[arg-type]

    monkeypatch.setattr(campaign, "referee_state", counted)
    answers = {served.get(STATE, Role.REFEREE).content for _ in range(5)}  # type: ignore[attr-defined]
    assert len(answers) == 1 and len(shaped) == 1
    served.campaigns.execute("Crypt", Wait(60))  # a new state: shaped again
    served.get(STATE, Role.REFEREE)
    assert len(shaped) == 2


def test_a_kept_answer_is_sent_gzipped_to_a_browser_that_takes_it(served: Served) -> None:
    bearer = {"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"}
    plain = served.client.get(STATE, headers={**bearer, "Accept-Encoding": "identity"})
    for _ in range(2):  # compressed once, kept
        packed = served.client.get(STATE, headers={**bearer, "Accept-Encoding": "gzip"})
        assert packed.headers["content-encoding"] == "gzip"
        assert "accept-encoding" in packed.headers["vary"].lower()
        assert packed.json() == plain.json()  # the client undid the gzip
    assert "content-encoding" not in plain.headers
