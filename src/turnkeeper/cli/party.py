"""CLI verbs of the party: the ``party`` group (``party show|timeline|record`` here, the rest
from the verb table: ``party split|new|switch|join|share|forward|doing``...) and ``supply``.
The referee's moves by hand (``damage``, ``heal``, ``note``) are verbs of the table.

Each one that changes the game is a command recorded in the journal, with its dice: a trap's
``damage Bea 2d6 --reason "pit trap"`` rolls 2d6 (or takes ``--dice`` typed in from the
table) and the roll is kept beside the wound.
"""

from __future__ import annotations

import typer
from rich.markup import escape
from rich.table import Table

from turnkeeper.cli.from_table import attach
from turnkeeper.cli.options import CampaignOption, DbOption, PlayerOption
from turnkeeper.cli.output import JsonOption, console, emit, say
from turnkeeper.cli.runner import open_campaigns
from turnkeeper.views.journal import party_perceives
from turnkeeper.views.timeline import record_line, stretch_data, timeline

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
    help="The party: who is in it and how they fare; the world's parties, which split, join "
    "and are brought forward, on one timeline.\n\nExample: `turnkeeper party show`, "
    "`turnkeeper party timeline`.",
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


@party_app.command("timeline")
def party_timeline(
    campaign: str | None = CampaignOption, db: str | None = DbOption, as_json: bool = JsonOption
) -> None:
    """Every party and character of the world: where, when, doing what, how far behind.

    Also the world's countdowns and the places parties changed. For the referee: it shows
    every party.

    Example: `turnkeeper party timeline`.
    """
    with open_campaigns(db) as campaigns:
        view = timeline(campaigns.state(campaigns.resolve(campaign)))

    def render() -> None:
        # lines, not a table: a party's place and doing are long, and a table of them
        # wraps out of reading in a terminal's 80 columns
        say(f"{view.campaign}: the world's present is day {view.present_day} ({view.present})")
        for party in view.parties:
            mark = "*" if party.running else " "
            behind = ""
            if party.behind_days:
                days = "1 day" if party.behind_days == 1 else f"{party.behind_days} days"
                behind = f", {days} behind" + (" (lags!)" if party.lagging else "")
            say(
                f"{mark} {party.name} ({', '.join(party.characters)}): day {party.day}, "
                f"{party.date}{behind}"
            )
            say(f"    {party.where}, {party.doing}")
        lagging = [p.name for p in view.parties if p.lagging]
        if lagging:
            say(
                f"{', '.join(lagging)} lag the world by more than {view.lag_warning_days} "
                "days: bring them forward (`party forward --as NAME`)"
            )
        for countdown in view.countdowns:
            hidden = " (referee)" if countdown.referee else ""
            say(f"world countdown {countdown.name}: {countdown.left}/{countdown.length}{hidden}")
        for place in view.places:
            say(f"day {place.day}: {place.party} {place.what} {place.place}")
        say("* the party run now (`party switch NAME` runs another)")

    emit(view.model_dump(mode="json"), as_json, render)


@party_app.command("record")
def party_record(
    character: str = typer.Argument(..., help="The character (henchmen and hirelings too)."),
    lines: bool = typer.Option(
        False, "--lines", help="Every line of the record, not its whereabouts."
    ),
    as_player: bool = PlayerOption,
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """A character's own time record as whereabouts: a stretch for each span in one place,
    doing one thing, with one company (from, to, where, doing what, with whom), the events
    of note under it; `--lines` gives every line, each with its game time and party.

    Example: `turnkeeper party record Aldo`; `turnkeeper party record Aldo --lines`.
    """
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        state = campaigns.state(name)
        if lines:
            found, undone, record = campaigns.character_record(name, character)
            kept = [(p, r) for p, r in record if not as_player or party_perceives(r, undone)]
            shown = [record_line(party, r, state) for party, r in kept]
        else:
            found, undone, stretches = campaigns.character_whereabouts(name, character)
            told = [stretch_data(s, state, undone, as_player) for s in stretches]

    if lines:

        def render_lines() -> None:
            say(f"{found}'s time record in {name}")
            for line in shown:
                say(f"{line['date']}  {line['party']}: {line['line']}")

        emit({"campaign": name, "character": found, "record": shown}, as_json, render_lines)
        return

    def render() -> None:
        say(f"{found}'s whereabouts in {name}")
        for stretch in told:
            company = ", ".join(stretch["with"])
            say(f"{stretch['from']} to {stretch['to']} · {stretch['party']}, "
                + (f"with {company}" if company else "alone"))  # fmt: skip
            doing = f", {stretch['doing']}" if stretch["doing"] else ""
            say(f"  {stretch['where']}{doing}")
            for note in stretch["notes"]:
                say(f"    {note['date']}  {note['line']}")
            hidden = stretch["lines"] - len(stretch["notes"])
            if hidden:
                say((f"    and {hidden} more lines (`--lines` shows them)", "dim"))

    emit({"campaign": name, "character": found, "whereabouts": told}, as_json, render)


# the table's verbs of the party: split, new, switch, join, forward (after the hand-written)
attach(party_app, "party")
