"""Fixtures for the wilderness procedures: small maps and a campaign on them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from turnkeeper.campaign import Journal, Recorded, parse_party
from turnkeeper.dice import TypedDice
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import LostRules, Ruleset
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile

PARTY = """
[[characters]]
name = "Aldo"
hp = 10

[[characters]]
name = "Bea"
hp = 4

[supplies]
rations = 4
water = 4
"""


def make_map(terrain: list[str], roads: list[str] | None = None, **extra: Any) -> MapFile:
    """A map from terrain rows (top to bottom), optional road rows and ``hexes`` entries."""
    return MapFile.model_validate(
        {
            "name": "Test Vale",
            "width": len(terrain[0]),
            "height": len(terrain),
            "terrain": terrain,
            **({"roads": roads} if roads else {}),
            **extra,
        }
    )


def no_lost(rules: Ruleset) -> Ruleset:
    """The ruleset with getting lost switched off, so only the die under test rolls."""
    return rules.model_copy(update={"lost": LostRules(enabled=False)})


def quiet(rules: Ruleset) -> Ruleset:
    """No wilderness die and no getting lost: only the travel arithmetic under test rolls."""
    wild = rules.wilderness.model_copy(update={"travel_checks": [], "explore_checks": []})
    return no_lost(rules).model_copy(update={"wilderness": wild})


Start = Callable[..., Journal]


@pytest.fixture
def start() -> Start:
    """``start(terrain_rows, at="0000", rules=..., party=TOML, roads=..., vessel=NAME, ...)``."""

    def make(
        terrain: list[str],
        at: str = "0000",
        rules: Ruleset | None = None,
        party: str = PARTY,
        roads: list[str] | None = None,
        vessel: str | None = None,
        **extra: Any,
    ) -> Journal:
        ruleset = rules if rules is not None else quiet(preset("tp"))
        journal = Journal.start("wild", ruleset, parse_party(party), seed=5)
        loaded = LoadMap(make_map(terrain, roads, **extra), Hex.parse(at), vessel)
        journal.execute(loaded, TypedDice([]))
        return journal

    return make


def kinds(records: list[Recorded], kind: str) -> list[Any]:
    """The events of one kind among records."""
    return [r.event for r in records if r.event.kind == kind]


@pytest.fixture
def tp_rules() -> Callable[..., Ruleset]:
    """``tp_rules(die=True, lost=False)``: the tp preset with the die and/or getting lost."""

    def make(die: bool = True, lost: bool = False) -> Ruleset:
        rules = preset("tp")
        if not die:
            return (
                quiet(rules) if not lost else quiet(rules).model_copy(update={"lost": rules.lost})
            )
        return rules if lost else no_lost(rules)

    return make


@pytest.fixture
def of_kind() -> Callable[[list[Recorded], str], list[Any]]:
    """``of_kind(records, "wilderness.die")``: the events of one kind."""
    return kinds
