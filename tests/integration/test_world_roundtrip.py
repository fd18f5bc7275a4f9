"""A world's journal round-trips (issue 37): the backup of a world of parties is restored.

A party switch turns the time record to another party's present, which may be earlier than
the party left: time only runs forward within a party. An import proves what it reads (each
record's ``at`` is the time its fold reaches) and accepts what turnkeeper writes, so every
export of a world (splits, newcomers, switches, ``--as``, undo and redo across tables)
imports to the same state and the same records.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import turnkeeper
from turnkeeper.campaign import Command, Journal, Redo, Undo, Wait, parse_party, render_markdown
from turnkeeper.campaign.commands import AsParty
from turnkeeper.campaign.time_record import records_run_for
from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.kernel.events import (
    UNDO_EVENTS,
    CommandRedone,
    NoteMade,
    Recorded,
    Visibility,
    undone_commands,
)
from turnkeeper.procedures.dungeon import EndEncounter, EnterSite, LeaveSite, Turn
from turnkeeper.procedures.parties import (
    BringForward,
    ClearArea,
    JoinParty,
    NewParty,
    PartySwitched,
    SplitParty,
    SwitchParty,
)
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.world.sites import parse_site

if TYPE_CHECKING:
    from tests.integration.conftest import Shell

EXAMPLES = Path(turnkeeper.__file__).parent / "examples"

README_WORLD = [
    # README.md, "One world, many parties", word for word but for the files' folder
    ["new", "marches", "--ruleset", "ex", "--party", f"{EXAMPLES}/party.toml", "--seed", "8"],
    ["supply", "add", "rations", "--amount", "100"],
    ["supply", "add", "water", "--amount", "100"],
    ["wait", "49d"],
    ["countdown", "add", "the dragon wakes", "--type", "day", "--length", "10", "--world"],
    ["party", "split", "Oracle Ride", "Aldo", "--take", "rations=9", "--take", "water=9"],
    ["party", "doing", "riding to the oracle", "--to", "the oracle", "--as", "Oracle Ride"],
    ["party", "new", "Newcomers", f"{EXAMPLES}/newcomers.toml"],
    ["party", "switch", "Newcomers"],
    ["site", "enter", f"{EXAMPLES}/site.toml"],
    ["turn", "--area", "1"],
    ["site", "clear", "1", "--what", "drove the ghouls from"],
    ["site", "leave"],
    ["wait", "5d", "--as", "Oracle Ride"],
    ["party", "switch", "marches"],
    ["party", "forward"],
    ["site", "enter", f"{EXAMPLES}/site.toml"],
    ["turn", "--area", "1"],
]


def play_readme_world(shell: Shell, db: str) -> None:
    for args in README_WORLD:
        said = shell(*args, "--db", db)
        assert said.code == 0, (args, said.err)


def test_the_readmes_world_comes_back_from_its_jsonl_export(shell: Shell, tmp_path: Path) -> None:
    """The README's world, exported as JSON Lines and imported into a new store, is the same
    world: the same records, byte for byte, and the same timeline and status."""
    db, copy = str(tmp_path / "world.db"), str(tmp_path / "restored.db")
    play_readme_world(shell, db)
    backup = tmp_path / "marches.jsonl"
    assert shell("export", "--format", "jsonl", "--out", str(backup), "--db", db).code == 0
    said = shell("import", str(backup), "--db", copy)
    assert said.code == 0, said.err
    assert "Imported marches" in said.out
    for verb in (("export",), ("status", "--json"), ("party", "timeline", "--json")):
        restored = shell(*verb, "--db", copy)
        assert restored.code == 0, restored.err
        assert restored.out == shell(*verb, "--db", db).out, verb


def test_the_readmes_world_restored_beside_itself_keeps_its_parties_names(
    shell: Shell, tmp_path: Path
) -> None:
    """Imported under another name (beside the world it backs up), the world's founding party
    is still called marches: its records switch to marches, and the referee may too."""
    db = str(tmp_path / "world.db")
    play_readme_world(shell, db)
    backup = tmp_path / "marches.jsonl"
    assert shell("export", "--out", str(backup), "--db", db).code == 0
    said = shell("import", str(backup), "--name", "marches-copy", "--db", db)
    assert said.code == 0, said.err
    # its players read what the original's read: marches' lines from the first record on
    theirs = [
        [
            r["text"]
            for r in json.loads(shell("log", "--player", "--json", "-c", name, "--db", db).out)
        ]
        for name in ("marches", "marches-copy")
    ]
    assert theirs[0][1:] == theirs[1][1:] and theirs[1][1] == "100 rations added"  # (1: its name)
    timeline = shell("party", "timeline", "-c", "marches-copy", "--db", db)
    assert timeline.out.startswith("marches-copy: the world's present is day 55")
    assert "* marches (Bea): day 55" in timeline.out
    assert shell("party", "switch", "Newcomers", "-c", "marches-copy", "--db", db).code == 0
    said = shell("party", "switch", "marches", "-c", "marches-copy", "--db", db, "--json")
    assert said.code == 0, said.err
    assert json.loads(said.out)["records"][0]["text"] == "the time record turns to marches"
    # a campaign of one party renamed is as it was: its party goes by the campaign's name
    assert (
        shell(
            "new", "Keep", "--ruleset", "ex", "--party", f"{EXAMPLES}/party.toml", "--db", db
        ).code
        == 0
    )
    keep = tmp_path / "keep.jsonl"
    assert shell("export", "-c", "Keep", "--out", str(keep), "--db", db).code == 0
    assert shell("import", str(keep), "--name", "Keep-copy", "--db", db).code == 0
    assert shell("export", "-c", "Keep-copy", "--db", db).out == keep.read_text().replace(
        '"name":"Keep"', '"name":"Keep-copy"', 1
    )


# --- what an import still refuses in a world ---------------------------------------------


def exported(campaigns: Campaigns, name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in campaigns.export_jsonl(name).splitlines()]


def as_text(records: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


NEWCOMERS = parse_party('[[characters]]\nname = "Eve"\nhp = 9')


TWO = parse_party('[[characters]]\nname = "Aldo"\nhp = 7\n[[characters]]\nname = "Bea"\nhp = 5')


@pytest.fixture
def world(tmp_path: Path) -> Campaigns:
    """Company on day 3 and Newcomers on day 2: a world in which a switch goes back a day."""
    campaigns = Campaigns(open_store(str(tmp_path / "w.db")))
    campaigns.new("Company", preset("ex"), TWO, seed=5)
    campaigns.execute("Company", Wait(86400))
    campaigns.execute("Company", NewParty("Newcomers", NEWCOMERS))
    campaigns.execute("Company", SplitParty("Scouts", ("Bea",)))
    campaigns.execute("Company", SwitchParty("Scouts"))
    campaigns.execute("Company", Wait(3600))
    campaigns.execute("Company", SwitchParty("Company"))  # back an hour, to Company's present
    campaigns.execute("Company", Wait(600))
    return campaigns


@pytest.fixture
def copy(tmp_path: Path) -> Campaigns:
    """A store of its own to import into: the world's party keeps the world's name."""
    return Campaigns(open_store(str(tmp_path / "copy.db")))


def test_a_switch_to_a_party_behind_imports(world: Campaigns, copy: Campaigns) -> None:
    """The switch back to Company goes back an hour (Scouts lived it): the import takes it."""
    records = exported(world, "Company")
    switch = [r for r in records if r["kind"] == "party.switched"][-1]
    assert switch["at"] < max(r["at"] for r in records[: records.index(switch)])
    assert copy.import_jsonl(world.export_jsonl("Company")) == world.state("Company")
    assert copy.export_jsonl("Company") == world.export_jsonl("Company")


def test_an_import_refuses_a_switchs_time_moved(world: Campaigns, copy: Campaigns) -> None:
    """A switch's ``at`` is the present of the party it turns to, none other."""
    records = exported(world, "Company")
    switch = [r for r in records if r["kind"] == "party.switched"][-1]
    switch["at"] -= 600
    with pytest.raises(TurnkeeperError, match=f"record {switch['seq']} .*says it happened at"):
        copy.import_jsonl(as_text(records))
    assert copy.names() == []


