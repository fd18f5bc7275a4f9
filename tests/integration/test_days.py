"""Days pass one way (issue 39, "Days that pass"): at the table, every command that passes days
out of a site eats the day's meal at its hour, heals by its night, and burns no light nor
counts dungeon turns.

The party of examples/party.toml: Aldo at 12 of 14 hp, Bea at 4 of 4; 7 rations, 7 water,
6 torches, 2 oil. The day's meal (``days.meal``) is a ration and a water each, at 18:00
(``days.meal_hour``, DEFAULT).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .conftest import Shell

EXAMPLES = Path(__file__).parents[2] / "examples"
PARTY = str(EXAMPLES / "party.toml")
VALE = """
name = "Vale"
width = 2
height = 2
terrain = ["pp", "pp"]
"""


def _new(shell: Shell, folder: Path, ruleset: str) -> str:
    db = str(folder / f"{ruleset}.db")
    said = shell("new", "Keep", "--ruleset", ruleset, "--party", PARTY, "--seed", "39", "--db", db)
    assert said.code == 0, said.err
    return db


def _run(shell: Shell, db: str, *args: str) -> list[dict[str, Any]]:
    said = shell(*args, "--db", db, "--json")
    assert said.code == 0, said.err
    records: list[dict[str, Any]] = json.loads(said.out)["records"]
    return records


def _status(shell: Shell, db: str) -> dict[str, Any]:
    said = shell("status", "--db", db, "--json")
    assert said.code == 0, said.err
    status: dict[str, Any] = json.loads(said.out)
    return status


def _hp(status: dict[str, Any]) -> list[int]:
    return [c["hp"] for c in status["party"]["characters"]]


def _fed(records: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    """Who ate each day's meal (it rides on the first food spent, a day's upkeep)."""
    return [tuple(r["data"]["fed"]) for r in records if r["data"].get("fed")]


def _when(records: list[dict[str, Any]], words: str) -> list[str]:
    return [r["date"][-5:] for r in records if words in r["text"]]


def test_tp_time_2_wait_49d_eats_the_days_meals_and_heals_by_the_nights(
    shell: Shell, tmp_path: Path
) -> None:
    """TP-TIME-2, PG-HEAL-1 (ex): `wait 49d` was "7w pass", no meal, no water, no healing.
    Now: 3 whole meals (6 rations, 6 water), the 4th reaches Aldo alone (1 and 1 left), 45
    hungry days after; Aldo heals the first two nights, 12 to 14."""
    db = _new(shell, tmp_path, "ex")
    records = _run(shell, db, "wait", "49d")
    assert _fed(records) == [("Aldo", "Bea")] * 3 + [("Aldo",)]  # who ate, by the rations
    assert [r["text"] for r in records if "the day's meal" in r["text"]][6:12] == [
        "1 ration spent (the day's meal)",
        "short of rations for the day's meal: needed 2, had 1",
        "1 water spent (the day's meal)",
        "short of water for the day's meal: needed 2, had 1",
        "short of rations for the day's meal: needed 2, had 0",
        "short of water for the day's meal: needed 2, had 0",
    ]
    assert len(_when(records, "short of rations")) == 46  # the 4th meal and 45 hungry days
    assert set(_when(records, "the day's meal")) == {"18:00"}
    assert _when(records, "Aldo heals 1") == ["08:00", "08:00"]
    status = _status(shell, db)
    assert status["supplies"]["counted"]["rations"] == 0
    assert status["supplies"]["counted"]["water"] == 0
    assert _hp(status) == [14, 4]


def test_tp_time_2_a_ride_off_the_map_sent_as_its_party_eats_its_own_food(
    shell: Shell, tmp_path: Path
) -> None:
    """`wait 30d --as "Oracle Ride"` ate nothing. Aldo rides with 3 rations and 3 water: three
    meals, then 27 hungry days; the Company at home is not moved."""
    db = _new(shell, tmp_path, "ex")
    _run(
        shell,
        db,
        "party",
        "split",
        "Oracle Ride",
        "Aldo",
        "--take",
        "rations=3",
        "--take",
        "water=3",
    )
    records = _run(shell, db, "wait", "30d", "--as", "Oracle Ride")
    assert _fed(records) == [("Aldo",)] * 3
    assert len(_when(records, "short of rations for the day's meal: needed 1, had 0")) == 27
    ride = next(p for p in _status(shell, db)["away"] if p["name"] == "Oracle Ride")
    assert ride["supplies"]["counted"]["rations"] == 0
    assert ride["party"]["characters"][0]["hp"] == 14  # two fed nights: 12, 13, 14
    assert _status(shell, db)["supplies"]["counted"]["rations"] == 4  # the Company's, untouched


def test_tp_time_2_party_forward_eats_at_the_meals_hour_and_tells_a_part_day_in_hours(
    shell: Shell, tmp_path: Path
) -> None:
    """`party forward` over 5 days ate a ration a day stamped at 08:00 ("the evening meal" at
    08:00); a lag of 1 h 50 min was "spends 1 day in town"; 2 days 20 min were "3 days"."""
    db = _new(shell, tmp_path, "ex")
    _run(
        shell,
        db,
        "party",
        "split",
        "Oracle Ride",
        "Aldo",
        "--take",
        "rations=6",
        "--take",
        "water=6",
    )
    _run(shell, db, "wait", "5d")
    records = _run(shell, db, "party", "forward", "--as", "Oracle Ride")
    assert [r["text"] for r in records if r["kind"] == "party.downtime"] == [
        "Oracle Ride spends 5 days in town"
    ]
    assert _fed(records) == [("Aldo",)] * 5
    assert _when(records, "1 ration spent") == ["18:00"] * 5
    _run(shell, db, "wait", "2d20m")
    told = _run(shell, db, "party", "forward", "--as", "Oracle Ride")
    assert told[1]["text"] == "Oracle Ride spends 2 days and 20m in town"
    # two meals: the Ride's 6th ration, then none (short of rations: needed 1, had 0)
    assert _fed(told) == [("Aldo",)]
    assert len(_when(told, "short of rations for the day's meal: needed 1, had 0")) == 1


def test_ex_light_1_downtime_burns_no_lamp_and_wearies_nobody_in_town(
    shell: Shell, tmp_path: Path
) -> None:
    """EX-LIGHT-2, EX-REST-1: `party forward` ran dungeon turns in town: the lamp burnt down
    and the party ended wearied. A lag of 1 h 50 min is told as hours; the lamp is put out,
    the oil it took spent once (2 to 1)."""
    db = _new(shell, tmp_path, "ex")
    _run(shell, db, "party", "split", "Oracle Ride", "Aldo", "--take", "oil=2")
    _run(shell, db, "light", "lamp", "--as", "Oracle Ride")
    _run(shell, db, "wait", "1h50m")
    records = _run(shell, db, "party", "forward", "--as", "Oracle Ride")
    texts = [r["text"] for r in records]
    assert "Oracle Ride spends 1h50m in town" in texts
    assert "the lamp goes out (put out: days pass out of a site): darkness" in texts
    assert not [t for t in texts if "wearied" in t or "burnt out" in t or "lamp burns" in t]
    ride = next(p for p in _status(shell, db)["away"] if p["name"] == "Oracle Ride")
    assert ride["light"]["source"] is None and ride["supplies"]["counted"]["oil"] == 1


def test_tp_enc_2_camps_off_and_on_the_map_eat_by_the_die_alike(
    shell: Shell, tmp_path: Path
) -> None:
    """TP-ENC-2: the overloaded die replaces fixed resource durations. Three off-map camps
    with Free Turn dice ate three rations while a camp on the map ate nothing: now neither
    eats (7 rations, 7 water) and both nights heal alike (PG-HEAL-1's night, tp's
    hit_points): Aldo 12, 13, 14."""
    db = _new(shell, tmp_path, "tp")
    for _ in range(2):
        records = _run(shell, db, "camp", "--dice", "5")
        assert not [r for r in records if r["kind"] == "supply.used"]
    assert _hp(_status(shell, db)) == [14, 4]
    _run(shell, db, "damage", "Aldo", "2")
    path = tmp_path / "vale.toml"
    path.write_text(VALE, encoding="utf-8")
    _run(shell, db, "map", "load", str(path), "--at", "0000")
    _run(shell, db, "camp", "--dice", "5,5")
    status = _status(shell, db)
    assert status["supplies"]["counted"]["rations"] == 7
    assert status["supplies"]["counted"]["water"] == 7
    assert _hp(status) == [13, 4]


def test_pg_heal_1_a_nights_camp_on_a_wilderness_map_eats_and_heals(
    shell: Shell, tmp_path: Path
) -> None:
    """PG-HEAL-1 sets no place: a meal and an uninterrupted night give 1 hp on the map as off
    it. A camp on the map neither ate nor healed; now 2 rations, 2 water, Aldo 12 to 13."""
    db = _new(shell, tmp_path, "pg")
    path = tmp_path / "vale.toml"
    path.write_text(VALE, encoding="utf-8")
    _run(shell, db, "map", "load", str(path), "--at", "0000")
    records = _run(shell, db, "camp")
    assert _fed(records) == [("Aldo", "Bea")]
    assert _when(records, "2 rations spent (the day's meal)") == ["18:00"]
    status = _status(shell, db)
    assert status["supplies"]["counted"]["rations"] == 5
    assert status["supplies"]["counted"]["water"] == 5
    assert _hp(status) == [13, 4]
