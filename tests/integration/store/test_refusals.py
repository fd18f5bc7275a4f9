"""Issue 16, the store's half: a refusal changes nothing, a start is one transaction, reads
never write, and a store that cannot be written says so in one line.

Runs on SQLite, and on PostgreSQL with TURNKEEPER_TEST_PG (the ``backend`` fixture) where the
store's kind does not matter.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import event

from turnkeeper.campaign import CountdownAdd, Light, SetLight, Visibility, Wait, snapshots
from turnkeeper.campaign.commands import Note
from turnkeeper.campaign.registry import EVENTS
from turnkeeper.cli.app import invoke
from turnkeeper.errors import RulesetError, TurnkeeperError
from turnkeeper.kernel.events import Shown
from turnkeeper.procedures.dungeon import EnterSite, Turn
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store.base import StoreUnavailable
from turnkeeper.store.sql import SqlStore
from turnkeeper.world.sites import parse_site

if TYPE_CHECKING:
    from tests.conftest import Backend

from tests.integration.store.test_service import PARTY


@pytest.fixture
def store(backend: Backend) -> Iterator[SqlStore]:
    opened = SqlStore(backend.url, schema=backend.schema)
    yield opened
    opened.close()


def everything(store: SqlStore) -> dict[str, Any]:
    """What a refusal must leave as it was: every campaign's journal and the current one."""
    campaigns = Campaigns(store)
    names = store.campaigns()
    return {
        "campaigns": names,
        "current": store.current(),
        "journals": {name: campaigns.export_jsonl(name) for name in names},
    }


class Killed(BaseException):
    """The process dies here: nothing after it runs, not even an ``except`` that cleans up."""


def test_new_is_one_transaction_a_kill_leaves_no_campaign(store: SqlStore) -> None:
    """A kill between making the campaign and writing its first record leaves nothing: no
    campaign at version 0 that ``status`` calls empty and ``new`` calls taken."""
    engine = store._engine
    dead = {"now": False}

    def die_on_the_records(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if (
            dead["now"]
            or statement.lstrip().upper().startswith("INSERT INTO EVENTS")
            or ("INSERT INTO" in statement.upper() and ".events" in statement.lower())
        ):
            dead["now"] = True
            raise Killed

    campaigns = Campaigns(store)
    campaigns.new("Before", preset("ex"), PARTY, seed=1)
    before = everything(store)
    event.listen(engine, "before_cursor_execute", die_on_the_records)
    try:
        with pytest.raises(Killed):
            Campaigns(store).new("Keep", preset("ex"), PARTY, seed=2)
    finally:
        event.remove(engine, "before_cursor_execute", die_on_the_records)
    assert everything(store) == before
    Campaigns(store).new("Keep", preset("ex"), PARTY, seed=2)  # the name is free
    assert store.version("Keep") == 1


def exported(campaigns: Campaigns, name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in campaigns.export_jsonl(name).splitlines()]


def as_text(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


@pytest.mark.parametrize(("where", "depth"), [("data", 72), ("record", 71)])
def test_import_refuses_a_record_nested_past_the_files_limit(
    store: SqlStore, where: str, depth: int
) -> None:
    """A journal's nesting is measured as any file's: a line nesting 70 deep (in an event's
    field, or in a field of no record) is refused by its number, and nothing is stored."""
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=3)
    campaigns.execute("Keep", Note("the door is barred"))
    campaigns.execute("Keep", Wait(600))
    records = exported(campaigns, "Keep")
    note = next(r for r in records if r["kind"] == "note.made")
    deep: object = 1
    for _ in range(70):
        deep = [deep]
    (note["data"] if where == "data" else note)["text" if where == "data" else "junk"] = deep
    before = everything(store)
    line = records.index(note) + 1
    with pytest.raises(
        TurnkeeperError,
        match=f"line {line}: nests arrays or tables {depth} deep; files nest at most 64",
    ):
        campaigns.import_jsonl(as_text(records), name="Copy")
    assert everything(store) == before


def test_import_refuses_a_field_of_no_record(store: SqlStore) -> None:
    """A record carrying a field turnkeeper never writes (the journal changed by hand) is
    refused, as an event's unknown field is, not dropped."""
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=3)
    campaigns.execute("Keep", Wait(600))
    records = exported(campaigns, "Keep")
    records[-1]["weather"] = "rain"
    with pytest.raises(TurnkeeperError, match="weather: a field turnkeeper never writes"):
        campaigns.import_jsonl(as_text(records), name="Copy")
    assert store.campaigns() == ["Keep"]


