"""CLI verbs of the wilderness: ``travel``, ``travel cost``, ``camp``, ``search``, ``route``,
``weather`` (issue 5; rules TP-WIL-*, TP-WENC-*, TP-DISC-*, TP-LOST-1).

``turnkeeper travel ne`` (or a hex, or a found feature) spends the day's travel points watch
by watch, with the wilderness die on its schedule; ``turnkeeper camp`` ends the day. The
referee sees every roll; ``--player`` shows what the party perceives.
``turnkeeper travel cost --terrain hills --party mounted`` needs no campaign.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from turnkeeper.cli.from_table import DefaultVerb, attach
from turnkeeper.cli.maps import (
    campaign_map,
    check_picture,
    drawn_at,
    exact_tp,
    read_map,
    wilderness_details,
    wilderness_where,
    write_picture,
)
from turnkeeper.cli.options import (
    CampaignOption,
    DbOption,
    ForceOption,
    PngSizeOption,
    check_out,
    ruleset_files,
)
from turnkeeper.cli.output import JsonOption, console, emit, say
from turnkeeper.cli.runner import open_campaigns
from turnkeeper.dice import format_mixed
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.state import wilderness_of
from turnkeeper.kernel.wilderness_state import DEFAULT_REGION
from turnkeeper.procedures.wilderness.costs import best_route, hex_cost_for, travel_conditions
from turnkeeper.rules.loader import find_ruleset
from turnkeeper.verbs import Place
from turnkeeper.words import counted
from turnkeeper.world.hexes import Hex
from turnkeeper.world.svg import render_svg

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

PartyOption = typer.Option(
    None,
    "--party",
    help="How the party travels, comma-separated: mounted, carriage, over 20 (people) or over 50.",
)
VesselOption = typer.Option(
    None,
    "--vessel",
    help="A vessel of the ruleset, e.g. a river boat (`river_boat`); '' goes on foot.",
)


def _party(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    return tuple(p.strip() for p in text.split(",") if p.strip() and p.strip() != "on_foot")


def _cost(
    terrain: str,
    road: str,
    weather: str,
    party: str | None,
    vessel: str | None,
    ruleset: str,
    as_json: bool,
) -> None:
    rules = find_ruleset(ruleset)
    conditions = _party(party) or ()
    cost = hex_cost_for(rules, terrain, road, weather, conditions, vessel or None)
    data = {
        "tp_per_hex": None if cost.tp_per_hex is None else exact_tp(cost.tp_per_hex),
        "tp_spent": None if cost.tp_spent is None else exact_tp(cost.tp_spent),
        "impassable": cost.impassable,
        "terrain": terrain,
        "road": road,
        "weather": weather,
        "party": list(conditions) or ["on_foot"],
        "vessel": vessel or None,
    }

    def render() -> None:
        if cost.impassable:
            console().print(f"{terrain}: impassable (TP-WIL-8)")
        else:
            assert cost.tp_per_hex is not None
            console().print(f"{terrain}: {format_mixed(cost.tp_per_hex)} TP per hex")

    emit(data, as_json, render)


travel_app = typer.Typer(
    cls=DefaultVerb,
    help="Travel or explore toward a hex; `travel cost` prints what a hex costs [TP-WIL-6]."
    "\n\nExample: `turnkeeper travel ne`; `turnkeeper travel cost --terrain hills`.",
)
verbs.add_typer(travel_app, name="travel")


@travel_app.command("cost")
def travel_cost_command(
    terrain: str = typer.Option(..., "--terrain", help="The terrain, e.g. hills."),
    road: str = typer.Option("none", "--road", help="none, road or trail."),
    weather: str = typer.Option("clear", "--weather", help="The weather, e.g. rain."),
    party: str | None = PartyOption,
    vessel: str | None = VesselOption,
    ruleset: str = typer.Option("tp", "--ruleset", help="The ruleset."),
    as_json: bool = JsonOption,
) -> None:
    """What one hex costs in travel points, with no campaign [TP-WIL-6].

    Example: `turnkeeper travel cost --terrain hills --party mounted`.
    """
    _cost(terrain, road, weather, party, vessel, ruleset, as_json)


weather_app = typer.Typer(
    help="Show the weather per region; `weather set` sets it, `weather roll` rolls it."
    "\n\nExample: `turnkeeper weather`; `turnkeeper weather set rain`.",
    invoke_without_command=True,
)
verbs.add_typer(weather_app, name="weather")


@weather_app.callback()
def weather_command(
    ctx: typer.Context,
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """Show the weather per region; `weather set` sets it, `weather roll` rolls it.

    Example: `turnkeeper weather`; `turnkeeper weather set rain`.
    """
    if ctx.invoked_subcommand is not None:
        return
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        wild = wilderness_of(campaigns.state(name))
    data = {"campaign": name, "here": wild.region_of(wild.position), "weather": wild.weather}

    def render() -> None:
        for key, value in sorted(wild.weather.items()):
            mark = " (the party is here)" if key == data["here"] else ""
            say(f"{key}: {value.replace('_', ' ')}{mark}")  # region names are the map's

    emit(data, as_json, render)


def _route_hex(text: str, here: Hex | None, what: str) -> Hex:
    """A route's end: a hex label or q,r, or ``here`` for the party's hex."""
    if text.strip().lower() != "here":
        return Hex.parse(text)
    if here is None:
        raise IllegalCommandError(
            f"route: {what} 'here' is the party's hex; with --map there is no party: give a hex"
        )
    return here


@verbs.command("route")
def route_command(
    start: str = typer.Argument(..., help="From this hex (0304 or q,r), or 'here'."),
    goal: str = typer.Argument(..., help="To this hex, or 'here'."),
    party: str | None = PartyOption,
    vessel: str | None = VesselOption,
    map_file: Annotated[
        Path | None,
        typer.Option("--map", help="Plan on this map file, not the campaign's (clear weather)."),
    ] = None,
    ruleset: str = typer.Option("tp", "--ruleset", help="With --map: the ruleset."),
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "--svg", help="Draw the route on the map, to this SVG (or .png) file."
        ),
    ] = None,
    png_size: int | None = PngSizeOption,
    force: bool = ForceOption,
    player: bool = typer.Option(
        False,
        "--player",
        help="The party's plan: over the hexes it has seen or visited only, drawn on its map.",
    ),
    db: str | None = DbOption,
    campaign: str | None = CampaignOption,
    as_json: bool = JsonOption,
) -> None:
    """The route of fewest days, then fewest travel points, under the current weather
    [TP-WIL-6..8].

    Example: `turnkeeper route here 0808 --out route.svg`.
    """
    if out is not None:
        check_out(out, "drawing", force, db, [(map_file, "map file"), *ruleset_files(ruleset)])
        check_picture(out, png_size)
    known: frozenset[Hex] | None = None
    found: frozenset[str] | None = None
    here: Hex | None = None
    if map_file is not None:
        if player:
            raise IllegalCommandError(
                "route: --player draws what a campaign's party knows; a --map file has no "
                "party: leave out --player or --map"
            )
        hexmap, rules, weather = (
            read_map(map_file),
            find_ruleset(ruleset),
            {DEFAULT_REGION: "clear"},
        )
        conditions = _party(party) or ()
        chosen = vessel or None
    else:
        drawn = campaign_map(db, campaign)
        wild = drawn.wild
        hexmap, rules, weather = wild.hexmap, drawn.state.ruleset, wild.weather
        named = wild.party if party is None else (_party(party) or ())
        conditions = travel_conditions(rules, named, len(drawn.state.party.living))
        chosen = wild.vessel if vessel is None else (vessel or None)
        here, known, found = wild.position, drawn.known, wild.found
    first = _route_hex(start, here, "FROM")
    # The party's view plans over the ground it knows only: the route reveals nothing unseen.
    planned_over = known if player else None
    route = best_route(
        rules,
        hexmap,
        first,
        _route_hex(goal, here, "TO"),
        weather,
        conditions,
        chosen,
        known=planned_over,
    )
    data: dict[str, Any] = {
        "from": first.label,
        "to": route.hexes[-1].label,
        "hexes": route.labels(),
        "tp": exact_tp(route.tp),
        "days": route.days,
        "party": list(conditions) or ["on_foot"],
        "vessel": chosen,
    }
    if player:
        data["planned_over"] = "the hexes the party has seen or visited"
    if map_file is None:
        data["campaign"] = drawn.campaign
    if out is not None:
        pixels = write_picture(
            lambda zoom: render_svg(
                hexmap,
                party_at=here,
                known=known if player else None,
                route=route.hexes,
                route_note=f"{route.days} day{'' if route.days == 1 else 's'}, "
                f"{format_mixed(route.tp)} TP",
                route_marks=[
                    (hex_, f"day {day}: {format_mixed(tp)} TP")
                    for day, (hex_, tp) in enumerate(route.day_ends, start=1)
                ],
                player=player,
                found_features=found if player else None,
                zoom=zoom,
            ),
            out,
            png_size,
        ).pixels
        data["svg"] = str(out)
        if pixels is not None:
            data["pixels"] = list(pixels)

    def render() -> None:
        steps = " -> ".join(data["hexes"])
        console().print(f"{steps}\n{format_mixed(route.tp)} TP, {counted(route.days, 'day')}")
        if out is not None:
            view = "player" if player else "referee"
            say(f"wrote {out} ({view} view{drawn_at(data.get('pixels'))})")
        if player:
            console().print("planned over the hexes the party has seen or visited only")

    emit(data, as_json, render)


# the table's verbs of the wilderness not written above: explore, search, camp, and the
# weather's set and roll
attach(verbs, place=Place.WILDERNESS, details=wilderness_details, where=wilderness_where)
attach(
    travel_app,
    "travel",
    details=wilderness_details,
    where=wilderness_where,
    epilog="`turnkeeper travel cost --terrain hills` prints what a hex costs, with no campaign.",
)
attach(weather_app, "weather", details=wilderness_details, where=wilderness_where)
