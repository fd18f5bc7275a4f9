"""Shared fixtures: an event store on every backend we support.

SQLite always runs. PostgreSQL runs when ``TURNKEEPER_TEST_PG`` holds a URL such as
``postgresql+psycopg://postgres@127.0.0.1:5432/test``; each test gets its own schema, dropped
afterwards, so runs never see each other's campaigns.
"""

from __future__ import annotations

import compileall
import gc
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _pytest.assertion.rewrite import (
    PYC_TAIL,
    _read_pyc,
    _rewrite_test,
    _write_pyc,
    assertstate_key,
    get_cache_dir,
    try_makedirs,
)
from hypothesis import settings

# No test may depend on the machine's speed: hypothesis's default deadline of 200 ms per
# example fails on a busy machine (xdist shares two cores with whatever else runs). Timing
# claims live in bench/; a hang is caught by a test's own generous bound where it matters.
settings.register_profile("turnkeeper", deadline=None)
settings.load_profile("turnkeeper")

PG_ENV = "TURNKEEPER_TEST_PG"
PG_EXAMPLE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@dataclass(frozen=True)
class Backend:
    """Where a test's store lives: a SQLAlchemy URL and, for PostgreSQL, a private schema."""

    url: str
    schema: str | None = None


@contextmanager
def pg_schema(url: str) -> Iterator[str]:
    """A fresh PostgreSQL schema, dropped with everything in it on exit."""
    from sqlalchemy import create_engine, text

    schema = f"tk_test_{uuid.uuid4().hex[:12]}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield schema
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    """Each store test runs once per backend; PostgreSQL is skipped without its URL."""
    if request.param == "sqlite":
        yield Backend(f"sqlite:///{tmp_path / 'turnkeeper.db'}")
        return
    url = os.environ.get(PG_ENV)
    if not url:
        pytest.skip(f"PostgreSQL store tests need {PG_ENV}={PG_EXAMPLE}")
    with pg_schema(url) as schema:
        yield Backend(url, schema)


def pytest_configure(config: pytest.Config) -> None:
    """Compile turnkeeper's modules and rewrite the tests' asserts once, before the test
    processes start: with ``PYTHONDONTWRITEBYTECODE`` set (as on some CI machines), Python
    writes no bytecode, and every test process and every ``turnkeeper`` a test starts would
    compile the source again (about 0.3 s of CPU each, hundreds of times), and pytest would
    rewrite the asserts of every test module and plugin in every test process. Bytecode is
    still read where it is found."""
    if not hasattr(config, "workerinput"):  # the controller, not each xdist worker
        compileall.compile_dir(Path(__file__).resolve().parents[1] / "src", quiet=1)
        _rewrite_asserts_once(config)


def _rewrite_asserts_once(config: pytest.Config) -> None:
    """Write pytest's rewritten bytecode of every test module and conftest, and of the
    plugins it rewrote on starting (hypothesis's, schemathesis's: 280 modules), where no
    current one is kept. Rewriting them took each test process about 5 s of CPU on starting.
    This is pytest's own cache (the same files, written the same way, read as it reads them),
    filled by the one process that may write it; pytest is pinned, as these are its internals."""
    state = config.stash.get(assertstate_key, None)
    if state is None or state.hook is None:  # --assert=plain: nothing is rewritten
        return
    tests = Path(__file__).resolve().parent
    rewritten = {Path(path) for path in state.hook._rewritten_names.values()}
    for module in rewritten | {*tests.rglob("test_*.py"), *tests.rglob("conftest.py")}:
        pyc = get_cache_dir(module) / (module.name[:-3] + PYC_TAIL)
        if _read_pyc(module, pyc) is None and try_makedirs(pyc.parent):
            source_stat, code = _rewrite_test(module, config)
            _write_pyc(state, code, source_stat, pyc)


#: Test processes per CPU under ``-n auto``: much of the suite waits on something else (a
#: browser, a served app, a subprocess, the documents' commands), so one process a CPU leaves
#: them idle; and on a machine shared with other busy processes, the suite's share of the CPUs
#: grows with its processes (beside two busy processes, 4 processes took 10 min 49 s, 6 took
#: 10 min 02 s).
WORKERS_PER_CPU = 3


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: :data:`WORKERS_PER_CPU` test processes per CPU this process may run on,
    unless ``PYTEST_XDIST_AUTO_NUM_WORKERS`` says how many (xdist's own reading of it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return WORKERS_PER_CPU * len(os.sched_getaffinity(0))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``slow`` first, the rest in their order: xdist hands tests out in
    collection order, a test or two at a time to whichever process is free
    (``--maxschedchunk=1``; by default each process is first handed a quarter of its share
    in one block, which put every slow test in the first process's), and a test of a minute
    handed out last keeps every other process waiting for it at the end of the run (longest
    first is the classic way to pack jobs)."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what a test process holds once it has collected: the modules of turnkeeper and
    of every library the suite imports, and the thousands of collected tests, live as long as
    the process, yet each of the collector's full collections walked them all again (up to
    half a second each), and pytest's own collections at the end walked them five times
    over. The objects the tests make are collected as before."""
    gc.collect()
    gc.freeze()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say so when the PostgreSQL half of the store suite did not run, and how to run it."""
    skipped = [
        report
        for report in terminalreporter.stats.get("skipped", [])
        if PG_ENV in str(getattr(report, "longrepr", ""))
    ]
    if skipped:
        terminalreporter.write_sep("-", f"{len(skipped)} PostgreSQL tests skipped", yellow=True)
        terminalreporter.write_line(
            f"They need a PostgreSQL server: {PG_ENV}={PG_EXAMPLE} .venv/bin/pytest "
            "(.ci/run sets it)."
        )
    _docs_summary(terminalreporter)


def _docs_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many shell blocks and commands of the documents ran (tests/docs/test_docs.py),
    and which blocks were skipped and why."""
    reports = [
        dict(report.user_properties)
        for kind in ("passed", "failed")
        for report in terminalreporter.stats.get(kind, [])
        if report.when == "call" and "doc_blocks" in dict(report.user_properties)
    ]
    together = [
        dict(report.user_properties)["docs_in_one_folder"]
        for kind in ("passed", "failed")
        for report in terminalreporter.stats.get(kind, [])
        if report.when == "call" and "docs_in_one_folder" in dict(report.user_properties)
    ]
    for line in together:
        terminalreporter.write_sep("-", f"documents in one folder, in reading order: {line}")
    if not reports:
        return
    blocks = sum(report["doc_blocks"] for report in reports)
    commands = sum(report["doc_commands"] for report in reports)
    skipped = [why for report in reports for why in report["doc_skipped"]]
    seconds = sum(report["doc_seconds"] for report in reports)
    terminalreporter.write_sep(
        "-",
        f"documents: {blocks} shell blocks, {commands} commands ran in {len(reports)} files "
        f"({seconds:.0f} s); {len(skipped)} blocks skipped",
    )
    for why in skipped:
        terminalreporter.write_line(f"skipped {why}")


def free_port() -> int:
    """A loopback port no one listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """Serve the ASGI ``app`` with uvicorn on a free loopback port in a thread; its base URL.

    The server is stopped on leaving, within a second for open event streams.
    """
    import uvicorn  # only the tests that serve pay for it

    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        timeout_graceful_shutdown=1,  # open event streams must not hold the shutdown up
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
