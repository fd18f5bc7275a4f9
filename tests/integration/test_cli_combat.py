"""CLI: a fight inside a campaign (journal, clock, typed dice, refusals) and `simulate fight`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from typer.testing import CliRunner

import turnkeeper.cli  # noqa: F401  (registers the verbs)
from turnkeeper.cli.app import app
from turnkeeper.errors import IllegalCommandError, TurnkeeperError

from .conftest import texts

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

PARTY = """
[[characters]]
name = "Ann"
class = "fighter"
level = 2
hp = 9
ac = 15
stats = { STR = 1 }
[[characters]]
name = "Bo"
hp = 5
ac = 12
"""

if TYPE_CHECKING:
    from tests.integration.conftest import Tk


@pytest.fixture
def db(tmp_path: Path, tk: Tk) -> str:
    path = tmp_path / "party.toml"
    path.write_text(PARTY, encoding="utf-8")
    db = str(tmp_path / "campaigns.db")
    tk(db, "new", "Keep", "--ruleset", "pg", "--party", str(path), "--seed", "5")
    return db


def test_a_pg_fight_from_start_to_end_with_typed_dice(db: str, tk: Tk) -> None:
    # rule: PG-CBT-1, PG-INI-1, PG-ATK-2, PG-HP-1
    started = tk(
        db, "combat", "start", "--monster", "Goblin:hd=1,hp=3,ac=12,xp=10", "--surprise", "none"
    )
    assert texts(started)[0] == "combat: Ann, Bo against Goblin"
    rolled = tk(db, "combat", "round", "--dice", "5,2")
    # PG-TIME-1: the round's minute passes through the campaign's clock as it begins.
    assert texts(rolled)[:2] == ["round 1", "1m pass"]
    assert "initiative: party" in texts(rolled)[2]
    status = tk(db, "combat", "status")["combat"]
    assert status["order"] == [["Ann", "Bo"], ["Goblin"]] and status["seconds"] == 60
    tk(db, "combat", "declare", "Goblin", "attack", "Bo")
    tk(db, "combat", "declare", "Ann", "attack", "Goblin")
    # 11 + STR 1 + d20... Ann rolls 11 + 1 = 12 against AC 12: hits; d6 3 + STR 1 (fighter).
    # The goblin down, the fight "has been resolved" (PG-CBT-1): it ends in the same
    # command, and the treasure's d3 (3: 10 xp x 4 = 40 gp, PG-TRE-1) is rolled with it.
    resolved = tk(db, "combat", "resolve", "--dice", "11,3,3")
    lines = texts(resolved)
    assert lines[0] == "Ann attacks Goblin: 12 against AC 12, hits"
    assert lines[1] == "Goblin takes 4 damage (Ann): -1 hp, dead"
    assert lines[2] == "Goblin: is down and does not act"
    assert "party wins; treasure worth 40 gp" in lines[4]
    with pytest.raises(IllegalCommandError, match="no combat"):
        tk(db, "combat", "end")
    assert tk(db, "status")["now"] == 60  # one one-minute round (PG-TIME-1)


def test_refusals_exit_2_and_change_nothing(db: str, tk: Tk) -> None:
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=5,ac=12", "--surprise", "none")
    before = tk(db, "combat", "status")
    with pytest.raises(IllegalCommandError, match="no round is running"):
        tk(db, "combat", "declare", "Ann", "attack", "Orc")
    tk(db, "combat", "round", "--dice", "4,1")
    middle = tk(db, "combat", "status")
    with pytest.raises(IllegalCommandError, match="gives up the action"):
        tk(db, "combat", "declare", "Ann", "move_far", "--then", "attack:Orc")
    with pytest.raises(TurnkeeperError, match="unknown action 'dance'"):
        tk(db, "combat", "declare", "Ann", "dance")
    assert tk(db, "combat", "status") == middle != before
    result = runner.invoke(app, ["combat", "declare", "Zed", "attack", "--db", db])
    assert result.exit_code != 0


def test_simulate_fight_json_and_table(tmp_path: Path) -> None:
    foes, party = str(EXAMPLES / "foes.toml"), str(EXAMPLES / "fighters.toml")
    result = runner.invoke(
        app,
        [
            "simulate",
            "fight",
            "--ruleset",
            "cb",
            "--party",
            party,
            "--foes",
            foes,
            "--runs",
            "2000",
            "--seed",
            "1",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    total = data["party_wins"] + data["opposition_wins"] + data["both_down"] + data["unresolved"]
    assert abs(total - 1) < 1e-9 and data["runs"] == 2000
    assert sum(data["rounds"].values()) == 2000
    people = runner.invoke(
        app, ["simulate", "fight", "-r", "tp", "--party", party, "--foes", foes, "--runs", "500"]
    )
    assert people.exit_code == 0 and "wins" in people.stdout


def test_combat_round_after_attacks_by_hand_resolves_the_round_and_begins_the_next(
    db: str, tk: Tk
) -> None:
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10", "--surprise", "none")
    tk(db, "combat", "round", "--dice", "5,2")
    tk(db, "combat", "attack", "Ann", "Orc")
    out = tk(db, "combat", "round")
    assert [r["kind"] for r in out["records"]][:2] == ["combat.resolved", "combat.round"]
    tk(db, "combat", "declare", "Bo", "attack", "Orc")
    with pytest.raises(IllegalCommandError, match=r"declared actions to resolve \(Bo: attack"):
        tk(db, "combat", "round")


def test_status_tells_the_fights_round_and_order_and_forgets_it_once_over(db: str, tk: Tk) -> None:
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10", "--surprise", "none")
    tk(db, "combat", "round", "--dice", "5,2")
    tk(db, "combat", "attack", "Ann", "Orc")
    tk(db, "combat", "round")
    shown = tk(db, "status", as_json=False)
    assert "round 2, declaring" in shown and "acts first" in shown and "Orc" in shown
    tk(db, "combat", "end")
    tk(db, "wait", "3h")
    after = tk(db, "status", as_json=False)
    assert "round" not in after and "ended" not in after


def test_the_players_log_tells_hits_not_armour_class_and_forgets_undone_commands(
    db: str, tk: Tk
) -> None:
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10", "--surprise", "none")
    tk(db, "combat", "round", "--dice", "5,2")
    tk(db, "combat", "attack", "Ann", "Orc", "--dice", "15,3")
    tk(db, "note", "the orc's cousin watches", "--referee")
    tk(db, "note", "a wrong note")
    tk(db, "undo")
    people = tk(db, "log", "--player", as_json=False)
    assert "Ann attacks Orc" in people and "AC" not in people and "hp" not in people
    assert "cousin" not in people and "a wrong note" not in people and "undone" not in people
    referee = tk(db, "log", "--json")
    assert any(r["text"] == "a wrong note" and r["undone"] for r in referee)


def test_simulate_fight_plots_the_rounds_fights_take(tmp_path: Path) -> None:
    picture = tmp_path / "rounds.svg"
    done = runner.invoke(
        app,
        ["simulate", "fight", "--ruleset", "pg", "--party", str(EXAMPLES / "fighters.toml"),
         "--foes", str(EXAMPLES / "foes.toml"), "--runs", "500", "--plot", str(picture),
         "--json"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    drawn = picture.read_text(encoding="utf-8")
    assert "rounds of 500 fights under pg" in drawn and "median" in drawn


def test_pg_hp_1_healing_in_a_fight_brings_the_fallen_to_and_lasts_past_the_fight(
    db: str, tk: Tk
) -> None:
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10")
    tk(db, "combat", "round")
    tk(db, "damage", "Bo", "5", "--reason", "a club")  # Bo has 5 hp: 0, unconscious
    fallen = next(c for c in tk(db, "status")["combat"]["combatants"] if c["name"] == "Bo")
    assert "unconscious" in fallen["conditions"]
    healed = tk(db, "heal", "Bo", "1d4", "--dice", "3", "--reason", "a potion")
    (record,) = healed["records"]
    assert record["kind"] == "combat.healed" and record["data"]["hp_after"] == 3
    assert record["rolls"][0]["breakdown"] == "1d4 (3) = 3"
    back = next(c for c in tk(db, "status")["combat"]["combatants"] if c["name"] == "Bo")
    assert "unconscious" not in back["conditions"] and back["hp"] == 3
    assert tk(db, "heal", "Bo", "9")["records"][0]["data"]["hp_after"] == 5  # never above most
    tk(db, "combat", "end")
    assert {c["name"]: c["hp"] for c in tk(db, "party", "show")["characters"]}["Bo"] == 5


def _keep(tmp_path: Path, tk: Tk, ruleset: str) -> str:
    """A campaign of Ann (a fighter) and Bo under ``ruleset``."""
    path = tmp_path / "party.toml"
    path.write_text(PARTY, encoding="utf-8")
    db = str(tmp_path / f"{ruleset}.db")
    tk(db, "new", "Keep", "--ruleset", ruleset, "--party", str(path), "--seed", "5")
    return db


def _who(out: Any, name: str) -> dict[str, Any]:
    fighters: list[dict[str, Any]] = out["combat"]["combatants"]
    return next(c for c in fighters if c["name"] == name)


def test_cb_sur_1_initiative_is_rolled_when_the_surprise_round_ends(tmp_path: Path, tk: Tk) -> None:
    # rule: CB-SUR-1, CB-INI-1, CB-INI-2: the party sneaks up (d20 15 against the rat's 3),
    # has the surprise round to itself, then both sides roll 1d8 + best DEX: party 8, rat 1.
    db = _keep(tmp_path, tk, "cb")
    started = tk(db, "combat", "start", "--monster", "Rat:hd=1,hp=9,ac=12", "--attackers",
                 "party", "--dice", "15,3")  # fmt: skip
    assert "opposition surprised; party gets a free round" in texts(started)[1]
    surprise_round = tk(db, "combat", "round")
    assert "surprise round" in texts(surprise_round)[0]
    tk(db, "combat", "attack", "Ann", "Rat", "--dice", "2")
    rolled = tk(db, "combat", "round", "--dice", "8,1")
    settled = next(r for r in rolled["records"] if r["kind"] == "combat.initiative")
    assert settled["text"] == "initiative: party (party 8, opposition 1)"
    assert tk(db, "combat", "status")["combat"]["order"] == [["Ann", "Bo"], ["Rat"]]
    tk(db, "combat", "announce-done", "party")
    kept = tk(db, "combat", "round")  # CB-INI-2: the order holds, no dice
    assert "initiative: party" in texts(kept)[-1]


def test_cb_sur_1_the_surprised_take_no_instant_action_in_the_surprise_round(
    tmp_path: Path, tk: Tk
) -> None:
    # rule: CB-SUR-1 ("they get a full round of action to themselves"), CB-ACT-5
    db = _keep(tmp_path, tk, "cb")
    tk(db, "combat", "start", "--monster", "Rat:hd=1,hp=9,ac=12", "--surprise", "foes")
    tk(db, "combat", "round")
    with pytest.raises(IllegalCommandError, match="Rat is surprised and loses this round"):
        tk(db, "combat", "declare", "Rat", "instant")
    tk(db, "combat", "announce-done", "party")
    tk(db, "combat", "round", "--dice", "1,8")
    assert texts(tk(db, "combat", "declare", "Rat", "instant"))[0] == "Rat declares: instant"


def test_cb_sur_1_no_attackers_no_roll_and_aware_defenders_are_not_surprised(
    tmp_path: Path, tk: Tk
) -> None:
    # rule: CB-SUR-1: only the attackers' DEX/Sneak against WIS/Notice settles surprise; the
    # 2-in-6 of Playing the Game is not this text's.
    db = _keep(tmp_path, tk, "cb")
    started = tk(db, "combat", "start", "--monster", "Rat:hd=1,ac=12")
    surprise = started["records"][1]
    assert surprise["rolls"] == [] and surprise["data"]["surprised"] == []
    assert "no side named as the attackers" in surprise["text"]
    tk(db, "combat", "end", "--winner", "party")
    aware = tk(db, "combat", "start", "--monster", "Rat:hd=1,ac=12", "--attackers", "foes",
               "--aware", "party")  # fmt: skip
    assert aware["records"][1]["rolls"] == []
    assert "nobody is surprised (the party side is aware of the attackers)" in texts(aware)[1]


def test_cb_side_1_a_foes_files_allies_fight_on_the_partys_side(tmp_path: Path, tk: Tk) -> None:
    # rule: CB-SIDE-1: the player characters and their allies against the opposition.
    db = _keep(tmp_path, tk, "cb")
    foes = tmp_path / "foes.toml"
    foes.write_text(
        '[[allies]]\nname = "Cato"\nhp = 6\nac = 13\n\n[[foes]]\nname = "Rat"\nhd = 1\nac = 12\n',
        encoding="utf-8",
    )
    started = tk(db, "combat", "start", "--foes", str(foes), "--surprise", "none")
    assert texts(started)[0] == "combat: Ann, Bo, Cato against Rat"
    assert _who(tk(db, "combat", "status"), "Cato")["side"] == "party"
    tk(db, "combat", "end", "--winner", "party")
    again = tk(db, "combat", "start", "--monster", "Rat:hd=1,ac=12", "--ally", "Dog:hp=3,ac=11",
               "--surprise", "none")  # fmt: skip
    assert texts(again)[0] == "combat: Ann, Bo, Dog against Rat"


def test_one_attack_a_round_in_the_order_of_initiative(db: str, tk: Tk) -> None:
    # rule: PG-CBT-1, PG-MOV-1: one action a round; the side that won acts first. The
    # party wins 5 to 2: Ann attacks once, and the goblin waits for Bo.
    tk(db, "combat", "start", "--monster", "Goblin:hd=1,hp=9,ac=12", "--surprise", "none")
    tk(db, "combat", "round", "--dice", "5,2")
    first = tk(db, "combat", "attack", "Ann", "Goblin", "--dice", "1")
    with pytest.raises(IllegalCommandError, match="Ann takes one action a round, not 2"):
        tk(db, "combat", "attack", "Ann", "Goblin", "--dice", "1")
    with pytest.raises(IllegalCommandError, match="Bo acts before Goblin this round and has not"):
        tk(db, "combat", "attack", "Goblin", "Bo", "--dice", "1")
    tk(db, "combat", "declare", "Bo", "attack", "Goblin")
    with pytest.raises(IllegalCommandError, match=r"Bo has declared \(attack Goblin\)"):
        tk(db, "combat", "attack", "Bo", "Goblin", "--dice", "1")
    with pytest.raises(IllegalCommandError, match="Bo acts before Goblin this round and has dec"):
        tk(db, "combat", "attack", "Goblin", "Bo", "--dice", "1")
    assert texts(first) == ["Ann attacks Goblin: 2 against AC 12, misses"]  # d20 1 + STR 1
    assert tk(db, "combat", "status")["combat"]["acted"] == ["Ann"]
    tk(db, "combat", "declare", "Goblin", "attack", "Bo")
    resolved = texts(tk(db, "combat", "resolve", "--dice", "1,1"))
    assert resolved == ["Bo attacks Goblin: 1 against AC 12, misses",
                        "Goblin attacks Bo: 2 against AC 12, misses",
                        "the round is resolved"]  # fmt: skip


def test_tp_act_1_the_texts_four_different_things_in_one_round(tmp_path: Path, tk: Tk) -> None:
    # rule: TP-ACT-1, TP-ATK-1: "I take oil from my pouch and I throw it at the lizardmen
    # and I throw the torch in my hand in the puddle and I cower behind the Fighter" is four
    # different things. The throw is the one risky thing: d20 15 + WIS 0 beats AC 12, a d6
    # of 3; cowering behind Ann (the fighter) puts Bo in no melee.
    db = _keep(tmp_path, tk, "tp")
    tk(db, "combat", "start", "--monster", "Lizardman:hd=1,hp=8,ac=12,count=2",
       "--surprise", "none")  # fmt: skip
    tk(db, "combat", "round", "--dice", "3")  # the dungeon reacts: opponents have initiative
    declared = tk(db, "combat", "declare", "Bo", "other (take oil from my pouch)",
                  "--then", "ranged:Lizardman 1 (throw it at the lizardmen)",
                  "--then", "other (throw the torch in my hand in the puddle)",
                  "--then", "move:Ann (cower behind the Fighter)")  # fmt: skip
    assert texts(declared) == [
        "Bo declares: other (take oil from my pouch), then ranged Lizardman 1 (throw it at the "
        "lizardmen), then other (throw the torch in my hand in the puddle), then move Ann "
        "(cower behind the Fighter)"
    ]
    # "I attack the kobold twice with my dagger": one thing twice.
    twice = tk(db, "combat", "declare", "Ann", "attack", "Lizardman 2",
               "--then", "attack:Lizardman 2")  # fmt: skip
    assert "attack Lizardman 2, then attack Lizardman 2" in texts(twice)[0]
    with pytest.raises(IllegalCommandError, match="one thing 2 times"):
        tk(db, "combat", "declare", "Lizardman 1", "other (hiss)", "--then", "other (hiss)",
           "--then", "other (hiss)")  # fmt: skip
    tk(db, "combat", "announce-done", "foes")
    resolved = texts(tk(db, "combat", "resolve", "--dice", "1,1,15,3"))
    assert resolved[2:7] == [
        "Bo: other (take oil from my pouch)",
        "Bo shoots at Lizardman 1: 15 against AC 12, hits",
        "Lizardman 1 takes 3 damage (Bo): 5 hp",
        "Bo: other (throw the torch in my hand in the puddle)",
        "Bo moves to Ann, out of melee",
    ]
    status = tk(db, "combat", "status")
    assert _who(status, "Bo")["melee_with"] == [] and _who(status, "Ann")["melee_with"] == [
        "Lizardman 2"
    ]


def test_tp_init_both_sides_announce_whatever_order_they_are_typed_in(
    tmp_path: Path, tk: Tk
) -> None:
    # rule: TP-CBT-1 steps 4 and 5, TP-INI-1 face 5 (PCs have initiative): the referee types
    # the party's declaration first; it waits for the orc's, and neither is lost.
    db = _keep(tmp_path, tk, "tp")
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=20,ac=10", "--surprise", "none")
    tk(db, "combat", "round", "--dice", "5")
    ann = tk(db, "combat", "declare", "Ann", "attack", "Orc")
    orc = tk(db, "combat", "declare", "Orc", "attack", "Ann")
    assert texts(orc) == ["Orc declares: attack Ann"]
    assert texts(ann) == ["Ann declares: attack Orc (held until the other side has announced)"]
    tk(db, "combat", "announce-done", "party")  # Bo does nothing this round
    resolved = texts(tk(db, "combat", "resolve", "--dice", "12,2,1"))
    assert resolved[0] == "Ann attacks Orc: 13 against AC 10, hits"
    assert resolved[2] == "Orc attacks Ann: 1 against AC 15, misses"


def test_pg_sur_1_both_surprised_neither_loses_a_round_nor_stays_surprised(db: str, tk: Tk) -> None:
    # rule: PG-SUR-1: "If a side is surprised the other side gets a free round"; both are.
    started = tk(db, "combat", "start", "--monster", "Orc:hd=1,ac=10", "--surprise", "both")
    status = tk(db, "combat", "status")
    assert all("surprised" not in c["conditions"] for c in status["combat"]["combatants"])
    assert "party and opposition surprised, so neither loses a round" in texts(started)[1]


def test_pg_hp_1_the_dead_are_dead_not_unconscious(db: str, tk: Tk) -> None:
    # rule: PG-HP-1: Bo (level 1, 5 hp) falls unconscious at 0 and dies at -1.
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=20,ac=10", "--surprise", "none")
    tk(db, "damage", "Bo", "5")
    tk(db, "damage", "Bo", "1")
    assert _who(tk(db, "combat", "status"), "Bo")["conditions"] == ["dead"]
    tk(db, "combat", "end", "--winner", "foes")
    bo = next(c for c in tk(db, "party", "show")["characters"] if c["name"] == "Bo")
    assert bo["conditions"] == ["dead"]


def test_pg_mov_1_pg_has_no_instant_or_on_turn_actions(db: str, tk: Tk) -> None:
    # rule: PG-MOV-1: one action and a move near, or a move far; CB-ACT-4 and CB-ACT-5 are
    # the combat text's, not this one's.
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=20,ac=10", "--surprise", "none")
    tk(db, "combat", "round", "--dice", "5,2")
    with pytest.raises(IllegalCommandError, match="pg has no instant actions"):
        tk(db, "combat", "declare", "Ann", "instant")
    with pytest.raises(IllegalCommandError, match="pg has no on_turn actions"):
        tk(db, "combat", "declare", "Ann", "on-turn", "--then", "attack:Orc")


def test_tp_ini_2_one_felled_by_an_attack_at_once_still_acts_this_round(
    tmp_path: Path, tk: Tk
) -> None:
    # rule: TP-INI-2 ("everything happens at once ... resolve both attacks, then check who is
    # still standing"), TP-INI-1 face 2: the party announces first; Ann's attack at once
    # (20 + STR 1, a d6 of 3) drops the 1-hp orc, whose attack on Ann (16 against AC 15,
    # a d6 of 2) still lands this round.
    db = _keep(tmp_path, tk, "tp")
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=1,ac=12", "--surprise", "none")
    tk(db, "combat", "round", "--dice", "2")
    felled = tk(db, "combat", "attack", "Ann", "Orc", "--dice", "20,3")
    assert texts(felled)[1] == "Orc takes 3 damage (Ann): -2 hp, dead"
    tk(db, "combat", "declare", "Orc", "attack", "Ann")
    tk(db, "combat", "announce-done", "party")
    resolved = texts(tk(db, "combat", "resolve", "--dice", "16,2"))
    assert resolved[:2] == [
        "Orc attacks Ann: 16 against AC 15, hits",
        "Ann takes 2 damage (Orc): 7 hp",
    ]
    # Both blows resolved, the orc's side has nobody standing: the fight is over, and
    # Ann's wound is on the party's sheet (one truth for hit points, PG-HP-1).
    assert resolved[-1].startswith("combat over: party wins")
    party = tk(db, "status")["party"]["characters"]
    assert next(c for c in party if c["name"] == "Ann")["hp"] == 7
    with pytest.raises(IllegalCommandError, match="no combat"):
        tk(db, "combat", "round", "--dice", "5")


def test_pg_time_1_a_fights_time_passes_by_its_rounds_not_by_a_wait(db: str, tk: Tk) -> None:
    """A wait in a fight would run an exploring turn's checks and count as rest; the referee
    plays the fight's rounds (a minute each under pg), or ends it first."""
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10", "--surprise", "none")
    before = tk(db, "status")["version"]
    with pytest.raises(IllegalCommandError, match="a fight is running: its time passes round"):
        tk(db, "wait", "10m")
    assert tk(db, "status")["version"] == before
    tk(db, "combat", "end")
    assert tk(db, "wait", "10m")["version"] > before


