"""Three groups over 60 days (issue 37, "Done when"): the players of each party see their own
party's lines, in order, and nothing else, however the world's parties split, ride off,
arrive and cross one another's path in the wrong order.

Played as a referee would, through the CLI's front door and the players' links (ex preset,
seed 63, at which the rest's wandering check brings the drowned monks):

- Day 1. The Company (Aldo, Bea, Cato, Dora) take rooms in Brindle. The referee notes,
  behind the screen, that the innkeeper is in the cult's pay.
- Day 3. Aldo and Cato split off as the Oracle Ride and ride a month off the map, to day 33,
  where the oracle speaks (and lies, the referee notes).
- Days 3 to 31. Bea and Dora train with the watch.
- Day 33. The Newcomers (Eve, Finn) enter the world at its present, delve the Sunken Abbey,
  slay two ghouls in area 1 and clear it, rest (the wandering check, rolled behind the
  screen, brings drowned monks; they hide) and leave.
- The Company, still on day 31, is refused the abbey's area 1 the Newcomers cleared on day
  33; brought forward with `party forward`, it goes in, finds the area cleared, and leaves.
- Every day out of a site, each party has the day's meal at 18:00 while its food lasts
  (issue 39: one rule for days); the Ride took rations and no water, and goes hungry.
- Days 33 to 60. The Ride rides back to Brindle (day 60); the Company stays in Brindle to
  day 47, where Dora buys a mule; the Newcomers sell the ghouls' rings on day 40.
- At the end the referee's timeline shows each party at its own present, and the world's
  journal is exported to be imported back.

Each party's players' view (CLI `log --player` after `party switch`, the table's players'
link and a character's own link over HTTP) is checked line by line against the hand-written
list of what that party's players may see. Lines the engine gets wrong are not enshrined:
they are named below, and their assertion is an expected failure with its reason (or, for
one questionable line, a comment).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.web.app import create_app
from turnkeeper.web.tokens import Role, issue_tokens

from .conftest import Said, Shell

pytestmark = pytest.mark.slow

EXAMPLES = Path(__file__).parents[2] / "examples"
SITE = str(EXAMPLES / "site.toml")
RIDE = "Oracle Ride"
COMPANY_FILE = """
leader = "Aldo"
[[characters]]
name = "Aldo"
class = "fighter"
level = 2
hp = 12
ac = 15
damage = "1d8"
[[characters]]
name = "Bea"
class = "thief"
hp = 5
ac = 12
[[characters]]
name = "Cato"
class = "cleric"
hp = 7
ac = 14
[[characters]]
name = "Dora"
class = "fighter"
hp = 9
ac = 15
damage = "1d8"
[supplies]
rations = 20
water = 20
torches = 8
"""


@dataclass(frozen=True)
class Referee:
    """The referee at the table: command lines through the CLI's front door, on one store."""

    shell: Shell
    db: str

    def says(self, *line: str) -> Said:
        """A command line as typed, which must be taken (exit 0)."""
        said = self.shell(*line, "--db", self.db)
        assert said.code == 0, (line, said.err)
        return said

    def runs_as(self, party: str, *line: str) -> Said:
        """One command as ``party`` (``--as``): the party run stays as it was."""
        return self.says(*line, "--as", party)

    def notes(self, text: str, party: str | None = None, *, referee: bool = False) -> None:
        """A note for the table (or the referee alone), as ``party`` when one is named."""
        line = ("note", text, *(["--referee"] if referee else []))
        if party is None:
            self.says(*line)
        else:
            self.runs_as(party, *line)


@dataclass(frozen=True)
class World:
    """The 60 days' store, and what the refused command did."""

    db: str
    refused: Said  # the Company, on day 31, entering the area the Newcomers cleared on day 33
    refusal_kept_the_store: bool


