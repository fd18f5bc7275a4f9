"""The verbs of the world's parties: split, new, switch, join, share, doing, bring forward."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import (
    Field,
)

from turnkeeper.campaign import (
    CampaignState,
    Command,
    parse_party,
)
from turnkeeper.errors import IllegalCommandError
from turnkeeper.files import digits
from turnkeeper.procedures.parties import (
    BringAllForward,
    BringForward,
    JoinParty,
    NewParty,
    SetDoing,
    ShareKnowledge,
    SplitParty,
    SwitchParty,
)
from turnkeeper.verbs.body import (
    FileText,
    Names,
    Takes,
    VerbBody,
    as_file,
)
from turnkeeper.verbs.kinds import (
    CHARACTER,
    OTHER_PARTY,
    SUPPLY,
    Arg,
)

#: More digits than this is past any count a journal keeps (2^63 - 1 has 19).
_MOST_DIGITS = 18


class PartySplitBody(VerbBody, title="Split the party"):
    """Characters leave the party as a party of their own, at the same place and time."""

    example: ClassVar[str] = (
        'party split "Grey Band" Bea --take rations=2,torches=2; '
        'party split "Grey Band" Bea --take rations=2 --take arrows'
    )

    verb: Literal["party_split"]
    name: Annotated[str, Arg()] = Field(min_length=1, description="The new party's name.")
    characters: Annotated[Names, CHARACTER, Arg()] = Field(
        min_length=1, description="The characters who leave (henchmen and hirelings too)."
    )
    take: Annotated[Takes, SUPPLY] = Field(
        (),
        description="What they take of the party's supplies: ITEM=COUNT of a counted one, "
        "ITEM alone for a usage die, which goes whole [PG-USE-1]; comma-separated or again "
        "for more: rations=2,arrows.",
    )

    def command(self, state: CampaignState) -> Command:
        taken: dict[str, int] = {}
        whole: list[str] = []
        for item, count in self.take:
            if count is None:
                whole.append(item)
                continue
            # ASCII digits only: "²" is a digit to isdigit and no number to int (an internal
            # error), and int reads "٣" (an Arabic-Indic three) as 3
            written = count.strip()
            if not digits(written):
                raise IllegalCommandError(
                    f"--take {item}={count}: a count is a whole number written in the digits "
                    f"0 to 9, e.g. {item}=3"
                )
            if len(written.lstrip("0")) > _MOST_DIGITS:  # unread: int() stops at 4,300 digits
                raise IllegalCommandError(
                    f"--take {item}={written[:20]}...: more than any party carries; give the "
                    "count the leavers take"
                )
            taken[item] = taken.get(item, 0) + int(written)
        return SplitParty(self.name, self.characters, taken, tuple(dict.fromkeys(whole)))


class PartyNewBody(VerbBody, title="A new party"):
    """A party of characters new to the world enters it, at the world's present."""

    example: ClassVar[str] = "party new Newcomers examples/newcomers.toml"

    verb: Literal["party_new"]
    name: Annotated[str, Arg()] = Field(min_length=1, description="The new party's name.")
    party_text: Annotated[FileText, as_file("party_text"), Arg("FILE", file="party file")] = Field(
        description="The party file's text (TOML, docs/party.md)."
    )

    def command(self, state: CampaignState) -> Command:
        return NewParty(self.name, parse_party(self.party_text.text, self.party_text.name))


class PartySwitchBody(VerbBody, title="Turn to a party"):
    """Run another party of the world: its present, its place, its supplies and affairs."""

    example: ClassVar[str] = 'party switch "Grey Band"'

    verb: Literal["party_switch"]
    name: Annotated[str, OTHER_PARTY, Arg()] = Field(min_length=1, description="The party.")

    def command(self, state: CampaignState) -> Command:
        return SwitchParty(self.name)


class PartyJoinBody(VerbBody, title="Join parties"):
    """Another party joins the one run now: both at the same place and the same time."""

    example: ClassVar[str] = 'party join "Grey Band"'

    verb: Literal["party_join"]
    name: Annotated[str, OTHER_PARTY, Arg()] = Field(
        min_length=1, description="The party that joins."
    )

    def command(self, state: CampaignState) -> Command:
        return JoinParty(self.name)


class PartyShareBody(VerbBody, title="Share what was found"):
    """Share what the party found with another: its map and its site's areas and notes.

    Until then, what a party found is its own."""

    example: ClassVar[str] = 'party share "Grey Band"'

    verb: Literal["party_share"]
    name: Annotated[str, OTHER_PARTY, Arg()] = Field(
        min_length=1, description="The party told what this one found."
    )

    def command(self, state: CampaignState) -> Command:
        return ShareKnowledge(self.name)


class PartyDoingBody(VerbBody, title="Say what the party is doing"):
    """Say what the party is doing and where it is bound, in words: the timeline and each
    character's whereabouts tell it until it is told otherwise ("" stops telling it)."""

    example: ClassVar[str] = (
        'party doing "riding to the oracle" --to "the oracle" --as "Grey Band"; '
        'party doing "in Brindle, training"'
    )

    verb: Literal["party_doing"]
    doing: Annotated[str, Arg()] = Field(
        max_length=200, description='What the party is doing ("riding to the oracle").'
    )
    to: str = Field(
        "", max_length=200, description="Where it is bound (a town, a site, a hex), if anywhere."
    )

    def command(self, state: CampaignState) -> Command:
        return SetDoing(self.doing, self.to)


class PartyForwardBody(VerbBody, title="Bring forward"):
    """Bring the party forward in downtime, to the world's present or for days [TP-TIME-1].

    The days pass as every command's days do: the day's meal at the ruleset's hour, the
    night's healing, the downtime die at each day's start; no light burns. With all, every
    party behind the world's present, each in turn."""

    example: ClassVar[str] = (
        'party forward; party forward --days 12 --as "Grey Band"; party forward --all'
    )

    verb: Literal["party_forward"]
    days: int | None = Field(
        None, ge=1, description="Days to spend (default: up to the world's present)."
    )
    all: bool = Field(
        False, description="Every party behind the world's present, to it, in one command."
    )

    @classmethod
    def fits(cls, state: CampaignState) -> bool:
        return state.site is None and not state.fight_running

    def command(self, state: CampaignState) -> Command:
        if self.all:
            if self.days is not None:
                raise IllegalCommandError(
                    "--all brings every party to the world's present: leave out --days"
                )
            return BringAllForward()
        return BringForward(self.days)
