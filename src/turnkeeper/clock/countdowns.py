"""Countdowns: ticking clocks for durations (DG-CD-1 to DG-CD-5, DG-FCD-1, DG-FCD-2).

This module holds the countdown itself and its pure arithmetic; the events and commands
that start, tick and end countdowns in a campaign are in
:mod:`turnkeeper.procedures.countdowns`.

- DG-CD-1: a rapid countdown (RC) ticks at the end of a combat or social round, a short one
  (SC) at the end of an exploration round, a day one (DC) at the end of a day, a generic one
  (GC) only when a rule says so. The types come from ``ruleset.countdowns.types``; when a
  ruleset names none, :data:`DEFAULT_TYPES` (the text's four) apply.
- DG-CD-2 (the project's default reading): the end of a longer frame ends every countdown of a
  shorter type, whether or not a countdown of the longer type runs; and any other tick of a
  longer countdown (by hand, an outcome, an extra trigger) ends them too, unless the ruleset
  says ``countdowns.longer_ticks_end_shorter = "frame_end"``. Generic countdowns tick on no
  frame and so are never ended by one, nor end one.
- DG-CD-5: the seed's example ticks an SC on combat rounds; the definition stands.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from turnkeeper.frozen import Frozen
from turnkeeper.rules.schema import CountdownType, Ruleset

DEFAULT_TYPES: dict[str, CountdownType] = {
    "rapid": CountdownType(abbreviation="RC", ticks_on=["combat_round", "social_round"], rank=1),
    "short": CountdownType(abbreviation="SC", ticks_on=["exploration_round"], rank=2),
    "day": CountdownType(abbreviation="DC", ticks_on=["day"], rank=3),
    "generic": CountdownType(abbreviation="GC", ticks_on=[], rank=0),
}

#: DG-FCD-1: outcome -> (ticks of the countdown, ticks of its failure countdown).
DEFAULT_OUTCOMES: dict[str, tuple[int, int]] = {
    "failure": (0, 2),
    "partial": (1, 1),
    "success": (1, 0),
    "greater": (2, 0),
}

#: The text's numbers for the four outcomes, accepted as their names.
OUTCOME_NUMBERS: dict[str, str] = {
    "-2": "failure",
    "-1": "partial",
    "0": "success",
    "+1": "greater",
    "1": "greater",
}


def countdown_types(ruleset: Ruleset) -> dict[str, CountdownType]:
    """The ruleset's countdown types, or the text's four (DG-CD-1) when it names none."""
    return dict(ruleset.countdowns.types) or dict(DEFAULT_TYPES)


def failure_outcomes(ruleset: Ruleset) -> dict[str, tuple[int, int]]:
    """The four-outcome rule of DG-FCD-1, from the ruleset or the project's defaults."""
    return dict(ruleset.countdowns.failure_outcomes) or dict(DEFAULT_OUTCOMES)


def find_type(types: dict[str, CountdownType], name: str) -> str | None:
    """The type key for a name or an abbreviation (``short`` or ``SC``), or None."""
    for key, kind in types.items():
        if name.lower() in (key.lower(), kind.abbreviation.lower()):
            return key
    return None


class Countdown(Frozen):
    """One running countdown: a named counter that ticks down to zero.

    ``listens`` names extra triggers that tick it (DG-CD-4: ``wound``, ``action``), for the
    ``subject`` creature when one is named. ``after_end`` says what happens once it runs
    out: it ends, or (suffocating) it stays and deals a precision wound whenever it would
    tick. ``failure_of`` names the regular countdown a failure countdown runs beside.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    name: str
    kind: str
    length: int = Field(ge=0)
    left: int = Field(ge=0)
    visibility: Literal["party", "referee"] = "party"
    subject: str | None = None
    listens: tuple[str, ...] = ()
    after_end: Literal["end", "wound"] = "end"
    failure_of: str | None = None
    spent: bool = False
    world: bool = Field(
        False,
        description="A world countdown: it ticks as the world's present passes, whichever "
        "party moves it, once for each span; a party's own ticks with that party's time.",
        exclude_if=lambda world: not world,  # journals without world countdowns stay as they were
    )
    ticks_at: tuple[int, ...] = Field(
        (),
        description="When a world countdown ticked, in game time: a party behind the world's "
        "present sees it as it stood at its own present.",
        exclude_if=lambda ticks: not ticks,
    )

    def left_at(self, now: int) -> int:
        """How many were left at game time ``now``: what a party living then sees of a world
        countdown the world's present has ticked since (a party's own: ``left``).

        >>> Countdown(name="dragon", kind="day", length=10, left=7, ticks_at=(1, 2, 3)).left_at(1)
        9
        """
        return min(self.length, self.left + sum(1 for at in self.ticks_at if at > now))

    def ticked(self, ticks: int = 1) -> Countdown:
        """The countdown after ``ticks`` ticks, never below zero."""
        return self.model_copy(update={"left": max(0, self.left - ticks)})

    @property
    def is_failure(self) -> bool:
        """True for a failure countdown (DG-FCD-1)."""
        return self.failure_of is not None


def label(countdown: Countdown, types: dict[str, CountdownType]) -> str:
    """How the texts write a countdown: ``torch smoke SC(3/4)``."""
    kind = types.get(countdown.kind)
    abbreviation = kind.abbreviation if kind else countdown.kind
    return f"{countdown.name} {abbreviation}({countdown.left}/{countdown.length})"


def frame_rank(frame: str, types: dict[str, CountdownType]) -> int | None:
    """The rank of a time frame: the highest rank of a type that ticks on it (DG-CD-2)."""
    ranks = [kind.rank for kind in types.values() if frame in kind.ticks_on]
    return max(ranks) if ranks else None


def frames_watched(
    countdowns: tuple[Countdown, ...], types: dict[str, CountdownType]
) -> frozenset[str]:
    """The frames whose ends matter to these countdowns: their own, and every longer one."""
    frames: set[str] = set()
    for countdown in countdowns:
        kind = types.get(countdown.kind)
        if kind is None or not kind.ticks_on:
            continue
        frames.update(kind.ticks_on)
        frames.update(
            f for other in types.values() if other.rank > kind.rank for f in other.ticks_on
        )
    return frozenset(frames)


def ends_at_frame(countdown: Countdown, frame: str, types: dict[str, CountdownType]) -> bool:
    """DG-CD-2: True when the end of ``frame`` ends ``countdown`` (its type is shorter)."""
    kind = types.get(countdown.kind)
    rank = frame_rank(frame, types)
    return kind is not None and bool(kind.ticks_on) and rank is not None and kind.rank < rank


def shorter_than(countdown: Countdown, longer: Countdown, types: dict[str, CountdownType]) -> bool:
    """DG-CD-2: True when ``countdown`` is of a shorter-lasting type than ``longer``.

    Only types that last a time frame are longer or shorter: a generic countdown ticks on no
    frame, so its tick ends nothing and no tick ends it.
    """
    kind, other = types.get(countdown.kind), types.get(longer.kind)
    if kind is None or other is None or not kind.ticks_on or not other.ticks_on:
        return False
    return kind.rank < other.rank


def ticks_at_frame(countdown: Countdown, frame: str, types: dict[str, CountdownType]) -> bool:
    """DG-CD-1: True when ``countdown`` ticks at the end of ``frame``.

    Failure countdowns tick only on outcomes (DG-FCD-1), never on a frame's end.
    """
    kind = types.get(countdown.kind)
    return kind is not None and frame in kind.ticks_on and not countdown.is_failure
