"""`turnkeeper play`'s completion by kind and by context (issue 24, item 3), scripted: a
campaign is played to a fight with a dead, a wounded and an unhurt character, a fallen foe and
a spent supply, and Tab is pressed after each verb through prompt_toolkit's own Document."""

from __future__ import annotations

import shlex
from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from typer.testing import CliRunner

from turnkeeper.cli.app import app
from turnkeeper.cli.play import Table, TableCompleter
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store

from .conftest import Tk

PARTY = """
leader = "Aldo"

[[characters]]
name = "Aldo"
hp = 12
max_hp = 14

[[characters]]
name = "Bea"
hp = 4

[[characters]]
name = "Cid"
hp = 3

[supplies]
torches = 2
oil = 1
arrows = "d10"
"""


@pytest.fixture
def campaigns(tk: Tk, tmp_path: Path) -> Iterator[Campaigns]:
    """keep: Aldo wounded, Bea unhurt, Cid dead; a fight against three goblins, the first
    fallen; the oil spent. other: a second campaign in the store."""
    db = str(tmp_path / "play.db")
    party = tmp_path / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    tk(db, "new", "keep", "--ruleset", "ex", "--party", str(party), "--seed", "3")
    tk(db, "new", "other", "--ruleset", "ex", "--solo")
    tk(db, "use", "keep")
    tk(db, "damage", "Cid", "20")
    tk(db, "supply", "use", "oil")
    tk(db, "combat", "start", "--monster", "Goblin:hd=1,hp=4,ac=12,count=3")
    tk(db, "damage", "Goblin 1", "20")
    store = open_store(db)
    try:
        yield Campaigns(store)
    finally:
        store.close()


@pytest.fixture
def completer(campaigns: Campaigns) -> TableCompleter:
    return TableCompleter(lambda: campaigns.state("keep"), campaigns.names)


def completions(completer: TableCompleter, text: str) -> list[Completion]:
    return list(completer.get_completions(Document(text), CompleteEvent()))


def offered(completer: TableCompleter, text: str) -> list[str]:
    """What Tab offers after ``text``, as it would be put on the line."""
    return [c.text for c in completions(completer, text)]


def completed(completer: TableCompleter, text: str) -> list[str]:
    """Each line as it reads once Tab's completion is taken."""
    return [text[: len(text) + c.start_position] + c.text for c in completions(completer, text)]


def test_the_state_is_as_the_cases_need(campaigns: Campaigns) -> None:
    state = campaigns.state("keep")
    party = {c.name: c for c in state.party.characters}
    assert not party["Cid"].alive and party["Aldo"].hp < party["Aldo"].max_hp
    assert party["Bea"].hp == party["Bea"].max_hp
    assert state.combat is not None
    fallen = [c.name for c in state.combat.combatants if not c.standing]
    assert "Goblin 1" in fallen and "Bea" not in fallen
    assert state.supplies.count("oil") == 0 and "torches" in state.supplies.counted


def test_heal_offers_only_the_living_who_are_wounded(completer: TableCompleter) -> None:
    assert offered(completer, "heal ") == ["Aldo"]  # not Bea (unhurt), not Cid (dead)
    assert offered(completer, "heal B") == []
    # damage takes anyone living, then an amount as dice or a number
    assert {"Aldo", "Bea", '"Goblin 2"'} <= set(offered(completer, "damage "))
    assert "Cid" not in offered(completer, "damage ")
    assert offered(completer, "damage Aldo ") == ["1", "1d6", "2d6"]


def test_an_attack_is_offered_the_foes_standing_against_the_attacker(
    completer: TableCompleter,
) -> None:
    assert offered(completer, "combat attack ") == ["Aldo", "Bea", '"Goblin 2"', '"Goblin 3"']
    assert offered(completer, "combat attack Aldo ") == ['"Goblin 2"', '"Goblin 3"']
    assert offered(completer, 'combat attack "Goblin 2" ') == ["Aldo", "Bea"]
    # the declared action's target is the actor's foe too
    assert offered(completer, "combat declare Bea attack ") == ['"Goblin 2"', '"Goblin 3"']
    # nothing after the last argument
    assert offered(completer, "combat attack Aldo 'Goblin 2' ") == []


