"""Start-up benchmark: the CPU a command costs before it does anything, as a ratio.

    .venv/bin/python bench/startup.py [--runs 5]

Each figure is the median CPU time (user + system) of ``--runs`` fresh processes, divided by
the median of the baseline measured in the same run: ``python -c "import typer, rich,
pydantic"``, what any Typer CLI with pydantic models pays before its first line. Target:
``turnkeeper roll d20 --json``, ``turnkeeper --help`` and ``turnkeeper status --json`` (on
a store holding the demo expedition) each at most 3x the baseline.

CPU time, not wall clock, so a busy machine moves the figures less; the processes run one
after another, interleaved, so a slow spell weighs on every command alike. For reference,
not judged: the floor of a campaign verb that opens its store with SQLAlchemy. ``status``
does not: it reads the glance the service kept after the last command (turnkeeper.store.glance)
with the standard library's sqlite3, and loads neither SQLAlchemy nor the engine.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

TARGET = 3.0
FLOOR = "floor of a campaign verb: ... sqlalchemy"


def turnkeeper(*args: str) -> list[str]:
    """The command line of the installed ``turnkeeper`` script (beside this Python)."""
    script = Path(sys.executable).with_name("turnkeeper")
    if script.exists():
        return [str(script), *args]
    return [sys.executable, "-m", "turnkeeper", *args]


def cpu_seconds(argv: Sequence[str], env: dict[str, str]) -> float:
    """The CPU time one run of ``argv`` costs, its children included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="processes per command (median)")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "TURNKEEPER_DB": f"sqlite:///{Path(tmp) / 'bench.db'}"}
        subprocess.run(turnkeeper("demo", "--json"), env=env, check=True, capture_output=True)
        commands = {
            "baseline: import typer, rich, pydantic": [
                sys.executable,
                "-c",
                "import typer, rich, pydantic",
            ],
            FLOOR: [sys.executable, "-c", "import typer, rich, pydantic, sqlalchemy"],
            "turnkeeper roll d20 --json": turnkeeper("roll", "d20", "--json"),
            "turnkeeper --help": turnkeeper("--help"),
            "turnkeeper status --json": turnkeeper("status", "--json"),
        }
        for argv in commands.values():  # warm the disk cache and the bytecode
            cpu_seconds(argv, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(runs):
            for name, argv in commands.items():
                times[name].append(cpu_seconds(argv, env))
    medians = {name: statistics.median(values) for name, values in times.items()}
    base_name, *measured = medians
    base = medians[base_name]
    print(f"median CPU of {runs} runs each; target: at most {TARGET:g}x the baseline")
    print(f"  {base_name:<40} {base * 1000:7.0f} ms {1:6.2f}x")
    failed = False
    for name in measured:
        ratio = medians[name] / base
        if name == FLOOR:
            print(f"  {name:<40} {medians[name] * 1000:7.0f} ms {ratio:6.2f}x   (reference)")
            continue
        ok = ratio <= TARGET
        failed |= not ok
        verdict = "PASS" if ok else "FAIL"
        print(f"  {name:<40} {medians[name] * 1000:7.0f} ms {ratio:6.2f}x   {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
