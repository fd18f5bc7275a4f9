"""The dungeon turn meets the occupants of an area the party moves into (EX-SUR-1 to 3).

"Those in swift movement risk surprise whenever their movement carries them into an
occupied place"; "those in running movement are always surprised whenever they encounter
others"; cautious, only "unless the foes leap on them from ambush".
"""

from __future__ import annotations

import pytest

from turnkeeper.campaign import Character, Journal, Light, Party, SetLight, Supplies
from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.combat import Combatant, Side, StartFight
from turnkeeper.procedures.combat.roster import parse_monster
from turnkeeper.procedures.dungeon import EndEncounter, EnterSite, Turn
from turnkeeper.procedures.surprise import Meeting
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import FaceEvent
from turnkeeper.world.sites import parse_site
from turnkeeper.world.visits import PendingEncounter

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


WANDERED = parse_site(
    """
[site]
name = "Warren"
[[levels]]
number = 1
[levels.encounters]
dice = "d2"
rows = [{roll = 1, creature = "rats"}, {roll = 2, creature = "ghoul"}]
"""
)


def _party() -> Party:
    return Party(
        characters=(
            Character(name="Ana", hp=6, stats={"DEX": 1, "WIS": 0, "CHA": 1}),
            Character(name="Bo", hp=8, stats={"WIS": 1}),
        ),
        supplies=Supplies(counted={"torches": 5, "rations": 10, "water": 10}),
    )


def _inside() -> Journal:
    journal = Journal.start("t", preset("ex"), _party(), 1)
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


# --- a turn stops at a meeting (issue 39) ----------------------------------------------------


def _torch_burning_its_last_turn() -> Journal:
    """Inside the abbey's gate with a torch of one turn left (EX-LIGHT-1: 3 turns)."""
    journal = _inside()
    journal.execute(Light("torch"))
    journal.execute(SetLight(1))
    return journal


def test_ex_sur_2_a_turn_into_the_occupants_stops_at_the_meeting() -> None:
    """EX-SUR-2, TP-TIME-2: "whenever their movement carries them into an occupied place"
    the groups meet, and the time record stops there: the turn's ten minutes do not run on
    past the leech (issue 39 had "10m pass" after it), so the torch of one turn left still
    burns as the fight begins, instead of going out behind the meeting."""
    journal = _torch_burning_its_last_turn()
    before = journal.state.now
    records = journal.execute(Turn(mode="cautious", area="2"), TypedDice([3, 4]))
    kinds = [r.event.kind for r in records]
    assert "dungeon.encounter" in kinds
    assert "clock.advanced" not in kinds and "light.out" not in kinds
    assert journal.state.now == before and not journal.state.light.dark
    assert journal.state.site is not None and journal.state.site.encounter is not None


def test_ex_enc_1_a_wandering_encounter_met_in_a_turn_stops_the_turn_there() -> None:
    """EX-ENC-1, EX-ENC-2: the 2nd turn's check, d6 1, sends the wanderers; the meeting
    begins at 2d4 x 10 ft and time stops with it: no ten minutes after it, the torch lit."""
    journal = Journal.start("t", preset("ex"), _party(), 1)
    journal.execute(EnterSite(WANDERED))
    journal.execute(Light("torch"))
    journal.execute(Turn(mode="cautious"))
    journal.execute(SetLight(1))
    before = journal.state.now
    # check 1; table d2 1 (rats, one of them: no die), distance 2d4 (2, 2), reaction (3, 4)
    records = journal.execute(Turn(mode="cautious"), TypedDice([1, 1, 2, 2, 3, 4]))
    met = journal.state.site.encounter if journal.state.site else None
    assert met is not None and met.creature == "rats" and met.distance_ft == 40
    assert journal.state.now == before and not journal.state.light.dark
    assert "clock.advanced" not in [r.event.kind for r in records]


def test_tp_dun_1_the_encounter_face_stops_the_turn_it_begins() -> None:
    """TP-DUN-1: the die is rolled at the start of the turn; its Encounter face meets the
    wanderers there, so none of the turn's ten minutes pass behind the meeting."""
    journal = Journal.start("t", preset("tp"), _party(), 1)
    journal.execute(EnterSite(WANDERED))
    rules = journal.state.ruleset
    die = rules.dice[rules.dungeon.die]
    face = next(n for n, f in die.faces.items() if f.event is FaceEvent.ENCOUNTER)
    before = journal.state.now
    journal.execute(Turn(), TypedDice([face, 1, 2, 2, 3, 4]))
    assert journal.state.site is not None and journal.state.site.encounter is not None
    assert journal.state.now == before


# --- occupants written as foes (issue 39) ----------------------------------------------------

