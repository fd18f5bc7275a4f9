"""The Typer application: the verb table, and the one place where errors become exit codes.

Every verb takes ``--json``; people get Rich tables and colour (:mod:`turnkeeper.cli.output`
prints both). A user's mistake (:class:`~turnkeeper.errors.TurnkeeperError`) exits 2 with one
line on stderr, no traceback.

The root command knows every verb by name from :data:`VERBS` and imports a verb's module
only when that verb runs, so ``--help`` and ``roll`` never load the campaign, its store or
the web server (how ``gh``, ``uv`` and ``pip`` keep their help instant). As a verb loads, its
help is put in plain words (:mod:`turnkeeper.cli.help_pages`) and its numbers bounded.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from difflib import get_close_matches
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

import typer
from typer._click import Command, Context
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
from typer.core import TyperCommand, TyperGroup

from turnkeeper import __version__
from turnkeeper.cli.help_pages import flags_as_flags, readable_help
from turnkeeper.cli.output import print_error
from turnkeeper.errors import TurnkeeperError

if TYPE_CHECKING:
    from turnkeeper.service import Campaigns

#: The exit code of a bug in turnkeeper (an exception no check turned into a user's error):
#: sysexits' EX_SOFTWARE, so a script tells it from a refusal (2).
INTERNAL_ERROR = 70

_DEBUG: ContextVar[bool] = ContextVar("turnkeeper_debug", default=False)

SESSION: ContextVar[Campaigns | None] = ContextVar("turnkeeper_session", default=None)
"""The ``play`` session's campaign service, shared by every verb run inside the session
(:func:`turnkeeper.cli.runner.session`); None outside one."""


@dataclass(frozen=True)
class Verb:
    """Where a verb is implemented, and what the root's ``--help`` says of it."""

    module: str
    summary: str
    panel: str


CAMPAIGN, DUNGEON, WILDERNESS, COMBAT, SCENES, DESIGNER, SERVER = (
    "Campaign",
    "Dungeon",
    "Wilderness",
    "Combat",
    "Scenes",
    "Designer",
    "Server",
)