def test_supply_use_offers_only_what_the_party_has(completer: TableCompleter) -> None:
    assert offered(completer, "supply use ") == ["torches", "arrows"]  # the oil is spent
    assert offered(completer, "supply use t") == ["torches"]


def test_use_offers_the_campaigns_of_the_store(completer: TableCompleter) -> None:
    assert offered(completer, "use ") == ["keep", "other"]
    assert offered(completer, "campaigns delete o") == ["other"]
    assert offered(completer, "status --campaign ") == ["keep", "other"]
    assert offered(completer, "status -c k") == ["keep"]


def test_a_session_offers_the_campaigns_of_its_own_store(campaigns: Campaigns) -> None:
    with create_pipe_input() as pipe, create_app_session(pipe, DummyOutput()):
        table = Table(campaigns, "keep", history=InMemoryHistory())
        completer = table.prompt.completer
        assert isinstance(completer, TableCompleter)
        assert offered(completer, "use ") == ["keep", "other"]
        assert offered(completer, "heal ") == ["Aldo"]


def test_every_choice_is_offered(completer: TableCompleter) -> None:
    assert offered(completer, "combat end --winner ") == ["party", "foes"]
    assert offered(completer, "combat announce-done ") == ["party", "foes"]
    assert offered(completer, "countdown add ghouls --after-end ") == ["end", "wound"]
    assert offered(completer, "countdown outcome x ") == [
        "failure",
        "partial",
        "success",
        "greater",
    ]
    assert offered(completer, "turn --mode ") == ["cautious", "swift", "running"]
    assert offered(completer, "turn -m s") == ["swift"]
    # a command written by hand: its choice's values, or its field's in the table by name
    assert offered(completer, "tokens --role ") == ["referee", "player"]
    assert offered(completer, "combat start --surprise ") == ["party", "foes", "both", "none"]
    assert offered(completer, "combat start --aware ") == ["party", "foes"]


def test_export_offers_its_formats(completer: TableCompleter) -> None:
    assert offered(completer, "export --format ") == ["jsonl", "markdown"]


def test_a_value_with_nothing_to_offer_offers_nothing(completer: TableCompleter) -> None:
    assert offered(completer, "map reveal 0603 --feature B") == []  # not Bea
    assert offered(completer, "map reveal 0603 --feature ") == []
    assert offered(completer, "note ") == []
    assert offered(completer, "countdown tick ") == []  # no countdown running
    assert offered(completer, "damage Aldo 3 --reason ") == []
    assert offered(completer, "status ") == []
    assert offered(completer, "nosuchverb ") == []


def test_verbs_sub_verbs_and_options(completer: TableCompleter) -> None:
    assert "heal" in offered(completer, "he") and "exit" in offered(completer, "ex")
    assert "play" not in offered(completer, "pl")
    assert "attack" in offered(completer, "combat ") and "Aldo" not in offered(completer, "combat ")
    assert offered(completer, "turn --mo") == ["--mode"]
    assert "--reason" in offered(completer, "heal Aldo 3 -")
    # after a flag, the next word is an argument again, not the flag's value
    assert offered(completer, "combat attack --ranged Aldo ") == ['"Goblin 2"', '"Goblin 3"']


def test_a_name_with_a_space_comes_quoted_and_an_open_quote_is_closed(
    completer: TableCompleter,
) -> None:
    assert completed(completer, "combat attack Aldo Gob") == [
        'combat attack Aldo "Goblin 2"',
        'combat attack Aldo "Goblin 3"',
    ]
    assert completed(completer, 'combat attack Aldo "Gob') == [
        'combat attack Aldo "Goblin 2"',
        'combat attack Aldo "Goblin 3"',
    ]
    assert completed(completer, "combat attack Aldo 'Goblin 3") == ["combat attack Aldo 'Goblin 3'"]
    assert completed(completer, 'heal "Al') == ['heal "Aldo"']
    assert completed(completer, 'wait "3 t') == ['wait "3 turns"']
    assert completed(completer, 'combat attack "Goblin 2" "B') == ['combat attack "Goblin 2" "Bea"']
    for line in [
        *completed(completer, 'combat attack Aldo "Gob'),
        *completed(completer, 'wait "1'),
        *completed(completer, "use 'k"),
    ]:
        shlex.split(line)  # every completed line reads whole: no quote left open


