"""The project's own rule reference: one entry per rule ID of the five rules texts.

``reference.toml`` beside this module is the one source. Each entry says, in the project's
words, what the rule requires, which ruleset keys carry its numbers, which modules apply
it, which tests prove it, and whether it is the text's rule or the project's DEFAULT (and
why). ``turnkeeper rules explain ID`` prints an entry and ``docs/rules.md`` is this
module's Markdown, both from :func:`entry_fields`, so the two cannot tell different
stories. Regenerate the page after changing the file or a preset's numbers::

    python -m turnkeeper.rules.reference --markdown > docs/rules.md

The file is read on first use, not at import.

>>> rule_id, entry = find_rule("tp-wil-7")
>>> rule_id, entry.origin
('TP-WIL-7', 'text')
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from turnkeeper.errors import NotFoundError
from turnkeeper.rules.loader import preset
from turnkeeper.rules.schema.base import Rules

__all__ = [
    "RuleEntry",
    "RuleReference",
    "RulesText",
    "entry_fields",
    "entry_lines",
    "find_rule",
    "markdown",
    "preset_values",
    "rule_reference",
    "rules_of",
    "text_of",
]

#: A rule ID: the text's prefix, a topic and a number (TP-WIL-7, DG-FCD-1).
RULE_ID = re.compile(r"([A-Z]{2})-[A-Z]+-\d+")

REGENERATE = "python -m turnkeeper.rules.reference --markdown > docs/rules.md"


class RulesText(Rules):
    """One of the rules texts the presets encode: its title and its preset."""

    title: str
    preset: str


class RuleEntry(Rules):
    """One rule in the project's words (see the module doc)."""

    title: str
    requires: str
    origin: Literal["text", "default"] = Field(
        description="'text': the text's rule; 'default': the project's, the text being silent."
    )
    default: str = Field(
        "", description="What the project chose where the text is silent, and why."
    )
    preset_keys: list[str] = Field(default_factory=list)
    modules: list[str] = Field(min_length=1)
    tests: list[str] = Field(min_length=1)

    @model_validator(mode="after")
    def _a_default_says_why(self) -> RuleEntry:
        if self.origin == "default" and not self.default:
            raise ValueError("an entry with origin 'default' must say why in `default`")
        return self


class RuleReference(Rules):
    """The whole reference: the texts by prefix, and the rules by ID in the texts' order."""

    texts: dict[str, RulesText]
    rules: dict[str, RuleEntry]

    @model_validator(mode="after")
    def _ids_name_a_text(self) -> RuleReference:
        for rule_id in self.rules:
            shape = RULE_ID.fullmatch(rule_id)
            if shape is None:
                raise ValueError(f"{rule_id!r} is not a rule ID such as TP-WIL-7")
            if shape.group(1) not in self.texts:
                raise ValueError(f"{rule_id!r}: no text with the prefix {shape.group(1)!r}")
        return self


@cache
def rule_reference() -> RuleReference:
    """The reference, read from the package on first use."""
    text = (files("turnkeeper.rules") / "reference.toml").read_text(encoding="utf-8")
    return RuleReference.model_validate(tomllib.loads(text))


def find_rule(given: str) -> tuple[str, RuleEntry]:
    """The entry for a rule ID, in any case; an unknown ID is one error with close matches."""
    rules = rule_reference().rules
    rule_id = given.strip().upper()
    if rule_id in rules:
        return rule_id, rules[rule_id]
    close = difflib.get_close_matches(rule_id, list(rules), n=4, cutoff=0.6)
    hint = (
        f"close matches: {', '.join(close)}"
        if close
        else f"a rule ID is a prefix ({', '.join(rule_reference().texts)}), a topic and a "
        "number, e.g. TP-WIL-7"
    )
    raise NotFoundError(f"no rule {given!r} in the reference; {hint} (every rule: docs/rules.md)")


def rules_of(prefix: str) -> list[tuple[str, RuleEntry]] | None:
    """A text's rules in order, by its prefix in any case; None if no text has the prefix."""
    reference = rule_reference()
    wanted = prefix.strip().upper()
    if wanted not in reference.texts:
        return None
    return [
        (rule_id, entry)
        for rule_id, entry in reference.rules.items()
        if rule_id.startswith(f"{wanted}-")
    ]


def text_of(rule_id: str) -> RulesText:
    """The rules text a rule belongs to, by its prefix."""
    return rule_reference().texts[rule_id.split("-", 1)[0]]


# --- values of the preset keys ----------------------------------------------------------------


