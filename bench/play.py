"""Play benchmark: the CPU a command costs inside a ``turnkeeper play`` session.

    .venv/bin/python bench/play.py

A session loads the campaign once; each command after the first of its verb should answer
within 50 ms of CPU time (target). The baseline, measured in the same run, is the same
command as a fresh ``turnkeeper`` process (what a referee pays per command without a
session); the ratio says how much of that a session saves.
"""

from __future__ import annotations

import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stderr, redirect_stdout
from importlib.resources import files
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from turnkeeper.cli.play import Table
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store

TARGET_MS = 50.0
EXAMPLES = files("turnkeeper.examples")
LINES = [
    f"site enter {EXAMPLES / 'site.toml'}",
    "light torch",
    *["turn --mode cautious", "status", "log --since 5", "note 'a draught from the east'"] * 6,
    "rest",
    "wait 10m",
    "status",
]


def fresh_process_ms(argv: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000 * ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "play.db")
        env = {**os.environ, "TURNKEEPER_DB": db}
        script = Path(sys.executable).with_name("turnkeeper")
        party = str(EXAMPLES / "party.toml")
        subprocess.run(
            [str(script), "new", "keep", "--ruleset", "ex", "--party", party, "--seed", "3"],
            env=env,
            check=True,
            capture_output=True,
        )
        store = open_store(db)
        with create_pipe_input() as pipe, create_app_session(pipe, DummyOutput()):
            table = Table(Campaigns(store), "keep", history=InMemoryHistory())
            seen: set[str] = set()
            later: list[float] = []
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                for line in LINES:
                    verb = line.split()[0]
                    start = time.process_time()
                    table.execute(line)
                    spent = 1000 * (time.process_time() - start)
                    if verb in seen:
                        later.append(spent)
                    seen.add(verb)
        store.close()
        fresh = statistics.median(
            fresh_process_ms([str(script), "status", "--json"], env) for _ in range(3)
        )
    median, worst = statistics.median(later), max(later)
    ok = median <= TARGET_MS
    verdict = "PASS" if ok else "FAIL"
    print(f"{len(later)} commands after the first of their verb, in one session")
    print(f"  {'session, median CPU per command':<42} {median:7.1f} ms   target <= {TARGET_MS:g}")
    print(f"  {'session, slowest command':<42} {worst:7.1f} ms")
    print(f"  {'baseline: `status --json`, fresh process':<42} {fresh:7.1f} ms")
    print(f"  {'session / fresh process':<42} {median / fresh:7.3f}x   {verdict}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
