"""The work a command costs the live pages (issue 41).

A display's journal lines are read once, then only what each command added.

:class:`turnkeeper.web.lines.LatestLines` keeps each seat's lines from its last drawing: the
next drawing reads the records after them in one query, where reading afresh costs the
undos' index, the parties' switches and splits and forty to eighty records. The lines it
gives are those read afresh (:func:`~turnkeeper.web.lines.journal_of`) at every version, for
the referee, the table and a character's link, through notes the players do not read, an
undo and a redo, a party split off and switched to, and a campaign deleted and made again.
And a drawing reads its templates from memory, not asking the disk whether they changed;
the answer to the referee's own form carries only the parts that changed.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import event

from turnkeeper.campaign import (
    CampaignState,
    Command,
    Note,
    Recorded,
    Redo,
    Undo,
    Visibility,
    Wait,
    parse_party,
)
from turnkeeper.clock.calendar import calendar as dated
from turnkeeper.procedures.parties import SplitParty, SwitchParty
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema import TimeScales
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore
from turnkeeper.views.journal import player_record as player_shaped
from turnkeeper.web import render
from turnkeeper.web.core import display_of
from turnkeeper.web.lines import LatestLines, journal_of
from turnkeeper.web.tokens import Hand, Role, Seat

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

PARTY = (
    '[[characters]]\nname = "Aldo"\nhp = 8\n[[characters]]\nname = "Bea"\nhp = 6\n'
    "[supplies]\nrations = 20"
)
SEATS: tuple[Seat, ...] = (Role.REFEREE, Role.PLAYER, Hand("Aldo"), Hand("Bea"))


@pytest.fixture
def keep(tmp_path: Path) -> Iterator[tuple[Campaigns, Counter[str]]]:
    store = SqlStore(f"sqlite:///{tmp_path / 'lines.db'}")
    campaigns = Campaigns(store)
    campaigns.new("Keep", preset("tp"), parse_party(PARTY), seed=3)
    statements: Counter[str] = Counter()

    def counted(*_: object) -> None:
        statements["all"] += 1

    event.listen(store._engine, "before_cursor_execute", counted)
    try:
        yield campaigns, statements
    finally:
        store.close()


def same_as_afresh(campaigns: Campaigns, lines: LatestLines) -> None:
    state = campaigns.state("Keep")
    for seat in SEATS:
        kept = lines.read(campaigns, "Keep", state, seat)
        assert kept == journal_of(campaigns, "Keep", state, seat, state.version), seat


def test_the_lines_kept_and_moved_on_are_those_read_afresh(
    keep: tuple[Campaigns, Counter[str]],
) -> None:
    campaigns, _ = keep
    lines = LatestLines()
    commands: list[Command] = [
        Note("the table hears this", Visibility.PARTY),
        Note("ZQ the referee alone", Visibility.REFEREE),
        Wait(600),
        Undo(),
        Redo(),
        Undo(),
        Note("after the undo", Visibility.PARTY),
        SplitParty("Ride", ("Aldo",), {"rations": 5}),
        Note("the Keep stays", Visibility.PARTY),
        SwitchParty("Ride"),
        Note("the Ride rides", Visibility.PARTY),
        Wait(3600),
        *[Note(f"line {n}", Visibility.PARTY) for n in range(45)],  # past the forty shown
    ]
    same_as_afresh(campaigns, lines)
    for command in commands:
        campaigns.execute("Keep", command)
        same_as_afresh(campaigns, lines)
    assert lines.added > len(commands)  # most commands moved the kept lines on


def test_a_command_costs_each_seat_one_query_after_the_first_drawing(
    keep: tuple[Campaigns, Counter[str]],
) -> None:
    """Drawn afresh once per seat; then one statement per seat and command (the records it
    added), however long the journal and whatever the players do not read."""
    campaigns, statements = keep
    lines = LatestLines()
    for seat in SEATS:
        lines.read(campaigns, "Keep", campaigns.state("Keep"), seat)
    afresh = lines.reads
    for n in range(6):
        shown = Visibility.PARTY if n % 2 else Visibility.REFEREE
        campaigns.execute("Keep", Note(f"note {n}", shown))
        state = campaigns.state("Keep")
        statements.clear()
        for seat in SEATS:
            lines.read(campaigns, "Keep", state, seat)
        assert statements["all"] == len(SEATS)
    assert lines.reads == afresh


def test_the_records_a_command_appended_here_are_drawn_without_a_query(
    keep: tuple[Campaigns, Counter[str]],
) -> None:
    """Issue 41: the records this server's own command appended are told to the kept lines
    (:meth:`LatestLines.told`), so each seat's next drawing reads no record at all, and its
    lines are those read afresh; one another process wrote (not told) is read as before."""
    campaigns, statements = keep
    lines = LatestLines()
    for seat in SEATS:
        lines.read(campaigns, "Keep", campaigns.state("Keep"), seat)
    for n in range(6):
        shown = Visibility.PARTY if n % 2 else Visibility.REFEREE
        lines.told("Keep", campaigns.execute("Keep", Note(f"note {n}", shown)))
        state = campaigns.state("Keep")
        statements.clear()
        for seat in SEATS:
            lines.read(campaigns, "Keep", state, seat)
        assert statements["all"] == 0
        same_as_afresh(campaigns, lines)
    campaigns.execute("Keep", Note("another process's", Visibility.PARTY))  # not told
    state = campaigns.state("Keep")
    statements.clear()
    for seat in SEATS:
        assert "another process's" in str(lines.read(campaigns, "Keep", state, seat)[0][-1])
    assert statements["all"] == len(SEATS)


def test_a_campaign_made_again_under_its_name_is_read_afresh(
    keep: tuple[Campaigns, Counter[str]],
) -> None:
    campaigns, _ = keep
    lines = LatestLines()
    campaigns.execute("Keep", Note("the first Keep", Visibility.PARTY))
    same_as_afresh(campaigns, lines)
    campaigns.delete("Keep")
    campaigns.new("Keep", preset("tp"), parse_party(PARTY), seed=4)
    campaigns.execute("Keep", Note("the second Keep", Visibility.PARTY))
    campaigns.execute("Keep", Note("and again", Visibility.PARTY))  # past the kept version
    reads = lines.reads
    same_as_afresh(campaigns, lines)
    assert lines.reads == reads + len(SEATS)
    state = campaigns.state("Keep")
    shown = lines.read(campaigns, "Keep", state, Role.REFEREE)[0]
    assert "the first Keep" not in [r.event.describe() for r in shown]


def test_a_drawing_asks_the_file_system_nothing(
    keep: tuple[Campaigns, Counter[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The templates are read once: a drawing does not ask whether each changed on disk."""
    campaigns, _ = keep
    lines = LatestLines()
    state = campaigns.state("Keep")
    display_of(campaigns, lines, "Keep", state, Role.REFEREE)  # each template read once
    display_of(campaigns, lines, "Keep", state, Role.PLAYER)
    asked: list[str] = []
    looked = os.path.getmtime

    def getmtime(path: str) -> float:
        asked.append(path)
        return looked(path)

    monkeypatch.setattr(os.path, "getmtime", getmtime)
    campaigns.execute("Keep", Note("one more line", Visibility.PARTY))
    state = campaigns.state("Keep")
    for seat in SEATS:
        display_of(campaigns, lines, "Keep", state, seat)
    assert asked == []