def test_pg_hp_1_at_the_table_the_sheet_follows_the_blow_and_the_dead_are_out_of_reach(
    db: str, tk: Tk
) -> None:
    """PG-HP-1, PG-CBT-1 at the table: the orc's blow (18 + 1 against Bo's AC 12, a d6 of
    2) is on Bo's sheet at once (status and combat status read 3/5); a blow at Bo from Ann
    asks for --own-side; the dead goblin is no target; the orc felled, the fight is over."""
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=2,ac=10",
       "--monster", "Goblin:hd=1,hp=1,ac=10", "--surprise", "none")  # fmt: skip
    tk(db, "combat", "round", "--dice", "2,5")
    tk(db, "combat", "attack", "Orc", "Bo", "--dice", "18,2")
    sheet = next(c for c in tk(db, "status")["party"]["characters"] if c["name"] == "Bo")
    tracker = next(
        c for c in tk(db, "combat", "status")["combat"]["combatants"] if c["name"] == "Bo"
    )
    assert sheet["hp"] == tracker["hp"] == 3
    tk(db, "damage", "Goblin", "1")
    with pytest.raises(IllegalCommandError, match="Goblin is dead, out of the fight"):
        tk(db, "combat", "attack", "Ann", "Goblin")
    with pytest.raises(IllegalCommandError, match="Bo is on Ann's side"):
        tk(db, "combat", "attack", "Ann", "Bo")
    struck = tk(db, "combat", "attack", "Ann", "Bo", "--own-side", "--dice", "20,1")
    assert texts(struck)[0].startswith("Ann attacks Bo")
    felled = texts(tk(db, "damage", "Orc", "2"))
    assert felled[-1].startswith("combat over: party wins")
    with pytest.raises(IllegalCommandError, match="no combat"):
        tk(db, "combat", "status")


