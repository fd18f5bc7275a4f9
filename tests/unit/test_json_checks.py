"""A journal's text is checked without being parsed twice (issue 23): ``check_json`` screens
its numbers and measures its nesting, and must refuse exactly what ``parse_json`` refuses
for them, with the same words, whatever the text holds (brackets and quotes in strings,
numbers of any size, NaN and Infinity, deep nesting); ``json_array``, which measures only
the lines that may nest too deep, then ``check_numbers`` must refuse exactly what
``check_json`` refuses of the array of the lines; and ``check_numbers(reals=False)`` what
``parse_json`` refuses of a text whose reals are finite (pydantic-core's writing)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnkeeper.errors import TurnkeeperError
from turnkeeper.files import MAX_DEPTH, check_json, check_numbers, json_array, parse_json

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


@settings(max_examples=400)
@given(VALUES, st.integers(0, MAX_DEPTH + 3), st.booleans())
def test_check_json_refuses_what_parse_json_refuses_for_numbers_and_nesting(
    value: object, depth: int, spaced: bool
) -> None:
    text = json.dumps([value] * 2, separators=(", ", ": ") if spaced else (",", ":"))
    text = "[" * depth + text + "]" * depth
    assert verdict(check_json, text) == verdict(parse_json, text)


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ('{"a": "[[[\\"]]]"}', False),  # brackets and a quote in a string
        ('["\\"]]", ' + "[" * 64 + "]" * 64 + "]", True),  # 65 deep, past a string's brackets
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
def test_check_json_agrees_with_parse_json_on_the_hard_cases(text: str, refused: bool) -> None:
    assert verdict(check_json, text) == verdict(parse_json, text)
    assert (verdict(check_json, text) is not None) == refused


@settings(max_examples=300)
@given(
    st.lists(st.tuples(VALUES, st.integers(0, MAX_DEPTH + 2)), min_size=1, max_size=4),
    st.booleans(),
)
def test_json_array_refuses_what_check_json_refuses_of_the_array(
    lines: list[tuple[object, int]], spaced: bool
) -> None:
    separators = (", ", ": ") if spaced else (",", ":")
    texts = [
        "[" * depth + json.dumps(value, separators=separators) + "]" * depth
        for value, depth in lines
    ]
    whole = "[" + ",".join(texts) + "]"

    def both(_text: str, shown: str) -> None:
        assert json_array(texts, shown) == whole
        check_numbers(whole, shown)

    assert verdict(both, whole) == verdict(check_json, whole)


FINITE_LEAVES = (
    st.none()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.lists(TRICKY, max_size=3).map("".join)
)


@settings(max_examples=300)
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