def test_the_answer_to_the_referees_form_carries_only_what_changed(served: Served) -> None:
    """Issue 41: the answer to a referee's command carries the parts of the display that
    changed since the version its page shows (the form's ``expected_version``), as the page's
    stream would, not the whole display again; a form whose page's version is not drawn here
    (none said, or long gone) gets the whole display."""
    token = served.tokens[Role.REFEREE]
    page = served.client.get(f"/campaigns/Crypt?token={token}")
    seen = int(re.findall(r'data-version="(\d+)"', page.text)[0])
    whole = served.client.get(f"/campaigns/Crypt/display?token={token}").text

    def note(text: str, shown: int | None) -> str:
        form = {
            "verb": "note",
            "text": text,
            **({} if shown is None else {"expected_version": shown}),
        }
        answer = served.client.post(
            f"/campaigns/Crypt/commands?token={token}", data=form, headers={"HX-Request": "true"}
        )
        assert answer.status_code == 200, answer.text
        return str(answer.text)

    answer = note("ZQ the rope frays", seen)
    assert f'<div class="parts" data-base="{seen}" data-version="{seen + 1}"' in answer
    assert 'id="display"' not in answer
    assert 'id="part-journal" hx-swap-oob="true"' in answer and "ZQ the rope frays" in answer
    assert 'id="part-map"' not in answer  # the map did not move
    assert len(answer) < len(whole) / 2  # the journal part is most of it: forty lines
    answer = note("said without a version", None)
    assert 'id="display" hx-swap-oob="innerHTML"' in answer and 'class="parts"' not in answer


