"""Waiting and resting in a site run the turn procedure at each turn's end (issue 3)."""

from __future__ import annotations

from collections.abc import Callable

from turnkeeper.campaign import Journal, Light, Recorded, Rest, Wait
from turnkeeper.dice import TypedDice
from turnkeeper.procedures.dungeon import Turn
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import FaceEvent, Ruleset

Inside = Callable[..., Journal]
FaceOf = Callable[[Ruleset, FaceEvent], int]
TURN = 600


def of(records: list[Recorded], kind: str) -> list[Recorded]:
    return [r for r in records if r.event.kind == kind]


def test_ex_enc_1_a_wait_of_6_turns_checks_on_turns_2_4_6(inside: Inside) -> None:
    journal = inside("ex")
    start = journal.state.now
    records = journal.execute(Wait(6 * TURN), TypedDice([6, 5, 4]))
    checks = of(records, "dungeon.check")
    assert [r.at - start for r in checks] == [2 * TURN, 4 * TURN, 6 * TURN]
    assert [c.event.rolls[0].total for c in checks] == [6, 5, 4]
    assert [c.event.describe() for c in checks] == ["wandering check (1 in 6): nothing"] * 3
    assert journal.state.site is not None and journal.state.site.turns == 6
    assert journal.state.now == start + 6 * TURN and not of(records, "clock.wait_broken")


def test_ex_enc_1_turns_passed_in_a_wait_keep_the_cadence_of_the_turn_command(
    inside: Inside,
) -> None:
    journal = inside("ex")
    journal.execute(Turn(mode="cautious"))  # turn 1: no check
    records = journal.execute(Wait(TURN), TypedDice([6]))  # turn 2 passes: checked
    assert len(of(records, "dungeon.check")) == 1
    records = journal.execute(Turn(mode="cautious"), TypedDice([]))  # turn 3: none
    assert not of(records, "dungeon.check")
    records = journal.execute(Turn(mode="cautious"), TypedDice([6]))  # turn 4: checked
    assert len(of(records, "dungeon.check")) == 1


def test_ex_enc_1_an_encounter_breaks_the_wait(inside: Inside) -> None:
    journal = inside("ex")
    start = journal.state.now  # 08:00
    # turn 2: d6 6 (nothing); turn 4: d6 1 (encounter): table d6 1 giant rats, 2d4 (2, 3),
    # distance 2d4 (1, 1), surprise contest 2d6 (4, 4) against 2d6 (3, 4), reaction 2d6 (5, 5)
    dice = TypedDice([6, 1, 1, 2, 3, 1, 1, 4, 4, 3, 4, 5, 5])
    records = journal.execute(Wait(6 * TURN), dice)
    assert len(of(records, "dungeon.check")) == 2
    rolled = of(records, "dungeon.encounter")
    assert len(rolled) == 1 and rolled[0].at == start + 4 * TURN
    broken = of(records, "clock.wait_broken")[0]
    assert broken.event.describe() == "the wait is broken at 08:40 by an encounter: 20m not waited"
    assert journal.state.now == start + 4 * TURN and broken in records
    # Waiting is resting (EX-REST-1): three quiet turns were rest before the rats came.
    assert records[-1].event.kind == "rest.done"
    pending = journal.state.site.encounter if journal.state.site else None
    assert pending is not None and pending.creature == "giant rats"
    records = journal.execute(Wait(2 * TURN), TypedDice([]))  # no check while it is met
    assert not of(records, "dungeon.check") and journal.state.site.turns == 6


def test_ex_enc_3_a_wait_off_the_lanes_skips_the_checks(inside: Inside) -> None:
    journal = inside("ex")
    journal.execute(Turn(mode="cautious", area="3"))  # turn 1 into area 3, off the lanes
    records = journal.execute(Wait(3 * TURN), TypedDice([]))  # turns 2 and 4 are due
    checks = [r.event.describe() for r in of(records, "dungeon.check")]
    skipped = "wandering check skipped: the party keeps off the lanes of traffic (EX-ENC-3)"
    assert checks == [skipped, skipped]


def test_ex_enc_1_a_rest_in_a_site_passes_a_checked_turn(inside: Inside) -> None:
    journal = inside("ex")
    journal.execute(Turn(mode="cautious"))
    records = journal.execute(Rest(), TypedDice([6]))  # the rest is turn 2
    assert len(of(records, "dungeon.check")) == 1 and journal.state.site is not None
    assert journal.state.site.turns == 2


def test_tp_dun_1_a_wait_rolls_the_dungeon_die_each_turn(inside: Inside, face_of: FaceOf) -> None:
    journal = inside("tp")
    slumber = face_of(journal.state.ruleset, FaceEvent.SLUMBER)
    start = journal.state.now
    records = journal.execute(Wait(3 * TURN), TypedDice([slumber] * 3))
    die = of(records, "dungeon.die")
    # TP-ENC-1: "rolled at the start of each turn": at 0, 10 and 20 minutes, one a turn
    assert [r.at - start for r in die] == [0, TURN, 2 * TURN]
    assert not of(records, "dungeon.check")  # TP-ENC-2: no separate wandering check
    assert journal.state.site is not None and journal.state.site.turns == 3


