"""The project's own rule reference (turnkeeper.rules.reference) and docs/rules.md.

The reference must not drift from the project: every rule ID a test names has an entry,
and every preset key, module and test an entry names exists (a test must still name the
rule). docs/rules.md is the reference's Markdown, byte for byte. And no shipped file
points outside the repository for its rules.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from turnkeeper.errors import NotFoundError
from turnkeeper.rules import Ruleset, preset, presets
from turnkeeper.rules.reference import (
    REGENERATE,
    RULE_ID,
    RuleEntry,
    entry_fields,
    entry_lines,
    find_rule,
    markdown,
    preset_value,
    preset_values,
    rule_reference,
    rules_of,
)

ROOT = Path(__file__).resolve().parents[3]
TESTS = ROOT / "tests"
REFERENCE = rule_reference()
PREFIXES = "|".join(REFERENCE.texts)
#: A rule ID of one of the texts, as the tests write it (the catalogue's shape).
NAMED = re.compile(rf"\b(?:{PREFIXES})-[A-Z]+-\d+\b")


def _test_files() -> list[Path]:
    return sorted(
        path
        for path in TESTS.rglob("*")
        if path.is_file() and path.suffix in {".py", ".toml", ".md", ".json", ".feature"}
    )


def _ids_named_in_tests() -> set[str]:
    named: set[str] = set()
    for path in _test_files():
        named |= set(NAMED.findall(path.read_text(encoding="utf-8", errors="replace")))
    return named


def test_every_rule_id_the_tests_name_has_an_entry() -> None:
    missing = sorted(_ids_named_in_tests() - set(REFERENCE.rules))
    assert not missing, (
        f"rule IDs named in tests with no entry in src/turnkeeper/rules/reference.toml: "
        f"{', '.join(missing)}; add one each, then {REGENERATE}"
    )


def test_every_entry_is_a_rule_some_test_names() -> None:
    assert set(REFERENCE.rules) <= _ids_named_in_tests()


def _test_sources(path: Path) -> dict[str, str]:
    """Each test of a file by node name (``test_x``, ``TestY::test_x``): its source with
    the comments just above it and its decorators."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found: dict[str, str] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}::")
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([d.lineno for d in child.decorator_list] + [child.lineno])
                while start > 1 and lines[start - 2].lstrip().startswith("#"):
                    start -= 1
                found[f"{prefix}{child.name}"] = "\n".join(lines[start - 1 : child.end_lineno])

    visit(ast.parse(text), "")
    return found


def _names(source: str, rule_id: str) -> bool:
    """A test names a rule by its ID or, in its name, by the ID in snake case."""
    snake = rule_id.lower().replace("-", "_")
    return re.search(rf"(?:{re.escape(rule_id)}|{re.escape(snake)})(?![0-9])", source) is not None


def test_every_test_an_entry_names_exists_and_names_the_rule() -> None:
    sources: dict[str, dict[str, str]] = {}
    wrong: list[str] = []
    for rule_id, entry in REFERENCE.rules.items():
        for node in entry.tests:
            file, _, name = node.partition("::")
            path = ROOT / file
            if not path.is_file():
                wrong.append(f"{rule_id}: no test file {file}")
                continue
            if file not in sources:  # parsed once: setdefault would parse it for every entry
                sources[file] = _test_sources(path)
            tests = sources[file]
            if name not in tests:
                wrong.append(f"{rule_id}: no test {node}")
            elif not _names(tests[name], rule_id):
                wrong.append(f"{rule_id}: {node} does not name the rule")
    assert not wrong, (
        "fix the entries' tests in src/turnkeeper/rules/reference.toml (a test renamed or "
        f"gone), then {REGENERATE}:\n" + "\n".join(wrong)
    )


def _schema_has(model: type[BaseModel], parts: list[str]) -> bool:
    """Whether a dotted key is in the ruleset schema; a table of names takes any name."""
    annotation: Any = model
    for part in parts:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            field = annotation.model_fields.get(part)
            if field is None:
                return False
            annotation = field.annotation
        elif getattr(annotation, "__origin__", None) is dict:
            annotation = annotation.__args__[1]
        else:
            return False
    return True


