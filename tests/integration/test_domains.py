"""Domains (issue 43): TP-TIME-1's "Haven/Domain Turn: 1 month" in a world of two parties.

Bea, with the Scouts, holds hex 0302 of the Vale. The world's month turn settles her domain
once at each month's boundary, whichever party's wait moves the world past it; the
settlement is the referee's, and the Scouts' players hear of their domain when Bea draws from
its coffers at their own present, never before they have lived the month that filled them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from tests.integration.months_world import (
    MONTH_2,
    MONTH_3,
    PARTY,
    VALE,
    party_log,
    wait_to,
)

from turnkeeper.campaign import Visibility, parse_party
from turnkeeper.campaign.commands import AsParty, Damage
from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.procedures.domains import (
    CoffersDrawn,
    DomainSettled,
    DomainUnsettled,
    DrawCoffers,
    DropDomain,
    GrantDomain,
)
from turnkeeper.procedures.haven import CoinsChanged
from turnkeeper.procedures.parties import BringForward, SplitParty
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.world.hexes import Hex

if TYPE_CHECKING:
    from tests.integration.conftest import Tk


@pytest.fixture
def world(tmp_path: Path) -> Campaigns:
    campaigns = Campaigns(open_store(str(tmp_path / "t.db")))
    campaigns.new("World", preset("ex"), parse_party(PARTY), seed=5)
    campaigns.execute("World", LoadMap(VALE, Hex.from_label("0101")))
    campaigns.execute("World", SplitParty("Scouts", ("Bea",), {"rations": 100, "water": 100}))
    campaigns.execute("World", AsParty("Scouts", GrantDomain("Bea", hex="0302", coffers=10)))
    return campaigns


def settlements(campaigns: Campaigns) -> list[DomainSettled]:
    records = campaigns.journal("World").records
    return [r.event for r in records if isinstance(r.event, DomainSettled)]


def party_lines(campaigns: Campaigns, party: str) -> list[str]:
    records = party_log(campaigns, party)
    return [r.event.describe() for r in records if r.event.kind.startswith(("domain.", "coins."))]


def test_tp_time_1_each_month_turn_settles_the_domain_once_whichever_party_passes_it(
    world: Campaigns,
) -> None:
    # the company moves the world into month 2: Bea's domain is settled, by the world
    wait_to(world, MONTH_2 + 3600, dice=[4, 3, 5, 2])  # 7 content; 70 in, 30 paid
    assert [(s.month, s.mood, s.income, s.coffers) for s in settlements(world)] == [
        ("1-02", "content", 70, 50)
    ]
    # the scouts, behind, pass the same boundary in downtime: no second settlement
    world.execute("World", AsParty("Scouts", BringForward()))
    assert len(settlements(world)) == 1
    # the scouts move the world into month 3 themselves: settled, by them
    wait_to(world, MONTH_3 + 3600, party="Scouts", dice=[6, 6, 1, 1])  # 12 loyal; 20 in
    # and the company, brought forward through it, settles it no more
    while world.state("World").now < world.state("World").present:
        world.execute("World", BringForward())
    assert [(s.month, s.mood, s.paid, s.coffers) for s in settlements(world)] == [
        ("1-02", "content", 30, 50),
        ("1-03", "loyal", 30, 40),
    ]
    domain = world.state("World").domains[0]
    assert (domain.coffers, domain.mood, domain.modifier) == (40, "loyal", 1)


def test_tp_time_1_the_holder_draws_only_what_the_party_has_lived(world: Campaigns) -> None:
    wait_to(world, MONTH_2 + 3600, dice=[4, 3, 5, 2])  # coffers 10 + 70 - 30 = 50
    version = world.state("World").version
    with pytest.raises(IllegalCommandError) as refused:
        world.execute("World", AsParty("Scouts", DrawCoffers("vale 0302")))
    assert str(refused.value) == (
        "Scouts is at day 1; the coffers of Vale 0302 were settled on day 31: "
        "bring Scouts forward first (`party forward`)"
    )
    assert world.state("World").version == version  # refused: nothing recorded
    world.execute("World", AsParty("Scouts", BringForward()))
    records = world.execute("World", AsParty("Scouts", DrawCoffers("Vale 0302", 45)))
    drawn = [r.event for r in records if isinstance(r.event, CoffersDrawn | CoinsChanged)]
    assert [e.describe() for e in drawn] == [
        "Bea draws 45 coins from the coffers of Vale 0302: 5 left; its people are content",
        "Bea earns 45 coins (drawn from Vale 0302): 50 left",
    ]
    state = world.state("World").as_party("Scouts")
    assert state.character("Bea").coins == 50
    assert state.domains[0].coffers == 5
    # the settlement is the referee's; the draw is the Scouts' players' only
    assert party_lines(world, "Scouts") == [
        "Bea holds the domain Vale 0302 (hex 0302 of Vale), 10 coins in its coffers",
        drawn[0].describe(),
        drawn[1].describe(),
    ]
    assert party_lines(world, "World") == []


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (GrantDomain("Zed", hex="0203"), "no character called 'Zed' (the world's: Aldo, Bea)"),
        (
            GrantDomain("Bea", hex="0203"),
            'Bea is with Scouts, not World: to be granted a domain, send it --as "Scouts"',
        ),
        (GrantDomain("Aldo", hex="0909"), "hex 0909 is off the map 'Vale' (6 x 4)"),
        (GrantDomain("Aldo", hex="03x2"), "'03x2' is not a hex label such as 0304"),
        (GrantDomain("Aldo", hex="0203", map="Dale"), "no party is on a map called 'Dale'"),
        (GrantDomain("Aldo", site="Barrow"), "the world knows no site called 'Barrow'"),
        (GrantDomain("Aldo"), "a domain is a hex or a site"),
        (GrantDomain("Aldo", hex="0302"), "hex 0302 of Vale is held already: it is Bea's"),
        (
            GrantDomain("Aldo", hex="0203", name="vale 0302"),
            "there is a domain called 'Vale 0302' already",
        ),
        (DrawCoffers("Ford"), "no domain called 'Ford' (the domains: Vale 0302)"),
        (DrawCoffers("Vale 0302"), "Bea is with Scouts, not World: to draw from its coffers"),
        (
            AsParty("Scouts", DrawCoffers("Vale 0302", 11)),
            "the coffers of Vale 0302 hold 10 coins: draw from 0 to 10",
        ),
        (DropDomain("Vale 0302"), "Bea is with Scouts, not World: to give up Vale 0302"),
        (AsParty("Scouts", DropDomain("Vale 0302", reason="sold\x1b[2J")), "--reason 'sold"),
    ],
)
def test_a_refused_domain_command_changes_nothing(
    world: Campaigns, command: object, said: str
) -> None:
    before = world.state("World")
    with pytest.raises(IllegalCommandError, match=f"^{re.escape(said)}"):
        world.execute("World", command)  # type: ignore[arg-type]
    after = world.state("World")
    assert after.version == before.version
    assert after.domains == before.domains


def test_a_party_behind_the_world_s_month_is_granted_nothing_until_brought_forward(
    world: Campaigns,
) -> None:
    wait_to(world, MONTH_2 + 3600, dice=[4, 3, 5, 2])
    version = world.state("World").version
    with pytest.raises(IllegalCommandError, match="would have passed the domain by"):
        world.execute("World", AsParty("Scouts", GrantDomain("Bea", hex="0203")))
    assert world.state("World").version == version
    world.execute("World", AsParty("Scouts", BringForward()))
    world.execute("World", AsParty("Scouts", GrantDomain("Bea", hex="0203", name="Mill")))
    assert [d.name for d in world.state("World").domains] == ["Vale 0302", "Mill"]


def _settled_journal(world: Campaigns) -> list[dict[str, object]]:
    """World's journal as exported after a month's settlement (7 content; 70 in, 30 paid)."""
    wait_to(world, MONTH_2 + 3600, dice=[4, 3, 5, 2])
    return [json.loads(line) for line in world.export_jsonl("World").splitlines()]


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("coffers", 999, "its coffers is 999, but its dice make 50"),
        ("income", 999, "its income is 999, but its dice make 70"),
        ("paid", 0, "its paid is 0, but its dice make 30"),
        ("mood", "loyal", "its mood is 'loyal', but its dice make 'content'"),
        ("modifier", 3, "its modifier is 3, but its dice make 0"),
    ],
)
def test_tp_time_1_an_import_refuses_a_settlement_its_dice_do_not_make(
    world: Campaigns, field: str, value: object, said: str
) -> None:
    """TP-TIME-1 (DEFAULT domain turn): a journal changed by hand to state a settlement's
    figures otherwise than its own dice and the ruleset make is refused in one line naming
    the record, and nothing is stored; the journal as exported imports."""
    records = _settled_journal(world)
    settled = next(r for r in records if r["kind"] == "domain.settled")
    seq, data = settled["seq"], settled["data"]
    assert isinstance(data, dict)
    data[field] = value
    campaigns = world.store.campaigns()
    tampered = "".join(json.dumps(r) + "\n" for r in records)
    with pytest.raises(TurnkeeperError) as refused:
        world.import_jsonl(tampered, name="Copy")
    assert str(refused.value) == (
        f"record {seq} (domain.settled): the settlement of Vale 0302 for 1-02: {said}: the "
        "journal was changed by hand; export it again from turnkeeper"
    )
    assert world.store.campaigns() == campaigns


def test_an_import_refuses_a_settlement_rolled_otherwise_than_the_ruleset(
    world: Campaigns,
) -> None:
    """The mood's roll made with a modifier the domain did not have (its dice agreeing with
    themselves) is no roll of the ruleset's: refused; the untouched journal imports."""
    records = _settled_journal(world)
    settled = next(r for r in records if r["kind"] == "domain.settled")
    rolls = settled["rolls"]
    assert isinstance(rolls, list)
    mood = rolls[0]
    assert mood["breakdown"] == "2d6 (4, 3) + MOOD (0) = 7"
    untouched = "".join(json.dumps(r) + "\n" for r in records)
    mood.update(breakdown="2d6 (4, 3) + MOOD (2) = 9", total=9)
    with pytest.raises(TurnkeeperError, match="its mood roll reads"):
        world.import_jsonl("".join(json.dumps(r) + "\n" for r in records), name="Copy")
    assert world.import_jsonl(untouched, name="Copy").domains[0].coffers == 50


