"""CLI verb: ``status``, the referee's glance at the campaign now.

``status`` runs between nearly every two commands at the table, so it starts at once: it
prints the glance the service kept after the campaign's last command
(:mod:`turnkeeper.store.glance`), read from a SQLite store with the standard library alone.
Only when there is none to read (PostgreSQL, a campaign holding a wilderness map, a journal
written by another turnkeeper) does it load the engine and fold the journal, which gives the
same document (:func:`turnkeeper.campaign.glance.glance_of`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from turnkeeper.cli.app import SESSION
from turnkeeper.cli.options import CampaignOption, DbOption
from turnkeeper.cli.output import JsonOption, console, emit, text
from turnkeeper.store import resolve_url
from turnkeeper.store.glance import read_glance

if TYPE_CHECKING:
    from rich.panel import Panel

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

#: How a glance's tones are drawn.
TONES = {"": "", "warn": "yellow", "alarm": "red"}


@verbs.command("status")
def status_command(
    campaign: str | None = CampaignOption, db: str | None = DbOption, as_json: bool = JsonOption
) -> None:
    """Show the campaign now: date and time, light, supplies, countdowns, hit points.

    Example: `turnkeeper status`.
    """
    glance = None
    if SESSION.get() is None:  # a play session's service holds the campaign already
        glance = read_glance(resolve_url(db, create=False), campaign)
    if glance is None:
        glance = folded_glance(db, campaign)
    emit(glance["referee"], as_json, lambda: console().print(status_panel(glance)))


def folded_glance(db: str | None, campaign: str | None) -> dict[str, Any]:
    """The glance of the campaign's state as the service folds it from the journal."""
    # The engine and SQLAlchemy load here, only when no kept glance could be read.
    from turnkeeper.campaign.glance import glance_of
    from turnkeeper.cli.runner import open_campaigns

    with open_campaigns(db) as campaigns:
        return glance_of(campaigns.state(campaigns.resolve(campaign)))


def status_panel(glance: dict[str, Any]) -> Panel:
    """The glance as a panel: its title, and each row's label beside its spans of text."""
    from rich.panel import Panel
    from rich.table import Table

    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    # every cell is text: names come from the user's files and commands
    for label, spans in glance["rows"]:
        grid.add_row(text(label), text(*[(span, TONES[tone]) for span, tone in spans]))
    return Panel(grid, title=text(glance["title"]), expand=False)
