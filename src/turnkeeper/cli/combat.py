"""CLI verbs: ``combat start|status|round|declare|resolve|attack|check|save|pin|end``.

A fight runs inside the current campaign: the party joins it, each round moves the clock
on, every roll is in the journal, and ``--dice`` takes the faces of physical dice instead
of seeded ones. ``simulate fight`` (many fights at once, no campaign) is in ``cli.simulate``.
"""

from __future__ import annotations

from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from turnkeeper.cli.from_table import attach
from turnkeeper.cli.options import CampaignOption, DbOption
from turnkeeper.cli.output import JsonOption, console, emit
from turnkeeper.cli.runner import open_campaigns
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import CombatState, Side
from turnkeeper.procedures.combat.actions import held
from turnkeeper.rules.schema import Ruleset

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

combat_app = typer.Typer(
    help="Run a fight: rounds, initiative, declarations, attacks.\n\n"
    "Example: `turnkeeper combat start --foes examples/foes.toml`.",
    no_args_is_help=True,
)
verbs.add_typer(combat_app, name="combat")


def _current(db: str | None, campaign: str | None) -> tuple[str, CombatState, Ruleset]:
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        state = campaigns.state(name)
    if state.combat is None:
        raise IllegalCommandError("no combat in this campaign: start one with `combat start`")
    return name, state.combat, state.ruleset


def combat_data(combat: CombatState) -> dict[str, Any]:
    """The fight as JSON-able data."""
    data: dict[str, Any] = combat.model_dump(mode="json")
    data["standing"] = {
        side.value: [c.name for c in combat.members(side) if c.standing] for side in Side
    }
    return data


def _render(combat: CombatState, rules: Ruleset) -> None:
    table = Table(box=None, pad_edge=False)
    for column in ("name", "side", "hp", "ac", "conditions", "in melee with", "declared"):
        table.add_column(column)
    for c in combat.combatants:
        declared = combat.declaration(c.name)
        done = " (done)" if c.name in combat.acted else ""
        if declared is not None and held(combat, declared, rules):
            done = " (held: the other side announces first)"
        cells = (
            c.name,
            c.side.value,
            f"{c.hp}/{c.max_hp}",
            str(c.ac),
            ", ".join(sorted(x.value for x in c.conditions)),
            ", ".join(sorted(c.melee_with)),
            ", ".join(str(a) for a in declared.actions) + done if declared else "",
        )
        table.add_row(*(Text(cell) for cell in cells))  # names are the user's, never markup
    who = combat.initiative.value if combat.initiative else "simultaneous"
    face = f" · face {combat.face}" if combat.face else ""
    order = " → ".join("+".join(beat) for beat in combat.order)
    console().print(
        f"[bold]round {combat.round}[/] · {combat.phase.value} · initiative {who}{face}"
        + (f" · {combat.seconds} s" if combat.seconds else ""),
        highlight=False,
    )
    if order:
        console().print(Text(f"order: {order}", style="dim"), highlight=False)
    console().print(table)


@combat_app.command("status")
def status(
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """The fight: round, initiative, order, every combatant's hit points and conditions.

    Example: `turnkeeper combat status`.
    """
    name, combat, rules = _current(db, campaign)
    emit(
        {"campaign": name, "combat": combat_data(combat)},
        as_json,
        lambda: _render(combat, rules),
    )


attach(combat_app, "combat")
