"""Hostile dice notation (issue 22): what d20 refuses is refused, a comment begins only where
d20's would, no character that is not printable gets in, and no text raises anything but
DiceNotationError, with comments allowed or not."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from turnkeeper.dice import DiceNotationError, parse

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("2d", "column 2"),  # d20 reads "d" as the start of dice, not a comment
        ("2d+", "column 2"),
        ("1d-6", "column 2"),
        ("HDd", "column 3"),
        ("4d6kh-1", "column 4"),  # "k" starts an operation straight after dice
        ("4d6kh3kh", "column 7"),
        ("1d20each", "column 5"),
        ("(1, 2)k", "column 7"),
        ("2d6+", "ends too soon"),
        ("d20+", "ends too soon"),
        ("3d6 x", "ends too soon"),  # x multiplies here, and nothing follows
    ],
)
def test_what_d20_refuses_is_refused_even_with_comments(text: str, says: str) -> None:
    with pytest.raises(DiceNotationError, match=says):
        parse(text, allow_comments=True)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("1d20\a", "U+0007"),
        ("1d20\n+1", "U+000A"),
        ("1d20 to hit\r", "U+000D"),
        ("1d20 \u202eto hit", "U+202E"),
        ("1d\u200b20", "U+200B"),
        ("1d20\t+1", "U+0009"),
        ("1d20 \udcff", "U+DCFF"),  # an undecodable byte, as a shell passes it
    ],
)
@pytest.mark.parametrize("comments", [False, True])
def test_characters_that_are_not_printable_are_refused(
    text: str, code: str, comments: bool
) -> None:
    with pytest.raises(DiceNotationError, match=re.escape(code) + " at column .*not printable"):
        parse(text, allow_comments=comments)


@pytest.mark.parametrize(
    ("text", "comment"),
    [
        ("1d20 **bold**", "**bold**"),  # d20: a "*" before the words is the comment's
        ("1d20 I rolled a d20", "I rolled a d20"),
        ("1d20foo", "foo"),  # no token of d20's starts with "f"
        ("(1, 2)e", "e"),  # a set takes only keep and drop
        ("1d20 d", "d"),  # after a space nothing goes on the dice
        ("2d6 ! 3", "! 3"),
    ],
)
def test_comments_d20_reads_still_read(text: str, comment: str) -> None:
    assert parse(text, allow_comments=True).comment == comment


hostile_text = st.text(
    alphabet=st.one_of(
        st.sampled_from("0123456789dDkhlproemia%x×+-*/() <>=!,.[]STRHD"),
        st.sampled_from("\a\n\r\t\x00\x1b\u200b\u202e\u2028\udcff\ufeff"),
        st.characters(),
    ),
    max_size=30,
)


@FAST
@given(hostile_text, st.booleans())
def test_any_text_parses_or_raises_dice_notation_error(text: str, comments: bool) -> None:
    """Either a roll whose every character is printable, or DiceNotationError: never a
    parser's own error, and never a control character carried into a comment."""
    try:
        expression = parse(text, allow_comments=comments)
    except DiceNotationError:
        return
    assert all(char == " " or char.isprintable() for char in text)
    assert parse(str(expression)) == expression


@pytest.mark.parametrize(
    "text", ["", " ", "(" * 240, "(" * 120 + "1d6", "(" * 200 + "1d6" + ")" * 199, ")" * 50]
)
def test_empty_and_deep_unbalanced_brackets_are_one_dice_error(text: str) -> None:
    """Issue 38: ``roll ""`` and deep unbalanced brackets were internal errors in the attacker's
    run (``'Token' object has no attribute 'start_pos'``), comments allowed or not."""
    for comments in (False, True):
        with pytest.raises(DiceNotationError, match="dice expression"):
            parse(text, allow_comments=comments)


def test_a_token_without_a_position_is_still_one_dice_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where Lark stops at a token that carries no position (one it made itself, as at the
    text's end), the refusal is still the dice grammar's own, never an AttributeError."""
    from lark import Token
    from lark.exceptions import UnexpectedToken

    from turnkeeper.dice import parser

    bare = Token("$END", "")
    del bare.start_pos  # as the attacker's run met it

    class Stops:
        def parse(self, text: str) -> None:
            raise UnexpectedToken(bare, {"INTEGER"})

    monkeypatch.setattr(parser, "_parser", lambda: Stops())
    for comments in (False, True):
        with pytest.raises(DiceNotationError, match="ends too soon"):
            parse("((((1d6", allow_comments=comments)
