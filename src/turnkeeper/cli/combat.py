"""CLI verbs: ``combat start|status|round|declare|resolve|attack|check|save|pin|end``.

A fight runs inside the current campaign: the party joins it, each round moves the clock
on, every roll is in the journal, and ``--dice`` takes the faces of physical dice instead
of seeded ones. ``simulate fight`` (many fights at once, no campaign) is in ``cli.simulate``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.table import Table
from rich.text import Text

from turnkeeper.cli.app import JsonOption, console, emit
from turnkeeper.cli.from_table import attach
from turnkeeper.cli.options import CampaignOption, DbOption, DiceOption
from turnkeeper.cli.runner import open_campaigns, run
from turnkeeper.errors import IllegalCommandError
from turnkeeper.files import read_text
from turnkeeper.kernel.combat_state import Combatant, CombatState, Side
from turnkeeper.procedures.combat.actions import held
from turnkeeper.procedures.combat.campaign import StartFight
from turnkeeper.procedures.combat.roster import (
    RosterError,
    parse_monster,
    parse_roster,
    parse_side,
    parse_surprised,
)
from turnkeeper.procedures.surprise import Meeting
from turnkeeper.rules.schema import Ruleset

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

combat_app = typer.Typer(
    help="Run a fight: rounds, initiative, declarations, attacks.\n\n"
    "Example: `turnkeeper combat start --foes examples/foes.toml`.",
    no_args_is_help=True,
)
verbs.add_typer(combat_app, name="combat")

_FOES = typer.Option(
    None,
    "--foes",
    help="A foes file (TOML), e.g. examples/foes.toml; its [[allies]] join the party's side "
    "[CB-SIDE-1].",
)
_ALLIES = typer.Option(
    None, "--ally", help='An ally of the party in one line: "Hireling:hp=4,ac=12,str=1".'
)
_MONSTERS = typer.Option(
    None, "--monster", help='A foe in one line: "Goblin:hd=1,hp=4,ac=12,dex=1,count=3".'
)
_AWARE = typer.Option(None, "--aware", help="A side that cannot be surprised.")
_THEN = typer.Option(
    None, "--then", help="A further action, ACTION or ACTION:TARGET (repeat for more)."
)


def _sides(
    files: list[Path], monsters: list[str], allies: list[str]
) -> tuple[tuple[Combatant, ...], tuple[Combatant, ...]]:
    """The allies and the foes a fight brings besides the party (CB-SIDE-1)."""
    joining: list[Combatant] = []
    foes: list[Combatant] = []
    for file in files:
        read = parse_roster(read_text(file, "foes file", RosterError), str(file))
        for combatant in read:
            (foes if combatant.side is Side.OPPOSITION else joining).append(combatant)
    for spec in monsters:
        foes += parse_monster(spec)
    for spec in allies:
        joining += parse_monster(spec, Side.PARTY)
    return tuple(joining), tuple(foes)


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


@combat_app.command("start")
def start(
    foes: list[str] | None = _FOES,
    monster: list[str] | None = _MONSTERS,
    surprise: str | None = typer.Option(
        None,
        "--surprise",
        help="Who is surprised: party, foes, both or none (default: the encounter's, else roll).",
    ),
    ally: list[str] | None = _ALLIES,
    aware: list[str] | None = _AWARE,
    attackers: str | None = typer.Option(
        None, "--attackers", help="The side trying for surprise: party or foes [CB-SUR-1]."
    ),
    meeting: str | None = typer.Option(
        None,
        "--meeting",
        help="How the groups met, for the ruleset to settle surprise: encounter (one comes "
        "suddenly on the other), occupied (the party moved into an occupied place "
        "[EX-SUR-2]), ambush (the foes leap from ambush or lie well hidden [EX-SUR-1]) or "
        "both-unaware (everyone rolls WIS/Scout, any who lose are surprised [EX-SUR-4]).",
    ),
    mode: str | None = typer.Option(
        None,
        "--mode",
        help="The party's movement mode when they met: cautious, swift or running "
        "[EX-SUR-1 to EX-SUR-3] (default: its last turn's in the site, if any).",
    ),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    dice: str | None = DiceOption,
    as_json: bool = JsonOption,
) -> None:
    """Start a fight: the party against foes from a file, the command line or the encounter.

    Example: `turnkeeper combat start --foes examples/foes.toml`;
    `turnkeeper combat start --monster "Rat:hd=1,ac=12,count=3" --surprise foes`;
    `turnkeeper combat start --monster "Ghoul:hd=2" --meeting ambush --mode cautious`.
    """
    allies, opposition = _sides([Path(f) for f in foes or []], monster or [], ally or [])
    surprised = parse_surprised(surprise) if surprise is not None else None
    command = StartFight(
        foes=opposition,
        allies=allies,
        surprised=surprised,
        aware=frozenset(parse_side(a, "--aware") for a in aware or []),
        attackers=parse_side(attackers, "--attackers") if attackers else None,
        meeting=Meeting.parse(meeting, "--meeting") if meeting is not None else None,
        mode=mode.strip().lower() if mode is not None else None,
    )
    run(db, campaign, command, as_json, dice)


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
