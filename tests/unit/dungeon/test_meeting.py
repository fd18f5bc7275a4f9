"""The dungeon turn meets the occupants of an area the party moves into (EX-SUR-1 to 3).

"Those in swift movement risk surprise whenever their movement carries them into an
occupied place"; "those in running movement are always surprised whenever they encounter
others"; cautious, only "unless the foes leap on them from ambush".
"""

from __future__ import annotations

from turnkeeper.campaign import Character, Journal, Light, Party, Supplies
from turnkeeper.dice import TypedDice
from turnkeeper.procedures.dungeon import EndEncounter, EnterSite, Turn
from turnkeeper.rules.loader import preset
from turnkeeper.world.sites import PendingEncounter, parse_site

ABBEY = parse_site(
    """
[site]
name = "Abbey"
wandering = false
[[levels]]
number = 1
areas = [
  {key = "1", name = "Gate"},
  {key = "2", name = "Flooded garth", occupied = true, occupants = "giant leech"},
  {key = "3", name = "Cells", occupants = "ghoul", ambush = true},
]
"""
)


def _inside() -> Journal:
    party = Party(
        characters=(
            Character(name="Ana", hp=6, stats={"DEX": 1, "WIS": 0, "CHA": 1}),
            Character(name="Bo", hp=8, stats={"WIS": 1}),
        ),
        supplies=Supplies(counted={"torches": 2}),
    )
    journal = Journal.start("t", preset("ex"), party, 1)
    journal.execute(EnterSite(ABBEY, None, "1"))
    return journal


def _been_in_the_garth() -> Journal:
    """The party has met the leech in the garth cautiously, left it, and stands at the gate
    with a torch lit (EX-MOV-2, EX-MAP-1: a swift party goes where it has explored, by
    light to read its map)."""
    journal = _inside()
    journal.execute(Light("torch"))
    journal.execute(Turn(mode="cautious", area="2"), TypedDice([3, 4]))
    journal.execute(EndEncounter())
    journal.execute(Turn(mode="cautious", area="1"))
    return journal


def _met(journal: Journal, turn: Turn, faces: list[int]) -> PendingEncounter | None:
    journal.execute(turn, TypedDice(faces))
    return journal.state.site.encounter if journal.state.site else None


def test_ex_sur_3_a_running_party_entering_an_occupied_area_is_surprised() -> None:
    """EX-SUR-3: running into the flooded garth, the party meets the giant leech and is
    surprised, no die rolled for it; only the reaction's 2d6 (3, 4)."""
    met = _met(_inside(), Turn(mode="running", area="2"), [3, 4])
    assert met is not None and met.creature == "giant leech"
    assert met.party_surprised and met.free_round == "opposition"


def test_ex_sur_2_a_swift_party_carried_into_an_occupied_place_rolls_the_contest() -> None:
    """EX-SUR-2, EX-SUR-4: swift into the garth, explored before (EX-MOV-2: the party met
    the leech there cautiously, left it be and went back to the gate) and by torchlight:
    the leech's DEX/Stealth 2d6 (4, 4) = 8 beats Bo's WIS/Scout (3, 3) + 1 = 7: surprised;
    (3, 3) = 6 does not."""
    met = _met(_been_in_the_garth(), Turn(mode="swift", area="2"), [4, 4, 3, 3, 3, 4])
    assert met is not None and met.party_surprised
    met = _met(_been_in_the_garth(), Turn(mode="swift", area="2"), [3, 3, 3, 3, 3, 4])
    assert met is not None and not met.party_surprised


def test_ex_sur_1_a_cautious_party_is_surprised_entering_only_from_ambush() -> None:
    """EX-SUR-1: cautious into the garth, no surprise and no die for it; into the cells,
    where the ghoul lies in ambush, or with `turn --ambush`, the contest: 2d6 (5, 5) = 10
    beats Bo's (2, 2) + 1 = 5."""
    met = _met(_inside(), Turn(mode="cautious", area="2"), [3, 4])
    assert met is not None and not met.party_surprised
    met = _met(_inside(), Turn(mode="cautious", area="3"), [5, 5, 2, 2, 3, 4])
    assert met is not None and met.creature == "ghoul" and met.party_surprised
    leapt = Turn(mode="cautious", area="2", ambush=True)
    met = _met(_inside(), leapt, [5, 5, 2, 2, 3, 4])
    assert met is not None and met.party_surprised


def test_ex_sur_2_staying_in_an_occupied_area_meets_nobody_again() -> None:
    """EX-SUR-2 speaks of movement that carries the party into an occupied place: a turn
    spent where it already is meets no one anew."""
    journal = _inside()
    _met(journal, Turn(mode="cautious", area="2"), [3, 4])
    journal.execute(EndEncounter())
    assert _met(journal, Turn(mode="running"), []) is None