def test_every_preset_key_is_in_the_schema_and_set_by_a_preset() -> None:
    rulesets = [preset(info.name) for info in presets()]
    dumps = [(rules, rules.model_dump(mode="json")) for rules in rulesets]
    wrong: list[str] = []
    for rule_id, entry in REFERENCE.rules.items():
        for key in entry.preset_keys:
            if not _schema_has(Ruleset, key.split(".")):
                wrong.append(f"{rule_id}: {key} is not a ruleset key")
                continue
            values = [data for _, data in dumps]
            for part in key.split("."):
                values = [v[part] for v in values if isinstance(v, dict) and part in v]
            # an option left out of a journal at its default is read from the ruleset itself
            if not values and all(preset_value(r, data, key) is None for r, data in dumps):
                wrong.append(f"{rule_id}: no preset sets {key}")
    assert not wrong, "\n".join(wrong)


#: The sections no procedure reads as a rule: which text a ruleset encodes and its names.
NOT_RULES = {"ruleset": "the ruleset's name, title and text name no number of play"}


def _schema_keys(model: type[BaseModel], prefix: str = "") -> list[str]:
    """Every key a ruleset holds, dotted; a table of names is ``*`` (``dice.*.faces``)."""
    keys: list[str] = []
    for name, field in model.model_fields.items():
        key, annotation = f"{prefix}{name}", field.annotation
        args = getattr(annotation, "__args__", ())
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            keys += _schema_keys(annotation, f"{key}.")
        elif (
            getattr(annotation, "__origin__", None) is dict
            and isinstance(args[1], type)
            and issubclass(args[1], BaseModel)
        ):
            keys += _schema_keys(args[1], f"{key}.*.")
        else:
            keys.append(key)
    return keys


def _covers(named: str, key: str) -> bool:
    """Whether an entry's key names a schema key: the key itself, a part of it (a field
    of a table, ``dice.encounter.faces.1``) or the whole it is part of (``weather.tables``
    names every table's every field); ``*`` stands for any name."""
    wanted, given = key.split("."), named.split(".")
    return all(w in ("*", g) for w, g in zip(wanted, given, strict=False))


def test_every_ruleset_key_a_procedure_reads_is_named_in_some_entry() -> None:
    # Issue 39: a number of play no entry names is a rule the reference does not tell.
    # An entry names a key in its preset_keys (its value then shows on the page); an option
    # that no preset sets (its value would be empty) may be named in the entry's words.
    listed = [key for entry in REFERENCE.rules.values() for key in entry.preset_keys]
    words = " ".join(f"{e.requires} {e.default}" for e in REFERENCE.rules.values())
    unnamed = [
        key
        for key in _schema_keys(Ruleset)
        if key.split(".")[0] not in NOT_RULES
        and not any(_covers(named, key) for named in listed)
        and not ("*" not in key and re.search(rf"\b{re.escape(key)}\b", words))
    ]
    assert not unnamed, (
        "ruleset keys that no entry of src/turnkeeper/rules/reference.toml names: "
        f"{', '.join(unnamed)}; add each to the preset_keys of the rule it numbers, then "
        f"{REGENERATE}"
    )


def test_the_key_check_sees_tables_of_names_and_misses_an_unnamed_key() -> None:
    keys = _schema_keys(Ruleset)
    assert {"dice.*.faces.*.event", "light.sources.*.supply", "stats"} <= set(keys)
    assert _covers("dice.encounter.faces", "dice.*.faces.*.event")
    assert _covers("weather.tables", "weather.tables")
    assert not _covers("light.sources.torch.turns", "light.sources.*.supply")


def test_every_module_an_entry_names_exists() -> None:
    missing = [
        f"{rule_id}: {module}"
        for rule_id, entry in REFERENCE.rules.items()
        for module in entry.modules
        if not module.startswith("turnkeeper.") or importlib.util.find_spec(module) is None
    ]
    assert not missing


