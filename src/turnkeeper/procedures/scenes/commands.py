"""The commands a Dungeoneers table gives: each a small frozen request, checked by decide.

Rule IDs: DG-LOOP-1, DG-SPOT-1 to DG-SPOT-3, DG-ACT-1, DG-RND-1, DG-FREE-1, DG-DREAD-1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from turnkeeper.kernel.scene_state import Outcome, SceneKind

# --- commands ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenScene:
    """The GM sets a scene (DG-LOOP-1). ``tokens=False`` switches tokens off for it (DG-SPOT-3).

    ``round_seconds`` is how long each of its rounds lasts, where the GM sets it within the
    text's range for an exploration or a social scene (DG-RND-1); None: the ruleset's default.
    """

    kind: SceneKind
    players: tuple[str, ...]
    creatures: tuple[str, ...] = ()
    tokens: bool = True
    gm_first: bool = False
    round_seconds: int | None = None


@dataclass(frozen=True)
class TakeSpotlight:
    """The players vote who takes the spotlight; the GM breaks ties and disputes (DG-SPOT-1).

    ``votes`` pairs each voter with their candidate (a mapping is accepted too).
    """

    votes: tuple[tuple[str, str], ...] | Mapping[str, str] = ()
    gm_choice: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.votes, Mapping):
            object.__setattr__(self, "votes", tuple(self.votes.items()))


@dataclass(frozen=True)
class VoteSpotlight:
    """One player's vote for who takes the spotlight next (DG-SPOT-1), cast from their own
    seat; :class:`TakeSpotlight` without votes counts the votes cast."""

    voter: str
    candidate: str


@dataclass(frozen=True)
class Act:
    """The spotlit player's action (DG-ACT-1): an outcome given, or a roll against a target."""

    player: str
    what: str
    tags: tuple[str, ...] = ()
    outcome: Outcome | None = None
    roll: str | None = None
    target: int | None = None
    values: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class GmAct:
    """The GM's action (DG-RND-1), by a creature or the GM; creatures' free actions follow it."""

    what: str = "passes"
    creature: str | None = None
    tags: tuple[str, ...] = ()
    outcome: Outcome | None = None
    roll: str | None = None
    target: int | None = None
    during_rest: bool = False
    creature_free: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class FreeAction:
    """One free action of a player, or of a GM creature after the GM's action (DG-FREE-1)."""

    actor: str
    what: str


@dataclass(frozen=True)
class GiveTokens:
    """A player gives spotlight tokens to another (DG-SPOT-2)."""

    giver: str
    receiver: str
    count: int = 1


@dataclass(frozen=True)
class SpendDread:
    """The GM spends dread to enhance a creature (DG-DREAD-1)."""

    amount: int
    what: str
    creature: str | None = None


@dataclass(frozen=True)
class Compromise:
    """The player whose last roll missed by 1 or 2 takes a success; the GM gains dread."""

    player: str


@dataclass(frozen=True)
class CloseScene:
    """The scene ends (DG-LOOP-1)."""


SceneCommand = (
    OpenScene
    | VoteSpotlight
    | TakeSpotlight
    | Act
    | GmAct
    | FreeAction
    | GiveTokens
    | SpendDread
    | Compromise
    | CloseScene
)
