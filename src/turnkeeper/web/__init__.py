"""The HTTP API and web pages over the campaign service (``turnkeeper serve``).

:func:`create_app` builds the FastAPI application over a :class:`~turnkeeper.service.Campaigns`;
every player response goes through :mod:`turnkeeper.views`, the one filter the CLI's player
view uses too; :mod:`turnkeeper.web.tokens` makes and checks the access tokens.
Names load lazily, so the CLI can make tokens without importing FastAPI.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from turnkeeper.web.app import create_app, status_of
    from turnkeeper.web.tokens import Role, issue_tokens, role_of

_HOMES = {
    "create_app": "app",
    "status_of": "app",
    "Role": "tokens",
    "issue_tokens": "tokens",
    "role_of": "tokens",
}

__all__ = [
    "Role",
    "create_app",
    "issue_tokens",
    "role_of",
    "status_of",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'turnkeeper.web' has no attribute {name!r}")
    return getattr(import_module(f"turnkeeper.web.{home}"), name)
