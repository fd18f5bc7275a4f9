"""Fixtures for the CLI tests: run a verb against a store as a shell would."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers every verb group)
from turnkeeper.cli.app import app

Tk = Callable[..., Any]


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
