"""CLI verbs: ``scene open|spotlight|act|free|gm|give|dread|compromise|status|close``.

Dungeoneers scenes (DG-LOOP-1, DG-SPOT-1 to DG-SPOT-3, DG-ACT-1, DG-RND-1, DG-FREE-1,
DG-MOM-1, DG-DREAD-1) in a stored campaign: each verb is one command in the campaign's
journal, so a scene carries on from one shell command to the next, ``undo`` takes a scene
command back, and a round's end passes campaign time and ticks its countdowns (DG-CD-1).
The campaign's ruleset must have a spotlight (``turnkeeper new NAME --ruleset dg``).
Like the campaign verbs, each takes ``--db`` and ``--campaign``.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from turnkeeper.campaign import CampaignState
from turnkeeper.cli.from_table import attach
from turnkeeper.cli.options import CampaignOption, DbOption
from turnkeeper.cli.output import JsonOption, console, emit
from turnkeeper.cli.runner import open_campaigns

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

scene_app = typer.Typer(
    help="Dungeoneers scenes: spotlight, actions, rounds, momentum and dread.\n\n"
    "Example: `turnkeeper scene open combat --players Aldo,Bea --creatures ogre`.",
    no_args_is_help=True,
)
dread_app = typer.Typer(
    help="The GM's dread pool, spent to enhance the GM's creatures [DG-DREAD-1].\n\n"
    'Example: `turnkeeper scene dread spend 1 "a thicker hide" --creature ogre`.',
    no_args_is_help=True,
)
verbs.add_typer(scene_app, name="scene")
scene_app.add_typer(dread_app, name="dread")


def _status_data(name: str, state: CampaignState) -> dict[str, Any]:
    return {
        "campaign": name,
        "ruleset": state.ruleset.name,
        "date": state.date,
        **state.scenes.model_dump(mode="json"),
    }


def _table_data(name: str, state: CampaignState) -> dict[str, Any]:
    return {"state": _status_data(name, state)}


def _render_status(state: CampaignState) -> None:
    table = state.scenes
    scene = table.scene
    if scene is None:
        console().print("No scene is open.")
    else:
        holder = scene.spotlit or ("the GM" if scene.turn.value == "gm" else "no one yet")
        console().print(
            f"[bold]Scene {scene.number}[/] ({scene.kind.value}), round {scene.round}: "
            f"spotlight with the {scene.turn.value} ({escape(holder)}); "
            f"{scene.elapsed_seconds} s played"
        )
    seats = Table("player", "tokens", "free action used")
    for seat in table.seats:
        used = scene is not None and scene.free_actions_of(seat.name) > 0
        seats.add_row(escape(seat.name), str(seat.tokens), "yes" if used else "")
    if table.seats:
        console().print(seats)
    console().print(f"Dread: {table.dread}")
    for bought in table.bought:
        whom = f" ({escape(bought.creature)})" if bought.creature else ""
        console().print(f"  spent {bought.amount}{whom}: {escape(bought.what)}")


@scene_app.command("status")
def status(
    db: str | None = DbOption, campaign: str | None = CampaignOption, as_json: bool = JsonOption
) -> None:
    """The scene, the spotlight, every player's tokens and the dread pool.

    Example: `turnkeeper scene status`.
    """
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        state = campaigns.state(name)
    emit(_status_data(name, state), as_json, lambda: _render_status(state))


attach(scene_app, "scene", details=_table_data)
attach(dread_app, "scene", "dread", details=_table_data)
