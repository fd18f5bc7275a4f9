"""The command line's verbs, made from the verb table: one Typer command per verb, no verb or
argument written here.

Each field of a verb's body model (:mod:`turnkeeper.verbs.body`) becomes an argument or an
option as its :class:`~turnkeeper.verbs.kinds.Cli` marker says (by default ``--field-name``),
with the field's description as its help and its kind's name of what to type; the command's
help is the model's docstring and its worked example. The command builds the body from what
was typed, so the command line and the HTTP API take the same values and refuse the same
ones, and runs it through :func:`turnkeeper.cli.runner.run` like every other verb.

Every verb made here also takes ``--dice`` (physical dice), ``--as`` (the party of the
world it is for), ``--player`` (show what the party
perceives), ``-c``, ``--db`` and ``--json``.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from pydantic import ValidationError
from pydantic.fields import FieldInfo
from typer._click import Context
from typer.core import TyperGroup

from turnkeeper.campaign import CampaignState, Command
from turnkeeper.cli.options import (
    AsPartyOption,
    CampaignOption,
    DbOption,
    DiceOption,
    PlayerOption,
)
from turnkeeper.cli.output import JsonOption, console, emit, say
from turnkeeper.cli.runner import open_campaigns, run
from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.files.reading import read_text
from turnkeeper.verbs import VERBS, Place, VerbBody, cli_of, kind_of
from turnkeeper.verbs.kinds import DURATION
from turnkeeper.verbs.line import (
    DEFAULT_WORD,
    choices_of,
    flags_of,
    is_list,
    metavar_of,
    on_the_line,
    problem_as_typed,
    said_in_words,
)

#: The options every verb made here takes, after its own.
_COMMON: tuple[tuple[str, Any, Any], ...] = (
    ("dice", str | None, DiceOption),
    ("as_party", str | None, AsPartyOption),
    ("as_player", bool, PlayerOption),
    ("campaign", str | None, CampaignOption),
    ("db", str | None, DbOption),
    ("as_json", bool, JsonOption),
)


#: What a group adds to a verb's JSON from the campaign's name and new state (a scene's table).
Details = Callable[[str, CampaignState], dict[str, Any]]
#: What a group adds to a verb's footer line from the new state (the party's hex).
Footer = Callable[[CampaignState], str]


class DefaultVerb(TyperGroup):
    """A group of commands that is also a verb: when the word after the group's name names none
    of its commands, the words are the verb's own (``travel ne`` travels, ``travel cost`` prices
    a hex). The verb is also reachable by its :data:`DEFAULT_WORD` (``travel to ne``), and
    ``travel --help`` is its help."""

    def parse_args(self, ctx: Context, args: list[str]) -> list[str]:
        if not args or args[0] not in self.commands:
            args = [DEFAULT_WORD, *args]
        return super().parse_args(ctx, args)


def attach(
    group: typer.Typer,
    *words: str,
    details: Details | None = None,
    where: Footer | None = None,
    place: Place | None = None,
    epilog: str | None = None,
) -> None:
    """Add to ``group`` every verb of the table whose words start with ``words`` and have one
    more: ``attach(countdown_app, "countdown")`` adds ``countdown add``, ``countdown tick``...
    A :class:`DefaultVerb` group also takes the verb of ``words`` itself, as its default.
    ``details`` adds the group's own view of the state to each verb's ``--json``, ``where``
    to its footer line, ``epilog`` a last paragraph to each help; ``place`` takes only the
    verbs of that place."""
    # a verb its group still writes by hand (combat start reads foes files) keeps that one
    written = {info.name for info in group.registered_commands}
    written |= {info.name for info in group.registered_groups}
    defaulted = group.info.cls is DefaultVerb
    for body in VERBS.values():
        line = body.line_words()
        fits = place is None or body.where is place
        if not fits:
            continue
        if line[:-1] == words and line[-1] not in written:
            name = line[-1]
        elif defaulted and line == words:
            name = DEFAULT_WORD
        else:
            continue
        settings = {"ignore_unknown_options": True} if _signed(body) else None
        group.command(name, help=help_of(body), context_settings=settings, epilog=epilog)(
            command_of(body, details, where)
        )


def help_of(body: type[VerbBody]) -> str:
    """A verb's help: its docstring, then its worked examples as typed."""
    text = inspect.cleandoc(body.__doc__ or "")
    examples = "; ".join(f"`turnkeeper {e.strip()}`" for e in body.example.split(";"))
    return f"{text}\n\nExample: {examples}." if body.example else text


def _signed(body: type[VerbBody]) -> bool:
    """Whether a verb's first argument may begin with a minus (``wait -3h``), which the line
    must hand to the verb to refuse in words rather than take for an option."""
    return any(kind_of(field) is DURATION for field in body.arguments().values())


def _typed_as(field: FieldInfo) -> Any:
    """What the command line reads a field as: a yes or no, a whole number, texts, or text
    (a positional span said in words, ``wait 3 turns``, as its words)."""
    annotation = field.annotation
    if annotation is bool:
        return bool
    cli = cli_of(field)
    if is_list(annotation) or (said_in_words(field) and cli is not None and cli.positional):
        return list[str] | None
    if annotation is int:
        return int | None
    if annotation in (int | None, typing.Optional[int]):  # noqa: UP045
        return int | None
    return str | None


