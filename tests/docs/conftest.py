"""The documents' commands run through one fork server per test process (forkserver.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.docs.forkserver import fork_server


@pytest.fixture(scope="session")
def turnkeeper_client() -> Iterator[Path]:
    """The folder holding the fork server's ``turnkeeper``, to put first on ``PATH``."""
    with fork_server() as client:
        yield client
