"""Hostile names and files (issue 22, "What to build" 4): names are printable text on every
path in, nothing a user typed reaches the terminal as an escape sequence, unknown keys in
every file kind are refused with the near name, and every documented limit is checked on
every path in.

Each refusal goes through the console script's own path (``cli.app.invoke``, in process):
exit 2, one line on stderr that says what is wrong, no traceback, and the store's bytes
hashed before and after.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.integration.hostile.refusals import FOES, PARTY, SITE, refused_in

ESCAPE = "Ab\x1b]0;pwned\x07bey"  # retitles an xterm: OSC 0 ... BEL


# --- names: printable text on every path in --------------------------------------------------


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("keep\u200b", "U+200B"),  # sits beside keep and looks the same
        ("k\u202eeep", "U+202E"),  # a right-to-left override reorders what is shown
    ],
)
def test_a_campaign_name_that_is_not_printable_text_is_refused(
    shell, db: str, name: str, what: str
) -> None:
    line = refused_in(shell, db, "new", name, "-r", "ex", "--party", PARTY)
    assert what in line


# --- what reaches the terminal ---------------------------------------------------------------


def test_a_note_with_an_escape_is_shown_without_it(shell, db: str) -> None:
    said = shell("note", "the door \x1b[31mreddens\x1b[0m\x9b2J", "--db", db)
    assert said.code == 0, said.err
    shown = shell("log", "--db", db)
    assert "the door [31mreddens[0m2J" in shown.out
    assert "\x1b" not in shown.out and "\x9b" not in shown.out


def test_no_verb_at_all_is_one_line_on_stderr(shell) -> None:
    line = refused_in(shell, None)
    assert "no verb given" in line and "turnkeeper --help" in line
    assert "no verb given" in refused_in(shell, None, "site")


def test_a_path_holding_a_new_line_is_refused_on_one_line(tmp_path: Path, shell, db: str) -> None:
    line = refused_in(shell, db, "site", "enter", str(tmp_path / "two\nlines.toml"))
    assert "two\\nlines.toml" in line


def _with(tmp_path: Path, source: str, old: str, new: str, name: str) -> str:
    """A copy of the example file ``source`` with ``old`` replaced by ``new``; its path."""
    text = Path(source).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(path)


def _toml(text: str) -> str:
    """``text`` as a TOML basic string's inside: controls written as escapes."""
    return "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text)


def _file_refused(tmp_path: Path, shell, db: str, kind: str, old: str, new: str) -> str:
    """The example ``kind`` file (site, party or foes) with ``old`` written as ``new``, read by
    its verb: the refusal's line."""
    source = {"site": SITE, "party": PARTY, "foes": FOES}[kind]
    path = _with(tmp_path, source, old, new, f"{kind}.toml")
    command = {
        "site": ["site", "enter", path],
        "party": ["new", "other", "-r", "ex", "--party", path],
        "foes": ["combat", "start", "--foes", path],
    }[kind]
    return refused_in(shell, db, *command)


@pytest.mark.parametrize(
    ("kind", "old", "new", "key", "what"),
    [
        ("site", 'name = "The Sunken Abbey"', f'name = "{_toml(ESCAPE)}"', "site.name", "U+001B"),
        ("site", 'name = "The Cloister"', 'name = "The\\u200bCloister"', "levels.0.name", "U+200B"),
        ("site", 'key = "1"', 'key = "1\\u202e"', "levels.0.areas.0.key", "U+202E"),
        ("party", 'name = "Bea"', f'name = "{"B" * 10_000}"', "characters[1].name", "200"),
        ("party", 'name = "Bea"', 'name = "B\\u001b[31mea"', "characters[1].name", "U+001B"),
        ("foes", 'name = "Goblin"', 'name = "Gob\\u200blin"', "foes[0]: name", "U+200B"),
    ],
    ids=["site-escape", "level-zero-width", "area-key-rtl", "party-long", "party-escape", "foe"],
)
def test_a_name_in_a_file_that_is_not_printable_text_is_refused(
    tmp_path: Path, shell, db: str, kind: str, old: str, new: str, key: str, what: str
) -> None:
    line = _file_refused(tmp_path, shell, db, kind, old, new)
    assert f"{tmp_path / f'{kind}.toml'}: {key}" in line and what in line
    assert "\x1b" not in line


