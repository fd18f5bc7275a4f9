"""The dungeon turn: TP-DUN-1/2 faces from data, classic checks, movement, map, rest."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from turnkeeper.campaign import Journal, Light, Recorded, Visibility, fold
from turnkeeper.dice import TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.dungeon import EndEncounter, EnterSite, LeaveSite, Turn
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import FaceEvent, Ruleset
from turnkeeper.world.sites import Site, parse_site

from .conftest import party

Inside = Callable[..., Journal]
FaceOf = Callable[[Ruleset, FaceEvent], int]


def kinds(records: list[Recorded]) -> list[str]:
    return [r.event.kind for r in records]


def test_ex_time_1_a_turn_is_ten_minutes(inside: Inside) -> None:
    journal = inside("ex")
    before = journal.state.now
    journal.execute(Turn(mode="cautious"))
    assert journal.state.now - before == 10 * 60 and journal.state.site is not None
    assert journal.state.site.turns == 1


def test_tp_dun_1_rolled_every_turn_faces_from_data(inside: Inside, face_of: FaceOf) -> None:
    journal = inside("tp")
    rules = journal.state.ruleset
    slumber = face_of(rules, FaceEvent.SLUMBER)
    for _ in range(3):
        records = journal.execute(Turn(mode="cautious"), TypedDice([slumber]))
        die = [r for r in records if r.event.kind == "dungeon.die"]
        assert len(die) == 1 and die[0].event.visibility is Visibility.REFEREE
        assert die[0].event.rolls[0].total == slumber


def test_tp_dun_2_rouses_reads_an_omen_from_the_site(inside: Inside, face_of: FaceOf) -> None:
    journal = inside("tp")
    rouses = face_of(journal.state.ruleset, FaceEvent.DUNGEON_ROUSES)
    records = journal.execute(Turn(), TypedDice([rouses, 3]))
    omen = next(r.event for r in records if r.event.kind == "dungeon.omen")
    assert omen.visibility is Visibility.REFEREE and omen.notes == "Rats within 2 turns."
    seen = [r.event for r in records if r.event.kind == "site.perceived"]
    assert [e.describe() for e in seen] == ["Fresh rat droppings, still warm."]


def test_tp_dun_2_waning_resources_relights_and_ends_spells(
    inside: Inside, face_of: FaceOf
) -> None:
    journal = inside("tp")
    journal.execute(Light("torch"))
    torches = journal.state.supplies.count("torches")
    waning = face_of(journal.state.ruleset, FaceEvent.WANING_RESOURCES)
    records = journal.execute(Turn(), TypedDice([waning]))
    assert [k for k in kinds(records) if k.startswith("light.") or k == "dungeon.spells_end"] == [
        "light.out",
        "light.lit",
        "dungeon.spells_end",
    ]
    assert journal.state.supplies.count("torches") == torches - 1
    assert journal.state.light.source == "torch"


def test_tp_dun_2_forced_rest_is_the_turn_and_eats(inside: Inside, face_of: FaceOf) -> None:
    journal = inside("tp")
    before = journal.state.now
    rest = face_of(journal.state.ruleset, FaceEvent.FORCED_REST)
    journal.execute(Light("torch"))  # EX-MAP-1: light to read the map by, swift
    records = journal.execute(Turn(mode="swift"), TypedDice([rest]))
    assert "rest.started" in kinds(records) and "rest.done" in kinds(records)
    assert journal.state.now - before == 600  # the rest is this turn, not one more
    assert journal.state.supplies.count("rations") == 10 - 2  # one per character


def test_tp_dun_1_good_encounter_from_the_site(inside: Inside, face_of: FaceOf) -> None:
    journal = inside("tp")
    good = face_of(journal.state.ruleset, FaceEvent.GOOD_ENCOUNTER)
    records = journal.execute(Turn(), TypedDice([good, 1]))
    assert "dungeon.good" in kinds(records)
    assert "A dry cell" in next(
        r.event.describe() for r in records if r.event.kind == "site.perceived"
    )


def test_tp_dun_1_encounter_face_and_the_handover(inside: Inside, face_of: FaceOf) -> None:
    journal = inside("tp")
    encounter = face_of(journal.state.ruleset, FaceEvent.ENCOUNTER)
    # face; table d6 (1): giant rats; 2d4 (2, 3) = 5; 2d4 (1, 1) x 10 = 20 ft; running:
    # surprised (EX-SUR-3), no roll; reaction 2d6 (3, 3) + CHA 1 - 2 (hungry, EX-SUR-5) = 5
    records = journal.execute(Turn(mode="running"), TypedDice([encounter, 1, 2, 3, 1, 1, 3, 3]))
    pending = journal.state.site.encounter if journal.state.site else None
    assert pending is not None
    assert (pending.creature, pending.number, pending.distance_ft) == ("giant rats", 5, 20)
    assert pending.party_surprised and pending.free_round == "opposition"
    assert pending.reaction == "unfriendly"
    rolled = next(r.event for r in records if r.event.kind == "dungeon.encounter")
    assert rolled.visibility is Visibility.REFEREE and len(rolled.rolls) == 4
    assert "reaction -2 (EX-SUR-5)" in rolled.describe()
    party_view = [r.event.describe() for r in records if r.event.visibility is Visibility.PARTY]
    assert "Surprise! 5 giant rats at 20 ft." in party_view
    with pytest.raises(IllegalCommandError, match="encounter with giant rats is under way"):
        journal.execute(Turn())
    journal.execute(EndEncounter(fought=True))
    assert journal.state.site and journal.state.site.encounter is None
    assert journal.state.rest.due_reason is None  # TP: rest.after_fight = false


def test_ex_enc_1_classic_checks_on_even_turns(inside: Inside) -> None:
    journal = inside("ex")
    checks = []
    for _ in range(4):
        records = journal.execute(Turn(mode="cautious"), TypedDice([6] * 2 if checks else [6]))
        checks.append("dungeon.check" in kinds(records))
    assert checks == [False, True, False, True]


def test_ex_enc_3_referee_skips_check_off_the_lanes(inside: Inside) -> None:
    journal = inside("ex")
    journal.execute(Turn(mode="cautious"))
    records = journal.execute(Turn(mode="cautious", skip_check=True), TypedDice([]))
    check = next(r.event for r in records if r.event.kind == "dungeon.check")
    assert "EX-ENC-3" in check.describe() and not check.rolls
    journal.execute(Turn(mode="cautious", area="1"))
    records = journal.execute(Turn(mode="cautious", area="3"), TypedDice([]))  # off_lanes
    assert "skipped" in next(r.event.describe() for r in records if r.event.kind == "dungeon.check")


def test_ex_enc_4_running_raises_the_check_to_3_in_6(inside: Inside) -> None:
    journal = inside("ex")
    journal.execute(Turn(mode="cautious"))
    records = journal.execute(Turn(mode="running"), TypedDice([4]))
    assert "(3 in 6): nothing" in next(
        r.event.describe() for r in records if r.event.kind == "dungeon.check"
    )
    journal = inside("ex")
    journal.execute(Turn(mode="cautious"))
    journal.execute(Light("torch"))  # EX-MAP-1: light to read the map by, swift
    records = journal.execute(Turn(mode="swift", noisy=True), TypedDice([3]))
    assert "(2 in 6): nothing" in next(
        r.event.describe() for r in records if r.event.kind == "dungeon.check"
    )


@pytest.mark.parametrize(
    ("mode", "feet", "text"),
    [
        ("cautious", 120, "cautious, 120 ft"),  # rule: EX-MOV-1
        ("swift", 360, "swift, 360 ft"),  # rule: EX-MOV-2
        ("running", None, "running, as far as the site goes, no map"),  # rule: EX-MOV-3
    ],
)
def test_ex_mov_1_to_3_feet_per_turn(
    inside: Inside, mode: str, feet: int | None, text: str
) -> None:
    journal = inside("ex")
    journal.execute(Light("torch"))
    records = journal.execute(Turn(mode=mode))
    turn = next(r.event for r in records if r.event.kind == "dungeon.turn")
    assert turn.feet == feet and text in turn.describe()  # type: ignore[attr-defined]


def test_ex_mov_3_running_halts_at_a_door(inside: Inside) -> None:
    journal = inside("ex")
    records = journal.execute(Turn(mode="running", door=True))
    assert "halts at a door" in records[0].event.describe()
    records = journal.execute(Turn(mode="cautious", door=True), TypedDice([6]))
    assert "halts" not in records[0].event.describe()


# rule: EX-MAP-1
def test_ex_map_1_no_map_when_running_or_without_light(inside: Inside) -> None:
    journal = inside("ex")
    assert "no map" in journal.execute(Turn(mode="cautious"))[0].event.describe()  # dark
    journal.execute(Light("torch"))
    assert "map in hand" in journal.execute(Turn(mode="swift"), TypedDice([6]))[0].event.describe()
    assert "no map" in journal.execute(Turn(mode="running"))[0].event.describe()


def test_ex_rest_2_a_fight_makes_a_rest_due(inside: Inside) -> None:
    journal = inside("ex")
    journal.execute(Turn(mode="cautious"))
    # check d6 (1); table d6 (4): marsh goblins; 1d6+1 (1) = 2; 2d4 (1, 1) x 10; reaction
    journal.execute(Turn(mode="cautious"), TypedDice([1, 4, 1, 1, 1, 3, 3]))
    journal.execute(EndEncounter(fought=True))
    assert journal.state.rest.due_reason == "a fight"


def test_ex_rest_2_running_makes_a_rest_due_at_once(inside: Inside) -> None:
    journal = inside("ex")
    journal.execute(Turn(mode="running"))
    assert journal.state.rest.due_reason == "a turn of running"
    records = journal.execute(Turn(mode="cautious"), TypedDice([6]))
    assert "rest.wearied" in kinds(records)  # no rest taken: wearied at the turn's end


def test_turns_outside_a_site_and_bad_modes_are_refused(inside: Inside) -> None:
    journal = inside("ex")
    with pytest.raises(IllegalCommandError, match="modes: cautious, swift, running"):
        journal.execute(Turn(mode="flying"))
    journal.execute(LeaveSite())
    with pytest.raises(IllegalCommandError, match="not in a site"):
        journal.execute(Turn())


def test_replay_folds_to_the_same_state(inside: Inside) -> None:
    journal = inside("tp", seed=11)
    journal.execute(Light("torch"))
    for mode in ["cautious", "swift", "running", "cautious"] * 3:
        journal.execute(Turn(mode=mode))
        if journal.state.site and journal.state.site.encounter:
            journal.execute(EndEncounter())
    again = fold([r.to_record() for r in journal.records])
    assert again == journal.state


def test_ex_sur_4_the_keenest_member_spots_for_the_party(inside: Inside) -> None:
    """rule: EX-SUR-4, EX-SUR-2 - swift by torchlight through the gatehouse, explored the
    turn before: the monk's 2d6 (4, 3) = 7 against Bo's WIS 1 + 2d6 (3, 3) = 7, not Ana's
    WIS 0: a tie, so no surprise."""
    journal = inside("ex")
    journal.execute(Turn(mode="cautious", area="1"))
    journal.execute(Light("torch"))
    # check d6 (1); table d6 (3): drowned monk; 1d3 (1); 2d4 (1, 1) x 10; surprise; reaction
    swift = Turn(mode="swift", hide=False)
    journal.execute(swift, TypedDice([1, 3, 1, 1, 1, 4, 3, 3, 3, 3, 4]))
    pending = journal.state.site.encounter if journal.state.site else None
    assert pending is not None and pending.creature == "drowned monk"
    assert not pending.party_surprised
    journal = inside("ex")
    journal.execute(Turn(mode="cautious", area="1"))
    journal.execute(Light("torch"))
    journal.execute(swift, TypedDice([1, 3, 1, 1, 1, 4, 4, 3, 3, 3, 4]))
    pending = journal.state.site.encounter if journal.state.site else None
    assert pending is not None and pending.party_surprised  # 8 beats 7


def test_ex_enc_1_a_site_without_wandering_encounters_is_never_checked(site: Site) -> None:
    """rule: EX-ENC-1 - a site says whether it has wandering encounters (default: yes)."""
    assert parse_site('[site]\nname = "Crypt"\n[[levels]]\nnumber = 1\n').site.wandering
    still = site.model_copy(update={"site": site.site.model_copy(update={"wandering": False})})
    journal = Journal.start("t", preset("ex"), party(), 1)
    journal.execute(EnterSite(still, None))
    for _ in range(4):  # no dice typed in: a check on turn 2 or 4 would be refused
        records = journal.execute(Turn(mode="cautious"), TypedDice([]))
        assert "dungeon.check" not in kinds(records)


def test_ex_mov_2_swift_only_through_explored_areas_with_light_to_read_the_map(
    inside: Inside,
) -> None:
    """EX-MOV-2: "The party moving swiftly is merely reading their map as it ventures through
    an area they have already explored"; EX-MAP-1: "The adventurers may consult their map
    while navigating, unless ... there is not enough light to read". In the dark, a swift
    turn is refused; by torchlight, a swift turn into the never-visited Flooded garth is
    refused; each refusal changes nothing. Into the Gatehouse, explored the turn before, it
    goes 360 ft."""
    journal = inside("ex")
    journal.execute(Turn(mode="cautious", area="1"))
    before = journal.state
    with pytest.raises(IllegalCommandError, match=r"not enough light to read .*`light torch`"):
        journal.execute(Turn(mode="swift", area="1"), TypedDice([]))
    assert journal.state == before
    journal.execute(Light("torch"))
    lit = journal.state
    with pytest.raises(IllegalCommandError, match=r"not been in area 2; explore it cautiously"):
        journal.execute(Turn(mode="swift", area="2"), TypedDice([]))
    assert journal.state == lit
    records = journal.execute(Turn(mode="swift", area="1"), TypedDice([6]))
    assert "swift, 360 ft" in records[0].event.describe()
    # running needs no map (EX-MOV-3), cautious makes one (EX-MOV-1): neither is refused
    journal.execute(Turn(mode="cautious", area="3"))
