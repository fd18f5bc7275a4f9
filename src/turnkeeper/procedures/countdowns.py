"""Countdowns in a campaign: start, tick, outcomes, end (DG-CD-1 to DG-CD-5, DG-FCD-1/2).

The countdown and its arithmetic are in :mod:`turnkeeper.clock.countdowns`; this module
records what happens to countdowns as events. Interpretations, documented:

- A countdown that runs out ends and leaves the state, unless it deals precision wounds
  after it ends (DG-CD-4, suffocating): then it stays, spent, and each further tick is a
  :class:`PrecisionWound` for its subject.
- DG-CD-1, DG-RND-1: time passes in rounds of one kind (the open scene's; out of a scene
  each type's first round, so a rapid countdown ticks on combat rounds): ``wait 1m`` ticks a
  rapid countdown 10 times, not 11 (10 combat rounds and a social round); a countdown ticks
  at most once when several of its frames end at the same instant.
- DG-FCD-2: when the regular countdown runs out the task succeeds, when the failure one
  does it fails; either way both end. On a partial success the regular countdown ticks
  first, so a tie goes to the party. A pair ended early by a longer frame (DG-CD-2) or by
  hand ends without an outcome.
- DG-CD-2, "when a longer-lasting countdown ticks, all shorter-lasting countdowns end": a
  tick by hand (or on an outcome, or an extra trigger) of a longer countdown ends every
  countdown of a shorter type, as a longer frame's end does; the ruleset's
  ``countdowns.longer_ticks_end_shorter = "frame_end"`` leaves that to the frames' ends.
"""

from __future__ import annotations

from typing import ClassVar, Literal, get_args

from turnkeeper.clock.boundaries import Boundary, boundaries
from turnkeeper.clock.calendar import day_number, start_offset
from turnkeeper.clock.countdowns import (
    OUTCOME_NUMBERS,
    Countdown,
    countdown_types,
    ends_at_frame,
    failure_outcomes,
    find_type,
    frames_watched,
    shorter_than,
    ticks_at_frame,
)
from turnkeeper.dice import DiceSource, roll
from turnkeeper.errors import DiceNotationError, IllegalCommandError
from turnkeeper.files.names import check_name
from turnkeeper.kernel.events import Event, RollRecord, Shown, Visibility
from turnkeeper.kernel.scene_state import Frame
from turnkeeper.kernel.schedule import Draft, Hook
from turnkeeper.kernel.state import CampaignState
from turnkeeper.rules.schema import CountdownType
from turnkeeper.words import did_you_mean

# --- events -------------------------------------------------------------------------------


def seen_as(state: CampaignState, name: str) -> Visibility | None:
    """Who sees an event of the countdown ``name``: whom the countdown is shown to (None for
    a countdown the state does not hold: the referee's choice)."""
    for countdown in state.countdowns:
        if countdown.name == name:
            return Visibility(countdown.visibility)
    return None


class CountdownStarted(Event):
    """A countdown starts; a length given as a die was rolled (DG-CD-3)."""

    kind: ClassVar[str] = "countdown.started"
    shown: ClassVar[Shown] = Shown.COUNTDOWN
    countdown: Countdown

    def seen_by(self, state: CampaignState) -> Visibility | None:
        return Visibility(self.countdown.visibility)

    def apply(self, state: CampaignState) -> CampaignState:
        return state.with_countdowns((*state.countdowns, self.countdown))

    def describe(self) -> str:
        c = self.countdown
        what = "failure countdown" if c.is_failure else "countdown"
        lived = (
            f", {c.left} left: the world has lived {len(c.ticks_at)} of it" if c.ticks_at else ""
        )
        return f"{what} {c.name} starts: {c.kind} ({c.length}){lived}"


