"""Documentation as tests: every shell block of README.md and docs/*.md runs, as documented.

The documents run twice, as a newcomer may follow them. Each document runs as one test (its
blocks depend on one another: a campaign made in one is played in the next, so they run in
order and in one process; pytest-xdist spreads the documents): in a fresh temporary folder,
with a fresh store (``TURNKEEPER_DB`` and ``XDG_DATA_HOME`` point into that folder). Then all
of them run in one test, in one folder and one store, in reading order
(:data:`READING_ORDER`: the README, then each document of docs/ in the order the README first
links it), so one document's campaigns and files must not collide with another's. Either way
the first command that does not do what its document says stops the run there. Sybil's
Markdown lexers find the fenced blocks and the HTML comments that mark them.

Each command line runs in ``bash`` with ``turnkeeper`` first on ``PATH``: each ``turnkeeper``
is a process of its own, forked from one that imported turnkeeper once (forkserver.py), so
the run is the commands' work rather than Python's start-up, a thousand times over.

A block is read by its language and by the marks in HTML comments just above it:

- ```` ```sh ````: every command runs and must exit 0. A line is one command or several
  joined by ``;`` or ``&&``; ``\\`` continues a line; ``#`` starts a comment. When some lines
  start with ``$ ``, those are the commands and the lines under each are its expected
  output, where ``...`` stands for any text (a path, a timing, a token).
- A comment beside a command says what it prints: text in double quotes in it (``turn  #
  "Area 1 has been cleared"``) must be in what the line's commands print (stdout or stderr,
  runs of spaces and line breaks read as one space), ``...`` standing for any text. Words
  outside quotes are the reader's, unchecked (what the command does, a rule ID).
- ``<!-- skip: why -->``: the block does not run (it sets up the machine, it serves until
  stopped); the reason is printed in the run's count.
- ``<!-- fails: message -->``: each command must exit 2 and say ``message`` on stderr.
- ``<!-- smaller: --runs 100000 -> --runs 2000 -->``: the test runs the block with that text
  replaced (a long simulation with fewer runs); several marks may stand above one block.
- ``<!-- file: vale.toml -->`` above a block of any language (a TOML map, a CSV grid): the
  block's text is written to that file in the folder before the document's first command
  (a document may show a file after the commands that read it). In the one-folder run a file
  of that name already there with other text is a collision, and fails.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sybil import Document
from sybil.parsers.markdown.lexers import DirectiveInHTMLCommentLexer, FencedCodeBlockLexer

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def reading_order(readme: Path) -> list[Path]:
    """``readme``, then each document of its ``docs/`` folder in the order the README first
    links it: the order a newcomer reads them in."""
    linked = re.findall(r"\bdocs/([\w-]+\.md)\b", readme.read_text(encoding="utf-8"))
    return [readme, *(readme.parent / "docs" / name for name in dict.fromkeys(linked))]


pytestmark = pytest.mark.slow  # a document takes seconds; all of them in order, a minute

READING_ORDER = reading_order(ROOT / "README.md")
#: The venv's ``bin``: the ``turnkeeper`` the documents run, whatever runs pytest.
BIN = Path(sys.executable).parent
MARKS = "skip|fails|smaller|file"
#: The most a command may take: a stuck command fails its document, not the whole run.
TIMEOUT = 120


@dataclass
class Block:
    """One fenced block of a document and the marks above it."""

    document: Path
    line: int
    language: str
    source: str
    marks: list[tuple[str, str]] = field(default_factory=list)

    def mark(self, name: str) -> str | None:
        return next((value for mark, value in self.marks if mark == name), None)

    @property
    def where(self) -> str:
        return f"{self.document.name}:{self.line}"


@dataclass
class Command:
    """A command of a shell block, the line it is on, and the output it shows (if any)."""

    text: str
    line: int
    output: list[str] | None = None
    #: The quoted texts of the comment beside it, on the last command of its line.
    says: list[str] = field(default_factory=list)


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of the document at ``path``, in order, each with its marks."""
    document = Document(path.read_text(encoding="utf-8"), str(path))
    fences = FencedCodeBlockLexer(language=r"[\w-]*")
    comments = DirectiveInHTMLCommentLexer(directive=MARKS, arguments=".*?")
    marks = sorted(
        (region.start, region.end, region.lexemes["directive"], region.lexemes["arguments"])
        for region in comments(document)
    )
    found = []
    for region in fences(document):
        above = [
            (name, value.strip())
            for start, end, name, value in marks
            # a mark stands just above its block: only blank lines and other marks between
            if end <= region.start and not _words_between(document.text, end, region.start)
        ]
        found.append(
            Block(
                path,
                document.text.count("\n", 0, region.start) + 1,
                region.lexemes["language"],
                str(region.lexemes["source"]),
                above,
            )
        )
    return found


