"""The one family of errors a user can cause.

Every error here is a ``ValueError`` under :class:`TurnkeeperError`, so adapters catch one
root and turn it into exit code 2 (CLI) or a 4xx response (HTTP) with its one-line message.
The kinds follow python-chess: bad notation, not allowed now, ambiguous.
"""

from __future__ import annotations


class TurnkeeperError(ValueError):
    """A mistake a user can fix; the message says what is wrong and how to fix it."""


class DiceNotationError(TurnkeeperError):
    """A dice expression that does not parse, or names a value that was not given."""


class DiceInputError(TurnkeeperError):
    """A typed-in physical die that cannot be (a d6 showing 7), or too few typed-in dice."""


class TooFewDiceError(DiceInputError):
    """Fewer typed-in dice than the command rolls: the caller may say which dice it rolls."""


class RulesetError(TurnkeeperError):
    """A ruleset file that is broken: names the file, the key path and what was expected."""


class IllegalCommandError(TurnkeeperError):
    """A well-formed command that the rules do not allow in this state."""


class NotFoundError(TurnkeeperError):
    """A campaign, table, preset, hex or feature that does not exist."""


class ConflictError(TurnkeeperError):
    """An append whose expected version is stale: another writer got there first."""
