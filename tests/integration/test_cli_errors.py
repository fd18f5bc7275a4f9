"""A user's mistake is one plain line on stderr, printed as written (no markup eaten)."""

from __future__ import annotations

import subprocess
import sys


def test_an_error_keeps_its_brackets(tmp_path) -> None:
    broken = tmp_path / "moon.toml"
    broken.write_text('extends = "tp"\n[wilderness]\ndie = "moon"\n')
    done = subprocess.run(
        [sys.executable, "-m", "turnkeeper", "rules", "check", str(broken)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "no overloaded die 'moon' in [dice]" in lines[0]
    assert "Traceback" not in done.stderr
