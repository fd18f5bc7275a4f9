"""Words for people, both ways (issue 24, item 4): a rule's names are shown as words and
accepted as words or keys; a refused name gets the near one; help pages show plain
metavars."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from typer.testing import CliRunner

from turnkeeper.cli.app import VERBS, app, load_verb

if TYPE_CHECKING:
    from tests.integration.conftest import Shell

SITE = Path(__file__).parents[2] / "src" / "turnkeeper" / "examples" / "site.toml"
MAP = 'name = "Vale"\nwidth = 4\nheight = 4\nterrain = ["pphp", "pfpp", "pppM", "pppp"]\n'
PARTY = """
[[characters]]
name = "Aldo"
hp = 8
[[characters]]
name = "Bea"
hp = 6
[supplies]
arrows = 20
"""

#: A rule's key in snake_case (heavy_snow, night_camp), or a Python repr of a dict or a list.
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
REPR = re.compile(r"\{'|': |\['|\bNone\b|\bTrue\b|\bFalse\b")


def _ok(shell: Shell, *args: str) -> str:
    said = shell(*args)
    assert said.code == 0, said.err
    return said.out


@pytest.fixture
def snowbound(tmp_path: Path, shell: Shell) -> str:
    """A campaign in heavy snow that made a night camp and has an encounter pending."""
    db = str(tmp_path / "t.db")
    (tmp_path / "vale.toml").write_text(MAP, encoding="utf-8")
    (tmp_path / "party.toml").write_text(PARTY, encoding="utf-8")
    _ok(
        shell,
        "new",
        "Keep",
        "--ruleset",
        "tp",
        "--seed",
        "3",
        "--db",
        db,
        "--party",
        str(tmp_path / "party.toml"),
    )
    _ok(shell, "map", "load", str(tmp_path / "vale.toml"), "--at", "0000", "--db", db)
    _ok(shell, "weather", "set", "heavy_snow", "--db", db)
    _ok(shell, "camp", "--db", db, "--dice", "5,5")
    _ok(shell, "site", "enter", str(SITE), "--db", db)
    for _ in range(8):
        data = json.loads(_ok(shell, "turn", "--db", db, "--json"))
        if "dungeon.encounter" in [r["kind"] for r in data["records"]]:
            break
    else:
        pytest.fail("no encounter in 8 turns")
    return db


def test_status_log_and_markdown_show_words_not_keys(snowbound: str, shell: Shell) -> None:
    db = snowbound
    status = _ok(shell, "status", "--db", db)
    assert "heavy snow" in status and "encounter" in status
    log = _ok(shell, "log", "--db", db)
    assert "night camp" in " ".join(log.split())
    site = _ok(shell, "site", "show", "--db", db)
    assert "encounter under way" in site
    markdown = _ok(shell, "export", "--format", "markdown", "--db", db)
    for shown in (status, log, site, markdown):
        assert not SNAKE.findall(shown), SNAKE.findall(shown)
        assert not REPR.findall(shown), REPR.findall(shown)
    # --json keeps the key
    data = json.loads(_ok(shell, "status", "--db", db, "--json"))
    assert "heavy_snow" in json.dumps(data)


def test_names_are_taken_as_words(snowbound: str, shell: Shell) -> None:
    db = snowbound
    assert "heavy snow" in _ok(shell, "weather", "set", "Heavy snow", "--db", db)
    data = json.loads(_ok(shell, "weather", "--db", db, "--json"))
    assert set(data["weather"].values()) == {"heavy_snow"}
    cost = _ok(shell, "travel", "cost", "--terrain", "deep forest", "--weather", "light snow")
    assert "deep forest" in cost and "TP per hex" in cost


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("weather", "set", "hevy snow", "--db"), "did you mean heavy snow?"),
        (("travel", "cost", "--terrain", "deep forst"), "did you mean deep forest?"),
    ],
)
def test_a_misspelt_name_gets_the_near_one(
    snowbound: str, shell: Shell, args: tuple[str, ...], says: str
) -> None:
    said = shell(*args, snowbound) if args[-1] == "--db" else shell(*args)
    assert said.code == 2 and says in said.err, said.err


def _help_pages() -> list[str]:
    """Every verb's and sub-command's command line, to any depth."""
    found: list[str] = []
    todo = [(name, load_verb(name)) for name in VERBS]
    while todo:
        path, command = todo.pop(0)
        found.append(path)
        todo += [(f"{path} {n}", sub) for n, sub in getattr(command, "commands", {}).items()]
    return found


#: Typer's own metavars: a type in angle brackets, a range as ``[x>=0]``, an argument in braces.
TYPER_METAVAR = re.compile(r"<(?:list\[|int|str|float|path)[^>]*>|\[x[<>]|\{[a-z_]+\}")


@pytest.mark.parametrize("path", _help_pages())
def test_help_shows_what_to_type_in_plain_words(path: str) -> None:
    done = CliRunner().invoke(app, [*path.split(), "--help"], terminal_width=200)
    assert done.exit_code == 0, done.output
    assert not TYPER_METAVAR.findall(done.output), TYPER_METAVAR.findall(done.output)


def test_help_text_is_never_read_as_markup() -> None:
    done = CliRunner().invoke(app, ["combat", "start", "--help"], terminal_width=200)
    assert "[[allies]] join" in done.output  # not eaten as a Rich tag
    done = CliRunner().invoke(app, ["map", "show", "--help"], terminal_width=200)
    assert '"known": [hexes]' in done.output


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("supply", "use", "arows"), "no supply 'arows'; did you mean arrows?"),
        (("damage", "Aldp", "2"), "did you mean Aldo?"),
        (("light", "torh"), "did you mean torch?"),
        (("countdown", "tick", "omenz"), "did you mean omens?"),
    ],
)
def test_a_misspelt_party_name_gets_the_near_one(
    snowbound: str, shell: Shell, args: tuple[str, ...], says: str
) -> None:
    _ok(shell, "countdown", "add", "omens", "--type", "short", "--length", "3", "--db", snowbound)
    before = shell.store(snowbound)
    said = shell(*args, "--db", snowbound)
    assert said.code == 2 and says in said.err, said.err
    assert shell.store(snowbound) == before


def test_a_misspelt_combatant_gets_the_near_one(snowbound: str, shell: Shell) -> None:
    _ok(shell, "combat", "start", "--db", snowbound)
    said = shell("combat", "attack", "Aldo", "giant leach", "--db", snowbound)
    assert said.code == 2 and "did you mean giant leech?" in said.err, said.err


@pytest.mark.parametrize("args", [("use", "Kep"), ("log", "-c", "Kep"), ("status", "-c", "Kep")])
def test_a_misspelt_campaign_gets_the_near_one(
    snowbound: str, shell: Shell, args: tuple[str, ...]
) -> None:
    said = shell(*args, "--db", snowbound)
    assert said.code == 2 and "no campaign named 'Kep'; did you mean Keep?" in said.err, said.err


def test_a_count_of_one_is_said_in_the_singular(shell: Shell, tmp_path: Path) -> None:
    """Issue 25: "after 1 turns", "1 rations", "1 torches added", "arrows used (used)",
    "5 day(s)": a count takes its noun in the number it needs (turnkeeper.words.counted),
    a supply named in the plural is one of it, and a plain use is not told twice."""
    db = str(tmp_path / "t.db")
    party = Path(__file__).parents[2] / "src" / "turnkeeper" / "examples" / "party.toml"
    _ok(shell, "new", "Keep", "-r", "ex", "--party", str(party), "--seed", "1", "--db", db)

    def said(*args: str) -> list[str]:
        return [r["text"] for r in json.loads(_ok(shell, *args, "--db", db, "--json"))["records"]]

    said("site", "enter", str(SITE))
    assert "torch lit (30 ft, 3 turns); 1 from torches" in said("light", "torch")
    said("turn")
    assert said("site", "leave")[-1] == "the party leaves The Sunken Abbey after 1 turn"
    assert said("supply", "use", "rations") == ["1 ration spent"]
    assert said("supply", "add", "torches", "-n", "1") == ["1 torch added"]
    assert said("supply", "add", "torches", "-n", "2") == ["2 torches added"]
    (arrows,) = said("supply", "use", "arrows")
    assert arrows.startswith("arrows used: rolled ") and "(used)" not in arrows


def test_map_check_says_ok_once_and_terrain_in_words(
    shell: Shell, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: `map check` printed a row "ok │ True" under a title saying OK, and terrain
    by its keys (deep_forest)."""
    monkeypatch.chdir(tmp_path)
    _ok(shell, "map", "new", "--width", "8", "--height", "8", "--seed", "1", "--out", "wild.toml")
    shown = _ok(shell, "map", "check", "wild.toml")
    assert "wild.toml: OK" in shown and "True" not in shown
    assert "deep forest" in shown and not SNAKE.search(shown)
