"""The house a new contributor enters (issue 42): rooms small enough to read, and the way of a
command through them as docs/architecture.md tells it, name by name."""

from __future__ import annotations

import ast
import importlib
import math
import re
from pathlib import Path

import pytest

from turnkeeper.world import drawing

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "src" / "turnkeeper"
MOST_LINES = 600


def test_no_module_is_over_600_lines() -> None:
    """A module past 600 lines is split along a seam the game names (style: about 400 lines
    is asking to be split)."""
    long = {
        str(path.relative_to(SOURCE)): lines
        for path in sorted(SOURCE.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}


def _walk() -> str:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    start = text.index("## One command from each front door")
    return text[start : text.index("\n## ", start + 1)]


def _dotted_names() -> list[str]:
    """Every dotted name in backticks in the walk (a module, class or function of turnkeeper,
    written as the document writes them, without the package's own name)."""
    names = re.findall(r"`([a-z_]+(?:\.[A-Za-z_]+)+)`", _walk())
    return sorted(set(names))


def test_the_walk_names_a_good_many_places() -> None:
    """The walk goes through every layer: a section that lost its names would pass below."""
    names = _dotted_names()
    assert len(names) > 30
    assert {name.split(".")[0] for name in names} >= {
        "cli",
        "web",
        "verbs",
        "service",
        "views",
        "campaign",
        "procedures",
        "store",
    }


@pytest.mark.parametrize("name", _dotted_names())
def test_every_name_the_walk_gives_exists(name: str) -> None:
    """Each name of the walk is where the document says: the longest module of its dotted
    path is imported and the rest looked up on it, so a move or a rename fails here."""
    parts = f"turnkeeper.{name}".split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            assert hasattr(found, attribute), f"{name}: no {attribute!r} in {found!r}"
            found = getattr(found, attribute)
        return
    pytest.fail(f"{name}: no module of turnkeeper")


def test_the_pages_hex_geometry_is_the_drawings() -> None:
    """The dashboard's script finds the hex under a press with the drawing's own geometry
    (``world.drawing.centres``): the same size and the same centres, so a press chooses the
    hex the map shows there."""
    script = (SOURCE / "web" / "static" / "turnkeeper.js").read_text(encoding="utf-8")
    size = re.search(r"var SIZE = ([\d.]+), ROW = SIZE \* Math\.sqrt\(3\);", script)
    assert size is not None and float(size[1]) == drawing.SIZE
    assert "cx = SIZE * (1 + 1.5 * col), cy = ROW * (0.5 + row + 0.5 * (col & 1))" in script
    for col, row in [(0, 0), (1, 0), (3, 7), (12, 5)]:
        x, y = drawing.centres(col, row)
        row_unit = drawing.SIZE * math.sqrt(3)
        assert (x, y) == pytest.approx(
            (drawing.SIZE * (1 + 1.5 * col), row_unit * (0.5 + row + 0.5 * (col & 1)))
        )


def test_the_reader_asks_the_store_only_to_read() -> None:
    """Reads never write (docs/architecture.md): what the service reads lives in
    ``service.reader``, which asks the store for nothing but reads; a write there (an
    append, a snapshot, the current campaign) belongs to ``service.campaigns``."""
    tree = ast.parse((SOURCE / "service" / "reader.py").read_text(encoding="utf-8"))
    asked = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "store"
    }
    reads = {
        "campaigns",
        "current",
        "load_snapshot",
        "read",
        "read_json",
        "read_kind",
        "read_lines",
        "version",
    }
    assert asked <= reads, asked - reads
    assert {"version", "read"} <= asked  # the walk found the reader's asks
