"""Scenes in a campaign's journal: commands become records, rounds pass campaign time.

DG-LOOP-1, DG-SPOT-2, DG-RND-1 with DG-CD-1/DG-CD-2, DG-DREAD-1; the fold property of the
scene engine holds through the journal (live state == fold of the stored records).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from turnkeeper.campaign import (
    Command,
    CountdownAdd,
    Journal,
    Recorded,
    Undo,
    Wait,
    decide,
    fold,
    parse_party,
)
from turnkeeper.dice import SeededDice, TypedDice
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.events import CampaignStarted, ClockAdvanced
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.rest import RestStarted
from turnkeeper.procedures.scenes import (
    Act,
    CloseScene,
    Compromise,
    DreadGained,
    FreeAction,
    GiveTokens,
    GmAct,
    OpenScene,
    Outcome,
    RoundEnded,
    SceneKind,
    SpendDread,
    TakeSpotlight,
    dungeoneers_rules,
)
from turnkeeper.rules.loader import preset

PARTY = parse_party('[[characters]]\nname = "Freya"\nhp = 8\n')
DUO = ("freya", "ulfarmi")


def journal(seed: int = 3) -> Journal:
    return Journal.start("Barrow", dungeoneers_rules(), PARTY, seed)


def round_of(j: Journal, player: str = "freya") -> list[Recorded]:
    """The players all vote for the spotlit player, who acts, then the GM: one round (DG-RND-1)."""
    scene = j.state.scenes.scene
    assert scene is not None
    j.execute(TakeSpotlight(votes={name: player for name in scene.players}))
    j.execute(Act(player, "presses on"))
    return j.execute(GmAct("the dark answers"))


def kinds(records: list[Recorded]) -> list[str]:
    return [r.event.kind for r in records]


def test_dg_loop_1_scene_commands_are_journal_records_that_refold() -> None:
    j = journal()
    opened = j.execute(OpenScene(SceneKind.COMBAT, players=DUO, creatures=("ogre",)))
    assert kinds(opened) == ["scene.opened"] and opened[0].seq == 2
    records = round_of(j)
    assert kinds(records) == ["scene.action_taken", "scene.round_ended", "clock.advanced"]
    assert j.state.scenes.scene is not None and j.state.scenes.scene.round == 2
    j.execute(CloseScene())
    stored = [json.loads(json.dumps(r.to_record())) for r in j.records]
    assert fold(stored) == j.state
    assert j.state.scenes.scene is None and j.state.scenes.scenes_opened == 1


def test_dg_spot_2_tokens_outlast_a_scene_in_the_campaign() -> None:
    j = journal()
    j.execute(OpenScene(SceneKind.SOCIAL, players=DUO))
    round_of(j, "ulfarmi")
    j.execute(CloseScene())
    j.execute(OpenScene(SceneKind.COMBAT, players=(*DUO, "alberich")))
    tokens = {seat.name: seat.tokens for seat in j.state.scenes.seats}
    assert tokens == {"freya": 3, "ulfarmi": 2, "alberich": 3}


@pytest.mark.parametrize(
    ("kind", "seconds"),
    [(SceneKind.COMBAT, 6), (SceneKind.SOCIAL, 60), (SceneKind.EXPLORATION, 600)],
)
def test_dg_rnd_1_a_round_passes_its_time_on_the_campaign_clock(
    kind: SceneKind, seconds: int
) -> None:
    j = journal()
    j.execute(OpenScene(kind, players=DUO))
    records = round_of(j)
    ended = records[1].event
    assert isinstance(ended, RoundEnded) and ended.seconds == seconds
    assert records[-1].event == ClockAdvanced(to=seconds, seconds=seconds)
    assert j.state.now == seconds and records[-1].at == seconds


def test_dg_cd_1_rounds_tick_rapid_countdowns_once_and_exploration_ends_them() -> None:
    """A 60 s social round ticks RC(3) once (not ten times); an exploration round ends it."""
    j = journal()
    j.execute(CountdownAdd("fuse", "rapid", "3"))
    j.execute(CountdownAdd("smoke", "short", "4"))
    j.execute(OpenScene(SceneKind.SOCIAL, players=DUO))
    records = round_of(j)
    assert "countdown.ticked" in kinds(records)
    assert {c.name: c.left for c in j.state.countdowns} == {"fuse": 2, "smoke": 4}
    j.execute(CloseScene())
    j.execute(OpenScene(SceneKind.EXPLORATION, players=DUO))
    round_of(j, "ulfarmi")  # DG-CD-2: the longer frame ends every rapid countdown
    assert {c.name: c.left for c in j.state.countdowns} == {"smoke": 3}
    assert fold(j.records) == j.state


def test_dg_act_1_a_rolled_action_keeps_its_roll_in_the_record() -> None:
    j = journal()
    j.execute(OpenScene(SceneKind.COMBAT, players=DUO))
    j.execute(TakeSpotlight(votes={"freya": "freya", "ulfarmi": "freya"}))
    records = j.execute(Act("freya", "leaps", roll="d20+1", target=12), TypedDice([10]))
    record = records[0].to_record()
    assert record["data"]["outcome"] == "partial"  # type: ignore[index]
    assert record["rolls"] == [
        {
            "expression": "d20 + 1",
            "total": 11,
            "dice": [[20, 10, True]],
            "breakdown": "d20 (10) + 1 = 11",
            "typed_in": True,
        }
    ]
    j.execute(Compromise("freya"))
    assert j.state.scenes.dread == 1
    assert fold(j.records) == j.state


def test_dg_dread_1_a_gm_action_while_the_party_rests_gains_dread() -> None:
    j = journal()
    j.execute(OpenScene(SceneKind.EXPLORATION, players=("freya",), gm_first=True))
    resting: CampaignState = RestStarted().apply(j.state)
    events = decide(resting, GmAct("wolves circle the camp"), SeededDice(1))
    assert DreadGained(amount=1, reason="a GM action during a rest") in events
    awake = decide(j.state, GmAct("the fire gutters"), SeededDice(1))
    assert not any(isinstance(e, DreadGained) for e in awake)


def test_undo_takes_a_scene_command_back() -> None:
    j = journal()
    j.execute(OpenScene(SceneKind.COMBAT, players=DUO))
    j.execute(TakeSpotlight(votes={"freya": "ulfarmi", "ulfarmi": "ulfarmi"}))
    before = j.state.scenes
    j.execute(Act("ulfarmi", "swings"))
    j.execute(GmAct())
    assert j.state.now == 6
    j.execute(Undo())
    assert j.state.now == 0 and j.state.scenes.scene is not None
    assert j.state.scenes.scene.players_acted and not j.state.scenes.scene.gm_acted
    j.execute(Undo())
    assert j.state.scenes == before
    assert fold(j.records) == j.state


def test_refusals_change_nothing_and_need_a_spotlight_ruleset() -> None:
    j = journal()
    with pytest.raises(IllegalCommandError, match="no scene is open"):
        j.execute(CloseScene())
    assert j.version == 1
    other = Journal.start("Keep", preset("ex"), PARTY, 1)
    with pytest.raises(IllegalCommandError, match="no spotlight"):
        other.execute(OpenScene(SceneKind.COMBAT, players=DUO))
    assert other.version == 1


# --- property: the scene engine's fold holds through the journal ---------------------------

NAMES = ["freya", "ulfarmi", "ogre"]
name = st.sampled_from(NAMES)
player = st.sampled_from(DUO)
outcomes = st.none() | st.sampled_from(list(Outcome))
acts = st.one_of(
    st.builds(Act, player, st.just("acts"), st.sampled_from([(), ("momentum",)]), outcome=outcomes),
    st.builds(Act, player, st.just("rolls"), roll=st.just("d20"), target=st.just(12)),
)
gm_acts = st.builds(GmAct, outcome=outcomes, during_rest=st.booleans())
opens = st.builds(
    OpenScene,
    kind=st.sampled_from(list(SceneKind)),
    players=st.just(DUO),
    creatures=st.just(("ogre",)),
    tokens=st.booleans(),
    gm_first=st.booleans(),
)
one: st.SearchStrategy[Command] = st.one_of(
    opens,
    st.builds(TakeSpotlight, votes=st.dictionaries(name, name, max_size=2)),
    acts,
    gm_acts,
    st.builds(FreeAction, actor=name, what=st.just("free")),
    st.builds(GiveTokens, giver=name, receiver=name, count=st.integers(1, 3)),
    st.builds(SpendDread, amount=st.integers(1, 2), what=st.just("a stronger ogre")),
    st.builds(Compromise, player=name),
    st.just(CloseScene()),
    st.builds(CountdownAdd, st.just("fuse"), st.sampled_from(["rapid", "short"]), st.just("2")),
    st.builds(Wait, st.sampled_from([6, 600])),
    st.just(Undo()),
)
# A round as a table plays it (spotlight, action, GM), so scripts reach round ends often.
rounds = player.flatmap(
    lambda p: st.tuples(st.just(TakeSpotlight(votes={p: p})), acts, gm_acts).map(list)
)
steps = st.one_of(one.map(lambda c: [c]), rounds, rounds)
scripts = st.builds(lambda first, rest: [[first], *rest], opens, st.lists(steps, max_size=12))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts, st.integers(0, 2**16))
def test_scene_journal_refolds_and_replays(script: list[list[Command]], seed: int) -> None:
    """Live state == fold of the JSON records; the same seed and commands, the same journal."""
    first, second = journal(seed), journal(seed)
    for command in (command for step in script for command in step):
        for j in (first, second):
            before = j.state
            try:
                j.execute(command)
            except IllegalCommandError:
                assert j.state == before
        assert all(seat.tokens >= 0 for seat in first.state.scenes.seats)
        assert first.state.scenes.dread >= 0
    stored = [json.loads(json.dumps(r.to_record())) for r in first.records]
    assert fold(stored) == first.state
    assert stored == [r.to_record() for r in second.records]
    assert isinstance(first.records[0].event, CampaignStarted)
