"""The five shipped presets: each loads, and carries the numbers of its seed text."""

from __future__ import annotations

from fractions import Fraction
from importlib.resources import files

import pytest

from turnkeeper.rules.loader import preset, presets
from turnkeeper.rules.schema import FaceEvent, Side

PRESETS = ["cb", "dg", "ex", "pg", "tp"]


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_loads_and_names_its_text(name: str) -> None:
    rules = preset(name)
    assert rules.name == name
    assert rules.ruleset.prefix == name.upper()
    assert rules.ruleset.text and not rules.ruleset.text.endswith(".txt")  # by its title
    header = (files("turnkeeper.rules") / "presets" / f"{name}.toml").read_text()
    # the header comment names the rules text, the prefix of its rule IDs and the reference
    assert header.splitlines()[1].startswith('# Rules text: "')
    assert f"Rule IDs: {name.upper()}-" in header
    assert "docs/rules.md" in header and "turnkeeper rules explain" in header


def test_presets_lists_all_five() -> None:
    assert [(info.name, info.prefix) for info in presets()] == [
        ("cb", "CB"),
        ("dg", "DG"),
        ("ex", "EX"),
        ("pg", "PG"),
        ("tp", "TP"),
    ]


def test_tp_time_1_time_scales() -> None:
    time = preset("tp").time
    assert (time.round_seconds, time.turn_minutes, time.watch_hours) == (10, 10, 4)
    assert time.day_hours == 24 and time.month_days == 30


def test_ex_time_1_pg_time_1_dg_rnd_1_cb_rnd_1_time_scales() -> None:
    assert preset("ex").time.turn_minutes == 10  # EX-TIME-1
    assert (preset("pg").time.turn_minutes, preset("pg").time.round_seconds) == (
        10,
        60,
    )  # PG-TIME-1
    dg = preset("dg").time  # DG-RND-1: 6 s; exploration 2 min..8 h; social 1..10 min
    assert dg.round_seconds == 6
    assert 2 <= dg.exploration_round_minutes <= 8 * 60
    assert 1 <= dg.social_round_minutes <= 10
    assert preset("cb").time.round_seconds == 6  # CB-RND-1


def faces(die_name: str) -> list[FaceEvent]:
    die = preset("tp").dice[die_name]
    return [die.faces[number].event for number in range(1, 7)]


def test_tp_enc_1_encounter_die_faces() -> None:
    assert faces("encounter") == [
        FaceEvent.ENCOUNTER,
        FaceEvent.ENVIRONMENT,
        FaceEvent.FORCED_REST,
        FaceEvent.WANING_RESOURCES,
        FaceEvent.FREE_TURN,
        FaceEvent.GOOD_ENCOUNTER,
    ]


def test_tp_dun_1_and_tp_dun_2_dungeon_die() -> None:
    assert faces("dungeon") == [
        FaceEvent.ENCOUNTER,
        FaceEvent.DUNGEON_ROUSES,
        FaceEvent.WANING_RESOURCES,  # TP-DUN-2: face 3 as TP-ENC-1 face 4
        FaceEvent.FORCED_REST,  # TP-DUN-2: face 4 as TP-ENC-1 face 3
        FaceEvent.SLUMBER,
        FaceEvent.GOOD_ENCOUNTER,
    ]
    tp = preset("tp")
    assert tp.dungeon.procedure == "overloaded" and tp.dungeon.check_every_turns == 1
    # TP-DUN-2: movement borrowed from EX-MOV-1..3
    ex_modes = preset("ex").dungeon.movement
    assert tp.dungeon.movement["cautious"] == ex_modes["cautious"]
    assert tp.dungeon.movement["swift"] == ex_modes["swift"]
    assert tp.dungeon.movement["running"].surprise == "always"
    assert tp.dungeon.movement["cautious"].feet_per_turn == 120
    assert tp.dungeon.movement["swift"].feet_per_turn == 360
    assert tp.light.burns == "waning_face"  # TP-ENC-2
    assert all(source.turns is None for source in tp.light.sources.values())


def test_tp_ini_1_initiative_faces_carry_the_side() -> None:
    die = preset("tp").dice["initiative"]
    sides = [die.faces[n].initiative for n in range(1, 7)]
    assert sides == [Side.OPPOSITION] * 3 + [Side.PARTY] * 3
    assert die.faces[6].event is FaceEvent.SECOND_WIND


def test_tp_wenc_4_and_tp_wenc_3_wilderness_die() -> None:
    assert faces("wilderness") == [
        FaceEvent.ENCOUNTER,
        FaceEvent.HIDDEN_SITE,
        FaceEvent.WANING_RESOURCES,
        FaceEvent.WEATHER_CHANGE,
        FaceEvent.FREE_TURN,
        FaceEvent.GOOD_ENCOUNTER,
    ]
    milieus = preset("tp").dice["wilderness"].milieus
    assert milieus["desert"][5].event is FaceEvent.WANING_RESOURCES
    assert milieus["civilisation"][5].event is FaceEvent.GOOD_ENCOUNTER
    assert milieus["night_camp"][2].event is FaceEvent.ENCOUNTER