def test_import_refuses_time_running_backwards(store: SqlStore) -> None:
    """An imported journal whose clock goes back (a wait's end moved before its start) is
    refused, and nothing is stored."""
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=3)
    campaigns.execute("Keep", Wait(3600))
    campaigns.execute("Keep", Wait(600))
    records = exported(campaigns, "Keep")
    last = records[-1]
    assert last["kind"] == "clock.advanced" and last["data"] == {"to": 4200, "seconds": 600}
    last["data"] = {"to": 3000, "seconds": -600}  # back ten minutes
    last["at"] = 3000
    before = everything(store)
    with pytest.raises(TurnkeeperError, match="time runs backwards"):
        campaigns.import_jsonl(as_text(records), name="Copy")
    assert everything(store) == before
    # the same journal untouched imports
    records[-1]["data"], records[-1]["at"] = {"to": 4200, "seconds": 600}, 4200
    assert campaigns.import_jsonl(as_text(records), name="Copy").now == 4200


def test_import_refuses_an_at_the_fold_does_not_reach(store: SqlStore) -> None:
    """Each record's ``at`` is the game time its fold reaches: one moved is refused."""
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=3)
    campaigns.execute("Keep", Wait(3600))
    records = exported(campaigns, "Keep")
    records[-1]["at"] = 7200
    with pytest.raises(TurnkeeperError, match="happened at 7200 s"):
        campaigns.import_jsonl(as_text(records), name="Copy")
    assert store.campaigns() == ["Keep"]


@pytest.mark.parametrize(
    ("rules", "command", "kind"),
    [
        ("ex", SetLight(1), "light.time_set"),
        (
            "dg",
            CountdownAdd("Ambush", "short", "3", visibility=Visibility.REFEREE),
            "countdown.started",
        ),
    ],
)
def test_import_refuses_referee_events_relabelled_for_the_party(
    store: SqlStore, rules: str, command: Any, kind: str
) -> None:
    """The referee's events (a light's turns set by hand, a referee's countdown, DG-CD-1) stay
    the referee's: a journal that marks one for the party is refused, not trusted."""
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset(rules), PARTY, seed=5)
    if rules == "ex":
        campaigns.execute("Keep", Light("torch"))
    campaigns.execute("Keep", command)
    campaigns.execute("Keep", Wait(600))
    records = exported(campaigns, "Keep")
    secret = [r for r in records if r["kind"] == kind or r["kind"].startswith(kind)]
    assert secret and all(r["visibility"] == "referee" for r in secret)
    for record in records:
        if record["kind"].startswith(kind.split(".")[0]) and record["visibility"] == "referee":
            record["visibility"] = "party"
    before = everything(store)
    with pytest.raises(TurnkeeperError, match="referee's alone but is marked for the party"):
        campaigns.import_jsonl(as_text(records), name="Copy")
    assert everything(store) == before


def test_import_keeps_every_golden_journal() -> None:
    """The replay check passes every journal turnkeeper wrote (the golden ones)."""
    folder = Path(__file__).parents[1] / "journals"
    names = sorted(folder.glob("*.jsonl"))
    assert names
    for path in names:
        store = SqlStore("sqlite://")
        campaigns = Campaigns(store)
        text = path.read_text(encoding="utf-8")
        state = campaigns.import_jsonl(text, name="Copy")
        assert campaigns.export_jsonl("Copy").splitlines()[1:] == text.splitlines()[1:]
        assert state.version == len(text.splitlines())
        store.close()


BROKEN_START = "99999-99-99T99:99"


def test_new_with_a_broken_calendar_start_stores_nothing(store: SqlStore) -> None:
    """A ruleset whose calendar_start is no date fails before anything is stored."""
    campaigns = Campaigns(store)
    campaigns.new("Before", preset("ex"), PARTY, seed=1)
    store.set_current("Before")
    before = everything(store)
    rules = preset("ex")
    broken = rules.model_copy(
        update={"time": rules.time.model_copy(update={"calendar_start": BROKEN_START})}
    )
    with pytest.raises(RulesetError, match="calendar_start"):
        campaigns.new("Keep", broken, PARTY, seed=1)
    assert everything(store) == before


def test_a_campaign_name_has_a_stated_limit(store: SqlStore) -> None:
    campaigns = Campaigns(store)
    with pytest.raises(TurnkeeperError, match="20,000 characters long; names are at most 200"):
        campaigns.new("x" * 20_000, preset("ex"), PARTY, seed=1)
    assert store.campaigns() == []


# -- a full disk ----------------------------------------------------------------------------


