"""The play loop and the spotlight: DG-LOOP-1, DG-SPOT-1, DG-SPOT-2, DG-SPOT-3."""

from __future__ import annotations

from typing import TYPE_CHECKING

from turnkeeper.dice import SeededDice
from turnkeeper.procedures.scenes import (
    Act,
    CloseScene,
    GiveTokens,
    GmAct,
    OpenScene,
    SceneClosed,
    SceneKind,
    SceneOpened,
    SceneSide,
    SceneTable,
    SpotlightTaken,
    TakeSpotlight,
    TokensRegained,
    VoteSpotlight,
    dungeoneers_rules,
)
from turnkeeper.procedures.scenes.events import SpotlightVoted
from turnkeeper.rules.schema import SpotlightRules

TRIO = ("freya", "ulfarmi", "alberich")

if TYPE_CHECKING:
    from tests.unit.scenes.conftest import Refused, Spotlight


def test_dg_loop_1_scene_opens_plays_a_round_and_closes(
    table: SceneTable, refused: Refused, spotlight: Spotlight
) -> None:
    events = table.execute(OpenScene(SceneKind.COMBAT, players=TRIO, creatures=("ogre",)))
    assert isinstance(events[0], SceneOpened)
    scene = table.state.scene
    assert scene is not None and scene.kind is SceneKind.COMBAT and scene.turn is SceneSide.PLAYERS
    spotlight(table, "freya")
    table.execute(Act("freya", "strike the ogre"))
    table.execute(GmAct("the ogre swings", creature="ogre"))
    assert table.state.scene is not None and table.state.scene.round == 2
    closed = table.execute(CloseScene())
    assert closed == [SceneClosed(number=1, rounds=1)]
    assert table.state.scene is None
    refused(table, CloseScene(), "no scene is open")


def test_dg_loop_1_one_scene_at_a_time(table: SceneTable, refused: Refused) -> None:
    table.execute(OpenScene(SceneKind.SOCIAL, players=TRIO))
    refused(table, OpenScene(SceneKind.COMBAT, players=TRIO), "scene 1 .social. is still open")


def test_dg_loop_1_a_scene_needs_players_named_once(table: SceneTable, refused: Refused) -> None:
    refused(table, OpenScene(SceneKind.COMBAT, players=()), "at least one player")
    refused(table, OpenScene(SceneKind.COMBAT, players=("a", "a")), "players named twice: a")
    refused(table, OpenScene(SceneKind.COMBAT, players=("a",), creatures=("a",)), "both a player")


def test_dg_spot_1_majority_takes_the_spotlight(table: SceneTable) -> None:
    table.execute(OpenScene(SceneKind.SOCIAL, players=TRIO))
    events = table.execute(
        TakeSpotlight(votes={"freya": "alberich", "ulfarmi": "alberich", "alberich": "freya"})
    )
    assert events[0] == SpotlightTaken(
        player="alberich",
        votes=(("freya", "alberich"), ("ulfarmi", "alberich"), ("alberich", "freya")),
    )
    assert table.state.scene is not None and table.state.scene.spotlit == "alberich"


def test_dg_spot_1_the_gm_breaks_ties_and_disputes(table: SceneTable, refused: Refused) -> None:
    table.execute(OpenScene(SceneKind.SOCIAL, players=("freya", "ulfarmi")))
    tie = {"freya": "freya", "ulfarmi": "ulfarmi"}
    refused(table, TakeSpotlight(votes=tie), r"no majority \(freya 1, ulfarmi 1\).*--gm")
    refused(table, TakeSpotlight(votes=tie, gm_choice="bob"), "bob is not a player")
    events = table.execute(TakeSpotlight(votes=tie, gm_choice="ulfarmi"))
    assert isinstance(events[0], SpotlightTaken) and events[0].by_gm
    assert table.state.scene is not None and table.state.scene.spotlit == "ulfarmi"


def test_dg_spot_1_the_gm_does_not_overrule_a_majority(table: SceneTable, refused: Refused) -> None:
    table.execute(OpenScene(SceneKind.SOCIAL, players=TRIO))
    votes = {"freya": "freya", "ulfarmi": "freya", "alberich": "alberich"}
    refused(table, TakeSpotlight(votes=votes, gm_choice="alberich"), "chose freya by majority")


def test_dg_spot_1_votes_come_from_players_of_the_scene(
    table: SceneTable, refused: Refused
) -> None:
    table.execute(OpenScene(SceneKind.SOCIAL, players=TRIO))
    refused(table, TakeSpotlight(votes={"mallory": "freya"}), "mallory is not a player")
    refused(table, TakeSpotlight(votes={"freya": "ogre"}), "ogre is not a player")