def test_a_command_and_a_state_read_cost_a_few_statements_and_no_journal_read(
    served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command path on SQLite, counted: a command over the API is the version looked at
    (other processes may have written), the compare-and-set and the insert of its records;
    a state read is the version alone. Neither reads a record back: the journal in memory
    is caught up, not read again. (The token digests, read at most once a second, aside.)
    The version is read on the driver's connection, past SQLAlchemy's events: counted where
    the store reads it."""
    store = served.campaigns.store
    said: list[str] = []

    def counted(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        if "tokens" not in statement:
            said.append(" ".join(statement.split()))

    event.listen(store._engine, "before_cursor_execute", counted)  # type: ignore[attr-defined]
    read_version = store._version_read  # type: ignore[attr-defined]

    def version_read(campaign: str) -> int | None:
        said.append("SELECT campaigns.version (on the driver)")
        return read_version(campaign)  # type: ignore[no-any-return]

    monkeypatch.setattr(store, "_version_read", version_read)
    bearer = {"Authorization": f"Bearer {served.tokens[Role.REFEREE]}"}
    served.client.get("/api/campaigns/Crypt/state", headers=bearer)  # read once, then kept
    said.clear()
    answer = served.client.post(
        "/api/campaigns/Crypt/commands", json={"verb": "note", "text": "a line"}, headers=bearer
    )
    assert answer.status_code == 200, answer.text
    command = list(said)
    said.clear()
    assert served.client.get("/api/campaigns/Crypt/state", headers=bearer).status_code == 200
    read = list(said)
    assert len(command) <= 5, command
    assert not [s for s in command if s.startswith("SELECT") and "FROM events" in s], command
    assert len(read) == 1 and read[0].startswith("SELECT campaigns.version"), read


def test_a_drawing_draws_only_the_journal_lines_a_command_added(
    keep: tuple[Campaigns, Counter[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A display shows forty lines and a note adds one: the next drawing of each seat draws
    that line alone, the others kept from the drawing before. (An undo, which strikes a line
    through, has the lines read afresh and drawn again.)"""
    campaigns, _ = keep
    for n in range(45):
        campaigns.execute("Keep", Note(f"line {n}", Visibility.PARTY))
    lines = LatestLines()
    for seat in (Role.REFEREE, Role.PLAYER):
        display_of(campaigns, lines, "Keep", campaigns.state("Keep"), seat)
    drawn: Counter[str] = Counter()

    def player_record(record: Recorded, state: CampaignState) -> dict[str, object]:
        drawn["player"] += 1
        return player_shaped(record, state)

    def calendar(at: int, time: TimeScales) -> str:
        drawn["referee"] += 1
        return dated(at, time)

    monkeypatch.setattr("turnkeeper.web.render.player_record", player_record)
    monkeypatch.setattr("turnkeeper.web.render.calendar", calendar)
    campaigns.execute("Keep", Note("one more line", Visibility.PARTY))
    state = campaigns.state("Keep")
    referee = display_of(campaigns, lines, "Keep", state, Role.REFEREE)
    player = display_of(campaigns, lines, "Keep", state, Role.PLAYER)
    assert drawn == {"referee": 1, "player": 1}
    assert "one more line" in referee and "one more line" in player
    assert referee.count("<li data-seq=") == player.count("<li data-seq=") == render.JOURNAL_LINES
    campaigns.execute("Keep", Undo())  # the lines read afresh, and drawn again
    referee = display_of(campaigns, lines, "Keep", campaigns.state("Keep"), Role.REFEREE)
    assert referee.count('title="taken back by an undo"') == 1