def test_tp_time_1_a_dead_holder_s_domain_is_not_settled_and_the_record_says_so(
    world: Campaigns,
) -> None:
    """TP-TIME-1 (DEFAULT domain turn; the texts are silent): Bea, the holder, dies with the
    Scouts; at the next month turn her domain rolls no mood and no income and pays no upkeep,
    its coffers left as they were, and the referee's record says why; Aldo's, alive, is
    settled as ever."""
    world.execute("World", GrantDomain("Aldo", hex="0303", coffers=10))
    world.execute("World", AsParty("Scouts", Damage("Bea", 100, reason="a fall")))
    assert not world.state("World").as_party("Scouts").party.character("Bea").alive
    wait_to(world, MONTH_2 + 3600, dice=[4, 3, 5, 2])  # Aldo's alone: 7 content; 70 in
    assert [(s.domain, s.coffers) for s in settlements(world)] == [("Vale 0303", 50)]
    left = [r.event for r in world.journal("World").records if isinstance(r.event, DomainUnsettled)]
    assert [e.describe() for e in left] == [
        "Vale 0302 (Bea's), the month of 1-02: not settled, for Bea is dead "
        "(`domain drop` it to grant it to another)"
    ]
    assert left[0].visibility is Visibility.REFEREE
    coffers = {d.name: d.coffers for d in world.state("World").domains}
    assert coffers == {"Vale 0302": 10, "Vale 0303": 50}


