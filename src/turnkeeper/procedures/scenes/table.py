"""A scene table without a campaign: the scene rules alone, for tests and simulations.

>>> from turnkeeper.dice import SeededDice
>>> from turnkeeper.procedures.scenes.commands import OpenScene, TakeSpotlight
>>> from turnkeeper.procedures.scenes.rules import dungeoneers_rules
>>> from turnkeeper.kernel.scene_state import SceneKind
>>> table = SceneTable(dungeoneers_rules(), SeededDice(1))
>>> _ = table.execute(OpenScene(SceneKind.COMBAT, players=("freya", "ulfarmi")))
>>> _ = table.execute(TakeSpotlight(votes=(("freya", "ulfarmi"), ("ulfarmi", "ulfarmi"))))
>>> table.state.tokens_of("ulfarmi"), table.state.scene.spotlit
(2, 'ulfarmi')
"""

from __future__ import annotations

from turnkeeper.dice import DiceSource
from turnkeeper.kernel.scene_state import SceneState
from turnkeeper.procedures.scenes.commands import SceneCommand
from turnkeeper.procedures.scenes.decide import decide_scene
from turnkeeper.procedures.scenes.events import SceneEvent, fold_scene_events
from turnkeeper.rules.schema import Ruleset


class SceneTable:
    """A table without a campaign: the state, the ruleset and the dice, every event in order.

    For tests and simulations of the scene rules alone; a campaign runs scenes through its
    journal (``decide`` hands scene commands to :func:`~turnkeeper.procedures.scenes.clock.
    campaign_scene_events`), where rounds also pass time and tick countdowns.
    """

    def __init__(self, rules: Ruleset, dice: DiceSource, state: SceneState | None = None) -> None:
        self.rules = rules
        self.dice = dice
        self.state = state or SceneState()
        self.events: list[SceneEvent] = []

    def execute(self, command: SceneCommand) -> list[SceneEvent]:
        """Decide and fold a command; the state is untouched when the command is illegal."""
        events = decide_scene(self.state, command, self.rules, self.dice)
        self.state = fold_scene_events(events, self.state)
        self.events.extend(events)
        return events
