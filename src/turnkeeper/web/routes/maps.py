"""The wilderness map: drawn as SVG, and a route to a clicked hex priced; both are seconds
of work on a big map, so they run in a worker process (:mod:`turnkeeper.web.lanes`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from turnkeeper.dice import format_mixed
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.wilderness.costs import best_route, conditions_of
from turnkeeper.views.maps import MAX_WINDOW_RADIUS, PAGE_WINDOW_RADIUS, map_svg
from turnkeeper.web.core import Reader, Referee, Token, lived, on, seat_of, snapshot
from turnkeeper.web.tokens import Role
from turnkeeper.world.drawing import centre
from turnkeeper.world.hexes import Hex

router = APIRouter()


@router.get(
    "/api/campaigns/{name}/map.svg",
    response_class=Response,
    responses={200: {"content": {"image/svg+xml": {}}}},
    summary="The wilderness map as SVG: the referee's, or only what the party knows",
)
async def get_map(
    request: Request,
    name: str,
    role: Reader,
    token: Token,
    around: Annotated[
        str | None,
        Query(max_length=12, description="Draw only a window around this hex: 0304."),
    ] = None,
    radius: Annotated[
        int, Query(ge=0, le=MAX_WINDOW_RADIUS, description="The window's radius in hexes.")
    ] = PAGE_WINDOW_RADIUS,
) -> Response:
    middle = Hex.parse(around) if around is not None else None
    state = await on(request, name, lambda c: c.state(name), quick=True)
    # drawn outside the lock (the state does not change) and in a worker process: a
    # large map is seconds of work that would hold every other campaign's commands
    player = role is Role.PLAYER
    seen = lived(state, seat_of(request, state, name, token, role))
    svg = await request.app.state.lanes.run(
        map_svg, seen, player=player, around=middle, radius=radius
    )
    return Response(svg, media_type="image/svg+xml")


@router.get(
    "/campaigns/{name}/route",
    summary="The route from the party's hex to a hex clicked on the map: its days and TP",
)
async def route_preview(
    request: Request, name: str, role: Referee, to: Annotated[str, Query(max_length=20)]
) -> dict[str, Any]:
    state = await snapshot(request.app, name)
    wild = state.wilderness
    if wild is None:
        raise IllegalCommandError("the party is not in the wilderness: no route to price")
    goal = Hex.parse(to)
    if goal == wild.position:
        return {"to": goal.label, "days": 0, "tp": "0", "hexes": 0}
    # in a worker process: a route across a big map is seconds of work
    route = await request.app.state.lanes.run(
        best_route,
        state.ruleset,
        wild.hexmap,
        wild.position,
        goal,
        wild.weather,
        conditions_of(state),
        wild.vessel,
    )
    return {
        "to": goal.label,
        "days": route.days,
        "tp": format_mixed(route.tp),
        "hexes": len(route.hexes) - 1,
        # TP-WIL-10: the move that works there, travel to a known hex, else explore
        "travel": wild.is_known_destination(goal),
        # the route as the map draws it: the hexes' centres, in the drawing's units
        "line": " ".join(f"{x:.1f},{y:.1f}" for x, y in map(centre, route.hexes)),
    }
