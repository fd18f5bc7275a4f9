"""Shared pieces for the dungeon tests: a party, the example site, a journal inside it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from turnkeeper.campaign import Character, Journal, Party, Supplies
from turnkeeper.procedures.dungeon import EnterSite
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import FaceEvent, Ruleset
from turnkeeper.world.sites import Site, load_site

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "site.toml"


@pytest.fixture(scope="session")
def site() -> Site:
    return load_site(EXAMPLE)


def party() -> Party:
    return Party(
        characters=(
            Character(name="Ana", hp=6, stats={"DEX": 1, "WIS": 0, "CHA": 1}),
            Character(name="Bo", hp=8, stats={"WIS": 1}),
        ),
        supplies=Supplies(counted={"torches": 5, "oil": 2, "rations": 10, "water": 10}),
    )


@pytest.fixture
def inside(site: Site) -> Callable[..., Journal]:
    """A journal of a campaign under a preset whose party has just entered the example site."""

    def make(ruleset: str | Ruleset, seed: int = 1, level: int | None = None) -> Journal:
        rules = preset(ruleset) if isinstance(ruleset, str) else ruleset
        journal = Journal.start("t", rules, party(), seed)
        journal.execute(EnterSite(site, level))
        return journal

    return make


@pytest.fixture
def face_of() -> Callable[[Ruleset, FaceEvent], int]:
    """The face of the dungeon die showing an event, read from the ruleset's data."""

    def find(rules: Ruleset, event: FaceEvent) -> int:
        die = rules.dice[rules.dungeon.die]
        return next(n for n, face in die.faces.items() if face.event is event)

    return find