def full_disk(store: SqlStore) -> None:
    """From now on the SQLite file may not grow by one page: a disk with no space left."""

    def cap(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        (pages,) = cursor.execute("PRAGMA page_count").fetchone()
        cursor.execute(f"PRAGMA max_page_count = {pages}")
        cursor.close()

    store._engine.dispose()
    event.listen(store._engine, "connect", cap)


def test_a_full_disk_is_one_clear_error_and_reads_still_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshots, "SNAPSHOT_EVERY", 4)
    store = SqlStore(f"sqlite:///{tmp_path / 'full.db'}")
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=1)
    for _ in range(5):
        campaigns.execute("Keep", Note("x" * 2000))
    store.drop_snapshots()
    full_disk(store)
    before = Campaigns(store).export_jsonl("Keep")
    with pytest.raises(StoreUnavailable) as refused:
        for _ in range(50):
            Campaigns(store).execute("Keep", Note("y" * 4000))
    message = str(refused.value)
    assert "no space is left" in message and "\n" not in message
    # a read whose snapshot cannot be kept reads all the same
    fresh = Campaigns(store)
    assert fresh.state("Keep").version >= 6
    assert fresh.export_jsonl("Keep").startswith(before.splitlines()[0])
    store.close()


# -- reads never write ---------------------------------------------------------------------


def _as_reader(command: list[str]) -> list[str]:
    """Run as a process that may not write the store. Root ignores file permissions only by
    its capabilities to override them: without those (still root, so the checkout and the
    virtual environment stay readable wherever the clone is) the permissions hold."""
    if os.geteuid() != 0:
        return command
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot take write permission away")
    return [setpriv, "--bounding-set=-dac_override,-dac_read_search", *command]


def _digest(folder: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.iterdir())
        if p.suffix == ".db"
    }


@pytest.fixture(scope="module")
def long_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store holding a journal past the snapshot mark, without a snapshot yet."""
    folder = tmp_path_factory.mktemp("long")
    path = folder / "keep.db"
    store = SqlStore(f"sqlite:///{path}")
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=1)
    for n in range(snapshots.SNAPSHOT_EVERY + 5):
        campaigns.execute("Keep", Note(f"note {n}"))
    store.drop_snapshots()
    store.close()
    return path


@pytest.fixture
def open_folder() -> Iterator[Path]:
    """A folder another user can reach (pytest's own are the owner's alone)."""
    with tempfile.TemporaryDirectory(prefix="turnkeeper-ro-") as made:
        folder = Path(made)
        folder.chmod(0o755)
        yield folder
        for path in folder.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)


@pytest.mark.parametrize("locked", ["file", "folder"])
def test_status_and_export_work_on_a_read_only_store_and_write_nothing(
    long_journal: Path, open_folder: Path, locked: str
) -> None:
    """A journal of 1,000+ records on a read-only file (chmod 0444) or in a read-only folder:
    status and export answer from it, and the store is left byte for byte as it was (no
    snapshot saved, since reading never writes)."""
    folder = open_folder / "ro"
    folder.mkdir()
    path = folder / "keep.db"
    shutil.copy(long_journal, path)
    folder.chmod(0o777)
    path.chmod(0o444)
    if locked == "folder":
        path.chmod(0o644)
        folder.chmod(0o555)
    before = _digest(folder)
    tk = [sys.executable, "-m", "turnkeeper"]
    try:
        for verb in (["status", "-c", "Keep", "--json"], ["export", "-c", "Keep"]):
            done = subprocess.run(
                _as_reader([*tk, *verb, "--db", str(path)]),
                capture_output=True,
                text=True,
                timeout=120,
                check=False,
            )
            assert done.returncode == 0, done.stderr
            assert "Traceback" not in done.stderr
        assert json.loads(done.stdout.splitlines()[-1])["seq"] == snapshots.SNAPSHOT_EVERY + 6
    finally:
        folder.chmod(0o755)
        path.chmod(0o644)
    assert _digest(folder) == before
    store = SqlStore(f"sqlite:///{path}")
    assert store.load_snapshot("Keep", snapshots.state_format()) is None
    store.close()


def test_a_write_to_a_read_only_store_is_one_clear_line(
    long_journal: Path, open_folder: Path
) -> None:
    folder = open_folder / "ro"
    folder.mkdir()
    path = folder / "keep.db"
    shutil.copy(long_journal, path)
    folder.chmod(0o555)
    try:
        done = subprocess.run(
            _as_reader(
                [sys.executable, "-m", "turnkeeper", "wait", "1h", "-c", "Keep", "--db", str(path)]
            ),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        folder.chmod(0o755)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "read-only" in lines[0], done.stderr


# -- through the CLI: exit 2, one line, the store as it was ------------------------------------


def _cli(db: str, *args: str) -> int:
    """Run one command line as the shell would (``cli.app.invoke``): its exit code."""
    return invoke([*args, "--db", db])


def _store_as_it_is(db: str) -> dict[str, Any]:
    store = SqlStore(f"sqlite:///{db}")
    try:
        return everything(store)
    finally:
        store.close()


def test_cli_new_with_a_broken_calendar_start_exits_2_and_changes_nothing(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The issue's `new ... --ruleset FILE` with calendar_start = "99999-99-99T99:99": exit 2,
    one line, and the campaign list, the current campaign and every journal as they were."""
    db = str(tmp_path / "keep.db")
    assert _cli(db, "new", "Before", "--ruleset", "ex", "--solo", "--seed", "1") == 0
    rules = tmp_path / "broken.toml"
    rules.write_text(
        'extends = "ex"\n[ruleset]\nname = "broken"\ntitle = "Broken"\n'
        f'[time]\ncalendar_start = "{BROKEN_START}"\n',
        encoding="utf-8",
    )
    before = _store_as_it_is(db)
    capfd.readouterr()
    assert _cli(db, "new", "Keep", "--ruleset", str(rules), "--solo") == 2
    said = capfd.readouterr().err.strip().splitlines()
    assert len(said) == 1 and "calendar_start" in said[0], said
    assert _store_as_it_is(db) == before


