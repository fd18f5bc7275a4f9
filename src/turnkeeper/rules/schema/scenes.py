"""Dungeoneers scenes in a ruleset: countdowns, the spotlight and dread (DG-*)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from turnkeeper.rules.schema.base import NonNegative, Rules, Whole

# --- scenes (DG-*) -----------------------------------------------------------------------


class CountdownType(Rules):
    """A kind of countdown and the time frame that ticks it (DG-CD-1, DG-CD-2)."""

    abbreviation: str
    ticks_on: list[Literal["combat_round", "social_round", "exploration_round", "day"]]
    rank: Whole = Field(
        description="Longer types have higher rank; ending a frame ends lower ranks."
    )


class CountdownRules(Rules):
    """Countdown types and failure outcomes (DG-CD-1 to DG-CD-5, DG-FCD-1)."""

    types: dict[str, CountdownType] = Field(default_factory=dict)
    failure_outcomes: dict[str, tuple[NonNegative, NonNegative]] = Field(
        default_factory=dict,
        description="DG-FCD-1: outcome name -> (ticks of the countdown, ticks of the failure one).",
    )
    longer_ticks_end_shorter: Literal["every_tick", "frame_end"] | None = Field(
        None,
        # a ruleset is embedded in its campaign's journal: journals written before it stay
        # identical
        exclude_if=lambda reading: reading is None,
        description=(
            "DG-CD-2: 'every_tick' (none: the same), any tick of a longer countdown (a frame's "
            "end, by hand, an outcome, an extra trigger) ends every shorter countdown; "
            "'frame_end', only the end of a longer time frame ends them. Either way a longer "
            "frame's end ends them."
        ),
    )


class SpotlightRules(Rules):
    """Spotlight tokens and momentum (DG-SPOT-1 to DG-SPOT-3, DG-MOM-1, DG-FREE-1)."""

    enabled: bool = False
    tokens_each: NonNegative = 3
    tokens: bool = True
    free_actions_per_round: NonNegative = 1


class DreadRules(Rules):
    """The GM's dread pool (DG-DREAD-1)."""

    enabled: bool = False
    compromise_margin: NonNegative = 2
    per_compromise: NonNegative = 1
    per_rest_action: NonNegative = 1
