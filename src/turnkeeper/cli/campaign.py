"""CLI verbs of campaigns and their journals: ``new``, ``campaigns``, ``use``, ``log``,
``countdown list`` (the other countdown verbs, and ``status``, ``wait``, ``light``, ``rest``,
``undo``, come from the verb table), ``export`` and ``import``.

Every verb takes ``--db PATH`` (a SQLite file, or a database URL; default: ``TURNKEEPER_DB``,
else a file in the user data directory) and, where it acts on one campaign, ``--campaign
NAME`` (default: the one chosen with ``turnkeeper use``); the options are shared
(:mod:`turnkeeper.cli.options`) and every command runs through :func:`turnkeeper.cli.runner.run`.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from turnkeeper.campaign import (
    load_party,
)
from turnkeeper.cli.from_table import attach
from turnkeeper.cli.options import (
    CampaignOption,
    DbOption,
    ForceOption,
    check_out,
    check_seed,
)
from turnkeeper.cli.output import (
    JsonOption,
    ascii_json,
    console,
    emit,
    emit_pieces,
    for_terminal,
    say,
)
from turnkeeper.cli.runner import open_campaigns, records_data, show_lines, show_records
from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.names import check_name
from turnkeeper.files.reading import MAX_JOURNAL_BYTES, read_text
from turnkeeper.files.writing import write_text
from turnkeeper.rules.loader import find_ruleset
from turnkeeper.store import sqlite_file
from turnkeeper.views.journal import perceived_by
from turnkeeper.words import counted

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

countdown_app = typer.Typer(
    help="Countdowns: start, tick, list and end them.\n\n"
    'Example: `turnkeeper countdown add "ghouls wake" --type short --length d6`.',
    no_args_is_help=True,
)
verbs.add_typer(countdown_app, name="countdown")
attach(countdown_app, "countdown")


# -- campaigns -------------------------------------------------------------------------------


@verbs.command("new")
def new_command(
    name: str = typer.Argument(..., help="The campaign's name."),
    ruleset: str = typer.Option(
        ..., "--ruleset", "-r", help="A preset (tp, ex, pg, dg, cb) or a ruleset file."
    ),
    party: Annotated[
        Path | None, typer.Option("--party", help="A party file (TOML, see docs/party.md).")
    ] = None,
    solo: bool = typer.Option(
        False, "--solo", help="No party file: one adventurer, 6 hp, carrying nothing."
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Seed for reproducible dice (default: drawn)."
    ),
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Start a campaign and make it the current one.

    Example: `turnkeeper new keep --ruleset ex --party examples/party.toml`
    (`turnkeeper examples` writes the example files), or `--solo` for a lone adventurer.
    """
    check_name(name, "campaign name")
    check_seed(seed)
    rules = find_ruleset(ruleset)
    if party is None and not solo:
        # issue 25: a campaign without --party was a silent one-character party, no supplies
        raise TurnkeeperError(
            "a campaign needs a party: give --party FILE (docs/party.md; `turnkeeper examples` "
            "writes examples/party.toml), or --solo for one adventurer carrying nothing"
        )
    if party is not None and solo:
        raise TurnkeeperError("give --party FILE or --solo, not both")
    members = load_party(party, rules) if party is not None else None
    with open_campaigns(db, create=True) as campaigns:
        state = campaigns.new(name, rules, members, seed)
        campaigns.use(name)
    data = {"campaign": name, "ruleset": rules.name, "seed": state.seed, "date": state.date}
    emit(
        data,
        as_json,
        lambda: say(
            "Started ",
            (name, "bold"),
            f" under {rules.name} (seed {state.seed}) at {state.date}, kept in {_kept(db)}.",
        ),
    )


def _kept(db: str | None) -> str:
    """Where the campaigns are kept, as a referee finds them again (issue 25: `new` said
    nothing of it): the store's file, or the server a URL names."""
    file = sqlite_file(db)
    return str(file.absolute()) if file is not None else "the database server --db names"


campaigns_app = typer.Typer(
    help="List the campaigns (the current one starred); `campaigns delete NAME` removes one."
    "\n\nExample: `turnkeeper campaigns`.",
    invoke_without_command=True,
)
verbs.add_typer(campaigns_app, name="campaigns")


@campaigns_app.callback()
def campaigns_command(
    ctx: typer.Context, db: str | None = DbOption, as_json: bool = JsonOption
) -> None:
    """List the campaigns (the current one starred); `campaigns delete NAME` removes one.

    Example: `turnkeeper campaigns`.
    """
    if ctx.invoked_subcommand is not None:
        return
    with open_campaigns(db) as campaigns:
        names, current = campaigns.names(), campaigns.store.current()
    data = {"campaigns": names, "current": current}

    def render() -> None:
        if not names:
            console().print("No campaigns yet: start one with `turnkeeper new NAME --ruleset ex`.")
        for name in names:
            say("* " if name == current else "  ", name)

    emit(data, as_json, render)