def _words_between(text: str, start: int, end: int) -> bool:
    """Whether anything but blank lines and HTML comments stands between ``start`` (the end of a
    mark, before its ``-->``) and ``end`` (a block's fence)."""
    between = re.sub(r"^-+>", "", text[start:end])
    return bool(re.sub(r"<!--.*?-->", "", between, flags=re.DOTALL).strip())


def commands(block: Block) -> list[Command]:
    """The commands of a shell block, continuations joined, each with its expected output."""
    source = block.source
    for mark, value in block.marks:
        if mark == "smaller":
            old, _, new = value.partition(" -> ")
            assert old in source, f"{block.where}: 'smaller: {value}' names no text of the block"
            source = source.replace(old, new)
    lines = source.splitlines()
    prompted = any(line.startswith("$ ") for line in lines)
    found: list[Command] = []
    pending = ""
    for number, line in enumerate(lines, start=block.line + 1):
        if prompted and not line.startswith("$ ") and not pending:
            if found and found[-1].output is not None:
                found[-1].output.append(line)
            continue
        text = line[2:] if prompted and not pending else line
        text = text.strip() if pending else text
        if text.rstrip().endswith("\\"):
            pending += text.rstrip()[:-1].rstrip() + " "
            continue
        text, pending = pending + text, ""
        command, comment = _uncommented(text)
        parts = [Command(part, number, [] if prompted else None) for part in _split(command)]
        if parts:
            parts[-1].says = re.findall(r'"([^"]+)"', comment)
        found += parts
    return found


def _uncommented(line: str) -> tuple[str, str]:
    """``line`` without its shell comment (a ``#`` outside quotes, after a space), and the
    comment."""
    quote = None
    for place, char in enumerate(line):
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (place == 0 or line[place - 1].isspace()):
            return line[:place].rstrip(), line[place + 1 :].strip()
    return line.rstrip(), ""


def _split(line: str) -> list[str]:
    """The commands of one line, split at ``;`` and ``&&`` outside quotes."""
    parts, start, quote, place = [], 0, None, 0
    while place < len(line):
        char = line[place]
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ";" or line.startswith("&&", place):
            parts.append(line[start:place])
            place += 1 if char == ";" else 2
            start = place
            continue
        place += 1
    parts.append(line[start:])
    return [part.strip() for part in parts if part.strip()]


def matches(expected: list[str], printed: str) -> bool:
    """Whether ``printed`` is the ``expected`` lines, ``...`` standing for any text."""
    want = "\n".join(line.rstrip() for line in expected).strip("\n")
    got = "\n".join(line.rstrip() for line in printed.splitlines()).strip("\n")
    pattern = ".*?".join(re.escape(piece) for piece in want.split("..."))
    return re.fullmatch(pattern, got, re.DOTALL) is not None


def says(quoted: str, printed: str) -> bool:
    """Whether ``printed`` holds ``quoted`` (a comment's quoted text), runs of spaces and line
    breaks read as one space and ``...`` standing for any text."""
    got = " ".join(printed.split())
    pieces = [re.escape(" ".join(piece.split())) for piece in quoted.split("...")]
    return re.search(".*?".join(pieces), got, re.DOTALL) is not None


@dataclass
class Tally:
    """What a document's run did, for the count printed at the end of the run."""

    blocks: int = 0
    commands: int = 0
    skipped: list[str] = field(default_factory=list)


