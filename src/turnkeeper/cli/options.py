"""The options many verbs share, and the one parser of each option's text.

``--db`` and ``--campaign`` pick the stored campaign, ``--dice`` takes the faces of physical
dice, ``--set`` gives the values dice notation names, ``--player`` shows the party's view.
``--json`` stays with the app (:data:`turnkeeper.cli.app.JsonOption`).
"""

from __future__ import annotations

import re

import typer

from turnkeeper.dice import parse_faces
from turnkeeper.errors import DiceNotationError

DbOption = typer.Option(
    None, "--db", help="SQLite file or database URL (default: $TURNKEEPER_DB, else user data)."
)
CampaignOption = typer.Option(
    None, "--campaign", "-c", help="The campaign to act on (default: the one `use` chose)."
)
DiceOption = typer.Option(
    None, "--dice", help="Physical dice you rolled, in order, instead of seeded dice: 3,5."
)
SetOption = typer.Option(
    None, "--set", help="A value the dice notation names, e.g. --set STR=2 (repeatable)."
)
PlayerOption = typer.Option(False, "--player", help="Show only what the party perceives.")

_SET_ITEM = re.compile(r"\s*([A-Z][A-Z0-9_]*)\s*=\s*([+-]?\d{1,9})\s*")


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