def test_tp_dun_1_one_die_a_turn_between_turns_and_waits(inside: Inside, face_of: FaceOf) -> None:
    """The turn after a wait rolls its own die and no other; the wait after a turn rolls its
    first turn's die as it begins: four turns, four dice, each at its turn's start. A wait
    shorter than the turn leaves the die to the turn command that goes on."""
    journal = inside("tp")
    slumber = face_of(journal.state.ruleset, FaceEvent.SLUMBER)
    start = journal.state.now
    dice = TypedDice([slumber] * 4)
    records = journal.execute(Turn(mode="cautious"), dice)
    records += journal.execute(Wait(2 * TURN), dice)
    records += journal.execute(Turn(mode="cautious"), dice)
    assert [r.at - start for r in of(records, "dungeon.die")] == [0, TURN, 2 * TURN, 3 * TURN]
    assert journal.state.site is not None and journal.state.site.turns == 4
    assert not of(journal.execute(Wait(TURN // 2), TypedDice([])), "dungeon.die")


def test_tp_dun_2_tp_enc_2_waning_resources_in_a_wait_relights_from_supplies(
    inside: Inside, face_of: FaceOf
) -> None:
    journal = inside("tp")
    journal.execute(Light("torch"))
    torches = journal.state.supplies.count("torches")
    rules = journal.state.ruleset
    slumber = face_of(rules, FaceEvent.SLUMBER)
    waning = face_of(rules, FaceEvent.WANING_RESOURCES)
    records = journal.execute(Wait(3 * TURN), TypedDice([slumber, waning, slumber]))
    kinds = [r.event.kind for r in records]
    assert kinds.count("dungeon.die") == 3
    assert [k for k in kinds if k.startswith("light.") or k == "dungeon.spells_end"] == [
        "light.out",
        "light.lit",
        "dungeon.spells_end",
    ]
    assert journal.state.supplies.count("torches") == torches - 1
    assert journal.state.light.source == "torch"  # TP-ENC-2: it lasts until resources wane


def test_tp_dun_2_forced_rest_in_a_wait_eats_and_rests_the_turn_it_governs(
    inside: Inside, face_of: FaceOf
) -> None:
    journal = inside("tp")
    rules = journal.state.ruleset
    slumber = face_of(rules, FaceEvent.SLUMBER)
    rest = face_of(rules, FaceEvent.FORCED_REST)
    start = journal.state.now
    records = journal.execute(Wait(3 * TURN), TypedDice([slumber, rest, slumber]))
    assert [r.at - start for r in of(records, "dungeon.die")] == [0, TURN, 2 * TURN]
    # the second turn (10 to 20 minutes) is the forced rest: food and water eaten at its start
    assert [r.at - start for r in of(records, "rest.done")] == [TURN]
    assert journal.state.supplies.count("rations") == 10 - 2
    assert journal.state.now == start + 3 * TURN and journal.state.site is not None
    assert journal.state.site.turns == 3


def test_tp_dun_1_an_encounter_face_breaks_the_wait(inside: Inside, face_of: FaceOf) -> None:
    journal = inside("tp")
    rules = journal.state.ruleset
    slumber = face_of(rules, FaceEvent.SLUMBER)
    encounter = face_of(rules, FaceEvent.ENCOUNTER)
    start = journal.state.now
    dice = TypedDice([slumber, encounter, 1, 2, 3, 1, 1, 4, 4, 3, 4, 5, 5])
    records = journal.execute(Wait(3600 * 3), dice)
    broken = of(records, "clock.wait_broken")[0].event
    # the second turn's die, at its start (08:10), meets the encounter
    assert broken.describe() == "the wait is broken at 08:10 by an encounter: 2h50m not waited"
    assert journal.state.now == start + TURN


def test_the_turn_command_checks_its_turn_once(inside: Inside, face_of: FaceOf) -> None:
    """TP-DUN-1: a turn rolls the die once, though its time passes through the scheduler."""
    journal = inside("tp")
    rest = face_of(journal.state.ruleset, FaceEvent.FORCED_REST)
    records = journal.execute(Turn(), TypedDice([rest]))
    assert len(of(records, "dungeon.die")) == 1 and not of(records, "dungeon.turn_passed")


def explore(journal: Journal, turns: int, dice: list[int]) -> None:
    """Active turns (cautious), the wandering checks' d6 typed in: a wait would be rest."""
    typed = TypedDice(dice)
    for _ in range(turns):
        journal.execute(Turn(mode="cautious"), typed)


# rest broken by an encounter: turn 2 d6 6, turn 4 d6 6, turn 6 d6 6 (nothing); then the
# rats of the test above on the rest's turn 8
QUIET_CHECKS = [6, 6, 6]
RATS = [1, 1, 2, 3, 1, 1, 4, 4, 3, 4, 5, 5]


def test_ex_rest_1_ex_rest_3_a_rest_broken_by_an_encounter_does_not_refresh(
    inside: Inside,
) -> None:
    journal = inside("ex")
    explore(journal, 7, QUIET_CHECKS)  # due after 5, wearied after 6
    assert all(c.has("wearied") for c in journal.state.party.characters)
    due = journal.state.rest.due_at
    assert due is not None
    records = journal.execute(Rest(), TypedDice(RATS))  # turn 8: checked, rats
    kinds = [r.event.kind for r in records]
    assert "dungeon.encounter" in kinds and "rest.done" not in kinds
    interrupted = of(records, "rest.interrupted")
    assert len(interrupted) == 1 and kinds[-1] == "rest.interrupted"
    assert interrupted[0].event.describe() == (
        "the rest is interrupted by an encounter: the party has not rested"
    )
    assert all(c.has("wearied") for c in journal.state.party.characters)  # EX-REST-3 stays
    assert journal.state.rest.due_at == due and not journal.state.rest.resting


def test_ex_rest_1_a_longer_rest_broken_midway_is_cut_short(inside: Inside) -> None:
    journal = inside("ex")
    journal.execute(Turn(mode="cautious"))  # turn 1
    start = journal.state.now
    records = journal.execute(Rest(turns=3), TypedDice(RATS))  # turn 2: rats
    assert of(records, "clock.wait_broken")[0].event.unwaited == 2 * TURN
    assert journal.state.now == start + TURN
    assert of(records, "rest.interrupted") and not of(records, "rest.done")


def test_ex_rest_1_an_unbroken_rest_in_a_site_still_refreshes(inside: Inside) -> None:
    journal = inside("ex")
    explore(journal, 7, QUIET_CHECKS)
    records = journal.execute(Rest(), TypedDice([6]))
    assert of(records, "rest.done") and not of(records, "rest.interrupted")
    assert not any(c.has("wearied") for c in journal.state.party.characters)
    assert journal.state.rest.due_at is None


def test_tp_dun_1_an_encounter_on_the_first_turns_die_breaks_the_wait_at_once(
    inside: Inside, face_of: FaceOf
) -> None:
    """TP-DUN-1: the die of the wait's first turn is rolled as the wait begins; an
    encounter there stops the wait before any of it passes."""
    journal = inside("tp")
    encounter = face_of(journal.state.ruleset, FaceEvent.ENCOUNTER)
    dice = TypedDice([encounter, 1, 2, 3, 1, 1, 4, 4, 3, 4, 5, 5])
    records = journal.execute(Wait(3600), dice)
    broken = of(records, "clock.wait_broken")[0].event
    assert broken.describe() == "the wait is broken at 08:00 by an encounter: 1h not waited"
    assert journal.state.now == 0 and of(records, "dungeon.encounter")


def test_ex_sur_1_a_waiting_party_meets_what_comes_as_the_ruleset_reads_a_party_at_rest(
    inside: Inside,
) -> None:
    """EX-SUR-1 to EX-SUR-3 tie surprise to a moving party's pace; a waiting party has none.
    The project's reading, ``surprise.at_rest``: "risk" (ex's DEFAULT) rolls the EX-SUR-4
    contest, the rats' 2d6 (5, 4) = 9 beating Bo's 2d6 (3, 4) + 1 = 8; "never" reads the
    party at rest as a cautious one, and nothing is rolled for surprise. Dice: turn 2's check
    d6 6, turn 4's d6 1, giant rats d6 1, 2d4 (2, 3) of them, 2d4 (1, 1) x 10 ft, [the
    contest], reaction 2d6 (5, 5)."""
    at_risk = inside("ex")
    at_risk.execute(Wait(6 * TURN), TypedDice([6, 1, 1, 2, 3, 1, 1, 5, 4, 3, 4, 5, 5]))
    met = at_risk.state.site.encounter if at_risk.state.site else None
    assert met is not None and met.party_surprised
    ex = preset("ex")
    still = ex.model_copy(update={"surprise": ex.surprise.model_copy(update={"at_rest": "never"})})
    as_cautious = inside(still)
    records = as_cautious.execute(Wait(6 * TURN), TypedDice([6, 1, 1, 2, 3, 1, 1, 5, 5]))
    (rolled,) = of(records, "dungeon.encounter")
    assert not rolled.event.encounter.party_surprised and rolled.event.surprise_rule == "EX-SUR-1"
    assert "the party at rest (read as `never`" in rolled.event.surprise_reason
