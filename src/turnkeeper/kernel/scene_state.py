"""What a Dungeoneers table keeps between actions: scenes, spotlight tokens and dread.

The state is frozen: every change is an event folded into a new state (see
:mod:`turnkeeper.procedures.scenes.events`). Rule IDs: DG-LOOP-1, DG-SPOT-1 to DG-SPOT-3,
DG-ACT-1, DG-RND-1, DG-FREE-1, DG-MOM-1, DG-DREAD-1.

How a roll becomes an outcome (DG-ACT-1, DG-MOM-1, DG-DREAD-1). The Dungeoneers core text
names the outcomes (``critical``, ``success``) but not how a roll reaches them, so the project
reads a roll against its target like this:

- ``critical``: every kept die shows its highest face (a natural 20 on a d20, double six on
  2d6), whatever the target: the text's "a critical happens during an action";
- ``success``: the total reaches the target;
- ``partial``: the total misses by no more than ``ruleset.dread.compromise_margin`` (2): the
  "rolled just under" of a compromise, which the player may take as a success (DG-DREAD-1);
- ``failure``: anything lower.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from turnkeeper.dice import Roll
from turnkeeper.frozen import Strict

#: The time frames that tick countdowns (DG-CD-1), named as ``CountdownType.ticks_on`` names them.
Frame = Literal["combat_round", "social_round", "exploration_round"]


class SceneKind(StrEnum):
    """What kind of scene is running (DG-LOOP-1, DG-RND-1, DG-SPOT-3).

    A ``free`` scene is talk among the players or simple trading: it flows with no spotlight,
    no tokens and no rounds (DG-SPOT-3).

    >>> SceneKind.COMBAT.frame, SceneKind.FREE.frame is None
    ('combat_round', True)
    """

    COMBAT = "combat"
    EXPLORATION = "exploration"
    SOCIAL = "social"
    FREE = "free"

    @property
    def frame(self) -> Frame | None:
        """The kind of round this scene plays, which decides its length and its countdowns."""
        frames: dict[SceneKind, Frame] = {
            SceneKind.COMBAT: "combat_round",
            SceneKind.SOCIAL: "social_round",
            SceneKind.EXPLORATION: "exploration_round",
        }
        return frames.get(self)


class Outcome(StrEnum):
    """How an action turned out, worst to best (DG-ACT-1, DG-MOM-1).

    >>> Outcome.CRITICAL.at_least(Outcome.SUCCESS), Outcome.PARTIAL.at_least(Outcome.SUCCESS)
    (True, False)
    """

    FAILURE = "failure"
    PARTIAL = "partial"
    SUCCESS = "success"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        """0 for a failure up to 3 for a critical."""
        return list(Outcome).index(self)

    def at_least(self, other: Outcome) -> bool:
        """True when this outcome is ``other`` or better."""
        return self.rank >= other.rank


def outcome_of(result: Roll, target: int, compromise_margin: int = 2) -> Outcome:
    """Read a roll against its target as the project maps it (see the module's docstring).

    >>> from turnkeeper.dice import TypedDice, roll
    >>> [outcome_of(roll("d20", TypedDice([face])), 12).value for face in (20, 12, 10, 9)]
    ['critical', 'success', 'partial', 'failure']
    """
    kept = [die for die in result.dice if die.kept]
    if kept and all(die.face == die.sides for die in kept):
        return Outcome.CRITICAL
    if result.total >= target:
        return Outcome.SUCCESS
    if result.total >= target - compromise_margin:
        return Outcome.PARTIAL
    return Outcome.FAILURE


class SceneSide(StrEnum):
    """Who holds the spotlight: the players, or the GM with the creatures they control."""

    PLAYERS = "players"
    GM = "gm"

    @property
    def other(self) -> SceneSide:
        """The side the spotlight passes to (DG-MOM-1)."""
        return SceneSide.GM if self is SceneSide.PLAYERS else SceneSide.PLAYERS


class Seat(Strict):
    """A player at the table and the spotlight tokens they hold (DG-SPOT-2)."""

    name: str
    tokens: int


class ActionRecord(Strict):
    """The last action of a scene, kept so a compromise can be taken on it (DG-DREAD-1)."""

    number: int
    actor: str
    side: SceneSide
    what: str
    tags: tuple[str, ...] = ()
    outcome: Outcome | None = None
    total: int | None = None
    target: int | None = None
    compromised: bool = False

    @property
    def missed_by(self) -> int | None:
        """How far a rolled action fell short of its target, if it did."""
        if self.total is None or self.target is None or self.total >= self.target:
            return None
        return self.target - self.total


class Scene(Strict):
    """One scene in play (DG-LOOP-1): who is in it and where its round stands.

    ``turn`` is the side holding the spotlight; ``spotlit`` the player holding it, if the
    players have chosen one. ``kept_by`` names the player whose critical or momentum kept the
    spotlight with the players, so another member takes it (DG-MOM-1).
    """

    number: int
    kind: SceneKind
    players: tuple[str, ...]
    creatures: tuple[str, ...] = ()
    tokens: bool = True
    first: SceneSide = SceneSide.PLAYERS
    round: int = 1
    turn: SceneSide = SceneSide.PLAYERS
    spotlit: str | None = None
    kept_by: str | None = None
    players_acted: bool = False
    gm_acted: bool = False
    free_used: tuple[str, ...] = ()
    actions: int = 0
    last_action: ActionRecord | None = None
    elapsed_seconds: int = 0
    round_seconds: int | None = Field(None, exclude_if=lambda seconds: seconds is None)
    """Each round's length where the GM set it on opening the scene (DG-RND-1)."""
    votes: tuple[tuple[str, str], ...] = ()
    """The players' votes for the next spotlight so far, each voter's last (DG-SPOT-1)."""

    @property
    def free(self) -> bool:
        """A free scene needs no spotlight at all (DG-SPOT-3)."""
        return self.kind is SceneKind.FREE

    def free_actions_of(self, name: str) -> int:
        """How many free actions ``name`` has made this round (DG-FREE-1)."""
        return self.free_used.count(name)


class DreadSpend(Strict):
    """What the GM bought with dread: an enhancement of a creature they control (DG-DREAD-1)."""

    amount: int
    what: str
    creature: str | None = None


class SceneState(Strict):
    """The whole Dungeoneers table: seats and tokens, the dread pool, the scene in play.

    Tokens and dread outlast a scene; ``scene`` is None between scenes.
    """

    seats: tuple[Seat, ...] = ()
    dread: int = 0
    bought: tuple[DreadSpend, ...] = ()
    scene: Scene | None = None
    scenes_opened: int = 0

    def seat(self, name: str) -> Seat | None:
        """The seat of the player called ``name``, if they have played."""
        return next((seat for seat in self.seats if seat.name == name), None)

    def tokens_of(self, name: str) -> int:
        """The spotlight tokens ``name`` holds (0 for a stranger)."""
        seat = self.seat(name)
        return seat.tokens if seat else 0

    def with_tokens(self, changes: dict[str, int]) -> SceneState:
        """A copy where each named player's tokens change by the given amount."""
        seats = tuple(
            seat.model_copy(update={"tokens": seat.tokens + changes.get(seat.name, 0)})
            for seat in self.seats
        )
        return self.model_copy(update={"seats": seats})
