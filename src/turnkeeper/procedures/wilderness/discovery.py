"""Discovery: what the party learns of a hex's features (TP-DISC-1 to TP-DISC-3).

- TP-DISC-1: overt features are known on entering a hex; landmarks among them are seen from
  ``wilderness.landmark_sight_hexes`` (2) hexes away unless a hex on the line between blocks
  the view (high mountains, deep forest, or a map override such as canopy).
- TP-DISC-2: hidden features are found by stumbling on them (the wilderness die's Hidden
  Site face), one at random for 1 TP of searching, or a named one for 2 TP.
- TP-DISC-3: secret features are found only by a whole day of searching, begun before any
  TP of the day is spent. The project's default: that day also turns up every hidden feature.

Spending the TP is the wilderness procedure's job; this module says what is found.
"""

from __future__ import annotations

from functools import lru_cache
from typing import ClassVar, Literal

from turnkeeper.dice import DiceSource, roll
from turnkeeper.frozen import Same
from turnkeeper.kernel.events import Event, NoteMade, RollRecord, Shown, Visibility
from turnkeeper.kernel.state import CampaignState, wilderness_of, with_wilderness
from turnkeeper.kernel.wilderness_state import TRACK_HEXES, WildernessState
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import Concealment, Feature, HexMap

How = Literal["stumbled", "search", "named_search", "all_day"]


def landmarks_in_sight(hexmap: HexMap, at: Hex, radius: int = 2) -> list[tuple[Hex, Feature]]:
    """TP-DISC-1: landmarks within ``radius`` hexes whose line of sight nothing blocks.

    Only the hexes strictly between the party and the landmark can block it: a landmark on
    a high peak is seen, a landmark behind one is not.

    >>> import numpy as np
    >>> tower = Feature(id="t", name="Tower", landmark=True)
    >>> m = HexMap.build("v", np.array([[0, 7, 0]], np.uint8), features={Hex(2, -1): (tower,)})
    >>> landmarks_in_sight(m, Hex(0, 0)), [f.id for _, f in landmarks_in_sight(m, Hex(1, 0))]
    ([], ['t'])
    """
    return list(_landmarks_in_sight(Same(hexmap), at, radius))


# A map never changes: a journey asks at every hex it enters, and again for the lost
# check; a journey played again (a replay, a simulation's seeds) asks the same. Each map's
# answer for a hex is worked out once.
@lru_cache(maxsize=1024)
def _landmarks_in_sight(key: Same[HexMap], at: Hex, radius: int) -> tuple[tuple[Hex, Feature], ...]:
    hexmap = key.it
    out: list[tuple[Hex, Feature]] = []
    # Asked at every hex a party enters: where the map has fewer featured hexes than the
    # hexes in sight, none of them near is nothing to see, without going round the rings.
    featured = hexmap.features
    if len(featured) <= 1 + 3 * radius * (radius + 1) and all(
        at.distance(h) > radius for h in featured
    ):
        return ()
    for hex_ in at.within(radius):
        if hex_ not in hexmap:
            continue
        marks = [
            f
            for f in hexmap.features.get(hex_, ())
            if f.landmark and f.visibility is Concealment.OVERT
        ]
        if not marks:
            continue
        between = at.line_to(hex_)[1:-1]
        if any(h in hexmap and hexmap.blocks_view_at(h) for h in between):
            continue
        out.extend((hex_, f) for f in marks)
    return tuple(out)


class HexEntered(Event):
    """The party is in a new hex: its overt features, the landmarks now in sight (TP-DISC-1)."""

    kind: ClassVar[str] = "wilderness.hex_entered"
    shown: ClassVar[Shown] = Shown.PARTY
    hex: Hex
    features: tuple[str, ...] = ()
    landmarks: tuple[str, ...] = ()
    seen: tuple[Hex, ...] = ()
    names: tuple[str, ...] = ()

    def apply(self, state: CampaignState) -> CampaignState:
        wild = wilderness_of(state)
        return with_wilderness(
            state,
            wild.with_(
                position=self.hex,
                track=wild.track
                if self.hex == wild.position
                else (*wild.track, wild.position)[-TRACK_HEXES:],
                visited=wild.visited | {self.hex},
                seen=wild.seen | {self.hex, *self.seen},
                found=wild.found | set(self.features) | set(self.landmarks),
            ),
        )

    def describe(self) -> str:
        text = f"the party is in hex {self.hex.label}"
        return text + (f": {', '.join(self.names)}" if self.names else "")