def _shown(value: Any) -> str:
    """A preset value as a ruleset file would write it, short enough for one line."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_shown(item) for item in value) + "]"
    if isinstance(value, dict):
        if all(not isinstance(item, dict | list) for item in value.values()):
            pairs = "{" + ", ".join(f"{key} = {_shown(item)}" for key, item in value.items()) + "}"
            if len(pairs) <= 80:
                return pairs
        return "a table of " + ", ".join(str(key) for key in value)
    return str(value)


def preset_value(rules: Any, data: Any, key: str) -> Any:
    """A dotted key's value in a ruleset (``data`` its JSON dump), or None if unset.

    An option a journal leaves out at its default (``exclude_if``, so that the journals of
    campaigns begun before it stay identical) is missing from the dump; its value is read
    from the ruleset itself.
    """
    found: Any = data
    model: Any = rules
    for part in key.split("."):
        found = found.get(part) if isinstance(found, dict) else None
        model = model.get(part) if isinstance(model, dict) else getattr(model, part, None)
    if found is None and isinstance(model, list) and model and isinstance(model[0], BaseModel):
        # a table of rows (the faction table) at its default
        return [row.model_dump(mode="json", exclude_defaults=True) for row in model]
    if found is None and isinstance(model, str | int | float | bool | list):
        return model
    if found is None and isinstance(model, dict) and model:
        # a table of named entries (the haven's activities) at its default
        return {name: v.model_dump(mode="json", exclude_none=True) for name, v in model.items()}
    return found


def preset_values(rule_id: str, entry: RuleEntry) -> dict[str, str | None]:
    """Each preset key of the entry with its value in the text's preset (None: not set)."""
    rules = preset(text_of(rule_id).preset)
    data: Any = rules.model_dump(mode="json")
    values: dict[str, str | None] = {}
    for key in entry.preset_keys:
        found = preset_value(rules, data, key)
        values[key] = None if found is None else _shown(found)
    return values


# --- one entry, for the page and for the terminal --------------------------------------------


@dataclass(frozen=True)
class EntryField:
    """One labelled part of an entry; ``code`` parts are names set as code on the page."""

    label: str
    items: list[str]
    code: bool = False


def _source(entry: RuleEntry) -> str:
    if entry.origin == "default":
        return f"the project's DEFAULT: {entry.default}"
    if entry.default:
        return f"the text's rule; where the text is silent, the project's DEFAULT: {entry.default}"
    return "the text's rule."


def entry_fields(rule_id: str, entry: RuleEntry) -> list[EntryField]:
    """The parts of an entry in the order both the page and ``rules explain`` show them."""
    text = text_of(rule_id)
    keys = [
        key if value is None else f"{key} = {value}"
        for key, value in preset_values(rule_id, entry).items()
    ]
    numbers = EntryField(f"preset keys ({text.preset})", keys, code=True)
    return [
        EntryField("text", [f"{text.title}, preset {text.preset}"]),
        EntryField("requires", [entry.requires]),
        EntryField("source", [_source(entry)]),
        numbers if keys else EntryField("preset keys", ["none (the rule has no numbers)"]),
        EntryField("applied by", entry.modules, code=True),
        EntryField("proved by", entry.tests, code=True),
    ]


def entry_lines(rule_id: str, entry: RuleEntry) -> list[str]:
    """The entry as plain lines for the terminal."""
    lines = [f"{rule_id}: {entry.title}"]
    for part in entry_fields(rule_id, entry):
        if len(part.items) == 1 or not part.code:
            lines.append(f"{part.label}: {'; '.join(part.items)}")
        else:
            lines.append(f"{part.label}:")
            lines.extend(f"  {item}" for item in part.items)
    return lines


def _markdown_entry(rule_id: str, entry: RuleEntry) -> list[str]:
    lines = [f"### {rule_id}: {entry.title}", ""]
    for part in entry_fields(rule_id, entry):
        shown = [f"`{item}`" for item in part.items] if part.code else part.items
        if len(shown) == 1:
            lines.append(f"- **{part.label}**: {shown[0]}")
        else:
            lines.append(f"- **{part.label}**:")
            lines.extend(f"  - {item}" for item in shown)
    return [*lines, ""]


def markdown() -> str:
    """docs/rules.md: every entry, grouped by rules text."""
    reference = rule_reference()
    lines = [
        "# Rules reference",
        "",
        "<!-- Generated from src/turnkeeper/rules/reference.toml; do not edit by hand.",
        f"     Regenerate: {REGENERATE} -->",
        "",
        "Every rule turnkeeper follows has an ID: the prefix of its rules text, a topic and a",
        "number (TP-WIL-7). Each entry below says, in the project's own words, what the rule",
        "requires; the ruleset keys that carry its numbers, with the values of the text's preset",
        "(docs/rulesets.md); the modules that apply it; the tests that prove it; and whether it",
        "is the text's rule or the project's DEFAULT where the text is silent, unclear or says",
        "TODO, with the reason. At the table, `turnkeeper rules explain TP-WIL-7` prints the same",
        "entry.",
        "",
        "| prefix | rules text | preset | rules |",
        "| --- | --- | --- | --- |",
    ]
    for prefix, text in reference.texts.items():
        count = sum(1 for rule_id in reference.rules if rule_id.startswith(f"{prefix}-"))
        lines.append(f"| {prefix} | {text.title} | `{text.preset}` | {count} |")
    for prefix, text in reference.texts.items():
        lines += ["", f"## {prefix}: {text.title}", ""]
        for rule_id, entry in reference.rules.items():
            if rule_id.startswith(f"{prefix}-"):
                lines += _markdown_entry(rule_id, entry)
    return "\n".join(lines).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m turnkeeper.rules.reference --markdown``: print docs/rules.md."""
    parser = argparse.ArgumentParser(
        prog="python -m turnkeeper.rules.reference",
        description=f"Print the rule reference as Markdown. Example: {REGENERATE}",
    )
    parser.add_argument("--markdown", action="store_true", required=True)
    parser.parse_args(argv)
    sys.stdout.write(markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
