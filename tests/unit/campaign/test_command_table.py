"""A command is declared in three places that must agree: its class, the ``Command`` union
every front door types, and ``HANDLERS``, which decides it (issue 42: nothing compared them)."""

from __future__ import annotations

import types
import typing
from typing import Any

from turnkeeper.campaign.commands import HANDLERS, AsParty, Command


def _members(union: Any) -> set[type]:
    """The classes of a union of unions, to any depth."""
    if typing.get_origin(union) in (types.UnionType, typing.Union):
        return {member for part in typing.get_args(union) for member in _members(part)}
    return {union}


def test_every_command_of_the_union_has_a_handler_and_every_handler_a_command() -> None:
    commands = _members(Command)
    handled = set(HANDLERS)
    # AsParty wraps another command and is decided by what it wraps
    assert commands - handled == {AsParty}
    assert handled - commands == set()
