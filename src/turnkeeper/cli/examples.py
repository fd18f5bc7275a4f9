"""CLI verb: ``examples``, the example files that ship inside the package, copied into a
folder, so an installed turnkeeper follows its documentation as a clone of it does."""

from __future__ import annotations

from importlib.resources import files as package_files
from pathlib import Path
from typing import Annotated

import typer

from turnkeeper.cli.options import ForceOption, check_out
from turnkeeper.cli.output import JsonOption, emit, say
from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.reading import EXAMPLES
from turnkeeper.files.writing import write_text

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()


@verbs.command("examples")
def examples_command(
    folder: Annotated[
        Path, typer.Argument(help="The folder to copy them into (made if missing).")
    ] = Path("examples"),
    force: bool = ForceOption,
    as_json: bool = JsonOption,
) -> None:
    """Copy the example files that ship with turnkeeper into a folder (default ./examples).

    The party (party.toml), two newcomers for a world of several parties (newcomers.toml),
    the two-level site (site.toml), the fighters and foes of `simulate fight`
    (fighters.toml, foes.toml) and three factions of the Vale for `faction load` and
    `simulate months` (factions.toml): the files the README and docs/ use as
    `examples/...`. A file already there as shipped is left as it is; one that differs is
    replaced only with --force.

    Example: `turnkeeper examples`; `turnkeeper examples ~/keep --force`.
    """
    shipped = package_files("turnkeeper.examples")
    if folder.exists() and not folder.is_dir():
        raise TurnkeeperError(f"{folder}: is not a folder; give a folder for the examples")
    targets = [(folder / name, (shipped / name).read_text(encoding="utf-8")) for name in EXAMPLES]
    # a second `examples` in one folder (the README, then a doc) changes nothing and is no error
    kept = [target for target, text in targets if not force and _holds(target, text)]
    if folder.is_dir():  # every file checked before any is written: all or nothing
        for target, _ in targets:
            if target not in kept:
                check_out(target, "example file", force)
    folder.mkdir(parents=True, exist_ok=True)
    for target, text in targets:
        if target not in kept:
            write_text(target, text, "example file")
    copied = [target for target, _ in targets if target not in kept]
    emit(
        {
            "folder": str(folder),
            "files": [str(target) for target in copied],
            "already": [str(target) for target in kept],
        },
        as_json,
        lambda: say(
            f"Copied {len(copied)} example files into {folder}: "
            if copied
            else f"The example files are in {folder} already, as shipped: ",
            ", ".join(target.name for target in copied or kept),
        ),
    )


def _holds(target: Path, text: str) -> bool:
    """Whether ``target`` is a regular file holding ``text`` as shipped."""
    try:
        return target.is_file() and target.read_text(encoding="utf-8") == text
    except (OSError, UnicodeDecodeError):
        return False