def _parameter(name: str, field: FieldInfo) -> inspect.Parameter:
    typed = _typed_as(field)
    required = field.is_required()
    flags = flags_of(name, field)
    helped = field.description or ""
    choices = choices_of(field)
    if choices and kind_of(field) is None:
        helped += f" One of: {', '.join(choices)}."
    metavar = metavar_of(name, field)
    if not flags:
        argument = typer.Argument(
            ... if required else None, help=helped, metavar=metavar, show_default=False
        )
        return inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY, default=argument, annotation=typed
        )
    if typed is bool:
        default = bool(field.default)
        option = typer.Option(default, *flags, help=helped)
    else:
        option = typer.Option(
            ... if required else None, *flags, help=helped, metavar=metavar, show_default=False
        )
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option, annotation=typed)


def command_of(
    body: type[VerbBody], details: Details | None = None, where: Footer | None = None
) -> Callable[..., None]:
    """The Typer callback of one verb: read what was typed into the body, run its command."""
    fields = on_the_line(body)
    parameters = [_parameter(name, field) for name, field in fields.items()]
    parameters += [
        inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=t)
        for n, t, d in _COMMON
    ]

    def callback(**typed: Any) -> None:
        values: dict[str, Any] = {"verb": body.verb_name()}
        for name, field in fields.items():
            value = typed[name]
            if value is None:
                continue
            if isinstance(value, list) and not is_list(field.annotation):
                value = " ".join(value)  # a span's words, as read_line joins them
            cli = cli_of(field)
            if cli is not None and cli.file is not None:
                value = (
                    [_file(v, cli.file) for v in value]
                    if isinstance(value, list)
                    else _file(value, cli.file)
                )
            values[name] = value
        if typed["as_party"] is not None:
            values["as_party"] = typed["as_party"]
        try:
            made = body.model_validate(values)
        except ValidationError as error:
            raise IllegalCommandError(problem_as_typed(body, error)) from None

        def command(state: CampaignState) -> Command:
            told = made.chosen(state)
            if told and not typed["as_json"]:
                say(told)
            return made.build(state)

        run(
            typed["db"],
            typed["campaign"],
            command,
            typed["as_json"],
            typed["dice"],
            player=typed["as_player"],
            lines=body.as_lines,
            details=details,
            where=where,
        )

    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__annotations__ = {p.name: p.annotation for p in parameters}
    callback.__name__ = f"{body.verb_name()}_command"
    callback.__doc__ = help_of(body)
    return callback


def _file(path: str, what: str) -> dict[str, str]:
    """A file given on the line: its text, called by its path in messages."""
    return {"name": path, "text": read_text(Path(path), what, TurnkeeperError)}


#: The table's verbs of one word (``wait``, ``damage``), loaded by name when one runs
#: (:data:`turnkeeper.cli.app.VERBS`); a group's verbs join its group where it is made.
verbs = typer.Typer()
attach(verbs)

faction_app = typer.Typer(
    help="The world's factions: lay them out, reveal a deed as a rumour.\n\n"
    "Example: `turnkeeper faction load examples/factions.toml`.",
    no_args_is_help=True,
)
verbs.add_typer(faction_app, name="faction")
attach(faction_app, "faction")

world_app = typer.Typer(
    help="The world between sessions: catch it up by the actual days since the last session."
    "\n\nExample: `turnkeeper world catch-up --today 2026-11-29 --haven Aldo=work`.",
    no_args_is_help=True,
)
verbs.add_typer(world_app, name="world")
attach(world_app, "world")


@faction_app.command("list")
def faction_list(
    campaign: str | None = CampaignOption, db: str | None = DbOption, as_json: bool = JsonOption
) -> None:
    """The world's factions as they stand: each goal's clock, resources and holdings (the
    referee's: the players hear of a faction only by `faction reveal`).

    Example: `turnkeeper faction list`.
    """
    with open_campaigns(db) as campaigns:
        world = campaigns.state(campaigns.resolve(campaign)).factions
    factions = world.factions if world is not None else ()
    data = [f.model_dump(mode="json") for f in factions]

    def render() -> None:
        if not factions:
            console().print("No factions: lay them out with `faction load`.")
        for f in factions:
            resources = ", ".join(f"{name} {value:+d}" for name, value in f.resources.items())
            held = [*(f"hex {h}" for h in f.hexes), *f.sites]
            say(
                f"{f.name}: {f.goal} {f.filled}/{f.segments}"
                f"; resources {resources or 'none'}; holds {', '.join(held) or 'nothing'}",
                (" (referee)", "magenta"),
            )

    emit(data, as_json, render)


domain_app = typer.Typer(
    help="Domains: grant a character a hex or a site, list them, draw from their coffers.\n\n"
    "Example: `turnkeeper domain grant Aldo --hex 0304`.",
    no_args_is_help=True,
)
verbs.add_typer(domain_app, name="domain")
attach(domain_app, "domain")


@domain_app.command("list")
def domain_list(
    campaign: str | None = CampaignOption, db: str | None = DbOption, as_json: bool = JsonOption
) -> None:
    """The world's domains as they stand: holder, place, coffers and the people's mood (the
    referee's: the holder's players hear of theirs by `domain collect`).

    Example: `turnkeeper domain list`.
    """
    with open_campaigns(db) as campaigns:
        state = campaigns.state(campaigns.resolve(campaign))
    domains = state.domains
    data = [{**d.model_dump(mode="json"), "party": state.party_of(d.holder)} for d in domains]

    def render() -> None:
        if not domains:
            console().print("No domains: grant one with `domain grant`.")
        for d in domains:
            party = state.party_of(d.holder) or "no party"
            say(
                f"{d.name}: {d.place}, held by {d.holder} ({party}); coffers {d.coffers}; "
                f"the people {d.mood or 'not yet settled'}",
                (" (referee)", "magenta"),
            )

    emit(data, as_json, render)
