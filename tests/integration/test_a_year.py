"""A year of a small world (issue 43, "done when"): two parties, three factions, one domain.

The company and the Scouts, split from one party, live twelve months of a world that follows
the real calendar. Months pass by play (waits, by either party), by `party forward` and by a
catch-up over 40 actual days; each month turn runs exactly once, whichever party moves the
world past it, and settles Aldo's domain once. The Red Hand seizes hex 0102 at the month
turn of month 3, and the Scouts, still in month 2, are refused it until brought forward;
each party's players hear only the rumours revealed to them; the calendar of month 3 shows
every party's days. docs/months.md walks the same year on the command line.
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from pathlib import Path

from tests.integration.months_world import (
    DAY,
    FACTIONS,
    SEIZED,
    VALE,
    boundary,
    bring_forward,
    month_turns,
    new_world,
    real,
    rumours,
    scouts_refused_the_seized_hex,
    wait_to,
)

from turnkeeper.campaign.commands import AsParty
from turnkeeper.procedures.domains import DomainSettled, GrantDomain
from turnkeeper.procedures.factions import FactionActed, RevealDeed
from turnkeeper.procedures.parties import CatchUp, ClearHex
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.service import Campaigns
from turnkeeper.service.calendar import calendar_of
from turnkeeper.world.hexes import Hex

#: The month's two factions and a third that keeps to itself.
THREE_FACTIONS = (
    FACTIONS
    + """
[[factions]]
name = "Green Men"
goal = "wake the old wood"
segments = 6
"""
)

#: Typed dice of a month turn: each faction's 2d6 in the file's order, then the domain's
#: mood (2d6) and income (2d6).
MONTH_2_DICE = [1, 1, 3, 4, 3, 3, 4, 3, 5, 2]  # Red Hand 3 trouble; Court 7; Green Men 6
MONTH_3_DICE = [4, 4, 2, 2, 3, 3, 4, 3, 5, 2]  # Red Hand 4+4+1 = 9: expand, to 0102


def across(campaigns: Campaigns, month: int, dice: list[int], party: str | None = None) -> None:
    """Play up to month ``month``'s boundary, then across it with ``dice`` for its turn."""
    wait_to(campaigns, boundary(month) - 3600, party=party)
    wait_to(campaigns, boundary(month) + 3600, party=party, dice=dice)


def test_a_year_of_a_small_world(tmp_path: Path) -> None:
    # a year's food and water for each party
    world = new_world(tmp_path, real(), THREE_FACTIONS, rations=900, scouts=450)
    world.execute("World", LoadMap(VALE, Hex.from_label("0101")))
    world.execute("World", GrantDomain("Aldo", hex="0302", name="Ford", coffers=10))

    # months 2 and 3 by play: the company's waits move the world across both boundaries
    across(world, 2, MONTH_2_DICE)
    across(world, 3, MONTH_3_DICE)
    records = world.journal("World").records
    seized = [r.event for r in records if isinstance(r.event, FactionActed) and r.event.hex]
    assert [(s.faction, s.hex, s.act) for s in seized] == [("Red Hand", "0102", "expand")]
    assert world.state("World").day == 61

    # the Scouts, on day 40 in month 2, are refused the hex and change nothing
    scouts_refused_the_seized_hex(world)

    # rumours: the company hears of the seizure; the Scouts of the Court's first month
    world.execute("World", RevealDeed("Red Hand"))
    world.execute("World", AsParty("Scouts", RevealDeed("Grey Court", text="the Court grows bold")))

    # `party forward` brings the Scouts through month 3's boundary: it runs no more
    bring_forward(world, "Scouts")
    assert month_turns(world) == ["1-02", "1-03"]
    world.execute("World", AsParty("Scouts", ClearHex("0102")))  # now theirs to act on

    # the calendar of month 3 shows every party's days
    view = calendar_of(world, "World", "3")
    assert (view.month, view.parties, len(view.days)) == ("1-03", ["World", "Scouts"], 30)
    assert [(p.party, p.where) for p in view.days[0].parties] == [
        ("World", ["at hex 0101 of Vale"]),
        ("Scouts", ["at hex 0101 of Vale"]),
    ]
    assert view.days[0].events[:2] == ["the month turn of 1-03: the factions act", SEIZED]

    # month 4 by play of the Scouts; the company brought forward through it
    wait_to(world, boundary(4) + 3600, party="Scouts")
    bring_forward(world, "World")
    assert month_turns(world) == ["1-02", "1-03", "1-04"]
    view = calendar_of(world, "World", "3")
    assert all(p.lived for d in view.days for p in d.parties)

    # between sessions: a catch-up over 40 actual days moves both parties into month 5
    start = world.state("World").now
    world.execute("World", CatchUp(date(2026, 10, 20)))  # marks the date, moves nothing
    world.execute("World", CatchUp(date(2026, 11, 29)))
    state = world.state("World")
    assert state.now - start == state.as_party("Scouts").now - start == 40 * DAY
    assert month_turns(world) == ["1-02", "1-03", "1-04", "1-05"]

    # the rest of the year by play, the parties taking turns to move the world
    for month in range(6, 14):
        mover, behind = ("World", "Scouts") if month % 2 else ("Scouts", "World")
        wait_to(world, boundary(month) + 3600, party=None if mover == "World" else mover)
        bring_forward(world, behind)

    # each month turn ran exactly once: twelve of them, 1-02 to 2-01
    turned = Counter(month_turns(world))
    months = [f"1-{m:02}" for m in range(2, 13)] + ["2-01"]
    assert list(turned) == months and set(turned.values()) == {1}
    # the domain was settled once at each of them
    settled = [r.event.month for r in world.journal("World").records
               if isinstance(r.event, DomainSettled)]  # fmt: skip
    assert settled == months
    # the players of each party hear only the rumours revealed to them
    assert rumours(world, "World") == [f"a rumour: {SEIZED}"]
    assert rumours(world, "Scouts") == ["a rumour: the Court grows bold"]