def play_sixty_days(referee: Referee) -> World:
    """The story of the module's docstring, command by command."""
    party = Path(referee.db).with_name("company.toml")
    party.write_text(COMPANY_FILE, encoding="utf-8")
    referee.says("new", "Company", "--ruleset", "ex", "--party", str(party), "--seed", "63")

    # day 1: the Company in Brindle
    referee.notes("Company: the four take rooms at the Crooked Lantern")
    referee.notes("REF: the innkeeper is in the cult's pay", referee=True)
    referee.says("wait", "2d")

    # day 3: Aldo and Cato split off and ride a month off the map
    referee.says("party", "split", RIDE, "Aldo", "Cato", "--take", "rations=6")
    referee.notes("Ride: Aldo and Cato ride north for the oracle", RIDE)
    referee.runs_as(RIDE, "wait", "30d")
    referee.notes("Ride: the oracle speaks of a drowned abbot", RIDE)
    referee.notes("REF: the oracle lied about the abbot", RIDE, referee=True)

    # days 3 to 31: Bea and Dora train
    referee.says("wait", "28d")
    referee.notes("Company: Bea and Dora train with the watch")

    # day 33: the Newcomers arrive at the world's present and fight in the abbey's area 1
    referee.says("party", "new", "Newcomers", str(EXAMPLES / "newcomers.toml"))
    referee.notes("Newcomers: Eve and Finn arrive in Brindle", "Newcomers")
    referee.runs_as("Newcomers", "site", "enter", SITE)
    referee.runs_as("Newcomers", "turn", "--area", "1")
    referee.runs_as("Newcomers", "combat", "start", "--monster", "Ghoul:hd=2,hp=4,ac=12,count=2")
    referee.runs_as("Newcomers", "combat", "round", "--dice", "6,1")
    referee.runs_as("Newcomers", "combat", "attack", "Finn", "Ghoul 1", "--dice", "17,5")
    referee.runs_as("Newcomers", "combat", "attack", "Eve", "Ghoul 2", "--dice", "18,6")
    referee.runs_as("Newcomers", "site", "clear", "1", "--what", "slew the ghouls in")
    referee.runs_as("Newcomers", "rest")  # the wandering check behind the screen: drowned monks
    referee.notes("REF: the leech in the well woke at the noise", "Newcomers", referee=True)
    referee.runs_as("Newcomers", "site", "leave")

    # the Company, on day 31, is refused the area cleared on day 33; brought forward, goes in
    kept = referee.shell.store(referee.db)
    refused = referee.shell("site", "enter", SITE, "--area", "1", "--db", referee.db)
    unchanged = referee.shell.store(referee.db) == kept
    referee.says("party", "forward")
    referee.says("site", "enter", SITE)
    referee.says("turn", "--area", "1")
    referee.says("turn", "--area", "3")
    referee.notes("Company: Bea finds old bones by the portcullis")
    referee.says("site", "leave")

    # days 33 to 60: the Ride rides back; the Company and the Newcomers stay in Brindle
    referee.runs_as(RIDE, "wait", "27d")
    referee.notes("Ride: back in Brindle with the oracle's word", RIDE)
    referee.says("wait", "14d")
    referee.notes("Company: Dora buys a mule")
    referee.runs_as("Newcomers", "wait", "7d")
    referee.notes("Newcomers: Finn sells the ghouls' rings", "Newcomers")
    return World(referee.db, refused, unchanged)


@pytest.fixture(scope="module")
def sixty_days(shell: Shell, tmp_path_factory: pytest.TempPathFactory) -> World:
    """The 60 days, played once for the module."""
    db = str(tmp_path_factory.mktemp("sixty") / "world.db")
    return play_sixty_days(Referee(shell, db))


@pytest.fixture
def world(sixty_days: World, tmp_path: Path) -> World:
    """A copy of the 60 days' store of its own: a test may switch parties in it."""
    for made in Path(sixty_days.db).parent.glob("world.db*"):
        shutil.copy(made, tmp_path / made.name)
    return World(str(tmp_path / "world.db"), sixty_days.refused, sixty_days.refusal_kept_the_store)


