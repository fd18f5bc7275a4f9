"""Any procedure module can be the first thing a program imports (no import-order traps)."""

from __future__ import annotations

import subprocess
import sys

# One interpreter tries each module first in turn, forgetting turnkeeper's own modules in
# between (third-party ones stay loaded, which keeps the test fast).
FIRST_IMPORTS = """
import importlib, pkgutil, sys
import turnkeeper.procedures as procedures
prefix = procedures.__name__ + "."
names = sorted(i.name for i in pkgutil.walk_packages(procedures.__path__, prefix))
failed = []
for name in names:
    for loaded in [m for m in sys.modules if m == "turnkeeper" or m.startswith("turnkeeper.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as error:
        failed.append(f"{name}: {error!r}")
print(len(names))
print("\\n".join(failed))
"""


def test_every_procedure_module_imports_first() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FIRST_IMPORTS], capture_output=True, text=True, check=True
    )
    count, *failures = done.stdout.strip().splitlines()
    assert int(count) > 20
    assert failures == []
