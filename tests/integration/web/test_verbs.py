"""The HTTP command vocabulary: one table of verbs, each the CLI's command, played over the API."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pydantic import TypeAdapter, ValidationError

from turnkeeper.campaign import (
    AddSupply,
    AsParty,
    CampaignState,
    CountdownAdd,
    CountdownEnd,
    CountdownOutcome,
    CountdownTick,
    CountdownTrigger,
    Damage,
    Douse,
    Heal,
    Journal,
    Light,
    Note,
    Redo,
    Rest,
    SetLight,
    Undo,
    UseSupply,
    Visibility,
    Wait,
    parse_party,
)
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.combat_state import ActionKind, Side
from turnkeeper.procedures.combat import (
    AnnounceDone,
    AnswerRoll,
    AskRoll,
    Attack,
    BeginRound,
    Check,
    Declare,
    EndCombat,
    Pin,
    Resolve,
    Save,
    StartFight,
    Surrender,
)
from turnkeeper.procedures.domains import DrawCoffers, DropDomain, GrantDomain
from turnkeeper.procedures.dungeon import EndEncounter, EnterSite, LeaveSite, NoteMap, Turn
from turnkeeper.procedures.factions import LoadFactions, RevealDeed
from turnkeeper.procedures.haven import HavenTurn
from turnkeeper.procedures.parties import (
    BringForward,
    CatchUp,
    ClearArea,
    ClearHex,
    JoinParty,
    NewParty,
    SetDoing,
    ShareKnowledge,
    SplitParty,
    SwitchParty,
)
from turnkeeper.procedures.scenes import (
    Act,
    CloseScene,
    Compromise,
    FreeAction,
    GiveTokens,
    GmAct,
    OpenScene,
    SpendDread,
    TakeSpotlight,
    VoteSpotlight,
)
from turnkeeper.procedures.wilderness import (
    Camp,
    LoadMap,
    RevealOnMap,
    RollWeather,
    Search,
    SetWeather,
    Travel,
)
from turnkeeper.rules.loader import preset
from turnkeeper.verbs import VERBS, CommandBody, Place, places_now, verbs_now
from turnkeeper.web.tokens import Role, issue_tokens

if TYPE_CHECKING:
    from tests.integration.web.conftest import Served

SITE = Path(__file__).parents[3] / "src" / "turnkeeper" / "examples" / "site.toml"
MAP = {"name": "Moor", "width": 3, "height": 2, "terrain": ["ppp", "ppp"]}

#: One body per verb, and the command class the CLI builds for it: every verb is here.
SAMPLES: dict[str, tuple[dict[str, Any], type]] = {
    "wait": ({"duration": "2 turns"}, Wait),
    "rest": ({"turns": 2}, Rest),
    "light": ({"douse": True}, Douse),
    "supply_use": ({"item": "rations"}, UseSupply),
    "supply_add": ({"item": "rations", "amount": 2}, AddSupply),
    "damage": ({"target": "Aldo", "amount": 2, "reason": "a fall"}, Damage),
    "heal": ({"target": "Aldo", "amount": 1}, Heal),
    "note": ({"text": "the door was ajar", "referee": True}, Note),
    "undo": ({}, Undo),
    "redo": ({}, Redo),
    "countdown_add": ({"name": "flood", "kind": "short", "length": "4"}, CountdownAdd),
    "countdown_tick": ({"name": "flood"}, CountdownTick),
    "countdown_outcome": ({"name": "flood", "outcome": "partial"}, CountdownOutcome),
    "countdown_end": ({"name": "flood"}, CountdownEnd),
    "countdown_trigger": ({"trigger": "wound"}, CountdownTrigger),
    "site_enter": ({"site_text": SITE.read_text(encoding="utf-8")}, EnterSite),
    "turn": ({"mode": "cautious", "both_unaware": True}, Turn),
    "site_leave": ({}, LeaveSite),
    "site_clear": ({"area": "1"}, ClearArea),
    "party_split": ({"name": "Grey Band", "characters": "Bea", "take": ["rations=2"]}, SplitParty),
    "party_new": (
        {"name": "Newcomers", "party_text": '[[characters]]\nname = "Eve"\nhp = 5'},
        NewParty,
    ),
    "party_switch": ({"name": "Grey Band"}, SwitchParty),
    "party_join": ({"name": "Grey Band"}, JoinParty),
    "party_share": ({"name": "Grey Band"}, ShareKnowledge),
    "party_forward": ({"days": 3}, BringForward),
    "party_doing": ({"doing": "riding to the oracle", "to": "the oracle"}, SetDoing),
    "site_resume": ({"fought": True}, EndEncounter),
    "map_note": ({"text": "rats here", "area": "the pantry"}, NoteMap),
    "map_load": ({"map": MAP, "at": "0000"}, LoadMap),
    "travel": ({"target": "se", "party": "mounted"}, Travel),
    "explore": ({"target": "se"}, Travel),
    "search": ({"all_day": True}, Search),
    "camp": ({"forage": True}, Camp),
    "weather_set": ({"weather": "rain"}, SetWeather),
    "weather_roll": ({}, RollWeather),
    "map_reveal": ({"hexes": "0304,0305", "features": "Ruined Tower"}, RevealOnMap),
    "map_hide": ({"hexes": "0304"}, RevealOnMap),
    "map_clear": ({"hex": "0304", "what": "slew the dragon in"}, ClearHex),
    "combat_start": ({"foes": ["Goblin:hd=1,hp=4,ac=12,count=2"]}, StartFight),
    "combat_round": ({"adjust": 1}, BeginRound),
    "combat_declare": ({"actor": "Aldo", "action": "attack", "target": "Goblin 1"}, Declare),
    "combat_resolve": ({}, Resolve),
    "combat_attack": ({"attacker": "Aldo", "target": "Goblin 1"}, Attack),
    "combat_pin": ({"name": "Aldo", "place": 1}, Pin),
    "combat_check": ({"actor": "Aldo", "stat": "STR", "defence": 12}, Check),
    "combat_save": ({"name": "Goblin 1"}, Save),
    "combat_ask": ({"name": "Aldo", "roll": "check", "stat": "STR", "defence": 12}, AskRoll),
    "combat_rolled": ({"name": "Aldo", "rolled": "14"}, AnswerRoll),
    "combat_announce_done": ({"side": "foes"}, AnnounceDone),
    "combat_surrender": ({"names": ["Goblin 1"]}, Surrender),
    "combat_end": ({"winner": "party"}, EndCombat),
    "scene_open": ({"kind": "combat", "players": "freya,ulfarmi"}, OpenScene),
    "scene_vote": ({"voter": "freya", "candidate": "ulfarmi"}, VoteSpotlight),
    "scene_spotlight": ({"votes": {"freya": "ulfarmi"}}, TakeSpotlight),
    "scene_act": ({"player": "ulfarmi", "what": "leaps", "outcome": "success"}, Act),
    "scene_free": ({"actor": "freya", "what": "draws her bow"}, FreeAction),
    "scene_gm": ({"what": "roars", "creature_free": {"ogre": "stomps"}}, GmAct),
    "scene_give": ({"giver": "freya", "receiver": "ulfarmi", "count": 2}, GiveTokens),
    "dread_spend": ({"amount": 1, "what": "strikes twice", "creature": "ogre"}, SpendDread),
    "scene_compromise": ({"player": "ulfarmi"}, Compromise),
    "scene_close": ({}, CloseScene),
    "faction_load": (
        {"factions_text": '[[factions]]\nname = "Red Hand"\ngoal = "g"\nsegments = 4'},
        LoadFactions,
    ),
    "faction_reveal": ({"faction": "Red Hand", "deed": 1}, RevealDeed),
    "haven": ({"character": "Aldo", "activity": "work"}, HavenTurn),
    "domain_grant": ({"character": "Aldo", "hex": "0304", "coffers": 20}, GrantDomain),
    "domain_collect": ({"domain": "Vale 0304", "amount": 5}, DrawCoffers),
    "domain_drop": ({"domain": "Vale 0304", "reason": "sold"}, DropDomain),
    "world_catch_up": ({"today": "2026-11-29"}, CatchUp),
}

_body: TypeAdapter[Any] = TypeAdapter(CommandBody)


def _state(ruleset: str = "ex") -> CampaignState:
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 8\n[supplies]\ntorches = 2')
    return Journal.start("Keep", preset(ruleset), party, seed=1).state


# -- the table -----------------------------------------------------------------------------


def test_every_verb_builds_the_command_the_cli_builds() -> None:
    assert set(SAMPLES) == set(VERBS), "a verb without a sample, or a sample without a verb"
    state = _state()
    for verb, (fields, command) in SAMPLES.items():
        body = _body.validate_python({"verb": verb, **fields})
        assert type(body) is VERBS[verb]
        assert type(body.command(state)) is command, verb


def test_a_verb_for_another_party_runs_as_that_party() -> None:
    """Every verb takes ``as_party``: the command is read against that party's state and runs
    as that party alone: the time record turns to it and back (issue 37: `--as` runs one
    command and leaves the party run as it was)."""
    two = parse_party('[[characters]]\nname = "Aldo"\nhp = 6\n[[characters]]\nname = "Bea"\nhp = 4')
    journal = Journal.start("Keep", preset("tp"), two, seed=1)
    journal.execute(SplitParty("Grey Band", ("Bea",)))
    body = _body.validate_python({"verb": "wait", "duration": "1 day", "as_party": "Grey Band"})
    command = body.build(journal.state)
    assert command == AsParty("Grey Band", Wait(24 * 3600))
    journal.execute(command)
    assert journal.state.company == "Keep" and journal.state.day == 1
    assert journal.state.as_party("Grey Band").day == 2
    with pytest.raises(IllegalCommandError, match="no party called 'Red'"):
        _body.validate_python({"verb": "wait", "duration": "1h", "as_party": "Red"}).build(
            journal.state
        )


def test_the_union_is_the_table() -> None:
    """CommandBody is built from VERBS: the discriminator knows exactly the table's verbs."""
    schema = _body.json_schema()
    mapping = schema["discriminator"]["mapping"]
    assert set(mapping) == set(VERBS)


