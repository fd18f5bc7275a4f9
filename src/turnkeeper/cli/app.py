"""The Typer application: the verb table, and the one place where errors become exit codes.

Every verb takes ``--json``; people get Rich tables and colour. A user's mistake
(:class:`~turnkeeper.errors.TurnkeeperError`) exits 2 with one line on stderr, no traceback.

The root command knows every verb by name from :data:`VERBS` and imports a verb's module
only when that verb runs, so ``--help`` and ``roll`` never load the campaign, its store or
the web server (how ``gh``, ``uv`` and ``pip`` keep their help instant).
"""

from __future__ import annotations

import json
import os
import re
import sys
import traceback
import typing
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from difflib import get_close_matches
from functools import cache, partial
from importlib import import_module
from typing import TYPE_CHECKING, Any

import typer
from typer._click import Command, Context
from typer._click.exceptions import ClickException, NoArgsIsHelpError, UsageError
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from turnkeeper import __version__
from turnkeeper.errors import TurnkeeperError

if TYPE_CHECKING:
    from rich.console import Console
    from rich.segment import Segment
    from rich.text import Text

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
        "Simulate procedures many times over: delves into a site, journeys, fights.",
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
    _flags_as_flags(command)
    _readable_help(command)
    _bounded_numbers(command)
    return command


#: A Rich markup tag (``[bold]``, ``[/]``, ``[allies]``): Rich's own pattern, so a help text
#: that means ``[[allies]]`` literally is escaped before Typer reads it as markup. A rule ID
#: (``[TP-DISC-2]``) is no tag and stays as written.
_MARKUP_TAG = re.compile(r"(\\*)(\[[a-z#/@][^[]*?])")


def _plain(help_text: str | None) -> str | None:
    r"""Help text as written, never read as Rich markup.

    >>> print(_plain("its [[allies]] join [CB-SIDE-1]"))
    its [\[allies]] join [CB-SIDE-1]
    """
    if not help_text:
        return help_text
    # a tag already escaped by hand (an odd number of backslashes before it) stays
    return _MARKUP_TAG.sub(lambda m: m[0] if len(m[1]) % 2 else f"{m[1]}{m[1]}\\{m[2]}", help_text)


def _number_range(low: object, high: object) -> str | None:
    """A number's bounds in words, for the help's ``[...]`` after the type."""
    if low is None and high is None:
        return None
    if high is None:
        return f"{low} or more"
    if low is None:
        return f"at most {high}"
    return f"{low} to {high}"


#: Options that take a hex, whatever their name says.
_HEX_OPTIONS = frozenset({"--at", "--around", "--from", "--to"})


def _metavar(param: Any) -> str:
    """What to type for a value, in plain words: an argument's name in capitals (its help
    says the rest); for an option a choice's choices, N for a whole number, FILE for a path,
    HEX for a hex, else its name in capitals (--terrain TERRAIN)."""
    if isinstance(param, TyperArgument):
        return (param.name or "value").replace("_", "-").upper()
    if _HEX_OPTIONS & set(param.opts):
        return "HEX"
    kind = param.type_descriptor
    if kind.is_choice and kind.choices:
        return "|".join(str(getattr(c, "value", c)) for c in kind.choices)
    annotation = kind.annotation
    if typing.get_origin(annotation) is list:
        annotation = typing.get_args(annotation)[0]
    if annotation is int:
        return "N"
    if annotation is float:
        return "NUMBER"
    if kind.is_path or kind.is_file:
        return "FILE"
    longs = [o for o in param.opts if o.startswith("--")]
    word = longs[0].lstrip("-") if longs else (param.name or "value")
    return word.replace("_", "-").upper()


def _readable_help(command: Command) -> None:
    """Every help page in plain words (issue 24): a value's metavar is what to type (NAME, N,
    FILE, a choice's choices), never Typer's ``<list[str]>`` or ``{target}``; a number's range
    in words ("1 or more", not ``[x>=1]``); help text shown as written, never as Rich markup.
    The one place for every verb, as it loads."""
    command.help = _plain(command.help)
    for param in command.params:
        if getattr(param, "help", None):
            param.help = _plain(param.help)  # type: ignore[attr-defined]
        if param.metavar is None and not getattr(param, "is_flag", False):
            param.metavar = _metavar(param)
        if isinstance(param, TyperArgument | TyperOption):
            bounds = getattr(param, "min", None), getattr(param, "max", None)
            param._get_number_range_help_str = partial(_number_range, *bounds)  # type: ignore[method-assign]
        if isinstance(param, TyperArgument):
            param.__class__ = _PlainArgument
    for sub in getattr(command, "commands", {}).values():
        _readable_help(sub)


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


def _flags_as_flags(command: Command) -> None:
    """A flag's help shows no value to give (Typer labels every option with its type)."""
    help_option = command.get_help_option(Context(command))
    for param in (*command.params, *([help_option] if help_option else [])):
        if getattr(param, "is_flag", False):
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        _flags_as_flags(sub)


class _PlainArgument(TyperArgument):
    """An argument shown by its metavar alone: ``NAME`` (``[NAME]`` when optional) on the
    usage line, never Typer's ``{name}``, and no type beside it in the table."""

    def _usage_display_name(self) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name if self.nargs == 1 or name.endswith("...") else f"{name}..."

    def display_type_rich(self, ctx: Context) -> str | None:
        return None