def test_an_import_refuses_a_new_party_arriving_before_the_worlds_present(
    world: Campaigns, copy: Campaigns
) -> None:
    """A party enters the world at its present: one moved back (to live days the world has
    lived, once a switch turns to it) is refused, though a switch may go back in time."""
    records = exported(world, "Company")
    arrived = next(r for r in records if r["kind"] == "party.arrived")
    assert arrived["data"]["at"] == 86400
    arrived["data"]["at"] = 0
    records.append(
        {
            **records[-1],
            "seq": len(records) + 1,
            "command": len(records) + 1,
            "kind": "party.switched",
            "data": {"to": "Newcomers"},
            "visibility": "referee",
            "at": 0,
        }
    )
    with pytest.raises(TurnkeeperError, match="Newcomers enters the world at 0 s, but a new party"):
        copy.import_jsonl(as_text(records))
    assert copy.names() == []


def test_a_worlds_jsonl_names_the_party_of_each_record(world: Campaigns, copy: Campaigns) -> None:
    """Once the world has several parties, each record names the party whose record it is
    (the one run after it, whose present its ``at`` is); a campaign of one party names none,
    so its journal is as it was."""
    records = exported(world, "Company")
    assert [r.get("party") for r in records] == [
        None,  # campaign.started
        None,  # clock.advanced: a day for Company alone, to the evening meal
        None,  # supply.shortfall: no rations for the meal
        None,  # supply.shortfall: nor water
        None,  # clock.advanced: the rest of the day
        "Company",  # Newcomers arrive: two parties from here on
        "Company",  # Bea leaves as Scouts
        "Scouts",  # switch to Scouts, and the hour it waits
        "Scouts",
        "Company",  # back to Company, and its ten minutes
        "Company",
    ]
    copy.import_jsonl(as_text(records))
    assert exported(copy, "Company") == records


