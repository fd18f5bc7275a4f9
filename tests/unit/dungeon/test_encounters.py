"""Wandering checks and encounter rolls (EX-ENC-1 to EX-ENC-5, PG-REA-1)."""

from __future__ import annotations

from fractions import Fraction

from turnkeeper.dice import TypedDice, parse
from turnkeeper.dice.exact import distribution
from turnkeeper.procedures.dungeon.wandering import (
    check_due,
    reaction_roll,
    roll_encounter,
    wandering_chance,
    wandering_check,
)
from turnkeeper.procedures.surprise import SurpriseSituation
from turnkeeper.rules.loader import preset
from turnkeeper.world.sites import Site

EX = preset("ex")


def test_ex_enc_1_check_every_2_turns_1_in_6() -> None:
    assert [t for t in range(1, 9) if check_due(t, EX.dungeon.check_every_turns)] == [2, 4, 6, 8]
    assert wandering_chance(EX.dungeon, "cautious") == 1
    assert wandering_check(EX.dungeon, 1, TypedDice([1])).encounter
    assert not wandering_check(EX.dungeon, 1, TypedDice([2])).encounter


# rule: EX-ENC-4
def test_ex_enc_4_tumult_2_in_6_running_3_in_6() -> None:
    assert wandering_chance(EX.dungeon, "swift", noisy=True) == 2
    assert wandering_chance(EX.dungeon, "running") == 3
    assert wandering_check(EX.dungeon, 3, TypedDice([3])).encounter
    assert not wandering_check(EX.dungeon, 2, TypedDice([3])).encounter


# rule: EX-ENC-2
def test_ex_enc_2_encounter_starts_2d4_x_10_ft() -> None:
    distances = distribution(parse(EX.dungeon.encounter_distance))
    assert min(distances) == 20 and max(distances) == 80 and distances[50] == Fraction(4, 16)


def test_pg_rea_1_reaction_bands_with_the_leaders_cha() -> None:
    pg = preset("pg")
    cases = {(1, 1): "hostile", (1, 2): "unfriendly", (3, 3): "neutral", (4, 5): "indifferent"}
    for faces, expected in cases.items():
        assert reaction_roll(pg, 0, TypedDice(list(faces))).result == expected
    # 2d6 (5, 6) = 11, + CHA 1 = 12: friendly
    assert reaction_roll(pg, 1, TypedDice([5, 6])).result == "friendly"
    assert reaction_roll(pg, -1, TypedDice([1, 2])).result == "hostile"


def test_encounter_rolls_creature_number_distance_reaction(site: Site) -> None:
    table = site.level(1).encounters
    assert table is not None
    # table d6 (3): drowned monk; 1d3 (2); 2d4 (1, 3) x 10 = 40 ft; cautious: no surprise
    # rolls; reaction 2d6 (3, 4) + CHA 1 = 8: neutral
    met = roll_encounter(
        EX,
        table,
        SurpriseSituation(mode_name="cautious", mode=EX.dungeon.movement["cautious"]),
        TypedDice([3, 2, 1, 3, 3, 4]),
        leader_cha=1,
    )
    assert (met.creature, met.number.total, met.distance_ft) == ("drowned monk", 2, 40)
    assert met.reaction is not None and met.reaction.result == "neutral"
    assert not met.surprise.party_surprised and len(met.rolls) == 4


def test_ex_enc_5_heard_coming_with_a_hiding_place_the_party_hides(site: Site) -> None:
    table = site.level(1).encounters
    assert table is not None
    cautious = SurpriseSituation(mode_name="running", mode=EX.dungeon.movement["running"])
    # marsh goblins (heard): the party hides, so a running party is not surprised;
    # it lies in wait: 2d6 (6, 6) stealth against 2d6 (1, 1): the goblins are caught
    dice = TypedDice([4, 2, 1, 1, 6, 6, 1, 1, 3, 4])
    met = roll_encounter(EX, table, cautious, dice, hiding_place=True)
    assert met.concealed and not met.surprise.party_surprised and met.surprise.foes_surprised
    # the giant leech cannot be heard: no hiding, and running means surprise (EX-SUR-3)
    leech = roll_encounter(EX, table, cautious, TypedDice([5, 1, 1, 3, 4]), hiding_place=True)
    assert not leech.concealed and leech.surprise.party_surprised


def test_an_encounter_names_its_creatures_in_the_number_rolled() -> None:
    """Issue 42: a table row names its creature as its author likes ("giant rats" for 2d4,
    "drowned monk" for 1d3): a roll of 1 read "1 giant rats", a roll of 3 "3 drowned monk"."""
    from turnkeeper.procedures.dungeon.encounter import _perceived
    from turnkeeper.world.visits import PendingEncounter

    def met(creature: str, number: int) -> PendingEncounter:
        return PendingEncounter(creature=creature, number=number, distance_ft=30)

    assert met("giant rats", 1).told().startswith("1 giant rat at 30 ft")
    assert met("giant rats", 2).told().startswith("2 giant rats at 30 ft")
    assert met("drowned monk", 3).told().startswith("3 drowned monks at 30 ft")
    assert met("giant leech", 1).told().startswith("1 giant leech at 30 ft")
    assert _perceived(met("marsh goblins", 1), "", heard=False) == "1 marsh goblin at 30 ft."
