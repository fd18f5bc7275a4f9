"""Every help screen reads well at the table: a worked example that parses, plain words
first, and the rule IDs only in square brackets ("... [TP-DISC-2]", never "(TP-DISC-2)")."""

from __future__ import annotations

import re
import shlex

import pytest
from typer._click import Command
from typer.testing import CliRunner

from turnkeeper.cli.app import VERBS, app, load_verb

# `tokens` and `serve` live in turnkeeper.cli.serve, whose help the web server's engineer
# words along with the server itself; this test holds every other verb to the rule.
NOT_HERE = frozenset({"tokens", "serve"})

RULE_ID = re.compile(r"\b[A-Z]{2,3}-[A-Z]+-\d+")
SQUARE = re.compile(r"\[[^\]]*\]")
EXAMPLE = "Example: `turnkeeper "
COMMAND_LINE = re.compile(r"`(turnkeeper [^`]+)`")


def _screens() -> list[tuple[str, Command]]:
    """Every verb of the table and its sub-commands, to any depth, by command line."""
    found: list[tuple[str, Command]] = []
    todo = [(name, load_verb(name)) for name in VERBS if name not in NOT_HERE]
    while todo:
        path, command = todo.pop(0)
        found.append((path, command))
        subs = getattr(command, "commands", {})
        todo += [(f"{path} {name}", sub) for name, sub in subs.items()]
    return found


SCREENS = _screens()


def _texts(command: Command) -> list[str]:
    """The help a screen shows: the command's own, then each argument's and option's."""
    return [command.help or ""] + [str(getattr(p, "help", None) or "") for p in command.params]


def test_the_walk_finds_every_screen() -> None:
    paths = {path for path, _ in SCREENS}
    assert {"site map note", "scene dread spend", "campaigns delete", "table roll"} <= paths
    assert len(SCREENS) > 60


@pytest.mark.parametrize(("path", "command"), SCREENS, ids=[path for path, _ in SCREENS])
def test_each_help_screen_shows_a_worked_example(path: str, command: Command) -> None:
    done = CliRunner().invoke(app, [*path.split(), "--help"])
    assert done.exit_code == 0, done.output
    assert EXAMPLE in (command.help or ""), path
    assert EXAMPLE in done.output, path


@pytest.mark.parametrize(("path", "command"), SCREENS, ids=[path for path, _ in SCREENS])
def test_rule_ids_stand_in_square_brackets_after_the_words(path: str, command: Command) -> None:
    for text in _texts(command):
        bare = RULE_ID.findall(SQUARE.sub("", text))
        assert not bare, f"{path}: {bare} outside square brackets in {text!r}"


def _parse(line: str) -> None:
    """Parse an example command line as the shell would, without running it."""
    words = shlex.split(line)
    assert words[0] == "turnkeeper" and words[1] in VERBS, line
    command, path, rest = load_verb(words[1]), words[:2], words[2:]
    while rest and rest[0] in getattr(command, "commands", {}):
        command = command.commands[rest[0]]  # type: ignore[attr-defined]
        path.append(rest.pop(0))
    command.make_context(" ".join(path), rest)


@pytest.mark.parametrize(("path", "command"), SCREENS, ids=[path for path, _ in SCREENS])
def test_each_example_parses(path: str, command: Command) -> None:
    lines = COMMAND_LINE.findall(command.help or "")
    assert lines, path
    for line in lines:
        _parse(line)


def test_the_root_help_lists_flags_without_a_type() -> None:
    done = CliRunner().invoke(app, ["--help"])
    assert done.exit_code == 0, done.output
    assert "<bool>" not in done.output
    for name in VERBS:
        assert name in done.output
