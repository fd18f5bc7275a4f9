"""Hit points, death and daily healing (PG-HP-1, PG-HEAL-1)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from turnkeeper.campaign import AddMonster, Damage, Heal, Journal, Monster, NightRest, UseSupply
from turnkeeper.errors import IllegalCommandError

MakeJournal = Callable[..., Journal]


def test_pg_hp_1_character_unconscious_at_0(make_journal: MakeJournal) -> None:
    journal = make_journal("pg")
    journal.execute(Damage("Aldo", 10))
    aldo = journal.state.character("Aldo")
    assert aldo.hp == 0 and aldo.has("unconscious") and aldo.alive


def test_pg_hp_1_character_dies_at_minus_level(make_journal: MakeJournal) -> None:
    journal = make_journal("pg")
    journal.execute(Damage("Aldo", 11))  # level 2: -1 is still alive
    assert journal.state.character("Aldo").has("unconscious")
    journal.execute(Damage("Aldo", 1))  # -2 = minus level
    assert not journal.state.character("Aldo").alive
    state = journal.state
    with pytest.raises(IllegalCommandError, match="already dead"):
        journal.execute(Damage("Aldo", 1))
    with pytest.raises(IllegalCommandError, match="dead and cannot heal"):
        journal.execute(Heal("Aldo", 1))
    assert journal.state == state


def test_pg_hp_1_monsters_die_at_0(make_journal: MakeJournal) -> None:
    journal = make_journal("pg")
    journal.execute(AddMonster(Monster(name="Orc", hd=1, hp=5, ac=13)))
    journal.execute(Damage("Orc", 4))
    assert journal.state.monster("Orc").alive  # type: ignore[union-attr]
    journal.execute(Damage("Orc", 1))
    assert not journal.state.monster("Orc").alive  # type: ignore[union-attr]


def test_healing_stops_at_max_hp(make_journal: MakeJournal) -> None:
    journal = make_journal("pg")
    journal.execute(Damage("Bea", 5))  # 4 - 5 = -1: level 1 dies at -1
    assert not journal.state.character("Bea").alive
    journal.execute(Damage("Aldo", 3))
    journal.execute(Heal("Aldo", 9))
    assert journal.state.character("Aldo").hp == 10


def test_pg_heal_1_one_hp_a_day_with_a_meal_and_a_night(make_journal: MakeJournal) -> None:
    journal = make_journal("pg")
    journal.execute(Damage("Aldo", 5))
    journal.execute(Damage("Bea", 2))
    journal.execute(NightRest())
    assert journal.state.character("Aldo").hp == 6 and journal.state.character("Bea").hp == 3
    assert journal.state.supplies.count("rations") == 2
    journal.execute(NightRest(hours=2))  # the same calendar day: no second healing
    assert journal.state.character("Aldo").hp == 6


def test_pg_heal_1_no_healing_without_a_meal_or_an_uninterrupted_night(
    make_journal: MakeJournal,
) -> None:
    journal = make_journal("pg")
    journal.execute(Damage("Aldo", 5))
    journal.execute(NightRest(interrupted=True))
    assert journal.state.character("Aldo").hp == 5
    journal.execute(UseSupply("rations", 1))  # one ration left: Aldo eats, Bea goes hungry
    journal.execute(Damage("Bea", 2))
    records = journal.execute(NightRest(hours=24))
    assert journal.state.character("Aldo").hp == 6 and journal.state.character("Bea").hp == 2
    assert "supply.shortfall" in [r.event.kind for r in records]
