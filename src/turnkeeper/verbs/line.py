"""A verb's command line, read and completed from the verb table: what ``play`` types and the
dashboard's command line sends.

How a field is typed comes from its markers (:mod:`turnkeeper.verbs.kinds`): a positional
argument, or an option under its flags (``--field-name`` by default); a yes-or-no field is a
flag (``--ranged``, or ``--hide/--no-hide``), a field of several values takes the option once
a value (or the rest of the positional words). The shell's own command line is made from the
same helpers (``turnkeeper.cli.from_table``), so a verb reads the same everywhere.

>>> read_line('combat attack Aldo "giant rat 1" --ranged')["target"]
'giant rat 1'
>>> read_line("wait 1h --dice 3,5")
{'verb': 'wait', 'duration': '1h', 'dice': '3,5'}
>>> read_line("wait 3 turns")["duration"]
'3 turns'
"""

from __future__ import annotations

import shlex
import types
import typing
from collections.abc import Callable, Collection, Sequence
from enum import Enum
from typing import Any, Literal

from pydantic import ValidationError
from pydantic.fields import FieldInfo

from turnkeeper.campaign import CampaignState
from turnkeeper.errors import IllegalCommandError
from turnkeeper.verbs.body import VerbBody, cli_of, kind_of, problem_in_words
from turnkeeper.verbs.kinds import Cli
from turnkeeper.verbs.table import VERBS

#: The word a verb's words may be followed by before its destination: ``travel to ne``.
DEFAULT_WORD = "to"
#: The options every verb takes on a line, whatever the front door: physical dice, and the
#: party of the world the line is for.
DICE_FLAG = "--dice"
AS_FLAG = "--as"


def flags_of(name: str, field: FieldInfo) -> tuple[str, ...]:
    """The flags of a field typed as an option: its own, else ``--field-name``; none for a
    positional argument."""
    cli = cli_of(field)
    if cli is not None and cli.flags and cli.flags != ("",):
        return cli.flags
    if cli is not None and cli.positional:
        return ()
    return (f"--{name.replace('_', '-')}",)


def on_the_line(body: type[VerbBody]) -> dict[str, FieldInfo]:
    """The fields a command line types (not those given as data only)."""
    return {n: f for n, f in body.arguments().items() if (cli_of(f) or Cli()).flags != ("",)}


def is_list(annotation: Any) -> bool:
    """Whether a field takes several values."""
    origin = typing.get_origin(annotation)
    if origin in (types.UnionType, typing.Union):
        return any(is_list(a) for a in typing.get_args(annotation) if a is not type(None))
    return origin in (tuple, list, dict)


def choices_of(field: FieldInfo) -> list[str]:
    """The values a choice field takes (a ``Literal`` or an enum), as typed."""
    for annotation in (field.annotation, *typing.get_args(field.annotation)):
        if typing.get_origin(annotation) is Literal:
            return [str(a) for a in typing.get_args(annotation)]
        if isinstance(annotation, type) and issubclass(annotation, Enum):
            return [str(member.value) for member in annotation]
    return []


def metavar_of(name: str, field: FieldInfo) -> str | None:
    """What to type for a field: its marker's, its kind's, its choices, or its name."""
    cli, kind = cli_of(field), kind_of(field)
    if cli is not None and cli.metavar:
        return cli.metavar
    if kind is not None:
        return kind.metavar
    choices = choices_of(field)
    if choices:
        return "|".join(choices)
    return None if field.annotation is bool else name.upper()


def shown(body: type[VerbBody], name: str) -> str:
    """How a person typed a field: its flag, or its argument's name in capitals."""
    field = body.arguments().get(name)
    if field is None:
        return name
    flags = flags_of(name, field)
    return flags[0].split("/")[0] if flags else (metavar_of(name, field) or name.upper())


def problem_as_typed(body: type[VerbBody], error: ValidationError) -> str:
    """The first problem with what was typed, named as the person typed it."""
    first = error.errors()[0]
    where = first.get("loc", ())
    named = shown(body, str(where[0])) if where else body.verb_name()
    typed, words = first.get("input"), problem_in_words(first)
    # the value as typed, unless the words already quote it
    value = f" {typed!r}" if isinstance(typed, str) and repr(typed) not in words else ""
    return f"{named}{value}: {words}"


def verb_of(words: Sequence[str]) -> tuple[type[VerbBody], int] | None:
    """The verb a line's first words name, and how many words name it (``travel to`` is two:
    the verb's, and :data:`DEFAULT_WORD` after a verb that is also a group of the shell's)."""
    for body in VERBS.values():
        named = body.line_words()
        if tuple(words[: len(named)]) == named:
            used = len(named)
            if body.grouped and list(words[used : used + 1]) == [DEFAULT_WORD]:
                used += 1
            return body, used
    return None