def test_tp_wil_1_tp_wil_3_tp_wil_4_travel_numbers() -> None:
    travel = preset("tp").travel
    assert travel.travel_points_per_day == 4  # TP-WIL-1
    assert travel.movement_points_per_tp == 1  # TP-WIL-2
    assert (travel.max_movement_factor, travel.impassable_factor) == (2, 2)  # TP-WIL-7, -8
    half = Fraction(1, 2)
    assert travel.party == {  # TP-WIL-3
        "on_foot": 1,
        "mounted": 2,
        "carriage": half,
        "over_20": half,
        "over_50": half,
    }
    # TP-WIL-3: over 50 people gets both halvings, x1/4 in all
    assert travel.party["over_20"] * travel.party["over_50"] == Fraction(1, 4)
    # TP-WIL-5: mounted escorting a carriage, 1 hex per TP
    assert travel.party["mounted"] * travel.party["carriage"] == 1
    terrain = {k: v for k, v in travel.terrain.items() if k != "water"}
    assert terrain == {  # TP-WIL-4
        "plains": 1,
        "hills": Fraction(2, 3),
        "marsh": half,
        "swamp": half,
        "forest": half,
        "woods": half,
        "mountains": Fraction(1, 4),
        "high_mountains": 0,
    }
    assert travel.roads == {"road": 2, "trail": Fraction(3, 2)}
    assert travel.weather == {
        "clear": 1,
        "rain": half,
        "light_snow": half,
        "heavy_snow": Fraction(1, 4),
    }
    assert set(travel.vessels) == {"river_boat", "sailing_ship", "flying_mount"}  # TP-WIL-9
    assert set(preset("tp").lost.chance_in_six) <= set(travel.terrain)  # TP-LOST-1


def test_tp_atk_1_and_tp_mag_1_numbers() -> None:
    tp = preset("tp")
    assert (tp.attack.melee_stat, tp.attack.ranged_stat, tp.attack.hits) == ("STR", "WIS", "above")
    assert (tp.magic.die, tp.actions.economy, tp.actions.max_different_things) == (6, "tp", 4)


def test_ex_light_1_and_ex_light_2_light_sources() -> None:
    sources = preset("ex").light.sources
    assert (sources["torch"].turns, sources["torch"].radius_ft) == (3, 30)  # EX-LIGHT-1
    assert (sources["lamp"].turns, sources["lamp"].radius_ft) == (6, 10)  # EX-LIGHT-2


def test_ex_enc_and_ex_mov_and_ex_rest_numbers() -> None:
    ex = preset("ex")
    dungeon = ex.dungeon
    assert (dungeon.check_every_turns, dungeon.check_die, dungeon.encounter_chance) == (2, 6, 1)
    assert dungeon.tumult_chance == 2 and dungeon.encounter_distance == "2d4x10"
    running = dungeon.movement["running"]
    assert running.feet_per_turn is None and not running.map_use and running.halts_at_doors
    assert (running.surprise, running.encounter_chance_in_six) == ("always", 3)
    assert dungeon.movement["cautious"].surprise == "never"
    assert (ex.rest.active_turns, ex.rest.rest_turns) == (5, 1)  # EX-REST-1
    assert (ex.rest.wearied_skill, ex.rest.wearied_to_hit) == (-2, -4)  # EX-REST-3
    assert (ex.surprise.method, ex.surprise.both_difficulty) == ("movement", 9)  # EX-SUR-4


def test_pg_use_1_usage_die_chain() -> None:
    assert preset("pg").usage_die == [12, 10, 8, 6, 4]


def test_pg_numbers() -> None:
    pg = preset("pg")
    assert (pg.surprise.method, pg.surprise.chance_in_six) == ("in_six", 2)  # PG-SUR-1
    assert (pg.initiative.die, pg.initiative.ties) == ("d6", "simultaneous")  # PG-INI-1
    assert (pg.attack.hits, pg.attack.monster_bonus_per_hd, pg.attack.ranged_stat) == (
        "at_or_above",
        1,
        "DEX",
    )  # PG-ATK-2
    assert (pg.actions.max_coins, pg.actions.heavy_coins) == (3000, 1000)  # PG-MOV-2
    assert (pg.hit_points.heal_per_day, pg.saves.monster_target) == (1, "19-HD")
    assert pg.treasure_multiplier == "1d3+1"  # PG-TRE-1


def test_dg_cd_1_and_dg_fcd_1_countdowns() -> None:
    dg = preset("dg")
    types = dg.countdowns.types
    assert {name: t.abbreviation for name, t in types.items()} == {
        "rapid": "RC",
        "short": "SC",
        "day": "DC",
        "generic": "GC",
    }
    assert types["rapid"].ticks_on == ["combat_round", "social_round"]
    assert types["generic"].ticks_on == []
    assert types["rapid"].rank < types["short"].rank < types["day"].rank  # DG-CD-2
    assert dg.countdowns.failure_outcomes == {
        "failure": (0, 2),
        "partial": (1, 1),
        "success": (1, 0),
        "greater": (2, 0),
    }
    assert dg.spotlight.enabled and dg.spotlight.tokens_each == 3  # DG-SPOT-2
    assert dg.dread.enabled and dg.dread.compromise_margin == 2  # DG-DREAD-1


def test_cb_ini_1_and_cb_sur_1_numbers() -> None:
    cb = preset("cb")
    assert (cb.initiative.die, cb.initiative.ties, cb.initiative.reroll_each_round) == (
        "1d8+DEX",
        "party",
        False,
    )
    assert (cb.surprise.method, cb.surprise.stealth_skill, cb.surprise.notice_skill) == (
        "opposed",
        "Sneak",
        "Notice",
    )
    assert cb.surprise.morale_when_surprised  # CB-SUR-2
    assert (cb.actions.economy, cb.actions.move_feet) == ("cb", 30)  # CB-ACT-3


@pytest.mark.parametrize("name", ["tp", "ex", "pg", "cb"])
def test_pg_rea_1_reaction_table_is_shared(name: str) -> None:
    assert preset(name).tables["reaction"] == preset("pg").tables["reaction"]