class CountdownTicked(Event):
    """A countdown ticks down (DG-CD-1, DG-CD-4, DG-FCD-1)."""

    kind: ClassVar[str] = "countdown.ticked"
    shown: ClassVar[Shown] = Shown.COUNTDOWN
    name: str
    left: int
    reason: str

    def seen_by(self, state: CampaignState) -> Visibility | None:
        return seen_as(state, self.name)

    def apply(self, state: CampaignState) -> CampaignState:
        def ticked(c: Countdown) -> Countdown:
            when = {"ticks_at": (*c.ticks_at, state.now)} if c.world else {}
            return c.model_copy(update={"left": self.left, **when})

        return state.with_countdowns(
            tuple(ticked(c) if c.name == self.name else c for c in state.countdowns)
        )

    def describe(self) -> str:
        return f"countdown {self.name} ticks ({self.reason}): {self.left} left"


class CountdownEnded(Event):
    """A countdown ends: run out, ended by a longer frame (DG-CD-2), or by hand."""

    kind: ClassVar[str] = "countdown.ended"
    shown: ClassVar[Shown] = Shown.COUNTDOWN
    name: str
    reason: str

    def seen_by(self, state: CampaignState) -> Visibility | None:
        return seen_as(state, self.name)

    def apply(self, state: CampaignState) -> CampaignState:
        return state.with_countdowns(tuple(c for c in state.countdowns if c.name != self.name))

    def describe(self) -> str:
        return f"countdown {self.name} ends ({self.reason})"


class CountdownSpent(Event):
    """A countdown that wounds after it ends has run out (DG-CD-4): it stays, spent."""

    kind: ClassVar[str] = "countdown.spent"
    shown: ClassVar[Shown] = Shown.COUNTDOWN
    name: str

    def seen_by(self, state: CampaignState) -> Visibility | None:
        return seen_as(state, self.name)

    def apply(self, state: CampaignState) -> CampaignState:
        return state.with_countdowns(
            tuple(
                c.model_copy(update={"spent": True}) if c.name == self.name else c
                for c in state.countdowns
            )
        )

    def describe(self) -> str:
        return f"countdown {self.name} has run out: each further tick is a precision wound"


class PrecisionWound(Event):
    """DG-CD-4: a spent countdown would tick, and its subject takes 1 precision wound."""

    kind: ClassVar[str] = "countdown.precision_wound"
    shown: ClassVar[Shown] = Shown.COUNTDOWN
    subject: str
    countdown: str

    def seen_by(self, state: CampaignState) -> Visibility | None:
        return seen_as(state, self.countdown)

    def describe(self) -> str:
        return f"{self.subject} takes 1 precision wound ({self.countdown})"


class TaskResolved(Event):
    """DG-FCD-2: the larger task succeeds or fails as one of its countdowns runs out."""

    kind: ClassVar[str] = "countdown.task_resolved"
    shown: ClassVar[Shown] = Shown.CHOSEN
    name: str
    result: Literal["succeeded", "failed"]

    def describe(self) -> str:
        return f"task {self.name} {self.result}"


# --- procedures ---------------------------------------------------------------------------


def _visibility(countdown: Countdown) -> Visibility:
    return Visibility(countdown.visibility)


def _partner(state: CampaignState, countdown: Countdown) -> Countdown | None:
    for other in state.countdowns:
        if countdown.failure_of is not None and other.name == countdown.failure_of:
            return other
        if other.failure_of == countdown.name:
            return other
    return None


def _end(draft: Draft, countdown: Countdown, reason: str) -> None:
    partner = _partner(draft.state, countdown)
    seen = _visibility(countdown)
    draft.add(CountdownEnded(name=countdown.name, reason=reason, visibility=seen))
    if partner is not None:
        draft.add(CountdownEnded(name=partner.name, reason=reason, visibility=_visibility(partner)))


def _end_shorter(draft: Draft, longer: Countdown) -> None:
    """DG-CD-2: ``longer`` ticked other than at its frame's end (by hand, an outcome, an
    extra trigger); under the ruleset's default reading every shorter countdown ends."""
    if draft.state.ruleset.countdowns.longer_ticks_end_shorter == "frame_end":
        return
    types = countdown_types(draft.state.ruleset)
    for countdown in draft.state.countdowns:
        # ending one ends its failure partner too: skip what an earlier end took away
        if countdown in draft.state.countdowns and shorter_than(countdown, longer, types):
            _end(draft, countdown, f"a longer countdown, {longer.name}, ticked")