def test_every_verb_says_what_it_is_for_and_every_field_is_described() -> None:
    """A dashboard draws its forms from these: a title, a docstring, a label per field."""
    for verb, model in VERBS.items():
        assert model.model_config.get("title"), verb
        assert model.__doc__ and model.__doc__.strip(), verb
        for name, field in model.model_fields.items():
            if name != "verb":
                assert field.description, f"{verb}.{name} has no description"


def test_openapi_describes_every_verb_and_its_fields(served: Served) -> None:
    document = served.client.get("/openapi.json").json()
    schemas = document["components"]["schemas"]
    for verb, model in VERBS.items():
        schema = schemas[model.__name__]
        assert schema["properties"]["verb"]["const"] == verb
        assert schema["title"] == model.model_config["title"]
        for name, field in schema["properties"].items():
            assert name == "verb" or field.get("description"), f"{verb}.{name}"
    described = schemas["TurnBody"]["properties"]["noisy"]["description"]
    assert "[EX-ENC-4]" in described  # the rule ID, in brackets


def test_form_text_reads_as_lists() -> None:
    """A form sends one text per field: names split at commas, monster lines at line ends,
    dice at commas or spaces (as ``--dice 3,5``)."""
    body = _body.validate_python(
        {"verb": "combat_start", "foes": "Goblin:hd=1,hp=4\nOrc:hd=2", "dice": "3, 5"}
    )
    assert body.foes == ("Goblin:hd=1,hp=4", "Orc:hd=2") and body.dice == [3, 5]
    scene = _body.validate_python({"verb": "scene_open", "kind": "social", "players": "a, b"})
    assert scene.players == ("a", "b")


