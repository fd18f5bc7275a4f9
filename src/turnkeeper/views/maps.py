"""The wilderness map as each role sees it: the referee's whole drawing, the party's known
hexes, and the smaller drawing a page sends on every command."""

from __future__ import annotations

from turnkeeper.campaign import CampaignState
from turnkeeper.errors import NotFoundError
from turnkeeper.world.drawing import LABELLED_HEXES
from turnkeeper.world.hexes import Hex
from turnkeeper.world.svg import render_svg

PAGE_WINDOW_HEXES = 10_000
"""Maps of more hexes than this are drawn on a page as a window around the party."""

PAGE_WINDOW_RADIUS = 15
"""The radius, in hexes, of the window a page draws of a large map."""

#: A page's map writes hex numbers and symbols when it draws at most this many hexes: a page
#: is sent again on every command, and a phone reads it.
PAGE_LABELLED_HEXES = 4000

MAX_WINDOW_RADIUS = 500
"""The widest window the API draws on request, in hexes of radius."""


def map_svg(
    state: CampaignState,
    player: bool,
    around: Hex | None = None,
    radius: int | None = None,
    labels_up_to: int = LABELLED_HEXES,
) -> str:
    """The wilderness map as SVG: the referee's whole drawing, or with ``player`` only the
    hexes the party has seen or been in and the features it has found (as ``map show``);
    ``around`` and ``radius`` draw only a window (as ``map show --around --radius``)."""
    wild = state.wilderness
    if wild is None:
        raise NotFoundError(
            f"campaign {state.name!r} has no wilderness map: load one with "
            "`turnkeeper map load FILE --at HEX`"
        )
    if around is not None and around not in wild.hexmap:
        raise NotFoundError(f"hex {around.label} is off the map {wild.hexmap.name!r}")
    known = wild.seen | wild.visited | {wild.position}
    return render_svg(
        wild.hexmap,
        wild.position,
        known,
        player=player,
        found_features=set(wild.found),
        around=around,
        radius=radius,
        track=wild.track,
        labels_up_to=labels_up_to,
    )


def page_map_svg(state: CampaignState, player: bool) -> str:
    """The map a page shows: whole, or for a map of more than :data:`PAGE_WINDOW_HEXES`
    hexes a window of :data:`PAGE_WINDOW_RADIUS` around the party, so a page stays small
    (a 1000 x 1000 map drawn whole is megabytes; the API's map.svg still gives all of it)."""
    wild = state.wilderness
    if wild is not None and wild.hexmap.width * wild.hexmap.height > PAGE_WINDOW_HEXES:
        return map_svg(
            state,
            player,
            around=wild.position,
            radius=PAGE_WINDOW_RADIUS,
            labels_up_to=PAGE_LABELLED_HEXES,
        )
    return map_svg(state, player, labels_up_to=PAGE_LABELLED_HEXES)