def test_an_import_refuses_a_record_naming_another_party(world: Campaigns, copy: Campaigns) -> None:
    """The party a record names is the one its fold runs: a record moved to another party's
    name is refused; one naming none (a world's record from before records named their
    party) is taken, its party known from the fold."""
    records = exported(world, "Company")
    records[-1]["party"] = "Scouts"
    with pytest.raises(
        TurnkeeperError, match="says it is Scouts's, but the journal before it runs"
    ):
        copy.import_jsonl(as_text(records))
    records[1]["party"] = "Company"
    records[-1]["party"] = "Company"
    with pytest.raises(TurnkeeperError, match=r"record 2 .*world of one party"):
        copy.import_jsonl(as_text(records))
    assert copy.names() == []
    for record in records:
        record.pop("party", None)
    assert copy.import_jsonl(as_text(records)) == world.state("Company")


def test_a_redo_sent_as_a_party_imports(copy: Campaigns) -> None:
    """``redo --as Scouts`` was recorded as the switch to Scouts, then the redo (an undo or a
    redo sent as a party now turns the time record to no party): the switch is a record of
    the redo's command, decided before it, so the import takes the redo as its command found
    the journal (the latest undo took back command 3), as the engine did. The records are
    made here as that turnkeeper wrote them, so a backup it made is restored."""
    copy.new("Company", preset("ex"), TWO, seed=5)
    copy.execute("Company", SplitParty("Scouts", ("Bea",)))
    copy.execute("Company", Wait(600))
    copy.execute("Company", Undo())
    journal = Journal(copy.journal("Company").records)
    command = journal.version + 1
    sent_as = [PartySwitched(to="Scouts", visibility=Visibility.REFEREE), CommandRedone(command=3)]
    for seq, event in enumerate(sent_as, start=command):
        journal.append([Recorded(seq, command, 0, event)])
        journal.records[-1] = Recorded(seq, command, journal.state.now, event)
    text = "".join(json.dumps(r.to_record()) + "\n" for r in journal.records)
    assert [r.event.kind for r in journal.records][-2:] == ["party.switched", "command.redone"]
    state = Campaigns(copy.store).import_jsonl(text, name="Restored")
    assert state.company == "Scouts" and state.undoable == command
    assert state.model_copy(update={"name": "Company"}) == journal.state
    # a redo after another record of its command than a switch was never written
    journal.records[-2] = Recorded(command, command, 0, NoteMade(text="a redo follows"))
    text = "".join(json.dumps(r.to_record()) + "\n" for r in journal.records)
    with pytest.raises(TurnkeeperError, match="redoes command 3, but no undo since"):
        copy.import_jsonl(text, name="Forged")


