"""Fixtures for the web tests: a campaign full of referee secrets, served over a tmp store.

Every secret carries a unique marker (``ZQ...``) so a test can grep every player response
for all of them at once, and check the referee's responses do carry them.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

with warnings.catch_warnings():
    # Starlette 1.x would rather have httpx2; httpx 0.28 is what the project pins
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from turnkeeper.campaign import CountdownAdd, Note, Visibility, parse_party
from turnkeeper.procedures.dungeon import EnterSite, Turn
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile
from turnkeeper.world.sites import parse_site

SECRETS = {
    "site notes": "ZQSITENOTE",
    "level notes": "ZQLEVELNOTE",
    "unvisited area": "ZQVAULTNAME",
    "area notes": "ZQAREANOTE",
    "wandering creature (never rolled)": "ZQWANDERER",
    "wandering text (never rolled)": "ZQWANDERTEXT",
    "wandering notes": "ZQROWNOTE",
    "encounter notes": "ZQMETNOTE",
    "hidden feature": "ZQHIDDENFEATURE",
    "feature notes": "ZQFEATURENOTE",
    "referee countdown": "ZQCOUNTDOWN",
    "referee note": "ZQREFEREENOTE",
}

SITE = f"""
[site]
name = "Old Crypt"
description = "Damp steps down."
notes = "{SECRETS["site notes"]}"
[[levels]]
number = 1
name = "Upper"
notes = "{SECRETS["level notes"]}"
[levels.encounters]
dice = "d1"
[[levels.encounters.rows]]
roll = 1
creature = "giant rat"
number = "1"
text = "Squeaking."
notes = "{SECRETS["encounter notes"]}"
[[levels.encounters.rows]]
roll = 2
creature = "{SECRETS["wandering creature (never rolled)"]}"
number = "1"
text = "{SECRETS["wandering text (never rolled)"]}"
notes = "{SECRETS["wandering notes"]}"
[[levels.areas]]
key = "1"
name = "Stair"
description = "Worn steps."
notes = "{SECRETS["area notes"]}"
[[levels.areas]]
key = "2"
name = "{SECRETS["unvisited area"]}"
"""

MAP = MapFile.model_validate(
    {
        "name": "Vale",
        "width": 3,
        "height": 2,
        "terrain": ["ppp", "ppp"],
        "hexes": [
            {
                "at": "0000",
                "features": [
                    {"id": "well", "name": "Old Well", "text": "A mossy well."},
                    {
                        "id": "crypt",
                        "name": SECRETS["hidden feature"],
                        "visibility": "hidden",
                        "notes": SECRETS["feature notes"],
                    },
                ],
            },
        ],
    }
)


@dataclass
class SseEvents:
    """Server-sent events read a line at a time: :meth:`feed` answers each event (its kind,
    id and data) at the blank line that ends it."""

    def __init__(self) -> None:
        self.event, self.ident, self.data = "", "", list[str]()

    def feed(self, line: str) -> tuple[str, str, str] | None:
        if line.startswith("event:"):
            self.event = line.split(":", 1)[1].strip()
        elif line.startswith("id:"):
            self.ident = line.split(":", 1)[1].strip()
        elif line.startswith("data:"):
            self.data.append(line[5:].removeprefix(" "))
        elif line == "" and self.event:
            done = self.event, self.ident, "\n".join(self.data)
            self.event, self.ident, self.data = "", "", []
            return done
        return None


@dataclass
class Served:
    """A campaign behind a test client, with its two tokens."""

    client: TestClient
    campaigns: Campaigns
    name: str
    tokens: dict[Role, str]

    def get(self, path: str, role: Role | None, **params: object) -> object:
        headers = {} if role is None else {"Authorization": f"Bearer {self.tokens[role]}"}
        return self.client.get(path, headers=headers, params=params)


@pytest.fixture
def markers() -> dict[str, str]:
    """The unique marker of each referee secret in the served campaign, by what it is."""
    return dict(SECRETS)


def plant_secrets(campaigns: Campaigns) -> None:
    """Start campaign Crypt with a referee secret of every kind (:data:`SECRETS`)."""
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 8\n[supplies]\ntorches = 3')
    campaigns.new("Crypt", preset("tp"), party, seed=5)
    campaigns.execute("Crypt", LoadMap(MAP, Hex.from_label("0000")))
    campaigns.execute("Crypt", EnterSite(parse_site(SITE), 1, "1"))
    campaigns.execute(
        "Crypt", CountdownAdd(SECRETS["referee countdown"], "short", "4", None, Visibility.REFEREE)
    )
    campaigns.execute("Crypt", CountdownAdd("torch smoke", "short", "3"))
    campaigns.execute("Crypt", Note(SECRETS["referee note"], Visibility.REFEREE))
    for _ in range(3):
        campaigns.execute("Crypt", Turn())


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    store = open_store(str(tmp_path / "web.db"))
    campaigns = Campaigns(store)
    plant_secrets(campaigns)
    tokens = issue_tokens(store, "Crypt")
    with TestClient(create_app(campaigns)) as client:
        yield Served(client, campaigns, "Crypt", tokens)
    store.close()