def test_a_map_and_its_features_are_named_in_printable_text(tmp_path: Path, shell, db: str) -> None:
    made = tmp_path / "wild.toml"
    assert (
        shell("map", "new", "--width", "4", "--height", "3", "--seed", "7", "--out", str(made)).code
        == 0
    )
    text = made.read_text(encoding="utf-8")
    named = tmp_path / "named.toml"
    named.write_text(
        text.replace("name = ", 'name = "Wild\\u001b]0;x\\u0007" #', 1), encoding="utf-8"
    )
    line = refused_in(shell, db, "map", "load", str(named), "--at", "0101")
    assert f"{named}: name" in line and "U+001B" in line
    feature = tmp_path / "feature.toml"
    feature.write_text(
        text + '\n[[hexes]]\nat = "0202"\nfeatures = [{ id = "f1", name = "Tow\\u2066er" }]\n',
        encoding="utf-8",
    )
    line = refused_in(shell, db, "map", "load", str(feature), "--at", "0101")
    assert "features[0].name" in line and "U+2066" in line


def test_a_ruleset_name_that_is_not_printable_text_is_refused(
    tmp_path: Path, shell, db: str
) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text('extends = "ex"\n[ruleset]\nname = "ex\\u001b[2J"\n', encoding="utf-8")
    line = refused_in(shell, db, "new", "other", "-r", str(rules), "--party", PARTY)
    assert f"{rules}: ruleset.name" in line and "U+001B" in line


def test_a_countdown_scene_player_or_sought_feature_must_be_a_printable_name(
    tmp_path: Path, shell
) -> None:
    db = str(tmp_path / "dg.db")
    assert shell("new", "crypt", "-r", "dg", "--party", PARTY, "--db", db).code == 0
    line = refused_in(
        shell, db, "countdown", "add", "flood\u200b", "--type", "short", "--length", "4"
    )
    assert "countdown name" in line and "U+200B" in line
    line = refused_in(shell, db, "scene", "open", "combat", "--players", "Aldo,B\x1b[31mea")
    assert "player name" in line and "U+001B" in line
    line = refused_in(shell, db, "combat", "start", "--monster", "Og\u202ere:hd=2")
    assert "U+202E" in line


def test_search_for_an_over_long_name_is_refused(tmp_path: Path, shell, db: str) -> None:
    made = tmp_path / "wild.toml"
    assert (
        shell("map", "new", "--width", "4", "--height", "3", "--seed", "7", "--out", str(made)).code
        == 0
    )
    assert shell("map", "load", str(made), "--at", "0101", "--db", db).code == 0
    line = refused_in(shell, db, "search", "--for", "x" * 10_000)
    assert "names are at most 200 characters" in line


# --- unknown keys: refused in every file kind, with the near name ---------------------------


@pytest.mark.parametrize(
    ("kind", "old", "new", "said"),
    [
        (
            "party",
            "hp = 12",
            "coinz = 3\nhp = 12",
            "characters[0].coinz: unknown key 'coinz'; did you mean 'coins'?",
        ),
        (
            "party",
            "[[characters]]",
            'leaderz = "Aldo"\n[[characters]]',
            "leaderz: unknown key 'leaderz'; did you mean 'leader'?",
        ),
        ("site", 'kind = "', 'kinds = "', "site.kinds: unknown key 'kinds'; did you mean 'kind'?"),
        (
            "foes",
            "hd = 1",
            "hdd = 1\nhd = 1",
            "foes[0]: hdd: unknown key 'hdd'; did you mean 'hd'?",
        ),
    ],
    ids=["party-character", "party-top", "site", "foes"],
)
def test_an_unknown_key_is_refused_with_the_near_name(
    tmp_path: Path, shell, db: str, kind: str, old: str, new: str, said: str
) -> None:
    assert said in _file_refused(tmp_path, shell, db, kind, old, new)