def test_an_import_still_refuses_time_running_back_within_a_party(
    world: Campaigns, copy: Campaigns
) -> None:
    """Time only runs forward within a party: a wait of the party run, moved back before its
    present, is refused in a world as in a campaign of one party."""
    records = exported(world, "Company")
    last = records[-1]
    assert last["kind"] == "clock.advanced"
    last["data"] = {"to": last["data"]["to"] - 1200, "seconds": -600}
    last["at"] = last["data"]["to"]
    with pytest.raises(TurnkeeperError, match="time runs backwards"):
        copy.import_jsonl(as_text(records))
    assert copy.names() == []


# --- every world a referee could make comes back ------------------------------------------

CLOISTER = parse_site(
    """
[site]
name = "Cloister"

[[levels]]
number = 1

[[levels.areas]]
key = "1"
name = "Garth"
occupied = true
occupants = "2 ghouls"

[[levels.areas]]
key = "2"
name = "Chapter house"
""",
    "cloister.toml",
)

PARTIES = ("Company", "Scouts", "Newcomers")

at_the_table: st.SearchStrategy[Command] = st.one_of(
    st.builds(Wait, st.sampled_from([600, 3600, 6 * 3600, 86400])),
    st.builds(Turn, mode=st.just("cautious"), area=st.sampled_from([None, "1", "2"])),
    st.just(EnterSite(CLOISTER)),
    st.just(Undo()),
    st.just(Redo()),
    st.builds(ClearArea, st.sampled_from([None, "1", "2"])),
    st.just(EndEncounter(fought=True)),
    st.just(LeaveSite()),
    st.just(BringForward()),
)

as_a_party = st.builds(AsParty, st.sampled_from(PARTIES), at_the_table)

world_commands: st.SearchStrategy[Command] = st.one_of(
    as_a_party,  # twice: most commands at a table of several parties are sent as one
    at_the_table,
    as_a_party,
    st.builds(SwitchParty, st.sampled_from(PARTIES)),
    st.builds(JoinParty, st.sampled_from(PARTIES)),
    st.builds(
        SplitParty,
        st.sampled_from(("Scouts", "Riders")),
        st.sampled_from([("Bea",), ("Aldo",), ("Bea", "Cato")]),
        st.sampled_from([{}, {"rations": 2}]),
    ),
    st.just(NewParty("Newcomers", NEWCOMERS)),
)

WORLD_BEGINS: list[Command] = [
    SplitParty("Scouts", ("Bea",), {"rations": 5}),
    NewParty("Newcomers", NEWCOMERS),
]
"""A world from its first commands (the generated ones may split, join and bring in more)."""


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.lists(world_commands, min_size=8, max_size=30))
def test_every_world_comes_back_from_its_jsonl_export(seed: int, sequence: list[Command]) -> None:
    """Whatever a referee does with a world's parties (split, newcomers, switches, commands
    sent as a party, waits, a site's turns and clears, undo and redo across tables, joins),
    its JSONL export imports into a new store as the same world: the same state, the same
    records byte for byte."""
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as stores:

        def opened(file: str) -> Campaigns:
            return Campaigns(stores.enter_context(contextlib.closing(open_store(file))))

        campaigns = opened(f"{folder}/world.db")
        party = parse_party(
            '[[characters]]\nname = "Aldo"\nhp = 9\n[[characters]]\nname = "Bea"\nhp = 6\n'
            '[[characters]]\nname = "Cato"\nhp = 7\n[supplies]\nrations = 20\ntorches = 4'
        )
        campaigns.new("Company", preset("ex"), party, seed=seed)
        for command in [*WORLD_BEGINS, *sequence]:
            with contextlib.suppress(IllegalCommandError):
                campaigns.execute("Company", command)
        world = campaigns.state("Company")
        backup = campaigns.export_jsonl("Company")
        assert opened(f"{folder}/restored.db").import_jsonl(backup) == world
        # read back by a new process (from the snapshots the import kept): the same again
        restored = opened(f"{folder}/restored.db")
        assert restored.state("Company") == world
        assert restored.export_jsonl("Company") == backup
        # and beside itself, under another name: the same world, its parties named as they were
        renamed = restored.import_jsonl(backup, name="Elsewhere")
        assert renamed.company == world.company
        assert renamed.model_copy(update={"name": "Company", "party_name": world.party_name}) == (
            world
        )
        # its session log: each party's records are the ones its fold runs, in its own time
        records = campaigns.journal("Company").records
        sections_run_forward(records)
        assert campaigns.export_markdown("Company") == render_markdown(records)
        players = campaigns.export_markdown("Company", player=True)  # the party run now's
        for party_name, turns in turn_headings(players).items():  # (no undone line)
            assert turns == sorted(turns), party_name


