"""A user's mistake is one plain line on stderr, printed as written (no markup eaten), exit 2,
and it changes nothing; a bug is one line too, exit 70, the traceback only with --debug.

Each hostile input of issue 16 is played here through the console script's own path
(``cli.app.invoke``, in process), and the store is compared before and after: the campaign
list and every exported journal.
"""

from __future__ import annotations

import subprocess
import sys
from importlib.resources import files
from pathlib import Path

import pytest

from turnkeeper.cli.app import INTERNAL_ERROR
from turnkeeper.files.reading import MAX_DEPTH, MAX_FILE_BYTES
from turnkeeper.service import Campaigns

PARTY = str(files("turnkeeper.examples") / "party.toml")
SITE = str(files("turnkeeper.examples") / "site.toml")
FOES = str(files("turnkeeper.examples") / "foes.toml")
MARKUP = "[/oops]"


def test_an_error_keeps_its_brackets(tmp_path) -> None:
    broken = tmp_path / "moon.toml"
    broken.write_text('extends = "tp"\n[wilderness]\ndie = "moon"\n')
    done = subprocess.run(
        [sys.executable, "-m", "turnkeeper", "rules", "check", str(broken)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "no overloaded die 'moon' in [dice]" in lines[0]
    assert "Traceback" not in done.stderr


@pytest.fixture
def db(tmp_path: Path, shell) -> str:
    """A store holding one campaign, ``keep``, under ex with the example party."""
    path = str(tmp_path / "tk.db")
    assert shell("new", "keep", "-r", "ex", "--party", PARTY, "--seed", "3", "--db", path).code == 0
    return path


def refused(shell, db: str, *args: str) -> str:
    """Run a command that must be refused: exit 2, one line on stderr, the store unchanged.
    Returns the line."""
    before = shell.store(db)
    said = shell(*args)
    assert said.code == 2, (said.code, said.out, said.err)
    lines = said.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), said.err
    assert "internal error" not in said.err
    assert shell.store(db) == before
    return lines[0]


# --- files -----------------------------------------------------------------------------------


def test_a_party_or_site_file_that_is_not_utf8_names_the_file_and_the_byte(
    tmp_path: Path, shell, db: str
) -> None:
    text = Path(PARTY).read_bytes()
    party = tmp_path / "party.toml"
    party.write_bytes(text[:40] + b"\xff" + text[40:])
    line = refused(shell, db, "new", "other", "-r", "ex", "--party", str(party), "--db", db)
    assert f"{party}: not a text file: byte 40 (0xff) is not UTF-8" in line
    site = tmp_path / "site.toml"
    site.write_bytes(b"\xfe" + Path(SITE).read_bytes())
    line = refused(shell, db, "site", "enter", str(site), "--db", db)
    assert f"{site}: not a text file: byte 0 (0xfe)" in line


DEEP = 10_000


@pytest.mark.parametrize(
    ("kind", "name", "text"),
    [
        ("party", "party.toml", "x = " + "[" * DEEP + "]" * DEEP),
        ("site", "site.toml", "x = " + "{a = " * DEEP + "1" + "}" * DEEP),
        ("map", "map.toml", "x = " + "[" * DEEP + "]" * DEEP),
        ("map", "map.json", '{"x": ' + "[" * DEEP + "]" * DEEP + "}"),
        ("ruleset", "rules.toml", 'extends = "ex"\nx = ' + "[" * DEEP + "]" * DEEP),
        ("foes", "foes.toml", "x = " + "[" * DEEP + "]" * DEEP),
        ("journal", "keep.jsonl", "[" * DEEP + "]" * DEEP + "\n"),
        ("dotted keys", "party.toml", ".".join(["a"] * DEEP) + " = 1"),
    ],
)
def test_a_file_nested_10000_deep_is_refused_before_parsing(
    tmp_path: Path, shell, db: str, kind: str, name: str, text: str
) -> None:
    file = tmp_path / name
    file.write_text(text, encoding="utf-8")
    command = {
        "party": ["new", "other", "-r", "ex", "--party", str(file)],
        "dotted keys": ["new", "other", "-r", "ex", "--party", str(file)],
        "site": ["site", "enter", str(file)],
        "map": ["map", "load", str(file), "--at", "0101"],
        "ruleset": ["new", "other", "-r", str(file), "--solo"],
        "foes": ["combat", "start", "--foes", str(file)],
        "journal": ["import", str(file), "--name", "other"],
    }[kind]
    line = refused(shell, db, *command, "--db", db)
    assert f"files nest at most {MAX_DEPTH} deep" in line


def test_an_extends_chain_of_2000_files_is_refused_at_its_limit(
    tmp_path: Path, shell, db: str
) -> None:
    (tmp_path / "r0.toml").write_text('extends = "ex"\n')
    for n in range(1, 2000):
        (tmp_path / f"r{n}.toml").write_text(f'extends = "r{n - 1}.toml"\n')
    line = refused(
        shell, db, "new", "other", "-r", str(tmp_path / "r1999.toml"), "--solo", "--db", db
    )
    assert line.endswith("r1999.toml: extends: the chain is more than 16 files long; a ruleset "
                         "extends at most 15 others in a row (presets included)")  # fmt: skip
    # r13 .. r0, ex and the reaction table ex extends: 16 files, the most allowed
    assert shell("rules", "check", str(tmp_path / "r13.toml")).code == 0
    assert "more than 16 files" in shell("rules", "check", str(tmp_path / "r14.toml")).err


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path: Path, shell, db: str) -> None:
    big = tmp_path / "site.toml"
    with big.open("wb") as stream:
        stream.write(b"# " + b"x" * MAX_FILE_BYTES + b"\n")
    line = refused(shell, db, "site", "enter", str(big), "--db", db)
    assert "site files are at most 16 MiB" in line


