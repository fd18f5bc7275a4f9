"""Per-campaign access tokens for the web server: one for the referee, one for the players.

A token is random (``secrets.token_urlsafe``); the store keeps only its SHA-256 digest, so a
token is shown once, when it is made (``turnkeeper serve`` on first start, or ``turnkeeper
tokens NAME --rotate``). A request is checked by hashing what it carries and comparing the
digests in constant time. One role's token can be renewed alone (:func:`renew_token`, ``tokens
NAME --role player --rotate``): a player link that leaked is replaced and the referee's stays.

>>> import tempfile, os
>>> from turnkeeper.store import open_store
>>> from turnkeeper.service import Campaigns
>>> from turnkeeper.rules.loader import preset
>>> store = open_store(os.path.join(tempfile.mkdtemp(), "t.db"))
>>> _ = Campaigns(store).new("Keep", preset("ex"), seed=1)
>>> made = issue_tokens(store, "Keep")
>>> sorted(role.value for role in made), issue_tokens(store, "Keep")
(['player', 'referee'], {})
>>> role_of(store, "Keep", made["player"]), role_of(store, "Keep", "guess")
(<Role.PLAYER: 'player'>, None)
>>> fresh = renew_token(store, "Keep", Role.PLAYER)
>>> role_of(store, "Keep", made["player"]), role_of(store, "Keep", fresh).value
(None, 'player')
>>> role_of(store, "Keep", made["referee"]).value
'referee'
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from turnkeeper.errors import TurnkeeperError
from turnkeeper.store import EventStore, TokenStore


class Role(StrEnum):
    """Who holds a token: the referee sees and does everything, the players see their view."""

    REFEREE = "referee"
    PLAYER = "player"


@dataclass(frozen=True)
class Hand:
    """A character's own link, in a world of several parties: its page shows the party the
    character is with, never the one the referee runs (issue 28)."""

    character: str


#: Who a page is drawn for: the referee, the table's players (the party run now), or one
#: character's player in a world of several parties.
Seat = Role | Hand

_ROLES = frozenset(role.value for role in Role)
#: The store's name of a character's own link: a player's hands (issue 26). It reads what the
#: players read and acts for that character alone, when the rules ask its player.
_HAND = "hand:"


def hand_key(character: str) -> str:
    """The store's name of ``character``'s link: short whatever the name's length.

    >>> hand_key("Aldo"), len(hand_key("Ser Wendeline of the Long Barrow")) <= 20
    ('hand:7722aba40e28d98', True)
    """
    return _HAND + hashlib.sha256(character.casefold().encode("utf-8")).hexdigest()[:15]


def issue_hand(store: EventStore, campaign: str, character: str) -> str:
    """A new link for ``character``'s player (the old one, if any, stops working); shown only
    now."""
    tokens = token_store(store)
    store.version(campaign)  # NotFoundError for a campaign that does not exist
    token = secrets.token_urlsafe(24)
    tokens.set_token_hash(campaign, hand_key(character), digest(token))
    return token


def hand_of(hashes: Mapping[str, str], token: str, characters: Iterable[str]) -> str | None:
    """The character whose link ``token`` is, among ``characters``; None for any other token."""
    given = digest(token)
    found: str | None = None
    for character in characters:
        kept = hashes.get(hand_key(character))
        if kept is not None and hmac.compare_digest(given, kept):
            found = character
    return found


def digest(token: str) -> str:
    """The SHA-256 hex digest the store keeps in place of a token.

    >>> digest("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_store(store: EventStore) -> TokenStore:
    """The store as a token store; one clear error for a store that cannot keep tokens."""
    if not isinstance(store, TokenStore):
        raise TurnkeeperError(f"{store!r} cannot keep access tokens: use the SQL store")
    return store


def issue_tokens(
    store: EventStore, campaign: str, rotate: bool = False, role: Role | None = None
) -> dict[Role, str]:
    """Make the tokens ``campaign`` lacks (renew them too with ``rotate``); return the new ones.

    ``role`` limits it to that role's token (default: the referee's and the players'). Only
    the new tokens come back: the old ones are kept as hashes and cannot be shown again.
    """
    tokens = token_store(store)
    have = tokens.token_hashes(campaign)
    store.version(campaign)  # NotFoundError for a campaign that does not exist
    made: dict[Role, str] = {}
    for each in Role if role is None else (role,):
        if rotate or each.value not in have:
            made[each] = _make(tokens, campaign, each)
    return made


def renew_token(store: EventStore, campaign: str, role: Role) -> str:
    """A new token for ``role`` in ``campaign`` (a new player link, say): the old one of that
    role stops working at once, the other role's keeps working. Shown only now."""
    tokens = token_store(store)
    store.version(campaign)  # NotFoundError for a campaign that does not exist
    return _make(tokens, campaign, role)


def _make(tokens: TokenStore, campaign: str, role: Role) -> str:
    token = secrets.token_urlsafe(24)
    tokens.set_token_hash(campaign, role.value, digest(token))
    return token


def role_of(store: EventStore, campaign: str, token: str) -> Role | None:
    """The role ``token`` grants in ``campaign``, or None for a wrong or missing token."""
    return _match(token_store(store).token_hashes(campaign), token)


def _match(hashes: Mapping[str, str], token: str) -> Role | None:
    given = digest(token)
    found: Role | None = None
    for role, kept in hashes.items():
        # compare every digest, so the time taken does not say which role nearly matched
        if hmac.compare_digest(given, kept):
            if role in _ROLES:
                found = Role(role)
            elif role.startswith(_HAND):  # a character's link reads as the players do
                found = Role.PLAYER
    return found


class TokenCheck:
    """Tokens checked against digests read from the store at most once a ``ttl`` per
    campaign, so a busy table's every request does not read them again. A renewal made
    through :meth:`forget`'s caller counts at once; one made elsewhere (the CLI's ``tokens
    --rotate``) within ``ttl`` seconds.

    >>> import tempfile, os
    >>> from turnkeeper.store import open_store
    >>> store = open_store(os.path.join(tempfile.mkdtemp(), "t.db"))
    >>> store.create("Keep")
    >>> made = issue_tokens(store, "Keep")
    >>> check = TokenCheck(store, ttl=60)
    >>> check.role("Keep", made["referee"]).value
    'referee'
    >>> fresh = renew_token(store, "Keep", Role.REFEREE)
    >>> check.role("Keep", made["referee"]).value  # still the digests read a moment ago
    'referee'
    >>> check.forget("Keep")
    >>> check.role("Keep", made["referee"]), check.role("Keep", fresh).value
    (None, 'referee')
    """

    def __init__(
        self, store: EventStore, ttl: float = 1.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.store, self.ttl, self.clock = store, ttl, clock
        self._read: dict[str, tuple[float, Mapping[str, str]]] = {}

    def role(self, campaign: str, token: str) -> Role | None:
        """The role ``token`` grants in ``campaign``, or None."""
        now = self.clock()
        kept = self._read.get(campaign)
        if kept is None or now - kept[0] > self.ttl:
            kept = (now, token_store(self.store).token_hashes(campaign))
            if kept[1]:  # a name with no tokens (a probe, a typo) is not kept
                self._read[campaign] = kept
        return _match(kept[1], token)

    def hand(self, campaign: str, token: str, characters: Iterable[str]) -> str | None:
        """The character whose link ``token`` is (among ``characters``), or None."""
        self.role(campaign, token)  # reads the digests, at most once a ttl
        kept = self._read.get(campaign)
        return None if kept is None else hand_of(kept[1], token, characters)

    def forget(self, campaign: str) -> None:
        """Read the campaign's digests afresh next time (after a renewal here)."""
        self._read.pop(campaign, None)