#: Every verb of ``turnkeeper``: the ``turnkeeper.cli`` module that defines it (on its own
#: ``verbs`` Typer), the line ``--help`` shows, and its panel. A test checks each line
#: against the verb's own help.
VERBS: dict[str, Verb] = {
    "new": Verb("campaign", "Start a campaign and make it the current one.", CAMPAIGN),
    "campaigns": Verb(
        "campaign",
        "List the campaigns (the current one starred); `campaigns delete NAME` removes one.",
        CAMPAIGN,
    ),
    "use": Verb("campaign", "Choose the current campaign.", CAMPAIGN),
    "play": Verb(
        "play",
        "A session at the table: every verb without the prefix, with completion and history.",
        CAMPAIGN,
    ),
    "status": Verb(
        "status",
        "Show the campaign now: date and time, light, supplies, countdowns, hit points.",
        CAMPAIGN,
    ),
    "party": Verb(
        "party",
        "The party: who is in it and how they fare; the world's parties, which split, join "
        "and are brought forward, on one timeline.",
        CAMPAIGN,
    ),
    "log": Verb(
        "campaign", "Show the time record: every event, its game time and its rolls.", CAMPAIGN
    ),
    "calendar": Verb(
        "calendar",
        "A month as a grid of days: each party's whereabouts, the world's events, countdowns.",
        CAMPAIGN,
    ),
    "note": Verb(
        "from_table",
        "Write a note into the time record, for the whole table or the referee alone.",
        CAMPAIGN,
    ),
    "wait": Verb(
        "from_table",
        "Let game time pass; whatever the rules do on the way (encounter checks, light) happens.",
        CAMPAIGN,
    ),
    "light": Verb(
        "from_table",
        "Light a source (default: the ruleset's first), set its turns left, or douse it.",
        CAMPAIGN,
    ),
    "rest": Verb(
        "from_table", "Rest a turn, as the party must now and then [EX-REST-1].", CAMPAIGN
    ),
    "supply": Verb(
        "party",
        "The party's supplies by hand: use them (a usage die rolls) or add found ones.",
        CAMPAIGN,
    ),
    "countdown": Verb("campaign", "Countdowns: start, tick, list and end them.", CAMPAIGN),
    "faction": Verb(
        "from_table", "The world's factions: lay them out, reveal a deed as a rumour.", CAMPAIGN
    ),
    "haven": Verb(
        "from_table",
        "A character's month at a haven: an activity, its cost and living paid, its result.",
        CAMPAIGN,
    ),
    "undo": Verb(
        "from_table",
        "Undo the latest command (recorded in the log, forgotten by the state).",
        CAMPAIGN,
    ),
    "redo": Verb(
        "from_table",
        "Redo what the latest undo took back, as it was: no die rolled again (recorded too).",
        CAMPAIGN,
    ),
    "export": Verb(
        "campaign",
        "Export the journal as JSON Lines (re-importable) or a Markdown session log.",
        CAMPAIGN,
    ),
    "import": Verb(
        "campaign", "Import an exported journal as a campaign (and make it current).", CAMPAIGN
    ),
    "demo": Verb(
        "demo",
        "Play a short seeded expedition into the example dungeon (replaces an earlier demo).",
        CAMPAIGN,
    ),
    "examples": Verb(
        "examples",
        "Copy the example files that ship with turnkeeper into a folder (default ./examples).",
        CAMPAIGN,
    ),
    "site": Verb("dungeon", "Enter, leave and look at sites (dungeons, ruins, caves).", DUNGEON),
    "turn": Verb(
        "dungeon",
        "One dungeon turn: ten minutes pass and the ruleset's turn procedure runs.",
        DUNGEON,
    ),
    "map": Verb("maps", "Wilderness hex maps: make, check, load and draw them.", WILDERNESS),
    "travel": Verb(
        "wilderness",
        "Travel or explore toward a hex; `travel cost` prints what a hex costs [TP-WIL-6].",
        WILDERNESS,
    ),
    "explore": Verb(
        "wilderness",
        "Explore toward a direction, a hex or a found feature: slower, and finds more [TP-WENC-2].",
        WILDERNESS,
    ),
    "camp": Verb(
        "wilderness",
        "Make the night camp: the die is rolled and the night passes until the morning.",
        WILDERNESS,
    ),
    "search": Verb(
        "wilderness",
        "Search the party's hex for a hidden feature, at the cost of 1 travel point [TP-DISC-2].",
        WILDERNESS,
    ),
    "weather": Verb(
        "wilderness",
        "Show the weather per region; `weather set` sets it, `weather roll` rolls it.",
        WILDERNESS,
    ),
    "route": Verb(
        "wilderness",
        "The route of fewest days, then fewest travel points, under the current weather "
        "[TP-WIL-6..8].",
        WILDERNESS,
    ),
    "combat": Verb("combat", "Run a fight: rounds, initiative, declarations, attacks.", COMBAT),
    "damage": Verb(
        "from_table",
        "Wound a character or a monster by hand: a trap, a fall, a spell [PG-HP-1].",
        COMBAT,
    ),
    "heal": Verb(
        "from_table",
        "Heal a character or a monster by hand, never above its most hit points.",
        COMBAT,
    ),
    "scene": Verb(
        "scene", "Dungeoneers scenes: spotlight, actions, rounds, momentum and dread.", SCENES
    ),
    "roll": Verb("dice", "Roll dice notation and show every die and the total.", DESIGNER),
    "odds": Verb(
        "odds",
        "Exact odds of dice notation, of a usage die's lifetime, or of a dungeon turn.",
        DESIGNER,
    ),
    "simulate": Verb(
        "simulate",
        "Simulate procedures many times over: delves into a site, journeys, fights, the "
        "factions' months.",
        DESIGNER,
    ),
    "rulesets": Verb("rules", "List the shipped presets: one per seed text.", DESIGNER),
    "rules": Verb(
        "rules", "Show, check and explain rulesets (presets or your own TOML files).", DESIGNER
    ),
    "table": Verb("rules", "Roll a ruleset's tables and overloaded dice.", DESIGNER),
    "tokens": Verb(
        "serve",
        "Make a campaign's referee and player tokens for the web server, and print their links.",
        SERVER,
    ),
    "serve": Verb(
        "serve",
        "Serve the HTTP API (OpenAPI at /openapi.json) and the dashboard pages.",
        SERVER,
    ),
    "version": Verb("dice", "Print turnkeeper's version.", SERVER),
}


