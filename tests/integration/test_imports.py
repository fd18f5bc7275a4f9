"""Imports: any procedure module can be imported first, a verb loads only what it needs, and
every event kind is registered in the one registry."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import turnkeeper
from turnkeeper.campaign import EVENTS
from turnkeeper.cli.app import VERBS, load_verb
from turnkeeper.kernel.events import Event

# One interpreter tries each module first in turn, forgetting the procedures' modules in
# between. The layers below them (kernel, world, rules, dice...) stay loaded, as third-party
# libraries do: a layer never imports one above it (import-linter's contracts), so no circle
# through them can start in a procedure, and building their models again for every module
# would only make the test five times slower.
FIRST_IMPORTS = """
import importlib, pkgutil, sys
import turnkeeper.procedures as procedures
prefix = procedures.__name__ + "."
names = sorted(i.name for i in pkgutil.walk_packages(procedures.__path__, prefix))
failed = []
for name in names:
    for loaded in [m for m in sys.modules if m == procedures.__name__ or m.startswith(prefix)]:
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


# What each kind of command loads: a verb's module is imported only when it runs, and the
# heavy libraries only where a command needs them (issue: the CLI that starts at once).
LOADED_BY = """
import json, sys
from turnkeeper.cli.app import main
sys.argv = ["turnkeeper", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit:
    pass
heavy = ("sqlalchemy", "numba", "fastapi", "uvicorn", "icepool", "numpy", "matplotlib")
print(json.dumps(sorted(m for m in heavy if m in sys.modules)), file=sys.stderr)
"""


def loaded_by(*args: str, db: str | None = None) -> list[str]:
    env = {**os.environ, "TURNKEEPER_DB": db} if db else None
    done = subprocess.run(
        [sys.executable, "-c", LOADED_BY, json.dumps(args)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded


@pytest.mark.parametrize("args", [("--help",), ("roll", "d20", "--json"), ("version",)])
def test_help_and_roll_load_no_heavy_library(args: tuple[str, ...]) -> None:
    assert loaded_by(*args) == []


@pytest.mark.parametrize(
    "args",
    [
        ("odds", "3d6", "--json"),
        ("rules", "show", "tp", "--json"),
        ("table", "roll", "wilderness", "--ruleset", "tp", "--milieu", "desert", "--json"),
    ],
)
def test_odds_and_rules_load_no_store_route_kernel_or_server(args: tuple[str, ...]) -> None:
    assert not {"sqlalchemy", "numba", "fastapi", "uvicorn", "matplotlib"} & set(loaded_by(*args))


def test_campaign_verbs_load_the_store_but_not_the_route_kernel_or_the_server(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 'store.db'}"
    loaded_by("demo", "--json", db=db)
    loaded = loaded_by("log", "--json", db=db)
    assert "sqlalchemy" in loaded
    assert not {"numba", "fastapi", "uvicorn", "matplotlib"} & set(loaded)


def test_status_reads_the_kept_glance_without_the_store_library_or_the_engine(
    tmp_path: Path,
) -> None:
    db = f"sqlite:///{tmp_path / 'store.db'}"
    loaded_by("demo", "--json", db=db)
    assert loaded_by("status", "--json", db=db) == []


def test_every_verb_in_the_table_loads_with_the_summary_its_help_shows() -> None:
    for name, verb in VERBS.items():
        command = load_verb(name)
        assert command.name == name
        assert command.get_short_help_str(limit=200) == verb.summary, name


def test_every_event_class_is_registered_once_under_its_kind() -> None:
    for module in pkgutil.walk_packages(turnkeeper.__path__, "turnkeeper."):
        importlib.import_module(module.name)
    events = set()
    todo = [Event]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            events.add(sub)
    abstract = {cls for cls in events if cls.__subclasses__() and cls.kind in ("combat", "scene")}
    assert {EVENTS.kinds[cls.kind] for cls in events - abstract} == events - abstract
