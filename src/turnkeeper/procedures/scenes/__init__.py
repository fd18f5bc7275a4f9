"""Dungeoneers scenes: spotlight, actions, rounds, momentum and dread, as commands -> events.

The play loop (DG-LOOP-1): the GM sets a scene; each player makes one free action a round;
if a spotlight is needed the players agree who takes it; the spotlit player acts; the GM acts;
repeat; the scene ends. :func:`decide_scene` (:mod:`.decide`) checks a command against the
table's state (:mod:`.state`) and the ruleset (:mod:`.rules`) and returns the events it causes
(:mod:`.events`); an illegal command raises :class:`~turnkeeper.errors.IllegalCommandError`
with one line and changes nothing. Tokens and dread are :mod:`.dread`; a campaign runs
scenes through :mod:`.clock`, where rounds pass time; :class:`SceneTable` runs them alone.

>>> from turnkeeper.dice import SeededDice
>>> from turnkeeper.procedures.scenes import OpenScene, SceneKind, SceneTable, TakeSpotlight
>>> from turnkeeper.procedures.scenes import dungeoneers_rules
>>> table = SceneTable(dungeoneers_rules(), SeededDice(1))
>>> _ = table.execute(OpenScene(SceneKind.COMBAT, players=("freya", "ulfarmi")))
>>> _ = table.execute(TakeSpotlight(votes=(("freya", "ulfarmi"), ("ulfarmi", "ulfarmi"))))
>>> table.state.tokens_of("ulfarmi"), table.state.scene.spotlit
(2, 'ulfarmi')
"""

from turnkeeper.kernel.scene_state import (
    ActionRecord,
    DreadSpend,
    Outcome,
    Scene,
    SceneKind,
    SceneSide,
    SceneState,
    Seat,
    outcome_of,
)
from turnkeeper.procedures.scenes.clock import (
    campaign_scene_events,
    round_time_events,
)
from turnkeeper.procedures.scenes.commands import (
    Act,
    CloseScene,
    Compromise,
    FreeAction,
    GiveTokens,
    GmAct,
    OpenScene,
    SceneCommand,
    SpendDread,
    TakeSpotlight,
    VoteSpotlight,
)
from turnkeeper.procedures.scenes.decide import (
    GM,
    MOMENTUM,
    decide_scene,
)
from turnkeeper.procedures.scenes.events import (
    ActionTaken,
    CompromiseTaken,
    DreadGained,
    DreadSpent,
    FreeActionTaken,
    MomentumKept,
    RoundEnded,
    SceneClosed,
    SceneEvent,
    SceneOpened,
    SpotlightPassed,
    SpotlightTaken,
    TokensGiven,
    TokensRegained,
    fold_scene_events,
)
from turnkeeper.procedures.scenes.rules import (
    dungeoneers_rules,
    round_seconds,
)
from turnkeeper.procedures.scenes.table import (
    SceneTable,
)

__all__ = [
    "GM",
    "MOMENTUM",
    "Act",
    "ActionRecord",
    "ActionTaken",
    "CloseScene",
    "Compromise",
    "CompromiseTaken",
    "DreadGained",
    "DreadSpend",
    "DreadSpent",
    "FreeAction",
    "FreeActionTaken",
    "GiveTokens",
    "GmAct",
    "MomentumKept",
    "OpenScene",
    "Outcome",
    "RoundEnded",
    "Scene",
    "SceneClosed",
    "SceneCommand",
    "SceneEvent",
    "SceneKind",
    "SceneOpened",
    "SceneSide",
    "SceneState",
    "SceneTable",
    "Seat",
    "SpendDread",
    "SpotlightPassed",
    "SpotlightTaken",
    "TakeSpotlight",
    "TokensGiven",
    "TokensRegained",
    "VoteSpotlight",
    "campaign_scene_events",
    "decide_scene",
    "dungeoneers_rules",
    "fold_scene_events",
    "outcome_of",
    "round_seconds",
    "round_time_events",
]