def _switches(name: str, field: FieldInfo) -> dict[str, bool]:
    """A yes-or-no field's flags, each with the value it sets: ``--hide`` and ``--no-hide``."""
    switches: dict[str, bool] = {}
    for flag in flags_of(name, field):
        yes, _, no = flag.partition("/")
        switches[yes] = True
        if no:
            switches[no] = False
    return switches


def read_line(line: str) -> dict[str, Any]:
    """The body a line asks for: its verb, the values it gives each field as typed, and the
    physical dice after ``--dice``; the verb's model validates them. One clear error for a
    line that names no verb, an unknown option, a value missing or a word too many.
    """
    try:
        words = shlex.split(line)
    except ValueError as error:
        raise IllegalCommandError(f"cannot read that line: {error}") from None
    if not words:
        raise IllegalCommandError("an empty line: type a verb, e.g. `turn` or `wait 1h`")
    found = verb_of(words)
    if found is None:
        first = sorted({b.line_words()[0] for b in VERBS.values()})
        raise IllegalCommandError(
            f"{words[0]!r} names no verb here; the verbs begin: {', '.join(first)}"
        )
    body, used = found
    fields = on_the_line(body)
    options: dict[str, tuple[str, FieldInfo, bool | None]] = {}
    for name, field in fields.items():
        if field.annotation is bool:
            for flag, value in _switches(name, field).items():
                options[flag] = (name, field, value)
        else:
            for flag in flags_of(name, field):
                options[flag] = (name, field, None)
    positional = [(n, f) for n, f in fields.items() if not flags_of(n, f)]
    values: dict[str, Any] = {"verb": body.verb_name()}
    rest = iter(words[used:])
    for word in rest:
        flag, equals, given = word.partition("=")
        if flag == DICE_FLAG:  # the faces, which every verb's model reads
            values["dice"] = given if equals else next(rest, "")
            continue
        if flag == AS_FLAG:  # the party it is for, which every verb's model reads
            values["as_party"] = given if equals else next(rest, "")
            continue
        if word.startswith("--") or (word.startswith("-") and word in options):
            if flag not in options:
                known = ", ".join([*options, DICE_FLAG, AS_FLAG])
                raise IllegalCommandError(
                    f"{flag}: not an option of `{' '.join(body.line_words())}`; its options "
                    f"are {known}"
                )
            name, field, switch = options[flag]
            if switch is not None:
                values[name] = switch
                continue
            typed = given if equals else next(rest, None)
            if typed is None:
                raise IllegalCommandError(f"{flag} needs a value ({metavar_of(name, field)})")
            _give(values, name, field, typed)
            continue
        if not positional:
            raise IllegalCommandError(
                f"{word!r}: one word too many for `{' '.join(body.line_words())}`"
            )
        name, field = positional[0]
        spoken = len(positional) == 1 and said_in_words(field)
        if spoken and name in values:  # ``wait 3 turns``: the words of one span
            values[name] = f"{values[name]} {word}"
            continue
        _give(values, name, field, word)
        if not is_list(field.annotation) and not spoken:
            positional.pop(0)
    for name, field in fields.items():
        cli = cli_of(field)
        if cli is not None and cli.file is not None and name in values:
            raise IllegalCommandError(
                f"{shown(body, name)} is a {cli.file} on the shell's command line: give its "
                "text in the form instead"
            )
    return values


def said_in_words(field: FieldInfo) -> bool:
    """Whether a positional field is said in words (``3 turns``) that a line may leave
    unquoted when it is the last: its words join."""
    kind = kind_of(field)
    return kind is not None and kind.spoken


def _give(values: dict[str, Any], name: str, field: FieldInfo, value: str) -> None:
    if is_list(field.annotation):
        values.setdefault(name, []).append(value)
    else:
        values[name] = value


def body_of_line(line: str, **shared: Any) -> VerbBody:
    """The validated body a line asks for (:func:`read_line`), with ``shared`` fields every
    verb takes from its front door (``expected_version``); its problems named as typed."""
    values = read_line(line)
    body = VERBS[values["verb"]]
    try:
        return body.model_validate(values | shared)
    except ValidationError as error:
        raise IllegalCommandError(problem_as_typed(body, error)) from None