def _tick(draft: Draft, name: str, reason: str, *, ends_shorter: bool = True) -> None:
    """One tick of the countdown ``name``. ``ends_shorter`` is False for the ticks at a
    frame's end, where the frame's end itself ends the shorter countdowns (DG-CD-2)."""
    countdown = next((c for c in draft.state.countdowns if c.name == name), None)
    if countdown is None:  # ended earlier in the same command
        return
    seen = _visibility(countdown)
    if countdown.spent:
        draft.add(PrecisionWound(subject=countdown.subject or "?", countdown=name, visibility=seen))
        return
    left = countdown.left - 1
    draft.add(CountdownTicked(name=name, left=left, reason=reason, visibility=seen))
    if ends_shorter:
        _end_shorter(draft, countdown)
    if left > 0:
        return
    if countdown.after_end == "wound":
        draft.add(CountdownSpent(name=name, visibility=seen))
        return
    partner = _partner(draft.state, countdown)
    if partner is not None:
        task = countdown.failure_of or countdown.name
        draft.add(
            TaskResolved(
                name=task, result="failed" if countdown.is_failure else "succeeded", visibility=seen
            )
        )
    _end(draft, countdown, "ran out")


def creature_stats(state: CampaignState, name: str) -> tuple[str, dict[str, int]]:
    """DG-CD-4's "a creature who is suffocating": a party character, a monster of the site, a
    fighter of the fight running or a creature of the open scene, by its name in any case,
    and its stats (a scene's creature has none); otherwise one error naming those known."""
    key = name.casefold()
    fight = state.combat.combatants if state.combat is not None else ()
    scene = state.scenes.scene.creatures if state.scenes.scene is not None else ()
    found: list[tuple[str, dict[str, int]]] = [
        *((c.name, dict(c.stats)) for c in state.party.characters),
        *((m.name, dict(m.stats)) for m in state.monsters),
        *((c.name, dict(c.stats)) for c in fight),
        *((creature, {}) for creature in scene),
    ]
    for known, stats in found:
        if known.casefold() == key:
            return known, stats
    names = list(dict.fromkeys(known for known, _ in found))
    raise IllegalCommandError(
        f"no creature called {name!r}{did_you_mean(name, names)}: a countdown's subject is a "
        f"character, a fighter or a scene's creature ({', '.join(names)})"
    )


def _length(
    state: CampaignState, length: str, subject: str | None, dice: DiceSource
) -> tuple[int, tuple[RollRecord, ...]]:
    values = creature_stats(state, subject)[1] if subject is not None else {}
    try:
        rolled = roll(length, dice, values)
    except DiceNotationError as error:
        raise IllegalCommandError(f"countdown length {length!r}: {error}") from None
    if rolled.total < 1:
        raise IllegalCommandError(
            f"countdown length {length!r} came to {rolled.total}; it must be at least 1"
        )
    return rolled.total, ((RollRecord.of(rolled),) if rolled.dice else ())


