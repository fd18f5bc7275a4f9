"""Counts in the journal's words (issue 42): "1 torches", "1 giant centipedes" read wrong.

Every record of the golden journals (every kind they hold) is said again with each of its
whole-number fields set to 0, 1 and 2: a 1 is never followed by a plural, and a 0 or a 2
never by one of the game's countable nouns in the singular. A number that ends a name
("Goblin 1 attacks") is a name, not a count.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from turnkeeper.campaign.registry import EVENTS
from turnkeeper.words import singular

JOURNALS = sorted((Path(__file__).parent / "journals").glob("*.jsonl"))

#: Nouns the journal counts, which take their plural after any number but 1.
COUNTED = {
    "turn", "day", "hour", "minute", "ration", "torch", "round", "watch", "week", "month",
    "die", "segment", "point", "arrow", "character", "hex", "tick", "coin", "lamp", "flask",
    "night", "meal", "foe", "monster", "area", "feature", "wound", "action", "hit", "token",
}  # fmt: skip
_ONE = re.compile(r"(?<![\w.,/:-] )(?<![\d.,/:-])\b1 ([a-z]+)\b")
_NOT_ONE = re.compile(r"(?<![\w.,/:-] )(?<![\d.,/:-])\b([02]) ([a-z]+)\b")
_NAME_BEFORE = re.compile(r"[A-Z][\w']* $")


def _miscounted(text: str) -> list[str]:
    wrong = []
    for found in _ONE.finditer(text):
        if _NAME_BEFORE.search(text[: found.start()]):
            continue
        word = found.group(1)
        if singular(word) != word:
            wrong.append(found.group(0))
    for found in _NOT_ONE.finditer(text):
        if _NAME_BEFORE.search(text[: found.start()]):
            continue
        if found.group(2) in COUNTED:
            wrong.append(found.group(0))
    return wrong


def test_the_check_finds_what_it_looks_for() -> None:
    assert _miscounted("1 torches left; 2 ration eaten") == ["1 torches", "2 ration"]
    assert _miscounted("Goblin 1 attacks; 1 torch; 2 rations; 0 water") == []


@pytest.mark.parametrize("journal", JOURNALS, ids=lambda path: path.stem)
def test_every_count_in_the_journals_words_takes_its_number(journal: Path) -> None:
    wrong: dict[tuple[str, str, str], str] = {}
    for line in journal.read_text(encoding="utf-8").splitlines():
        event = EVENTS.record(json.loads(line)).event
        numbers = [k for k, v in event.__dict__.items() if type(v) is int]
        for field in numbers:
            for count in (0, 1, 2):
                said = event.model_copy(update={field: count})
                try:
                    texts = [said.describe(), said.describe_to_party() or ""]
                except (ArithmeticError, LookupError, ValueError):
                    continue  # a count its event cannot hold (a die of 0 sides)
                for text in texts:
                    for slip in _miscounted(text):
                        wrong.setdefault((event.kind, field, slip), text)
    assert not wrong, "\n".join(f"{k}: {t}" for k, t in wrong.items())
