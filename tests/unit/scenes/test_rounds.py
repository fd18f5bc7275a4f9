"""Actions, rounds, free actions and momentum: DG-ACT-1, DG-RND-1, DG-FREE-1, DG-MOM-1."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from turnkeeper.clock.durations import parse_duration
from turnkeeper.dice import TypedDice, roll
from turnkeeper.procedures.scenes import (
    Act,
    ActionTaken,
    FreeAction,
    GmAct,
    MomentumKept,
    OpenScene,
    Outcome,
    RoundEnded,
    SceneKind,
    SceneOpened,
    SceneSide,
    SceneTable,
    SpotlightPassed,
    TakeSpotlight,
    dungeoneers_rules,
    outcome_of,
)

TRIO = ("freya", "ulfarmi", "alberich")

if TYPE_CHECKING:
    from tests.unit.scenes.conftest import PlayRound, Refused, Spotlight


@pytest.fixture
def play_round(spotlight: Spotlight) -> PlayRound:
    """``play_round(table, player)``: the player takes the spotlight and acts; the GM answers."""

    def play(table: SceneTable, player: str) -> list[object]:
        spotlight(table, player)
        table.execute(Act(player, "press on"))
        return list(table.execute(GmAct("the dungeon answers")))

    return play


@pytest.mark.parametrize(
    ("kind", "frame", "seconds"),
    [
        (SceneKind.COMBAT, "combat_round", 6),
        (SceneKind.EXPLORATION, "exploration_round", 10 * 60),
        (SceneKind.SOCIAL, "social_round", 1 * 60),
    ],
)
def test_dg_rnd_1_round_lengths_and_frames(
    table: SceneTable, kind: SceneKind, frame: str, seconds: int, play_round: PlayRound
) -> None:
    """Combat round 6 s; exploration and social rounds the dg preset's 10 min and 1 min."""
    table.execute(OpenScene(kind, players=TRIO))
    events = play_round(table, "freya")
    assert events[-1] == RoundEnded(round=1, frame=frame, seconds=seconds)
    play_round(table, "ulfarmi")
    assert table.state.scene is not None
    assert table.state.scene.elapsed_seconds == 2 * seconds
    assert table.state.scene.round == 3


@pytest.mark.parametrize(
    ("kind", "frame", "length", "seconds"),
    [
        (SceneKind.EXPLORATION, "exploration_round", "8h", 8 * 3600),
        (SceneKind.EXPLORATION, "exploration_round", "2m", 2 * 60),
        (SceneKind.SOCIAL, "social_round", "10m", 10 * 60),
        (SceneKind.SOCIAL, "social_round", "1m", 60),
    ],
)
def test_dg_rnd_1_the_gm_sets_a_round_at_either_end_of_the_texts_range(
    table: SceneTable, kind: SceneKind, frame: str, length: str, seconds: int, play_round: PlayRound
) -> None:
    """DG-RND-1: "exploration round: Varies; 8 hours - 2 minutes", "social round: Varies; 1
    minute - 10 minutes": a scene opened with either bound plays rounds of that length."""
    opened = table.execute(OpenScene(kind, players=TRIO, round_seconds=parse_duration(length)))
    assert isinstance(opened[0], SceneOpened) and opened[0].round_seconds == seconds
    assert opened[0].describe().endswith(f"; rounds of {length}")
    assert play_round(table, "freya")[-1] == RoundEnded(round=1, frame=frame, seconds=seconds)
    play_round(table, "ulfarmi")
    assert table.state.scene is not None and table.state.scene.elapsed_seconds == 2 * seconds


@pytest.mark.parametrize(
    ("kind", "length", "says"),
    [
        (SceneKind.EXPLORATION, "8h1m", "an exploration round lasts 2m to 8h .DG-RND-1., not 8h1m"),
        (SceneKind.EXPLORATION, "1m59s", "an exploration round lasts 2m to 8h .DG-RND-1., not"),
        (SceneKind.SOCIAL, "11m", "a social round lasts 1m to 10m .DG-RND-1., not 11m"),
        (SceneKind.SOCIAL, "59s", "a social round lasts 1m to 10m"),
        (SceneKind.COMBAT, "1m", "a combat round is 6s .DG-RND-1.: --round sets an exploration"),
        (SceneKind.FREE, "1m", "a free scene keeps no rounds"),
    ],
)
def test_dg_rnd_1_a_round_outside_the_texts_range_is_refused(
    table: SceneTable, refused: Refused, kind: SceneKind, length: str, says: str
) -> None:
    """DG-RND-1: past 8 hours or under 2 minutes an exploration round is refused, so is a
    social round past 10 minutes or under 1; a combat round is always 6 s, a free scene has
    none."""
    command = OpenScene(kind, players=TRIO, round_seconds=parse_duration(length))
    refused(table, command, says)


