"""A party is one thing however it splits (issue 37): what a split and a join do with each of
a party's fields is one table, a party of the dead acts on nothing, and a pending encounter,
a fight or a scene belongs to one party.

Played as a referee would, through the service (and the CLI where the line matters), on the
world of ``test_world_of_parties``: Aldo, Bea, Cato, Dara and Hugo in the Barrow.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import Field
from tests.integration.test_world_of_parties import BARROW, COMPANY, go_into

from turnkeeper.campaign import AddMonster, AddSupply, Damage, Light, MarkFight, Wait, parse_party
from turnkeeper.campaign.commands import AsParty, CountdownAdd
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.party import Monster
from turnkeeper.kernel.scene_state import SceneKind, SceneState
from turnkeeper.kernel.state import PARTY_FIELDS, LightState, PartyFields
from turnkeeper.procedures.combat import Combatant, Side, StartFight
from turnkeeper.procedures.dungeon import EndEncounter, EnterSite
from turnkeeper.procedures.parties import (
    ClearArea,
    ClearHex,
    JoinParty,
    SplitParty,
    SwitchParty,
)
from turnkeeper.procedures.parting import PARTING, check_parting
from turnkeeper.procedures.scenes import OpenScene, VoteSpotlight
from turnkeeper.procedures.wilderness import LoadMap
from turnkeeper.rules.loader import preset
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store
from turnkeeper.world.hexes import Hex
from turnkeeper.world.mapfile import MapFile
from turnkeeper.world.sites import parse_site

BAND = "Grey Band"


@pytest.fixture
def world(tmp_path: Path) -> Campaigns:
    campaigns = Campaigns(open_store(str(tmp_path / "t.db")))
    campaigns.new("Company", preset("tp"), parse_party(COMPANY), seed=11)
    return campaigns


def refused(campaigns: Campaigns, command: Any) -> str:
    """The refusal of ``command``, checked to have changed nothing."""
    version = campaigns.state("Company").version
    with pytest.raises(IllegalCommandError) as error:
        campaigns.execute("Company", command)
    assert campaigns.state("Company").version == version
    return str(error.value)


# --- one table for a party's fields ----------------------------------------------------------


def test_every_field_of_a_party_says_what_a_split_and_a_join_do_with_it() -> None:
    """The table names each of a party's fields, and a field added without its row is
    refused when the table is checked (the module checks itself as it loads)."""
    assert tuple(PARTING) == PARTY_FIELDS
    for name, parting in PARTING.items():
        assert parting.split in {"carry", "divide", "keep", "refuse"}, name
        assert parting.join in {"same", "merge", "refuse"}, name

    class Grown(PartyFields):
        mules: int = Field(0, description="A field added to a party and not to the table.")

    with pytest.raises(TypeError, match="missing mules"):
        check_parting(PARTING, tuple(Grown.model_fields))


def test_the_state_and_the_away_record_are_made_of_one_declaration() -> None:
    from turnkeeper.kernel.state import CampaignState, PartyAway

    assert set(PartyAway.model_fields) == {*PARTY_FIELDS, "name"}
    assert set(PARTY_FIELDS) <= set(CampaignState.model_fields)
    assert issubclass(CampaignState, PartyFields) and issubclass(PartyAway, PartyFields)


def test_a_model_copy_refuses_a_field_the_model_does_not_have(world: Campaigns) -> None:
    """A misspelt field in a copy is an error, not a value kept beside the model's fields:
    the state's, and the state's parts' (a light, the Dungeoneers table, a site visit...)."""
    state = world.state("Company")
    with pytest.raises(TypeError, match="CampaignState has no field 'lihgt'"):
        state.model_copy(update={"lihgt": None})
    light = LightState(source="torch", radius_ft=30)
    with pytest.raises(TypeError, match="LightState has no field 'turns'"):
        light.model_copy(update={"turns": 3})
    assert light.model_copy(update={"source": None}).dark  # a field it has is copied as ever
    world.execute("Company", EnterSite(parse_site(BARROW, "barrow.toml")))
    visit = world.state("Company").site
    assert visit is not None
    for part, wrong in ((visit, "encounters"), (visit.site, "levle"), (SceneState(), "sceen")):
        with pytest.raises(TypeError, match=f"has no field '{wrong}'"):
            part.model_copy(update={wrong: None})


