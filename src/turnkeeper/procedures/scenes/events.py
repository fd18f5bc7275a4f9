"""The events of a Dungeoneers scene: each one a fact, folded into the table's state.

Every event is a campaign event (:class:`~turnkeeper.kernel.events.Event`): frozen,
registered under its kind so the journal reads it back, carrying every die it rolled as a
:class:`~turnkeeper.kernel.events.RollRecord`, and describing itself in one line a referee
reads in a log. ``advance`` is how it changes a :class:`SceneState`; ``apply`` does the same
to the campaign's ``scenes``. Folding the events again rebuilds the state without rolling.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from pydantic import Field

from turnkeeper.clock.durations import format_duration
from turnkeeper.kernel.events import Event, Shown
from turnkeeper.kernel.scene_state import (
    ActionRecord,
    DreadSpend,
    Frame,
    Outcome,
    Scene,
    SceneKind,
    SceneSide,
    SceneState,
    Seat,
)
from turnkeeper.kernel.state import CampaignState


class SceneEvent(Event):
    """Base of every scene event: a campaign event that changes the campaign's ``scenes``.

    The base's own kind, ``scene``, is never recorded: only its subclasses are decided.
    """

    kind: ClassVar[str] = "scene"
    shown: ClassVar[Shown] = Shown.PARTY

    def advance(self, state: SceneState) -> SceneState:
        """The fold step for the scene part of the campaign; pure."""
        raise NotImplementedError

    def apply(self, state: CampaignState) -> CampaignState:
        """The campaign's fold step: only the Dungeoneers table changes (time passes apart)."""
        return state.model_copy(update={"scenes": self.advance(state.scenes)})

    def describe(self) -> str:
        """One line for the session log."""
        raise NotImplementedError


def _scene(state: SceneState) -> Scene:
    if state.scene is None:  # only a broken journal gets here: decide checks first
        raise ValueError("no scene is open")
    return state.scene


def _in_scene(state: SceneState, **update: object) -> SceneState:
    return state.model_copy(update={"scene": _scene(state).model_copy(update=update)})


def fold_scene_events(events: Iterable[SceneEvent], state: SceneState | None = None) -> SceneState:
    """Fold scene events, in order, onto ``state`` (an empty table by default)."""
    state = state or SceneState()
    for event in events:
        state = event.advance(state)
    return state


class SceneOpened(SceneEvent):
    """The GM sets a scene (DG-LOOP-1); new players sit down with their tokens (DG-SPOT-2)."""

    kind: ClassVar[str] = "scene.opened"
    shown: ClassVar[Shown] = Shown.PARTY
    number: int
    scene_kind: SceneKind
    players: tuple[str, ...]
    creatures: tuple[str, ...] = ()
    tokens: bool = True
    first: SceneSide = SceneSide.PLAYERS
    new_seats: tuple[Seat, ...] = ()
    round_seconds: int | None = Field(
        None,
        gt=0,
        # a scene of the ruleset's rounds is written as it was before the GM could set one
        exclude_if=lambda seconds: seconds is None,
    )
    """Each round's length where the GM set it (DG-RND-1); None: the ruleset's."""

    def advance(self, state: SceneState) -> SceneState:
        scene = Scene(
            number=self.number,
            kind=self.scene_kind,
            players=self.players,
            creatures=self.creatures,
            tokens=self.tokens,
            first=self.first,
            turn=self.first,
            round_seconds=self.round_seconds,
        )
        return state.model_copy(
            update={
                "scene": scene,
                "seats": state.seats + self.new_seats,
                "scenes_opened": self.number,
            }
        )

    def describe(self) -> str:
        who = ", ".join(self.players)
        against = f" against {', '.join(self.creatures)}" if self.creatures else ""
        rounds = (
            f"; rounds of {format_duration(self.round_seconds)}"
            if self.round_seconds is not None
            else ""
        )
        return f"scene {self.number} opens: {self.scene_kind.value}, {who}{against}{rounds}"


class SpotlightVoted(SceneEvent):
    """A player votes who takes the spotlight next (DG-SPOT-1); a later vote of theirs
    replaces it."""

    kind: ClassVar[str] = "scene.spotlight_voted"
    shown: ClassVar[Shown] = Shown.PARTY
    voter: str
    candidate: str

    def advance(self, state: SceneState) -> SceneState:
        others = tuple(v for v in _scene(state).votes if v[0] != self.voter)
        return _in_scene(state, votes=(*others, (self.voter, self.candidate)))

    def describe(self) -> str:
        return f"{self.voter} votes for {self.candidate} to take the spotlight"