def test_the_completer_reads_the_state_as_it_is_now(tk: Tk, tmp_path: Path) -> None:
    db = str(tmp_path / "now.db")
    tk(db, "new", "keep", "--ruleset", "ex", "--solo")
    store = open_store(db)
    try:
        campaigns = Campaigns(store)
        completer = TableCompleter(lambda: campaigns.state("keep"), campaigns.names)
        assert offered(completer, "heal ") == []
        assert offered(completer, "countdown tick ") == []
        with create_pipe_input() as pipe, create_app_session(pipe, DummyOutput()):
            table = Table(campaigns, "keep", history=InMemoryHistory())
            assert table.execute('countdown add "ghouls wake" --type short --length 4')
            assert table.execute("damage Adventurer 1")
        assert offered(completer, "countdown tick ") == ['"ghouls wake"']
        assert offered(completer, "heal ") == ["Adventurer"]
    finally:
        store.close()


def test_travel_offers_its_own_words_and_the_ways_to_go(tk: Tk, tmp_path: Path) -> None:
    """`travel` is a verb and a group (`travel cost`): after it, the group's command and the
    destinations; after `travel to`, the destinations; the verb's options after a direction."""
    db = str(tmp_path / "wild.db")
    tk(db, "new", "vale", "--ruleset", "tp", "--solo")
    map_file = str(tmp_path / "m.toml")
    made = CliRunner().invoke(
        app, ["map", "new", "--width", "6", "--height", "6", "--seed", "3", "--out", map_file]
    )
    assert made.exit_code == 0, made.output
    tk(db, "map", "load", map_file, "--at", "0303")
    store = open_store(db)
    try:
        campaigns = Campaigns(store)
        completer = TableCompleter(lambda: campaigns.state("vale"), campaigns.names)
        ways = ["n", "ne", "se", "s", "sw", "nw"]
        assert offered(completer, "travel ")[:7] == ["cost", *ways]
        assert offered(completer, "travel to ")[:6] == ways
        assert offered(completer, "travel n") == ["n", "ne", "nw"]
        assert "mounted" in offered(completer, "travel ne --party ")
        assert "--explore" in offered(completer, "travel ne -")
        assert offered(completer, "travel cost ") == []
    finally:
        store.close()


LINES = [
    "he",
    "combat ",
    "heal ",
    "damage ",
    "damage Aldo ",
    "combat attack ",
    "combat attack Aldo ",
    'combat attack "Goblin 2" ',
    "combat attack Aldo Gob",
    'combat attack Aldo "Gob',
    "combat declare Bea attack ",
    "combat attack --ranged Aldo ",
    "supply use ",
    "supply use t",
    "combat end --winner ",
    "countdown add ghouls --after-end ",
    "countdown outcome x ",
    "turn --mode ",
    "turn -m s",
    "turn --mo",
    "heal Aldo 3 --re",
    'wait "3 t',
    "scene ",
    "site map ",
]


@pytest.mark.parametrize("text", LINES)
def test_the_dashboards_command_line_completes_as_play_does(
    campaigns: Campaigns, completer: TableCompleter, text: str
) -> None:
    """Issue 26, item 2: one completion for the table's verbs, read from the table, whichever
    front door asks (play's prompt, the page's command line)."""
    from turnkeeper.verbs.line import complete

    start, words = complete(text, campaigns.state("keep"), extra=lambda body: ())
    on_the_page = [text[:start] + word for word in words]
    in_play = completed(completer, text)
    assert on_the_page, "every line here has something to offer"
    if text in ("he", "combat ", "scene ") or text.endswith(("--mo", "--re")):
        # play also offers the shell's own verbs and options (status, exit, --json...)
        assert set(on_the_page) <= set(in_play)
    else:
        assert on_the_page == in_play


def test_the_calendar_offers_its_options_and_the_worlds_parties(completer: TableCompleter) -> None:
    """issue 43's calendar in play: the verb, its flags, and a party of the world after
    ``--party`` (the world of one party here: the campaign's own)."""
    assert "calendar" in offered(completer, "cal")
    assert {"--party", "--player", "--json"} <= set(offered(completer, "calendar -"))
    assert offered(completer, "calendar --party ") == ["keep"]
