"""files.check_name: a name is printable text, so two names that look alike are alike and
none drives the referee's terminal (issue 22)."""

from __future__ import annotations

import pytest

from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.names import MAX_NAME_LENGTH, check_name, unprintable


@pytest.mark.parametrize(
    "name",
    ["Keep on the Borderlands", "Ulfarmi", "Château d'Amboise", "洞窟", "[/oops]", "x" * 200],
)
def test_printable_names_pass(name: str) -> None:
    assert check_name(name, "site name") == name


@pytest.mark.parametrize(
    ("name", "what"),
    [
        ("Ab\x1b]0;pwned\x07bey", "a control character, U+001B"),
        ("red\x1b[31m", "a control character, U+001B"),
        ("two\nlines", "a control character, U+000A"),
        ("csi\x9b31m", "a control character, U+009B"),
        ("keep\u200b", "an invisible format character (zero-width or a direction mark), U+200B"),
        ("k\u202eeep", "an invisible format character (zero-width or a direction mark), U+202E"),
        (
            "\u2066keep\u2069",
            "an invisible format character (zero-width or a direction mark), U+2066",
        ),
        ("no\u00a0break", "a space other than the plain space, U+00A0"),
        ("line\u2028sep", "a line separator, U+2028"),
        ("private\ue000", "a private-use character, U+E000"),
        ("lone\udcff", "a lone surrogate (not a character), U+DCFF"),
    ],
)
def test_unprintable_names_are_refused_naming_the_character(name: str, what: str) -> None:
    assert unprintable(name) == what
    with pytest.raises(TurnkeeperError) as refused:
        check_name(name, "site name")
    message = str(refused.value)
    assert what in message and "names are printable text" in message
    assert message.isprintable()  # the refusal itself is one printable line


def test_a_name_of_10000_characters_is_refused() -> None:
    with pytest.raises(TurnkeeperError, match=f"names are at most {MAX_NAME_LENGTH} characters"):
        check_name("A" * 10_000, "character name")
