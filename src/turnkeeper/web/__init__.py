"""The HTTP API and web pages over the campaign service (``turnkeeper serve``).

:func:`create_app` builds the FastAPI application over a :class:`~turnkeeper.service.Campaigns`;
:func:`player_state` is the party's view of a campaign state, the one filter every player
response goes through; :mod:`turnkeeper.web.tokens` makes and checks the access tokens.
"""

from turnkeeper.web.app import create_app, status_of
from turnkeeper.web.tokens import Role, issue_tokens, role_of
from turnkeeper.web.views import PlayerState, player_record, player_state

__all__ = [
    "PlayerState",
    "Role",
    "create_app",
    "issue_tokens",
    "player_record",
    "player_state",
    "role_of",
    "status_of",
]