@pytest.mark.parametrize(
    ("name", "text", "command", "message"),
    [
        (
            "party.toml",
            '[[characters]]\nname = "A"\nhp = true\n',
            ["new", "other", "-r", "ex", "--party"],
            "characters[0].hp",
        ),
        (
            "map.toml",
            'name = "m"\nwidth = "3"\nheight = 1\nterrain = ["ppp"]\n',
            ["map", "load"],
            "width",
        ),
        (
            "site.toml",
            '[site]\nname = "s"\n[[levels]]\nnumber = "1"\n',
            ["site", "enter"],
            "levels.0.number",
        ),
        ("nan.toml", "[site]\nname = nan\n", ["site", "enter"], "nan is not a number"),
        ("big.toml", f"[site]\nname = {'9' * 5000}\n", ["site", "enter"], "a number is too large"),
    ],
)
def test_loose_values_in_a_file_are_refused(
    tmp_path: Path, shell, db: str, name: str, text: str, command: list[str], message: str
) -> None:
    file = tmp_path / name
    file.write_text(text, encoding="utf-8")
    extra = ["--at", "0101"] if command[:2] == ["map", "load"] else []
    assert message in refused(shell, db, *command, str(file), *extra, "--db", db)


# --- rulesets --------------------------------------------------------------------------------


def test_a_calendar_start_that_is_no_date_is_refused_by_rules_check_and_by_new(
    tmp_path: Path, shell, db: str
) -> None:
    broken = tmp_path / "calendar.toml"
    broken.write_text('extends = "ex"\n[time]\ncalendar_start = "99999-99-99T99:99"\n')
    said = shell("rules", "check", str(broken))
    assert said.code == 2 and "time.calendar_start: no such date" in said.err
    line = refused(shell, db, "new", "other", "-r", str(broken), "--solo", "--db", db)
    assert "calendar_start" in line
    late = tmp_path / "late.toml"
    late.write_text('extends = "ex"\n[time]\ncalendar_start = "1-01-01T24:00"\n')
    assert "no such time" in shell("rules", "check", str(late)).err


# --- markup ----------------------------------------------------------------------------------


def test_names_with_markup_are_printed_as_written(tmp_path: Path, shell) -> None:
    db = str(tmp_path / "tk.db")
    site = tmp_path / "site.toml"
    site.write_text(
        Path(SITE).read_text().replace('name = "The Sunken Abbey"', f'name = "{MARKUP} Abbey"')
    )
    steps = [
        ["new", MARKUP, "-r", "dg", "--party", PARTY],
        ["site", "enter", str(site)],
        ["countdown", "add", MARKUP, "--type", "short", "--length", "4"],
        ["site", "map", "note", f"{MARKUP} [bold]x"],
        ["note", f"{MARKUP} behind the tapestry"],
    ]
    for step in steps:
        said = shell(*step, "--db", db)
        assert said.code == 0, said.err
        assert MARKUP in said.out
    for reading in (
        ["log"],
        ["log", "--player"],
        ["status"],
        ["countdown", "list"],
        ["site", "show"],
    ):
        said = shell(*reading, "--db", db)
        assert said.code == 0, said.err
        assert MARKUP in said.out, reading


def test_a_ruleset_and_a_region_named_with_markup_are_printed_as_written(
    tmp_path: Path, shell
) -> None:
    db = str(tmp_path / "tk.db")
    rules = tmp_path / "mine.toml"
    rules.write_text(f'extends = "tp"\n[ruleset]\nname = "{MARKUP}"\ntitle = "{MARKUP}"\n')
    wild = tmp_path / "wild.toml"
    wild.write_text(
        'name = "w"\nwidth = 2\nheight = 2\nterrain = ["pp", "pp"]\n'
        f'[[hexes]]\nat = "0101"\nregion = "{MARKUP}"\n'
    )
    for step in (
        ["rules", "check", str(rules)],
        ["table", "list", "--ruleset", str(rules)],
        ["new", "k", "-r", str(rules), "--party", PARTY, "--db", db],
        ["status", "--db", db],
        ["map", "load", str(wild), "--at", "0101", "--db", db],
        ["weather", "--db", db],
    ):
        said = shell(*step)
        assert said.code == 0, (step, said.err)
        assert MARKUP in said.out or step[0] in ("map",), step


