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

from turnkeeper.campaign import AddSupply, Damage, Heal, Note, UseSupply, Visibility
from turnkeeper.cli.app import JsonOption, console, emit
from turnkeeper.cli.options import CampaignOption, DbOption, DiceOption
from turnkeeper.cli.runner import open_campaigns, run
from turnkeeper.errors import IllegalCommandError

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

supply_app = typer.Typer(
    help="The party's supplies by hand: use them (a usage die rolls) or add found ones."
    "\n\nExample: `turnkeeper supply use torches`.",
    no_args_is_help=True,
)
verbs.add_typer(supply_app, name="supply")
party_app = typer.Typer(
    help="The party: who is in it and how they fare.\n\nExample: `turnkeeper party show`.",
    no_args_is_help=True,
)
verbs.add_typer(party_app, name="party")

ReasonOption = typer.Option("", "--reason", "-r", help="Why, for the record: 'pit trap'.")


@verbs.command("damage")
def damage_command(
    target: str = typer.Argument(..., help="A character, a monster or, in a fight, a foe."),
    amount: str = typer.Argument(..., help="Hit points lost: a number, or dice such as 2d6."),
    reason: str = ReasonOption,
    dice: str | None = DiceOption,
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Wound a character or a monster by hand: a trap, a fall, a spell [PG-HP-1].

    The dice are kept with the wound; in a fight, the fight's tracker takes it.

    Example: `turnkeeper damage Bea 2d6 --reason "pit trap"`.
    """
    run(db, campaign, Damage(target, amount, reason), as_json, dice, lines=True)


@verbs.command("heal")
def heal_command(
    target: str = typer.Argument(..., help="A character or a monster."),
    amount: str = typer.Argument(..., help="Hit points healed: a number, or dice such as 1d6+1."),
    reason: str = ReasonOption,
    dice: str | None = DiceOption,
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Heal a character or a monster by hand, never above its most hit points.

    Example: `turnkeeper heal Aldo 1d6+1 --reason "potion of healing"`.
    """
    run(db, campaign, Heal(target, amount, reason), as_json, dice, lines=True)


@supply_app.command("use")
def supply_use(
    item: str = typer.Argument(..., help="A supply of the party: torches, rations, arrows..."),
    amount: int = typer.Option(1, "--amount", "-n", min=1, help="How many uses."),
    dice: str | None = DiceOption,
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Use a supply: a counted one goes down, a usage die is rolled [PG-USE-1].

    Example: `turnkeeper supply use arrows` rolls the arrows' usage die.
    """
    run(db, campaign, UseSupply(item, amount), as_json, dice, lines=True)


@supply_app.command("add")
def supply_add(
    item: str = typer.Argument(..., help="The supply: torches, rations, oil..."),
    amount: int = typer.Option(0, "--amount", "-n", min=0, help="How many found or bought."),
    die: str | None = typer.Option(
        None, "--die", help="Give a usage-die supply a fresh die instead, e.g. d8 [PG-USE-1]."
    ),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Add found or bought supplies, or give a usage-die supply a fresh die.

    Example: `turnkeeper supply add torches -n 3`;
    `turnkeeper supply add arrows --die d10`.
    """
    if amount == 0 and die is None:
        raise IllegalCommandError("say how many with --amount N, or give a usage die with --die")
    run(db, campaign, AddSupply(item, amount, die), as_json, lines=True)


@verbs.command("note")
def note_command(
    text: str = typer.Argument(..., help="The note, as it goes into the time record."),
    referee: bool = typer.Option(
        False, "--referee", help="For the referee's eyes only; the players never see it."
    ),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Write a note into the time record, for the whole table or the referee alone.

    Example: `turnkeeper note "the goblins fled east" --referee`.
    """
    visibility = Visibility.REFEREE if referee else Visibility.PARTY
    run(db, campaign, Note(text, visibility), as_json, lines=True)


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
