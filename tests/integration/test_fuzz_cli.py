"""Hostile input through the CLI's front door (issue 16): no traceback, no hang, no change on
refusal.

Hypothesis builds hostile party, site, map, ruleset, foes, knowledge and journal files (a
valid example with one value replaced by something hostile: deep nesting, a wrong type, a
huge or negative number, NaN, markup and control characters; or its bytes broken: not
UTF-8, cut short), hostile dice strings, durations, names and numbers, and runs each as a
command line through ``cli.app.invoke`` in process. Every run must end in exit 0 or in one
``error:`` line with exit 2 that leaves the store as it was (the campaign list and every
exported journal). The safety net (``internal error``, exit 70) is a failure here, and so is
an example that hangs: the deadline of a minute is a hang guard, not a speed claim (on a busy
machine an example took 8 s; on an idle one it takes well under one). Derandomised, so a run
is the same on every machine.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable, Iterator
from datetime import timedelta
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from turnkeeper.world.generate import generate_map
from turnkeeper.world.mapfile import map_to_data

EXAMPLES = files("turnkeeper.examples")
PARTY = str(EXAMPLES / "party.toml")

FUZZ = settings(
    max_examples=10,
    deadline=timedelta(seconds=60),
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


class Raw(str):
    """Text written into a file as it is, not as a TOML or JSON value (deep nesting, digits)."""


# --- writing hostile documents ---------------------------------------------------------------


def toml_value(value: Any) -> str:
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return (
        "{" + ", ".join(f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    )


def toml_text(data: dict[str, Any]) -> str:
    return "".join(f"{json.dumps(key)} = {toml_value(value)}\n" for key, value in data.items())


def json_value(value: Any) -> str:
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, list):
        return "[" + ", ".join(json_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{json.dumps(str(k))}: {json_value(v)}" for k, v in value.items())
            + "}"
        )
    return json.dumps(value)


def paths(data: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in a document a value sits, the document itself first."""
    yield at
    children = (
        data.items()
        if isinstance(data, dict)
        else enumerate(data)
        if isinstance(data, list)
        else ()
    )
    for key, child in children:
        yield from paths(child, (*at, key))


def replaced(data: Any, at: tuple[Any, ...], value: Any) -> Any:
    if not at:
        return value
    copy = dict(data) if isinstance(data, dict) else list(data)
    copy[at[0]] = replaced(copy[at[0]], at[1:], value)
    return copy


# --- hostile values --------------------------------------------------------------------------

MARKUP = [
    "[/oops]",
    "[bold]x[/bold]",
    "[link=file:///etc/passwd]y",
    "\x1b[2J",
    "a\nb",
    "\x00",
    "\u202e",
]


def deep(depth: int, opener: str) -> Raw:
    closer = {"[": "]", "{a = ": "}", '{"a": ': "}"}[opener]
    middle = "" if opener == "[" else "1"
    return Raw(opener * depth + middle + closer * depth)


scalars = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 2**63 - 1, 2**63, -(2**63) - 1, 10**30]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=12),
    st.sampled_from(MARKUP),
    st.integers(min_value=150, max_value=50_000).map(lambda n: "x" * n),
    st.integers(min_value=4000, max_value=6000).map(lambda n: Raw("9" * n)),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=6,
)


def nested(opener: str) -> st.SearchStrategy[Raw]:
    return st.integers(min_value=60, max_value=5000).map(lambda depth: deep(depth, opener))


@st.composite
def hostile_document(draw: st.DrawFn, base: dict[str, Any], fmt: str) -> bytes:
    """One hostile variant of a valid document, as file bytes."""
    way = draw(st.sampled_from(["value", "value", "nesting", "bytes", "cut"]))
    if way in ("value", "nesting"):
        at = draw(st.sampled_from(list(paths(base))[1:]))
        opener = "[" if fmt == "toml" else '{"a": '
        value = draw(values if way == "value" else nested(draw(st.sampled_from(["[", opener]))))
        data = replaced(base, at, value)
        return (toml_text(data) if fmt == "toml" else json_value(data)).encode(
            "utf-8", "surrogatepass"
        )
    text = (toml_text(base) if fmt == "toml" else json_value(base)).encode("utf-8")
    cut = draw(st.integers(min_value=0, max_value=len(text)))
    if way == "cut":
        return text[:cut]
    return text[:cut] + draw(st.binary(min_size=1, max_size=4)) + text[cut:]


# --- the stores and the check ----------------------------------------------------------------