def enter_hex(wild: WildernessState, hex_: Hex, radius: int = 2) -> HexEntered:
    """The event of arriving in ``hex_``: overt features known, landmarks in sight seen."""
    overt, sighted, seen = _view_from(Same(wild.hexmap), hex_, radius)
    new_marks = [(h, f) for h, f in sighted if f.id not in wild.found]
    names = [f.name for f in overt] + [f"{f.name} (landmark, {h.label})" for h, f in new_marks]
    return HexEntered(
        hex=hex_,
        features=tuple(f.id for f in overt),
        landmarks=tuple(f.id for _, f in sighted),
        seen=seen,
        names=tuple(names),
    )


@lru_cache(maxsize=1024)  # as _landmarks_in_sight: once per map and hex
def _view_from(
    key: Same[HexMap], hex_: Hex, radius: int
) -> tuple[tuple[Feature, ...], tuple[tuple[Hex, Feature], ...], tuple[Hex, ...]]:
    """What the party knows on entering ``hex_``, whoever it is: the hex's overt features,
    the landmarks in sight elsewhere (TP-DISC-1), and every hex it now sees, in order."""
    hexmap = key.it
    overt = tuple(f for f in hexmap.features_at(hex_) if f.visibility is Concealment.OVERT)
    sighted = tuple((h, f) for h, f in _landmarks_in_sight(key, hex_, radius) if h != hex_)
    seen = sorted({n for n in hex_.neighbours() if n in hexmap} | {h for h, _ in sighted})
    return overt, sighted, tuple(seen)


class FeaturesFound(Event):
    """Hidden or secret features found (TP-DISC-2, TP-DISC-3); the party now knows them."""

    kind: ClassVar[str] = "wilderness.features_found"
    shown: ClassVar[Shown] = Shown.PARTY
    hex: Hex
    features: tuple[str, ...]
    names: tuple[str, ...]
    how: How

    def apply(self, state: CampaignState) -> CampaignState:
        wild = wilderness_of(state)
        return with_wilderness(state, wild.with_(found=wild.found | set(self.features)))

    def describe(self) -> str:
        ways = {
            "stumbled": "stumbles on",
            "search": "searches and finds",
            "named_search": "finds what it sought:",
            "all_day": "searches all day and finds",
        }
        return f"the party {ways[self.how]} {', '.join(self.names)} (hex {self.hex.label})"


def unfound(wild: WildernessState, hex_: Hex, kind: Concealment) -> list[Feature]:
    """Features of ``kind`` in the hex that the party has not found yet, in map order."""
    return [
        f for f in wild.hexmap.features_at(hex_) if f.visibility is kind and f.id not in wild.found
    ]


def _nothing(why: str) -> list[Event]:
    return [
        NoteMade(text="the party finds nothing"),
        NoteMade(text=why, visibility=Visibility.REFEREE),
    ]


def find_one_hidden(state: CampaignState, dice: DiceSource, how: How) -> list[Event]:
    """TP-DISC-2: one hidden feature of the party's hex, at random (the die picks it)."""
    wild = wilderness_of(state)
    hidden = unfound(wild, wild.position, Concealment.HIDDEN)
    if not hidden:
        return _nothing(f"no unfound hidden feature in hex {wild.position.label}")
    rolls: tuple[RollRecord, ...] = ()
    chosen = hidden[0]
    if len(hidden) > 1:
        pick = roll(f"d{len(hidden)}", dice)
        chosen, rolls = hidden[pick.total - 1], (RollRecord.of(pick),)
    return [
        FeaturesFound(
            hex=wild.position, features=(chosen.id,), names=(chosen.name,), how=how, rolls=rolls
        )
    ]


def find_named(state: CampaignState, wanted: str) -> list[Event]:
    """TP-DISC-2: the hidden feature the party seeks by name or id, if it is in this hex."""
    wild = wilderness_of(state)
    key = wanted.strip().lower()
    for feature in wild.hexmap.features_at(wild.position):
        if key not in (feature.id.lower(), feature.name.lower()):
            continue
        if feature.id in wild.found:
            return _nothing(f"{feature.name} is already known")
        if feature.visibility is Concealment.SECRET:
            return _nothing(f"{feature.name} is secret: only a whole day's search finds it")
        return [
            FeaturesFound(
                hex=wild.position, features=(feature.id,), names=(feature.name,), how="named_search"
            )
        ]
    return _nothing(f"no feature {wanted!r} in hex {wild.position.label}")


def find_all_day(state: CampaignState) -> list[Event]:
    """TP-DISC-3: a whole day's search finds the hex's secret (and hidden) features."""
    wild = wilderness_of(state)
    found = unfound(wild, wild.position, Concealment.SECRET)
    found += unfound(wild, wild.position, Concealment.HIDDEN)
    if not found:
        return _nothing(f"nothing hidden or secret is left in hex {wild.position.label}")
    return [
        FeaturesFound(
            hex=wild.position,
            features=tuple(f.id for f in found),
            names=tuple(f.name for f in found),
            how="all_day",
        )
    ]


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    HexEntered,
    FeaturesFound,
)
