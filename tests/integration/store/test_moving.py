"""Moving journals (issue 23): an export streams the stored JSON as it is, an import of it
gives back the same journal and state, and a broken line in an import changes nothing.

On SQLite, and on PostgreSQL with TURNKEEPER_TEST_PG (the ``backend`` fixture).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

from turnkeeper.campaign import Light, Note, Rest, Undo, Visibility, Wait, render_markdown
from turnkeeper.cli.app import app as cli
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns, moving, reader
from turnkeeper.store.sql import SqlStore
from turnkeeper.views.journal import referee_record

if TYPE_CHECKING:
    from tests.conftest import Backend

from tests.integration.store.test_service import PARTY


@pytest.fixture
def store(backend: Backend) -> Iterator[SqlStore]:
    opened = SqlStore(backend.url, schema=backend.schema)
    yield opened
    opened.close()


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages of 3 records, so a short journal is read in many pages."""
    monkeypatch.setattr(reader, "PAGE", 3)
    monkeypatch.setattr(moving, "PAGE", 3)


def played(campaigns: Campaigns, name: str = "Keep") -> None:
    """A campaign with undos, a referee's note and a name beyond ASCII."""
    campaigns.new(name, preset("ex"), PARTY, seed=5)
    campaigns.execute(name, Light("torch"))
    campaigns.execute(name, Wait(3 * 600))
    campaigns.execute(name, Note('Æthelflæd\'s door, "locked"\nbehind the tapestry 🗝'))
    campaigns.execute(name, Undo())
    campaigns.execute(name, Rest())
    campaigns.execute(name, Note("the secret door", Visibility.REFEREE))
    campaigns.execute(name, Wait(4 * 3600))
    campaigns.execute(name, Undo())
    campaigns.execute(name, Wait(600))


def the_records_lines(campaigns: Campaigns, name: str) -> str:
    """The export as it was made before it streamed: each record's JSON from its event."""
    return "".join(
        json.dumps(r.to_record(), ensure_ascii=False, separators=(",", ":")) + "\n"
        for r in campaigns.journal(name).records
    )


