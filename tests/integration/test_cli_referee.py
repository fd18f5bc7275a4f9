"""CLI as a referee plays it: the README's "At the table" block, weapon damage from the party
file, and refusals that say one thing on one line and change nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.party import PartyFileError, parse_party

from .conftest import texts

if TYPE_CHECKING:
    from tests.integration.conftest import Tk

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture
def keep(tmp_path: Path, tk: Tk) -> str:
    """The README's campaign: keep under ex, the example party, seed 3, in the example site."""
    db = str(tmp_path / "campaigns.db")
    tk(db, "new", "keep", "--ruleset", "ex", "--party", str(EXAMPLES / "party.toml"), "--seed", "3")
    tk(db, "site", "enter", str(EXAMPLES / "site.toml"))
    tk(db, "light", "torch")
    tk(db, "turn", "--mode", "cautious")
    return db


def test_readme_at_the_table_fight_starts_from_the_pending_encounter(keep: str, tk: Tk) -> None:
    # rule: EX-ENC-1, EX-SUR-1, EX-REST-2: the README's typed-in turn meets 5 giant rats
    turn = tk(keep, "turn", "--mode", "cautious", "--dice", "1,1,3,2,4,4,2,3")
    assert any("5 giant rats" in t for t in texts(turn))
    started = tk(keep, "combat", "start")
    assert texts(started)[0].startswith("combat: Aldo, Bea against giant rats 1, giant rats 2")
    tk(keep, "combat", "round", "--dice", "6,1")  # the party acts first (PG-INI-1's d6 a side)
    hit = tk(keep, "combat", "attack", "Aldo", "giant rats 1")
    assert texts(hit)[0].startswith("Aldo attacks giant rats 1")
    ended = tk(keep, "combat", "end")
    assert "the encounter ends after a fight" in texts(ended)
    status = tk(keep, "status")
    assert status["site"]["encounter"] is None and status["rest"]["due_at"] is not None
    tk(keep, "rest")
    tk(keep, "turn", "--mode", "cautious")  # exploring goes on: no `site resume` needed


def test_combat_start_with_no_foes_and_no_encounter_is_refused(keep: str, tk: Tk) -> None:
    with pytest.raises(IllegalCommandError, match="name the foes"):
        tk(keep, "combat", "start")


def test_a_surprised_character_cannot_attack_in_the_surprise_round(keep: str, tk: Tk) -> None:
    # rule: EX-SUR-3 (a running party is always surprised), CB-SUR-1: it loses the free round
    tk(keep, "turn", "--mode", "running", "--dice", "1,1,3,2,4,4,2,3")
    tk(keep, "combat", "start")
    before = tk(keep, "status")["version"]
    began = tk(keep, "combat", "round")
    with pytest.raises(IllegalCommandError, match="Aldo is surprised and loses this round"):
        tk(keep, "combat", "attack", "Aldo", "giant rats 1")
    # only the round's own records (its start and the time it takes) are in the journal
    assert tk(keep, "status")["version"] == before + len(began["records"])


PARTY = """
[[characters]]
name = "Ann"
class = "fighter"
hp = 9
ac = 15
stats = {{ STR = 2 }}
damage = "{damage}"
"""


def test_pg_atk_2_a_fighter_strikes_with_the_party_files_weapon_plus_str(
    tmp_path: Path, tk: Tk
) -> None:
    # rule: PG-ATK-2: damage by the weapon's die, plus STR for fighters
    party = tmp_path / "party.toml"
    party.write_text(PARTY.format(damage="1d8"), encoding="utf-8")
    db = str(tmp_path / "c.db")
    tk(db, "new", "k", "--ruleset", "pg", "--party", str(party), "--seed", "1")
    tk(db, "combat", "start", "--monster", "Ogre:hd=4,hp=30,ac=5", "--surprise", "none")
    tk(db, "combat", "round", "--dice", "5,2")
    out = tk(db, "combat", "attack", "Ann", "Ogre", "--dice", "15,7")
    assert texts(out)[1].startswith("Ogre takes 9 damage")  # d8 shows 7, + STR 2
    assert "1d8 (7)" in str(out["records"][1])


def test_party_damage_is_checked_on_load() -> None:
    assert parse_party(PARTY.format(damage="d10+1")).characters[0].damage == "d10+1"
    assert parse_party('[[characters]]\nname = "A"\nhp = 1').characters[0].damage == "d6"
    with pytest.raises(PartyFileError, match=r"party.toml: characters\[0\].damage: dice"):
        parse_party(PARTY.format(damage="d7x"), "party.toml")
    with pytest.raises(PartyFileError, match="names STR"):
        parse_party(PARTY.format(damage="d6+STR"), "party.toml")


def _shell(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    code = "import sys; from turnkeeper.cli.app import main; sys.argv[0] = 'turnkeeper'; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args, "--db", db],
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("wait", "-3h"), "time only runs forward"),
        (("wait", "banana"), "cannot read duration 'banana'"),
        (("wait", "--nope"), "no such option: --nope (see `turnkeeper wait --help`)"),
        (("new", "other"), "Missing option '--ruleset'"),
        (("turn", "--nope"), "No such option: --nope"),
        (("countdown", "tick", "smoke"), "no countdown called 'smoke'"),
    ],
)
def test_a_mistake_is_one_line_exit_2_and_changes_nothing(
    keep: str, tk: Tk, args: tuple[str, ...], said: str
) -> None:
    before = tk(keep, "status")["version"]
    done = _shell(keep, *args)
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert tk(keep, "status")["version"] == before
