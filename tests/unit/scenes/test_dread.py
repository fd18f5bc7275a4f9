"""Dread and compromises (DG-DREAD-1), and properties of the whole scene engine."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnkeeper.dice import SeededDice, TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.scenes import (
    Act,
    CloseScene,
    Compromise,
    CompromiseTaken,
    DreadGained,
    DreadSpend,
    FreeAction,
    GiveTokens,
    GmAct,
    OpenScene,
    Outcome,
    SceneCommand,
    SceneKind,
    SceneTable,
    SpendDread,
    TakeSpotlight,
    dungeoneers_rules,
    fold_scene_events,
)
from turnkeeper.rules.schema import DreadRules

if TYPE_CHECKING:
    from tests.unit.scenes.conftest import Refused


def rolled_table(*faces: int) -> SceneTable:
    table = SceneTable(dungeoneers_rules(), TypedDice(faces))
    table.execute(OpenScene(SceneKind.COMBAT, players=("freya", "ulfarmi"), creatures=("ogre",)))
    return table


def test_dg_dread_1_each_gm_action_during_a_rest_gives_1_dread(table: SceneTable) -> None:
    table.execute(OpenScene(SceneKind.EXPLORATION, players=("freya",), gm_first=True))
    events = table.execute(GmAct("wolves circle the camp", during_rest=True))
    assert DreadGained(amount=1, reason="a GM action during a rest") in events
    table.execute(TakeSpotlight(votes={"freya": "freya"}))
    table.execute(Act("freya", "keeps watch"))
    table.execute(GmAct("the fire gutters"))  # not during a rest: no dread
    table.execute(TakeSpotlight(votes={"freya": "freya"}))
    table.execute(Act("freya", "sleeps"))
    table.execute(GmAct("an owl hoots", during_rest=True))
    assert table.state.dread == 2


@pytest.mark.parametrize(("face", "missed"), [(11, 1), (10, 2)])
def test_dg_dread_1_a_miss_by_1_or_2_may_be_taken_as_success(
    face: int, missed: int, refused: Refused
) -> None:
    table = rolled_table(face)
    table.execute(TakeSpotlight(votes={"freya": "freya", "ulfarmi": "freya"}))
    table.execute(Act("freya", "leap the chasm", roll="d20", target=12))
    events = table.execute(Compromise("freya"))
    assert events == [
        CompromiseTaken(player="freya", action=1),
        DreadGained(amount=1, reason="freya's compromise"),
    ]
    assert table.state.dread == 1
    scene = table.state.scene
    assert scene is not None and scene.last_action is not None
    assert scene.last_action.outcome is Outcome.SUCCESS and scene.last_action.compromised
    refused(table, Compromise("freya"), "already took a compromise")


@pytest.mark.parametrize(("face", "says"), [(9, "missed by 3"), (12, "succeeded"), (20, "succ")])
def test_dg_dread_1_no_compromise_beyond_a_miss_of_2(
    face: int, says: str, refused: Refused
) -> None:
    table = rolled_table(face)
    table.execute(TakeSpotlight(votes={"freya": "freya", "ulfarmi": "freya"}))
    table.execute(Act("freya", "leap the chasm", roll="d20", target=12))
    refused(table, Compromise("freya"), says)


def test_dg_dread_1_a_compromise_is_on_the_players_own_last_roll(refused: Refused) -> None:
    table = rolled_table(11)
    table.execute(TakeSpotlight(votes={"freya": "freya", "ulfarmi": "freya"}))
    refused(table, Compromise("freya"), "not freya's")
    table.execute(Act("freya", "talks", outcome=Outcome.PARTIAL))
    refused(table, Compromise("freya"), "not rolled against a target")
    refused(table, Compromise("ulfarmi"), "not ulfarmi's")


def test_dg_dread_1_a_compromise_does_not_keep_momentum() -> None:
    """Momentum needs an action that *rolls* a success; a compromise is taken, not rolled."""
    table = rolled_table(11)
    table.execute(TakeSpotlight(votes={"freya": "freya", "ulfarmi": "freya"}))
    table.execute(Act("freya", "charge", tags=("momentum",), roll="d20", target=12))
    table.execute(Compromise("freya"))
    assert table.state.scene is not None and table.state.scene.turn.value == "gm"


def test_dg_dread_1_spending_dread_enhances_a_creature(table: SceneTable, refused: Refused) -> None:
    table.execute(OpenScene(SceneKind.EXPLORATION, players=("freya",), gm_first=True))
    table.execute(GmAct("the camp is watched", during_rest=True))
    refused(table, SpendDread(2, "the ogre strikes twice", "ogre"), "holds 1 dread, cannot spend 2")
    refused(table, SpendDread(0, "nothing"), "at least 1")
    refused(table, SpendDread(1, " "), "say what the dread buys")
    table.execute(SpendDread(1, "the ogre strikes twice", "ogre"))
    assert table.state.dread == 0
    assert table.state.bought == (
        DreadSpend(amount=1, what="the ogre strikes twice", creature="ogre"),
    )


def test_dg_dread_1_dread_enhances_only_creatures_the_gm_controls(refused: Refused) -> None:
    """DG-DREAD-1: dread is spent "to enhance the abilities of creatures that they control":
    with 1 dread, "iron skin" for Ulfarmi, a player in the scene (any case), is refused and
    spends nothing; the ogre takes it."""
    table = SceneTable(dungeoneers_rules(), TypedDice([]))
    opened = OpenScene(SceneKind.EXPLORATION, ("freya", "ulfarmi"), ("ogre",), gm_first=True)
    table.execute(opened)
    table.execute(GmAct("the camp is watched", during_rest=True))
    for player in ("ulfarmi", "Ulfarmi"):
        refused(table, SpendDread(1, "iron skin", player), "is a player's character")
    refused(
        table,
        SpendDread(1, "iron skin", "freya"),
        r"controls \(DG-DREAD-1\); name one of them \(ogre\)",
    )
    table.execute(SpendDread(1, "iron skin", "ogre"))
    assert table.state.dread == 0


def test_dg_dread_1_switched_off_by_the_ruleset(refused: Refused) -> None:
    rules = dungeoneers_rules().model_copy(update={"dread": DreadRules(enabled=False)})
    table = SceneTable(rules, SeededDice(2))
    table.execute(OpenScene(SceneKind.EXPLORATION, players=("freya",), gm_first=True))
    table.execute(GmAct("wolves howl", during_rest=True))
    assert table.state.dread == 0
    refused(table, SpendDread(1, "x"), "has no dread")


# --- properties --------------------------------------------------------------------------

NAMES = ["freya", "ulfarmi", "alberich", "ogre"]
name = st.sampled_from(NAMES)
outcomes = st.none() | st.sampled_from(list(Outcome))
commands: st.SearchStrategy[SceneCommand] = st.one_of(
    st.builds(
        OpenScene,
        kind=st.sampled_from(list(SceneKind)),
        players=st.just(("freya", "ulfarmi", "alberich")),
        creatures=st.just(("ogre",)),
        tokens=st.booleans(),
        gm_first=st.booleans(),
    ),
    st.builds(
        TakeSpotlight,
        votes=st.dictionaries(name, name, max_size=3),
        gm_choice=st.none() | name,
    ),
    st.builds(
        Act, player=name, what=st.just("acts"), tags=st.just(("momentum",)), outcome=outcomes
    ),
    st.builds(
        GmAct,
        outcome=outcomes,
        during_rest=st.booleans(),
        creature=st.none() | st.just("ogre"),
    ),
    st.builds(FreeAction, actor=name, what=st.just("free")),
    st.builds(GiveTokens, giver=name, receiver=name, count=st.integers(-1, 4)),
    st.builds(SpendDread, amount=st.integers(0, 3), what=st.just("a stronger ogre")),
    st.builds(Compromise, player=name),
    st.just(CloseScene()),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(commands, max_size=40))
def test_illegal_commands_change_nothing_and_the_journal_replays(
    script: list[SceneCommand],
) -> None:
    """DG-SPOT-2, DG-DREAD-1: tokens and dread never go negative; refusals change nothing."""
    table = SceneTable(dungeoneers_rules(), SeededDice(5))
    for command in script:
        before = table.state
        try:
            table.execute(command)
        except IllegalCommandError:
            assert table.state == before
        assert all(seat.tokens >= 0 for seat in table.state.seats)
        assert table.state.dread >= 0
        scene = table.state.scene
        if scene is not None and not scene.free:
            assert all(scene.free_actions_of(n) <= 1 for n in NAMES)
    assert fold_scene_events(table.events) == table.state
