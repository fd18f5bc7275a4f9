"""The small ones of issue 38's attacker's run: switching to the party run now is said in words,
what a party did in a cleared area or hex is printable text, look-alike party names are one
name, and a delete with no terminal to ask on is one refusal that says to pass --yes.

Each refusal: exit 2, one ``error:`` line, no traceback, the store unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.integration.hostile.refusals import SITE, refused_apart, refused_in

CAFE = "Caf\u00e9"  # composed: é is one code point
CAFE_DECOMPOSED = "Cafe\u0301"  # e, then the combining acute accent


def _ok(shell, *args: str) -> str:
    said = shell(*args)
    assert said.code == 0, said.err
    return said.out


def _parties(shell, db: str) -> list[str]:
    status = json.loads(_ok(shell, "status", "--db", db, "--json"))
    return [status["party_name"], *(p["name"] for p in status.get("away", []))]


def test_switching_to_the_party_run_now_is_said_in_words(shell, db: str) -> None:
    _ok(shell, "party", "split", "Grey Band", "Bea", "--db", db)
    _ok(shell, "party", "switch", "Grey Band", "--db", db)
    line = refused_in(shell, db, "party", "switch", "Grey Band")
    assert "Grey Band is the party run now" in line
    assert "SwitchParty" not in line and "changes nothing now" not in line


@pytest.mark.parametrize(
    "name",
    [CAFE_DECOMPOSED, f"{CAFE} ", f" {CAFE}", CAFE.upper(), f"{CAFE_DECOMPOSED}  "],
)
def test_a_look_alike_party_name_is_the_same_name(shell, db: str, name: str) -> None:
    _ok(shell, "party", "split", CAFE, "Bea", "--db", db)
    line = refused_in(shell, db, "party", "split", name, "Aldo")
    assert "is already in the world" in line
    # and the look-alike finds the party it looks like
    _ok(shell, "party", "switch", name, "--db", db)
    status = json.loads(_ok(shell, "status", "--db", db, "--json"))
    assert CAFE in json.dumps(status, ensure_ascii=False)


def test_a_new_party_name_is_kept_composed_and_trimmed(shell, db: str) -> None:
    _ok(shell, "party", "split", f" {CAFE_DECOMPOSED} ", "Bea", "--db", db)
    _ok(shell, "party", "switch", CAFE, "--db", db)
    exported = _ok(shell, "export", "--db", db)
    assert f'"name":"{CAFE}"' in exported and CAFE_DECOMPOSED not in exported


@pytest.mark.parametrize("what", ["slew \x1b[31mthe ghouls", "slew\nthe ghouls", "a\tb"])
def test_what_a_party_did_in_a_site_is_printable_text(shell, db: str, what: str) -> None:
    _ok(shell, "site", "enter", SITE, "--db", db)
    line = refused_in(shell, db, "site", "clear", "1", "--what", what)
    assert "--what" in line and "control character" in line


@pytest.mark.parametrize("what", ["slew \x1b[31mthe dragon", "slew\r\nthe dragon"])
def test_what_a_party_did_in_a_hex_is_printable_text(
    tmp_path: Path, shell, db: str, what: str
) -> None:
    wild = tmp_path / "wild.toml"
    _ok(shell, "map", "new", "--width", "4", "--height", "4", "--seed", "1", "--out", str(wild))
    _ok(shell, "map", "load", str(wild), "--at", "0101", "--db", db)
    line = refused_in(shell, db, "map", "clear", "--what", what)
    assert "--what" in line and "control character" in line


def test_what_a_party_did_is_still_taken_in_plain_words(shell, db: str) -> None:
    _ok(shell, "site", "enter", SITE, "--db", db)
    _ok(shell, "site", "clear", "1", "--what", "slew  the ghouls in", "--db", db)
    assert "slew the ghouls in" in _ok(shell, "export", "--db", db)


def test_a_delete_with_no_terminal_to_ask_on_is_one_refusal(db: str) -> None:
    line = refused_apart([db], "campaigns", "delete", "keep", "--db", db)
    assert "no terminal to ask on" in line and "--yes" in line


def test_roll_of_nothing_is_one_refusal(shell) -> None:
    assert "empty dice expression" in refused_in(shell, None, "roll", "")
    assert "ends too soon" in refused_in(shell, None, "roll", "(" * 300 + "1d6" + ")" * 3)
