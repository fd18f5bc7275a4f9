"""The month's verbs: lay out the world's factions, reveal a deed as a rumour, and a
character's month at a haven."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import (
    Field,
)

from turnkeeper.campaign import (
    CampaignState,
    Command,
)
from turnkeeper.procedures.factions import LoadFactions, RevealDeed
from turnkeeper.procedures.haven import HavenTurn
from turnkeeper.verbs.body import (
    FileText,
    VerbBody,
    as_file,
)
from turnkeeper.verbs.kinds import (
    ACTIVITY,
    CHARACTER,
    FACTION,
    Arg,
)
from turnkeeper.world.factions import parse_factions


class FactionLoadBody(VerbBody, title="Lay out the world's factions"):
    """Lay out the world's factions: each acts at every month turn [TP-TIME-1].

    The factions file is docs/factions.md's; the ruleset's faction table says what a roll does."""

    example: ClassVar[str] = "faction load examples/factions.toml"

    verb: Literal["faction_load"]
    factions_text: Annotated[
        FileText, as_file("factions_text"), Arg("FILE", file="factions file")
    ] = Field(description="The factions file's text (TOML).")

    def command(self, state: CampaignState) -> Command:
        return LoadFactions(parse_factions(self.factions_text.text, self.factions_text.name))


class FactionRevealBody(VerbBody, title="Reveal a faction's deed"):
    """Tell a faction's deed as a rumour to a party's players (--as) [TP-TIME-1].

    A deed is the referee's until told; a party hears only what the world did by its present."""

    example: ClassVar[str] = 'faction reveal "Red Hand" --as Scouts'
    as_lines = True

    verb: Literal["faction_reveal"]
    faction: Annotated[str, FACTION, Arg()] = Field(min_length=1, description="The faction.")
    deed: int | None = Field(
        None, ge=1, description="Which of its deeds, from 1 (default: the latest the party lived)."
    )
    text: str | None = Field(
        None, min_length=1, description="The rumour in the referee's words (default: the deed)."
    )

    def command(self, state: CampaignState) -> Command:
        return RevealDeed(self.faction, self.deed, self.text)


class HavenBody(VerbBody, title="Spend a month at a haven"):
    """A character's month at a haven: an activity, its cost and living paid, its result.

    The party's month passes as a wait's days [TP-TIME-1]. A haven is off the maps: in no
    site, on no wilderness map. The ruleset's haven table (DEFAULT) gives each activity's
    cost, roll and bands."""

    example: ClassVar[str] = "haven Aldo work"
    as_lines = True

    verb: Literal["haven"]
    character: Annotated[str, CHARACTER, Arg()] = Field(
        min_length=1, description="Who spends the month."
    )
    activity: Annotated[str, ACTIVITY, Arg()] = Field(
        min_length=1, description="recover, train, research, work or carouse (the ruleset's)."
    )

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        return state.site is None and state.wilderness is None and not state.fight_running

    def command(self, state: CampaignState) -> Command:
        return HavenTurn(self.character, self.activity)