# --- a party of the dead acts on nothing ------------------------------------------------------


def test_tp_time_2_a_party_of_the_dead_enters_no_site_and_clears_nothing(world: Campaigns) -> None:
    barrow = parse_site(BARROW, "barrow.toml")
    vale = MapFile(name="Vale", width=4, height=4, terrain=["pppp"] * 4)
    world.execute("Company", LoadMap(vale, Hex.from_label("0000")))
    world.execute("Company", EnterSite(barrow))
    world.execute("Company", SplitParty(BAND, ("Bea",)))
    world.execute("Company", SwitchParty(BAND))
    world.execute("Company", Damage("Bea", 20, "a ghoul's claws"))
    assert not world.state("Company").party.able
    assert refused(world, ClearArea("1")) == (
        "nobody in Grey Band can act (Bea dead), so it cannot clear an area: bring one round "
        "with `heal NAME HP`, or let another party go"
    )
    assert "cannot clear a hex" in refused(world, ClearHex())
    assert world.state("Company").places == ()  # no place changed by a corpse

    # out of the barrow, the dead do not go into it again either
    world.execute("Company", SwitchParty("Company"))
    world.execute("Company", SplitParty("Dead Men", ("Hugo",)))
    world.execute("Company", SwitchParty("Dead Men"))
    world.execute("Company", Damage("Hugo", 20, "a trap"))
    from turnkeeper.procedures.dungeon import LeaveSite

    world.execute("Company", LeaveSite())
    assert "nobody in Dead Men can act (Hugo dead), so it cannot enter Barrow" in refused(
        world, EnterSite(barrow)
    )


def test_a_party_of_the_dead_is_refused_at_the_command_line(tmp_path: Path, shell: Any) -> None:
    db = str(tmp_path / "t.db")
    party = tmp_path / "party.toml"
    party.write_text(COMPANY, encoding="utf-8")
    site = tmp_path / "barrow.toml"
    site.write_text(BARROW, encoding="utf-8")
    for line in (
        ("new", "Company", "--ruleset", "tp", "--party", str(party), "--seed", "11"),
        ("site", "enter", str(site)),
        ("party", "split", BAND, "Bea"),
        ("party", "switch", BAND),
        ("damage", "Bea", "20"),
    ):
        said = shell(*line, "--db", db)
        assert said.code == 0, (line, said.err)
    before = shell.store(db)
    said = shell("site", "clear", "1", "--db", db)
    assert said.code == 2 and "nobody in Grey Band can act (Bea dead)" in said.err
    assert shell.store(db) == before


# --- a pending encounter, a fight, a scene belong to one party ---------------------------------


def test_tp_time_2_the_leavers_do_not_take_the_pending_encounter(world: Campaigns) -> None:
    """Splitting in front of the ghouls: the encounter stays with the party that stays; the
    leavers have no monster to start a fight with (one fight, not two, for three ghouls)."""
    world.execute("Company", EnterSite(parse_site(BARROW, "barrow.toml")))
    go_into(world, "1")
    pending = world.state("Company").site.encounter  # type: ignore[union-attr]
    assert pending is not None and pending.creature == "3 ghouls"
    world.execute("Company", SplitParty(BAND, ("Bea",)))
    state = world.state("Company")
    assert state.site is not None and state.site.encounter == pending
    band = state.as_party(BAND)
    assert band.site is not None and band.site.encounter is None
    assert "no foes" in refused(world, AsParty(BAND, StartFight(foes=())))
    # the company fights the ghouls, named (the site says them in words: "3 ghouls")
    ghouls = tuple(
        Combatant(name=f"Ghoul {n}", hp=9, max_hp=9, ac=13, side=Side.OPPOSITION) for n in (1, 2, 3)
    )
    world.execute("Company", AsParty("Company", StartFight(foes=ghouls)))