def test_an_unknown_key_in_a_map_ruleset_or_knowledge_file_names_the_near_key(
    tmp_path: Path, shell, db: str
) -> None:
    made = tmp_path / "wild.toml"
    shell("map", "new", "--width", "3", "--height", "3", "--seed", "1", "--out", str(made))
    typo = tmp_path / "typo.toml"
    typo.write_text(made.read_text().replace("width", "widht = 3\nwidth", 1))
    line = refused_in(shell, db, "map", "load", str(typo), "--at", "0101")
    assert "widht: unknown key 'widht'; did you mean 'width'?" in line
    rules = tmp_path / "rules.toml"
    rules.write_text('extends = "ex"\n[time]\nturn_minutez = 3\n')
    line = refused_in(shell, db, "new", "other", "-r", str(rules), "--party", PARTY)
    assert "time.turn_minutez: unknown key 'turn_minutez'; did you mean 'turn_minutes'?" in line
    known = tmp_path / "known.json"
    known.write_text('{"party_at": "0101", "knwn": ["0101"]}')
    line = refused_in(
        shell,
        db,
        "map",
        "show",
        "--map",
        str(made),
        "--known",
        str(known),
        "--out",
        str(tmp_path / "m.svg"),
    )
    assert "unknown key 'knwn'; did you mean 'known'?" in line


# --- an imported journal keeps the documented limits -----------------------------------------


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("seed", "seed -1: a seed is a whole number from 0"),
        (200 * 365 * 86400, "record 2 (clock.advanced): passes 6,307,200,000 s at once"),
        (2**63 - 1, "a wait passes at most 100 years"),
    ],
    ids=["negative-seed", "200-years", "2^63-seconds"],
)
def test_an_imported_journal_beyond_a_limit_is_refused(
    tmp_path: Path, shell, db: str, change: object, said: str
) -> None:
    exported = shell("export", "-c", "keep", "--db", db).out
    first = json.loads(exported.splitlines()[0])
    records = [first]
    if change == "seed":
        first["data"]["seed"] = -1
    else:
        records.append(
            {"seq": 2, "command": 2, "at": change, "kind": "clock.advanced", "visibility": "party",
             "data": {"to": change, "seconds": change}, "rolls": []}
        )  # fmt: skip
    journal = tmp_path / "keep.jsonl"
    journal.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    assert said in refused_in(shell, db, "import", str(journal), "--name", "copy")


# --- texts and labels within their limits on every path in -----------------------------------


def test_a_map_note_or_a_text_past_the_limit_and_an_overlong_area_label_are_refused(
    shell, db: str
) -> None:
    """A map note of 10,001 characters, a reason of 10,001 and an area label of 201 are
    each one line, the store unchanged: every text a command takes is bounded in the command
    table, whichever door it came by, and an area label is a name."""
    assert shell("site", "enter", SITE, "--db", db).code == 0
    line = refused_in(shell, db, "site", "map", "note", "x" * 10_001)
    assert "10,001 characters; a text is at most 10,000" in line
    line = refused_in(shell, db, "damage", "Aldo", "1", "--reason", "y" * 10_001)
    assert "reason: 10,001 characters" in line
    line = refused_in(shell, db, "site", "map", "note", "a cold draught", "--area", "z" * 201)
    assert "area 'zzzz...' is 201 characters long" in line


def test_an_imported_scene_event_without_its_scene_is_one_line(shell, tmp_path: Path) -> None:
    """A journal changed by hand so that a spotlight is taken in no scene (its opening cut
    out) is refused naming the record, not an internal error; nothing is imported."""
    db = str(tmp_path / "dg.db")
    assert shell("new", "s1", "-r", "dg", "--party", PARTY, "--seed", "1", "--db", db).code == 0
    assert shell("scene", "open", "exploration", "--players", "ana,bo,cy", "--db", db).code == 0
    said = shell("scene", "spotlight", "--vote", "ana=bo", "--vote", "cy=bo", "--db", db)
    assert said.code == 0
    exported = shell("export", "--db", db).out.splitlines()
    spotlight = json.loads(exported[2]) | {"seq": 2, "command": 2}
    cut = tmp_path / "cut.jsonl"
    cut.write_text(exported[0] + "\n" + json.dumps(spotlight) + "\n", encoding="utf-8")
    line = refused_in(shell, db, "import", str(cut), "--name", "s2")
    assert "record 2 (scene.spotlight_taken) cannot follow the records before it" in line