@pytest.mark.usefixtures("small_pages")
def test_the_streamed_export_is_the_records_json_lines(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    played(campaigns)
    streamed = list(Campaigns(store).export_lines("Keep"))
    assert len(streamed) > 3  # read in pages, written as they come
    assert "".join(streamed) == the_records_lines(Campaigns(store), "Keep")


@pytest.mark.usefixtures("small_pages")
def test_the_streamed_markdown_is_the_whole_log(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    played(campaigns)
    records = Campaigns(store).journal("Keep").records
    for player in (False, True):
        streamed = Campaigns(store).export_markdown("Keep", player)
        assert streamed == render_markdown(records, player=player)
    assert "~~" in Campaigns(store).export_markdown("Keep")


@pytest.mark.usefixtures("small_pages")
def test_an_import_of_the_export_gives_back_the_journal_and_state(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    played(campaigns)
    text = campaigns.export_jsonl("Keep")
    state = campaigns.import_jsonl(text, name="Copy")
    fresh = Campaigns(store)
    assert fresh.state("Copy") == state == fresh.state("Keep").model_copy(update={"name": "Copy"})
    copied = fresh.export_jsonl("Copy").splitlines()
    assert copied[1:] == text.splitlines()[1:]
    assert json.loads(copied[0])["data"]["name"] == "Copy"
    fresh.delete("Keep")
    assert fresh.import_jsonl(text) == fresh.state("Keep")
    assert fresh.export_jsonl("Keep") == text


def test_a_journal_written_otherwise_is_imported_as_a_store_writes_it(store: SqlStore) -> None:
    """An export's lines are stored as they are; lines spaced, their fields in another order,
    are read as the same records and written again; line ends and blank lines are no
    records."""
    campaigns = Campaigns(store)
    played(campaigns)
    # a number of 20 digits and the word Infinity in a note: screened, parsed, and fine
    campaigns.execute("Keep", Note("12345678901234567890 coins, Infinity and NaN of them"))
    text = campaigns.export_jsonl("Keep")
    respaced = "".join(
        json.dumps(dict(reversed(json.loads(line).items())), ensure_ascii=False) + "\n"
        for line in text.splitlines()
    )
    assert respaced != text
    # saved on Windows, with blank lines and lines of blanks between the records
    windows = "\r\n\r\n".join(text.splitlines()).replace("\r\n\r\n", "\r\n  \t\r\n", 2)
    campaigns.import_jsonl(respaced, name="Spaced")
    campaigns.import_jsonl(text, name="Same")
    campaigns.import_jsonl(windows, name="Windows")
    fresh = Campaigns(store)
    for name in ("Spaced", "Same", "Windows"):
        assert fresh.state(name) == fresh.state("Keep").model_copy(update={"name": name})
        assert fresh.export_jsonl(name).splitlines()[1:] == text.splitlines()[1:]


def test_a_broken_line_in_the_middle_of_an_import_changes_nothing(tmp_path: Path) -> None:
    file = tmp_path / "turnkeeper.db"
    store = SqlStore(f"sqlite:///{file}")
    try:
        campaigns = Campaigns(store)
        played(campaigns)
        lines = campaigns.export_jsonl("Keep").splitlines(keepends=True)
    finally:
        store.close()

    def stored() -> str:
        digest = hashlib.sha256()
        for part in sorted(tmp_path.glob("turnkeeper.db*")):
            digest.update(part.name.encode() + part.read_bytes())
        return digest.hexdigest()

    before = stored()
    middle = len(lines) // 2
    broken = [
        (lines[middle][:-5] + "\n", f"line {middle + 1}: not (valid )?JSON"),
        ('{"seq": 99}\n', f"line {middle + 1}: not a journal record"),
        ("[1, 2]\n", f"line {middle + 1}: a journal record is a JSON object"),
        ('{"seq": 1e999}\n', f"line {middle + 1}: seq: inf is not a number"),
        ('{"seq": 99999999999999999999}\n', f"line {middle + 1}: seq: a number is too large"),
    ]
    for line, message in broken:
        store = SqlStore(f"sqlite:///{file}")
        try:
            with pytest.raises(TurnkeeperError, match=message):
                Campaigns(store).import_jsonl(
                    "".join([*lines[:middle], line, *lines[middle + 1 :]]), "Copy"
                )
            assert store.campaigns() == ["Keep"]
        finally:
            store.close()
        assert stored() == before


def test_records_out_of_order_are_refused(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    played(campaigns)
    lines = campaigns.export_jsonl("Keep").splitlines(keepends=True)
    lines[2], lines[3] = lines[3], lines[2]
    with pytest.raises(TurnkeeperError, match=r"number its records 1, 2, 3\.\.\. in order"):
        campaigns.import_jsonl("".join(lines), "Copy")
    assert store.campaigns() == ["Keep"]


@pytest.mark.usefixtures("small_pages")
def test_log_json_streams_the_referees_records(backend: Backend) -> None:
    if backend.schema is not None:
        pytest.skip("the CLI names a store by its URL alone")
    store = SqlStore(backend.url)
    try:
        campaigns = Campaigns(store)
        played(campaigns)
        state, undone = campaigns.state("Keep"), campaigns.undone("Keep")
        whole = [referee_record(r, state, undone) for r in campaigns.journal("Keep").records]
    finally:
        store.close()
    runner = CliRunner()
    db = ["--campaign", "Keep", "--db", backend.url]
    for since in (0, 7):
        done = runner.invoke(cli, ["log", "--json", "--since", str(since), *db])
        assert done.exit_code == 0, done.output
        assert json.loads(done.output) == whole[since:]
    done = runner.invoke(cli, ["export", "--json", *db])
    assert done.exit_code == 0, done.output
    stored = [{k: v for k, v in w.items() if k not in ("date", "text", "undone")} for w in whole]
    lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in stored]
    assert json.loads(done.output)["text"] == "".join(lines)
