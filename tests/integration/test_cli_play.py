"""`turnkeeper play`: a scripted session through prompt_toolkit's pipe input, with completion
checked at each step, and the moves a referee makes by hand (damage, heal, supply, note)."""

from __future__ import annotations

from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from turnkeeper.cli.play import Table, TableCompleter, toolbar
from turnkeeper.errors import TurnkeeperError
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store

from .conftest import Tk

EXAMPLES = files("turnkeeper.examples")


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "play.db")


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as pipe_input, create_app_session(pipe_input, DummyOutput()):
        yield pipe_input


def offered(table: Table, text: str) -> list[str]:
    """What Tab offers after ``text``."""
    completer = table.prompt.completer
    assert isinstance(completer, TableCompleter)
    return [c.text for c in completer.get_completions(Document(text), CompleteEvent())]


def test_a_session_plays_a_turn_a_fight_and_a_rest_with_completion(
    db: str, tk: Tk, pipe: PipeInput, capsys: pytest.CaptureFixture[str]
) -> None:
    tk(db, "new", "keep", "--ruleset", "ex", "--party", str(EXAMPLES / "party.toml"), "--seed", "3")
    tk(db, "new", "other", "--ruleset", "ex", "--party", str(EXAMPLES / "party.toml"))
    store = open_store(db)
    campaigns = Campaigns(store)
    table = Table(campaigns, "keep", history=InMemoryHistory())

    assert "turn" in offered(table, "tu") and "status" in offered(table, "sta")
    lines = [f"site enter {EXAMPLES / 'site.toml'}", "light torch"]
    for line in lines:
        assert table.execute(line)
    assert "torch" in offered(table, "light t")
    assert offered(table, "turn --mo") == ["--mode"]
    assert "cautious" in offered(table, "turn --mode c")
    assert table.execute("turn --mode cautious")
    assert "The Sunken Abbey level 1" in table.toolbar and "torch: 2 turns left" in table.toolbar

    assert "start" in offered(table, "combat st")
    assert table.execute("combat start --monster 'Goblin:hd=1,hp=4,ac=12'")
    assert table.execute("combat round")
    assert "Goblin" in offered(table, "combat attack Aldo Go")
    assert "fight: round 1" in table.toolbar
    # the goblin felled, its side has nobody standing: the fight ends there (PG-CBT-1)
    assert table.execute("damage Goblin 6 --reason 'thrown oil'")
    assert "fight" not in table.toolbar
    assert "rest" in offered(table, "re")
    assert table.execute("rest")

    # the same keystrokes through the prompt: Ctrl-C clears a line, Ctrl-D leaves
    pipe.send_text("stat")
    pipe.send_text("\x03")  # Ctrl-C: the half-typed line is dropped
    pipe.send_text("status\r")
    pipe.send_text("\x04")  # Ctrl-D: the session ends
    table.run()
    store.close()

    out = capsys.readouterr().out
    assert "turn 1: cautious" in out and "Goblin takes 6 damage (thrown oil)" in out
    assert "rest" in out and "version" in out and "combat over: party wins" in out
    state = tk(db, "status", "--campaign", "keep")
    assert state["combat"] is None
    assert tk(db, "campaigns")["current"] == "keep"


def test_a_mistake_in_a_session_is_one_line_and_the_session_goes_on(
    db: str, tk: Tk, capsys: pytest.CaptureFixture[str]
) -> None:
    tk(db, "new", "keep", "--ruleset", "ex", "--party", str(EXAMPLES / "party.toml"))
    store = open_store(db)
    table = Table(Campaigns(store), "keep", history=InMemoryHistory())
    assert table.execute("turn --mode sneaky")  # not in a site, no such mode
    assert table.execute('note "unclosed')
    assert table.execute("play")
    assert not table.execute("exit")
    store.close()
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    assert "is for the shell" in captured.out
    assert tk(db, "status")["version"] == 1


