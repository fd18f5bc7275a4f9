"""The Dungeoneers numbers a scene runs on: the ruleset and how long each kind of round lasts.

DG-RND-1: a combat round is seconds, an exploration round ten minutes, a social round a
minute; a free scene keeps no rounds.
"""

from __future__ import annotations

from turnkeeper.errors import NotFoundError
from turnkeeper.kernel.scene_state import SceneKind
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import DreadRules, Ruleset, RulesetInfo, SpotlightRules, TimeScales


def dungeoneers_rules() -> Ruleset:
    """The Dungeoneers numbers: the ``dg`` preset when it ships, else the text's own numbers.

    >>> rules = dungeoneers_rules()
    >>> rules.spotlight.tokens_each, rules.time.round_seconds, rules.dread.compromise_margin
    (3, 6, 2)
    """
    try:
        return preset("dg")
    except NotFoundError:
        return Ruleset(
            ruleset=RulesetInfo(name="dg", title="Dungeoneers", prefix="DG"),
            time=TimeScales(round_seconds=6),
            spotlight=SpotlightRules(enabled=True),
            dread=DreadRules(enabled=True),
        )


def round_seconds(kind: SceneKind, rules: Ruleset) -> int:
    """How long a round of this kind of scene lasts (DG-RND-1); 0 for a free scene.

    >>> [round_seconds(kind, dungeoneers_rules()) for kind in SceneKind]
    [6, 600, 60, 0]
    """
    time = rules.time
    return {
        SceneKind.COMBAT: time.round_seconds,
        SceneKind.EXPLORATION: time.exploration_round_minutes * 60,
        SceneKind.SOCIAL: time.social_round_minutes * 60,
        SceneKind.FREE: 0,
    }[kind]
