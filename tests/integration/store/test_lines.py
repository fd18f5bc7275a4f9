"""A record's line is kept beside it when it is written (issue 23): ``log --json`` streams
the stored text and the kept line, and reads no event back. A store made before lines were
kept gains the column when opened, and its old records' lines are made as they are read, so
its log is the same, byte for byte.

The store tests run on SQLite, and on PostgreSQL with TURNKEEPER_TEST_PG (``backend``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from turnkeeper.campaign import Light, Note, Wait
from turnkeeper.cli.app import app as cli
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore

if TYPE_CHECKING:
    from tests.conftest import Backend

from tests.integration.store.test_service import PARTY


def _play(campaigns: Campaigns) -> None:
    campaigns.new("Keep", preset("ex"), PARTY, seed=3)
    for command in (Light("torch"), Wait(1800), Note("the door is barred, ünïcode too"), Wait(600)):
        campaigns.execute("Keep", command)


def test_each_record_is_written_with_its_line(backend: Backend) -> None:
    store = SqlStore(backend.url, schema=backend.schema)
    try:
        campaigns = Campaigns(store)
        _play(campaigns)
        kept = [row for page in store.read_lines("Keep", 0, 1000, 3) for row in page]
        journal = campaigns.journal("Keep")
        assert [(json.loads(text)["seq"], command, at) for command, at, text, _ in kept] == [
            (r.seq, r.command, r.at) for r in journal.records
        ]
        assert [line for *_, line in kept] == [r.event.describe() for r in journal.records]
        # the records between two seqs, a page at a time
        pages = list(store.read_lines("Keep", 3, 6, 2))
        assert [[json.loads(text)["seq"] for _, _, text, _ in page] for page in pages] == [
            [4, 5],
            [6],
        ]
    finally:
        store.close()


def _log_json(url: str) -> str:
    result = CliRunner().invoke(cli, ["log", "--json", "--db", url, "-c", "Keep"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_store_made_before_lines_were_kept_logs_the_same(tmp_path: Path) -> None:
    new, old = f"sqlite:///{tmp_path / 'new.db'}", f"sqlite:///{tmp_path / 'old.db'}"
    for url in (new, old):
        store = SqlStore(url)
        try:
            _play(Campaigns(store))
        finally:
            store.close()
    # the old store as an older turnkeeper left it: no column of lines
    engine = create_engine(old)
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE events DROP COLUMN line"))
    engine.dispose()
    expected = _log_json(new)
    assert _log_json(old) == expected  # opened, it gains the column; lines made as read
    store = SqlStore(old)
    try:
        rows = [row for page in store.read_lines("Keep", 0, 1000, 1000) for row in page]
        assert rows and all(line is None for *_, line in rows)  # old records keep no line
        Campaigns(store).execute("Keep", Wait(600))  # a new command's records keep theirs
        (page,) = store.read_lines("Keep", len(rows), 1000, 1000)
        assert page[-1][-1] == "10m pass"
    finally:
        store.close()