def test_the_campaigns_own_names_are_offered_by_kind(db: str, tk: Tk) -> None:
    tk(db, "new", "keep", "--ruleset", "ex", "--party", str(EXAMPLES / "party.toml"))
    store = open_store(db)
    campaigns = Campaigns(store)
    state = campaigns.state("keep")
    completer = TableCompleter(lambda: state, campaigns.names)
    names = [c.text for c in completer.get_completions(Document("supply use "), CompleteEvent())]
    store.close()
    assert "arrows" in names and "Aldo" not in names and "torch" not in names
    assert toolbar(state).startswith("1-01-01 08:00 · darkness")


# -- the moves a referee makes by hand -------------------------------------------------------


def test_pg_hp_1_trap_damage_rolls_its_dice_and_records_them(db: str, tk: Tk) -> None:
    tk(db, "new", "keep", "--ruleset", "ex", "--party", str(EXAMPLES / "party.toml"))
    before = {c["name"]: c["hp"] for c in tk(db, "party", "show")["characters"]}
    done = tk(db, "damage", "Aldo", "2d6", "--reason", "pit trap", "--dice", "3,4")
    (record,) = done["records"]
    assert record["data"]["change"] == -7 and record["data"]["reason"] == "pit trap"
    assert record["rolls"][0]["breakdown"] == "2d6 (3, 4) = 7"
    healed = tk(db, "heal", "Aldo", "3")["records"][0]["data"]
    assert healed["hp"] == before["Aldo"] - 7 + 3


def test_heal_never_above_the_most_hit_points(db: str, tk: Tk) -> None:
    tk(db, "new", "keep", "--ruleset", "ex", "--party", str(EXAMPLES / "party.toml"))
    most = {c["name"]: c["max_hp"] for c in tk(db, "party", "show")["characters"]}
    tk(db, "damage", "Bea", "1")
    assert tk(db, "heal", "Bea", "1d6+5")["records"][0]["data"]["hp"] == most["Bea"]


def test_pg_use_1_supply_use_rolls_the_usage_die_and_add_counts(db: str, tk: Tk) -> None:
    tk(db, "new", "keep", "--ruleset", "pg", "--party", str(EXAMPLES / "party.toml"))
    used = tk(db, "supply", "use", "arrows", "--dice", "7")["records"][0]
    assert used["rolls"][0]["breakdown"] == "d10 (7) = 7"
    torches = tk(db, "party", "show")["supplies"]["torches"]
    tk(db, "supply", "add", "torches", "-n", "3")
    assert tk(db, "party", "show")["supplies"]["torches"] == torches + 3
    with pytest.raises(TurnkeeperError, match="say how many"):
        tk(db, "supply", "add", "torches")


def test_a_referee_note_stays_out_of_the_players_log(db: str, tk: Tk) -> None:
    tk(db, "new", "keep", "--ruleset", "ex", "--party", str(EXAMPLES / "party.toml"))
    tk(db, "note", "the goblins fled east", "--referee")
    tk(db, "note", "we mapped the crypt")
    party_lines = str(tk(db, "log", "--player"))
    assert "we mapped the crypt" in party_lines and "goblins fled" not in party_lines
    assert "goblins fled" in str(tk(db, "log"))


def test_campaigns_delete_asks_and_removes_the_journal(db: str, tk: Tk) -> None:
    tk(db, "new", "keep", "--ruleset", "ex", "--party", str(EXAMPLES / "party.toml"))
    tk(db, "new", "keep2", "--ruleset", "ex", "--party", str(EXAMPLES / "party.toml"))
    assert tk(db, "campaigns", "delete", "keep2", "--yes") == {"deleted": "keep2"}
    assert tk(db, "campaigns")["campaigns"] == ["keep"]
    with pytest.raises(TurnkeeperError, match="no campaign named 'nope'"):
        tk(db, "campaigns", "delete", "nope", "--yes")
