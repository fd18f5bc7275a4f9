"""A table over HTTP for the tests of the players' own links: the referee's commands, a link
for one character, and what its player sends from it; and the campaign they play."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from fastapi.testclient import TestClient

from turnkeeper.campaign import parse_party
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens

PAGE = "/campaigns/Keep"
FORM = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
PARTY = '[[characters]]\nname = "Aldo"\nhp = 8\n[[characters]]\nname = "Bea"\nhp = 6'


class Table:
    """The campaign Keep served to a test client, with its tokens."""

    def __init__(self, client: TestClient, campaigns: Campaigns, tokens: dict[Role, str]):
        self.client, self.campaigns, self.tokens = client, campaigns, tokens

    def answer(self, form: str) -> tuple[int, str]:
        """The referee's command (a dashboard form), and the answer: its status and text."""
        done = self.client.post(f"{PAGE}/commands?token={self.tokens[Role.REFEREE]}",
                                content=form, headers=FORM)  # fmt: skip
        return done.status_code, done.text

    def referee(self, form: str) -> str:
        """The referee's command, which must be done: the answer's text."""
        code, said = self.answer(form)
        assert code == 200, said
        return said

    def hand_link(self, character: str) -> str:
        """The token of a new link for ``character``'s player."""
        made = self.client.post(f"{PAGE}/hand-link?token={self.tokens[Role.REFEREE]}",
                                content=f"character={character}", headers=FORM)  # fmt: skip
        assert made.status_code == 200, made.text
        found = re.search(r'value="[^"]*\?token=([^"]+)"', made.text)
        assert found is not None, made.text
        return found[1]

    def hand(self, token: str, form: str) -> tuple[int, str]:
        """What a player sends from the link ``token``: the answer's status and its words."""
        sent = self.client.post(f"{PAGE}/hand?token={token}", content=form, headers=FORM)
        return sent.status_code, html.unescape(sent.text)


@contextmanager
def table_of(tmp_path: Path, ruleset: str) -> Iterator[Table]:
    """Keep, Aldo and Bea's campaign under the preset ``ruleset``, served to a test client."""
    campaigns = Campaigns(SqlStore(f"sqlite:///{tmp_path / 'keep.db'}"))
    campaigns.new("Keep", preset(ruleset), parse_party(PARTY), seed=3)
    tokens = issue_tokens(campaigns.store, "Keep")
    with TestClient(create_app(campaigns)) as client:
        yield Table(client, campaigns, tokens)
