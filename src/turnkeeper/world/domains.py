"""The domains of a world: a hex or a site a character holds, its people and its treasury.

A domain is the world's, as a faction is: the month turn settles it whichever party is run
(``procedures.domains``), so it keeps its own coffers and never writes into a party's fields.
Its ledger is the history of its treasury in game time (every month's settlement and every
draw, with when), so a party behind the ledger's last entry draws nothing until brought
forward: one order of events, as the world's place ledger keeps for places.

>>> d = Domain(name="Ford", holder="Aldo", map="Vale", hex="0304", granted_at=0)
>>> d.place, d.coffers, d.mood
('hex 0304 of Vale', 0, None)
"""

from __future__ import annotations

from pydantic import Field

from turnkeeper.files.names import MAX_INT
from turnkeeper.frozen import Strict

#: The most domains one world holds: a month turn settles every one.
MOST_DOMAINS = 200


class TreasuryEntry(Strict):
    """A change to a domain's coffers at its game time: ``change`` coins (below 0: paid or
    drawn), leaving ``coffers``, and why."""

    at: int
    change: int
    coffers: int = Field(ge=0, le=MAX_INT)
    reason: str


class Domain(Strict):
    """A domain: its name, its holder (a character of the world), where it is (a hex of a
    map, or a site), its coffers and ledger, and its people's mood with what it carries into
    next month's roll (``modifier``)."""

    name: str
    holder: str
    map: str | None = None
    hex: str | None = None
    site: str | None = None
    granted_at: int
    coffers: int = Field(0, ge=0, le=MAX_INT)
    mood: str | None = None
    modifier: int = 0
    ledger: tuple[TreasuryEntry, ...] = ()

    @property
    def place(self) -> str:
        """Where it is, as the time record names places: "hex 0304 of Vale", "Barrow"."""
        if self.hex is not None:
            return f"hex {self.hex} of {self.map}"
        return str(self.site)

    @property
    def last_entry(self) -> int | None:
        """The game time of the ledger's latest entry (None: nothing yet)."""
        return self.ledger[-1].at if self.ledger else None

    def entered(self, at: int, change: int, reason: str) -> Domain:
        """This domain with ``change`` coins entered in its ledger at ``at``."""
        coffers = self.coffers + change
        entry = TreasuryEntry(at=at, change=change, coffers=coffers, reason=reason)
        return self.model_copy(update={"coffers": coffers, "ledger": (*self.ledger, entry)})


def named(domains: tuple[Domain, ...], name: str) -> Domain | None:
    """The domain called ``name`` (in any case), or None."""
    key = name.casefold()
    return next((d for d in domains if d.name.casefold() == key), None)


def replaced(domains: tuple[Domain, ...], domain: Domain) -> tuple[Domain, ...]:
    """``domains`` with ``domain`` (of the same name) as given."""
    return tuple(domain if d.name == domain.name else d for d in domains)