def test_each_verb_reads_the_cli_way() -> None:
    state = _state()
    start = _body.validate_python(
        {
            "verb": "combat_start",
            "foes": ["Goblin:hd=1,hp=4,ac=12,count=2"],
            "surprise": "foes",
            "aware": ["party"],
            "attackers": "party",
        }
    ).command(state)
    assert [f.name for f in start.foes] == ["Goblin 1", "Goblin 2"]
    assert (start.surprised, start.aware, start.attackers) == (
        frozenset({Side.OPPOSITION}),
        frozenset({Side.PARTY}),
        Side.PARTY,
    )
    assert _body.validate_python({"verb": "combat_start", "surprise": "both"}).command(
        state
    ).surprised == frozenset(Side)
    declared = _body.validate_python(
        {"verb": "combat_declare", "actor": "Aldo", "action": "move", "then": "attack:Goblin 1"}
    ).command(state)
    assert [(a.kind, a.target) for a in declared.actions] == [
        (ActionKind.MOVE, None),
        (ActionKind.ATTACK, "Goblin 1"),
    ]
    # The CLI's `combat check Aldo STR --defence 12`, `combat save NAME`, `turn --both-unaware`.
    assert _body.validate_python(
        {"verb": "combat_check", "actor": "Aldo", "stat": "STR", "defence": 12}
    ).command(state) == Check("Aldo", "STR", 12)
    assert _body.validate_python({"verb": "combat_save", "name": "Goblin 2"}).command(
        state
    ) == Save("Goblin 2")
    assert _body.validate_python({"verb": "turn", "both_unaware": True}).command(state).both_unaware
    assert _body.validate_python({"verb": "explore", "target": "n"}).command(state).explore
    assert not _body.validate_python({"verb": "travel", "target": "n"}).command(state).explore
    assert _body.validate_python({"verb": "light"}).command(state) == Light("torch")
    assert _body.validate_python({"verb": "light", "set_turns": 2}).command(state) == SetLight(2)
    note = _body.validate_python({"verb": "note", "text": "hm"}).command(state)
    assert note == Note("hm", Visibility.PARTY)
    wait = _body.validate_python({"verb": "wait", "duration": "1 round"}).command(state)
    assert wait == Wait(state.ruleset.time.round_seconds)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"verb": "combat_start", "foes": ["Goblin:hd"]}, "expected key=value"),
        ({"verb": "site_enter"}, "site (data) or site_text"),
        ({"verb": "site_enter", "site_text": "[site"}, "not valid TOML"),
        ({"verb": "map_load", "at": "0000"}, "map (data) or map_text"),
        ({"verb": "light", "source": "torch", "douse": True}, "give one of"),
    ],
)
def test_a_bad_body_is_one_clear_message(body: dict[str, Any], says: str) -> None:
    from turnkeeper.errors import TurnkeeperError

    with pytest.raises(TurnkeeperError, match=re.escape(says)):
        _body.validate_python(body).command(_state())


