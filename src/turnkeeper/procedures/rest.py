"""Rest and weariness (EX-REST-1 to EX-REST-3) and forced rest (TP-ENC-1 face 3).

- EX-REST-1: adventurers rest 1 turn in every 6 when exploring: after 5 active turns a
  rest falls due. Only turns in a site count (EX-TIME-1: a site's time passes in turns);
  hours in town or on the road are not exploration. The count starts afresh on entering a
  site, so leaving a site (and any wait outside) resets it; a rest the count made due lapses
  at the first turn's end out of the site (:class:`RestLapsed`), unwearied.
- EX-REST-2: a turn of running, and a fight, must be followed at once by a turn of rest
  (:func:`mark_running`, :func:`mark_fight`, called by the dungeon and combat procedures).
- EX-REST-3: when a full turn passes after a rest fell due without resting, the party is
  wearied: -2 to skill checks and -4 to hit (:func:`weariness_penalty`) until a turn of rest.
- Waiting is resting: time the party waits out in a site (``wait``, a camp) is rest, so it
  never wearies the party and a wait of a full turn of rest recovers (:func:`wait_resting`);
  the site's checks still run at each turn's end. Outside a site a wait is rest too when a
  rest is owed for running or a fight.
- TP-ENC-1 face 3: forced rest spends the turn resting and consumes food and water per
  character (``ruleset.rest.consumes``); a shortfall is recorded, not refused.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from turnkeeper.clock.boundaries import Boundary
from turnkeeper.dice import DiceSource
from turnkeeper.kernel.events import Event, Shown
from turnkeeper.kernel.party import Character
from turnkeeper.kernel.schedule import Draft, Hook, wait
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.supplies import consume
from turnkeeper.rules.schema import RestRules

WEARIED = "wearied"

# --- events -------------------------------------------------------------------------------


class RestDue(Event):
    """A rest falls due now (after active turns, running or a fight).

    ``cadence``: only the count of active turns made it due (EX-REST-1), not running or a
    fight (EX-REST-2); such a rest lapses when the party is out of the site.
    """

    kind: ClassVar[str] = "rest.due"
    shown: ClassVar[Shown] = Shown.PARTY
    reason: str
    cadence: bool = False

    def apply(self, state: CampaignState) -> CampaignState:
        rest = state.rest
        if rest.due_at is not None and rest.due_at <= state.now:
            # Already due: running or a fight now makes it due for good (no lapse).
            by_cadence = rest.due_by_cadence and self.cadence
            return state.model_copy(
                update={"rest": rest.model_copy(update={"due_by_cadence": by_cadence})}
            )
        due = {"due_at": state.now, "due_reason": self.reason, "due_by_cadence": self.cadence}
        return state.model_copy(update={"rest": rest.model_copy(update=due)})

    def describe(self) -> str:
        return f"rest is due ({self.reason})"


class RestLapsed(Event):
    """The party is out of the site: the rest its active turns made due lapses (EX-REST-1).

    Hours outside a site are not exploration, so the count of active turns starts again.
    """

    kind: ClassVar[str] = "rest.lapsed"
    shown: ClassVar[Shown] = Shown.PARTY

    def apply(self, state: CampaignState) -> CampaignState:
        rest = state.rest.model_copy(
            update={
                "active_since": state.now,
                "due_at": None,
                "due_reason": None,
                "due_by_cadence": False,
            }
        )
        return state.model_copy(update={"rest": rest})

    def describe(self) -> str:
        return "out of the site: the rest after the active turns is no longer due"


class Wearied(Event):
    """The party went a turn without the rest it needed: these characters are wearied."""

    kind: ClassVar[str] = "rest.wearied"
    shown: ClassVar[Shown] = Shown.PARTY
    characters: tuple[str, ...]

    def apply(self, state: CampaignState) -> CampaignState:
        for name in self.characters:
            state = state.with_character(state.character(name).with_conditions(add=(WEARIED,)))
        return state

    def describe(self) -> str:
        return f"no rest: {', '.join(self.characters)} wearied (-2 skill checks, -4 to hit)"


class RestStarted(Event):
    """The party starts resting."""

    kind: ClassVar[str] = "rest.started"
    shown: ClassVar[Shown] = Shown.PARTY
    reason: str = "rest"

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"rest": state.rest.model_copy(update={"resting": True})})

    def describe(self) -> str:
        return f"the party rests ({self.reason})"


class Rested(Event):
    """A rest is done: weariness is gone and the count of active turns starts again."""

    kind: ClassVar[str] = "rest.done"
    shown: ClassVar[Shown] = Shown.PARTY

    def apply(self, state: CampaignState) -> CampaignState:
        for character in state.party.characters:
            if character.has(WEARIED):
                state = state.with_character(character.with_conditions(remove=(WEARIED,)))
        rest = state.rest.model_copy(
            update={
                "active_since": state.now,
                "due_at": None,
                "due_reason": None,
                "due_by_cadence": False,
                "resting": False,
            }
        )
        return state.model_copy(update={"rest": rest})

    def describe(self) -> str:
        return "the party has rested"


class RestInterrupted(Event):
    """The wait inside a rest was broken (an encounter): no recovery (EX-REST-1, EX-REST-3).

    Weariness stays and the rest stays due: the party has not had its turn of rest.
    """

    kind: ClassVar[str] = "rest.interrupted"
    shown: ClassVar[Shown] = Shown.PARTY
    reason: str = "an encounter"

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"rest": state.rest.model_copy(update={"resting": False})})

    def describe(self) -> str:
        return f"the rest is interrupted by {self.reason}: the party has not rested"


# --- procedures ---------------------------------------------------------------------------


def weariness_penalty(
    character: Character, kind: Literal["skill", "to_hit"], rules: RestRules
) -> int:
    """EX-REST-3: a wearied character's penalty to skill checks or to hit rolls (else 0).

    >>> from turnkeeper.rules import preset
    >>> tired = Character(name="Aldo", hp=5, conditions=("wearied",))
    >>> rest = preset("ex").rest
    >>> weariness_penalty(tired, "skill", rest), weariness_penalty(tired, "to_hit", rest)
    (-2, -4)
    """
    if not character.has(WEARIED):
        return 0
    return rules.wearied_skill if kind == "skill" else rules.wearied_to_hit


def mark_running(state: CampaignState) -> list[Event]:
    """EX-REST-2: the party ran this turn, so a rest is due at once."""
    return [RestDue(reason="a turn of running")] if state.ruleset.rest.after_running else []


def mark_fight(state: CampaignState) -> list[Event]:
    """EX-REST-2: the party fought, so a rest is due at once."""
    return [RestDue(reason="a fight")] if state.ruleset.rest.after_fight else []


def take_rest(
    draft: Draft, dice: DiceSource, reason: str = "rest", turns: int | None = None
) -> None:
    """Spend ``turns`` (``ruleset.rest.rest_turns`` by default) resting, then recover.

    A rest whose wait is broken (an encounter met while resting, even on its last turn)
    recovers nothing: it is recorded as interrupted, and weariness and the rest due stay
    (EX-REST-1, EX-REST-3).
    """
    turns = draft.state.ruleset.rest.rest_turns if turns is None else turns
    draft.add(RestStarted(reason=reason))
    broken = wait(draft, turns * draft.state.scales.turn, dice)
    if broken is not None:
        draft.add(RestInterrupted(reason=broken))
    else:
        draft.add(Rested())


def _rest_matters(state: CampaignState) -> bool:
    """The ruleset keeps a rest cadence, or a rest is due, or someone is wearied."""
    if state.ruleset.rest.active_turns is not None or state.rest.due_at is not None:
        return True
    return any(c.has(WEARIED) for c in state.party.living)


def wait_resting(
    draft: Draft, seconds: int, dice: DiceSource, reason: str = "waiting"
) -> str | None:
    """Let ``seconds`` pass with the party at rest (EX-REST-1 to EX-REST-3): a party that
    sits still in a site (or anywhere a rest is owed for running or a fight) is resting,
    not exploring.

    The site's checks still run at each turn's end (the dungeon hook). Once a full
    ``rest_turns`` of the wait has passed unbroken the party has rested: weariness goes and
    the count of active turns starts at the wait's end. An encounter at the end of a turn
    spoils that turn's rest, as it spoils a ``rest``. A wait shorter than a rest, or out of
    a site with no rest due, is only time passing. Returns why the wait was broken, or None.
    """
    state = draft.state
    turn = state.scales.turn
    needed = state.ruleset.rest.rest_turns * turn
    # Out of a site only a rest for running or a fight is owed: the cadence's one lapses.
    owed = state.rest.due_at is not None and not state.rest.due_by_cadence
    resting = state.site is not None or owed
    if not resting or seconds < needed or not _rest_matters(state):
        return wait(draft, seconds, dice)
    start = state.now
    draft.add(RestStarted(reason=reason))
    broken = wait(draft, seconds, dice)
    rested = draft.state.now - start - (turn if broken is not None else 0)
    if rested >= needed:
        draft.add(Rested())
    else:
        draft.add(RestInterrupted(reason=broken or "the end of the wait"))
    return broken


def _eat_and_drink(draft: Draft, dice: DiceSource) -> None:
    """TP-ENC-1 face 3: every living character consumes the ruleset's food and water."""
    eaters = len(draft.state.party.living)
    for item, each in draft.state.ruleset.rest.consumes.items():
        draft.add(*consume(draft.state, item, each * eaters, dice, "forced rest"))