class SpotlightTaken(SceneEvent):
    """A player takes the spotlight, chosen by majority or by the GM (DG-SPOT-1, DG-SPOT-2)."""

    kind: ClassVar[str] = "scene.spotlight_taken"
    shown: ClassVar[Shown] = Shown.PARTY
    player: str
    votes: tuple[tuple[str, str], ...] = ()
    by_gm: bool = False
    token_spent: bool = True

    def advance(self, state: SceneState) -> SceneState:
        if self.token_spent:
            state = state.with_tokens({self.player: -1})
        return _in_scene(state, spotlit=self.player, kept_by=None, votes=())

    def describe(self) -> str:
        how = "the GM's choice" if self.by_gm else "the players' majority"
        token = ", spends a token" if self.token_spent else ""
        return f"{self.player} takes the spotlight ({how}{token})"


class TokensRegained(SceneEvent):
    """Every token at the table is spent: every player regains theirs (DG-SPOT-2)."""

    kind: ClassVar[str] = "scene.tokens_regained"
    shown: ClassVar[Shown] = Shown.PARTY
    players: tuple[str, ...]
    each: int

    def advance(self, state: SceneState) -> SceneState:
        return state.with_tokens(dict.fromkeys(self.players, self.each))

    def describe(self) -> str:
        return f"every token is spent: {', '.join(self.players)} regain {self.each} each"


class TokensGiven(SceneEvent):
    """One player gives spotlight tokens to another (DG-SPOT-2)."""

    kind: ClassVar[str] = "scene.tokens_given"
    shown: ClassVar[Shown] = Shown.PARTY
    giver: str
    receiver: str
    count: int

    def advance(self, state: SceneState) -> SceneState:
        return state.with_tokens({self.giver: -self.count, self.receiver: self.count})

    def describe(self) -> str:
        tokens = "token" if self.count == 1 else "tokens"
        return f"{self.giver} gives {self.count} spotlight {tokens} to {self.receiver}"


class ActionTaken(SceneEvent):
    """An action that moves the scene forward, with its tags and outcome (DG-ACT-1)."""

    kind: ClassVar[str] = "scene.action_taken"
    shown: ClassVar[Shown] = Shown.PARTY
    actor: str
    side: SceneSide
    what: str
    tags: tuple[str, ...] = ()
    outcome: Outcome | None = None
    total: int | None = None
    target: int | None = None
    during_rest: bool = False

    def advance(self, state: SceneState) -> SceneState:
        scene = _scene(state)
        record = ActionRecord(
            number=scene.actions + 1,
            actor=self.actor,
            side=self.side,
            what=self.what,
            tags=self.tags,
            outcome=self.outcome,
            total=self.total,
            target=self.target,
        )
        acted = "players_acted" if self.side is SceneSide.PLAYERS else "gm_acted"
        return _in_scene(
            state, actions=record.number, last_action=record, spotlit=None, **{acted: True}
        )

    def describe(self) -> str:
        tags = f" [{', '.join(self.tags)}]" if self.tags else ""
        rolled = f" ({self.total} against {self.target})" if self.target is not None else ""
        outcome = f": {self.outcome.value}" if self.outcome else ""
        rest = " during a rest" if self.during_rest else ""
        return f"{self.actor} acts{rest}: {self.what}{tags}{rolled}{outcome}"


class FreeActionTaken(SceneEvent):
    """A player's or a GM creature's one free action of the round (DG-FREE-1)."""

    kind: ClassVar[str] = "scene.free_action_taken"
    shown: ClassVar[Shown] = Shown.PARTY
    actor: str
    what: str

    def advance(self, state: SceneState) -> SceneState:
        scene = _scene(state)
        return _in_scene(state, free_used=(*scene.free_used, self.actor))

    def describe(self) -> str:
        return f"{self.actor} (free action): {self.what}"


class MomentumKept(SceneEvent):
    """A critical, or a momentum action that succeeded: the side keeps the spotlight (DG-MOM-1)."""

    kind: ClassVar[str] = "scene.momentum_kept"
    shown: ClassVar[Shown] = Shown.PARTY
    side: SceneSide
    by: str

    def advance(self, state: SceneState) -> SceneState:
        return _in_scene(state, turn=self.side, kept_by=self.by)

    def describe(self) -> str:
        return f"momentum: {self.side.value} keep the spotlight; another of them acts"