def start_countdown(
    state: CampaignState,
    dice: DiceSource,
    name: str,
    kind: str,
    length: str,
    failure: str | None = None,
    visibility: Visibility = Visibility.PARTY,
    subject: str | None = None,
    listens: tuple[str, ...] = (),
    after_end: Literal["end", "wound"] = "end",
    world: bool = False,
) -> list[Event]:
    """Start a countdown ``kind(length)``, and beside it a failure countdown if ``failure``.

    ``world``: a world countdown, which ticks as the world's present passes its frames,
    whichever party lives through them, and never twice for the same span."""
    check_name(name, "countdown name")  # here, so the CLI and the HTTP API check alike
    types = countdown_types(state.ruleset)
    key = find_type(types, kind)
    if key is None:
        known = ", ".join(f"{k} ({t.abbreviation})" for k, t in types.items())
        raise IllegalCommandError(f"no countdown type {kind!r}; known: {known}")
    if world and not set(types[key].ticks_on) <= WORLD_FRAMES:
        raise IllegalCommandError(
            f"a world countdown ticks on the world's days and months, and {key} ticks on "
            f"{', '.join(types[key].ticks_on)}: give it a day countdown (or leave out --world "
            "for the party's own)"
        )
    if world and subject is not None:
        raise IllegalCommandError(
            "a world countdown belongs to no one: leave out --subject (or --world)"
        )
    failure_name = f"{name} (failure)"
    taken = {c.name.lower() for c in state.countdowns}
    if name.lower() in taken or (failure is not None and failure_name.lower() in taken):
        raise IllegalCommandError(f"a countdown called {name!r} is already running")
    draft = Draft(state)
    for countdown_name, text, failure_of in ((name, length, None), (failure_name, failure, name)):
        if text is None:
            continue
        total, rolls = _length(state, text, subject, dice)
        countdown = Countdown(
            name=countdown_name, kind=key, length=total, left=total, visibility=visibility.value,
            subject=subject, listens=listens, after_end=after_end, failure_of=failure_of,
            world=world,
        )  # fmt: skip
        if world:
            countdown = _lived_already(state, countdown, types)
        draft.add(CountdownStarted(countdown=countdown, rolls=rolls, visibility=visibility))
        if world and countdown.left == 0:
            day = day_number(countdown.ticks_at[-1], state.ruleset.time)
            _end(draft, countdown, f"ran out on day {day}, which the world has lived already")
    return draft.events


def _lived_already(
    state: CampaignState, countdown: Countdown, types: dict[str, CountdownType]
) -> Countdown:
    """A world countdown keeps the time it was set from: set by a party behind the world's
    present, the frames the world has lived since (its days, its months) count at once, each
    at its own instant (``ticks_at``), as they would had the party set it then; the parties
    that live them again tick it no more (world time passes once), so it runs out when its
    days are out, whichever party lives them."""
    if state.now >= state.present:
        return countdown
    frames = frozenset(f for f in types[countdown.kind].ticks_on if f in WORLD_FRAMES)
    offset = start_offset(state.ruleset.time)
    lived = [
        b.at
        for b in boundaries(state.now, state.present, frames, state.scales, offset)
        if any(ticks_at_frame(countdown, f, types) for f in b.frames)
    ][: countdown.left]
    if not lived:
        return countdown
    return countdown.model_copy(
        update={"left": countdown.left - len(lived), "ticks_at": tuple(lived)}
    )


MAX_TICKS = 1000
"""The most ticks one command gives a countdown: far more than any countdown's length, and
few enough that a mistyped count is refused at once rather than worked through."""


def tick(state: CampaignState, name: str, ticks: int = 1, reason: str = "by hand") -> list[Event]:
    """Tick a countdown by hand (a rule says so: DG-CD-1's generic countdowns, DG-CD-4)."""
    countdown = state.countdown(name)
    if not 1 <= ticks <= MAX_TICKS:
        raise IllegalCommandError(
            f"tick a countdown from 1 to {MAX_TICKS:,} times in one command, not {ticks:,}"
        )
    draft = Draft(state)
    for _ in range(ticks):
        _tick(draft, countdown.name, reason)
    return draft.events


def outcome(state: CampaignState, name: str, result: str) -> list[Event]:
    """DG-FCD-1: a subtask's outcome ticks the countdown and its failure countdown."""
    countdown = state.countdown(name)
    if countdown.is_failure and countdown.failure_of is not None:
        countdown = state.countdown(countdown.failure_of)
    partner = _partner(state, countdown)
    if partner is None:
        raise IllegalCommandError(
            f"countdown {countdown.name} has no failure countdown; start it with one"
        )
    outcomes = failure_outcomes(state.ruleset)
    key = OUTCOME_NUMBERS.get(result.strip(), result.strip().lower())
    if key not in outcomes:
        raise IllegalCommandError(
            f"unknown outcome {result!r}; use one of {', '.join(outcomes)} (or -2, -1, 0, +1)"
        )
    regular_ticks, failure_ticks = outcomes[key]
    draft = Draft(state)
    for _ in range(regular_ticks):
        _tick(draft, countdown.name, key)
    for _ in range(failure_ticks):
        _tick(draft, partner.name, key)
    return draft.events