def forced_rest(draft: Draft, dice: DiceSource) -> None:
    """TP-ENC-1 face 3: rest this turn and consume food and water for every living character."""
    _eat_and_drink(draft, dice)
    take_rest(draft, dice, "forced rest")


def forced_rest_waited(draft: Draft, dice: DiceSource) -> None:
    """TP-ENC-1 face 3 (TP-DUN-1 face 4) where a wait passes the turn the face governs (a
    downtime day, a waited site turn): that turn is the rest, and food and water are eaten."""
    _eat_and_drink(draft, dice)
    draft.add(RestStarted(reason="forced rest"), Rested())


def _lapsed(state: CampaignState) -> bool:
    """EX-REST-1: a rest the active turns made due, but the party is out of that site."""
    rest, visit = state.rest, state.site
    if rest.due_at is None or not rest.due_by_cadence:
        return False
    return visit is None or rest.due_at < visit.entered_at


def _turn_end(draft: Draft, boundary: Boundary, dice: DiceSource) -> None:
    if _lapsed(draft.state):
        draft.add(RestLapsed())
    state = draft.state
    rules, rest_now, visit = state.ruleset.rest, state.rest, state.site
    turn = state.scales.turn
    if rest_now.due_at is None:
        # EX-REST-1 counts only turns in a site, from the later of the last rest and entry.
        if visit is not None and rules.active_turns is not None:
            since = max(rest_now.active_since, visit.entered_at)
            if (boundary.at - since) // turn >= rules.active_turns:
                draft.add(RestDue(reason=f"{rules.active_turns} active turns", cadence=True))
        return
    if boundary.at >= rest_now.due_at + turn:
        fresh = tuple(c.name for c in state.party.living if not c.has(WEARIED))
        if fresh:
            draft.add(Wearied(characters=fresh))


def _frames(state: CampaignState) -> frozenset[str]:
    # Outside a site only a rest already due (running, a fight) needs the turn's end.
    if state.rest.resting or (state.site is None and state.rest.due_at is None):
        return frozenset()
    return frozenset({"turn"})


#: At each active turn's end in a site, or while a rest is due: is a rest due, has one been
#: missed, has the active turns' rest lapsed out of the site (EX-REST-1 to EX-REST-3)?
REST_HOOK = Hook("rest", _frames, _turn_end)

#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    RestDue,
    RestLapsed,
    Wearied,
    RestStarted,
    Rested,
    RestInterrupted,
)
