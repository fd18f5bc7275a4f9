"""Procedures a preset borrows from another text, each an entry of its own in the rule
reference (issue 39): the numbers the borrower carries are the lender's, and roll alike."""

from __future__ import annotations

import pytest

from turnkeeper.dice import TypedDice
from turnkeeper.rules.loader import preset
from turnkeeper.tables import reaction

TP, EX, PG, CB = preset("tp"), preset("ex"), preset("pg"), preset("cb")


def test_tp_sur_1_surprise_under_tp_is_the_exploration_texts_by_pace():
    # rule: TP-SUR-1, borrowed from EX-SUR-1 to EX-SUR-5 and EX-LIGHT-3: cautious is never
    # surprised, swift risks it, running always is; the contest DEX/Stealth against
    # WIS/Scout, both against 9; a light spoils the party's own surprise.
    assert TP.surprise.model_dump() == EX.surprise.model_dump()
    paces = {name: mode.surprise for name, mode in TP.dungeon.movement.items()}
    assert paces == {"cautious": "never", "swift": "risk", "running": "always"}
    assert paces == {name: mode.surprise for name, mode in EX.dungeon.movement.items()}
    assert (TP.surprise.both_difficulty, TP.surprise.light_spoils_surprise) == (9, True)


def test_tp_dun_3_a_dungeon_encounter_under_tp_begins_at_2d4_x_10_ft():
    # rule: TP-DUN-3, borrowed from EX-ENC-2: 2d4 x 10 ft, from 20 to 80.
    assert TP.dungeon.encounter_distance == EX.dungeon.encounter_distance == "2d4x10"


@pytest.mark.parametrize(
    ("rules", "rule_id"), [(TP, "TP-REA-1"), (EX, "EX-REA-1"), (CB, "CB-REA-1")]
)
def test_tp_rea_1_ex_rea_1_cb_rea_1_the_reaction_table_is_pg_rea_1s(rules, rule_id):
    # rule: TP-REA-1, EX-REA-1, CB-REA-1, borrowed from PG-REA-1: 2d6 + the leader's CHA;
    # (3, 4) + 1 = 8 neutral, (6, 5) + 1 = 12 friendly, (1, 1) + 0 = 2 hostile.
    assert rules.tables["reaction"] == PG.tables["reaction"], rule_id
    for faces, cha, result in [
        ([3, 4], 1, "neutral"),
        ([6, 5], 1, "friendly"),
        ([1, 1], 0, "hostile"),
    ]:
        assert reaction(rules, TypedDice(faces), cha).result == result
