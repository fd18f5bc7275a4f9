"""The options many verbs share, and the one parser of each option's text.

``--db`` and ``--campaign`` pick the stored campaign, ``--dice`` takes the faces of physical
dice, ``--set`` gives the values dice notation names, ``--player`` shows the party's view.
``--json`` stays with the output (:data:`turnkeeper.cli.output.JsonOption`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import typer

from turnkeeper.dice import parse_faces
from turnkeeper.errors import DiceNotationError
from turnkeeper.files import names
from turnkeeper.files.writing import check_output


def _campaign_given(name: str | None) -> str | None:
    # `-c ""` (an unset shell variable, say) must not quietly mean the current campaign
    if name is not None and not name.strip():
        raise typer.BadParameter("the campaign's name is empty; leave -c out for the current one")
    return name


def _db_given(db: str | None) -> str | None:
    # `--db ""` would quietly mean the default store in the user's data folder
    if db is not None and not db.strip():
        raise typer.BadParameter("the store is empty; leave --db out for the default one")
    return db


DbOption = typer.Option(
    None,
    "--db",
    callback=_db_given,
    metavar="DB",
    help="SQLite file or database URL (default: $TURNKEEPER_DB, else user data).",
)
CampaignOption = typer.Option(
    None,
    "--campaign",
    "-c",
    callback=_campaign_given,
    metavar="NAME",
    help="The campaign to act on (default: the one `use` chose).",
)
DiceOption = typer.Option(
    None,
    "--dice",
    metavar="FACES",
    help="Physical dice you rolled, in order, instead of seeded dice: 3,5.",
)
SetOption = typer.Option(
    None,
    "--set",
    metavar="NAME=N",
    help="A value the dice notation names, e.g. --set STR=2 (repeatable).",
)
PlayerOption = typer.Option(False, "--player", help="Show only what the party perceives.")
AsPartyOption = typer.Option(
    None,
    "--as",
    help="Run this one command as that party of the world (default: the party run now); "
    "the party run stays as it was: `party switch` changes it.",
    metavar="PARTY",
    show_default=False,
)
ForceOption = typer.Option(False, "--force", help="Replace the output file if it exists.")

#: A PNG's longest side at most, in pixels: 8,000 x 8,000 is 256 MB of pixels to draw (four
#: bytes each), which a small machine spares; a larger drawing is scaled down to fit.
PNG_MOST = 8_000
#: A PNG's pixels at most unless --png-size asks for more: a 4,000 x 4,000 picture of a
#: million-hex map draws in a second or two; at 8,000 px it takes ten.
PNG_PIXELS = 16_000_000
PngSizeOption = typer.Option(
    None,
    "--png-size",
    min=16,
    help=f"With a .png --out: its longest side in pixels (at most {PNG_MOST:,}). Default: twice "
    f"the drawing's size, scaled down to {PNG_PIXELS // 1_000_000} million pixels if larger.",
)

#: The files beside a SQLite store that hold its campaigns too (its write-ahead log, its
#: shared memory, its rollback journal): no output file may take their place either.
_STORE_COMPANIONS = ("-wal", "-shm", "-journal")

_SET_ITEM = re.compile(r"\s*([A-Z][A-Z0-9_]*)\s*=\s*([+-]?[0-9]{1,9})\s*")  # ASCII digits


def typed_faces(text: str | None) -> list[int] | None:
    """The faces given with ``--dice 3,5`` (None when not given); commas or spaces separate.

    >>> typed_faces("3,5"), typed_faces("3 5"), typed_faces(None)
    ([3, 5], [3, 5], None)
    """
    return None if text is None else parse_faces(text, "--dice")


def set_values(items: list[str] | None) -> dict[str, int]:
    """The values given with ``--set NAME=NUMBER`` (repeatable), by name.

    >>> set_values(["STR=2", "CHA = -1"])
    {'STR': 2, 'CHA': -1}
    """
    values: dict[str, int] = {}
    for item in items or []:
        match = _SET_ITEM.fullmatch(item)
        if match is None:
            raise DiceNotationError(
                f"--set {item!r}: write NAME=NUMBER with an upper-case name, e.g. --set STR=2"
            )
        values[match.group(1)] = int(match.group(2))
    return values


def check_seed(seed: int | None, option: str = "--seed") -> int | None:
    """A seed as given, if SQLite and numpy can keep it
    (:func:`turnkeeper.files.names.check_seed`).

    >>> check_seed(7), check_seed(None)
    (7, None)
    """
    return None if seed is None else names.check_seed(seed, option)


def check_out(
    out: Path,
    what: str,
    force: bool,
    db: str | None = None,
    inputs: Iterable[tuple[str | Path | None, str]] = (),
) -> None:
    """Refuse an output file before any work (:func:`~turnkeeper.files.writing.check_output`): the
    campaign store ``--db`` names (or the default one) and its companion files, the
    command's own ``inputs`` (``(path or None, what it is)``), a file that is not a regular
    one, and one that exists unless ``--force``.
    """
    # the store's package is light (SQLAlchemy loads when a store opens), and it is loaded
    # only when a file is to be written, so `odds` without --plot stays without it
    from turnkeeper.store import sqlite_file

    keep: list[tuple[str | Path, str]] = [(path, f"the {name}") for path, name in inputs if path]
    store = sqlite_file(db)
    if store is not None:
        keep.append((store, "the campaign store"))
        keep += [(f"{store}{end}", "a file of the campaign store") for end in _STORE_COMPANIONS]
    check_output(out, what, force=force, keep=keep)


def ruleset_files(*rulesets: str | None) -> list[tuple[str, str]]:
    """The rulesets given as files (not preset names), as :func:`check_out`'s inputs.

    >>> ruleset_files("tp", "house.toml", None)
    [('house.toml', 'ruleset file')]
    """
    return [(r, "ruleset file") for r in rulesets if r and (r.endswith(".toml") or "/" in r)]