def test_a_leaver_in_the_scene_in_play_must_see_it_closed_first(tmp_path: Path) -> None:
    """DG: Bea is a player of the scene in play; she cannot walk out of it into a party of her
    own and go on voting in the company's scene. The scene closed, she may."""
    campaigns = Campaigns(open_store(str(tmp_path / "dg.db")))
    campaigns.new("Company", preset("dg"), parse_party(COMPANY), seed=3)
    campaigns.execute("Company", OpenScene(SceneKind.EXPLORATION, players=("Aldo", "Bea")))
    campaigns.execute("Company", VoteSpotlight("Bea", "Aldo"))
    assert refused(campaigns, SplitParty(BAND, ("Bea",))) == (
        "Bea plays in the scene in play: close the scene first (`scene close`), then split"
    )
    # a split that takes nobody of the scene leaves the scene with the party that stays
    campaigns.execute("Company", SplitParty("Scouts", ("Hugo",)))
    state = campaigns.state("Company")
    assert state.scenes.scene is not None and state.as_party("Scouts").scenes.scene is None


# --- a join carries what the joiners bring, or is refused with what to do first --------------


def test_tp_time_2_a_join_carries_the_joiners_light_rest_and_monsters(
    tmp_path: Path,
) -> None:
    world = Campaigns(open_store(str(tmp_path / "ex.db")))  # EX: a fight makes a rest due
    world.new("Company", preset("ex"), parse_party(COMPANY), seed=11)
    world.execute("Company", AddSupply("torches", 4))
    world.execute("Company", SplitParty(BAND, ("Bea",), {"torches": 2}))
    world.execute("Company", AsParty(BAND, Light("torch")))
    world.execute("Company", AsParty(BAND, MarkFight()))
    wight = Monster(name="Wight", hd=3, hp=13, ac=14)
    world.execute("Company", AsParty(BAND, AddMonster(wight)))
    world.execute("Company", AsParty(BAND, CountdownAdd("the bells", "short", "6")))
    band = world.state("Company").as_party(BAND)
    records = world.execute("Company", AsParty("Company", JoinParty(BAND)))
    state = world.state("Company")
    assert state.light == band.light  # the torch burns on: it did not go out unrecorded
    assert state.rest.due_at == band.rest.due_at and state.rest.due_reason == "a fight"
    assert state.monster("Wight") == wight
    assert [c.name for c in state.countdowns] == ["the bells"]
    (joined,) = [r for r in records if r.event.kind == "party.joined"]
    line = joined.event.describe()
    assert line.startswith("Grey Band joins Company, bringing ")
    for told in ("the monsters met: Wight", "a torch burning", "a rest due (a fight)", "the bells"):
        assert told in line, told


def test_a_join_carries_what_the_joiners_found(world: Campaigns) -> None:
    """The band explored the crypt and came back to the antechamber the company cleared,
    where the company waits: joined, the company knows the crypt (it was not forgotten)."""
    world.execute("Company", EnterSite(parse_site(BARROW, "barrow.toml")))
    go_into(world, "1")
    if world.state("Company").site.encounter is not None:  # type: ignore[union-attr]
        world.execute("Company", EndEncounter(fought=True))
    world.execute("Company", ClearArea("1"))
    world.execute("Company", SplitParty(BAND, ("Bea",)))
    go_into(world, "2", party=BAND)
    go_into(world, "1", party=BAND)
    band = world.state("Company").as_party(BAND)
    company = world.state("Company").as_party("Company")
    assert company.site is not None and (1, "2") not in company.site.visited
    world.execute("Company", AsParty("Company", Wait(band.now - company.now)))
    records = world.execute("Company", JoinParty(BAND))
    state = world.state("Company")
    assert state.site is not None and (1, "2") in state.site.visited
    assert records[-1].event.describe().endswith("bringing 1 area explored")