def run_document(path: Path, folder: Path, tally: Tally, client: Path) -> None:
    """Run every block of ``path`` in order in ``folder``, counting in ``tally``; fail on the
    first command that does not do what the document says. ``client``: the folder of the
    fork server's ``turnkeeper`` (the ``turnkeeper_client`` fixture)."""
    run_documents([path], folder, tally, client)


def run_documents(paths: list[Path], folder: Path, tally: Tally, client: Path) -> None:
    """Run every block of the documents at ``paths``, one after the other, in one folder and
    one store in ``folder``, as a reader following them all at one machine would."""
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(client), str(BIN), os.environ.get("PATH", "")]),
        "TURNKEEPER_DB": str(folder / "store" / "turnkeeper.db"),
        "XDG_DATA_HOME": str(folder / "data"),
        "COLUMNS": "200",
        "NO_COLOR": "1",
        "TERM": "dumb",
    }
    (folder / "store").mkdir()
    work = folder / "work"
    work.mkdir()
    for path in paths:
        _run_blocks(path, work, env, tally)


def _run_blocks(path: Path, work: Path, env: dict[str, str], tally: Tally) -> None:
    found = blocks(path)
    for block in found:  # the files a document shows, there before its first command
        file = block.mark("file")
        if file:
            there = work / file
            assert not there.exists() or there.read_text(encoding="utf-8") == block.source, (
                f"{block.where}: {file} is there already, another document's: give it a "
                "name of its own"
            )
            there.write_text(block.source, encoding="utf-8")
    for block in found:
        if block.language != "sh" or block.mark("file"):
            continue
        skip = block.mark("skip")
        if skip is not None:
            tally.skipped.append(f"{block.where}: {skip}")
            continue
        tally.blocks += 1
        fails = block.mark("fails")
        printed = ""  # what the commands of one line print, for the comment beside it
        listed = commands(block)
        for number, command in enumerate(listed):
            tally.commands += 1
            result = subprocess.run(
                ["bash", "-c", command.text],
                cwd=work,
                env=env,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
            said = f"{path.name}:{command.line}: `{command.text}` exited {result.returncode}\n"
            said += f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
            if fails is None:
                assert result.returncode == 0, said
            else:
                assert result.returncode == 2, said
                assert fails in result.stderr, f"{said}\nexpected on stderr: {fails}"
            if command.output is not None:
                assert matches(command.output, result.stdout), f"{said}\nexpected:\n" + "\n".join(
                    command.output
                )
            printed += result.stdout + "\n" + result.stderr + "\n"
            for quoted in command.says:
                assert says(quoted, printed), f'{said}\nthe comment says it prints "{quoted}"'
            if number + 1 == len(listed) or listed[number + 1].line != command.line:
                printed = ""


@pytest.mark.parametrize("path", DOCUMENTS, ids=[str(p.relative_to(ROOT)) for p in DOCUMENTS])
def test_document_runs_as_written(
    path: Path, tmp_path: Path, turnkeeper_client: Path, record_property: pytest.RecordProperty
) -> None:
    started, tally = time.monotonic(), Tally()
    try:
        run_document(path, tmp_path, tally, turnkeeper_client)
    finally:
        record_property("doc_blocks", tally.blocks)
        record_property("doc_commands", tally.commands)
        record_property("doc_skipped", tally.skipped)
        record_property("doc_seconds", round(time.monotonic() - started, 1))


def test_the_documents_run_in_one_folder_in_reading_order(
    tmp_path: Path, turnkeeper_client: Path, record_property: pytest.RecordProperty
) -> None:
    """README.md and docs/ followed in one folder and one store, in the order a newcomer reads
    them: no campaign or file of one collides with another's (issue 42)."""
    assert sorted(READING_ORDER) == sorted(DOCUMENTS), "the README links every document of docs/"
    started, tally = time.monotonic(), Tally()
    try:
        run_documents(READING_ORDER, tmp_path, tally, turnkeeper_client)
    finally:
        record_property(
            "docs_in_one_folder",
            f"{tally.blocks} shell blocks, {tally.commands} commands ran "
            f"({time.monotonic() - started:.0f} s)",
        )