@cache
def load_verb(name: str) -> Command:
    """The Click command of verb ``name``, its module imported now (the adapter's edge)."""
    module = import_module(f"turnkeeper.cli.{VERBS[name].module}")
    group = typer.main.get_group(module.verbs)
    assert isinstance(group, TyperGroup)
    command = group.commands[name]
    flags_as_flags(command)
    readable_help(command)
    _bounded_numbers(command)
    return command


def _bounded_numbers(command: Command) -> None:
    """Every whole number a verb takes, within 64 bits, and every ``--seed`` from 0: the
    one check of the CLI's numbers (the journal keeps them, and a journal holding a larger
    one cannot be imported again), put on every option and argument as its verb loads."""
    from turnkeeper.files.names import check_number, check_seed  # with the verb, not for --help

    def bounded(inner: Callable[..., Any] | None, seed: bool) -> Callable[..., Any]:
        def check(ctx: Context, param: Any, value: Any) -> Any:
            given = value if isinstance(value, list | tuple) else [value]
            for number in given:
                if not isinstance(number, int) or isinstance(number, bool):
                    continue
                shown = "/".join(param.opts)
                (check_seed if seed else check_number)(number, shown)
            return value if inner is None else inner(ctx, param, value)

        return check

    for param in command.params:
        param.callback = bounded(param.callback, "--seed" in param.opts)
    for sub in getattr(command, "commands", {}).values():
        _bounded_numbers(sub)


class Verbs(TyperGroup):
    """The root command: every verb listed from :data:`VERBS`, each loaded when it runs."""

    def list_commands(self, ctx: Context) -> list[str]:
        return list(VERBS)

    def format_help(self, ctx: Context, formatter: Any) -> None:
        flags_as_flags(self)
        super().format_help(ctx, formatter)

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        # Help and completion list the verbs from the table, without loading them.
        verb = VERBS.get(cmd_name)
        if verb is None:
            return None
        return TyperCommand(
            cmd_name, help=verb.summary, short_help=verb.summary, rich_help_panel=verb.panel
        )

    def resolve_command(
        self, ctx: Context, args: list[str]
    ) -> tuple[str | None, Command | None, list[str]]:
        name = args[0]
        if name in VERBS:
            return name, load_verb(name), args[1:]
        if name.startswith("-"):
            self.parse_args(ctx, args)
        hint = get_close_matches(name, VERBS, n=3)
        also = f" Did you mean {', '.join(repr(m) for m in hint)}?" if hint else ""
        ctx.fail(f"No such command {name!r}.{also}")


app = typer.Typer(
    name="turnkeeper",
    cls=Verbs,
    help="The referee's engine for old-school turn-based play.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)


def _debug(asked: bool) -> None:
    if asked:
        _DEBUG.set(True)


def _version(asked: bool) -> None:
    if asked:
        print(__version__)
        raise typer.Exit()


@app.callback()
def root(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_version,
        is_eager=True,
        metavar="",
        help="Print turnkeeper's version and stop.",
    ),
    debug: bool = typer.Option(
        False,
        "--debug",
        callback=_debug,
        is_eager=True,
        metavar="",
        help="On an internal error, show Python's traceback (for a bug report).",
    ),
) -> None:
    """turnkeeper keeps the strict time record of an old-school campaign."""


def fail(message: str) -> None:
    """Stop with a user's mistake: one clear line on stderr and exit code 2."""
    raise TurnkeeperError(message)