class Verbs(TyperGroup):
    """The root command: every verb listed from :data:`VERBS`, each loaded when it runs."""

    def list_commands(self, ctx: Context) -> list[str]:
        return list(VERBS)

    def format_help(self, ctx: Context, formatter: Any) -> None:
        _flags_as_flags(self)
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


@cache
def console() -> Console:
    """The console people read, made on first use: a ``--json`` verb never loads Rich's."""
    return _plain_console()()


#: Control characters a user's text may hold (C0 but tab and new line, DEL, C1), none of which
#: reaches a terminal: an ESC or a CSI in a name or a note would drive it (retitle it, recolour
#: it, move the cursor) instead of being read. Rich leaves ESC in text; its own styling and
#: cursor moves are separate segments, untouched.
_CONTROLS = dict.fromkeys([*range(0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)])

#: The same controls as JSON writes them escaped: JSON escapes C0 itself but lets DEL and C1
#: stand raw in a string, where a terminal would obey them.
_CONTROLS_ESCAPED = {code: f"\\u{code:04x}" for code in range(0x7F, 0xA0)}


def for_terminal(text: str, *, json_text: bool = False) -> str:
    r"""``text`` written straight to a terminal (an export, a log), not through the console:
    the user's controls dropped (:data:`_CONTROLS`), or in JSON escaped, which reads back as
    the same data. Written to a file or a pipe, text stays byte for byte as stored.

    >>> for_terminal("Ab\x1b]0;pwned\x07bey"), for_terminal('"a\x9bb"', json_text=True)
    ('Ab]0;pwnedbey', '"a\\u009bb"')
    """
    return text.translate(_CONTROLS_ESCAPED if json_text else _CONTROLS)


@cache
def _plain_console() -> type[Console]:
    """The console class every verb prints through (stdout and stderr): Rich's, with the
    controls of :data:`_CONTROLS` taken out of the text it writes."""
    from rich.console import Console  # loaded only when something is drawn for people

    class PlainConsole(Console):
        def _render_buffer(self, buffer: Iterable[Segment]) -> str:
            # The one place text meets the terminal, after the layout: a control is zero
            # cells wide to Rich, so taking it out moves nothing.
            return super()._render_buffer(
                segment
                if segment.control
                else segment._replace(text=segment.text.translate(_CONTROLS))
                for segment in buffer
            )

    return PlainConsole


#: A piece of a line for people: text as written, or ``(text, style)`` drawn in Rich's style.
Piece = str | tuple[str, str]


def text(*pieces: Piece) -> Text:
    """Pieces as one Rich text for a line, a table's cell or a title: each piece as written,
    never read as markup (a name such as ``[/oops]`` prints as ``[/oops]``)."""
    from rich.text import Text  # loaded with the console, only when something is drawn

    return Text.assemble(*pieces)


def say(*pieces: Piece) -> None:
    """Print one line for people, every piece as text (:func:`text`): the one way a verb
    prints what a user wrote (names, notes, paths) among its own words.

    >>> say("Started ", ("[/oops]", "bold"), " under ex.")
    Started [/oops] under ex.
    """
    console().print(text(*pieces), highlight=False)


def print_error(message: str) -> None:
    """One line on stderr: ``error:`` and what is wrong (printed as text, never as markup)."""
    from rich.markup import escape

    # A message quotes what the user gave; a megabyte of it would take Rich minutes to lay out.
    shown = message if len(message) <= 2000 else f"{message[:2000]}... (cut)"
    # One line however it was made: a path or a name holding a new line (or any control) is
    # shown escaped, as repr shows it, never broken over two lines or sent to the terminal.
    shown = shown.translate(_ESCAPED)
    _plain_console()(stderr=True).print(
        f"[bold red]error:[/] {escape(shown)}", highlight=False, soft_wrap=True
    )


#: Every control character as repr shows it (``\\n``, ``\\x1b``), for :func:`print_error`.
_ESCAPED = {c: repr(chr(c))[1:-1] for c in [*range(0x20), *range(0x7F, 0xA0)]}


JsonOption = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")


def emit(data: Any, as_json: bool, render: Callable[[], None]) -> None:
    """Print ``data`` as JSON for machines, or call ``render`` to draw it for people."""
    if as_json:
        sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=ascii_json(), default=str) + "\n")
    else:
        render()


def ascii_json() -> bool:
    """Whether JSON written to stdout escapes non-ASCII: it stays whole on a terminal that is
    not UTF-8 (escaped, never a "?" in a name)."""
    return (sys.stdout.encoding or "").lower().replace("-", "") != "utf8"


def emit_pieces(head: dict[str, Any], key: str, pieces: Iterable[str]) -> None:
    """Print ``head`` with ``key`` holding the text of ``pieces``, as :func:`emit` prints it,
    writing each piece as it comes: a streamed export is never whole in memory."""
    ascii_only = ascii_json()
    opening = json.dumps({**head, key: ""}, indent=2, ensure_ascii=ascii_only)
    sys.stdout.write(opening[: -len('"\n}')])  # up to the empty text's opening quote
    for piece in pieces:
        # escapes are per character, so a piece escaped alone reads as part of the whole
        sys.stdout.write(json.dumps(piece, ensure_ascii=ascii_only)[1:-1])
    sys.stdout.write('"\n}\n')


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
