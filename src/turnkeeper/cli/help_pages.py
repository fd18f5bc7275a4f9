"""Every verb's help page in plain words (issue 24), put on its command as the verb loads.

A value's metavar is what to type (NAME, N, FILE, HEX, a choice's choices), never Typer's
``<list[str]>`` or ``{target}``; a number's range is in words ("1 or more", not ``[x>=1]``);
a flag shows no value to give; help text is shown as written, never read as Rich markup.
"""

from __future__ import annotations

import re
import typing
from functools import partial
from typing import Any

from typer._click import Command, Context
from typer.core import TyperArgument, TyperOption

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


def readable_help(command: Command) -> None:
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
        readable_help(sub)


def flags_as_flags(command: Command) -> None:
    """A flag's help shows no value to give (Typer labels every option with its type)."""
    help_option = command.get_help_option(Context(command))
    for param in (*command.params, *([help_option] if help_option else [])):
        if getattr(param, "is_flag", False):
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        flags_as_flags(sub)


class _PlainArgument(TyperArgument):
    """An argument shown by its metavar alone: ``NAME`` (``[NAME]`` when optional) on the
    usage line, never Typer's ``{name}``, and no type beside it in the table."""

    def _usage_display_name(self) -> str:
        name = self.display_name_raw if self.required else f"[{self.display_name_raw}]"
        return name if self.nargs == 1 or name.endswith("...") else f"{name}..."

    def display_type_rich(self, ctx: Context) -> str | None:
        return None
