"""CLI verbs: ``roll`` (dice notation, rolled by the seeded source or typed in from physical
dice) and ``version``."""

from __future__ import annotations

import secrets
from typing import Any

import typer
from rich.text import Text

from turnkeeper import __version__
from turnkeeper.cli.options import DiceOption, SetOption, set_values, typed_faces
from turnkeeper.cli.output import JsonOption, console, emit
from turnkeeper.dice import (
    DiceSource,
    SeededDice,
    TypedDice,
    parse,
)
from turnkeeper.errors import DiceInputError

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()


@verbs.command()
def version(as_json: bool = JsonOption) -> None:
    """Print turnkeeper's version.

    Example: `turnkeeper version`, or `turnkeeper version --json`.
    """
    emit({"version": __version__}, as_json, lambda: print(__version__))


@verbs.command("roll")
def roll_command(
    expression: str = typer.Argument(
        ...,
        help="Dice notation, e.g. 2d6+1, 4d6kh3, d20+STR, (1d4, 3)kh1; "
        "words after the roll are its comment (d20+5 to hit).",
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed for reproducible dice."),
    dice: str | None = DiceOption,
    set_items: list[str] | None = SetOption,
    as_json: bool = JsonOption,
) -> None:
    """Roll dice notation and show every die and the total.

    The notation is avrae's d20, with its meaning (docs/dice.md): sets, keep and drop,
    rerolls, explosions, comparisons, annotations; words after the roll are its comment.

    Example: `turnkeeper roll 4d6kh3`;
    `turnkeeper roll "d20+STR to hit" --set STR=2 --dice 14`.
    """
    parsed = parse(expression, allow_comments=True)
    values = set_values(set_items)
    faces = typed_faces(dice)
    source: DiceSource
    if faces is not None:
        if seed is not None:
            raise DiceInputError("give either --seed or --dice, not both")
        typed = TypedDice(faces)
        source = typed
    else:
        # The adapter, not the core, draws a fresh seed; printing it makes the roll repeatable.
        seed = secrets.randbits(32) if seed is None else seed
        source = SeededDice(seed)
    result = parsed.roll(source, values)
    if faces is not None and typed.remaining:
        raise DiceInputError(
            f"{typed.remaining} typed-in dice left over: {parsed} rolls fewer dice than given"
        )
    record: dict[str, Any] = {**result.to_record(), "seed": seed}
    if values:
        record["values"] = values

    def render() -> None:
        # The breakdown holds the player's own words (annotations, the comment): never markup.
        line = Text(f"{result.comment}: " if result.comment else "")
        line.append(f"{result.breakdown.rsplit(' = ', 1)[0]} = ")
        line.append(str(result.total), style="bold")
        console().print(line, highlight=False)
        note = "typed-in dice" if result.typed_in else f"seed {seed}"
        console().print(f"[dim]{note}[/]")

    emit(record, as_json, render)