def complete(
    text: str,
    state: CampaignState,
    extra: Callable[[type[VerbBody]], Sequence[str]] = lambda body: (DICE_FLAG,),
) -> tuple[int, list[str]]:
    """What may come next on a line that ends with ``text``: where the word being typed
    starts, and the words that fit there now (each quoted as it must be typed): a verb's
    words, then its options (after ``-``, with ``extra`` of the front door) and, for each
    argument or option value, what its kind names now in the game or its choices."""
    done, current, start, quote = split_words(text)
    offered = [
        w
        for w in _next_words(done, current, state, extra)
        if w.casefold().startswith(current.casefold())
    ]
    return start, [quoted(word, quote) for word in offered]


def _next_words(
    done: list[str],
    current: str,
    state: CampaignState,
    extra: Callable[[type[VerbBody]], Sequence[str]],
) -> list[str]:
    found = verb_of(done)
    if found is None:
        depth = len(done)
        return list(
            dict.fromkeys(
                b.line_words()[depth]
                for b in VERBS.values()
                if len(b.line_words()) > depth and b.line_words()[:depth] == tuple(done)
            )
        )
    body, used = found
    fields = on_the_line(body)
    if current.startswith("-"):
        flags = [
            flag
            for name, field in fields.items()
            for flag in (
                _switches(name, field) if field.annotation is bool else flags_of(name, field)
            )
        ]
        return [*flags, *extra(body)]
    return values_next(body, done[used:], state)


def values_next(
    body: type[VerbBody],
    typed: Sequence[str],
    state: CampaignState,
    foreign: Collection[str] = (),
) -> list[str]:
    """What the next value after ``typed`` (the words after the verb's) may be; ``foreign``
    are the front door's own options that take a value (``--campaign NAME``), skipped with
    it."""
    fields = on_the_line(body)
    options = {
        flag: (name, field)
        for name, field in fields.items()
        if field.annotation is not bool
        for flag in flags_of(name, field)
    }
    positional = [(n, f) for n, f in fields.items() if not flags_of(n, f)]
    given: dict[str, str] = {}
    taken: list[str] = []  # what a field of several values was given already
    expecting: tuple[str, FieldInfo] | None = None
    for word in typed:
        if expecting is not None:
            given[expecting[0]] = word
            expecting = None
            continue
        flag, equals, value = word.partition("=")
        if word.startswith("-") and flag in foreign:
            if not equals:
                expecting = ("", FieldInfo(annotation=str))  # its value: not the verb's
            continue
        if word.startswith("-"):
            option = options.get(flag)
            if option is not None:
                if equals:
                    given[option[0]] = value
                else:
                    expecting = option
            elif flag == DICE_FLAG and not equals:
                expecting = ("dice", FieldInfo(annotation=str))
            elif flag == AS_FLAG and not equals:
                expecting = ("as_party", VerbBody.model_fields["as_party"])
            continue
        if not positional:  # one more than the verb takes
            return []
        name, field = positional[0]
        given[name] = word
        if is_list(field.annotation):
            taken.append(word)
        else:
            positional.pop(0)
    wanted = expecting if expecting is not None else next(iter(positional), None)
    if wanted is None:
        return []
    name, field = wanted
    kind = kind_of(field)
    if kind is None:
        offered = choices_of(field)
    else:
        offered = kind.complete(state, {k: v for k, v in given.items() if k in fields})
    return [o for o in offered if o not in taken] if is_list(field.annotation) else offered


def split_words(text: str) -> tuple[list[str], str, int, str | None]:
    """The words of a line as the shell reads them: those done, the one being typed (empty
    after a space), where that one starts in ``text``, and the quote left open (or None)."""
    words: list[str] = []
    word: list[str] | None = None
    start = len(text)
    quote: str | None = None
    at = 0
    while at < len(text):
        char = text[at]
        if quote is None and char.isspace():
            if word is not None:
                words.append("".join(word))
            word, start = None, len(text)
        else:
            if word is None:
                word, start = [], at
            if quote is None and char in "\"'":
                quote = char
            elif char == quote:
                quote = None
            elif char == "\\" and quote != "'" and at + 1 < len(text):
                if quote is None or text[at + 1] in '"\\':
                    at += 1
                word.append(text[at])
            else:
                word.append(char)
        at += 1
    return words, "".join(word or ()), start, quote


def quoted(word: str, quote: str | None) -> str:
    """``word`` as typed on the line: in the quote the line opened (closed), in double quotes
    when it holds a space or another character the shell reads, else as it is."""
    if quote == "'":
        return "'" + word.replace("'", "'\\''") + "'"
    if quote is None and shlex.quote(word) == word:
        return word
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'