def test_bad_fields_are_refused_before_any_command() -> None:
    for body in (
        {"verb": "combat_declare", "actor": "A", "action": "dance"},
        {"verb": "combat_declare", "actor": "A", "action": "attack", "then": "dance"},
        {"verb": "combat_end", "winner": "nobody"},
        {"verb": "damage", "target": "Aldo", "amount": 0},
        {"verb": "turn", "speed": "fast"},
    ):
        with pytest.raises(ValidationError):
            _body.validate_python(body)


# -- where the party is --------------------------------------------------------------------


def test_verbs_now_follow_the_party() -> None:
    state = _state()
    assert places_now(state) == {Place.ANYWHERE}
    here = verbs_now(state)
    assert {"wait", "site_enter", "map_load", "combat_start", "damage"} <= set(here)
    assert not {"turn", "travel", "combat_attack", "scene_act", "scene_open"} & set(here)
    journal = Journal.start("Keep", state.ruleset, state.party, seed=1)
    body = _body.validate_python(SAMPLES["site_enter"][0] | {"verb": "site_enter"})
    journal.execute(body.command(journal.state))
    inside = verbs_now(journal.state)
    assert Place.SITE in places_now(journal.state)
    assert {"turn", "site_leave", "map_note"} <= set(inside) and "site_enter" not in inside
    start = _body.validate_python(SAMPLES["combat_start"][0] | {"verb": "combat_start"})
    journal.execute(start.command(journal.state))
    fighting = verbs_now(journal.state)
    assert {"combat_round", "combat_attack", "combat_end"} <= set(fighting)
    assert "combat_start" not in fighting
    dg = _state("dg")
    assert "scene_open" in verbs_now(dg) and "scene_act" not in verbs_now(dg)


# -- played over HTTP ------------------------------------------------------------------------


def _post(served: Served, name: str, tokens: dict[Role, str], body: dict[str, Any]) -> Any:
    response = served.client.post(
        f"/api/campaigns/{name}/commands",
        json=body,
        headers={"Authorization": f"Bearer {tokens[Role.REFEREE]}"},
    )
    assert response.status_code == 200, (body["verb"], response.text)
    return response.json()