@pytest.fixture(scope="module")
def place(tmp_path_factory: pytest.TempPathFactory, shell) -> Callable[[str], Path]:
    """``place(label)``: a folder with its own store holding ``keep`` (ex, the example party)
    and ``scenes`` (dg, current), made on first use, so one test's successes never steer
    another's."""
    made: dict[str, Path] = {}

    def folder(label: str) -> Path:
        if label not in made:
            where = tmp_path_factory.mktemp(label)
            db = str(where / "tk.db")
            for name, ruleset in (("keep", "ex"), ("scenes", "dg")):
                said = shell(
                    "new", name, "-r", ruleset, "--party", PARTY, "--seed", "1", "--db", db
                )
                assert said.code == 0, said.err
            made[label] = where
        return made[label]

    return folder


Survives = Callable[..., None]


@pytest.fixture(scope="module")
def survives(shell) -> Survives:
    """``survives(db, *args)``: the command ends in exit 0, or in one error line (exit 2) that
    changed nothing in the store ``db``.

    What a store held after a refusal is kept as what it holds before the next command, not
    read again: only this module's commands touch its stores, and that refusal was checked to
    leave it as it was. After an exit 0 it is read afresh. (A store's reading, its campaign
    list and every journal exported, was two thirds of this module's time.)"""
    kept: dict[str, tuple[str, ...]] = {}

    def run(db: str, *args: str) -> None:
        before = kept.pop(db, None) or shell.store(db)
        said = shell(*args)
        assert "Traceback" not in said.err and "internal error" not in said.err, (
            args[:4],
            said.err,
        )
        assert said.code in (0, 2), (args[:4], said.code, said.err)
        if said.code == 2:
            assert len(said.err.strip().splitlines()) == 1, said.err
            assert said.err.startswith("error: "), said.err
            after = shell.store(db)
            assert after == before, args[:4]
            kept[db] = after

    return run


# --- the files -------------------------------------------------------------------------------


@cache
def base(kind: str) -> dict[str, Any]:
    if kind in ("party", "site", "foes"):
        return tomllib.loads((EXAMPLES / f"{kind}.toml").read_text(encoding="utf-8"))
    if kind == "map":
        return map_to_data(generate_map(6, 4, seed=1))
    if kind == "ruleset":
        return {
            "extends": "ex",
            "time": {"turn_minutes": 10, "calendar_start": "1-01-01T08:00"},
            "rest": {"active_turns": 5},
            "usage_die": [12, 10, 8, 6, 4],
            "light": {"sources": {"torch": {"turns": 3, "radius_ft": 30, "supply": "torches"}}},
        }
    if kind == "knowledge":
        return {"party_at": "0101", "known": ["0101", "0201"], "found_features": ["village-1"]}
    raise AssertionError(kind)


def commands(kind: str, file: Path, where: Path) -> list[list[str]]:
    db = ["--db", str(where / "tk.db")]
    return {
        "party": [["new", "fuzzed", "-r", "ex", "--party", str(file), *db]],
        "site": [["site", "enter", str(file), "-c", "keep", *db]],
        "map": [
            ["map", "check", str(file), *db],
            ["map", "load", str(file), "--at", "0101", "-c", "keep", *db],
        ],
        "ruleset": [
            ["rules", "check", str(file), *db],
            ["new", "fuzzed", "-r", str(file), "--solo", *db],
        ],
        "foes": [["combat", "start", "--foes", str(file), "-c", "keep", *db]],
        "knowledge": [
            [
                "map",
                "show",
                "--map",
                str(_map_file(where)),
                "--known",
                str(file),
                "--out",
                str(where / "x.svg"),
                *db,
            ]
        ],
    }[kind]


def _map_file(where: Path) -> Path:
    file = where / "wild.json"
    if not file.exists():
        file.write_text(json.dumps(base("map")), encoding="utf-8")
    return file


FILES = [("party", "toml"), ("site", "toml"), ("map", "toml"), ("map", "json"), ("ruleset", "toml"),
         ("foes", "toml"), ("knowledge", "json")]  # fmt: skip


@pytest.mark.parametrize(("kind", "fmt"), FILES)
@FUZZ
@given(data=st.data())
def test_a_hostile_file_is_read_or_refused_cleanly(
    survives: Survives, place, kind: str, fmt: str, data: st.DataObject
) -> None:
    where = place(f"{kind}-{fmt}")
    file = where / f"fuzzed.{fmt}"
    file.write_bytes(data.draw(hostile_document(base(kind), fmt)))
    for command in commands(kind, file, where):
        survives(str(where / "tk.db"), *command)


