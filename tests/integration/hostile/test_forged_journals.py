"""Forged journals (issue 38, "What to build" 1): an import proves what it reads. Each record
is held to what a command's result could be: its rolls agree with their dice and faces, its
numbers and texts within a command's limits, its ruleset and party as their files would be.

Each forgery is one refusal through the console script's own path (exit 2, one line, the
store's bytes unchanged), leaves no file behind when imported into a new ``--db``, and is
refused by the service too, nothing stored.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.integration.hostile.refusals import PARTY, digest, refused, refused_in

from turnkeeper.errors import TurnkeeperError
from turnkeeper.service import Campaigns
from turnkeeper.store.sql import SqlStore

Records = list[dict[str, Any]]


@pytest.fixture(scope="module")
def fought(tmp_path_factory: pytest.TempPathFactory, shell) -> Records:
    """The journal of a fight against a rat of 4 hp, wounded by 2d6 by hand, and a wound
    by hand out of the fight: ``damage`` rolls, a ``combat.damage`` and an ``hp.changed``."""
    db = str(tmp_path_factory.mktemp("forged") / "fight.db")
    for args in (
        ("new", "keep", "-r", "ex", "--party", PARTY, "--seed", "3"),
        ("damage", "Aldo", "1", "--reason", "a fall"),
        ("combat", "start", "--monster", "Rat:hd=1,hp=4,ac=12", "--surprise", "none"),
        ("damage", "Rat", "2d6", "--reason", "a trap"),
    ):
        said = shell(*args, "--db", db)
        assert said.code == 0, said.err
    return [json.loads(line) for line in shell("export", "--db", db).out.splitlines()]


def _one(records: Records, kind: str) -> dict[str, Any]:
    return next(r for r in records if r["kind"] == kind)


def _roll(records: Records) -> dict[str, Any]:
    roll: dict[str, Any] = _one(records, "combat.damage")["rolls"][0]
    assert roll["expression"] == "2d6" and len(roll["dice"]) == 2
    return roll


def _total_off(records: Records) -> None:
    _roll(records)["total"] += 1  # the breakdown and the dice say otherwise


def _nine_on_a_d6(records: Records) -> None:
    roll = _roll(records)
    other = roll["dice"][1][1]
    roll["dice"][0][1] = 9  # and the total and breakdown made to agree with it
    roll["total"] = 9 + other
    roll["breakdown"] = f"2d6 (9, {other}) = {9 + other}"


def _negative_blow(records: Records) -> None:
    data = _one(records, "combat.damage")["data"]
    data.update(amount=-1000, hp_after=1004, becomes=[])
    _one(records, "combat.damage")["rolls"] = []


def _heal_past_the_most(records: Records) -> None:
    data = _one(records, "hp.changed")["data"]  # Aldo, 12 of 14 hp, takes 1
    data.update(change=1000, hp=1012, status="ok")


def _long_note(records: Records) -> None:
    records.append(
        {"seq": len(records) + 1, "command": len(records) + 1, "at": records[-1]["at"],
         "kind": "note.made", "visibility": "party", "data": {"text": "x" * 10_001}, "rolls": []}
    )  # fmt: skip


def _escape_in_ruleset_name(records: Records) -> None:
    records[0]["data"]["ruleset"]["ruleset"]["name"] = "ex\x1b[2J"


def _no_stats(records: Records) -> None:
    records[0]["data"]["ruleset"]["stats"] = []


FORGERIES: dict[str, tuple[Callable[[Records], None], str]] = {
    "total": (_total_off, "its roll 2d6 does not agree with its dice (its dice make 2d6 ("),
    "d6-showing-9": (_nine_on_a_d6, "(a d6 shows 1 to 6, not 9)"),
    "damage-of-minus-1000": (_negative_blow, "data.amount: Input should be greater than or"),
    "heal-past-the-most": (_heal_past_the_most, "Aldo at 12 of 14 hp changes by 1000 to 1012"),
    "note-past-the-limit": (_long_note, "data.text: String should have at most 10000 char"),
    "escape-in-ruleset-name": (_escape_in_ruleset_name, "holds a control character, U+001B"),
    "ruleset-without-stats": (_no_stats, "'STR' is not one of the ruleset's stats (none)"),
}


def forged(records: Records, how: str, folder: Path) -> Path:
    """The journal ``records`` forged ``how``, written as JSON Lines."""
    changed = copy.deepcopy(records)
    FORGERIES[how][0](changed)
    path = folder / f"{how}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in changed), encoding="utf-8")
    return path


def test_the_journal_unforged_imports(fought: Records, tmp_path: Path, shell) -> None:
    """The journal the forgeries start from imports as it is: each refusal is its forgery's."""
    path = tmp_path / "keep.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in fought), encoding="utf-8")
    said = shell("import", str(path), "--db", str(tmp_path / "new.db"))
    assert said.code == 0, said.err


