"""Fixtures for the CLI tests: run a verb against a store as a shell would."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers every verb group)
from turnkeeper.cli.app import app, invoke
from turnkeeper.errors import TurnkeeperError

Tk = Callable[..., Any]


def kinds(out: Any) -> list[str]:
    """The kinds of the records a verb printed as JSON."""
    return [record["kind"] for record in out["records"]]


def texts(out: Any) -> list[str]:
    """The lines of the records a verb printed as JSON."""
    return [record["text"] for record in out["records"]]


def records(out: Any, kind: str) -> list[dict[str, Any]]:
    """The records of one kind a verb printed as JSON."""
    return [record for record in out["records"] if record["kind"] == kind]


def new_campaign(tk: Tk, folder: Path, ruleset: str, party: str, seed: int) -> str:
    """A store in ``folder`` holding a new campaign, Keep, under ``ruleset`` with the party
    file ``party`` (TOML text) and ``seed``; the store's path."""
    path = folder / "party.toml"
    path.write_text(party, encoding="utf-8")
    db = str(folder / f"{ruleset}.db")
    tk(db, "new", "Keep", "--ruleset", ruleset, "--party", str(path), "--seed", str(seed))
    return db


def printed(*args: str) -> str:
    """What a command line prints, run in this process; it must succeed."""
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def refused(*args: str) -> str:
    """The user's mistake a command line makes (the entry point prints it as one line and
    exits 2)."""
    result = CliRunner().invoke(app, list(args))
    assert isinstance(result.exception, TurnkeeperError), result.output
    return str(result.exception)


@pytest.fixture
def tk() -> Tk:
    """``tk(db, *args, as_json=True)``: run a verb with ``--db db`` (and ``--json``); return the
    parsed JSON, or the text printed for people. A user's mistake propagates as its error."""
    runner = CliRunner()

    def run(db: str, *args: str, as_json: bool = True) -> Any:
        result = runner.invoke(app, [*args, "--db", db, *(["--json"] if as_json else [])])
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise result.exception
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout) if as_json else result.stdout

    return run


@dataclass(frozen=True)
class Said:
    """What one command line did: its exit code and what it printed on stdout and stderr."""

    code: int
    out: str
    err: str


class Shell:
    """Command lines through the CLI's front door (``cli.app.invoke``, the console script's own
    path: errors become exit codes and one line), in process, and the store as a user sees it."""

    def __call__(self, *args: str) -> Said:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = invoke(list(args))
        return Said(code, out.getvalue(), err.getvalue())

    def store(self, db: str) -> tuple[str, ...]:
        """The campaign list and every campaign's exported journal: what a refusal must keep."""
        listed = self("campaigns", "--db", db, "--json")
        assert listed.code == 0, listed.err
        names = json.loads(listed.out)["campaigns"]
        journals = [self("export", "-c", name, "--db", db).out for name in names]
        return (listed.out, *journals)


@pytest.fixture(scope="session")
def shell() -> Shell:
    """``shell(*args)`` runs a command line as the console script does; ``shell.store(db)``."""
    return Shell()
