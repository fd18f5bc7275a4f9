"""A command's numbers and texts held to what the journal keeps, whichever door the command
came in by (CLI, HTTP, a play session): :func:`~turnkeeper.campaign.commands.decide` checks
every command with these."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from functools import cache
from typing import TYPE_CHECKING, TypeVar

from turnkeeper.errors import IllegalCommandError
from turnkeeper.files.names import MAX_TEXT_LENGTH, check_number

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")


def check_numbers(command: DataclassInstance) -> None:
    """Every whole number a command gives within 64 bits: the journal keeps it, and a
    journal holding a larger number cannot be imported again."""
    for name, number in _values(command, int):
        if not isinstance(number, bool):
            check_number(number, name, IllegalCommandError)


def check_texts(command: DataclassInstance) -> None:
    """Every text a command gives within :data:`MAX_TEXT_LENGTH` characters; checked after
    the procedure, whose own refusal (a name's 200 characters, a note's) says it better, so
    this catches only what no procedure bounds."""
    for name, text in _values(command, str):
        if len(text) > MAX_TEXT_LENGTH:
            raise IllegalCommandError(
                f"{name}: {len(text):,} characters; a text is at most "
                f"{MAX_TEXT_LENGTH:,} characters: shorten or split it"
            )


def _values(command: DataclassInstance, kind: type[T]) -> Iterator[tuple[str, T]]:
    """The command's values of ``kind``, each with its field's name, tuples opened."""
    for name in _field_names(type(command)):
        value = getattr(command, name)
        if isinstance(value, kind):
            yield name, value
        elif isinstance(value, tuple | list):
            yield from ((name, item) for item in value if isinstance(item, kind))


@cache  # every command is checked twice: its class's fields are read once, not each time
def _field_names(command: type[DataclassInstance]) -> tuple[str, ...]:
    """The field names of a command class (a dataclass), in order."""
    return tuple(field.name for field in fields(command))