def test_dg_spot_1_only_the_spotlit_player_acts(
    table: SceneTable, refused: Refused, spotlight: Spotlight
) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO))
    refused(table, Act("freya", "charge"), "no one holds the spotlight")
    spotlight(table, "freya")
    refused(table, Act("ulfarmi", "charge"), r"ulfarmi does not hold the spotlight \(freya does\)")
    refused(table, TakeSpotlight(votes={"ulfarmi": "ulfarmi"}), "freya already holds")
    table.execute(Act("freya", "charge"))
    refused(table, Act("freya", "charge again"), "the spotlight is with the GM")


def test_dg_spot_1_the_chosen_player_must_hold_a_token(table: SceneTable, refused: Refused) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=("freya", "ulfarmi")))
    table.execute(GiveTokens("freya", "ulfarmi", 3))
    refused(table, TakeSpotlight(votes={"freya": "freya", "ulfarmi": "freya"}), "freya holds no")


def test_dg_spot_2_three_tokens_each_and_one_spent_per_spotlight(
    table: SceneTable, spotlight: Spotlight
) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=TRIO))
    assert [seat.tokens for seat in table.state.seats] == [3, 3, 3]
    spotlight(table, "freya")
    assert table.state.tokens_of("freya") == 2
    assert table.state.tokens_of("ulfarmi") == 3


def test_dg_spot_2_tokens_are_given_freely(table: SceneTable, refused: Refused) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=("freya", "ulfarmi")))
    table.execute(GiveTokens("freya", "ulfarmi", 2))
    assert (table.state.tokens_of("freya"), table.state.tokens_of("ulfarmi")) == (1, 5)
    refused(
        table, GiveTokens("freya", "ulfarmi", 2), "freya holds 1 spotlight tokens, cannot give 2"
    )
    refused(table, GiveTokens("freya", "freya"), "themself")
    refused(table, GiveTokens("freya", "mallory"), "mallory has no seat")
    refused(table, GiveTokens("freya", "ulfarmi", 0), "at least 1")


def test_dg_spot_2_every_player_regains_3_once_every_token_is_spent(table: SceneTable) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=("freya", "ulfarmi")))
    for spent, player in enumerate(["freya", "ulfarmi"] * 3, start=1):
        events = table.execute(TakeSpotlight(votes={"freya": player, "ulfarmi": player}))
        regained = [e for e in events if isinstance(e, TokensRegained)]
        if spent < 6:
            assert not regained
            assert sum(seat.tokens for seat in table.state.seats) == 6 - spent
        else:
            assert regained == [TokensRegained(players=("freya", "ulfarmi"), each=3)]
        table.execute(Act(player, "press on"))
        table.execute(GmAct("the goblins shriek"))
    assert [seat.tokens for seat in table.state.seats] == [3, 3]


def test_dg_spot_2_tokens_outlast_the_scene(table: SceneTable, spotlight: Spotlight) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=("freya", "ulfarmi")))
    spotlight(table, "freya")
    table.execute(CloseScene())
    table.execute(OpenScene(SceneKind.SOCIAL, players=("freya", "ulfarmi", "alberich")))
    assert [(s.name, s.tokens) for s in table.state.seats] == [
        ("freya", 2),
        ("ulfarmi", 3),
        ("alberich", 3),
    ]


def test_dg_spot_3_tokens_switched_off_for_a_scene(table: SceneTable, spotlight: Spotlight) -> None:
    table.execute(OpenScene(SceneKind.COMBAT, players=("freya", "ulfarmi"), tokens=False))
    for _ in range(5):
        spotlight(table, "freya")
        table.execute(Act("freya", "hog the spotlight"))
        table.execute(GmAct())
    assert table.state.tokens_of("freya") == 3


def test_dg_spot_3_tokens_switched_off_by_the_ruleset(refused: Refused) -> None:
    rules = dungeoneers_rules()
    rules = rules.model_copy(update={"spotlight": SpotlightRules(enabled=True, tokens=False)})
    table = SceneTable(rules, SeededDice(1))
    table.execute(OpenScene(SceneKind.COMBAT, players=("freya",)))
    events = table.execute(TakeSpotlight(votes={"freya": "freya"}))
    assert isinstance(events[0], SpotlightTaken) and not events[0].token_spent
    refused(table, GiveTokens("freya", "freya"), "without spotlight tokens")