def test_dg_rnd_1_a_scene_of_the_rulesets_rounds_records_no_length(table: SceneTable) -> None:
    """A scene opened without a length writes its record as before: no ``round_seconds``."""
    opened = table.execute(OpenScene(SceneKind.EXPLORATION, players=TRIO))
    assert isinstance(opened[0], SceneOpened)
    assert "round_seconds" not in opened[0].model_dump(mode="json")
    assert not opened[0].describe().endswith("8h")


def test_dg_rnd_1_a_round_is_one_player_action_plus_one_gm_action(
    table: SceneTable, refused: Refused, spotlight: Spotlight
) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO))
    spotlight(table, "freya")
    events = table.execute(Act("freya", "strike"))
    assert events[-1] == SpotlightPassed(to=SceneSide.GM)
    assert table.state.scene is not None and table.state.scene.round == 1
    refused(table, TakeSpotlight(votes={"ulfarmi": "ulfarmi"}), "spotlight is with the GM")
    events = table.execute(GmAct("the goblin stabs"))
    assert isinstance(events[-1], RoundEnded)
    refused(table, GmAct("again"), "spotlight is with the players")


def test_dg_rnd_1_gm_first_scene_ends_the_round_on_the_players_action(
    table: SceneTable, refused: Refused, spotlight: Spotlight
) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO, creatures=("ogre",), gm_first=True))
    refused(table, TakeSpotlight(votes={"freya": "freya"}), "spotlight is with the GM")
    assert table.execute(GmAct("ambush", creature="ogre"))[-1] == SpotlightPassed(
        to=SceneSide.PLAYERS
    )
    table.execute(FreeAction("ogre", "roars"))  # after the GM's action, same round
    spotlight(table, "freya")
    assert isinstance(table.execute(Act("freya", "parry"))[-1], RoundEnded)
    assert table.state.scene is not None and table.state.scene.turn is SceneSide.GM


def test_dg_act_1_actions_carry_tags_and_outcome(table: SceneTable, spotlight: Spotlight) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO))
    spotlight(table, "freya")
    table.execute(Act("freya", "shove", tags=("melee",), outcome=Outcome.PARTIAL))
    assert table.state.scene is not None and table.state.scene.last_action is not None
    last = table.state.scene.last_action
    assert (last.actor, last.tags, last.outcome) == ("freya", ("melee",), Outcome.PARTIAL)


def test_dg_act_1_a_roll_against_a_target_gives_the_outcome() -> None:
    """Natural maximum: critical; reach the target: success; miss by 1-2: partial; else failure."""
    faces = {20: Outcome.CRITICAL, 15: Outcome.SUCCESS, 12: Outcome.SUCCESS}
    faces |= {11: Outcome.PARTIAL, 10: Outcome.PARTIAL, 9: Outcome.FAILURE, 1: Outcome.FAILURE}
    for face, expected in faces.items():
        assert outcome_of(roll("d20", TypedDice([face])), 12) is expected
    assert outcome_of(roll("2d6", TypedDice([6, 6])), 20) is Outcome.CRITICAL
    assert outcome_of(roll("2d6", TypedDice([6, 5])), 11) is Outcome.SUCCESS


def test_dg_act_1_rolled_action_records_its_roll() -> None:
    table = SceneTable(dungeoneers_rules(), TypedDice([10]))
    table.execute(OpenScene(SceneKind.COMBAT, players=("freya",)))
    table.execute(TakeSpotlight(votes={"freya": "freya"}))
    events = table.execute(Act("freya", "leap the chasm", roll="d20+1", target=12))
    action = events[0]
    assert isinstance(action, ActionTaken)
    assert (action.total, action.outcome) == (11, Outcome.PARTIAL)
    assert action.rolls[0].breakdown == "d20 (10) + 1 = 11"


def test_dg_act_1_outcome_or_roll_not_both(
    table: SceneTable, refused: Refused, spotlight: Spotlight
) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO))
    spotlight(table, "freya")
    refused(table, Act("freya", "x", outcome=Outcome.SUCCESS, roll="d20", target=5), "not both")
    refused(table, Act("freya", "x", roll="d20"), "needs a target")
    refused(table, Act("freya", "x", target=5), "a target needs a roll")


