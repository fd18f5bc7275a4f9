"""The Dungeoneers numbers a scene runs on: the ruleset and how long each kind of round lasts.

DG-RND-1: a combat round is seconds, an exploration round ten minutes, a social round a
minute; a free scene keeps no rounds. The text lets an exploration round last from 2 minutes
to 8 hours and a social round from 1 to 10 minutes, so the GM may set one scene's round
within its kind's range (``scene open --round 8h``); a combat round is always the ruleset's.
"""

from __future__ import annotations

from turnkeeper.clock.durations import format_duration
from turnkeeper.errors import IllegalCommandError, NotFoundError
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


def round_seconds(kind: SceneKind, rules: Ruleset, chosen: int | None = None) -> int:
    """How long a round of this kind of scene lasts (DG-RND-1); 0 for a free scene.

    ``chosen`` is the length the GM set when opening the scene, if they set one.

    >>> [round_seconds(kind, dungeoneers_rules()) for kind in SceneKind]
    [6, 600, 60, 0]
    >>> round_seconds(SceneKind.EXPLORATION, dungeoneers_rules(), chosen=8 * 3600)
    28800
    """
    if chosen is not None:
        return chosen
    time = rules.time
    return {
        SceneKind.COMBAT: time.round_seconds,
        SceneKind.EXPLORATION: time.exploration_round_minutes * 60,
        SceneKind.SOCIAL: time.social_round_minutes * 60,
        SceneKind.FREE: 0,
    }[kind]


def round_range(kind: SceneKind, rules: Ruleset) -> tuple[int, int] | None:
    """The shortest and longest round, in seconds, the GM may set for this kind of scene
    (DG-RND-1); None where the length is not the GM's to set (combat, a free scene).

    >>> rules = dungeoneers_rules()
    >>> [round_range(kind, rules) for kind in SceneKind]
    [None, (120, 28800), (60, 600), None]
    """
    time = rules.time
    minutes = {
        SceneKind.EXPLORATION: (
            time.exploration_round_shortest_minutes,
            time.exploration_round_longest_minutes,
        ),
        SceneKind.SOCIAL: (time.social_round_shortest_minutes, time.social_round_longest_minutes),
    }.get(kind)
    return None if minutes is None else (minutes[0] * 60, minutes[1] * 60)


def check_round(kind: SceneKind, seconds: int, rules: Ruleset) -> None:
    """Refuse a round the GM set outside what the text allows this kind of scene (DG-RND-1)."""
    bounds = round_range(kind, rules)
    if bounds is None:
        why = (
            f"a combat round is {format_duration(rules.time.round_seconds)} (DG-RND-1)"
            if kind is SceneKind.COMBAT
            else "a free scene keeps no rounds (DG-SPOT-3)"
        )
        raise IllegalCommandError(
            f"{why}: --round sets an exploration or a social round's length; "
            f"open this {kind.value} scene without it"
        )
    shortest, longest = bounds
    if not shortest <= seconds <= longest:
        raise IllegalCommandError(
            f"a{'n' if kind is SceneKind.EXPLORATION else ''} {kind.value} round lasts "
            f"{format_duration(shortest)} to {format_duration(longest)} (DG-RND-1), not "
            f"{format_duration(seconds)}: give --round within that range"
        )
