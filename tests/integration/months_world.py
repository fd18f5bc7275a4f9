"""The small world of the month's tests (issue 43), written once: the company of Aldo and Bea
on the ex calendar, the Scouts split from it with Bea, two factions of the Vale and the Vale's
map; and the helpers that play its months and read what a party's players see."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from turnkeeper.campaign import Recorded, Wait, parse_party
from turnkeeper.campaign.commands import AsParty
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.factions import LoadFactions, MonthTurned, RumourHeard
from turnkeeper.procedures.parties import BringForward, ClearHex, SplitParty
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.rules import Ruleset, preset
from turnkeeper.rules.schema import SessionRules
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.views.journal import perceived_by
from turnkeeper.world.factions import parse_factions
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile

DAY = 24 * 3600


def boundary(month: int) -> int:
    """The game time at which month ``month`` of year 1 begins (13: month 1 of year 2): the ex
    calendar starts at 08:00 of day 1, and a month at midnight before its day 1."""
    return (month - 1) * 30 * DAY - 8 * 3600


MONTH_2, MONTH_3, MONTH_4 = boundary(2), boundary(3), boundary(4)


def company(rations: int = 400) -> str:
    """The party file of Aldo and Bea (5 coins), with ``rations`` days' food and water."""
    return f"""
[[characters]]
name = "Aldo"
hp = 8
[[characters]]
name = "Bea"
hp = 6
coins = 5
[supplies]
rations = {rations}
water = {rations}
"""


PARTY = company()

#: Two factions of the Vale, each the other's rival: the Red Hand holds 0304 and covets 0102.
FACTIONS = """
map = "Vale"

[[factions]]
name = "Red Hand"
goal = "rule the ford"
segments = 4
resources = { force = 2, wealth = -1 }
hexes = ["0304"]
covets = ["0102"]
rivals = ["Grey Court"]

[[factions]]
name = "Grey Court"
goal = "crown a king"
segments = 3
rivals = ["Red Hand"]
"""

VALE = MapFile(name="Vale", width=6, height=4, terrain=["pppppp"] * 4)
SEIZED = "Red Hand seizes hex 0102 of Vale"


def real(game_days_per_day: int = 1, max_wait_days: int | None = None) -> Ruleset:
    """The ex preset, following the real calendar between sessions."""
    ex = preset("ex")
    sessions = SessionRules(real_calendar=True, game_days_per_day=game_days_per_day)
    time = ex.time.model_copy(update={"max_wait_days": max_wait_days})
    return ex.model_copy(update={"between_sessions": sessions, "time": time})


def new_world(
    tmp_path: Path,
    ruleset: Ruleset | None = None,
    factions: str = FACTIONS,
    rations: int = 400,
    scouts: int = 100,
) -> Campaigns:
    """The campaign World under ``ruleset`` (ex), its ``factions`` laid out, and the Scouts
    split from the company with Bea, ``scouts`` of its ``rations`` and as much water."""
    campaigns = Campaigns(open_store(str(tmp_path / "t.db")))
    campaigns.new("World", ruleset or preset("ex"), parse_party(company(rations)), seed=5)
    campaigns.execute("World", LoadFactions(parse_factions(factions)))
    campaigns.execute("World", SplitParty("Scouts", ("Bea",), {"rations": scouts, "water": scouts}))
    return campaigns


def wait_to(
    campaigns: Campaigns, at: int, party: str | None = None, dice: list[int] | None = None
) -> None:
    """The party run (or ``party``) waits until game time ``at``, rolling ``dice`` if given."""
    state = campaigns.state("World")
    now = (state if party is None else state.as_party(party)).now
    wait = Wait(at - now)
    campaigns.execute("World", wait if party is None else AsParty(party, wait), dice)


def bring_forward(campaigns: Campaigns, party: str) -> None:
    """`party forward` as many times as it takes to the world's present."""
    while campaigns.state("World").as_party(party).now < campaigns.state("World").present:
        campaigns.execute("World", AsParty(party, BringForward()))


def scouts_refused_the_seized_hex(campaigns: Campaigns) -> None:
    """The Scouts, on day 40 (month 2) on the Vale's map, are refused hex 0102, which the Red
    Hand seized at the month turn of month 3 (day 61), in one line that changes nothing."""
    wait_to(campaigns, 39 * DAY, party="Scouts")
    campaigns.execute("World", AsParty("Scouts", LoadMap(VALE, Hex.from_label("0101"))))
    version = campaigns.state("World").version
    with pytest.raises(IllegalCommandError) as refused:
        campaigns.execute("World", AsParty("Scouts", ClearHex("0102")))
    assert str(refused.value) == (
        "Scouts is at day 40; Red Hand seized hex 0102 of Vale on day 61: "
        "bring Scouts forward first (`party forward`)"
    )
    assert campaigns.state("World").version == version


def month_turns(campaigns: Campaigns) -> list[str]:
    """The months whose turn has run, in the journal's order."""
    records = campaigns.journal("World").records
    return [r.event.month for r in records if isinstance(r.event, MonthTurned)]


def heard_by(campaigns: Campaigns, party: str) -> Callable[[Recorded], bool]:
    """What ``party``'s players may read of World's journal (a ``keep`` for its reads)."""
    undone = campaigns.undone("World")
    return perceived_by(campaigns.party_lines("World", party, undone=undone), undone)


def party_log(campaigns: Campaigns, party: str) -> list[Recorded]:
    """World's records as ``party``'s players read them."""
    records, _ = campaigns.page("World", 0, keep=heard_by(campaigns, party))
    return records


def rumours(campaigns: Campaigns, party: str) -> list[str]:
    """The rumours ``party``'s players have heard."""
    return [
        r.event.describe() for r in party_log(campaigns, party) if isinstance(r.event, RumourHeard)
    ]