# --- numbers and durations -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("duration", "message"),
    [
        ("100000000000000000000000000000", "cannot read duration"),
        ("9223372036854775808s", "a duration is at most 100 years"),
        ("9" * 5000 + "s", "too long to read"),
        ("36501d", "a duration is at most 100 years"),
    ],
)
def test_a_wait_beyond_the_limits_is_one_line(shell, db: str, duration: str, message: str) -> None:
    assert message in refused(shell, db, "wait", duration, "--db", db)


def test_limits_on_maps_seeds_names_and_odds_are_stated_in_the_error(
    tmp_path: Path, shell, db: str
) -> None:
    out = str(tmp_path / "m.toml")
    line = refused(
        shell, db, "map", "new", "--width", "10000", "--height", "10000", "--seed", "1",
        "--out", out,
    )  # fmt: skip
    assert "maps are at most 2,000 x 2,000 hexes" in line and not Path(out).exists()
    line = refused(
        shell, db, "map", "new", "--width", "5", "--height", "5", "--seed", "-1", "--out", out
    )
    assert "a seed is a whole number from 0" in line
    line = refused(
        shell, db, "map", "new", "--width", "5", "--height", "5", "--seed", "1",
        "--out", "/proc/x.toml",
    )  # fmt: skip
    assert "/proc/x.toml" in line
    assert "at most 200 characters" in refused(
        shell, db, "new", "x" * 20_000, "-r", "ex", "--solo", "--db", db
    )
    line = refused(
        shell, db, "countdown", "add", "y" * 100_000, "--type", "short", "--length", "4",
        "--db", db,
    )  # fmt: skip
    assert "at most 200 characters" in line and len(line) < 400
    assert "1 to 1,000 turns" in refused(
        shell, db, "odds", "turn", "-r", "ex", "--turns", "1000000000"
    )


def test_a_usage_die_chain_beyond_its_limit_is_refused(shell, db: str) -> None:
    """PG-USE-1's chain (d12 down to d4) works out at once; 10,000 steps would take hours."""
    chain = ",".join(str(n) for n in range(10_000, 1, -1))
    line = refused(shell, db, "odds", "--usage", "d10000", "--chain", chain)
    assert "at most 8 dice of at most 30 sides" in line
    assert shell("odds", "--usage", "d12", "--chain", "12,10,8,6,4", "--json").code == 0


def test_a_note_beyond_its_limit_is_refused(shell, db: str) -> None:
    line = refused(shell, db, "note", "x" * 10_001, "--db", db)
    assert "notes are at most 10,000 characters" in line
    assert shell("note", "x" * 10_000, "--db", db).code == 0


# --- options ---------------------------------------------------------------------------------


def test_an_empty_campaign_or_store_is_an_error_not_the_default(shell, db: str) -> None:
    assert "the campaign's name is empty" in refused(shell, db, "status", "-c", "", "--db", db)
    assert "the store is empty" in refused(shell, db, "campaigns", "--db", "")


@pytest.mark.parametrize(
    "store",
    ["{tmp}", "/etc/passwd", "foo://bar", "postgresql+psycopg://nobody@127.0.0.1:1/none"],
)
def test_an_unusable_store_is_one_line(tmp_path: Path, shell, store: str) -> None:
    for verb in (["campaigns"], ["new", "k", "-r", "ex", "--solo"]):
        said = shell(*verb, "--db", store.format(tmp=tmp_path))
        assert said.code == 2, said.err
        assert len(said.err.strip().splitlines()) == 1 and "internal error" not in said.err


# --- the safety net --------------------------------------------------------------------------


def test_a_bug_is_one_line_with_its_own_exit_code_and_debug_shows_the_traceback(
    shell, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("the sky")

    monkeypatch.setattr(Campaigns, "names", broken)
    said = shell("campaigns", "--db", db, "--json")
    assert said.code == INTERNAL_ERROR == 70
    assert said.err.strip().splitlines() == [
        "error: internal error: KeyError: 'the sky'; run with --debug for the details"
    ]
    said = shell("--debug", "campaigns", "--db", db, "--json")
    assert said.code == INTERNAL_ERROR
    assert "Traceback (most recent call last)" in said.err and "in broken" in said.err
    said = shell("campaigns", "--db", db, "--json")  # --debug does not stick
    assert said.code == INTERNAL_ERROR and "Traceback" not in said.err