def test_a_delve_and_a_fight_over_the_api(served: Served) -> None:
    """A site from its text, the party's map, a fight from stat lines, and back out."""
    c = served.campaigns
    party = parse_party('[[characters]]\nname = "Aldo"\nhp = 30\nac = 14\n[supplies]\nrations = 3')
    c.new("Delve", preset("ex"), party, seed=2)
    tokens = issue_tokens(c.store, "Delve")

    def play(verb: str, **fields: Any) -> list[str]:
        return [
            r["kind"] for r in _post(served, "Delve", tokens, {"verb": verb, **fields})["records"]
        ]

    assert "site.entered" in play("site_enter", site_text=SITE.read_text(encoding="utf-8"))
    assert "site.map_noted" in play("map_note", text="a cold draught")
    play("note", text="ZQSECRETNOTE", referee=True)
    play("supply_add", item="rations", amount=2)
    play("supply_use", item="rations")
    assert "combat.started" in play(
        "combat_start", foes="Goblin:hd=1,hp=40,ac=12,count=2", surprise="none"
    )  # goblins that outlast the blows, so the referee ends the fight
    play("combat_round")
    play("combat_pin", name="Goblin 2", place=1)
    play("combat_declare", actor="Aldo", action="attack", target="Goblin 1")
    play("combat_resolve")
    play("combat_round")
    play("combat_announce_done", side="foes")  # the pinned goblin, first, does nothing
    assert "combat.save" in play("combat_save", name="Goblin 2")  # PG-SAVE-1
    assert "combat.check" in play("combat_check", actor="Aldo", stat="STR", defence=12)
    assert "combat.attack" in play("combat_attack", attacker="Aldo", target="Goblin 2")
    play("damage", target="Aldo", amount=3, reason="a goblin's knife")
    assert "combat.ended" in play("combat_end", winner="party")
    play("heal", target="Aldo", amount=1)
    state = c.state("Delve")
    assert state.combat is None and state.supplies.count("rations") == 4  # the fight is history
    assert "site.left" in play("site_leave")
    log = served.client.get(
        "/api/campaigns/Delve/log", headers={"Authorization": f"Bearer {tokens[Role.PLAYER]}"}
    )
    assert "ZQSECRETNOTE" not in log.text and "a cold draught" in log.text


def test_the_wilderness_over_the_api(served: Served) -> None:
    c = served.campaigns
    c.new("Moor", preset("tp"), parse_party('[[characters]]\nname = "Aldo"\nhp = 8'), seed=4)
    tokens = issue_tokens(c.store, "Moor")
    _post(served, "Moor", tokens, {"verb": "map_load", "map": MAP, "at": "0000"})
    _post(served, "Moor", tokens, {"verb": "weather_set", "weather": "rain"})
    _post(served, "Moor", tokens, {"verb": "weather_roll"})
    explored = _post(served, "Moor", tokens, {"verb": "explore", "target": "se"})
    moved = [r["text"] for r in explored["records"] if r["kind"] == "wilderness.moved"]
    assert moved and moved[0].startswith("the party explores toward")  # TP-WENC-2
    assert c.state("Moor").wilderness is not None


def test_a_scene_over_the_api(served: Served) -> None:
    """DG-LOOP-1 to DG-DREAD-1: the scene verbs, a compromise and dread, then closed."""
    c = served.campaigns
    c.new("Barrow", preset("dg"), parse_party('[[characters]]\nname = "freya"\nhp = 8'), seed=1)
    tokens = issue_tokens(c.store, "Barrow")

    def play(verb: str, **fields: Any) -> Any:
        return _post(served, "Barrow", tokens, {"verb": verb, **fields})

    play("scene_open", kind="combat", players="freya,ulfarmi", creatures="ogre")
    play("scene_give", giver="freya", receiver="ulfarmi")
    play("scene_spotlight", votes={"freya": "ulfarmi", "ulfarmi": "ulfarmi"})
    play("scene_free", actor="freya", what="draws her bow")
    acted = play("scene_act", player="ulfarmi", what="leaps", roll="d20", target=12, dice=[11])
    assert acted["records"][0]["data"]["outcome"] == "partial"
    play("scene_compromise", player="ulfarmi")
    play("scene_gm", what="the ogre roars", creature="ogre", creature_free={"ogre": "stomps"})
    play("dread_spend", amount=1, what="the ogre strikes twice", creature="ogre")
    assert c.state("Barrow").scenes.dread == 0
    play("countdown_add", name="collapse", kind="short", length="4", failure="3")
    play("countdown_outcome", name="collapse", outcome="partial")
    closed = play("scene_close")
    assert closed["records"][-1]["kind"] == "scene.closed"
    assert c.state("Barrow").scenes.scene is None
