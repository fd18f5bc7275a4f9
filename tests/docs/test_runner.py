"""The documentation runner itself: how it reads blocks, marks, commands and output."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_docs import (
    Tally,
    blocks,
    commands,
    matches,
    reading_order,
    run_document,
    run_documents,
    says,
)

DOC = """\
# A document

<!-- skip: sets up the machine -->
```sh
python3 -m venv .venv
```

<!-- file: notes.txt -->
```text
hello
```

Text between.

```sh
cat notes.txt; echo a && echo "b; c"   # a comment
echo one \\
  two
```

<!-- smaller: --runs 100000 -> --runs 10 -->
```sh
$ echo --runs 100000 'x # y'
--runs 10 x # y
$ echo took 3.2 s
took ... s
```

<!-- fails: no such thing -->
```sh
sh -c 'echo "error: no such thing" >&2; exit 2'
```

```python
print("not a shell block")
```
"""


@pytest.fixture
def doc(tmp_path: Path) -> Path:
    path = tmp_path / "doc.md"
    path.write_text(DOC, encoding="utf-8")
    return path


def test_blocks_carry_their_marks(doc: Path) -> None:
    found = blocks(doc)
    assert [b.language for b in found] == ["sh", "text", "sh", "sh", "sh", "python"]
    assert found[0].mark("skip") == "sets up the machine"
    assert found[1].mark("file") == "notes.txt"
    assert found[2].marks == []  # text stands between the file's mark and this block
    assert found[4].mark("fails") == "no such thing"


def test_commands_split_on_separators_outside_quotes(doc: Path) -> None:
    found = commands(blocks(doc)[2])
    assert [c.text for c in found] == ["cat notes.txt", "echo a", 'echo "b; c"', "echo one two"]
    assert all(c.output is None for c in found)


def test_prompted_lines_have_their_output_and_smaller_numbers(doc: Path) -> None:
    found = commands(blocks(doc)[3])
    assert [c.text for c in found] == ["echo --runs 10 'x # y'", "echo took 3.2 s"]
    assert found[1].output == ["took ... s"]


def test_output_matches_with_ellipses() -> None:
    assert matches(["took ... s"], "took 3.2 s\n")
    assert not matches(["took ... s"], "took 3.2 ms and more\n")


def test_a_document_runs_and_counts(doc: Path, tmp_path: Path, turnkeeper_client: Path) -> None:
    tally = Tally()
    (tmp_path / "run").mkdir()
    run_document(doc, tmp_path / "run", tally, turnkeeper_client)
    assert (tally.blocks, tally.commands) == (3, 7)
    assert tally.skipped == ["doc.md:4: sets up the machine"]


def test_a_command_that_fails_unmarked_fails_the_document(
    tmp_path: Path, turnkeeper_client: Path
) -> None:
    path = tmp_path / "bad.md"
    path.write_text("```sh\nfalse\n```\n", encoding="utf-8")
    (tmp_path / "run").mkdir()
    with pytest.raises(AssertionError, match="`false` exited 1"):
        run_document(path, tmp_path / "run", Tally(), turnkeeper_client)


def test_a_comment_says_in_quotes_what_its_line_prints(
    tmp_path: Path, turnkeeper_client: Path
) -> None:
    path = tmp_path / "said.md"
    path.write_text(
        '```sh\necho "lit: 30 ft"; echo "3   turns"   # the torch: "30 ft", "3 turns"\n```\n',
        encoding="utf-8",
    )
    found = commands(blocks(path)[0])
    assert [c.says for c in found] == [[], ["30 ft", "3 turns"]]  # the line's, on its last
    (tmp_path / "run").mkdir()
    run_document(path, tmp_path / "run", Tally(), turnkeeper_client)


def test_a_comment_that_says_what_is_not_printed_fails_the_document(
    tmp_path: Path, turnkeeper_client: Path
) -> None:
    path = tmp_path / "wrong.md"
    path.write_text('```sh\necho "no winner"   # "the rest flee"\n```\n', encoding="utf-8")
    (tmp_path / "run").mkdir()
    with pytest.raises(AssertionError, match='the comment says it prints "the rest flee"'):
        run_document(path, tmp_path / "run", Tally(), turnkeeper_client)


def test_quoted_text_matches_across_spaces_and_ellipses() -> None:
    assert says("combat over: no winner", "x\ncombat over:   no\nwinner; y")
    assert says("referee http://localhost...token=...", "referee  http://localhost:8765/k?token=ab")
    assert not says("the rest flee", "combat over: no winner")


def test_the_reading_order_is_the_readmes_links_in_order(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    readme = tmp_path / "README.md"
    readme.write_text(
        "See docs/b.md, then [a](docs/a.md), and docs/b.md again.\n", encoding="utf-8"
    )
    assert reading_order(readme) == [readme, tmp_path / "docs" / "b.md", tmp_path / "docs" / "a.md"]


def test_documents_in_one_folder_share_it_and_may_not_collide(
    tmp_path: Path, turnkeeper_client: Path
) -> None:
    first, second, third = (tmp_path / name for name in ("first.md", "second.md", "third.md"))
    first.write_text("```sh\necho made > made.txt\n```\n", encoding="utf-8")
    second.write_text("```sh\ngrep made made.txt\n```\n", encoding="utf-8")
    third.write_text("<!-- file: made.txt -->\n```text\nother\n```\n", encoding="utf-8")
    (tmp_path / "one").mkdir()
    run_documents(
        [first, second], tmp_path / "one", Tally(), turnkeeper_client
    )  # the second reads the first's
    (tmp_path / "two").mkdir()
    with pytest.raises(AssertionError, match=r"made\.txt is there already"):
        run_documents([first, third], tmp_path / "two", Tally(), turnkeeper_client)
