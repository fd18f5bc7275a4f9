"""The scheduler: time passes boundary by boundary, and per-frame procedures run at each.

A wait over a span stops at every instant where a time frame that some procedure cares
about ends (a turn, an exploration round, a day...), or that a hook names for itself
(:attr:`Hook.due`: a light lit mid-turn burns down on its own turns), in time order, and
runs the hook list there: an ordered tuple of :class:`Hook`, each a per-boundary procedure.
Nothing falling due inside the span is dropped, because each hook sees the state its
predecessors left.
A draft carries the hooks its waits run: the command table opens every command's draft with
the default list (:data:`turnkeeper.campaign.hooks.HOOKS`), so a procedure that passes time
never names the procedures that fire while it does; a dungeon or wilderness procedure adds
its per-turn or per-watch check to that list, without touching the scheduler.

A hook may break the wait (issue 3): when what it did at a boundary calls for the referee
(an encounter), the rest of the span is not waited and a :class:`WaitBroken` says so. A hook
may also act as a wait begins (``Hook.begins``): a die rolled at the start of the turn it
governs is rolled there for the wait's first turn, and may break the wait at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from turnkeeper.clock.boundaries import Boundary, next_boundary
from turnkeeper.clock.calendar import start_offset
from turnkeeper.clock.durations import format_duration
from turnkeeper.dice import DiceSource
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.events import ClockAdvanced, Event, Shown
from turnkeeper.kernel.state import CampaignState


class Draft:
    """The events one command has decided so far, and the state they lead to.

    ``hooks`` are the per-boundary procedures a wait in this draft runs. ``quiet`` names
    hooks that this command's waits leave out: a command that runs a frame's procedure itself
    (the dungeon turn) keeps the hook from running it twice.
    """

    def __init__(
        self,
        state: CampaignState,
        hooks: Sequence[Hook] = (),
        quiet: frozenset[str] = frozenset(),
        until: int | None = None,
    ) -> None:
        self.state = state
        self.began = state
        """The state this draft began from (see :meth:`join`)."""
        self.hooks = tuple(hooks)
        self.quiet = quiet
        self.until = until
        """In a hook's draft, when the wait it runs in ends (a turn beginning then is not
        waited); None outside a wait."""
        self.events: list[Event] = []

    def add(self, *events: Event) -> None:
        """Record events, applying each to the draft state in order."""
        for event in events:
            self.state = event.apply(self.state)
            self.events.append(event)

    def join(self, other: Draft) -> None:
        """Record the events of ``other``, a draft begun from this one's state (a fork, a
        boundary's): they lead to ``other``'s state, which this draft takes rather than
        applying them all again (the fold is pure, so equal states lead to equal states);
        unless this draft has moved on since, to a state ``other`` did not begin from."""
        if other.began is self.state or other.began == self.state:
            self.state = other.state
            self.events.extend(other.events)
        else:
            self.add(*other.events)

    def fork(self, quiet: frozenset[str] = frozenset()) -> Draft:
        """A new draft from this one's state, with its hooks and ``quiet`` for its waits."""
        return Draft(self.state, self.hooks, quiet, self.until)


@dataclass(frozen=True)
class Hook:
    """A per-boundary procedure: the frames it wants now, and what it does at their end.

    ``run`` adds to the draft what happens at the boundary; the draft starts at the
    boundary's instant and carries the wait's hooks, so a hook whose procedure passes time
    (a forced rest) waits as any command does.
    """

    name: str
    frames: Callable[[CampaignState], frozenset[str]]
    run: Callable[[Draft, Boundary, DiceSource], None]
    breaks: Callable[[Sequence[Event]], str | None] | None = None
    """Given the events the hook produced at a boundary, why the wait stops there (or None)."""
    begins: Callable[[Draft, DiceSource], None] | None = None
    """What the hook does as a wait begins, for the turn the wait starts (a die rolled at
    the start of the turn it governs); its draft's ``until`` is the wait's end."""
    due: Callable[[CampaignState], int | None] | None = None
    """An instant off the calendar's frames at which the hook runs too, or None: a light lit
    mid-turn counts its turns from when it was lit, not from the site's turn boundaries."""

    def due_at(self, state: CampaignState, at: int) -> bool:
        """True when the hook asked to run at the instant ``at``."""
        return self.due is not None and self.due(state) == at

    def without(self, frames: frozenset[str]) -> Hook:
        """This hook, never stopping a wait where only ``frames`` end: rounds that end when
        the table says so (a fight's round is over when resolved), not on the calendar."""
        wanted = self.frames
        return replace(self, frames=lambda state: wanted(state) - frames)