def end_countdown(state: CampaignState, name: str) -> list[Event]:
    """End a countdown by hand (and its failure partner)."""
    draft = Draft(state)
    _end(draft, state.countdown(name), "ended by hand")
    return draft.events


def trigger(state: CampaignState, name: str, subject: str | None = None) -> list[Event]:
    """DG-CD-4: an extra trigger (``wound``, ``action``) ticks the countdowns listening to it."""
    draft = Draft(state)
    for countdown in state.countdowns:
        # a subject in any case: a scene names its players as typed, a fight as its roster
        whose = countdown.subject
        if name in countdown.listens and (
            subject is None or whose is None or whose.casefold() == subject.casefold()
        ):
            _tick(draft, countdown.name, name)
    return draft.events


#: The frames a world countdown may tick on: the world's calendar, never a party's rounds.
WORLD_FRAMES: frozenset[str] = frozenset({"day", "month"})

#: DG-RND-1's kinds of round: the play is in one kind at a time.
ROUND_FRAMES: frozenset[str] = frozenset(get_args(Frame))


def _rounds_passing(state: CampaignState, types: dict[str, CountdownType]) -> frozenset[str]:
    """DG-RND-1: the kind of round time passes in. A round is a combat, a social or an
    exploration round, never two at once: in an open scene its own kind (a free scene has
    no rounds); out of any scene, the project's default, each countdown type's first round
    (a rapid countdown's combat round, a short one's exploration round)."""
    scene = state.scenes.scene
    if scene is not None:
        frame = scene.kind.frame
        return frozenset({frame}) if frame is not None else frozenset()
    firsts = (next((f for f in t.ticks_on if f in ROUND_FRAMES), None) for t in types.values())
    return frozenset(f for f in firsts if f is not None)


def _passing(frame: str, rounds: frozenset[str]) -> bool:
    return frame not in ROUND_FRAMES or frame in rounds


def _frame_end(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
    """DG-CD-1, DG-CD-2: countdowns tick at the end of their frames, once however many of
    them end together, and the end of a longer frame ends the shorter countdowns. The
    rounds ending are those :func:`_frames` asked the wait for, or the round a scene ended."""
    _frames_end(draft, boundary.frames)


def round_ended(state: CampaignState, frame: str) -> list[Event]:
    """DG-CD-1: a round of ``frame`` ended that the calendar does not time (a fight's round
    ends when it is resolved): the countdowns that tick on it tick once."""
    draft = Draft(state)
    _frames_end(draft, (frame,))
    return draft.events


def _frames_end(draft: Draft, frames: tuple[str, ...]) -> None:
    types = countdown_types(draft.state.ruleset)
    ticked: set[str] = set()
    # World time passes once: where another party has lived past this instant already, the
    # world's countdowns ticked then, and only the party's own tick now.
    passed = draft.state.now <= draft.state.passed_by_others
    for frame in frames:
        for countdown in draft.state.countdowns:
            if countdown.world and passed:
                continue
            if countdown.name not in ticked and ticks_at_frame(countdown, frame, types):
                ticked.add(countdown.name)
                _tick(draft, countdown.name, f"{frame.replace('_', ' ')} ends", ends_shorter=False)
        for countdown in draft.state.countdowns:
            if countdown.world and passed:
                continue
            if ends_at_frame(countdown, frame, types) and countdown in draft.state.countdowns:
                _end(draft, countdown, f"a longer frame, the {frame.replace('_', ' ')}, ended")


def _frames(state: CampaignState) -> frozenset[str]:
    """The frames a wait stops at for the countdowns: only rounds of the kind passing."""
    if not state.countdowns:
        return frozenset()
    types = countdown_types(state.ruleset)
    rounds = _rounds_passing(state, types)
    watched = frames_watched(state.countdowns, types)
    return frozenset(f for f in watched if _passing(f, rounds))


#: At each frame's end countdowns tick (DG-CD-1), and shorter ones end (DG-CD-2).
COUNTDOWN_HOOK = Hook("countdowns", _frames, _frame_end)

#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    CountdownStarted,
    CountdownTicked,
    CountdownEnded,
    CountdownSpent,
    PrecisionWound,
    TaskResolved,
)
