"""Parity (issue 24): every verb of the table is reachable from the command line, over HTTP and
from the dashboard, with the same arguments and the same refusals, and its help has a worked
example.

The command line's verbs made from the table say so (``from_table``); the few a group still
writes by hand are listed in :data:`BY_HAND`, and the test fails when that list is wrong either
way, so it only ever shrinks.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any

import click
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import turnkeeper.verbs
from turnkeeper.campaign import parse_party
from turnkeeper.cli.app import VERBS as CLI_VERBS
from turnkeeper.cli.app import app, load_verb
from turnkeeper.cli.from_table import DefaultVerb
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.store.sql import SqlStore
from turnkeeper.verbs import VERBS, VerbBody, cli_of
from turnkeeper.verbs.kinds import NOT_ON_THE_LINE
from turnkeeper.verbs.line import DEFAULT_WORD, flags_of
from turnkeeper.web.app import create_app
from turnkeeper.web.controls import table as dashboard
from turnkeeper.web.tokens import Role, issue_tokens

#: Verbs whose command line is still written by hand in their group: each is reachable, with
#: its own arguments. None is left; the test fails if one comes back unlisted.
BY_HAND: frozenset[str] = frozenset()

PARTY = '[[characters]]\nname = "Aldo"\nhp = 8\n[[characters]]\nname = "Bea"\nhp = 6\n'


def _command(words: tuple[str, ...]) -> click.Command | None:
    """The click command of a verb's words, or None when the command line lacks them."""
    if words[0] not in CLI_VERBS:
        return None
    command: Any = load_verb(words[0])
    for word in words[1:]:
        command = getattr(command, "commands", {}).get(word)
        if command is None:
            return None
    if isinstance(command, DefaultVerb):  # `travel ne` is the group's own verb
        command = command.commands[DEFAULT_WORD]
    return command  # type: ignore[no-any-return]


def _made_from_table(command: click.Command) -> bool:
    return getattr(command.callback, "__module__", "") == "turnkeeper.cli.from_table"


def test_every_body_a_group_declares_is_in_the_table() -> None:
    # the table gathers the groups' modules by name: one left out would lose its verbs
    declared = {
        value
        for module in pkgutil.iter_modules(turnkeeper.verbs.__path__, "turnkeeper.verbs.")
        for value in vars(importlib.import_module(module.name)).values()
        if isinstance(value, type) and issubclass(value, VerbBody) and value is not VerbBody
    }
    assert declared - set(VERBS.values()) == set()


def test_every_verb_of_the_table_has_a_command_line_made_from_it() -> None:
    made = set()
    for name, body in VERBS.items():
        command = _command(body.line_words())
        if command is not None and _made_from_table(command):
            made.add(name)
    missing = {n for n in VERBS if _command(VERBS[n].line_words()) is None} - BY_HAND
    assert not missing, f"verbs with no command line: {sorted(missing)}"
    assert set(VERBS) - made == BY_HAND, "BY_HAND is stale: " + str(
        sorted((set(VERBS) - made) ^ BY_HAND)
    )


@pytest.mark.parametrize("name", sorted(set(VERBS) - BY_HAND))
def test_the_command_line_takes_the_verbs_own_arguments(name: str) -> None:
    body = VERBS[name]
    command = _command(body.line_words())
    assert command is not None
    typed = {param.name for param in command.params}
    own = {n: f for n, f in body.arguments().items() if cli_of(f) is not NOT_ON_THE_LINE}
    assert set(own) <= typed - {"dice", "as_player", "campaign", "db", "as_json"}
    for field_name, field in own.items():
        param = next(p for p in command.params if p.name == field_name)
        flags = flags_of(field_name, field)
        if flags:
            assert set(param.opts) | set(param.secondary_opts) >= {
                f for flag in flags for f in flag.split("/")
            }, (name, field_name)
        else:
            assert param.param_type_name == "argument", (name, field_name)


