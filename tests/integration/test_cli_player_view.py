"""The CLI's player view goes through the same filter as the web's: no seed, no secrets."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tests.integration.conftest import Tk


def test_log_for_players_keeps_lines_and_rolls_never_the_seed_or_referee_events(
    tk: Tk, tmp_path: Path
) -> None:
    db = str(tmp_path / "keep.db")
    tk(db, "new", "keep", "--ruleset", "ex", "--solo", "--seed", "424242")
    tk(db, "site", "enter", "examples/site.toml")
    tk(db, "turn")
    tk(db, "turn", "--dice", "6")  # turn 2 makes the referee's wandering check (EX-ENC-1)
    referee = tk(db, "log")
    players = tk(db, "log", "--player")
    assert any(r["visibility"] == "referee" for r in referee)
    assert "424242" in json.dumps(referee)
    assert "424242" not in json.dumps(players)
    assert all("data" not in r for r in players)
    assert {r["seq"] for r in players} < {r["seq"] for r in referee}
    assert "wandering check" not in json.dumps(players)


PARTY = '[[characters]]\nname = "Aldo"\nhp = 40\nac = 12\n[supplies]\ntorches = 2\n'
OGRE = "Ogre:hd=7,hp=83,ac=37,damage=3d11"
#: What ``log --player`` must never show: foe stats and a light's turns left.
SECRET = re.compile(r"\bAC \d|\bHD \d|-?\d+ hp\b|3d11|\d+ against|\d+ turns?\b|last turn")


def _lair(tk: Tk, tmp_path: Path) -> str:
    db = str(tmp_path / "lair.db")
    party = tmp_path / "party.toml"
    party.write_text(PARTY, encoding="utf-8")
    tk(db, "new", "lair", "--ruleset", "ex", "--seed", "3", "--party", str(party))
    tk(db, "light", "torch")
    tk(db, "wait", "2 turns")  # the torch is on its last turn (EX-LIGHT-1)
    tk(db, "combat", "start", "--monster", OGRE, "--surprise", "none")
    tk(db, "combat", "round")
    tk(db, "combat", "attack", "Aldo", "Ogre")
    tk(db, "combat", "attack", "Ogre", "Aldo")
    return db


def _words(records: list[dict[str, Any]]) -> str:
    return "\n".join(
        " ".join([r["text"], *(x if isinstance(x, str) else x["breakdown"] for x in r["rolls"])])
        for r in records
    )


def test_log_for_players_shows_no_foe_stats_and_no_light_turns(tk: Tk, tmp_path: Path) -> None:
    """What the characters perceive: the ogre is attacked, the torch gutters."""
    db = _lair(tk, tmp_path)
    referee, players = _words(tk(db, "log")), _words(tk(db, "log", "--player"))
    assert SECRET.search(referee), "the referee's log should carry the stats and turns"
    assert not SECRET.findall(players), SECRET.findall(players)
    assert "Aldo attacks Ogre: misses" in players
    assert "the torch gutters" in players
