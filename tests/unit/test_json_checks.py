"""A journal's text is checked without being parsed twice (issue 23): ``check_numbers``
screens its numbers, and must refuse exactly what ``parse_json`` refuses for them, with the
same words, whatever the text holds (brackets and quotes in strings, numbers of any size,
NaN and Infinity); with ``reals=False``, what ``parse_json`` refuses of a text whose reals
are finite (pydantic-core's writing). An import measures no nesting of a journal that reads
as records: the records' schema lets none nest past the files' limit."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnkeeper.campaign.registry import EVENTS
from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.reading import MAX_DEPTH, check_numbers, parse_json

#: Strings that look like what the checks look for: brackets, quotes, escapes, long digits.
TRICKY = st.sampled_from(
    ["[", "]", '{"', '"}', "\\", '\\"', "12345678901234567890", "1e999", "NaN", "Infinity", "e000"]
)
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.lists(TRICKY, max_size=3).map("".join)
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)


def verdict(check: object, text: str) -> str | None:
    try:
        check(text, "the journal")  # type: ignore[operator]
    except TurnkeeperError as refused:
        return str(refused)
    return None


@settings(max_examples=200)
@given(VALUES, st.integers(0, MAX_DEPTH // 2), st.booleans())
def test_check_numbers_refuses_what_parse_json_refuses_for_numbers(
    value: object, depth: int, spaced: bool
) -> None:
    # nested within the files' limit (12 leaves nest 12 deep at most): numbers alone differ
    text = json.dumps([value] * 2, separators=(", ", ": ") if spaced else (",", ":"))
    text = "[" * depth + text + "]" * depth
    assert verdict(check_numbers, text) == verdict(parse_json, text)


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ('{"a": "[[[\\"]]] 12345678901234567890"}', False),  # brackets, a quote, digits in a string
        ('{"hp": 99999999999999999999}', True),
        ('{"hp": 9223372036854775807}', False),  # the largest whole number a file may hold
        ('{"hp": -9223372036854775808}', True),
        ('{"x": 1.5E+309}', True),
        ('{"x": 1e0309}', True),
        ('{"x": 1.7976931348623157e308}', False),  # the largest real
        ('{"x": NaN}', True),
        ('{"note": "NaN and 1e999 in words"}', False),
    ],
)
def test_check_numbers_agrees_with_parse_json_on_the_hard_cases(text: str, refused: bool) -> None:
    assert verdict(check_numbers, text) == verdict(parse_json, text)
    assert (verdict(check_numbers, text) is not None) == refused

    def as_utf8(text: str, shown: str) -> None:
        check_numbers(text.encode(), shown)

    assert verdict(as_utf8, text) == verdict(parse_json, text)


FINITE_LEAVES = (
    st.none()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.lists(TRICKY, max_size=3).map("".join)
)


@settings(max_examples=150)
@given(
    st.recursive(
        FINITE_LEAVES,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
        max_leaves=12,
    )
)
def test_the_whole_numbers_screen_refuses_what_parse_json_refuses_where_reals_are_finite(
    value: object,
) -> None:
    text = json.dumps(value, separators=(",", ":"))

    def whole_numbers(text: str, shown: str) -> None:
        check_numbers(text, shown, reals=False)

    assert verdict(whole_numbers, text) == verdict(parse_json, text)


def _deepest(node: Any, defs: dict[str, Any], seen: frozenset[str]) -> float:
    """How deep a JSON value ``node`` (a JSON schema) allows nests: inf where it allows any
    value or refers to itself."""
    if node is True or node == {}:
        return math.inf
    assert isinstance(node, dict)
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[1]
        return math.inf if name in seen else _deepest(defs[name], defs, seen | {name})
    alternatives = [*node.get("anyOf", []), *node.get("oneOf", []), *node.get("allOf", [])]
    deepest = max((_deepest(sub, defs, seen) for sub in alternatives), default=0.0)
    kind = node.get("type")
    inner: list[object] = []
    if kind == "object":
        inner = [*node.get("properties", {}).values()]
        extra = node.get("additionalProperties", True)
        if extra is not False:
            inner.append(extra)
    elif kind == "array":
        inner = [*node.get("prefixItems", []), *([node["items"]] if "items" in node else [])]
    elif kind is None and not alternatives and "const" not in node and "enum" not in node:
        return math.inf  # no type said: anything
    if kind in ("object", "array"):
        deepest = max(deepest, 1 + max((_deepest(sub, defs, seen) for sub in inner), default=0.0))
    return deepest


def test_a_journal_that_reads_as_records_nests_within_the_files_limit() -> None:
    """Why an import measures no nesting of a journal whose records validate: their schema
    (every event kind, no field of any value, no shape inside itself, no field of no record)
    nests a journal's array of records fewer than MAX_DEPTH deep; a text nested deeper
    fails to validate and is read again a line at a time, each line measured."""
    schema = EVENTS.schema().many.json_schema()
    deepest = _deepest(schema, schema.get("$defs", {}), frozenset())
    assert deepest < MAX_DEPTH, deepest
    assert deepest >= 5  # the walk sees into the records (array, record, data, ...)