# --- what the players see ------------------------------------------------------------------


def told(records: Sequence[dict[str, Any]]) -> list[str]:
    """A players' view as lines: the game time, the line, and the dice shown, if any."""
    return [
        f"{r['date']}  {r['text']}" + (f"  {'; '.join(r['rolls'])}" if r["rolls"] else "")
        for r in records
    ]


def runs(referee: Referee, party: str) -> None:
    """The referee runs ``party`` now (`party switch`, unless it is the party run already)."""
    if json.loads(referee.says("status", "--json").out)["party_name"] != party:
        referee.says("party", "switch", party)


def players_of(referee: Referee, party: str) -> dict[str, list[str]]:
    """What the players of ``party`` read, through every door: the CLI's `log --player` (as
    JSON and as printed) once the referee runs the party, the table's players' link, and the
    own link of one of its characters."""
    runs(referee, party)
    seen = {
        "log --player --json": told(json.loads(referee.says("log", "--player", "--json").out)),
        "log --player": referee.says("log", "--player").out.splitlines(),
    }
    character = {"Company": "Bea", RIDE: "Aldo", "Newcomers": "Eve"}[party]
    campaigns = Campaigns(open_store(referee.db))
    tokens = issue_tokens(campaigns.store, "Company", rotate=True)
    with TestClient(create_app(campaigns)) as client:
        links = {
            "the table's link": tokens[Role.PLAYER],
            character: hand_link(client, tokens, character),
        }
        for door, token in links.items():
            log = client.get(f"/api/campaigns/Company/log?token={token}&limit=5000")
            assert log.status_code == 200, log.text
            seen[door] = told(log.json()["records"])
    return seen


def hand_link(client: TestClient, tokens: dict[Role, str], character: str) -> str:
    """The token of ``character``'s own link, made by the referee on the dashboard."""
    made = client.post(
        f"/campaigns/Company/hand-link?token={tokens[Role.REFEREE]}",
        content=f"character={character}",
        headers={"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"},
    )
    link = re.search(r'value="[^"]*\?token=([^"]+)"', made.text)
    assert link is not None, made.text
    return link[1]


def printed(lines: Sequence[str]) -> str:
    """What `log --player` prints of a view, its words alone: no game time, no clock's lines
    ("2d pass"), and the console's wrapping undone."""
    kept = [line.split("  ", 1)[1] for line in lines if not CLOCK.fullmatch(line.split("  ")[1])]
    return " ".join(" ".join(kept).split())


CLOCK = re.compile(r"(\d+[wdhms])+ pass")


# --- what each party's players may see, line by line ---------------------------------------
#
# Each line: the game time, the line as the players read it, and the dice they are shown.
# Never in any of them: another party's line, a note for the referee ("REF: ..."), a wandering
# check or an encounter's rolls (behind the screen), the time record turning to a party.


def meals(
    first: int, last: int, eaters: tuple[str, ...], larder: dict[str, int], gap: str | None
) -> list[str]:
    """The day's meals of campaign days ``first`` to ``last``, as the players read them, by
    the hand count of issue 39's one rule for days: at 18:00 (days.meal_hour) each eater has a
    ration and a water while both last, those the food does not reach go hungry (a
    shortfall is told for each item short; who ate is the record's data, not a line);
    ``larder`` (rations, water) is spent in place.
    ``gap``: the clock's line before the first meal ("10h pass" from 08:00), None if none."""
    lines: list[str] = []
    for day in range(first, last + 1):
        when = f"1-{(day - 1) // 30 + 1:02}-{(day - 1) % 30 + 1:02} 18:00"
        clock = gap if day == first else "1d"
        if clock is not None:
            lines.append(f"{when}  {clock} pass")
        fed = min(len(eaters), larder["rations"], larder["water"])
        for item in ("rations", "water"):
            if fed:
                name = "ration" if (item, fed) == ("rations", 1) else item
                lines.append(f"{when}  {fed} {name} spent (the day's meal)")
            if larder[item] < len(eaters):
                lines.append(
                    f"{when}  short of {item} for the day's meal: needed {len(eaters)}, "
                    f"had {larder[item]}"
                )
            larder[item] -= fed
    return lines


