"""A fight of a field's size, not a census (issue 22): a foes file of 200,000 foes took over
35 s to start a fight and a simulation asked for 37 GiB. A roster and a fight hold at most
1,000 combatants; beyond, one line, the store unchanged."""

from __future__ import annotations

from pathlib import Path

from tests.integration.hostile.refusals import PARTY, refused_in

ORC = '[[foes]]\nname = "Orc {}"\nhp = 4\nac = 10\n'


def test_a_roster_of_more_than_1000_combatants_is_one_line(shell, db: str, tmp_path: Path) -> None:
    # Reading the file is the test's cost: the fight gets 20 times the limit, and simulate, the
    # one that once asked for 37 GiB, the whole 200,000 that a roster read in full would need.
    band, horde = tmp_path / "band.toml", tmp_path / "horde.toml"
    band.write_text("".join(ORC.format(i) for i in range(20_000)), encoding="utf-8")
    horde.write_text("".join(ORC.format(i) for i in range(200_000)), encoding="utf-8")
    line = refused_in(shell, db, "combat", "start", "--foes", str(band))
    assert "more than 1,000 combatants by foes[1000]" in line
    said = shell("simulate", "fight", "-r", "pg", "--party", PARTY, "--foes", str(horde))
    assert said.code == 2 and "a roster holds at most 1,000" in said.err


def test_a_fight_of_more_than_1000_combatants_is_one_line(shell, db: str) -> None:
    line = refused_in(
        shell, db, "combat", "start",
        "--monster", "Orc:hp=4,ac=10,count=1000", "--monster", "Goblin:hp=3,ac=10,count=1000",
    )  # fmt: skip
    assert "combatants: a fight holds at most 1,000" in line
