"""One rule for days (issue 39): a hundred days under each preset through each command that
passes days (`wait`, `party forward`'s downtime, a camp off the map, a travel day and its
night camp on the map, a ride off the map sent as its own party), against a hand count of
rations, water, hit points and light.

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
- The light: under ex a torch lit from the 10 (9 left) is put out as the days begin, or as
  the first travel watch does (no dungeon turn passes out of a site); under tp the torch (9
  left) burns on, a light lasting until a Waning Resources face (TP-ENC-2) and every die a
  Free Turn; pg, dg and cb have no light sources.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from turnkeeper.campaign import AsParty, Journal, Light, Wait
from turnkeeper.dice import TypedDice
from turnkeeper.kernel.party import parse_party
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.parties import BringForward, NewParty
from turnkeeper.procedures.wilderness import Camp, LoadMap, Travel
from turnkeeper.rules.schema.time import FaceEvent
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


#: Every command that passes days: `wait`, `party forward`, `camp` off the map, a travel
#: day and its night camp on the map, and a ride: a wait sent as a party of its own.
HOW = ["wait", "forward", "camp", "travel", "ride"]
RIDE = "Ride"


def _hundred_days(
    journal: Journal, how: str, dice: TypedDice | None, party: str = PARTY
) -> CampaignState:
    """A hundred days passed by ``how``, from a light lit where the ruleset has one; the
    state of the party that lived them."""
    light = next(iter(journal.state.ruleset.light.sources), None)
    if how == "ride":
        # the riders are the same party under names of their own (a world's names are one)
        riders = party.replace("Aldo", "Cas").replace("Bea", "Dov")
        journal.execute(NewParty(RIDE, parse_party(riders)))
        if light is not None:
            journal.execute(AsParty(RIDE, Light(light)))
        journal.execute(AsParty(RIDE, Wait(100 * DAY)), dice)
        return journal.state.as_party(RIDE)
    if light is not None:
        journal.execute(Light(light))
    if how == "wait":
        journal.execute(Wait(100 * DAY), dice)
    elif how == "forward":
        journal.execute(BringForward(days=100), dice)
    elif how == "camp":
        for _ in range(100):
            journal.execute(Camp(), dice)
    else:
        journal.execute(LoadMap(VALE, Hex.parse("0000")), dice)
        for day in range(100):
            journal.execute(Travel("s" if day % 2 == 0 else "n"), dice)
            journal.execute(Camp(), dice)
    return journal.state


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("ruleset", sorted(COUNTED))
def test_tp_time_2_a_hundred_days_spend_food_water_and_heal_by_one_rule(
    make_journal: MakeJournal, ruleset: str, how: str
) -> None:
    """TP-TIME-2, TP-ENC-2, PG-HEAL-1, EX-REST-1: `wait 100d`, `party forward --days 100`,
    a hundred camps, a hundred days of travel on a map and a ride of 100 days each pass the
    same hundred days, the same way."""
    journal = make_journal(ruleset, party=PARTY)
    state = _hundred_days(journal, how, TypedDice([FREE_TURN] * 2000))
    assert state.now == 100 * DAY and state.date == "1-04-11 08:00"
    rations, water, aldo, bea, torches = COUNTED[ruleset]
    assert state.supplies.count("rations") == rations
    assert state.supplies.count("water") == water
    assert state.supplies.count("torches") == torches
    assert [c.hp for c in state.party.characters] == [aldo, bea]
    assert state.light.source == ("torch" if ruleset == "tp" else None)
    assert not any(c.conditions for c in state.party.characters)  # never wearied out of a site
    assert not [r for r in journal.records if r.event.kind == "light.burned"]  # no site


def _faces(journal: Journal, kind: str, face: FaceEvent) -> int:
    """How many of the journal's rolls of an overloaded die (by its record's kind) showed
    ``face``: the hand count reads the dice the journal records."""
    return sum(
        1
        for r in journal.records
        if r.event.kind == kind and str(getattr(r.event, "event", "")) == face.value
    )


@pytest.mark.parametrize("how", HOW)
def test_tp_enc_1_tp_wenc_4_a_hundred_days_spend_by_the_faces_the_journal_records(
    make_journal: MakeJournal, how: str
) -> None:
    """TP-ENC-1, TP-WENC-4, TP-ENC-2 (tp, the dice 3, 4, 5, 5, 5 again and again): food and
    water go only on the dice's faces, counted from the faces the journal records. Each
    Forced Rest of the downtime die (TP-ENC-1 face 3) and each Waning Resources of the
    wilderness die (TP-WENC-4 face 3, rest and consume) eats a ration and a water each, 2 of
    each; each Waning Resources of the downtime die (TP-ENC-1 face 4) puts the torch out and
    lights a new one while the 9 torches last. Every night heals: Aldo 10 + 100 = 110."""
    journal = make_journal("tp", party=PARTY)
    state = _hundred_days(journal, how, TypedDice([3, 4, 5, 5, 5] * 800))
    rests = _faces(journal, "encounter.die", FaceEvent.FORCED_REST)
    waning = _faces(journal, "wilderness.die", FaceEvent.WANING_RESOURCES)
    relit = _faces(journal, "encounter.die", FaceEvent.WANING_RESOURCES)
    if how == "travel":
        assert rests == relit == 0 and waning > 0  # the map rolls the wilderness die alone
    else:
        assert (rests, relit, waning) == (20, 20, 0)  # a die a day, one in five each
    assert state.supplies.count("rations") == 150 - 2 * (rests + waning)
    assert state.supplies.count("water") == 150 - 2 * (rests + waning)
    assert state.supplies.count("torches") == 9 - min(relit, 9)
    assert state.light.source == ("torch" if relit <= 9 else None)
    assert [c.hp for c in state.party.characters] == [110, 4]


#: The party with its rations on a usage die (PG-USE-1) and no light.
ON_A_DIE = PARTY.replace("rations = 150", 'rations = "d12"').replace("torches = 10\n", "")


@pytest.mark.parametrize("how", HOW)
def test_pg_use_1_rations_on_a_usage_die_feed_the_days_the_journal_rolls_them(
    make_journal: MakeJournal, how: str
) -> None:
    """PG-USE-1, PG-HEAL-1 (pg, the journal's own seeded dice): the day's meal rolls the
    rations' usage die once while it lasts, and every roll feeds everyone, the roll that
    empties it too; then the party goes hungry. Hand count from the rolls the journal
    records: n meals, 2n water, Aldo 10 + n, and no die left when the chain ran out."""
    journal = make_journal("pg", party=ON_A_DIE)
    state = _hundred_days(journal, how, None, ON_A_DIE)
    rolls = [r.event for r in journal.records if r.event.kind == "supply.usage_rolled"]
    meals = len(rolls)
    assert 0 < meals < 100  # d12 down to d4: the chain runs out well within 100 days
    assert [getattr(roll, "after", 0) for roll in rolls][-1] is None  # the last one empties it
    assert "rations" not in state.supplies.dice
    assert state.supplies.count("water") == 150 - 2 * meals
    assert [c.hp for c in state.party.characters] == [10 + meals, 4]