FOUR = ("Aldo", "Bea", "Cato", "Dora")
TWO = ("Bea", "Dora")
RIDERS = ("Aldo", "Cato")
COMPANY_LARDER = {"rations": 20, "water": 20}  # the Company's file: 20 and 20
#: the four's two days (8 and 8); the Ride takes 6 rations and no water
COMPANY_AFTER_TWO_DAYS = {"rations": 20 - 8 - 6, "water": 20 - 8}
RIDE_LARDER = {"rations": 6, "water": 0}
NEWCOMERS_LARDER = {"rations": 6, "water": 6}  # examples/newcomers.toml

#: Bea and Dora's players: the four's first days, Aldo and Cato leaving, the month's
#: training, the days brought forward, the abbey found cleared, a mule bought. The day's
#: meal at 18:00 every day (issue 39): 6 rations feed the two three days, then they go
#: hungry (the hand count is :func:`meals`'s).
COMPANY_SEES = (
    "1-01-01 08:00  campaign Company starts under ex: Aldo, Bea, Cato, Dora",
    "1-01-01 08:00  Company: the four take rooms at the Crooked Lantern",
    *meals(1, 2, FOUR, dict(COMPANY_LARDER), "10h"),
    "1-01-03 08:00  14h pass",
    "1-01-03 08:00  Aldo, Cato leave Company as Oracle Ride, taking 6 rations",
    *meals(3, 30, TWO, company := dict(COMPANY_AFTER_TWO_DAYS), "10h"),
    "1-02-01 08:00  14h pass",
    "1-02-01 08:00  Company: Bea and Dora train with the watch",
    # `party forward` from day 31 08:00 to the world's present, day 33 08:20: two days and
    # twenty minutes, two meals and two nights (a part of a day is told as hours)
    "1-02-01 08:00  Company spends 2 days and 20m in town",
    *meals(31, 32, TWO, company, "10h"),
    "1-02-03 08:20  14h20m pass",
    "1-02-03 08:20  The party enters The Sunken Abbey (level 1, The Cloister). Mossy arcades "
    "around a flooded garth; doors to the chapter house and cells.",
    "1-02-03 08:20  turn 1: cautious, 120 ft, no map",
    # what they find, never who did it: the Newcomers' fight is theirs alone
    "1-02-03 08:20  Area 1 has been cleared: no one dwells here now.",
    "1-02-03 08:30  10m pass",
    "1-02-03 08:30  turn 2: cautious, 120 ft, no map",
    # no die was rolled; why is the table's to hear (EX-ENC-3), as its event declares
    "1-02-03 08:30  wandering check skipped: the party keeps off the lanes of traffic (EX-ENC-3)",
    "1-02-03 08:40  10m pass",
    "1-02-03 08:40  Company: Bea finds old bones by the portcullis",
    "1-02-03 08:40  the party leaves The Sunken Abbey after 2 turns",
    *meals(33, 46, TWO, company, "9h20m"),
    "1-02-17 08:40  14h40m pass",
    "1-02-17 08:40  Company: Dora buys a mule",
)

#: Aldo and Cato's players: the days they lived with the Company up to their leaving, then
#: the ride there and back, a meal a day (they took rations and no water: they go hungry).
RIDE_SEES = (
    "1-01-01 08:00  campaign Company starts under ex: Aldo, Bea, Cato, Dora",
    "1-01-01 08:00  Company: the four take rooms at the Crooked Lantern",
    *meals(1, 2, FOUR, dict(COMPANY_LARDER), "10h"),
    "1-01-03 08:00  14h pass",
    "1-01-03 08:00  Aldo, Cato leave Company as Oracle Ride, taking 6 rations",
    "1-01-03 08:00  Ride: Aldo and Cato ride north for the oracle",
    *meals(3, 32, RIDERS, ride := dict(RIDE_LARDER), "10h"),
    "1-02-03 08:00  14h pass",
    "1-02-03 08:00  Ride: the oracle speaks of a drowned abbot",
    *meals(33, 59, RIDERS, ride, "10h"),
    "1-02-30 08:00  14h pass",
    "1-02-30 08:00  Ride: back in Brindle with the oracle's word",
)