@campaigns_app.command("delete")
def campaigns_delete(
    name: str = typer.Argument(..., help="The campaign to remove, with its whole journal."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask first."),
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Delete a campaign and its whole journal (asks first; export it to keep a copy).

    Example: `turnkeeper export -c old-keep --out old-keep.jsonl` keeps a copy;
    then `turnkeeper campaigns delete old-keep --yes` deletes it without asking.
    """
    with open_campaigns(db) as campaigns:
        if name not in campaigns.names():
            known = ", ".join(campaigns.names()) or "none"
            raise TurnkeeperError(f"no campaign named {name!r} (campaigns: {known})")
        if not yes and not _can_ask():
            # no one to answer (a script, a pipe): one refusal, not a question left hanging
            raise TurnkeeperError(
                f"campaigns delete {name}: no terminal to ask on; pass --yes to delete {name} "
                "and its whole journal without asking"
            )
        try:
            sure = yes or typer.confirm(
                f"Delete {name} and its whole journal "
                f"({counted(campaigns.store.version(name), 'record')})?"
            )
        except typer.Abort:  # Ctrl-C or Ctrl-D at the question
            sure = False
        if not sure:
            raise TurnkeeperError(f"{name} kept: nothing deleted")
        campaigns.delete(name)
    emit({"deleted": name}, as_json, lambda: say("Deleted ", name, "."))


def _can_ask() -> bool:
    """Whether a question can be answered here: the input is a terminal."""
    return sys.stdin is not None and sys.stdin.isatty()


@verbs.command("use")
def use_command(
    name: str = typer.Argument(..., help="The campaign verbs act on from now on."),
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Choose the current campaign.

    Example: `turnkeeper use keep`.
    """
    with open_campaigns(db) as campaigns:
        campaigns.use(name)
    emit({"current": name}, as_json, lambda: say("Now using ", (name, "bold"), "."))


# -- reading ---------------------------------------------------------------------------------


@verbs.command("log")
def log_command(
    since: int = typer.Option(
        0, "--since", min=0, help="Only the records after this number (seq)."
    ),
    player: bool = typer.Option(False, "--player", help="The players' view: no referee events."),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Show the time record: every event, its game time and its rolls.

    Example: `turnkeeper log --since 40 --player`.
    """
    from json.encoder import encode_basestring, encode_basestring_ascii

    from turnkeeper.clock.calendar import day_heading, start_offset
    from turnkeeper.kernel.events import CampaignStarted

    # A page read by seq from the store, and the undos found by their index: never the
    # journal before --since, so a page costs the same in a long campaign as in a short one.
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        if as_json and not player:
            # The referee's records stream a page at a time, each as stored plus its date,
            # the line kept beside it and whether it was undone (views.referee_record_json,
            # byte for byte): a whole log is never in memory (one JSON array, an element a
            # line), and no event is read back. The dates need only the ruleset's calendar,
            # which the first record holds.
            head = campaigns.page(name, 0, limit=1)[0]
            start = head[0].event if head else None
            if not isinstance(start, CampaignStarted):
                campaigns.state(name)  # an empty or headless journal: the fold's own error
                raise AssertionError("a journal that folds begins with campaign.started")
            scales = start.ruleset.time
            undone = campaigns.undone(name)
            ascii_only = ascii_json()
            quote = encode_basestring_ascii if ascii_only else encode_basestring
            write = sys.stdout.write
            # calendar(at) without its per-call parse of the calendar's start: the day's
            # date once per day, its hour and minute looked up from the minute of the day
            # (Date.__str__). A date is digits and dashes, so it needs no quoting.
            epoch, day_seconds = start_offset(scales), scales.day_hours * 3600
            clock = [f"{h:02d}:{m:02d}" for h in range(scales.day_hours) for m in range(60)]
            last_at: int | None = None  # consecutive records mostly share their time
            day, today, dated = -1, "", ""
            undone_tail, kept_tail = ',"undone":true}', ',"undone":false}'
            write("[")
            first = True
            for page in campaigns.said_pages(name, since):
                lines = []
                for command, at, stored, line in page:
                    if at != last_at:
                        days, into = divmod(epoch + at, day_seconds)
                        if days != day:
                            day, today = days, f',"date":"{day_heading(days, scales)} '
                        last_at, dated = at, f'{today}{clock[into // 60]}","text":'
                    if ascii_only and not stored.isascii():  # JSON outside strings is ASCII
                        stored = "".join(
                            c if c.isascii() else encode_basestring_ascii(c)[1:-1] for c in stored
                        )
                    tail = undone_tail if command in undone else kept_tail
                    lines.append(f"{stored[:-1]}{dated}{quote(line)}{tail}")
                if lines:
                    write("\n" if first else ",\n")
                    write(",\n".join(lines))
                    first = False
            write("]\n" if first else "\n]\n")
            return
        state, undone = campaigns.state(name), campaigns.undone(name)
        # the players of the party run now read their own party's lines, no other's
        keep = (
            perceived_by(campaigns.party_lines(name, state.company, state.version, undone), undone)
            if player
            else None
        )
        records, _ = campaigns.page(name, since, keep=keep, until=state.version)
    if player:
        emit(
            records_data(records, state, player),
            as_json,
            lambda: show_lines(records, player=True),
        )
        return
    show_records(records, state)  # the referee's JSON streamed above


# -- commands --------------------------------------------------------------------------------


@countdown_app.command("list")
def countdown_list(
    campaign: str | None = CampaignOption, db: str | None = DbOption, as_json: bool = JsonOption
) -> None:
    """List the running countdowns.

    Example: `turnkeeper countdown list`.
    """
    with open_campaigns(db) as campaigns:
        state = campaigns.state(campaigns.resolve(campaign))
    # as they stand at the present of the party run now (a world countdown too)
    countdowns = [c.model_copy(update={"left": c.left_at(state.now)}) for c in state.countdowns]
    data = [c.model_dump(mode="json") for c in countdowns]

    def render() -> None:
        if not countdowns:
            console().print("No countdowns running.")
        for c in countdowns:
            secret = [(" (referee)", "magenta")] if c.visibility == "referee" else []
            say(f"{c.name} ({c.kind}): {c.left}/{c.length}", *secret)

    emit(data, as_json, render)


# -- moving journals -------------------------------------------------------------------------


class ExportFormat(StrEnum):
    """What ``export`` writes: the journal to import again, or a session log to read."""

    JSONL = "jsonl"
    MARKDOWN = "markdown"


@verbs.command("export")
def export_command(
    format: Annotated[
        ExportFormat,
        typer.Option("--format", "-f", help="jsonl (to import again) or markdown (to read)."),
    ] = ExportFormat.JSONL,
    player: bool = typer.Option(False, "--player", help="The players' copy (markdown only)."),
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write to this file.")] = None,
    force: bool = ForceOption,
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Export the journal as JSON Lines (re-importable) or a Markdown session log.

    Example: `turnkeeper export --out keep.jsonl`;
    `turnkeeper export --format markdown --player --out session.md`.
    """
    if player and format == "jsonl":
        raise TurnkeeperError(
            "--player is for the markdown log; a jsonl export is the whole record"
        )
    if out is not None:
        check_out(out, "export", force, db)
    # Written as it is read, a page at a time (the store stays open meanwhile): an export
    # holds one page in memory, never the journal nor its text.
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        pieces = (
            campaigns.export_markdown_lines(name, player)
            if format == "markdown"
            else campaigns.export_lines(name)
        )
        if out is not None:
            write_text(out, pieces, "export")
        elif as_json:
            emit_pieces({"campaign": name, "format": format}, "text", pieces)
        else:
            # nothing a user typed reaches a terminal as an escape sequence; a pipe or a
            # file gets the journal as stored
            shown = sys.stdout.isatty()
            for piece in pieces:
                typer.echo(
                    for_terminal(piece, json_text=format != "markdown") if shown else piece,
                    nl=False,
                )
    if out is not None:
        emit(
            {"campaign": name, "format": format, "out": str(out)},
            as_json,
            lambda: say(f"Wrote {name} to {out}."),
        )


@verbs.command("import")
def import_command(
    file: Annotated[Path, typer.Argument(help="A JSON Lines journal from `turnkeeper export`.")],
    name: str | None = typer.Option(None, "--name", help="Import under this name instead."),
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Import an exported journal as a campaign (and make it current).

    Every record is checked as a command's result: its rolls agree with their dice, its
    texts and amounts are within a command's limits, who sees it is as its kind says, its
    ruleset and party are as their files would be. A journal changed by hand is refused in
    one line, nothing stored, and a new --db it named is not left behind.

    Example: `turnkeeper import keep.jsonl --name keep-copy`.
    """
    if name is not None:
        check_name(name, "campaign name")
    from turnkeeper.service.collector import gc_paused

    journal = read_text(file, "journal", limit=MAX_JOURNAL_BYTES)
    with open_campaigns(db, create=True) as campaigns:
        # an import makes a few objects per record that all live to its end (the parsed
        # lines, the records, their events, the rows): the collector, left on, would walk
        # them again and again (about a quarter of a 50,000-record import's own time); and
        # the journal read lives on, kept by the service, so it is frozen out of the
        # collector's sight, as a whole read's is (a tenth of a 200,000-record import)
        with gc_paused(freeze=True):
            state = campaigns.import_jsonl(journal, name)
        campaigns.use(state.name)
    data = {"campaign": state.name, "version": state.version, "date": state.date}
    emit(
        data,
        as_json,
        lambda: say(
            "Imported ",
            (state.name, "bold"),
            f": {counted(state.version, 'record')}, now {state.date}.",
        ),
    )