class SpotlightPassed(SceneEvent):
    """After an action the spotlight passes to the other side (DG-MOM-1)."""

    kind: ClassVar[str] = "scene.spotlight_passed"
    shown: ClassVar[Shown] = Shown.PARTY
    to: SceneSide

    def advance(self, state: SceneState) -> SceneState:
        return _in_scene(state, turn=self.to, kept_by=None)

    def describe(self) -> str:
        return f"the spotlight passes to the {self.to.value}"


class RoundEnded(SceneEvent):
    """One player action and one GM action make a round (DG-RND-1); time passes.

    ``frame`` tells the countdowns which of them tick (DG-CD-1): rapid ones on combat and
    social rounds, short ones on exploration rounds.
    """

    kind: ClassVar[str] = "scene.round_ended"
    shown: ClassVar[Shown] = Shown.PARTY
    round: int
    frame: Frame
    seconds: int

    def advance(self, state: SceneState) -> SceneState:
        scene = _scene(state)
        return _in_scene(
            state,
            round=self.round + 1,
            turn=scene.first,
            spotlit=None,
            kept_by=None,
            players_acted=False,
            gm_acted=False,
            free_used=(),
            elapsed_seconds=scene.elapsed_seconds + self.seconds,
        )

    def describe(self) -> str:
        return f"{self.frame.replace('_', ' ')} {self.round} ends ({self.seconds} s)"


class DreadGained(SceneEvent):
    """The GM gains dread: a GM action during a rest, or a compromise (DG-DREAD-1)."""

    kind: ClassVar[str] = "scene.dread_gained"
    shown: ClassVar[Shown] = Shown.PARTY
    amount: int
    reason: str

    def advance(self, state: SceneState) -> SceneState:
        return state.model_copy(update={"dread": state.dread + self.amount})

    def describe(self) -> str:
        return f"the GM gains {self.amount} dread ({self.reason})"


class DreadSpent(SceneEvent):
    """The GM spends dread to enhance a creature they control (DG-DREAD-1)."""

    kind: ClassVar[str] = "scene.dread_spent"
    shown: ClassVar[Shown] = Shown.PARTY
    amount: int
    what: str
    creature: str | None = None

    def advance(self, state: SceneState) -> SceneState:
        bought = DreadSpend(amount=self.amount, what=self.what, creature=self.creature)
        return state.model_copy(
            update={"dread": state.dread - self.amount, "bought": (*state.bought, bought)}
        )

    def describe(self) -> str:
        whom = f" on {self.creature}" if self.creature else ""
        return f"the GM spends {self.amount} dread{whom}: {self.what}"


class CompromiseTaken(SceneEvent):
    """A player who rolled just under the target takes a success anyway (DG-DREAD-1)."""

    kind: ClassVar[str] = "scene.compromise_taken"
    shown: ClassVar[Shown] = Shown.PARTY
    player: str
    action: int

    def advance(self, state: SceneState) -> SceneState:
        scene = _scene(state)
        last = scene.last_action
        if last is None or last.number != self.action:
            raise ValueError(f"action {self.action} is not the scene's last action")
        last = last.model_copy(update={"outcome": Outcome.SUCCESS, "compromised": True})
        return _in_scene(state, last_action=last)

    def describe(self) -> str:
        return f"{self.player} takes a compromise: action {self.action} succeeds anyway"


class SceneClosed(SceneEvent):
    """The scene ends (DG-LOOP-1)."""

    kind: ClassVar[str] = "scene.closed"
    shown: ClassVar[Shown] = Shown.PARTY
    number: int
    rounds: int

    def advance(self, state: SceneState) -> SceneState:
        return state.model_copy(update={"scene": None})

    def describe(self) -> str:
        return f"scene {self.number} ends after {self.rounds} full rounds"


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    SceneOpened,
    SpotlightVoted,
    SpotlightTaken,
    TokensRegained,
    TokensGiven,
    ActionTaken,
    FreeActionTaken,
    MomentumKept,
    SpotlightPassed,
    RoundEnded,
    DreadGained,
    DreadSpent,
    CompromiseTaken,
    SceneClosed,
)