#: Eve and Finn's players: from their arrival on day 33, their delve, the fight, the rest the
#: drowned monks broke (the wandering check and its dice unseen), the week in town.
NEWCOMERS_SEE = (
    "1-02-03 08:00  Newcomers: Eve and Finn arrive in Brindle",
    "1-02-03 08:00  The party enters The Sunken Abbey (level 1, The Cloister). Mossy arcades "
    "around a flooded garth; doors to the chapter house and cells.",
    "1-02-03 08:00  turn 1: cautious, 120 ft, no map",
    "1-02-03 08:10  10m pass",
    "1-02-03 08:10  combat: Eve, Finn against Ghoul 1, Ghoul 2",
    "1-02-03 08:10  surprise: nobody is surprised (EX-SUR-1: cautious: a cautious party cannot "
    "be surprised)",
    "1-02-03 08:10  round 1",
    "1-02-03 08:10  10s pass",
    "1-02-03 08:10  initiative: party (party 6, opposition 1)  d6 (6) = 6 (typed in); "
    "d6 (1) = 1 (typed in)",
    # the hits, never the ghouls' armour class nor their hit points left
    "1-02-03 08:10  Finn attacks Ghoul 1: hits",
    "1-02-03 08:10  Ghoul 1 is struck down, dead (Finn)",
    "1-02-03 08:10  Eve attacks Ghoul 2: hits",
    "1-02-03 08:10  Ghoul 2 is struck down, dead (Eve)",
    "1-02-03 08:10  the round is resolved",
    "1-02-03 08:10  combat over: party wins; a turn of rest is due",
    "1-02-03 08:10  rest is due (a fight)",
    "1-02-03 08:10  area 1 of The Sunken Abbey (level 1): slew the ghouls in",
    "1-02-03 08:10  the party rests (rest)",
    "1-02-03 08:20  9m50s pass",
    "1-02-03 08:20  turn 2 passes without moving",
    # what they hear and do, never the check's die, the table's roll nor the monks' number
    "1-02-03 08:20  Something approaches (A slow wet shuffle.); the party hides.",
    "1-02-03 08:20  the wait is broken at 08:20 by an encounter: 10s not waited",
    "1-02-03 08:20  the rest is interrupted by an encounter: the party has not rested",
    "1-02-03 08:20  the party leaves The Sunken Abbey after 2 turns",
    # the rest the fight made due is owed out of the site too (EX-REST-2): the hours to the
    # evening meal are it
    "1-02-03 08:20  the party rests (days out of a site)",
    "1-02-03 18:00  9h40m pass",
    "1-02-03 18:00  the party has rested",
    *meals(33, 39, ("Eve", "Finn"), dict(NEWCOMERS_LARDER), None),
    "1-02-10 08:20  14h20m pass",
    "1-02-10 08:20  Newcomers: Finn sells the ghouls' rings",
)

SHOWN_NOW = {"Company": COMPANY_SEES, RIDE: RIDE_SEES, "Newcomers": NEWCOMERS_SEE}


@pytest.mark.parametrize("party", ["Company", RIDE, "Newcomers"])
def test_each_partys_players_read_their_own_lines_and_nothing_else(
    shell: Shell, world: World, party: str
) -> None:
    seen = players_of(Referee(shell, world.db), party)
    expected = list(SHOWN_NOW[party])
    for door, lines in seen.items():
        if door == "log --player":
            assert " ".join(lines).split() == printed(expected).split(), door
        else:
            assert lines == expected, door