def test_pg_use_1_a_shot_rolls_the_arrows_usage_die_until_none_are_left(
    tmp_path: Path, tk: Tk
) -> None:
    """PG-USE-1: arrows are the text's first usage die, rolled "when a resource is used": Bea
    shoots at the Orc twice (`combat attack Bea Orc --ranged`), each shot a d20 of 2 (a
    miss) and the party's arrows' d4: 3 keeps the d4, 1 depletes it (said so); a third shot
    is refused, the party having none left; Aldo's sword needs no arrows."""
    db = str(tmp_path / "pg.db")
    party = Path(__file__).resolve().parents[2] / "examples" / "party.toml"
    tk(db, "new", "keep", "--ruleset", "pg", "--party", str(party), "--seed", "2")
    tk(db, "supply", "add", "arrows", "--die", "d4")
    tk(db, "combat", "start", "--monster", "Orc:hd=1,hp=30,ac=10", "--surprise", "none")
    tk(db, "combat", "round", "--dice", "5,2")
    first = tk(db, "combat", "attack", "Bea", "Orc", "--ranged", "--dice", "2,3")
    assert [r["kind"] for r in first["records"]] == ["combat.attack", "supply.usage_rolled"]
    assert first["records"][1]["text"] == "arrows used (Bea's shot): rolled 3, stays d4"
    tk(db, "combat", "round", "--dice", "5,2")
    second = tk(db, "combat", "attack", "Bea", "Orc", "--ranged", "--dice", "2,1")
    assert second["records"][1]["text"] == "arrows used (Bea's shot): rolled 1, depleted"
    tk(db, "combat", "round", "--dice", "5,2")
    with pytest.raises(IllegalCommandError, match="Bea has no arrows to shoot"):
        tk(db, "combat", "attack", "Bea", "Orc", "--ranged", "--dice", "2")
    swung = tk(db, "combat", "attack", "Aldo", "Orc", "--dice", "2")
    assert [r["kind"] for r in swung["records"]] == ["combat.attack"]