def test_a_domain_given_up_is_settled_no_more(world: Campaigns) -> None:
    world.execute("World", AsParty("Scouts", DropDomain("Vale 0302", reason="sold")))
    assert world.state("World").domains == ()
    wait_to(world, MONTH_2 + 3600, dice=[])
    assert settlements(world) == []


def test_the_domain_verbs_on_the_command_line(tmp_path: Path, tk: Tk) -> None:
    db = str(tmp_path / "t.db")
    party = tmp_path / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    vale = tmp_path / "vale.toml"
    vale.write_text(
        'name = "Vale"\nwidth = 6\nheight = 4\nterrain = ["pppppp", "pppppp", "pppppp", '
        '"pppppp"]\n',
        encoding="utf-8",
    )
    tk(db, "new", "Keep", "--ruleset", "ex", "--party", str(party), "--seed", "3")
    assert "No domains" in tk(db, "domain", "list", as_json=False)
    tk(db, "map", "load", str(vale), "--at", "0101")
    said = tk(db, "domain", "grant", "Aldo", "--hex", "0203", "--name", "Mill", as_json=False)
    assert "Aldo holds the domain Mill (hex 0203 of Vale)" in said
    tk(db, "wait", "30 days", "--dice", "5,5,2,2")  # 10 loyal; 40 in, 30 paid
    [mill] = tk(db, "domain", "list")
    assert (mill["coffers"], mill["mood"], mill["party"]) == (10, "loyal", "Keep")
    assert [e["change"] for e in mill["ledger"]] == [10]
    said = tk(db, "domain", "collect", "Mill", as_json=False)
    assert "Aldo draws 10 coins from the coffers of Mill: 0 left; its people are loyal" in said
    tk(db, "domain", "drop", "Mill", "--reason", "sold to the abbey")
    assert tk(db, "domain", "list") == []