NOTES = {
    "Company": "Company: ",
    RIDE: "Ride: ",
    "Newcomers": "Newcomers: ",
    "the referee": "REF: ",
}


@pytest.mark.parametrize(
    "party",
    ["Company", RIDE, "Newcomers"],
)
def test_each_partys_players_copy_holds_its_own_notes_alone(
    shell: Shell, world: World, party: str
) -> None:
    referee = Referee(shell, world.db)
    runs(referee, party)
    copy = referee.says("export", "--format", "markdown", "--player").out
    notes = [line for line in SHOWN_NOW[party] if NOTES[party] in line]
    assert notes and all(note.split("  ", 1)[1] in copy for note in notes)
    # no other party's note, but those the party lived with it before it split off
    theirs = {
        line.split("  ", 1)[1]
        for seen in SHOWN_NOW.values()
        for line in seen
        if any(mark in line for mark in NOTES.values()) and line not in SHOWN_NOW[party]
    }
    assert theirs and not [note for note in theirs if note in copy]
    assert NOTES["the referee"] not in copy


def test_the_rides_players_read_the_days_they_lived_before_riding_off(
    shell: Shell, world: World
) -> None:
    """A party split off lived the days before with the party it left: its players read
    them, and their own leaving, as its characters' links do."""
    seen = players_of(Referee(shell, world.db), RIDE)
    assert seen["Aldo"] == list(RIDE_SEES)
    assert seen["log --player --json"] == list(RIDE_SEES)


# --- the referee's world --------------------------------------------------------------------


def test_the_party_behind_is_refused_the_area_cleared_later_and_nothing_is_recorded(
    world: World,
) -> None:
    assert world.refused.code == 2
    assert world.refused.err == (
        "error: Company is at day 31; Newcomers slew the ghouls in area 1 of The Sunken Abbey "
        "on day 33: bring Company forward first (`party forward`)\n"
    )
    assert world.refusal_kept_the_store


def test_the_timeline_shows_each_party_at_its_own_present(shell: Shell, world: World) -> None:
    said = Referee(shell, world.db).says("party", "timeline")
    assert said.out.splitlines() == [
        "Company: the world's present is day 60 (1-02-30 08:00)",
        "* Company (Bea, Dora): day 47, 1-02-17 08:40, 13 days behind",
        "    by The Sunken Abbey, in downtime",
        "  Oracle Ride (Aldo, Cato): day 60, 1-02-30 08:00",
        "    in town, in downtime",
        "  Newcomers (Eve, Finn): day 40, 1-02-10 08:20, 20 days behind",
        "    by The Sunken Abbey, in downtime",
        "day 33: Newcomers slew the ghouls in area 1 of The Sunken Abbey",
        "* the party run now (`party switch NAME` runs another)",
    ]


def exported(referee: Referee, folder: Path) -> str:
    """The world's journal exported as JSON Lines into ``folder``; the file's path."""
    out = folder / "company.jsonl"
    referee.says("export", "--out", str(out))
    return str(out)


def test_the_worlds_journal_imports_back_as_it_was(
    shell: Shell, world: World, tmp_path: Path
) -> None:
    referee = Referee(shell, world.db)
    journal = exported(referee, tmp_path)
    copy = Referee(shell, str(tmp_path / "copy.db"))
    said = shell("import", journal, "--db", copy.db)
    assert said.code == 0, said.err
    for line in (("party", "timeline"), ("status", "--json")):
        assert copy.says(*line).out == referee.says(*line).out


def test_the_worlds_journal_imports_under_another_name(
    shell: Shell, world: World, tmp_path: Path
) -> None:
    referee = Referee(shell, world.db)
    journal = exported(referee, tmp_path)
    said = shell("import", journal, "--name", "Company copy", "--db", world.db)
    assert said.code == 0, said.err
    timeline = referee.says("party", "timeline", "-c", "Company copy").out
    assert "Oracle Ride (Aldo, Cato): day 60, 1-02-30 08:00" in timeline
