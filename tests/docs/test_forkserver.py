"""The fork server the documents run through: each command behaves as a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path


def shell(line: str, client: Path, folder: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``line`` run by bash in ``folder``, the fork server's ``turnkeeper`` first on ``PATH``,
    with a store of the folder's own unless ``env`` names another."""
    return subprocess.run(
        ["bash", "-c", line],
        cwd=folder,
        env={
            **os.environ,
            "PATH": f"{client}{os.pathsep}{os.environ['PATH']}",
            "TURNKEEPER_DB": str(folder / "turnkeeper.db"),
            "XDG_DATA_HOME": str(folder / "data"),
            **env,
        },
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_command_gets_its_arguments_and_prints_to_the_shells_pipe(
    turnkeeper_client: Path, tmp_path: Path
) -> None:
    result = shell("turnkeeper roll 2d6 --seed 7 --json | wc -l", turnkeeper_client, tmp_path)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 1


def test_a_refusal_exits_2_with_its_line_on_stderr(turnkeeper_client: Path, tmp_path: Path) -> None:
    result = shell("turnkeeper roll 2d", turnkeeper_client, tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("error:")
    assert result.stdout == ""


def test_a_command_works_in_the_shells_folder_and_environment(
    turnkeeper_client: Path, tmp_path: Path
) -> None:
    store = tmp_path / "elsewhere" / "store.db"
    store.parent.mkdir()
    made = shell(
        "turnkeeper examples && turnkeeper new keep --ruleset ex --party examples/party.toml",
        turnkeeper_client,
        tmp_path,
        TURNKEEPER_DB=str(store),
    )
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "examples" / "party.toml").is_file()  # written where the shell stands
    assert store.is_file()  # the store the shell's environment names


def test_a_command_reads_the_shells_standard_input(turnkeeper_client: Path, tmp_path: Path) -> None:
    (tmp_path / "session.txt").write_text("wait 1h\nwait 30 minutes\n", encoding="utf-8")
    shell("turnkeeper new keep --ruleset ex --solo", turnkeeper_client, tmp_path)
    played = shell("turnkeeper play keep < session.txt", turnkeeper_client, tmp_path)
    assert played.returncode == 0, played.stderr
    status = shell("turnkeeper status --json", turnkeeper_client, tmp_path)
    assert json.loads(status.stdout)["now"] == 5400  # both lines ran: 90 minutes in seconds
