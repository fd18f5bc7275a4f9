"""Each campaign its own lane (issue 38, item 3): a route across a big map and a map drawn
are seconds of work, and one campaign's must never hold up another's commands. They run in a
worker process (:mod:`turnkeeper.web.lanes`), awaited by the server's loop: checked here by
order, not by time."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from turnkeeper.campaign import parse_party
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.procedures.wilderness.costs import best_route
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.views.maps import map_svg
from turnkeeper.web.app import create_app
from turnkeeper.web.lanes import Lanes
from turnkeeper.web.tokens import Role, issue_tokens
from turnkeeper.world.generate import generate_map
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile, map_to_data

PARTY = '[[characters]]\nname = "Aldo"\nhp = 8'


class HeldLanes:
    """Lanes that hold each heavy read until the test lets it go, noting what was sent."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.go = asyncio.Event()
        self.works: list[Callable[..., Any]] = []

    async def run(self, work: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        self.works.append(work)
        self.entered.set()
        await self.go.wait()
        return work(*args, **kwargs)

    def close(self) -> None:
        pass


@pytest.mark.parametrize(
    ("path", "params", "work"),
    [
        ("/campaigns/Wilds/route", {"to": "2520"}, best_route),
        ("/api/campaigns/Wilds/map.svg", {"around": "1510", "radius": "8"}, map_svg),
    ],
)
def test_a_campaigns_heavy_read_waits_in_its_lane_while_another_campaigns_command_is_answered(
    tmp_path: Path, path: str, params: dict[str, str], work: Callable[..., Any]
) -> None:
    """Issue 38: two clients asking for routes on a 2000 x 2000 map took another campaign's
    command p95 from 14 ms to a second. The route and the map go to their lane; while one is
    there (held until the other campaign's command is answered), the command is answered."""
    campaigns = Campaigns(SqlStore(f"sqlite:///{tmp_path / 'lanes.db'}"))
    campaigns.new("Wilds", preset("tp"), parse_party(PARTY), seed=1)
    wide = MapFile.model_validate(map_to_data(generate_map(30, 30, seed=2)))
    campaigns.execute("Wilds", LoadMap(wide, Hex.from_label("1510")))
    campaigns.new("Keep", preset("ex"), parse_party(PARTY), seed=2)
    wilds = issue_tokens(campaigns.store, "Wilds")[Role.REFEREE]
    keep = issue_tokens(campaigns.store, "Keep")[Role.REFEREE]
    app = create_app(campaigns)
    lanes = app.state.lanes = HeldLanes()

    async def tables() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://keep") as http:
            heavy = asyncio.create_task(http.get(path, params={"token": wilds, **params}))
            entered = asyncio.create_task(lanes.entered.wait())
            first, _ = await asyncio.wait({heavy, entered}, return_when=asyncio.FIRST_COMPLETED)
            assert entered in first, "the heavy read was done outside its lane"
            command = await http.post(
                "/api/campaigns/Keep/commands",
                json={"verb": "wait", "duration": "10 minutes"},
                headers={"Authorization": f"Bearer {keep}"},
            )
            assert command.status_code == 200 and not heavy.done()
            lanes.go.set()
            assert (await heavy).status_code == 200

    asyncio.run(tables())
    assert lanes.works == [work]


def test_a_lane_is_another_process_and_its_refusals_come_back_as_they_were() -> None:
    """The heavy reads share no interpreter (and no lock) with the server; a route the rules
    refuse is refused in the same words."""
    lanes = Lanes(1)

    async def ask() -> tuple[int, str]:
        pid = await lanes.run(os.getpid)
        hexmap = generate_map(12, 8, seed=7)
        start = Hex.from_offset(1, 1)
        with pytest.raises(IllegalCommandError, match="starts and ends at") as refused:
            await lanes.run(best_route, preset("tp"), hexmap, start, start)
        route = await lanes.run(best_route, preset("tp"), hexmap, start, Hex.from_offset(3, 1))
        return pid, f"{refused.value} {route.days}"

    try:
        pid, said = asyncio.run(ask())
    finally:
        lanes.close()
    assert pid != os.getpid()
    assert said.startswith("the route starts and ends at 0101") and said.endswith(" 1")