TOMB = parse_site(
    """
[site]
name = "Tomb"
wandering = false
[[levels]]
number = 1
[levels.encounters]
dice = "d4"
rows = [
  {roll = "1-3", creature = "skeletons", number = "1d4+1", hungry = true},
  {roll = 4, creature = "ghoul"},
]
[[levels.areas]]
key = "1"
name = "Stair"
[[levels.areas]]
key = "2"
name = "Hall of Shields"
occupants = { name = "Skeleton", count = 4, hd = 1, hp = 5, ac = 7, damage = "d6" }
[[levels.areas]]
key = "3"
name = "Ossuary"
occupants = { encounter = 3 }
[[levels.areas]]
key = "4"
name = "Old Hall"
occupants = "4 skeletons"
[[levels.areas]]
key = "5"
name = "The King's Chamber"
occupied = true
"""
)


def _in_tomb() -> Journal:
    journal = Journal.start("t", preset("ex"), _party(), 1)
    journal.execute(EnterSite(TOMB, None, "1"))
    return journal


def _foes(journal: Journal, *foes: Combatant) -> list[tuple[str, int, int]]:
    journal.execute(StartFight(foes=foes))
    assert journal.state.combat is not None
    fight = journal.state.combat.combatants
    return [(c.name, c.hp, c.ac) for c in fight if c.side is Side.OPPOSITION]


def test_ex_sur_2_occupants_written_as_a_count_and_stat_line_are_met_and_fought_so() -> None:
    """EX-SUR-2: moving into the Hall of Shields the party meets its occupants, written
    `{ name = "Skeleton", count = 4, hd = 1, hp = 5, ac = 7 }`: four of them, and the fight
    started from the meeting sets four skeletons of 5 hp and AC 7 against the party (issue
    39 made one foe named "4 skeletons" of 4 hp and AC 10)."""
    journal = _in_tomb()
    met = _met(journal, Turn(mode="cautious", area="2"), [3, 4])
    assert met is not None and (met.creature, met.number, met.described) == ("Skeleton", 4, False)
    assert met.told() == "4 Skeletons at 0 ft, neutral; no one is surprised"
    assert _foes(journal) == [(f"Skeleton {i}", 5, 7) for i in range(1, 5)]


def test_ex_sur_5_occupants_from_a_row_of_the_table_roll_their_number_and_meet_as_it_says() -> None:
    """EX-SUR-3, EX-SUR-5: the Ossuary's occupants are row 3 of the level's table, skeletons,
    1d4+1 of them: 1d4 (3) + 1 = 4. Running in, the party is always surprised (EX-SUR-3), and
    the row's hungry skeletons that won surprise are readier to attack: reaction 2d6 (4, 4)
    - 2 = 6. The fight sets four skeletons on the roster's defaults (4 hp, AC 10)."""
    journal = _in_tomb()
    met = _met(journal, Turn(mode="running", area="3"), [3, 4, 4])
    assert met is not None and (met.creature, met.number) == ("skeletons", 4)
    assert met.party_surprised and met.reaction_modifier == -2
    assert _foes(journal) == [(f"skeletons {i}", 4, 10) for i in range(1, 5)]


def test_ex_sur_2_occupants_in_words_are_described_and_the_referee_names_their_numbers() -> None:
    """EX-SUR-2, EX-SUR-5: occupants written in words ("4 skeletons") or only `occupied` are
    met as described, with a note to the referee; a fight from the meeting asks for the foes
    instead of making one foe of the words, and the foes named by hand fight with the
    surprise settled at the meeting (running in: the party surprised, EX-SUR-3)."""
    journal = _in_tomb()
    records = journal.execute(Turn(mode="running", area="4"), TypedDice([3, 4]))
    met = journal.state.site.encounter if journal.state.site else None
    assert met is not None and met.described and met.told().startswith("4 skeletons at 0 ft")
    notes = [r.event.describe() for r in records if r.event.kind == "note.made"]
    assert any("combat start --monster" in note for note in notes)
    with pytest.raises(IllegalCommandError, match="described in the site's words, not counted"):
        journal.execute(StartFight(foes=()))
    with pytest.raises(IllegalCommandError, match=r"foes named here .* fight in their place"):
        journal.execute(StartFight(foes=(), meeting=Meeting.OCCUPIED))
    skeletons = tuple(parse_monster("Skeleton:hd=1,ac=7,count=4"))
    assert _foes(journal, *skeletons) == [(f"Skeleton {i}", 4, 7) for i in range(1, 5)]
    assert journal.state.combat is not None
    assert journal.state.combat.free_round is Side.OPPOSITION


def test_ex_sur_2_an_occupied_area_with_no_occupants_written_is_described_too() -> None:
    """EX-SUR-2: `occupied = true` alone: "the occupants of The King's Chamber", described."""
    journal = _in_tomb()
    met = _met(journal, Turn(mode="cautious", area="5"), [3, 4])
    assert met is not None and met.described
    assert met.creature == "the occupants of The King's Chamber"
    with pytest.raises(IllegalCommandError, match="name the foes"):
        journal.execute(StartFight(foes=()))
