"""The party's line of each event that carries a referee's secret: what the characters see.

A foe's armour class, hit dice, hit points, damage dice and morale, and a light's turns left,
are the referee's (EX-LIGHT-1, PG-HP-1, CB-SUR-2); the players read that a foe is hit, is
wounded, falls or flees, and that the torch gutters. Events without secrets keep one line.
"""

from __future__ import annotations

import re

import pytest

from turnkeeper.campaign import Monster
from turnkeeper.kernel.combat_state import Condition
from turnkeeper.kernel.events import ClockAdvanced, CommandUndone, Event, NoteMade, RollRecord
from turnkeeper.procedures.combat.events import MoraleChecked
from turnkeeper.procedures.combat.outcomes import AttackMade, Damaged, OpposedSave, SaveRolled
from turnkeeper.procedures.hit_points import HitPointsChanged, MonsterAdded
from turnkeeper.procedures.light import LightBurned, LightLit, LightTimeSet, LightWarning

ROLL = RollRecord(expression="3d11", total=17, breakdown="3d11 (5+6+6) = 17")
#: Numbers a party line must not carry: stats, totals against them, turns left.
NUMBERS = re.compile(r"\d")

PARTY_LINES: list[tuple[Event, str | None]] = [
    (
        AttackMade(
            attacker="Ann", target="Ogre", aimed_at="Ogre", ranged=False, total=13, ac=37, hit=True
        ),
        "Ann attacks Ogre: hits",
    ),
    (
        AttackMade(
            attacker="Ann", target="Orc", aimed_at="Ogre", ranged=True, total=9, ac=37, hit=False
        ),
        "Ann shoots at Orc (aimed at Ogre): misses",
    ),
    (
        Damaged(target="Ogre", amount=17, hp_after=66, cause="Ann", rolls=(ROLL,)),
        "Ogre is wounded (Ann)",
    ),
    (
        Damaged(target="Ogre", amount=9, hp_after=0, becomes=(Condition.DEAD,), cause="Ann"),
        "Ogre is struck down, dead (Ann)",
    ),
    (
        Damaged(target="Bea", amount=4, hp_after=0, becomes=(Condition.UNCONSCIOUS,)),
        "Bea falls unconscious",
    ),
    (Damaged(target="Ogre", amount=0, hp_after=83, cause="Ann"), "Ogre is struck but unhurt (Ann)"),
    (
        MoraleChecked(names=("Orc", "Ogre"), score=11, total=12, holds=False),
        "Orc, Ogre break and flee",
    ),
    (MoraleChecked(names=("Ogre",), score=11, total=5, holds=True), "Ogre stand their ground"),
    (SaveRolled(name="Ogre", target=12, total=14, success=True), "Ogre saves"),
    (SaveRolled(name="Ann", target=12, total=3, success=False), "Ann fails a save"),
    (
        OpposedSave(first="Ann", second="Ogre", totals=(14, 9), winner="Ann"),
        "Ann and Ogre clash: Ann acts first",
    ),
    (
        HitPointsChanged(target="Troll", change=-5, hp=46, status="ok", reason="a trap"),
        "Troll is wounded (a trap)",
    ),
    (HitPointsChanged(target="Troll", change=-46, hp=0, status="dead"), "Troll dies"),
    (HitPointsChanged(target="Bea", change=3, hp=7, status="ok"), "Bea is healed"),
    (
        HitPointsChanged(target="Bea", change=-9, hp=-1, status="unconscious"),
        "Bea falls unconscious",
    ),
    (MonsterAdded(monster=Monster(name="Troll", hd=5, hp=51, max_hp=51, ac=33)), "Troll appears"),
    (LightBurned(turns_left=2), None),
    (LightTimeSet(turns_left=4), None),
    (CommandUndone(command=7), None),
    (
        LightWarning(source="torch", turns_left=1),
        "the torch gutters: it will not burn much longer",
    ),
]


@pytest.mark.parametrize(("event", "line"), PARTY_LINES, ids=lambda x: getattr(x, "kind", ""))
def test_the_party_reads_what_the_characters_perceive(event: Event, line: str | None) -> None:
    assert event.describe_to_party() == line
    assert event.describe_to_party() != event.describe()  # the referee's line keeps the secret
    if line is not None:
        assert not NUMBERS.search(line), line


@pytest.mark.parametrize(
    "event",
    [e for e, _ in PARTY_LINES if e.kind.startswith("combat.")],
    ids=lambda e: e.kind,
)
def test_combat_dice_that_would_bracket_a_stat_are_not_shown(event: Event) -> None:
    with_roll = event.model_copy(update={"rolls": (ROLL,)})
    assert with_roll.rolls_to_party() == ()
    assert with_roll.rolls == (ROLL,)  # the record keeps them for the referee


def test_a_light_is_seen_by_its_reach_not_its_turns() -> None:
    lit = LightLit(source="torch", supply="torches", radius_ft=30, turns=3)
    assert lit.describe_to_party() == "torch lit (30 ft); 1 from torches"
    assert "3 turns" in lit.describe()


def test_events_without_secrets_read_the_same_to_both() -> None:
    """The default: the referee's line and its rolls (most events hide nothing)."""
    for event in (NoteMade(text="the door sticks"), ClockAdvanced(to=600, seconds=600)):
        rolled = event.model_copy(update={"rolls": (ROLL,)})
        assert rolled.describe_to_party() == rolled.describe()
        assert rolled.rolls_to_party() == (ROLL,)
