"""Blows at the fallen: who a blow may still strike (TP-INI-2, PG-HP-1).

Under TP "everything happens at once": two attacks on the same target both resolve, "then
check who is still standing". Which of the fallen a blow may strike is the ruleset's
reading (``attack.strikes_fallen``): the unconscious by default, so PG-HP-1's hit points
between unconscious and dead are reached in play; the dead never.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from turnkeeper.campaign import Character, Journal, Party
from turnkeeper.campaign.commands import Damage
from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError, RulesetError
from turnkeeper.procedures.combat import (
    Action,
    ActionKind,
    AnnounceDone,
    Attack,
    BeginRound,
    Combatant,
    Condition,
    Declare,
    Resolve,
    Side,
    StartFight,
)
from turnkeeper.procedures.combat.outcomes import AttackMade, Damaged
from turnkeeper.rules import preset
from turnkeeper.rules.loader import load_ruleset
from turnkeeper.rules.schema import Ruleset


def _party() -> Party:
    return Party(
        characters=(
            Character(name="Aldo", level=1, hp=8, ac=12, damage="d6", stats={"STR": 0}),
            Character(name="Bea", level=1, hp=8, ac=12, damage="d6", stats={"STR": 0}),
            Character(name="Cid", level=2, hp=3, ac=12, damage="d6", stats={"STR": 0}),
        )
    )


def _orc(hp: int = 3) -> Combatant:
    return Combatant(name="Orc", side=Side.OPPOSITION, hp=hp, max_hp=hp, ac=10, hd=1)


def _fight(rules: Ruleset, *foes: Combatant) -> Journal:
    journal = Journal.start("Keep", rules, _party(), seed=1)
    journal.execute(StartFight(foes=foes or (_orc(),), surprised=frozenset()))
    return journal


def _attack(name: str, target: str) -> Declare:
    return Declare(name, (Action(kind=ActionKind.ATTACK, target=target),))


def test_tp_ini_2_two_attacks_on_the_same_target_both_resolve() -> None:
    """TP-INI-2: "When two participants are attacking either each other or the same target,
    this is not an opposed action: Resolve both attacks, then check who is still standing".
    Initiative d6 5 (respite, the PCs have it). Aldo and Bea attack the Orc (3 hp, AC 10),
    the Orc attacks Aldo. Aldo's d20 15 hits and his d6 4 fells the Orc; Bea's d20 12 is
    still rolled and hits for 2; the Orc's d20 14 hits Aldo for 5: all at once."""
    journal = _fight(preset("tp"))
    journal.execute(BeginRound(), TypedDice([5]))
    journal.execute(Declare("Orc", (Action(kind=ActionKind.ATTACK, target="Aldo"),)))
    journal.execute(_attack("Aldo", "Orc"))
    journal.execute(_attack("Bea", "Orc"))
    records = journal.execute(Resolve(), TypedDice([15, 4, 12, 2, 14, 5]))
    attacks = [r.event for r in records if isinstance(r.event, AttackMade)]
    assert [(a.attacker, a.target, a.hit) for a in attacks] == [
        ("Aldo", "Orc", True), ("Bea", "Orc", True), ("Orc", "Aldo", True)
    ]  # fmt: skip
    wounds = [(e.target, e.hp_after) for r in records if isinstance(e := r.event, Damaged)]
    assert wounds == [("Orc", -1), ("Orc", -3), ("Aldo", 3)]
    assert not any("already down" in r.event.describe() for r in records)


def test_tp_ini_2_a_blow_struck_at_once_at_one_felled_this_round_is_rolled() -> None:
    """TP-INI-2, the same blows struck at once (`combat attack`): Aldo's d20 15, d6 4 fells
    the Orc; Bea's blow at it is still rolled (d20 12, d6 2). Under pg, where the party's
    beat acts before the Orc's (PG-CBT-1) and members act in turn, Bea's is refused."""
    journal = _fight(preset("tp"))
    journal.execute(BeginRound(), TypedDice([5]))
    journal.execute(AnnounceDone(Side.OPPOSITION))  # the side with initiative acts last
    journal.execute(Attack("Aldo", "Orc"), TypedDice([15, 4]))
    struck = journal.execute(Attack("Bea", "Orc"), TypedDice([12, 2]))
    assert [r.event.kind for r in struck][:2] == ["combat.attack", "combat.damage"]
    pg = _fight(preset("pg"), _orc(), _orc(hp=5).model_copy(update={"name": "Goblin"}))
    pg.execute(BeginRound(), TypedDice([5, 2]))
    pg.execute(Attack("Aldo", "Orc"), TypedDice([15, 4]))
    with pytest.raises(IllegalCommandError, match="Orc is dead, out of the fight and no target"):
        pg.execute(Attack("Bea", "Orc"), TypedDice([12, 2]))


def test_pg_hp_1_a_blow_at_the_unconscious_takes_them_on_towards_death() -> None:
    """PG-HP-1: "When these reach zero, the character is unconscious. They die at negative
    hit points equal to their level." Cid (level 2, 3 hp) is struck to 0 and falls
    unconscious; the Orc's next blow, d20 15 + 1 HD, d6 2, leaves him at -2: dead. The dead
    are struck no more; under a ruleset whose ``attack.strikes_fallen`` is empty the
    unconscious Cid is no target either."""
    journal = _fight(preset("pg"), _orc(hp=9))
    journal.execute(BeginRound(), TypedDice([2, 5]))  # the Orc's side has initiative
    journal.execute(Damage("Cid", 3))
    cid = journal.state.combat.get("Cid")  # type: ignore[union-attr]
    assert cid.hp == 0 and Condition.UNCONSCIOUS in cid.conditions
    struck = journal.execute(Attack("Orc", "Cid"), TypedDice([15, 2]))
    (wound,) = [r.event for r in struck if isinstance(r.event, Damaged)]
    assert (wound.hp_after, wound.becomes) == (-2, (Condition.DEAD,))
    with pytest.raises(IllegalCommandError, match="Cid is dead, out of the fight and no target"):
        journal.execute(Attack("Bea", "Cid", own_side=True), TypedDice([15, 2]))
    pg = preset("pg")
    spared = pg.model_copy(update={"attack": pg.attack.model_copy(update={"strikes_fallen": []})})
    journal = _fight(spared, _orc(hp=9))
    journal.execute(BeginRound(), TypedDice([2, 5]))
    journal.execute(Damage("Cid", 3))
    with pytest.raises(IllegalCommandError, match="Cid is unconscious, out of the fight"):
        journal.execute(Attack("Orc", "Cid"), TypedDice([15, 2]))


@pytest.mark.parametrize(
    ("section", "line", "says"),
    [
        ("attack", 'strikes_fallen = ["dead"]', "expected 'unconscious', 'fled' or 'surrendered'"),
        ("attack", 'strikes_fallen = ["fled", "fled", "fled", "fled"]', "at most 3"),
        ("surprise", 'method = "movement"\nat_rest = "sometimes"', "expected 'never', 'risk'"),
    ],
)
def test_pg_hp_1_and_ex_sur_1_the_readings_keys_are_checked(
    tmp_path: Path, section: str, line: str, says: str
) -> None:
    """PG-HP-1's ``attack.strikes_fallen`` (the dead never) and EX-SUR-1's
    ``surprise.at_rest``: a value the reading does not know is one clear error."""
    path = tmp_path / "mine.toml"
    path.write_text(f'extends = "pg"\n[ruleset]\nname = "mine"\n[{section}]\n{line}\n')
    with pytest.raises(RulesetError, match=says):
        load_ruleset(path)
