"""The verbs of a scene: open, spotlight, acts, tokens, dread, compromise, close."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import (
    BeforeValidator,
    Field,
)

from turnkeeper.campaign import (
    CampaignState,
    Command,
    parse_duration,
)
from turnkeeper.kernel.scene_state import Outcome, SceneKind
from turnkeeper.procedures.scenes import (
    Act,
    CloseScene,
    Compromise,
    FreeAction,
    GiveTokens,
    GmAct,
    OpenScene,
    SpendDread,
    TakeSpotlight,
    VoteSpotlight,
)
from turnkeeper.verbs.body import (
    Names,
    Pairs,
    Place,
    VerbBody,
)
from turnkeeper.verbs.kinds import (
    CHARACTER,
    CREATURE,
    DURATION,
    SCENE_PLAYER,
    Arg,
    Opt,
)

#: A choice typed in any case: ``Success`` is ``success``.
_LOWERED = BeforeValidator(lambda value: value.strip().lower() if isinstance(value, str) else value)


class SceneOpenBody(VerbBody, title="Open a scene"):
    """The GM sets a scene; new players sit down with their tokens [DG-LOOP-1, DG-SPOT-2]."""

    example: ClassVar[str] = (
        "scene open combat --players Ulfarmi,Brenna --creatures ogre; "
        "scene open exploration --players Ulfarmi --round 8h"
    )
    as_lines = True

    verb: Literal["scene_open"]
    kind: Annotated[SceneKind, Arg()] = Field(description="combat, exploration, social or free.")
    players: Annotated[Names, CHARACTER, Opt("--players")] = Field(
        description="The players in the scene: a,b,c."
    )
    creatures: Annotated[Names, Opt("--creatures")] = Field(
        (), description="The GM's creatures: ogre,goblin."
    )
    tokens: Annotated[bool, Opt("--tokens/--no-tokens")] = Field(
        True, description="Spotlight tokens this scene [DG-SPOT-3]."
    )
    gm_first: bool = Field(False, description="The GM acts first each round.")
    round: Annotated[str | None, DURATION, Opt("--round")] = Field(
        None,
        description="How long each round lasts, for an exploration (2m to 8h) or a social "
        "(1m to 10m) scene; default: the ruleset's [DG-RND-1].",
    )

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        return state.ruleset.spotlight.enabled and state.scenes.scene is None

    def command(self, state: CampaignState) -> Command:
        seconds = None if self.round is None else parse_duration(self.round, state.ruleset.time)
        return OpenScene(
            self.kind, self.players, self.creatures, self.tokens, self.gm_first, seconds
        )


class SceneVoteBody(VerbBody, title="Vote for the spotlight"):
    """A player votes who takes the spotlight next; the spotlight counts the votes cast
    [DG-SPOT-1]."""

    where = Place.SCENE
    example: ClassVar[str] = "scene vote Ulfarmi Brenna"

    verb: Literal["scene_vote"]
    voter: Annotated[str, SCENE_PLAYER, Arg()] = Field(min_length=1, description="Who votes.")
    candidate: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="Who they would have take the spotlight."
    )

    def command(self, state: CampaignState) -> Command:
        return VoteSpotlight(self.voter, self.candidate)


class SceneSpotlightBody(VerbBody, title="Take the spotlight"):
    """The players choose who takes the spotlight; it costs a token [DG-SPOT-1, DG-SPOT-2]."""

    where = Place.SCENE
    example: ClassVar[str] = "scene spotlight --vote Ulfarmi=Brenna --vote Brenna=Brenna"
    as_lines = True

    verb: Literal["scene_spotlight"]
    votes: Annotated[Pairs, SCENE_PLAYER, Opt("--vote", metavar="VOTER=CANDIDATE")] = Field(
        (), description="Each voter's candidate: VOTER=CANDIDATE; none counts the votes cast."
    )
    gm: Annotated[str | None, SCENE_PLAYER] = Field(
        None, description="The GM's choice on a tie or dispute."
    )

    def command(self, state: CampaignState) -> Command:
        return TakeSpotlight(votes=self.votes, gm_choice=self.gm)


class SceneActBody(VerbBody, title="Act"):
    """The spotlit player acts; momentum may keep the spotlight [DG-ACT-1, DG-MOM-1]."""

    where = Place.SCENE
    example: ClassVar[str] = (
        'scene act Brenna "swings at the ogre" --roll d20+2 --target 12 --tag momentum'
    )
    as_lines = True

    verb: Literal["scene_act"]
    player: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="The spotlit player."
    )
    what: Annotated[str, Arg()] = Field(min_length=1, description="What they do.")
    tags: Annotated[Names, Opt("--tag")] = Field((), description="Tags such as momentum.")
    outcome: Annotated[Outcome | None, _LOWERED] = Field(
        None, description="critical, success, partial or failure (or roll against a target)."
    )
    roll: str | None = Field(None, description="Roll this, e.g. d20+2.")
    target: int | None = Field(None, description="The number the roll must reach.")

    def command(self, state: CampaignState) -> Command:
        return Act(self.player, self.what, self.tags, self.outcome, self.roll, self.target)


class SceneFreeBody(VerbBody, title="Free action"):
    """One free action per round [DG-FREE-1]."""

    where = Place.SCENE
    example: ClassVar[str] = 'scene free Brenna "shouts a warning"'
    as_lines = True

    verb: Literal["scene_free"]
    actor: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="A player, or a GM creature after the GM's action."
    )
    what: Annotated[str, Arg()] = Field(min_length=1, description="The free action.")

    def command(self, state: CampaignState) -> Command:
        return FreeAction(self.actor, self.what)


class SceneGmBody(VerbBody, title="The GM acts"):
    """The GM acts; with the players' action it makes a round, and time passes [DG-RND-1]."""

    where = Place.SCENE
    example: ClassVar[str] = (
        'scene gm "the ogre swings" --creature ogre --roll d20+3 --target 12; scene gm'
    )
    as_lines = True

    verb: Literal["scene_gm"]
    what: Annotated[str, Arg()] = Field("passes", min_length=1, description="The GM's action.")
    creature: Annotated[str | None, CREATURE] = Field(None, description="The creature that acts.")
    tags: Annotated[Names, Opt("--tag")] = Field((), description="Tags such as momentum.")
    outcome: Annotated[Outcome | None, _LOWERED] = Field(
        None, description="critical, success, partial or failure."
    )
    roll: str | None = Field(None, description="Roll this, e.g. d20+2.")
    target: int | None = Field(None, description="The number the roll must reach.")
    during_rest: bool = Field(False, description="Taken during a rest: dread grows [DG-DREAD-1].")
    creature_free: Annotated[Pairs, CREATURE, Opt("--creature-free", metavar="CREATURE=WHAT")] = (
        Field(
            (),
            description="A creature's free action after the GM's: CREATURE=WHAT [DG-FREE-1].",
        )
    )

    def command(self, state: CampaignState) -> Command:
        return GmAct(
            self.what,
            self.creature,
            self.tags,
            self.outcome,
            self.roll,
            self.target,
            during_rest=self.during_rest,
            creature_free=self.creature_free,
        )