def test_every_verb_is_on_the_dashboard_and_over_http_with_a_worked_example() -> None:
    on_the_dashboard = {control.verb for control in dashboard()}
    assert on_the_dashboard == set(VERBS)
    openapi = create_app(Campaigns(SqlStore("sqlite://"))).openapi()
    schemas = openapi["components"]["schemas"]
    for name, body in VERBS.items():
        assert body.__name__ in schemas, name
        assert body.example, f"{name} has no worked example"
        if name in BY_HAND:
            continue
        command = _command(body.line_words())
        assert command is not None
        assert "Example: `turnkeeper " in (command.help or ""), name


def test_the_root_lists_each_top_level_verb_by_its_own_first_line() -> None:
    for body in VERBS.values():
        words = body.line_words()
        root = CLI_VERBS.get(words[0]) if len(words) == 1 else None
        if root is not None and root.module == "from_table":
            first = (body.__doc__ or "").strip().splitlines()[0]
            assert root.summary == first, words[0]


# --- the same refusals ------------------------------------------------------------------------

#: A bad value for a verb, as typed on the command line and as sent over HTTP, and the words
#: both refusals must hold.
REFUSALS = [
    (["rest", "--turns", "0"], {"verb": "rest", "turns": 0}, "at least 1"),
    (["light", "--set-turns", "20000"], {"verb": "light", "set_turns": 20000}, "at most 10,000"),
    (
        ["countdown", "tick", "x", "--ticks", "5000"],
        {"verb": "countdown_tick", "name": "x", "ticks": 5000},
        "at most 1,000",
    ),
    (
        ["combat", "declare", "Aldo", "dance"],
        {"verb": "combat_declare", "actor": "Aldo", "action": "dance"},
        "unknown action 'dance'",
    ),
    (
        ["countdown", "add", "x", "--type", "short", "--length", "3", "--after-end", "later"],
        {
            "verb": "countdown_add",
            "name": "x",
            "kind": "short",
            "length": "3",
            "after_end": "later",
        },
        "say end or wound",
    ),
    (["damage", "Aldo", "0"], {"verb": "damage", "target": "Aldo", "amount": 0}, "at least 1"),
    (
        ["supply", "add", "torches"],
        {"verb": "supply_add", "item": "torches"},
        "say how many with --amount N",
    ),
]


@pytest.fixture
def store(tmp_path: Path) -> str:
    db = str(tmp_path / "parity.db")
    sql = open_store(db)
    Campaigns(sql).new("Keep", preset("ex"), parse_party(PARTY), seed=1)
    sql.close()
    return db


@pytest.mark.parametrize(("line", "body", "says"), REFUSALS, ids=[r[2] for r in REFUSALS])
def test_the_command_line_and_http_refuse_alike(
    store: str, line: list[str], body: dict[str, Any], says: str
) -> None:
    result = CliRunner().invoke(app, [*line, "--db", store, "-c", "Keep"])
    assert result.exit_code != 0
    assert says in str(result.exception or result.output), (line, result.output)

    sql = open_store(store)
    tokens = issue_tokens(sql, "Keep")
    client = TestClient(create_app(Campaigns(sql)))
    response = client.post(
        "/api/campaigns/Keep/commands",
        json=body,
        headers={"Authorization": f"Bearer {tokens[Role.REFEREE]}"},
    )
    assert 400 <= response.status_code < 500
    assert says in response.text, response.text
    assert Campaigns(sql).state("Keep").version == 1  # nothing recorded either way


def test_a_verb_reads_to_before_its_argument_only_where_the_shell_does() -> None:
    """``travel to ne`` is ``travel ne`` in the shell (travel is also a group: travel cost),
    and so on the dashboard's command line; ``explore to 0303`` is neither."""
    for body in VERBS.values():
        words = body.line_words()
        command = load_verb(words[0]) if len(words) == 1 else None
        assert body.grouped == isinstance(command, DefaultVerb), words
