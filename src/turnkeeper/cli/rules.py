"""CLI verbs: ``rulesets``, ``rules show|check|explain`` and ``table roll|list``.

Rulesets are data (the presets and the user's own TOML files); these verbs list them, show
one resolved in full, check a file, explain a rule ID from the project's rule reference
(:mod:`turnkeeper.rules.reference`, also docs/rules.md), and roll its tables and
overloaded dice.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from turnkeeper.cli.options import SetOption, set_values
from turnkeeper.cli.output import JsonOption, console, emit, say, text
from turnkeeper.dice import SeededDice, exact_json, format_fraction, parse
from turnkeeper.errors import DiceNotationError, IllegalCommandError, NotFoundError
from turnkeeper.rules import Ruleset, find_ruleset, load_ruleset, presets
from turnkeeper.rules.reference import entry_lines, find_rule, preset_values, rules_of, text_of
from turnkeeper.words import listed

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

rules_app = typer.Typer(
    help="Show, check and explain rulesets (presets or your own TOML files).\n\n"
    "Explain any rule by its ID: the project's rule reference, also in docs/rules.md.\n\n"
    "Example: `turnkeeper rules show ex`; `turnkeeper rules explain tp-wil-7`."
)
table_app = typer.Typer(
    help="Roll a ruleset's tables and overloaded dice.\n\n"
    "Example: `turnkeeper table roll reaction --set CHA=1`."
)
verbs.add_typer(rules_app, name="rules")
verbs.add_typer(table_app, name="table")

DEFAULT_RULESET = "tp"
RulesetOption = typer.Option(
    DEFAULT_RULESET,
    "--ruleset",
    "-r",
    help="A preset name (tp, ex, pg, dg, cb) or a ruleset file. Default: tp, which has the "
    "overloaded dice (encounter, dungeon, initiative, wilderness) and the reaction table.",
)

FileArgument = typer.Argument(..., help="A ruleset TOML file to check.")
# --- rulesets, rules show, rules check ----------------------------------------------------------


@verbs.command("rulesets")
def rulesets_command(as_json: bool = JsonOption) -> None:
    """List the shipped presets: one per seed text.

    Example: `turnkeeper rulesets`.
    """
    infos = presets()
    data = [info.model_dump(mode="json", exclude={"description"}) for info in infos]

    def render() -> None:
        table = Table(title="rulesets")
        for column in ("name", "title", "rules text", "prefix"):
            table.add_column(column)
        for info in infos:
            table.add_row(info.name, info.title, info.text, info.prefix)
        console().print(table)
        console().print("[dim]turnkeeper rules show NAME shows one in full[/]")
        console().print(
            "[dim]every rule ID explained: docs/rules.md, or turnkeeper rules explain TP-WIL-7[/]"
        )

    emit(data, as_json, render)


def _tree(label: str, data: Any) -> Tree:
    tree = Tree(Text(label, style="bold"))
    _grow(tree, data)
    return tree


def _grow(tree: Tree, data: Any) -> None:
    # Labels are Text, not markup: a list of words such as ["fighter"] would read as a tag.
    for key, value in data.items():
        if isinstance(value, dict) and value:
            _grow(tree.add(Text(str(key), style="bold cyan")), value)
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            branch = tree.add(Text(str(key), style="bold cyan"))
            for index, item in enumerate(value):
                _grow(branch.add(Text(str(index + 1), style="cyan")), item)
        else:
            shown = Text("none", style="dim") if value is None else Text(_scalar(value))
            tree.add(Text.assemble((str(key), "cyan"), " = ", shown))


def _scalar(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{}"
    if value is None:
        return "none"
    return str(value)


@rules_app.command("show")
def show_command(
    name: str = typer.Argument(..., help="A preset name (tp, ex, pg, dg, cb) or a ruleset file."),
    as_json: bool = JsonOption,
) -> None:
    """Show a whole ruleset as resolved: its own keys and everything it extends.

    Example: `turnkeeper rules show ex`.
    """
    rules = find_ruleset(name)
    data = rules.model_dump(mode="json")

    def render() -> None:
        console().print(_tree(f"{rules.name}: {rules.ruleset.title}", data))
        if rules.ruleset.prefix:
            console().print(
                f"its rules ({rules.ruleset.prefix}-...) explained: docs/rules.md, or "
                f"turnkeeper rules explain {rules.ruleset.prefix.lower()}",
                style="dim",
                markup=False,
                highlight=False,
            )

    emit(data, as_json, render)


@rules_app.command("check")
def check_command(
    file: Path = FileArgument,
    as_json: bool = JsonOption,
) -> None:
    """Check a ruleset file: prints ok, or the one thing wrong (exit 2).

    Example: `turnkeeper rules check mine.toml` (mine.toml: `extends = "ex"`).
    """
    rules = load_ruleset(file)
    data = {"ok": True, "file": str(file), "name": rules.name, "title": rules.ruleset.title}
    emit(data, as_json, lambda: say(("ok", "green"), f" {file}: {rules.name}"))


@rules_app.command("explain")
def explain_command(
    rule_id: str = typer.Argument(
        ...,
        metavar="ID",
        help="A rule ID in any case, such as tp-wil-7; or a text's prefix (tp, ex, pg, dg, cb) "
        "to list its rules.",
    ),
    as_json: bool = JsonOption,
) -> None:
    """Explain a rule by its ID: what it requires, its ruleset keys, its tests, its source.

    The project's rule reference: the same entries as docs/rules.md. A text's prefix lists
    that text's rules.

    Example: `turnkeeper rules explain tp-wil-7`; `turnkeeper rules explain cb`.
    """
    listed = rules_of(rule_id)
    if listed is not None:
        rows = [
            {"id": found, "title": entry.title, "origin": entry.origin} for found, entry in listed
        ]
        emit(
            rows,
            as_json,
            lambda: console().print(
                "\n".join(f"{row['id']}: {row['title']}" for row in rows),
                markup=False,
                highlight=False,
            ),
        )
        return
    found, entry = find_rule(rule_id)
    text = text_of(found)
    data = {
        "id": found,
        "text": text.title,
        "preset": text.preset,
        **entry.model_dump(mode="json", exclude={"preset_keys"}),
        "preset_keys": preset_values(found, entry),
    }
    emit(
        data,
        as_json,
        lambda: console().print(
            "\n".join(entry_lines(found, entry)), markup=False, highlight=False, soft_wrap=True
        ),
    )


# --- table roll, table list -----------------------------------------------------------------------


def _table_names(rules: Ruleset) -> str:
    names = sorted(rules.tables) + sorted(rules.dice)
    return ", ".join(names) or "none"


@table_app.command("list")
def list_command(ruleset: str = RulesetOption, as_json: bool = JsonOption) -> None:
    """List the ranged tables and overloaded dice a ruleset can roll.

    Example: `turnkeeper table list --ruleset tp`.
    """
    rules = find_ruleset(ruleset)
    data: list[dict[str, Any]] = [
        {"name": name, "kind": "table", "dice": table.dice, "milieus": []}
        for name, table in sorted(rules.tables.items())
    ] + [
        {
            "name": name,
            "kind": "overloaded",
            "dice": f"d{die.sides}",
            "milieus": sorted(die.milieus),
        }
        for name, die in sorted(rules.dice.items())
    ]

    def render() -> None:
        table = Table(title=text(f"tables of {rules.name}"))
        for column in ("name", "kind", "dice", "milieus"):
            table.add_column(column)
        for row in data:
            cells = (row["name"], row["kind"], row["dice"], listed(row["milieus"]))
            table.add_row(*(text(cell) for cell in cells))
        console().print(table)

    emit(data, as_json, render)


@table_app.command("roll")
def table_roll_command(
    name: str = typer.Argument(
        ..., help="A table (e.g. reaction) or overloaded die (e.g. dungeon)."
    ),
    ruleset: str = RulesetOption,
    milieu: str | None = typer.Option(
        None,
        "--milieu",
        help="For an overloaded die: the milieu whose faces it uses, e.g. desert [TP-WENC-3].",
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed for reproducible dice."),
    set_items: list[str] | None = SetOption,
    as_json: bool = JsonOption,
) -> None:
    """Roll a ruleset's ranged table or overloaded die and show the result.

    Example: `turnkeeper table roll reaction --set CHA=1`;
    `turnkeeper table roll wilderness --milieu desert`.
    """
    # Deferred to the verb that rolls: the exact odds load icepool, which `rules` never needs.
    from turnkeeper.tables import roll_overloaded, roll_ranged, table_odds

    rules = find_ruleset(ruleset)
    values = set_values(set_items)
    # The adapter, not the core, draws a fresh seed; printing it makes the roll repeatable.
    seed = secrets.randbits(32) if seed is None else seed
    source = SeededDice(seed)
    if name in rules.tables:
        if milieu is not None:
            raise IllegalCommandError(f"--milieu is for overloaded dice; {name!r} is a table")
        table = rules.tables[name]
        missing = sorted(parse(table.dice).names - set(values))
        if missing:
            hint = " ".join(f"--set {n}=0" for n in missing)
            raise DiceNotationError(f"table {name!r} rolls {table.dice}: give {hint}")
        result = roll_ranged(table, source, values, name=name)
        odds = table_odds(table, values)
        data: dict[str, Any] = {
            "ruleset": rules.name,
            "table": name,
            "result": result.result,
            "text": result.row.text,
            "total": result.total,
            "roll": result.roll.to_record(),
            **exact_json("chance", odds[result.result]),
            "seed": seed,
        }
        if values:
            data["values"] = values
        headline = f"[bold]{escape(result.result)}[/] ({escape(result.roll.breakdown)})"
        note = f"chance {format_fraction(odds[result.result])}"
    elif name in rules.dice:
        if values:
            raise IllegalCommandError(f"--set is for tables; {name!r} is an overloaded die")
        face = roll_overloaded(rules.dice[name], source, milieu)
        data = {
            "ruleset": rules.name,
            "die": name,
            "milieu": milieu,
            "face": face.number,
            "event": face.face.event.value,
            "label": face.face.label,
            "text": face.face.text,
            "initiative": face.face.initiative.value if face.face.initiative else None,
            "roll": face.roll.to_record(),
            "seed": seed,
        }
        headline = f"{face.number}: [bold]{escape(face.face.label)}[/]"
        note = face.face.text
        if face.face.initiative:
            note = f"{note} [{face.face.initiative.value} has initiative]".strip()
    else:
        raise NotFoundError(
            f"ruleset {rules.name!r} has no table or overloaded die {name!r}; "
            f"it has: {_table_names(rules)}"
        )

    def render() -> None:
        console().print(headline)
        if note:
            console().print(note, highlight=False, markup=False)
        say((f"ruleset {rules.name}, seed {seed}", "dim"))

    emit(data, as_json, render)
