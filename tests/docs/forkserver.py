"""A fork server for the documents' commands: turnkeeper imported once, each command its own
process.

The documents run about a thousand ``turnkeeper`` commands, twice (tests/docs/test_docs.py).
Started afresh, each would pay for Python and its imports (0.2 to 0.5 s of CPU, far more than
most commands' own work), and the documents' run would be mostly start-up. Here one server
process imports every module of turnkeeper once; the ``turnkeeper`` the documents' shell finds
first on ``PATH`` is a small client that hands the server its arguments, folder, environment
and its standard input, output and error (the descriptors themselves, over a Unix socket), and
exits with the status the command exits with. The server forks a child for each command, which
takes those descriptors, that folder and that environment, runs :func:`turnkeeper.cli.main`
as the console script does, and reports its exit status. So each command is still a process
of its own, reading and writing what the shell gave it (a pipe, a file, ``< session.txt``), in
its own folder and environment, starting from the same imported state: what a fresh process
does, but for the imports' cost.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import marshal
import os
import pkgutil
import signal
import socket
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import turnkeeper
from turnkeeper.campaign.registry import EVENTS
from turnkeeper.cli import main

#: The client, written as ``turnkeeper`` into the folder put first on ``PATH``. ``-IS``:
#: no user site, no site-packages, no environment variables read, so it starts in about 10 ms.
CLIENT = """\
#!{python} -IS
import marshal, os, socket, sys
connection = socket.socket(socket.AF_UNIX)
connection.connect({address!r})
asked = marshal.dumps(([os.fsencode(a) for a in sys.argv], os.getcwdb(), dict(os.environb)))
socket.send_fds(connection, [len(asked).to_bytes(8, "big")], [0, 1, 2])
connection.sendall(asked)
status = b""
while len(status) < 4:
    got = connection.recv(4 - len(status))
    if not got:
        sys.exit("turnkeeper (fork server): the command's process ended without a status")
    status += got
sys.exit(int.from_bytes(status, "big", signed=True))
"""

#: The most a command may run before its process is stopped: the test's own timeout stops
#: only the shell, not the forked child.
ALARM_SECONDS = 300


@contextmanager
def fork_server() -> Iterator[Path]:
    """A fork server running for the block's duration; the folder holding its ``turnkeeper``
    client, to put first on ``PATH``."""
    # A short folder of its own: a Unix socket's address holds at most 107 bytes.
    with tempfile.TemporaryDirectory(prefix="tk-fork-") as where:
        yield from _serving(Path(where))


def _serving(folder: Path) -> Iterator[Path]:
    address = folder / "turnkeeper.sock"
    bin_folder = folder / "bin"
    bin_folder.mkdir()
    client = bin_folder / "turnkeeper"
    client.write_text(CLIENT.format(python=sys.executable, address=str(address)))
    client.chmod(0o755)
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.docs.forkserver", str(address)],
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        ready = server.stdout.readline()
        assert ready == "ready\n", f"the fork server did not start: {ready!r}"
        yield bin_folder
    finally:
        server.terminate()
        server.wait(timeout=30)
        if server.stdout is not None:
            server.stdout.close()


def serve(address: str) -> None:
    """Import turnkeeper, listen at ``address`` and fork a child for each command, forever."""
    for module in pkgutil.walk_packages(turnkeeper.__path__, "turnkeeper."):
        importlib.import_module(module.name)
    EVENTS.schema()  # every kind's, once here: it covers every journal, so no command builds one
    # Children are never waited for: the client learns the status from the child itself.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(address)
    listener.listen(64)
    print("ready", flush=True)
    while True:
        connection, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            _run_command(connection)  # never returns
        connection.close()


def _run_command(connection: socket.socket) -> None:
    """In the forked child: become the client's command, run it, send its status, exit."""
    status = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # a command waits for its own children
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.alarm(ALARM_SECONDS)
        header, descriptors, _, _ = socket.recv_fds(connection, 8, 3)
        size = int.from_bytes(header, "big")
        asked = b""
        while len(asked) < size:
            asked += connection.recv(size - len(asked))
        argv, folder, environment = marshal.loads(asked)
        for target, descriptor in enumerate(descriptors):
            os.dup2(descriptor, target)
            os.close(descriptor)
        _standard_streams()
        os.chdir(folder)
        os.environb.clear()
        os.environb.update(environment)
        sys.argv = [os.fsdecode(arg) for arg in argv]
        status = _exit_status(main)
        atexit._run_exitfuncs()
    except BaseException:  # the server's own failure, not the command's: say it on stderr
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            # a closed pipe (``| head``): Python's own exit says nothing of it either
            with contextlib.suppress(OSError):
                stream.flush()
        connection.sendall(status.to_bytes(4, "big", signed=True))
        os._exit(status)


def _standard_streams() -> None:
    """New ``sys.stdin``, ``stdout`` and ``stderr`` over the client's descriptors, made as
    Python makes them at start-up (the server's were made for its own: a pipe, not a file or a
    terminal), in the server's encoding, which the client's environment shares."""
    encoding, errors = sys.stdout.encoding, sys.stdout.errors
    sys.stdin = sys.__stdin__ = open(0, encoding=encoding, errors=errors, closefd=False)  # noqa: SIM115
    sys.stdout = sys.__stdout__ = open(  # noqa: SIM115
        1, "w", buffering=1 if os.isatty(1) else -1, encoding=encoding, errors=errors, closefd=False
    )
    sys.stderr = sys.__stderr__ = open(  # noqa: SIM115
        2, "w", buffering=1, encoding=encoding, errors="backslashreplace", closefd=False
    )


def _exit_status(run: Callable[[], object]) -> int:
    """The status a process running ``run`` exits with, as Python's own exit reads a
    ``SystemExit`` (``None`` 0, a number itself, anything else printed and 1) or an uncaught
    exception (its traceback printed, 1)."""
    try:
        run()
    except SystemExit as exit_:
        if exit_.code is None:
            return 0
        if isinstance(exit_.code, int):
            return exit_.code & 0xFF
        print(exit_.code, file=sys.stderr)
        return 1
    except BaseException:
        traceback.print_exc()
        return 1
    return 0


if __name__ == "__main__":
    serve(sys.argv[1])