def test_each_text_is_its_presets_text_by_title_and_prefix() -> None:
    for prefix, text in REFERENCE.texts.items():
        info = preset(text.preset).ruleset
        assert (info.prefix, info.text) == (prefix, text.title)
    assert {info.prefix for info in presets()} == set(REFERENCE.texts)


def test_docs_rules_md_is_the_reference_as_generated() -> None:
    page = ROOT / "docs" / "rules.md"
    assert page.is_file(), f"docs/rules.md is missing: {REGENERATE}"
    assert page.read_text(encoding="utf-8") == markdown(), (
        f"docs/rules.md differs from src/turnkeeper/rules/reference.toml and the presets: "
        f"{REGENERATE}"
    )


def test_the_page_and_the_terminal_show_the_same_entry() -> None:
    page = markdown()
    rule_id, entry = find_rule("TP-WIL-7")
    terminal = "\n".join(entry_lines(rule_id, entry))
    assert "### TP-WIL-7: " + entry.title in page
    assert terminal.startswith("TP-WIL-7: " + entry.title)
    for part in entry_fields(rule_id, entry):
        for item in part.items:
            assert item in page and item in terminal, item


def test_the_texts_todo_rules_are_the_projects_defaults_with_a_reason() -> None:
    # TP-WIL-9, TP-LOST-1 and CB-ACT-5 are TODO in their texts; TP-DUN-2's headings are empty.
    for rule_id in ("TP-WIL-9", "TP-LOST-1", "CB-ACT-5", "TP-DUN-2"):
        entry = REFERENCE.rules[rule_id]
        assert entry.origin == "default" and entry.default, rule_id
    with pytest.raises(ValidationError, match="must say why"):
        RuleEntry.model_validate(
            {"title": "t", "requires": "r", "origin": "default", "modules": ["m"], "tests": ["t"]}
        )


def test_preset_values_are_the_texts_presets() -> None:
    # rule: TP-WIL-7, the cap of twice the daily TP: 2 x 4 in the tp preset
    rule_id, entry = find_rule("TP-WIL-7")
    assert preset_values(rule_id, entry) == {
        "travel.max_movement_factor": "2",
        "travel.travel_points_per_day": "4",
    }
    # rule: PG-ATK-2, a list of words stays a list of words
    rule_id, entry = find_rule("PG-ATK-2")
    assert preset_values(rule_id, entry)["attack.strength_damage_classes"] == '["fighter"]'


def test_find_rule_in_any_case_and_close_matches_for_a_slip() -> None:
    assert find_rule(" tp-wil-7 ")[0] == "TP-WIL-7"
    with pytest.raises(NotFoundError, match="close matches: TP-WIL-7"):
        find_rule("tp-wil-77")
    with pytest.raises(NotFoundError, match=r"a prefix \(TP, EX, PG, DG, CB\)"):
        find_rule("nonsense")


def test_rules_of_a_prefix_in_the_texts_order() -> None:
    listed = rules_of("cb")
    assert listed is not None
    assert [rule_id for rule_id, _ in listed][:3] == ["CB-SIDE-1", "CB-RND-1", "CB-SUR-1"]
    assert rules_of("XX") is None
    assert all(RULE_ID.fullmatch(rule_id) for rule_id in REFERENCE.rules)


# --- nothing shipped points outside the repository -------------------------------------------

SHIPPED = [ROOT / "src", ROOT / "docs", ROOT / "README.md", ROOT / "pyproject.toml"]
OUTSIDE = re.compile(
    r"shared/|rules-catalogue|\bcatalogue\b|\b\d{3}_[0-9a-f]{16}\b",
    re.IGNORECASE,
)


def _shipped_texts() -> list[Path]:
    found: list[Path] = []
    for place in SHIPPED:
        paths = [place] if place.is_file() else sorted(place.rglob("*"))
        found += [p for p in paths if p.is_file() and "__pycache__" not in p.parts]
    return found


def test_no_shipped_file_points_outside_the_repository() -> None:
    wrong: list[str] = []
    for path in _shipped_texts():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                wrong.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not wrong, (
        "name the project's rule reference (docs/rules.md, `turnkeeper rules explain ID`) "
        "and a rules text by its title instead:\n" + "\n".join(wrong)
    )