def test_dg_spot_3_a_free_scene_needs_no_spotlight(table: SceneTable, refused: Refused) -> None:
    table.execute(OpenScene(SceneKind.FREE, players=("freya", "ulfarmi")))
    refused(table, TakeSpotlight(votes={"freya": "freya"}), "free scene needs no spotlight")
    table.execute(Act("freya", "haggle over the price of rope"))
    table.execute(Act("ulfarmi", "chat with the smith"))
    table.execute(Act("freya", "haggle again"))
    assert [(s.name, s.tokens) for s in table.state.seats] == [("freya", 3), ("ulfarmi", 3)]
    assert table.state.scene is not None and table.state.scene.round == 1


def test_scenes_need_a_ruleset_with_a_spotlight(refused: Refused) -> None:
    from turnkeeper.rules.loader import preset

    table = SceneTable(preset("tp"), SeededDice(1))
    refused(table, OpenScene(SceneKind.COMBAT, players=("freya",)), "ruleset tp has no spotlight")


FIVE = ("ana", "bo", "cy", "dee", "eli")


def test_dg_spot_1_a_majority_of_the_scenes_players_not_of_the_votes_cast(
    table: SceneTable, refused: Refused
) -> None:
    """DG-SPOT-1, "the players must agree on who gets the spotlight (majority consensus,
    ties/disputes broken by the GM)": at a table of five, one player's vote is no majority;
    three of five are; a 2-2-1 split is a dispute the GM breaks."""
    table.execute(OpenScene(SceneKind.SOCIAL, players=FIVE))
    refused(
        table,
        TakeSpotlight(votes={"ana": "bo"}),
        r"no majority \(bo 1\), 3 of the 5 players needed: the GM breaks ties and disputes"
        r" \(--gm NAME\)",
    )
    two_of_five = {"ana": "bo", "bo": "bo"}
    refused(table, TakeSpotlight(votes=two_of_five), r"no majority \(bo 2\), 3 of the 5")
    split = {"ana": "bo", "bo": "bo", "cy": "dee", "dee": "dee", "eli": "eli"}
    refused(table, TakeSpotlight(votes=split), r"no majority \(bo 2, dee 2, eli 1\)")
    events = table.execute(TakeSpotlight(votes=split, gm_choice="dee"))
    assert isinstance(events[0], SpotlightTaken) and events[0].by_gm
    assert table.state.scene is not None and table.state.scene.spotlit == "dee"


def test_dg_spot_1_three_of_five_give_the_spotlight(table: SceneTable, refused: Refused) -> None:
    """DG-SPOT-1: three votes of a table of five are the players' majority; the GM does not
    overrule it."""
    table.execute(OpenScene(SceneKind.SOCIAL, players=FIVE))
    three = {"ana": "cy", "bo": "cy", "cy": "cy", "dee": "ana"}
    refused(table, TakeSpotlight(votes=three, gm_choice="ana"), "chose cy by majority")
    events = table.execute(TakeSpotlight(votes=three))
    assert events[0] == SpotlightTaken(player="cy", votes=tuple(three.items()))
    assert table.state.scene is not None and table.state.scene.spotlit == "cy"


def test_dg_spot_1_the_players_vote_from_their_seats_and_the_spotlight_counts_the_votes(
    table: SceneTable, refused: Refused
) -> None:
    """DG-SPOT-1, "the players must agree on who gets the spotlight (majority consensus)",
    with each player voting on their own (a player's own link, issue 26): a vote a player
    casts again replaces their first; the spotlight taken without votes counts those cast,
    the majority of the scene's five players, and the next choice starts from none."""
    table.execute(OpenScene(SceneKind.SOCIAL, players=FIVE))
    for voter, candidate in (("ana", "bo"), ("bo", "cy"), ("cy", "cy"), ("ana", "cy")):
        events = table.execute(VoteSpotlight(voter, candidate))
        assert events == [SpotlightVoted(voter=voter, candidate=candidate)]
    assert table.state.scene is not None
    assert table.state.scene.votes == (("bo", "cy"), ("cy", "cy"), ("ana", "cy"))
    refused(table, VoteSpotlight("zed", "cy"), "zed")  # not a player of the scene
    refused(table, VoteSpotlight("ana", "boo"), "did you mean bo")
    events = table.execute(TakeSpotlight())
    assert events[0] == SpotlightTaken(
        player="cy", votes=(("bo", "cy"), ("cy", "cy"), ("ana", "cy"))
    )
    assert table.state.scene is not None and table.state.scene.votes == ()
    refused(table, VoteSpotlight("ana", "bo"), "cy already holds the spotlight")