def test_dg_free_1_one_free_action_each_per_round(
    table: SceneTable, refused: Refused, spotlight: Spotlight
) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO, creatures=("goblin",)))
    table.execute(FreeAction("ulfarmi", "draws a dagger"))  # before the spotlit action
    spotlight(table, "freya")
    table.execute(FreeAction("freya", "shouts a warning"))  # the spotlit one too
    refused(table, FreeAction("ulfarmi", "sheathes it again"), "ulfarmi already made 1 free")
    table.execute(Act("freya", "strike"))
    table.execute(FreeAction("alberich", "steps back"))  # after the spotlit action
    refused(table, FreeAction("goblin", "cackles"), "only after the GM's action")
    table.execute(GmAct("the goblin stabs", creature_free=(("goblin", "cackles"),)))
    # A new round: every free action is back.
    table.execute(FreeAction("ulfarmi", "sheathes the dagger"))


def test_dg_free_1_a_creature_has_one_free_action_after_the_gm(
    table: SceneTable, refused: Refused, spotlight: Spotlight
) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO, creatures=("goblin",)))
    spotlight(table, "freya")
    table.execute(Act("freya", "strike"))
    refused(
        table,
        GmAct("stab", creature_free=(("goblin", "cackles"), ("goblin", "spits"))),
        "goblin already made 1 free",
    )
    refused(table, GmAct("stab", creature_free=(("troll", "roars"),)), "troll is neither")
    refused(table, FreeAction("mallory", "waves"), "mallory is neither")


def test_dg_mom_1_an_ordinary_action_passes_the_spotlight(
    table: SceneTable, spotlight: Spotlight
) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO))
    spotlight(table, "freya")
    events = table.execute(Act("freya", "strike", tags=("momentum",), outcome=Outcome.PARTIAL))
    assert events[-1] == SpotlightPassed(to=SceneSide.GM)


@pytest.mark.parametrize(
    ("tags", "outcome"),
    [
        ((), Outcome.CRITICAL),
        (("momentum",), Outcome.SUCCESS),
        (("momentum",), Outcome.CRITICAL),
    ],
)
def test_dg_mom_1_critical_or_momentum_success_keeps_the_spotlight(
    table: SceneTable,
    tags: tuple[str, ...],
    outcome: Outcome,
    refused: Refused,
    spotlight: Spotlight,
) -> None:
    """Freya rolls a critical: Ulfarmi or Alberich takes the spotlight, spending a token."""
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO))
    table.execute(FreeAction("ulfarmi", "readies a spear"))
    spotlight(table, "freya")
    events = table.execute(Act("freya", "strike", tags=tags, outcome=outcome))
    assert events[-1] == MomentumKept(side=SceneSide.PLAYERS, by="freya")
    scene = table.state.scene
    assert scene is not None and scene.turn is SceneSide.PLAYERS and scene.round == 1
    refused(table, TakeSpotlight(votes=dict.fromkeys(TRIO, "freya")), "another player takes it")
    refused(table, GmAct("too soon"), "spotlight is with the players")
    spotlight(table, "ulfarmi")
    assert table.state.tokens_of("ulfarmi") == 2  # the kept spotlight still costs a token
    refused(table, FreeAction("ulfarmi", "a second free action"), "no second one")
    table.execute(FreeAction("alberich", "first free action this round"))
    table.execute(Act("ulfarmi", "follow up"))
    assert isinstance(table.execute(GmAct("the ogre reels"))[-1], RoundEnded)


def test_dg_mom_1_momentum_without_success_passes(table: SceneTable, spotlight: Spotlight) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO))
    spotlight(table, "freya")
    events = table.execute(Act("freya", "strike", tags=("momentum",), outcome=Outcome.FAILURE))
    assert events[-1] == SpotlightPassed(to=SceneSide.GM)


def test_dg_mom_1_the_gm_side_keeps_it_on_a_critical(
    table: SceneTable, spotlight: Spotlight, play_round: PlayRound
) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO, creatures=("ogre", "goblin")))
    play_round(table, "freya")
    spotlight(table, "ulfarmi")
    table.execute(Act("ulfarmi", "strike"))
    events = table.execute(GmAct("smash", creature="ogre", outcome=Outcome.CRITICAL))
    assert events[-1] == MomentumKept(side=SceneSide.GM, by="ogre")
    assert isinstance(table.execute(GmAct("stab", creature="goblin"))[-1], RoundEnded)
