"""The commands of a world of parties, as the referee gives them; :mod:`.decide` runs them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from turnkeeper.kernel.party import Party


@dataclass(frozen=True)
class SplitParty:
    """``characters`` leave the party run now as the party ``name``, taking ``supplies`` by
    count and the usage dice of ``whole`` whole (PG-USE-1: a usage die is not divided)."""

    name: str
    characters: tuple[str, ...]
    supplies: Mapping[str, int] = field(default_factory=dict)
    whole: tuple[str, ...] = ()


@dataclass(frozen=True)
class NewParty:
    """A party of new characters enters the world at its present."""

    name: str
    party: Party


@dataclass(frozen=True)
class SwitchParty:
    """Run the party ``name`` from now on (its present, its place, its affairs)."""

    name: str


@dataclass(frozen=True)
class JoinParty:
    """The party ``name`` joins the party run now; both must be at the same place and time."""

    name: str


@dataclass(frozen=True)
class ClearArea:
    """The party cleared ``area`` of its site (the area it stands in by default)."""

    area: str | None = None
    level: int | None = None
    what: str = "cleared"


@dataclass(frozen=True)
class ClearHex:
    """The party cleared ``hex`` of its map (the hex it is in by default)."""

    hex: str | None = None
    what: str = "cleared"


@dataclass(frozen=True)
class BringForward:
    """Downtime: ``days`` days, or (None) as many as bring the party to the world's present."""

    days: int | None = None


@dataclass(frozen=True)
class BringAllForward:
    """Downtime for every party behind the world's present, each to it in turn (the command
    table runs it as :class:`BringForward` sent as each of them)."""


@dataclass(frozen=True)
class SetDoing:
    """Say what the party run now is doing ("riding to the oracle", "in Brindle, training")
    and where it is bound; an empty ``doing`` stops telling it."""

    doing: str
    bound_for: str = ""


@dataclass(frozen=True)
class ShareKnowledge:
    """The party run now shares what it found (its map, its site's areas) with ``name``."""

    name: str


PartyCommand = (
    SplitParty
    | NewParty
    | SwitchParty
    | JoinParty
    | ClearArea
    | ClearHex
    | BringForward
    | ShareKnowledge
    | SetDoing
)