def main() -> None:
    """Console-script entry point: runs the app and maps a user's mistake to exit code 2.

    Usage errors (an unknown option, a missing argument) exit 2 the same way: one line
    naming what is wrong and the verb's ``--help``, not Typer's boxed usage screen.
    """
    _forgiving_streams()
    code = invoke(None)
    if code:
        sys.exit(code)


def _forgiving_streams() -> None:
    """Output never fails on the terminal's encoding: a character an ASCII terminal
    (``LANG=C``, ``PYTHONIOENCODING=ascii``) cannot show is written as ``?`` (Rich writes
    through these streams too). The input keeps bytes that are not UTF-8 as Python keeps
    them in argv, so :func:`_utf8_text` refuses a ``play`` script's line as it does an
    argument's, instead of failing as it is read."""
    for stream, errors in ((sys.stdout, "replace"), (sys.stderr, "replace"), (sys.stdin, None)):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors=errors or "surrogateescape")


def invoke(args: list[str] | None) -> int:
    """Run one command line (``None``: the process's own) and return its exit code; a user's
    mistake is one line on stderr and code 2, never a traceback. ``play`` runs each line of
    its session through here, so a session is the same command layer as the shell.

    Any other exception is a bug: one line naming it and code :data:`INTERNAL_ERROR`;
    ``turnkeeper --debug VERB`` prints the traceback too.
    """
    debug = _DEBUG.set(_DEBUG.get())  # a play session's lines keep the session's --debug
    try:
        return _invoke(args)
    except Exception as error:  # the safety net: whatever no check caught
        if _DEBUG.get():
            traceback.print_exc()
        said = " ".join(str(error).split())
        said = f"{said[:200]}..." if len(said) > 200 else said
        print_error(
            f"internal error: {type(error).__name__}{': ' if said else ''}{said}; "
            "run with --debug for the details"
        )
        return INTERNAL_ERROR
    finally:
        _DEBUG.reset(debug)


def _utf8_text(args: list[str]) -> list[str]:
    """Every argument as UTF-8 text, the one check of a user's text at the CLI's edge: a
    shell passes bytes its locale cannot read as lone surrogates (``note $'\\xff'``), which
    neither the store nor a terminal can write. Bytes that are UTF-8 under another locale
    (``LC_ALL=C PYTHONUTF8=0``) are read as UTF-8; others are refused with the byte, never
    replaced unseen (a note would lose its words, a path would name another file)."""
    text = []
    for place, arg in enumerate(args, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as error:
            try:
                arg = os.fsencode(arg).decode("utf-8")
            except UnicodeError:
                code = ord(arg[error.start])
                byte = (
                    f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"U+{code:04X}"
                )
                raise TurnkeeperError(
                    f"argument {place} is not UTF-8 text ({byte} at character {error.start + 1})"
                    ": give it in UTF-8 (iconv -t UTF-8 converts a file's text)"
                ) from None
        text.append(arg)
    return text


def _invoke(args: list[str] | None) -> int:
    try:
        args = _utf8_text(sys.argv[1:] if args is None else args)
        code = app(args=args, prog_name="turnkeeper", standalone_mode=False)
    except TurnkeeperError as error:
        print_error(str(error))
        return 2
    except NoArgsIsHelpError as error:
        # Typer's help draws itself on stdout while it is made (click's show() would add a
        # blank line on stderr); a script, or a referee reading stderr, still gets one line.
        shown = error.format_message()
        if shown.strip():
            sys.stdout.write(shown + "\n")
        where = error.ctx.command_path if error.ctx is not None else "turnkeeper"
        print_error(f"{where}: no verb given; `{where} --help` lists them")
        return 2
    except ClickException as error:
        hint = ""
        if isinstance(error, UsageError) and error.ctx is not None:
            hint = f" (see `{error.ctx.command_path} --help`)"
        print_error(f"{error.format_message()}{hint}")
        return error.exit_code
    except typer.Abort:
        return 1
    except typer.Exit as stop:
        return stop.exit_code
    return code if isinstance(code, int) else 0
