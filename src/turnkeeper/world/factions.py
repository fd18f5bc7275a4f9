"""The factions of a world, as the referee writes them (a TOML file: docs/factions.md).

Each faction has a goal, kept as a clock of segments that its month turns fill; resources,
small numbers that are the modifiers of its roll; holdings (hexes of the world's map, sites);
the hexes it covets, the next to expand into first; and its relations, rivals and allies,
among the factions of the file. The month turn (``procedures.factions``) reads them.

>>> world = parse_factions('''
... map = "Vale"
... [[factions]]
... name = "Red Hand"
... goal = "rule the ford"
... segments = 6
... resources = { force = 2, wealth = -1 }
... hexes = ["0304"]
... covets = ["0305"]
... ''')
>>> hand = world.faction("red hand")
>>> hand.name, hand.modifier, hand.hexes
('Red Hand', 1, ('0304',))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field, ValidationError

from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.keys import first_error, keys_at, unknown_key
from turnkeeper.files.names import check_name
from turnkeeper.files.reading import parse_toml
from turnkeeper.frozen import Strict
from turnkeeper.world.hexes import Hex

#: A clock of more segments than this is no month's work to fill.
MOST_SEGMENTS = 24
#: A resource is a modifier of the faction's roll: within this either way of zero.
MOST_RESOURCE = 5
#: The most factions one world holds.
MOST_FACTIONS = 100


class FactionsError(TurnkeeperError):
    """A factions file that does not read, or says something that cannot be."""


class Faction(Strict):
    """One faction: its goal's clock, its resources, holdings, the hexes it covets, its
    relations."""

    name: str
    goal: str
    segments: int = Field(ge=1, le=MOST_SEGMENTS)
    filled: int = Field(0, ge=0, le=MOST_SEGMENTS)
    resources: dict[str, int] = Field(default_factory=dict)
    hexes: tuple[str, ...] = ()
    sites: tuple[str, ...] = ()
    covets: tuple[str, ...] = ()
    rivals: tuple[str, ...] = ()
    allies: tuple[str, ...] = ()

    @property
    def modifier(self) -> int:
        """What its resources add to its roll: their sum."""
        return sum(self.resources.values())

    @property
    def goal_reached(self) -> bool:
        """Its clock is full."""
        return self.filled >= self.segments


class Deed(Strict):
    """What a faction did, at its game time: the referee's until revealed as a rumour."""

    faction: str
    at: int
    text: str


class FactionsFile(Strict):
    """A factions file: the map its hexes are of, and the factions."""

    map: str | None = None
    factions: tuple[Faction, ...] = Field(min_length=1, max_length=MOST_FACTIONS)

    def faction(self, name: str) -> Faction:
        """The faction called ``name`` (in any case); one error naming those there are."""
        key = name.casefold()
        for faction in self.factions:
            if faction.name.casefold() == key:
                return faction
        names = ", ".join(f.name for f in self.factions)
        raise TurnkeeperError(f"no faction called {name!r} (the factions: {names})")

    def holder(self, hex: str) -> Faction | None:
        """The faction that holds ``hex``, if one does."""
        return next((f for f in self.factions if hex in f.hexes), None)


class Factions(FactionsFile):
    """The world's factions as the month turns leave them, and every deed, in order."""

    deeds: tuple[Deed, ...] = ()

    def with_faction(self, faction: Faction) -> Factions:
        """These factions with ``faction`` (of the same name) as given."""
        kept = tuple(faction if f.name == faction.name else f for f in self.factions)
        return self.model_copy(update={"factions": kept})

    def deeds_of(self, name: str) -> tuple[Deed, ...]:
        """The deeds of the faction called ``name``, first first."""
        return tuple(d for d in self.deeds if d.faction == name)


def parse_factions(text: str, shown: str = "<factions>") -> FactionsFile:
    """Read a factions file's TOML text; ``shown`` names the file in messages."""
    return factions_from_data(parse_toml(text, shown, FactionsError), shown)


def factions_from_data(data: Mapping[str, Any], shown: str = "<factions>") -> FactionsFile:
    """Check read factions data against the format: one :class:`FactionsError` if broken."""
    try:
        # strictly: `segments = "6"` is a slip, not 6 (a file's lists are the model's tuples)
        world = FactionsFile.model_validate(_tuples(dict(data)), strict=True)
    except ValidationError as error:
        first = first_error(error.errors())
        more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
        message = str(first["msg"]).removeprefix("Value error, ")
        loc = tuple(first["loc"])
        if first["type"] == "extra_forbidden":
            message = unknown_key(loc[-1], keys_at(FactionsFile, loc[:-1]))
        elif first["type"] == "missing":
            message = "missing: this key is required"
        where = ".".join(str(part) for part in loc) or "(top level)"
        raise FactionsError(f"{shown}: {where}: {message}{more}") from None
    _check(world, shown)
    return world


def _tuples(data: Any) -> Any:
    """``data`` with its lists as tuples, all the way down."""
    if isinstance(data, list):
        return tuple(_tuples(item) for item in data)
    if isinstance(data, dict):
        return {key: _tuples(value) for key, value in data.items()}
    return data


def _check(world: FactionsFile, shown: str) -> None:
    """What the schema cannot say: names printable and one of each, hexes labels of a map,
    each held by one faction at most, relations naming other factions of the file."""
    if world.map is not None:
        check_name(world.map, f"{shown}: map", FactionsError)
    names: dict[str, str] = {}
    holders: dict[str, str] = {}
    for index, faction in enumerate(world.factions):
        at = f"{shown}: factions.{index}"
        check_name(faction.name, f"{at}.name", FactionsError)
        if faction.name.casefold() in names:
            raise FactionsError(f"{at}.name: a second faction called {faction.name!r}")
        names[faction.name.casefold()] = faction.name
        if faction.filled > faction.segments:
            raise FactionsError(
                f"{at}.filled: {faction.filled} of a clock of {faction.segments} segments"
            )
        for resource, value in faction.resources.items():
            check_name(resource, f"{at}.resources", FactionsError)
            if abs(value) > MOST_RESOURCE:
                raise FactionsError(
                    f"{at}.resources.{resource}: {value}; a resource is a modifier from "
                    f"-{MOST_RESOURCE} to {MOST_RESOURCE}"
                )
        for key in ("hexes", "covets"):
            for label in getattr(faction, key):
                _check_label(label, f"{at}.{key}")
        for site in faction.sites:
            check_name(site, f"{at}.sites", FactionsError)
        for label in faction.hexes:
            if label in holders:
                raise FactionsError(
                    f"{at}.hexes: hex {label} is held by {holders[label]} already: a hex has "
                    "one holder"
                )
            holders[label] = faction.name
        if (faction.hexes or faction.covets) and world.map is None:
            raise FactionsError(f"{shown}: map: name the map the factions' hexes are of")
    for index, faction in enumerate(world.factions):
        for key in ("rivals", "allies"):
            for other in getattr(faction, key):
                known = names.get(other.casefold())
                if known is None or known == faction.name:
                    listed = ", ".join(n for n in names.values() if n != faction.name)
                    raise FactionsError(
                        f"{shown}: factions.{index}.{key}: {other!r} is no other faction of "
                        f"the file ({listed or 'there is none'})"
                    )


def _check_label(label: str, where: str) -> None:
    try:
        ok = Hex.from_label(label).label == label
    except TurnkeeperError:
        ok = False
    if not ok:
        raise FactionsError(f"{where}: {label!r} is not a hex label such as 0304")