def sections_run_forward(records: list[Recorded]) -> None:
    """Each record's party (as the session log reads it, in one pass) is the party its fold
    leaves run, and each party's live records run forward in game time."""
    journal = Journal(records[:1])
    undone = undone_commands(records)
    last: dict[str, int] = {}
    for running, beside, record in records_run_for(records):
        if record.seq > 1:
            journal.append([record])
        assert running == journal.state.company, record
        assert record.party == journal.state.record_party, record  # as its JSONL names it
        if record.command in undone or isinstance(record.event, UNDO_EVENTS):
            continue
        for party in (running,) if beside is None else (running, beside):
            assert record.at >= last.get(party, 0), (party, record)
            last[party] = record.at


# --- a world's session log: a section per party, each in its own game time ---------------


def turn_headings(log: str) -> dict[str, list[tuple[int, str]]]:
    """Each party's section of a session log (one party: the whole log, under ""), as the
    (day, turn) of each turn heading in the order printed."""
    sections: dict[str, list[tuple[int, str]]] = {}
    party, day = "", 0
    for line in log.splitlines():
        if line.startswith("## Party: "):
            party = line.removeprefix("## Party: ")
        elif line.lstrip("#").startswith(" Day "):
            day = int(line.lstrip("#").split()[1])
        elif line.lstrip("#").startswith(" Turn of "):
            sections.setdefault(party, []).append((day, line.split()[-1]))
    return sections


def test_the_readmes_world_logs_a_section_per_party_in_its_own_time(
    shell: Shell, tmp_path: Path
) -> None:
    """The README's world, printed for a session's notes: each party's lines under its name,
    its turn headings running forward (the journal holds them in command order: 09:20,
    09:00, 11:10, 09:20 of three parties' presents)."""
    db = str(tmp_path / "world.db")
    play_readme_world(shell, db)
    said = shell("export", "--format", "markdown", "--db", db)
    assert said.code == 0, said.err
    log = said.out
    assert log.startswith("# marches\n\n## Party: marches\n\n### Day 1 (1-01-01)\n")
    sections = turn_headings(log)
    assert list(sections) == ["marches", "Oracle Ride", "Newcomers"]
    for party, turns in sections.items():
        assert turns == sorted(turns), party
    oracle = log.index("## Party: Oracle Ride")
    newcomers = log.index("## Party: Newcomers")
    # the newcomers' delve is theirs, Bea's is hers, the ride the riders'
    assert "drove the ghouls from" in log[newcomers:]
    assert "drove the ghouls from" not in log[:newcomers]
    assert "countdown the dragon wakes ticks (day ends): 5 left" in log[oracle:newcomers]
    assert "Area 1 has been cleared" in log[:oracle]
    assert "Aldo leaves marches as Oracle Ride" in log[oracle:newcomers]
    # the players' copy is their own party's (the party run now), in its own time
    for party in ("marches", "Newcomers"):
        if party != "marches":  # (run now)
            assert shell("party", "switch", party, "--db", db).code == 0
        said = shell("export", "--format", "markdown", "--player", "--db", db)
        assert said.code == 0, said.err
        turns = turn_headings(said.out)[""]
        assert turns == sorted(turns), party
        assert ("drove the ghouls from" in said.out) is (party == "Newcomers")
        assert ("Area 1 has been cleared" in said.out) is (party == "marches")


def test_a_campaign_of_one_party_logs_as_it_did(copy: Campaigns) -> None:
    """One party, no section: the log a campaign of one party always had."""
    copy.new("Keep", preset("ex"), NEWCOMERS, seed=5)
    copy.execute("Keep", Wait(3600))
    assert copy.export_markdown("Keep") == (
        "# Keep\n\n## Day 1 (1-01-01)\n\n### Turn of 08:00\n\n"
        "- 08:00 campaign Keep starts under ex: Eve\n\n### Turn of 09:00\n\n- 09:00 1h pass\n"
    )