class SceneGiveBody(VerbBody, title="Give tokens"):
    """Give spotlight tokens to another player [DG-SPOT-2]."""

    where = Place.SCENE
    example: ClassVar[str] = "scene give Ulfarmi Brenna 1"
    as_lines = True

    verb: Literal["scene_give"]
    giver: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="The player who gives."
    )
    receiver: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="The player who receives."
    )
    count: Annotated[int, Arg("N")] = Field(1, ge=1, description="How many tokens.")

    def command(self, state: CampaignState) -> Command:
        return GiveTokens(self.giver, self.receiver, self.count)


class DreadSpendBody(VerbBody, title="Spend dread"):
    """Spend dread to enhance a creature the GM controls [DG-DREAD-1]."""

    where = Place.SCENE
    line: ClassVar[str] = "scene dread spend"
    example: ClassVar[str] = 'scene dread spend 2 "the ogre hits harder" --creature ogre'
    as_lines = True

    verb: Literal["dread_spend"]
    amount: Annotated[int, Arg("N")] = Field(ge=1, description="How much dread.")
    what: Annotated[str, Arg()] = Field(min_length=1, description="What it buys.")
    creature: Annotated[str | None, CREATURE] = Field(None, description="The creature enhanced.")

    def command(self, state: CampaignState) -> Command:
        return SpendDread(self.amount, self.what, self.creature)


class SceneCompromiseBody(VerbBody, title="Compromise"):
    """Take a roll that missed by 1 or 2 as a success; the GM gains dread [DG-DREAD-1]."""

    where = Place.SCENE
    example: ClassVar[str] = "scene compromise Brenna"
    as_lines = True

    verb: Literal["scene_compromise"]
    player: Annotated[str, SCENE_PLAYER, Arg()] = Field(
        min_length=1, description="The player whose last roll just missed."
    )

    def command(self, state: CampaignState) -> Command:
        return Compromise(self.player)


class SceneCloseBody(VerbBody, title="Close the scene"):
    """The scene ends [DG-LOOP-1]."""

    where = Place.SCENE
    example: ClassVar[str] = "scene close"
    as_lines = True

    verb: Literal["scene_close"]

    def command(self, state: CampaignState) -> Command:
        return CloseScene()
