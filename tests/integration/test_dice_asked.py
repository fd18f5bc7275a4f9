"""Too few typed-in dice: the error says every die the command rolls, not one die per try
(issue 40 item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from turnkeeper.campaign import Light, parse_party
from turnkeeper.errors import TooFewDiceError
from turnkeeper.procedures.dungeon import EnterSite, Turn
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.world.sites import parse_site

SITE = """
[site]
name = "Old Crypt"
[[levels]]
number = 1
[levels.encounters]
dice = "d1"
[[levels.encounters.rows]]
roll = 1
creature = "giant rat"
number = "1d4"
[[levels.areas]]
key = "1"
name = "Stair"
"""


@pytest.fixture
def campaigns(tmp_path: Path) -> Campaigns:
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 7\n[supplies]\ntorches = 3')
    kept = Campaigns(open_store(str(tmp_path / "dice.db")))
    kept.new("Crypt", preset("tp"), party, seed=1)
    kept.execute("Crypt", EnterSite(parse_site(SITE), 1, "1"))
    kept.execute("Crypt", Light("torch"))
    return kept


def test_too_few_dice_names_every_die_the_turn_rolls(campaigns: Campaigns) -> None:
    """TP-ENC-1: a turn's encounter die showing 1 is an encounter, which rolls its own dice:
    one typed die (a 1) is told all of them at once, and typing that many runs the turn."""
    version = campaigns.state("Crypt").version
    with pytest.raises(TooFewDiceError) as refused:
        campaigns.execute("Crypt", Turn(), typed_dice=[1])
    said = str(refused.value)
    asked = campaigns.dice_asked("Crypt", Turn())
    rolls = ", ".join(f"d{sides}" for sides in asked)
    assert f"this command rolls {len(asked)} dice, {rolls}; 1 given" in said
    assert asked[0] == 6 and len(asked) > 2  # the wandering die, then the encounter's dice
    assert campaigns.state("Crypt").version == version
    records = campaigns.execute("Crypt", Turn(), typed_dice=[1] * len(asked))
    assert sum(len(r.event.rolls) for r in records) > 1


def test_a_turn_whose_die_shows_no_encounter_rolls_fewer(campaigns: Campaigns) -> None:
    """The count is the dice's own: a wandering die of 2 asks for no encounter dice."""
    assert len(campaigns.journal("Crypt").dice_asked(Turn(), [2])) < len(
        campaigns.dice_asked("Crypt", Turn())
    )
