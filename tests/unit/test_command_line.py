"""The command line read from the verb table (issue 26, item 2): what the dashboard's
command line sends, read as ``play`` reads it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turnkeeper.campaign import Journal, parse_party
from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.rules.loader import preset
from turnkeeper.verbs import VERBS, cli_of
from turnkeeper.verbs.line import body_of_line, complete, flags_of, read_line

STATE = Journal.start(
    "Keep", preset("ex"), parse_party('[[characters]]\nname = "Aldo"\nhp = 6'), seed=1
).state

EXAMPLES = [
    (body, example.strip())
    for body in VERBS.values()
    for example in body.example.split(";")
    if example.strip()
]


def _reads_a_file(body: type, example: str) -> bool:
    """Whether the example gives a file (a site, a map, a foes file): the shell reads it."""
    return any(
        not flags_of(name, field) or any(flag in example.split() for flag in flags_of(name, field))
        for name, field in body.arguments().items()
        if (cli := cli_of(field)) is not None and cli.file
    )


@pytest.mark.parametrize(("body", "example"), EXAMPLES, ids=[e for _, e in EXAMPLES])
def test_every_worked_example_reads_as_its_verb(body: type, example: str) -> None:
    if _reads_a_file(body, example):
        with pytest.raises(IllegalCommandError, match="give its text in the form instead"):
            body_of_line(example)
        return
    made = body_of_line(example)
    assert type(made) is body


def test_a_line_gives_positional_words_options_flags_and_dice() -> None:
    assert read_line('combat attack Aldo "Goblin 2" --ranged --dice 17,4') == {
        "verb": "combat_attack",
        "attacker": "Aldo",
        "target": "Goblin 2",
        "ranged": True,
        "dice": "17,4",
    }
    assert read_line("turn --mode=cautious --no-hide")["mode"] == "cautious"
    assert read_line("turn --no-hide")["hide"] is False
    assert read_line("travel to ne") == read_line("travel ne")


def test_a_span_said_in_words_needs_no_quotes() -> None:
    """Issue 42: ``wait 3 turns`` was refused ("'turns': one word too many") unless quoted."""
    assert read_line("wait 3 turns") == read_line('wait "3 turns"')
    assert read_line("wait 2 watches --dice 4")["duration"] == "2 watches"


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("", "an empty line"),
        ("fly north", "'fly' names no verb here"),
        ("turn --speed 3", "--speed: not an option of `turn`; its options are --mode"),
        ("turn --mode", "--mode needs a value (MODE)"),
        ("heal Aldo 3 4", "'4': one word too many for `heal`"),
        ('note "unclosed', "cannot read that line"),
        ("rest --turns many", "--turns 'many'"),
    ],
)
def test_a_line_that_cannot_be_read_says_what_is_wrong(line: str, says: str) -> None:
    with pytest.raises(IllegalCommandError, match=says.replace("(", r"\(").replace(")", r"\)")):
        body_of_line(line)


WORDS = st.sampled_from(
    ["combat", "attack", "travel", "to", "ne", "turn", "--mode", "--dice", "3,x", "--", "-",
     "--no-hide", "--hide", "Aldo", '"Goblin 2"', "'", '"', "=", "--mode=swift", "wait", "1h",
     "-3h", "supply", "use", "torches", "scene", "dread", "spend", "\\", "\x00", "é", "map"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(WORDS, st.text(max_size=6)), max_size=8))
def test_any_line_is_read_or_refused_in_words(words: list[str]) -> None:
    """Bad input is one clear error: whatever is typed, the line is read into its command or
    refused in words (a TurnkeeperError), and its completion never fails."""
    line = " ".join(words)
    try:
        body_of_line(line).command(STATE)  # the command too, as the page would run it
    except TurnkeeperError as error:
        assert str(error)
    start, offered = complete(line, STATE)
    assert 0 <= start <= len(line) and all(isinstance(word, str) for word in offered)


def test_to_is_read_before_travels_destination_alone() -> None:
    assert read_line("travel to ne") == read_line("travel ne")
    with pytest.raises(IllegalCommandError, match="'0303': one word too many for `explore`"):
        read_line("explore to 0303")