@FUZZ
@given(data=st.data())
def test_a_hostile_journal_is_imported_or_refused_cleanly(
    shell, survives: Survives, place, data: st.DataObject
) -> None:
    where = place("journal")
    db = str(where / "tk.db")
    records = [
        json.loads(line) for line in shell("export", "-c", "keep", "--db", db).out.splitlines()
    ]
    index = data.draw(st.integers(min_value=0, max_value=len(records) - 1))
    record = data.draw(hostile_document(records[index], "json"))
    lines = [json.dumps(r).encode() for r in records]
    lines[index] = record.replace(b"\n", b" ")
    file = where / "fuzzed.jsonl"
    file.write_bytes(b"\n".join(lines) + b"\n")
    survives(db, "import", str(file), "--name", "imported", "--db", db)


# --- text on the command line ----------------------------------------------------------------

DICE = st.one_of(
    st.text(alphabet="d0123456789+-*/()khlre%!<>x ,.F", max_size=60),
    st.sampled_from(
        [
            "+" * 40,
            "(" * 240 + "1" + ")" * 240,
            "d" + "9" * 5000,
            "1d6e1" * 40,
            "-" * 40 + "1",
            "9" * 30 + "d6",
            "d0",
            "0d6",
            "d6" * 300,
            "[/oops]",
        ]
    ),
)


@FUZZ
@given(expression=DICE)
def test_hostile_dice_notation_is_rolled_or_refused_cleanly(
    survives: Survives, place, expression: str
) -> None:
    db = str(place("dice") / "tk.db")
    survives(db, "roll", "--", expression)
    survives(db, "odds", "--json", "--", expression)


DURATIONS = st.one_of(
    st.text(alphabet="0123456789 smhdwturnsoaechx,-", max_size=40),
    st.builds(
        lambda digits, unit: digits + unit,
        st.integers(min_value=0, max_value=10**40).map(str) | st.just("9" * 5000),
        st.sampled_from(["", "s", "m", "h", "d", "w", " turns", " watches", " rounds", " months"]),
    ),
)


@FUZZ
@given(duration=DURATIONS)
def test_hostile_durations_wait_or_are_refused_cleanly(
    survives: Survives, place, duration: str
) -> None:
    db = str(place("durations") / "tk.db")
    survives(db, "wait", duration, "-c", "keep", "--db", db)


NAMES = st.one_of(
    st.text(max_size=30),
    st.sampled_from(MARKUP),
    st.integers(min_value=190, max_value=100_000).map(lambda n: "n" * n),
)


@FUZZ
@given(name=NAMES)
def test_hostile_names_are_kept_as_written_or_refused_cleanly(
    survives: Survives, place, name: str
) -> None:
    where = place("names")
    db = str(where / "tk.db")
    survives(db, "new", name, "-r", "ex", "--solo", "--db", db)
    survives(
        db,
        "countdown",
        "add",
        name,
        "--type",
        "short",
        "--length",
        "4",
        "-c",
        "scenes",
        "--db",
        db,
    )
    survives(db, "note", name, "-c", "scenes", "--db", db)
    for reading in (["log"], ["status"], ["countdown", "list"]):
        survives(db, *reading, "-c", "scenes", "--db", db)
    survives(db, "campaigns", "--db", db)


NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, -1, 2**63, 10**30]),
).map(str) | st.just("9" * 5000)


@FUZZ
@given(number=NUMBERS)
def test_hostile_numbers_on_the_command_line_are_refused_cleanly(
    survives: Survives, place, number: str
) -> None:
    where = place("numbers")
    db = str(where / "tk.db")
    for command in (
        ["rest", "--turns", number, "-c", "keep"],
        ["light", "--set-turns", number, "-c", "keep"],
        ["countdown", "tick", "none", "--ticks", number, "-c", "scenes"],
        ["log", "--since", number, "-c", "keep", "--json"],
        ["new", "numbered", "-r", "ex", "--solo", "--seed", number],
    ):
        survives(db, *command, "--db", db)
    out = str(where / "m.toml")
    survives(db, "map", "new", "--width", number, "--height", "3", "--seed", "1", "--out", out)
    survives(db, "map", "new", "--width", "3", "--height", "3", "--seed", number, "--out", out)
    survives(db, "odds", "turn", "-r", "ex", "--turns", number, "--json")
