"""CLI: the campaign verbs against a temporary --db (JSON shapes, current campaign, mistakes)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.campaign import Note, parse_party
from turnkeeper.cli.app import app
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store

from .conftest import texts

runner = CliRunner()

PARTY = """
leader = "Aldo"
[[characters]]
name = "Aldo"
hp = 7
[[characters]]
name = "Bea"
hp = 5
[supplies]
torches = 3
rations = 4
"""

if TYPE_CHECKING:
    from tests.integration.conftest import Tk


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "campaigns.db")


@pytest.fixture
def party(tmp_path: Path) -> str:
    path = tmp_path / "party.toml"
    path.write_text(PARTY, encoding="utf-8")
    return str(path)


def test_new_status_wait_light_rest_undo(db: str, party: str, tk: Tk) -> None:
    made = tk(db, "new", "Keep", "--ruleset", "ex", "--party", party, "--seed", "11")
    assert made == {"campaign": "Keep", "ruleset": "ex", "seed": 11, "date": "1-01-01 08:00"}
    status = tk(db, "status")
    assert status["name"] == "Keep" and status["version"] == 1 and status["now"] == 0
    assert [c["name"] for c in status["party"]["characters"]] == ["Aldo", "Bea"]

    lit = tk(db, "light", "torch")
    assert lit["records"][0]["kind"] == "light.lit"
    assert tk(db, "status")["supplies"]["counted"]["torches"] == 2

    waited = tk(db, "wait", "3", "turns")  # a span's words, unquoted as a person types them
    assert tk(db, "status")["now"] == 1800
    assert waited["version"] == tk(db, "status")["version"]

    rested = tk(db, "rest")
    assert rested["records"]
    before_undo = tk(db, "status")
    undone = tk(db, "undo")
    # the referee reads what was undone, not a number (issue 25)
    assert texts(undone)[0].startswith(f"undid command {rested['records'][0]['seq']}: ")
    assert rested["records"][0]["text"] in texts(undone)[0]
    after = tk(db, "status")
    assert after["now"] == 1800  # the rest's time is forgotten by the state
    assert after["version"] == before_undo["version"] + 1  # ...but the undo is recorded


def test_log_player_hides_referee_countdown(db: str, tk: Tk) -> None:
    tk(db, "new", "Keep", "--ruleset", "dg", "--solo", "--seed", "2")
    tk(db, "countdown", "add", "Ambush", "--type", "short", "--length", "4", "--referee")
    tk(db, "countdown", "add", "Flood", "--type", "short", "--length", "3")
    assert [c["name"] for c in tk(db, "countdown", "list")] == ["Ambush", "Flood"]
    tk(db, "countdown", "tick", "Flood")
    assert {c["name"]: c["left"] for c in tk(db, "countdown", "list")}["Flood"] == 2
    tk(db, "countdown", "end", "Flood")

    full = tk(db, "log")
    player = tk(db, "log", "--player")
    assert any("Ambush" in r["text"] for r in full)
    assert not any("Ambush" in r["text"] for r in player)
    assert all(r["visibility"] == "party" for r in player)
    assert [r["seq"] for r in tk(db, "log", "--since", "2")] == [r["seq"] for r in full][2:]


def test_export_import_round_trip(db: str, party: str, tmp_path: Path, tk: Tk) -> None:
    tk(db, "new", "Keep", "--ruleset", "ex", "--party", party, "--seed", "5")
    tk(db, "light")
    tk(db, "wait", "2h")
    out = tmp_path / "keep.jsonl"
    tk(db, "export", "--format", "jsonl", "--out", str(out))
    imported = tk(db, "import", str(out), "--name", "Copy")
    assert imported["campaign"] == "Copy"
    original, copy = tk(db, "status", "--campaign", "Keep"), tk(db, "status")
    assert copy.pop("name") == "Copy" and original.pop("name") == "Keep"
    assert copy == original
    assert tk(db, "campaigns") == {"campaigns": ["Copy", "Keep"], "current": "Copy"}
    markdown = tk(db, "export", "--format", "markdown", "--campaign", "Keep")["text"]
    assert markdown.startswith("# Keep") and "torch" in markdown


def test_use_switches_the_current_campaign(db: str, tk: Tk) -> None:
    tk(db, "new", "A", "--ruleset", "ex", "--solo", "--seed", "1")
    tk(db, "new", "B", "--ruleset", "ex", "--solo", "--seed", "1")
    assert tk(db, "campaigns")["current"] == "B"
    tk(db, "use", "A")
    tk(db, "wait", "1h")
    assert tk(db, "status", "--campaign", "A")["now"] == 3600
    assert tk(db, "status", "--campaign", "B")["now"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["wait", "3 fortnights"], "unknown unit"),
        (["light", "torch"], "no torches left"),
        (["countdown", "tick", "Nothing"], "no countdown called"),
        (["wait", "1h", "--campaign", "Nowhere"], "no campaign named 'Nowhere'"),
        (["wait", "1h", "--dice", "3,x"], "--dice"),
        (["new", "Keep", "--ruleset", "ex", "--solo"], "already exists"),
        (["new", "Other", "--ruleset", "nosuch", "--solo"], "no preset or ruleset file"),
    ],
)
def test_mistakes_change_nothing(db: str, args: list[str], message: str, tk: Tk) -> None:
    tk(db, "new", "Keep", "--ruleset", "ex", "--solo", "--seed", "1")
    with pytest.raises(TurnkeeperError, match=message):
        tk(db, *args)
    assert tk(db, "status")["version"] == 1
    assert tk(db, "campaigns")["campaigns"] == ["Keep"]


def test_no_current_campaign_is_a_clear_mistake(db: str, tk: Tk) -> None:
    open_store(db).close()
    with pytest.raises(TurnkeeperError, match="no campaign chosen"):
        tk(db, "status")


@pytest.mark.parametrize(
    "args", [("status",), ("campaigns",), ("log",), ("wait", "1h"), ("use", "Keep")]
)
def test_a_mistyped_store_path_is_an_error_not_a_new_store(
    tmp_path: Path, args: tuple[str, ...], tk: Tk
) -> None:
    missing = tmp_path / "kep.db"
    with pytest.raises(TurnkeeperError, match=f"no store at {missing}"):
        tk(str(missing), *args)
    assert not missing.exists()


def test_new_and_import_make_their_store(tmp_path: Path, tk: Tk) -> None:
    tk(str(tmp_path / "a.db"), "new", "Keep", "--ruleset", "ex", "--solo", "--seed", "1")
    exported = tk(str(tmp_path / "a.db"), "export")["text"]
    journal = tmp_path / "keep.jsonl"
    journal.write_text(exported, encoding="utf-8")
    tk(str(tmp_path / "b.db"), "import", str(journal))
    assert tk(str(tmp_path / "b.db"), "campaigns")["campaigns"] == ["Keep"]


def test_real_process_exits_2_with_one_line(db: str) -> None:
    """Through the console script's main(): exit 2, one stderr line, no traceback."""
    exe = [sys.executable, "-c", "from turnkeeper.cli import main; main()"]
    done = subprocess.run(
        [*exe, "new", "Keep", "--ruleset", "ex", "--solo", "--db", db],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    failed = subprocess.run([*exe, "wait", "soon", "--db", db], capture_output=True, text=True)
    assert failed.returncode == 2
    assert failed.stderr.strip().count("\n") == 0 and "cannot read duration" in failed.stderr
    assert "Traceback" not in failed.stderr


def test_human_output_renders(db: str, party: str, tk: Tk) -> None:
    tk(db, "new", "Keep", "--ruleset", "ex", "--party", party, "--seed", "4")
    for args in (["status"], ["light"], ["log"], ["countdown", "list"], ["campaigns"]):
        result = runner.invoke(app, [*args, "--db", db])
        assert result.exit_code == 0, result.output
    assert "Aldo" in runner.invoke(app, ["status", "--db", db]).stdout


def test_pg_mov_2_a_party_file_with_3001_coins_is_refused(shell, tmp_path: Path) -> None:
    """PG-MOV-2, "at most 3000 coins": `new --party` with a character carrying 3,001 is one
    error naming the file, the key and the limit, and no campaign is made."""
    path = tmp_path / "rich.toml"
    path.write_text('[[characters]]\nname = "Aldo"\nhp = 8\ncoins = 3001\n', encoding="utf-8")
    db = str(tmp_path / "t.db")
    said = shell("new", "Keep", "--ruleset", "pg", "--party", str(path), "--db", db)
    assert said.code != 0 and said.out == ""
    assert f"{path}: characters[0].coins: 3001 coins, more than the 3000" in said.err
    assert len(said.err.strip().splitlines()) == 1
    assert shell("campaigns", "--db", db, "--json").out.count("Keep") == 0


def test_new_says_where_the_campaign_is_kept(tmp_path: Path) -> None:
    """A referee finds the store again: `new` names its file (issue 25)."""
    db = tmp_path / "keep.db"
    said = runner.invoke(
        app, ["new", "Keep", "--ruleset", "ex", "--solo", "--seed", "1", "--db", str(db)]
    )
    assert said.exit_code == 0, said.output
    assert f"kept in {db}" in " ".join(said.output.split())


def test_new_needs_a_party_file_or_solo(shell, tmp_path: Path) -> None:
    """Issue 25: `new Keep --ruleset tp` without --party made a one-character party,
    "Adventurer", carrying nothing, and said nothing. It is refused in one line pointing at
    --party FILE (and the example files) and at --solo, which makes that lone adventurer
    when asked; the store is not even made."""
    db = tmp_path / "t.db"
    said = shell("new", "Keep", "--ruleset", "tp", "--db", str(db))
    assert said.code == 2 and said.out == "" and len(said.err.strip().splitlines()) == 1
    for words in ("--party FILE", "`turnkeeper examples`", "--solo"):
        assert words in said.err
    assert not db.exists()
    party = tmp_path / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    both = shell("new", "Keep", "-r", "tp", "--solo", "--party", str(party), "--db", str(db))
    assert both.code == 2 and "--party FILE or --solo, not both" in both.err
    assert shell("new", "Keep", "-r", "tp", "--solo", "--db", str(db)).code == 0
    shown = json.loads(shell("party", "show", "--db", str(db), "--json").out)
    assert [c["name"] for c in shown["characters"]] == ["Adventurer"] and not shown["supplies"]


def test_campaign_names_are_one_whatever_their_case(shell, tmp_path: Path) -> None:
    """Issue 25: "keep" and "Keep" were two campaigns. A new campaign or an import named as
    another but for case is refused naming the one there is; lookups stay exact, and a name
    in the wrong case is offered the stored one."""
    db = str(tmp_path / "t.db")
    assert shell("new", "Keep", "-r", "ex", "--solo", "--seed", "1", "--db", db).code == 0
    before = shell.store(db)
    said = shell("new", "keep", "-r", "ex", "--solo", "--db", db)
    assert said.code == 2 and "a campaign named 'Keep' already exists" in said.err
    assert "whatever their case" in said.err
    journal = tmp_path / "keep.jsonl"
    journal.write_text(shell("export", "-c", "Keep", "--db", db).out, encoding="utf-8")
    imported = shell("import", str(journal), "--name", "KEEP", "--db", db)
    assert imported.code == 2 and "a campaign named 'Keep' already exists" in imported.err
    assert shell.store(db) == before
    used = shell("use", "keep", "--db", db)
    assert used.code == 2 and "did you mean Keep?" in used.err


@pytest.fixture(scope="module")
def long_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A store holding :func:`_long_campaign`, built once: its tests only read it."""
    db = str(tmp_path_factory.mktemp("long") / "long.db")
    _long_campaign(db)
    return db


def _long_campaign(db: str) -> None:
    """A campaign past one page of the log (2,000 records) with what a log line varies by:
    undos, referee notes and countdowns, non-ASCII text, days and months going by."""
    import contextlib

    from turnkeeper.campaign import (
        CountdownAdd,
        CountdownTick,
        Damage,
        Journal,
        Light,
        Note,
        Rest,
        Undo,
        Visibility,
        Wait,
        parse_party,
    )
    from turnkeeper.rules.loader import preset

    party = parse_party(PARTY.replace("torches = 3", "torches = 1000"))
    journal = Journal.start("Keep", preset("ex"), party, seed=5)
    cycle = [
        Light("torch"),
        Wait(1800),
        Note('the hall é ✓ "q" \\ \u2028 \U0001f600'),
        Note("secret door", visibility=Visibility.REFEREE),
        Wait(600),
        Undo(),
        Damage("Aldo", 1, "trap"),
        CountdownAdd("doom", "generic", "6", visibility=Visibility.REFEREE),
        CountdownTick("doom"),
        Wait(9 * 3600 + 17 * 60),
        Rest(),
    ]
    step = 0
    while journal.version < 2100:
        with contextlib.suppress(TurnkeeperError):
            journal.execute(cycle[step % len(cycle)])
        step += 1
    store = open_store(db)
    try:
        store.create("Keep", [r.to_record() for r in journal.records])
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_log_json_streams_each_stored_record_as_the_view_writes_it(
    long_db: str, encoding: str
) -> None:
    """``log --json`` writes each record as :func:`views.referee_record_json` does (the
    stored text, its date, line and undone mark), over pages, with or without ``--since``,
    on a UTF-8 stdout and on one that is not (every non-ASCII character escaped)."""
    import os

    from turnkeeper.campaign.registry import EVENTS
    from turnkeeper.service import Campaigns
    from turnkeeper.views.journal import referee_record_json

    db = long_db
    store = open_store(db)
    try:
        campaigns = Campaigns(store)
        state, undone = campaigns.state("Keep"), campaigns.undone("Keep")
        stored = campaigns.export_jsonl("Keep").split("\n")[:-1]  # U+2028 is no line end
    finally:
        store.close()
    records = EVENTS.records_json("[" + ",".join(stored) + "]")
    assert undone and any(not text.isascii() for text in stored)
    ascii_only = encoding == "ascii"
    lines = [
        referee_record_json(text, record, state, undone, ascii_only)
        for text, record in zip(stored, records, strict=True)
    ]
    shown_from = ["--campaign", "Keep", "--db", db]
    for since in (0, 1999):
        shown = subprocess.run(
            [
                sys.executable,
                "-m",
                "turnkeeper",
                "log",
                "--json",
                "--since",
                str(since),
                *shown_from,
            ],
            capture_output=True,
            env={**os.environ, "PYTHONIOENCODING": encoding},
            check=True,
        ).stdout.decode(encoding)
        assert shown == "[\n" + ",\n".join(lines[since:]) + "\n]\n"


def test_delete_asks_with_the_count_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25 ("1 records"): the question before a delete counts the journal in words."""
    monkeypatch.setattr("turnkeeper.cli.campaign._can_ask", lambda: True)  # at a terminal
    db = str(tmp_path / "t.db")
    made = runner.invoke(app, ["new", "Keep", "-r", "ex", "--solo", "--seed", "1", "--db", db])
    assert made.exit_code == 0, made.output
    asked = runner.invoke(app, ["campaigns", "delete", "Keep", "--db", db], input="n\n")
    assert "Delete Keep and its whole journal (1 record)?" in asked.output


def test_an_imported_note_keeps_a_line_separator_inside_its_text(tmp_path: Path) -> None:
    """U+2028 inside a JSON string is text, not a line's end: an import once split the record
    there and joined it back with a comma ("a\u2028b" came back "a,b")."""
    store = open_store(str(tmp_path / "a.db"))
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("ex"), parse_party('[[characters]]\nname = "A"\nhp = 4'), seed=1)
    campaigns.execute("Keep", Note("a\u2028b"))
    exported = campaigns.export_jsonl("Keep")
    campaigns.import_jsonl(exported, "Copy")
    assert campaigns.export_jsonl("Copy") == exported.replace('"name":"Keep"', '"name":"Copy"')
    store.close()


def test_import_counts_its_records_in_words(tmp_path: Path) -> None:
    """Issue 25: an import of one record says "1 record", not "1 records"."""
    store = open_store(str(tmp_path / "a.db"))
    Campaigns(store).new("Keep", preset("ex"), parse_party('[[characters]]\nname = "A"\nhp = 4'))
    (tmp_path / "keep.jsonl").write_text(Campaigns(store).export_jsonl("Keep"), encoding="utf-8")
    store.close()
    db = str(tmp_path / "b.db")
    result = CliRunner().invoke(app, ["import", str(tmp_path / "keep.jsonl"), "--db", db])
    assert result.exit_code == 0, result.output
    assert "Imported Keep: 1 record, now" in result.output


def test_export_names_its_formats_when_given_another(db: str, tk: Tk) -> None:
    tk(db, "new", "Keep", "--ruleset", "ex", "--solo", "--seed", "1")
    result = CliRunner().invoke(app, ["export", "--format", "pdf", "--db", db])
    assert result.exit_code == 2
    assert "'pdf' is not one of" in result.output  # Rich's box may break the line after it
    assert "'jsonl', 'markdown'" in result.output
