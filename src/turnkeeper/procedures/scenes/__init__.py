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

from __future__ import annotations

from typing import TYPE_CHECKING

from turnkeeper.lazy import lazy_names

if TYPE_CHECKING:  # the names, for type checkers; at run time they load on first use
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
    from turnkeeper.procedures.scenes.state import (
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
    from turnkeeper.procedures.scenes.table import (
        SceneTable,
    )

# Loaded lazily: the campaign's state imports ``scenes.state``, and the scene events and the
# clock import the campaign's, so importing the whole package eagerly would go round in a circle.
_WHERE = {
    "Act": "turnkeeper.procedures.scenes.commands",
    "ActionRecord": "turnkeeper.procedures.scenes.state",
    "ActionTaken": "turnkeeper.procedures.scenes.events",
    "CloseScene": "turnkeeper.procedures.scenes.commands",
    "Compromise": "turnkeeper.procedures.scenes.commands",
    "CompromiseTaken": "turnkeeper.procedures.scenes.events",
    "DreadGained": "turnkeeper.procedures.scenes.events",
    "DreadSpend": "turnkeeper.procedures.scenes.state",
    "DreadSpent": "turnkeeper.procedures.scenes.events",
    "FreeAction": "turnkeeper.procedures.scenes.commands",
    "FreeActionTaken": "turnkeeper.procedures.scenes.events",
    "GM": "turnkeeper.procedures.scenes.decide",
    "GiveTokens": "turnkeeper.procedures.scenes.commands",
    "GmAct": "turnkeeper.procedures.scenes.commands",
    "MOMENTUM": "turnkeeper.procedures.scenes.decide",
    "MomentumKept": "turnkeeper.procedures.scenes.events",
    "OpenScene": "turnkeeper.procedures.scenes.commands",
    "Outcome": "turnkeeper.procedures.scenes.state",
    "RoundEnded": "turnkeeper.procedures.scenes.events",
    "Scene": "turnkeeper.procedures.scenes.state",
    "SceneClosed": "turnkeeper.procedures.scenes.events",
    "SceneCommand": "turnkeeper.procedures.scenes.commands",
    "SceneEvent": "turnkeeper.procedures.scenes.events",
    "SceneKind": "turnkeeper.procedures.scenes.state",
    "SceneOpened": "turnkeeper.procedures.scenes.events",
    "SceneSide": "turnkeeper.procedures.scenes.state",
    "SceneState": "turnkeeper.procedures.scenes.state",
    "SceneTable": "turnkeeper.procedures.scenes.table",
    "Seat": "turnkeeper.procedures.scenes.state",
    "SpendDread": "turnkeeper.procedures.scenes.commands",
    "SpotlightPassed": "turnkeeper.procedures.scenes.events",
    "SpotlightTaken": "turnkeeper.procedures.scenes.events",
    "TakeSpotlight": "turnkeeper.procedures.scenes.commands",
    "TokensGiven": "turnkeeper.procedures.scenes.events",
    "TokensRegained": "turnkeeper.procedures.scenes.events",
    "decide_scene": "turnkeeper.procedures.scenes.decide",
    "dungeoneers_rules": "turnkeeper.procedures.scenes.rules",
    "fold_scene_events": "turnkeeper.procedures.scenes.events",
    "outcome_of": "turnkeeper.procedures.scenes.state",
    "round_seconds": "turnkeeper.procedures.scenes.rules",
}


__getattr__ = lazy_names(__name__, _WHERE)


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
    "decide_scene",
    "dungeoneers_rules",
    "fold_scene_events",
    "outcome_of",
    "round_seconds",
]
