"""The ``calendar`` verb: a month of the world as a grid of days (issue 43), each day with
each party's whereabouts, the world's events and the countdowns that ended; ``--player`` the
players' calendar, their party's days and what they heard."""

from __future__ import annotations

import typer
from rich.markup import escape
from rich.table import Table

from turnkeeper.campaign.month_calendar import MonthCalendar
from turnkeeper.cli.options import CampaignOption, DbOption
from turnkeeper.cli.output import JsonOption, console, emit
from turnkeeper.cli.runner import open_campaigns
from turnkeeper.service.calendar import calendar_of
from turnkeeper.views.journal import perceived_by

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()


@verbs.command("calendar")
def calendar_command(
    month: str = typer.Argument(
        "",
        metavar="MONTH",
        help="3 (month 3 of this year), 2-03 (month 3 of year 2); none: the party's month.",
        show_default=False,
    ),
    party: str | None = typer.Option(
        None, "--party", metavar="PARTY", help="That party's days alone (and its month)."
    ),
    player: bool = typer.Option(
        False, "--player", help="The players' calendar: their party's days and what it heard."
    ),
    campaign: str | None = CampaignOption,
    db: str | None = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """A month as a grid of days: each party's whereabouts, the world's events, countdowns.

    Each day holds where each party was (· a day it has not lived yet), the world's events
    (the month turn, the factions' deeds, places changed) and the countdowns that ended.

    Example: `turnkeeper calendar 1`, `turnkeeper calendar --player`.
    """
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        keep = None
        if player:
            state = campaigns.state(name)
            party = party or state.company
            undone = campaigns.undone(name)
            lines = campaigns.party_lines(name, state.as_party(party).company, undone=undone)
            keep = perceived_by(lines, undone)
        view = calendar_of(campaigns, name, month, party=party, keep=keep)
    emit(view.model_dump(mode="json"), as_json, lambda: draw(view))


def draw(view: MonthCalendar) -> None:
    """The month as a Rich table: a row a day, a column a party, then the world's events."""
    whose = "the players' calendar" if view.player else "the calendar"
    table = Table(
        title=f"{escape(view.campaign)}: {whose} of month {view.month}",
        caption=f"present: {view.present}"
        + (f"; earlier: {view.before}" if view.before else "")
        + (f"; later: {view.after}" if view.after else ""),
        show_lines=True,
    )
    table.add_column("day", justify="right")
    for party in view.parties:
        table.add_column(escape(party))
    table.add_column("heard" if view.player else "the world")
    for day in view.days:
        cells = [
            escape(" → ".join(p.where) + (f" ({p.doing})" if p.doing else "")) if p.lived else "·"
            for p in day.parties
        ]
        told = [*day.events, *day.countdowns]
        table.add_row(str(day.day), *cells, escape("\n".join(told)))
    console().print(table)
