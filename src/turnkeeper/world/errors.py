"""The map's own error: a broken map file or a hex that is not on the map."""

from __future__ import annotations

from turnkeeper.errors import TurnkeeperError


class MapError(TurnkeeperError):
    """A map file that is broken: names the file, the key path and what was expected."""
