"""The domains' verbs: grant a character a domain (a hex or a site), give it up, and draw
from its coffers. Each month turn settles every domain (TP-TIME-1's "Domain Turn")."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from turnkeeper.campaign import CampaignState, Command
from turnkeeper.files.names import MAX_INT
from turnkeeper.procedures.domains import DrawCoffers, DropDomain, GrantDomain
from turnkeeper.verbs.body import VerbBody
from turnkeeper.verbs.kinds import CHARACTER, DOMAIN, HEX, MAP, SITE, TEXT, Arg, Opt


class DomainGrantBody(VerbBody, title="Grant a domain"):
    """Grant a character a domain, a hex or a site: the month turn settles it [TP-TIME-1].

    Its income, upkeep and people's mood are the ruleset's domain table (DEFAULT). Send it
    --as the holder's party where the holder is with another."""

    example: ClassVar[str] = "domain grant Aldo --hex 0304 --name Ford"
    as_lines = True

    verb: Literal["domain_grant"]
    character: Annotated[str, CHARACTER, Arg()] = Field(
        min_length=1, description="Who holds the domain."
    )
    hex: Annotated[str | None, HEX, Opt("--hex")] = Field(
        None, min_length=1, description="A hex of a map a party is on (0304)."
    )
    site: Annotated[str | None, SITE, Opt("--site")] = Field(
        None, min_length=1, description="A site the world knows (instead of a hex)."
    )
    map: Annotated[str | None, MAP, Opt("--map")] = Field(
        None, min_length=1, description="The hex's map (default: the party's own)."
    )
    name: Annotated[str | None, TEXT, Opt("--name")] = Field(
        None, min_length=1, description="The domain's name (default: the site, or map and hex)."
    )
    coffers: int = Field(0, ge=0, le=MAX_INT, description="Coins in its coffers at the grant.")

    def command(self, state: CampaignState) -> Command:
        return GrantDomain(self.character, self.hex, self.site, self.map, self.name, self.coffers)


class DomainCollectBody(VerbBody, title="Draw from a domain's coffers"):
    """The holder draws coins from a domain's coffers and hears its steward [TP-TIME-1].

    Only at a present not behind the coffers' last settlement (`party forward` first)."""

    example: ClassVar[str] = "domain collect Ford --amount 50"
    as_lines = True

    verb: Literal["domain_collect"]
    domain: Annotated[str, DOMAIN, Arg()] = Field(min_length=1, description="The domain.")
    amount: int | None = Field(
        None, ge=0, le=MAX_INT, description="Coins to draw (default: all the coffers hold)."
    )

    def command(self, state: CampaignState) -> Command:
        return DrawCoffers(self.domain, self.amount)


class DomainDropBody(VerbBody, title="Give up a domain"):
    """The holder gives up a domain (or it is taken): the month turn settles it no more."""

    example: ClassVar[str] = 'domain drop Ford --reason "sold to the abbey"'
    as_lines = True

    verb: Literal["domain_drop"]
    domain: Annotated[str, DOMAIN, Arg()] = Field(min_length=1, description="The domain.")
    reason: str = Field("", max_length=500, description="Why, in the referee's words.")

    def command(self, state: CampaignState) -> Command:
        return DropDomain(self.domain, self.reason)
