"""CLI verbs of a site: ``turn`` and the ``site`` group (``site show`` here, the rest from
the verb table: ``site enter|leave|resume|clear``, ``site map note``). The turn's odds are
``odds turn`` (:mod:`turnkeeper.cli.odds`).

``turnkeeper turn`` does a page of bookkeeping in one command: ten minutes pass and the
ruleset's turn procedure runs (the dungeon die, or the wandering check), with every roll in
the journal. The referee sees everything; ``--player`` shows what the characters perceive.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table

from turnkeeper.cli.from_table import attach
from turnkeeper.cli.options import CampaignOption, DbOption, PlayerOption
from turnkeeper.cli.output import JsonOption, console, emit, say, text
from turnkeeper.cli.runner import open_campaigns
from turnkeeper.errors import IllegalCommandError
from turnkeeper.verbs import Place
from turnkeeper.words import counted
from turnkeeper.world.visits import PendingEncounter

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

site_app = typer.Typer(
    help="Enter, leave and look at sites (dungeons, ruins, caves).\n\n"
    "Example: `turnkeeper site enter examples/site.toml`.",
    no_args_is_help=True,
)
verbs.add_typer(site_app, name="site")
map_app = typer.Typer(
    help="The party's own map of the site: what the mapper wrote down [EX-MAP-2].\n\n"
    'Example: `turnkeeper site map note "stairs down, behind the altar"`.',
    no_args_is_help=True,
)
site_app.add_typer(map_app, name="map")


@site_app.command("show")
def site_show(
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    player: bool = PlayerOption,
    as_json: bool = JsonOption,
) -> None:
    """The site the party is in: the referee's whole site, or the party's view.

    Example: `turnkeeper site show --player`.
    """
    with open_campaigns(db) as campaigns:
        state = campaigns.state(campaigns.resolve(campaign))
    visit = state.site
    if visit is None:
        raise IllegalCommandError("the party is not in a site: `turnkeeper site enter FILE`")
    if player:
        data = visit.player_view()
    else:
        data = {
            "site": visit.site.model_dump(mode="json"),
            "where": visit.model_dump(mode="json", exclude={"site", "map_notes", "visited"}),
            "visited": [list(place) for place in visit.visited],
            "party_map": [note.model_dump(mode="json") for note in visit.map_notes],
        }
    emit(data, as_json, lambda: _render_site(data, player))


def _render_site(data: dict[str, Any], player: bool) -> None:
    site, where = data["site"], data["where"]
    info = site if player else site["site"]
    # everything from the site file and the party's notes is printed as text, never markup
    say((info["name"], "bold"), f" ({info['kind']}): {info['description']}")
    say(f"level {where['level']}, area {where['area'] or '-'}, {counted(where['turns'], 'turn')}")
    if player:
        console().print("[dim]the party's view: only the places it has been (EX-MAP-2)[/]")
    else:
        console().print("[bold]true map[/] (referee only)")
    visited = {(place[0], place[1]) for place in data.get("visited", [])}
    for level in site["levels"]:
        described = f": {level['description']}" if level.get("description") else ""
        say((f"level {level['number']} {level['name']}", "bold"), described)
        if player and not level["areas"]:  # entered at no area: nothing of it to list yet
            console().print("  [dim]no area of it entered yet[/]")
            continue
        table = Table(show_lines=False)
        table.add_column("area")
        table.add_column("description")
        if not player:
            table.add_column("visited")
            table.add_column("notes")
        for area in level["areas"]:
            row = [text(f"{area['key']} {area['name']}"), text(area["description"])]
            been = text("yes" if (level["number"], area["key"]) in visited else "")
            table.add_row(*(row if player else [*row, been, text(area["notes"])]))
        console().print(table)
        if not player and level.get("encounters"):
            rows = level["encounters"]["rows"]
            listed = ", ".join(f"{r['roll']}: {r['creature']}" for r in rows)
            say(f"  wandering ({level['encounters']['dice']}): {listed}")
    notes = data["party_map"]
    console().print("[bold]the party's map[/] (as the party recorded it, uncorrected)")
    for note in notes:
        place = f"level {note['level']}" + (f", {note['area']}" if note["area"] else "")
        say(f"  {place}: {note['text']}")
    if not notes:
        console().print("  (no notes)")
    if not player and where.get("encounter"):
        pending = PendingEncounter.model_validate(where["encounter"])
        say(("encounter under way:", "bold red"), f" {pending.told()}")


# the table's verbs of a site: turn, and enter, leave, resume, map note
attach(verbs, place=Place.SITE)
attach(site_app, "site")
attach(map_app, "site", "map")