class WaitBroken(Event):
    """The wait stops early (an encounter): the rest of the span is not waited."""

    kind: ClassVar[str] = "clock.wait_broken"
    shown: ClassVar[Shown] = Shown.PARTY
    when: str
    reason: str
    unwaited: int

    def describe(self) -> str:
        hour = self.when.rsplit(" ", 1)[-1]
        left = format_duration(self.unwaited)
        return f"the wait is broken at {hour} by {self.reason}: {left} not waited"


def check_span(state: CampaignState, seconds: int) -> None:
    """Refuse a span one command may not pass: time only runs forward, and a span is decided
    whole, boundary by boundary, so it is kept within the ruleset's ``time.max_wait_days``."""
    if seconds < 0:
        raise IllegalCommandError(f"time only runs forward: cannot wait {seconds} s")
    time = state.ruleset.time
    if seconds > time.longest_wait:
        days = time.longest_wait // (time.day_hours * 3600)
        raise IllegalCommandError(
            f"one command passes at most {days:,} days of game time (the ruleset's "
            "time.max_wait_days): wait or rest in shorter steps"
        )


def wait(draft: Draft, seconds: int, dice: DiceSource) -> str | None:
    """Let ``seconds`` of game time pass, firing the draft's hooks at every boundary in the span.

    At a boundary where some hook produced events, a :class:`ClockAdvanced` to that instant
    comes first, so each event carries the time it happened; boundaries where nothing
    happens are not recorded. The span ends with time advanced to its end, unless a hook
    breaks the wait (:attr:`Hook.breaks`): then time stops at that boundary and a
    :class:`WaitBroken` records what was not waited. A hook whose procedure itself passes
    time (a forced rest) moves the scheduler on to where it left the clock.

    Returns why the wait was broken (even at the span's last boundary), or None.
    """
    check_span(draft.state, seconds)
    hooks = [hook for hook in draft.hooks if hook.name not in draft.quiet]
    end = draft.state.now + seconds
    scales = draft.state.scales
    offset = start_offset(draft.state.ruleset.time)
    cursor = draft.state.now
    begun = Draft(draft.state, draft.hooks, until=end)
    why_now: str | None = None
    for hook in hooks:
        if hook.begins is None:
            continue
        before = len(begun.events)
        hook.begins(begun, dice)
        if len(begun.events) > before and hook.breaks is not None:
            why_now = why_now or hook.breaks(begun.events[before:])
    draft.join(begun)
    if why_now is not None:
        left = end - draft.state.now
        if left > 0:
            draft.add(WaitBroken(when=draft.state.date, reason=why_now, unwaited=left))
        return why_now
    cursor = max(cursor, draft.state.now)
    # No frame ends and no hook is due in (cursor, end] once the cursor is at the end: most
    # waits are one turn, and asking every hook for its frames again there costs as much
    # as the turn's own boundary.
    while cursor < end:
        wanted = frozenset().union(*(hook.frames(draft.state) for hook in hooks))
        boundary = next_boundary(cursor, end, wanted, scales, offset)
        due = _next_due(hooks, draft.state, cursor, end)
        if due is not None and (boundary is None or due < boundary.at):
            boundary = Boundary(due, ())  # no frame ends here: only a hook's own instant
        if boundary is None:
            break
        cursor = boundary.at
        at = Draft(draft.state.model_copy(update={"now": boundary.at}), draft.hooks, until=end)
        why: str | None = None
        for hook in hooks:
            ends = not hook.frames(at.state).isdisjoint(boundary.frames)
            if not ends and not hook.due_at(at.state, boundary.at):
                continue
            before = len(at.events)
            hook.run(at, boundary, dice)
            if len(at.events) > before and hook.breaks is not None:
                why = why or hook.breaks(at.events[before:])
        if at.events:
            draft.add(ClockAdvanced(to=boundary.at, seconds=boundary.at - draft.state.now))
            draft.join(at)  # begun at the boundary: the same state, unless weather passed
            cursor = max(cursor, draft.state.now)
        if why is not None:
            if draft.state.now < end:
                left = end - draft.state.now
                draft.add(WaitBroken(when=draft.state.date, reason=why, unwaited=left))
            return why
    if draft.state.now < end:
        draft.add(ClockAdvanced(to=end, seconds=end - draft.state.now))
    return None


def _next_due(hooks: Sequence[Hook], state: CampaignState, after: int, until: int) -> int | None:
    """The earliest instant in ``(after, until]`` some hook asked to run at, or None."""
    instants = (hook.due(state) for hook in hooks if hook.due is not None)
    return min((t for t in instants if t is not None and after < t <= until), default=None)


#: The scheduler's own events, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (WaitBroken,)
