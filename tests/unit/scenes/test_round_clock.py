"""A scene's round ends in campaign time: clock and countdowns (DG-RND-1 with DG-CD-1, DG-CD-2)."""

from __future__ import annotations

from collections.abc import Iterable

from turnkeeper.campaign import CountdownAdd, Journal
from turnkeeper.campaign.hooks import HOOKS
from turnkeeper.dice import SeededDice
from turnkeeper.kernel.events import CampaignStarted, Event
from turnkeeper.kernel.party import parse_party
from turnkeeper.kernel.schedule import Draft
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.countdowns import CountdownTicked, start_countdown
from turnkeeper.procedures.scenes import (
    Act,
    FreeAction,
    GmAct,
    OpenScene,
    RoundEnded,
    SceneKind,
    TakeSpotlight,
    dungeoneers_rules,
)
from turnkeeper.procedures.scenes.clock import round_time_events
from turnkeeper.rules import preset

FREYA = '[[characters]]\nname = "Freya"\nhp = 8\n'


def applied(state: CampaignState, events: Iterable[Event]) -> CampaignState:
    for event in events:
        state = event.apply(state)
    return state


def campaign() -> CampaignState:
    rules = dungeoneers_rules()
    party = parse_party('[[characters]]\nname = "Freya"\nhp = 8\n', ruleset=rules)
    state = CampaignStarted(name="t", seed=1, ruleset=rules, party=party).start()
    dice = SeededDice(1)
    state = applied(state, start_countdown(state, dice, "fuse", "rapid", "3"))
    return applied(state, start_countdown(state, dice, "torch smoke", "short", "4"))


def round_end(state: CampaignState, ended: RoundEnded) -> CampaignState:
    draft = Draft(state, HOOKS)
    round_time_events(draft, ended, SeededDice(2))
    return draft.state


def left(state: CampaignState) -> dict[str, int]:
    return {c.name: c.left for c in state.countdowns}


def test_dg_rnd_1_a_combat_round_is_6_s_and_ticks_rapid_countdowns_once() -> None:
    state = campaign()
    after = round_end(state, RoundEnded(round=1, frame="combat_round", seconds=6))
    assert after.now == state.now + 6
    assert left(after) == {"fuse": 2, "torch smoke": 4}


def test_dg_rnd_1_a_social_round_ticks_rapid_countdowns_once_not_per_6_s() -> None:
    state = campaign()
    ended = RoundEnded(round=1, frame="social_round", seconds=60)
    after = round_end(state, ended)
    assert after.now == state.now + 60
    assert left(after) == {"fuse": 2, "torch smoke": 4}


def test_dg_rnd_1_an_exploration_round_ticks_short_and_ends_rapid_countdowns() -> None:
    state = campaign()
    ended = RoundEnded(round=1, frame="exploration_round", seconds=600)
    after = round_end(state, ended)
    assert after.now == state.now + 600
    assert left(after) == {"torch smoke": 3}


def test_dg_cd_4_a_suffocating_players_action_in_a_scene_ticks_her_countdown() -> None:
    """DG-CD-4, the text's example: "A creature who is suffocating starts a Countdown:
    RC(body). Taking a wound or taking an action ticks the countdown by 1. When the
    countdown ends, the creature takes 1 precision wound whenever the countdown would
    tick": Freya's RC(2) ticks to 1 when she acts with the spotlight, and ends when her
    combat round ends; Ulfarmi's action and Freya's free action tick nothing."""
    journal = Journal.start("t", preset("dg"), parse_party(FREYA), seed=1)
    journal.execute(
        CountdownAdd("suffocating", "rapid", "2", subject="freya", listens=("wound", "action"),
                     after_end="wound")
    )  # fmt: skip
    journal.execute(OpenScene(SceneKind.COMBAT, ("freya", "ulfarmi")))
    journal.execute(FreeAction("freya", "gasps"))
    journal.execute(TakeSpotlight((("freya", "ulfarmi"), ("ulfarmi", "ulfarmi"))))
    journal.execute(Act("ulfarmi", "drags her out"))
    assert left(journal.state) == {"suffocating": 2}
    journal.execute(GmAct("the water rises"))
    assert left(journal.state) == {"suffocating": 1}  # the combat round's end
    journal.execute(TakeSpotlight((("freya", "freya"), ("ulfarmi", "freya"))))
    records = journal.execute(Act("freya", "swims for the surface"))
    ticked = [r.event for r in records if isinstance(r.event, CountdownTicked)]
    assert [t.reason for t in ticked] == ["action"]
    assert journal.state.countdown("suffocating").spent