def test_a_join_carries_the_encounter_the_joiners_face(world: Campaigns) -> None:
    """Bea slipped away from the ghouls and comes back to the company: the party she joins
    into faces the ghouls (carried, not forgotten), and the line says so."""
    world.execute("Company", EnterSite(parse_site(BARROW, "barrow.toml")))
    go_into(world, "1")
    pending = world.state("Company").site.encounter  # type: ignore[union-attr]
    assert pending is not None
    world.execute("Company", SplitParty(BAND, ("Bea",)))
    (joined,) = world.execute("Company", AsParty(BAND, JoinParty("Company")))[-1:]
    state = world.state("Company")
    assert state.company == BAND and state.site is not None and state.site.encounter == pending
    assert joined.event.describe() == (
        "Company joins Grey Band, bringing 400 rations, 400 water; the encounter with 3 ghouls"
    )


def test_a_join_that_would_drop_a_light_is_refused_with_what_to_do(world: Campaigns) -> None:
    world.execute("Company", AddSupply("torches", 4))
    world.execute("Company", SplitParty(BAND, ("Bea",), {"torches": 2}))
    world.execute("Company", AsParty("Company", Light("torch")))
    world.execute("Company", AsParty(BAND, Light("torch")))
    assert refused(world, AsParty("Company", JoinParty(BAND))) == (
        "Company and Grey Band each have a light burning, and a party has one: douse one "
        'first (`light --douse --as "Grey Band"`)'
    )


def test_a_join_that_would_drop_a_countdown_is_refused(world: Campaigns) -> None:
    world.execute("Company", SplitParty(BAND, ("Bea",)))
    world.execute("Company", AsParty("Company", CountdownAdd("the bells", "short", "6")))
    world.execute("Company", AsParty(BAND, CountdownAdd("the bells", "short", "4")))
    assert "each keep a countdown called 'the bells'" in refused(
        world, AsParty("Company", JoinParty(BAND))
    )


# --- the state's fields in one place each ------------------------------------------------------


def test_status_holds_the_live_supplies_once(tk: Any, tmp_path: Path) -> None:
    """`status --json`: what the party carries is its live supplies; the starting kit is not
    beside it as a second truth (for the party run now, nor for a party away)."""
    party = tmp_path / "party.toml"
    party.write_text(COMPANY, encoding="utf-8")
    db = str(tmp_path / "s.db")
    tk(db, "new", "Keep", "--ruleset", "tp", "--party", str(party), "--seed", "1")
    tk(db, "party", "split", BAND, "Bea", "--take", "rations=10")
    tk(db, "supply", "use", "rations", "--amount", "3")
    status = tk(db, "status")
    text = json.dumps(status)
    assert status["supplies"]["counted"]["rations"] == 387
    assert "supplies" not in status["party"]
    (away,) = status["away"]
    assert away["supplies"]["counted"] == {"rations": 10}
    assert "supplies" not in away["party"]
    assert text.count('"rations"') == 2  # the company's and the band's, once each


def test_a_join_carries_the_hexes_the_joiners_saw(world: Campaigns) -> None:
    """On the map: the band went south-east and came back; joined, the company knows the
    hexes the band saw (not forgotten), and the join's line says how many."""
    from tests.integration.test_world_of_parties import travel_to

    vale = MapFile(name="Vale", width=6, height=4, terrain=["pppppp"] * 4)
    world.execute("Company", LoadMap(vale, Hex.from_label("0000")))
    world.execute("Company", SplitParty(BAND, ("Bea",)))
    world.execute("Company", SwitchParty(BAND))
    travel_to(world, "0101")
    travel_to(world, "0000")
    band = world.state("Company")
    world.execute("Company", SwitchParty("Company"))
    company = world.state("Company")
    assert band.wilderness is not None and company.wilderness is not None
    new = band.wilderness.visited - company.wilderness.visited
    assert new
    world.execute("Company", Wait(band.now - company.now))
    records = world.execute("Company", JoinParty(BAND))
    joined = world.state("Company").wilderness
    assert joined is not None and band.wilderness.visited <= joined.visited
    assert band.wilderness.seen <= joined.seen
    assert f"{len(new)} hex" in records[-1].event.describe()
