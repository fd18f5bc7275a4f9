"""CLI verbs for the moves a referee makes by hand: ``damage``, ``heal``, ``supply``, ``note``
and ``party``.

Each one that changes the game is a command recorded in the journal, with its dice: a trap's
``damage Bea 2d6 --reason "pit trap"`` rolls 2d6 (or takes ``--dice`` typed in from the
table) and the roll is kept beside the wound.
"""

from __future__ import annotations

import typer
from rich.markup import escape
from rich.table import Table

from turnkeeper.cli.app import JsonOption, console, emit
from turnkeeper.cli.from_table import attach
from turnkeeper.cli.options import CampaignOption, DbOption
from turnkeeper.cli.runner import open_campaigns

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

supply_app = typer.Typer(
    help="The party's supplies by hand: use them (a usage die rolls) or add found ones."
    "\n\nExample: `turnkeeper supply use torches`.",
    no_args_is_help=True,
)
verbs.add_typer(supply_app, name="supply")
attach(supply_app, "supply")
party_app = typer.Typer(
    help="The party: who is in it and how they fare.\n\nExample: `turnkeeper party show`.",
    no_args_is_help=True,
)
verbs.add_typer(party_app, name="party")


@party_app.command("show")
def party_show(
    campaign: str | None = CampaignOption, db: str | None = DbOption, as_json: bool = JsonOption
) -> None:
    """The party now: each character's hit points, armour, level and conditions, and supplies.

    Example: `turnkeeper party show`.
    """
    with open_campaigns(db) as campaigns:
        state = campaigns.state(campaigns.resolve(campaign))
    characters = [
        {
            "name": c.name,
            "hp": c.hp,
            "max_hp": c.max_hp,
            "ac": c.ac,
            "level": c.level,
            "class": c.character_class,
            "conditions": list(c.conditions),
        }
        for c in state.party.characters
    ]
    supplies = {**state.supplies.counted, **{k: f"d{v}" for k, v in state.supplies.dice.items()}}
    data = {"campaign": state.name, "characters": characters, "supplies": supplies}

    def render() -> None:
        table = Table(title=f"{state.name}: the party")
        for column in ("character", "hp", "AC", "level", "conditions"):
            table.add_column(column, justify="left" if column == "character" else "right")
        for c in characters:
            table.add_row(
                escape(str(c["name"])),
                f"{c['hp']}/{c['max_hp']}",
                str(c["ac"]),
                f"{c['class'] or ''} {c['level']}".strip(),
                escape(", ".join(c["conditions"]) or "-"),  # type: ignore[arg-type]
            )
        console().print(table)
        shown = ", ".join(f"{item} {amount}" for item, amount in supplies.items()) or "none"
        console().print(f"supplies: {escape(shown)}", highlight=False)

    emit(data, as_json, render)
