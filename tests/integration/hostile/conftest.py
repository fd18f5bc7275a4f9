"""The hostile suite's store: one campaign, ``keep``, under ex with the example party."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.integration.hostile.refusals import PARTY


@pytest.fixture
def db(tmp_path: Path, shell) -> str:
    """A store holding one campaign, ``keep``, under ex with the example party."""
    path = str(tmp_path / "tk.db")
    said = shell("new", "keep", "-r", "ex", "--party", PARTY, "--seed", "3", "--db", path)
    assert said.code == 0, said.err
    return path
