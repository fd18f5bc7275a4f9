"""Parties brought forward together: every party behind to the world's present (``party
forward --all``), and every idle party by the actual days between sessions (``world
catch-up``).

Each party's days pass as one command sent as that party, through the one way a party is
brought forward (:func:`.decide.bring_forward`, downtime: :func:`procedures.days.pass_days`),
so its meals, nights, downtime die, countdowns and the world's month turns run as they would
by play. The command table gives the procedures here that way (:data:`Forward`), as it runs
every command sent as a party; a month turn runs once, whichever party passes its boundary
first (``procedures.factions``).

Between sessions (TP-TIME-2: "you can not have a meaningful campaign if strict time records
are not kept", from a page that lets one actual day be one game day while the players are
away): where the ruleset's ``between_sessions.real_calendar`` says so, the world follows the
real calendar. The actual date is the command's (the verb fills in the machine's; nothing here
reads a clock); the time record keeps the date the world was last caught up to
(``state.caught_up``). The first catch-up of a campaign marks the date and moves nothing: the
days before the referee asked are not the world's to live. A party busy with what must end
first (a fight, a scene, a site, a move across a hex) is left where it is, and the record says
why.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import ClassVar

from pydantic import Field

from turnkeeper.errors import IllegalCommandError
from turnkeeper.frozen import Strict
from turnkeeper.kernel.events import Event, Shown, Text
from turnkeeper.kernel.schedule import WaitBroken
from turnkeeper.kernel.state import CampaignState, same_party

#: Downtime for a party of the world, sent as that party: ``(state, party, days)`` to the
#: events (days None: to the world's present). The command table gives it.
Forward = Callable[[CampaignState, str, int | None], list[Event]]
#: A character's month at a haven, sent as their party: ``(state, party, character,
#: activity)`` to the events (``procedures.haven``). The command table gives it.
HavenMonth = Callable[[CampaignState, str, str, str], list[Event]]

# --- commands -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CatchUp:
    """The world between sessions: every idle party lives the actual days from the last
    catch-up to ``today`` (the actual date, as the referee's machine or ``--today`` gives it).
    ``havens``: characters and their activities, who spend the span's whole months at a haven
    where their party is at one, in turn (``haven``), the days left over as downtime."""

    today: date
    havens: tuple[tuple[str, str], ...] = ()


# --- events -------------------------------------------------------------------------------


class PartyCaughtUp(Strict):
    """What one party lived of a catch-up: its days, or why it was left where it is."""

    party: str
    days: int = Field(ge=0)
    why: Text = Field("", description="Why it was left, or what stopped its days.")
    left: bool = Field(False, description="Left where it is, busy with what must end first.")
    haven_turns: tuple[Text, ...] = Field(
        (), description="The months spent at a haven, each 'CHARACTER ACTIVITY'."
    )

    def told(self) -> str:
        lived = "1 day" if self.days == 1 else f"{self.days} days"
        if self.left:
            return f"{self.party} is left where it is ({self.why})"
        havens = f" ({len(self.haven_turns)} at a haven: {', '.join(self.haven_turns)})"
        told = f"{self.party} lives {lived}" + (havens if self.haven_turns else "")
        return told + (f"; {self.why}" if self.why else "")


class WorldCaughtUp(Event):
    """The world caught up to an actual date between sessions: the days it passed, and what
    each party lived of them (their days are the records before it)."""

    kind: ClassVar[str] = "world.caught_up"
    shown: ClassVar[Shown] = Shown.REFEREE
    today: str = Field(pattern=r"^\d{4}-\d{2}-\d{2}$")
    since: str | None = Field(None, pattern=r"^\d{4}-\d{2}-\d{2}$")
    game_days: int = Field(0, ge=0)
    parties: tuple[PartyCaughtUp, ...] = ()

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"caught_up": self.today})

    def describe(self) -> str:
        if self.since is None:
            return (
                f"the world follows the real calendar from {self.today}: the next catch-up "
                "brings the idle parties forward by the actual days since"
            )
        actual = (date.fromisoformat(self.today) - date.fromisoformat(self.since)).days
        days = "1 actual day" if actual == 1 else f"{actual} actual days"
        game = "" if self.game_days == actual else f", {self.game_days} game days"
        lived = "; ".join(p.told() for p in self.parties)
        return f"the world catches up {self.since} to {self.today} ({days}{game}): {lived}"


# --- procedures ---------------------------------------------------------------------------


def bring_all_forward(state: CampaignState, forward: Forward) -> list[Event]:
    """Every party behind the world's present brought to it in downtime, one after another,
    each as a command sent as that party (a downtime die's encounter stops that party's
    downtime alone)."""
    present = state.present
    behind = [party for party in state.companies if state.as_party(party).now < present]
    if not behind:
        raise IllegalCommandError("every party is at the world's present already")
    events: list[Event] = []
    now = state
    for party in behind:  # (one that cannot, in a site or a fight, refuses the whole command)
        for event in forward(now, party, None):
            events.append(event)
            now = event.apply(now)
    return events


def busy(state: CampaignState) -> str:
    """What the party run in ``state`` must end before days pass for it ("" if it is idle)."""
    if state.fight_running:
        return "fighting: `combat end` first"
    if state.scenes.scene is not None:
        return "in a scene: close it first"
    if state.site is not None:
        return f"in {state.site.site.name}: downtime is spent out of sites"
    wild = state.wilderness
    if wild is not None and wild.pending is not None:
        return f"on its way into hex {wild.pending.to.label}: finish the move first"
    if not state.party.able:
        return "nobody in it can act"
    return ""


def catch_up(
    state: CampaignState, command: CatchUp, forward: Forward, haven: HavenMonth
) -> list[Event]:
    """The world between sessions (see the module's docstring): every idle party lives the
    game days of the actual days since the last catch-up, one after another."""
    rules = state.ruleset.between_sessions
    if not rules.real_calendar:
        raise IllegalCommandError(
            f"the ruleset {state.ruleset.name!r} keeps the world still between sessions: a "
            "campaign follows the real calendar under a ruleset that says so "
            "(`[between_sessions]` `real_calendar = true`, docs/factions.md)"
        )
    _check_havens(state, command.havens)
    today = command.today.isoformat()
    if state.caught_up is None:
        return [WorldCaughtUp(today=today)]
    since = date.fromisoformat(state.caught_up)
    if command.today < since:
        raise IllegalCommandError(
            f"{today} is before {state.caught_up}, the date the world was last caught up to: "
            "the real calendar runs forward only; give today's date"
        )
    if command.today == since:
        raise IllegalCommandError(
            f"the world is caught up to {today} already: no actual day has passed since"
        )
    days = (command.today - since).days * rules.game_days_per_day
    events: list[Event] = []
    lived: list[PartyCaughtUp] = []
    now = state
    for party in state.companies:
        why = busy(now.as_party(party))
        if why:
            lived.append(PartyCaughtUp(party=party, days=0, why=why, left=True))
            continue
        havens = [(c, a) for c, a in command.havens if same_party(state.party_of(c) or "", party)]
        living = _Living(forward, haven, havens)
        passed = living.live(now, party, days)
        events.extend(passed)
        for event in passed:
            now = event.apply(now)
        elapsed = now.as_party(party).now - state.as_party(party).now
        lived.append(
            PartyCaughtUp(
                party=party,
                days=elapsed // state.scales.day,
                why=living.stopped,
                haven_turns=tuple(living.months),
            )
        )
    told = WorldCaughtUp(today=today, since=state.caught_up, game_days=days, parties=tuple(lived))
    return [*events, told]


def _check_havens(state: CampaignState, havens: tuple[tuple[str, str], ...]) -> None:
    """Each character named is of the world, once, and each activity the ruleset's."""
    activities = state.ruleset.haven.activities
    named: set[str] = set()
    for character, activity in havens:
        if state.party_of(character) is None:
            raise IllegalCommandError(
                f"--haven {character}={activity}: no character called {character!r} in the "
                f"world ({', '.join(state.everyone)})"
            )
        if character.casefold() in named:
            raise IllegalCommandError(
                f"--haven {character}: one activity a character; name them once"
            )
        named.add(character.casefold())
        if activity not in activities:
            raise IllegalCommandError(
                f"--haven {character}={activity}: no haven activity {activity!r}; the "
                f"ruleset's are {', '.join(activities)}"
            )


class _Living:
    """One party's days of a catch-up: the whole months at a haven first, each character
    named in turn (a haven turn is one character's month, the party's month passing with
    it), then the days left over as downtime; in commands of at most the ruleset's longest
    wait. An encounter stops its days there, for the referee to play out."""

    def __init__(self, forward: Forward, haven: HavenMonth, havens: list[tuple[str, str]]):
        self.forward = forward
        self.haven = haven
        self.havens = havens
        self.months: list[str] = []
        self.stopped = ""

    def live(self, state: CampaignState, party: str, days: int) -> list[Event]:
        events: list[Event] = []
        now, left = state, days
        month = state.ruleset.time.month_days
        at_haven = now.as_party(party)
        if self.havens and (at_haven.wilderness is not None):
            self.stopped = "no haven turns: it is on a map, not at a haven"
            self.havens = []
        while self.havens and left >= month:
            character, activity = self.havens[len(self.months) % len(self.havens)]
            try:
                passed = self.haven(now, party, character, activity)
            except IllegalCommandError as error:
                self.stopped = f"no more haven turns: {error}"
                break
            events.extend(passed)
            for event in passed:
                now = event.apply(now)
            self.months.append(f"{character} {activity}")
            if self._broken(passed):
                return events
            left -= month
        longest = max(1, state.ruleset.time.longest_wait // state.scales.day)
        while left > 0:
            step = min(left, longest)
            passed = self.forward(now, party, step)
            events.extend(passed)
            for event in passed:
                now = event.apply(now)
            if self._broken(passed):
                break
            left -= step
        return events

    def _broken(self, passed: list[Event]) -> bool:
        broken = next((e for e in passed if isinstance(e, WaitBroken)), None)
        if broken is not None:
            self.stopped = f"stopped by {broken.reason}"
        return broken is not None


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (WorldCaughtUp,)
