"""Small builders shared by the combat tests, as fixtures (tests import by path)."""

from __future__ import annotations

import pytest

from turnkeeper.dice import TypedDice
from turnkeeper.procedures.combat import (
    Combatant,
    CombatState,
    Side,
    StartCombat,
    execute,
)
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import Ruleset


def _pc(name: str, hp: int = 8, ac: int = 12, **kw: object) -> Combatant:
    return Combatant.model_validate(
        {"name": name, "side": Side.PARTY, "hp": hp, "max_hp": hp, "ac": ac, **kw}
    )


def _foe(name: str, hp: int = 5, ac: int = 12, hd: int = 1, **kw: object) -> Combatant:
    return Combatant.model_validate(
        {"name": name, "side": Side.OPPOSITION, "hp": hp, "max_hp": hp, "ac": ac, "hd": hd, **kw}
    )


def _started(rules: Ruleset | str, *combatants: Combatant) -> CombatState:
    """A fight with nobody surprised, no dice needed."""
    ruleset = preset(rules) if isinstance(rules, str) else rules
    state, _ = execute(
        CombatState(), StartCombat(combatants, surprised=frozenset()), ruleset, TypedDice([])
    )
    return state


@pytest.fixture
def pc():
    """Build a party member: pc("Ann", hp=8, ac=12, stats={...})."""
    return _pc


@pytest.fixture
def foe():
    """Build a monster: foe("Orc", hp=5, ac=12, hd=1)."""
    return _foe


@pytest.fixture
def started():
    """Start a fight with nobody surprised: started("tp", *combatants)."""
    return _started
