"""One rule for days (issue 39): a hundred days under each preset through each command that
passes days, against a hand count of rations, water, hit points and light.

The party: Aldo at 10 of 120 hit points (healing never tops him up in 100 days), Bea at 1 of
4, 150 rations and 150 water, a torch lit where the ruleset has one. From day 1 08:00 to day
101 08:00 a hundred days pass (a hundred meals at 18:00, days 1 to 100; a hundred mornings,
days 2 to 101):

- ex, pg, dg, cb (``days.meals = "daily"``, TP-TIME-2, PG-HEAL-1): each meal eats 2
  rations and 2 water; the food lasts 75 meals (150 / 2), the 25 last days go hungry. Each
  night after a meal heals 1 hp: Aldo 10 + 75 = 85, Bea 1 + 3 = 4 (her most). Rations 0,
  water 0.
- tp (``days.meals = "die"``, TP-ENC-2): no meal is stamped; with every die a Free Turn no
  food goes (Forced Rest faces eat). Every night heals: Aldo 10 + 100 = 110, Bea 4. Rations
  150, water 150.
- The light: under ex a torch lit from the 10 (9 left) is put out as the days begin (no
  dungeon turn passes out of a site); under tp the torch (9 left) burns on, a light lasting
  until a Waning Resources face (TP-ENC-2) and every die a Free Turn; pg, dg and cb have no
  light sources.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from turnkeeper.campaign import Journal, Light, Wait
from turnkeeper.dice import TypedDice
from turnkeeper.procedures.parties import BringForward
from turnkeeper.procedures.wilderness import Camp, LoadMap
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile

MakeJournal = Callable[..., Journal]
DAY = 86400

PARTY = """
leader = "Aldo"
[[characters]]
name = "Aldo"
hp = 10
max_hp = 120
[[characters]]
name = "Bea"
hp = 1
max_hp = 4
[supplies]
rations = 150
water = 150
torches = 10
"""

#: (rations, water, Aldo's hp, Bea's hp, torches) after the hundred days, by hand above.
COUNTED = {
    "ex": (0, 0, 85, 4, 9),
    "pg": (0, 0, 85, 4, 10),
    "dg": (0, 0, 85, 4, 10),
    "cb": (0, 0, 85, 4, 10),
    "tp": (150, 150, 110, 4, 9),
}
FREE_TURN = 5  # tp: every overloaded die a Free Turn (the encounter and the wilderness die)
VALE = MapFile.model_validate({"name": "Vale", "width": 2, "height": 2, "terrain": ["pp", "pp"]})


def _hundred_days(journal: Journal, how: str) -> None:
    dice = TypedDice([FREE_TURN] * 1000)
    if how == "wait":
        journal.execute(Wait(100 * DAY), dice)
    elif how == "forward":
        journal.execute(BringForward(days=100), dice)
    else:
        journal.execute(LoadMap(VALE, Hex.parse("0000")), dice)
        for _ in range(100):
            journal.execute(Camp(), dice)


@pytest.mark.parametrize("how", ["wait", "forward", "camp"])
@pytest.mark.parametrize("ruleset", sorted(COUNTED))
def test_tp_time_2_a_hundred_days_spend_food_water_and_heal_by_one_rule(
    make_journal: MakeJournal, ruleset: str, how: str
) -> None:
    """TP-TIME-2, TP-ENC-2, PG-HEAL-1, EX-REST-1: `wait 100d`, `party forward --days 100`
    and a hundred camps on a map each pass the same hundred days, the same way."""
    journal = make_journal(ruleset, party=PARTY)
    if journal.state.ruleset.light.sources:
        journal.execute(Light(next(iter(journal.state.ruleset.light.sources))))
    _hundred_days(journal, how)
    state = journal.state
    assert state.now == 100 * DAY and state.date == "1-04-11 08:00"
    rations, water, aldo, bea, torches = COUNTED[ruleset]
    assert state.supplies.count("rations") == rations
    assert state.supplies.count("water") == water
    assert state.supplies.count("torches") == torches
    assert [c.hp for c in state.party.characters] == [aldo, bea]
    assert state.light.source == ("torch" if ruleset == "tp" else None)
    assert not any(c.conditions for c in state.party.characters)  # never wearied out of a site