def test_cli_a_full_disk_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """The issue's full disk printed an 81-line traceback: now one line, exit 2."""
    import turnkeeper.store.engine as engine

    db = str(tmp_path / "keep.db")
    assert _cli(db, "new", "Keep", "--ruleset", "ex", "--solo", "--seed", "1") == 0
    pragmas = engine.sqlite_pragmas

    def and_no_room(synchronous: str, read_only: bool) -> Any:
        first = pragmas(synchronous, read_only)

        def on_connect(dbapi_connection: Any, record: Any) -> None:
            first(dbapi_connection, record)
            cursor = dbapi_connection.cursor()
            (pages,) = cursor.execute("PRAGMA page_count").fetchone()
            cursor.execute(f"PRAGMA max_page_count = {pages}")
            cursor.close()

        return on_connect

    before = _store_as_it_is(db)
    monkeypatch.setattr(engine, "sqlite_pragmas", and_no_room)
    capfd.readouterr()
    assert _cli(db, "note", "x" * 9_000, "-c", "Keep") == 2
    lines = capfd.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "no space is left" in lines[0], lines
    monkeypatch.undo()
    assert _store_as_it_is(db) == before


def test_every_kind_the_journal_holds_declares_who_sees_it() -> None:
    """Who sees an event is declared on its class, once (issue 37): every registered kind
    declares it itself (an undeclared class is refused when defined), and a kind the referee
    sees alone is recorded so by default, with no procedure saying it again."""
    for kind in EVENTS.kinds:
        event_class = EVENTS.kinds[kind]
        assert "shown" in event_class.__dict__, kind
        default = event_class.model_fields["visibility"].default
        assert (default is Visibility.REFEREE) == (event_class.shown is Shown.REFEREE), kind


def test_cli_unusable_stores_are_one_line_and_exit_2(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """The issue's unusable --db values: a folder, a file that is no database, an unknown
    scheme, a PostgreSQL server that does not answer. One line each, exit 2."""
    text = tmp_path / "passwd"
    text.write_text("root:x:0:0:root:/root:/bin/bash\n" * 40, encoding="utf-8")
    cases = {
        str(tmp_path): "that is a folder",
        str(text): "not a turnkeeper store",
        "foo://bar": "turnkeeper speaks sqlite:///PATH",
        "postgresql+psycopg://nobody@127.0.0.1:1/x": "check the path or address",
    }
    for db, said in cases.items():
        for verb in (["campaigns"], ["new", "Keep", "--ruleset", "ex", "--solo"]):
            capfd.readouterr()
            assert _cli(db, *verb) == 2, (db, verb)
            lines = capfd.readouterr().err.strip().splitlines()
            assert len(lines) == 1, (db, verb, lines)
            if verb[0] == "new":
                assert said in lines[0], (db, lines)


def test_import_refuses_a_wandering_check_relabelled_for_the_party(store: SqlStore) -> None:
    """A wandering check is rolled behind the screen (EX-ENC-1): its class says so, and an
    import of one marked for the party is refused, nothing stored (issue 38)."""
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), PARTY, seed=5)
    site = Path(__file__).parents[3] / "src/turnkeeper/examples/site.toml"
    campaigns.execute("Keep", EnterSite(parse_site(site.read_text(encoding="utf-8"), "site.toml")))
    for _ in range(2):
        campaigns.execute("Keep", Turn(mode="cautious"))
    records = exported(campaigns, "Keep")
    checks = [r for r in records if r["kind"] == "dungeon.check"]
    assert checks and all(r["visibility"] == "referee" for r in checks)
    checks[0]["visibility"] = "party"
    before = everything(store)
    with pytest.raises(TurnkeeperError, match="referee's alone but is marked for the party"):
        campaigns.import_jsonl(as_text(records), name="Copy")
    assert everything(store) == before
