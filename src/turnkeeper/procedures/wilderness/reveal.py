"""Revealing the map by hand: the referee tells the party of hexes and features (a rumour of a
ruined tower, a map bought in town), or takes them off the party's map again.

What the party knows is what its map shows (TP-WIL-10: known hexes and found features are
travel destinations); a reveal is recorded in the journal for the whole table, a hide for
the referee alone. A feature revealed shows its hex too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.kernel.events import Event, Shown, Visibility
from turnkeeper.kernel.state import CampaignState, wilderness_of, with_wilderness
from turnkeeper.kernel.wilderness_state import WildernessState
from turnkeeper.world.hexes import Hex


@dataclass(frozen=True)
class RevealOnMap:
    """Put hexes and features (by name or id) on the party's map, or take them off it."""

    hexes: tuple[Hex, ...] = ()
    features: tuple[str, ...] = ()
    hide: bool = False


class MapRevealed(Event):
    """Hexes and features the party now knows of (or, ``hidden``, no longer has on its map)."""

    kind: ClassVar[str] = "wilderness.map_revealed"
    shown: ClassVar[Shown] = Shown.CHOSEN
    hexes: tuple[Hex, ...]
    features: tuple[str, ...]
    names: tuple[str, ...]
    hidden: bool = False

    def seen_by(self, state: CampaignState) -> Visibility | None:
        return Visibility.REFEREE if self.hidden else Visibility.PARTY

    def apply(self, state: CampaignState) -> CampaignState:
        wild = wilderness_of(state)
        hexes, features = frozenset(self.hexes), frozenset(self.features)
        if self.hidden:
            kept = frozenset({wild.position})
            changed = wild.with_(
                seen=wild.seen - (hexes - kept),
                visited=wild.visited - (hexes - kept),
                charted=wild.charted - hexes,
                found=wild.found - features,
            )
        else:
            changed = wild.with_(
                seen=wild.seen | hexes, charted=wild.charted | hexes, found=wild.found | features
            )
        return with_wilderness(state, changed)

    def describe(self) -> str:
        what = _listed(self.hexes, self.names)
        if self.hidden:
            return f"taken off the party's map: {what}"
        return f"the party learns of {what}"

    def describe_to_party(self) -> str | None:
        return None if self.hidden else self.describe()


def _listed(hexes: tuple[Hex, ...], names: tuple[str, ...]) -> str:
    parts = []
    if hexes:
        parts.append(("hex " if len(hexes) == 1 else "hexes ") + ", ".join(h.label for h in hexes))
    parts += list(names)
    return " and ".join(parts)


def reveal_on_map(state: CampaignState, command: RevealOnMap) -> list[Event]:
    """The referee reveals (or hides) hexes and features on the party's map."""
    wild = wilderness_of(state)
    if not command.hexes and not command.features:
        raise IllegalCommandError("name a hex (0304) or a feature (--feature 'Ruined Tower')")
    for hex_ in command.hexes:
        if hex_ not in wild.hexmap:
            raise NotFoundError(f"hex {hex_.label} is off the map {wild.map.name!r}")
    ids, names, places = [], [], list(command.hexes)
    for wanted in command.features:
        hex_, feature_id, name = _feature(wild, wanted)
        ids.append(feature_id)
        names.append(name)
        if hex_ not in places and not command.hide:
            places.append(hex_)
    return [
        MapRevealed(
            hexes=tuple(places),
            features=tuple(ids),
            names=tuple(names),
            hidden=command.hide,
            visibility=Visibility.REFEREE if command.hide else Visibility.PARTY,
        )
    ]


def _feature(wild: WildernessState, wanted: str) -> tuple[Hex, str, str]:
    """The feature called ``wanted`` (its name, any case, or its id) and where it lies."""
    key = wanted.strip().casefold()
    for hex_, feature in wild.hexmap.all_features():
        if key in (feature.name.casefold(), feature.id.casefold()):
            return hex_, feature.id, feature.name
    raise NotFoundError(f"no feature called {wanted!r} on the map {wild.map.name!r}")


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (MapRevealed,)