@pytest.mark.parametrize("how", list(FORGERIES))
def test_a_forged_record_is_refused_and_leaves_no_store(
    fought: Records, tmp_path: Path, shell, db: str, how: str
) -> None:
    """One line, exit 2; into the store: nothing stored; into a new --db: no file left."""
    path = forged(fought, how, tmp_path)
    said = FORGERIES[how][1]
    assert said in refused_in(shell, db, "import", str(path), "--name", "copy")
    new = tmp_path / "deeper" / "new.db"
    (tmp_path / "deeper").mkdir()
    assert said in refused(shell, [], "import", str(path), "--db", str(new))
    assert sorted(p.name for p in (tmp_path / "deeper").iterdir()) == []


@pytest.mark.parametrize("how", list(FORGERIES))
def test_the_service_refuses_a_forged_record(fought: Records, tmp_path: Path, how: str) -> None:
    """The service's import (the HTTP API's and the CLI's) refuses each, storing nothing."""
    file = tmp_path / "tk.db"
    store = SqlStore(f"sqlite:///{file}")
    try:
        campaigns = Campaigns(store)
        text = forged(fought, how, tmp_path).read_text(encoding="utf-8")
        before = digest(file)
        with pytest.raises(TurnkeeperError, match=r".") as refusal:
            campaigns.import_jsonl(text, name="copy")
        assert FORGERIES[how][1] in str(refusal.value)
        assert store.campaigns() == [] and digest(file) == before
    finally:
        store.close()


def test_a_50_mb_note_is_one_short_line(fought: Records, tmp_path: Path, shell, db: str) -> None:
    """A note of 50 MB (commands stop at 10,000 characters) is refused in one line that
    names it, not printed back whole; nothing stored, no new store left."""
    records = copy.deepcopy(fought)
    _long_note(records)
    records[-1]["data"]["text"] = "x" * 50_000_000
    path = tmp_path / "huge.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    line = refused_in(shell, db, "import", str(path), "--name", "copy")
    assert "String should have at most 10000 characters" in line and len(line) < 1000
    new = tmp_path / "new.db"
    refused(shell, [], "import", str(path), "--db", str(new))
    assert not any(Path(f"{new}{end}").exists() for end in ("", "-wal", "-shm", "-journal"))


def test_a_journal_refused_for_any_reason_leaves_no_new_store(tmp_path: Path, shell) -> None:
    """A refusal found after the store was opened (a line that is no record) removes the
    store file the import made, with its companions; the folder it was given stays."""
    path = tmp_path / "broken.jsonl"
    path.write_text('{"seq": 1}\n', encoding="utf-8")
    new = tmp_path / "new.db"
    refused(shell, [], "import", str(path), "--db", str(new), words=("line 1",))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.jsonl"]


def test_a_ruleset_file_without_the_stats_it_names_is_refused(tmp_path: Path, shell) -> None:
    """`rules check` holds a ruleset file to what an import holds its journal's to: the stats
    its procedures read by name (attack.melee_stat...) are among its stats."""
    rules = tmp_path / "nostats.toml"
    rules.write_text('extends = "ex"\nstats = []\n', encoding="utf-8")
    line = refused(shell, [rules], "rules", "check", str(rules))
    assert "'STR' is not one of the ruleset's stats (none)" in line
    rules.write_text('extends = "ex"\nstats = ["MIGHT"]\n', encoding="utf-8")
    assert "attack.melee_stat" in refused(shell, [rules], "rules", "check", str(rules))
