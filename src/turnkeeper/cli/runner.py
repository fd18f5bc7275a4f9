"""The one way a verb acts on a stored campaign: open the store, run a command, show the records.

Every verb group (campaign, dungeon, wilderness, combat, scene) runs its commands through
:func:`run`; the referee sees every record, ``player=True`` only what the party perceives.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.text import Text

from turnkeeper.campaign import AsParty, CampaignState, Command, Recorded, Visibility
from turnkeeper.cli.app import SESSION
from turnkeeper.cli.options import typed_faces
from turnkeeper.cli.output import Piece, console, emit, say, text
from turnkeeper.clock.calendar import calendar
from turnkeeper.errors import NotFoundError
from turnkeeper.kernel.state import same_party
from turnkeeper.service import Campaigns
from turnkeeper.store import open_store, remove_made, unmade
from turnkeeper.views.journal import party_perceives, player_record, referee_record
from turnkeeper.words import did_you_mean

# Game time passing is in the footer's date; the party's narrative leaves it out.
_CLOCK = "clock.advanced"
# What marks a record the players do not see, before its line.
_REFEREE: tuple[Piece, ...] = (("(referee) ", "magenta"),)


@contextmanager
def open_campaigns(db: str | None, create: bool = False) -> Iterator[Campaigns]:
    """The campaign service over the store ``--db`` names, closed afterwards.

    Only the verbs that make a campaign pass ``create``: any other verb given a SQLite file
    that does not exist stops with one error naming it. Inside a ``play`` session every verb
    shares the session's service, so the campaign is read once (:func:`session`).
    """
    shared = SESSION.get()
    if shared is not None:
        with _near_campaign(shared):
            yield shared
        return
    # the store file a verb that makes campaigns makes: removed again if the verb is refused
    made = unmade(db) if create else []
    store = open_store(db, create)
    try:
        campaigns = Campaigns(store)
        with _near_campaign(campaigns):
            yield campaigns
    except BaseException:
        store.close()
        remove_made(made)  # a refused import into a new --db leaves no empty store behind
        raise
    finally:
        store.close()


@contextmanager
def _near_campaign(campaigns: Campaigns) -> Iterator[None]:
    """A campaign name the store does not hold gets the near one it does ('did you mean
    Keep?'), read from the store only when a name was refused."""
    try:
        yield
    except NotFoundError as error:
        name = getattr(error, "campaign", None)
        hint = did_you_mean(name, campaigns.names()) if isinstance(name, str) else ""
        if not hint:
            raise
        raise NotFoundError(
            f"no campaign named {name!r}{hint} (`turnkeeper campaigns` lists them)"
        ) from None


@contextmanager
def session(campaigns: Campaigns) -> Iterator[Campaigns]:
    """Every verb run inside this block uses ``campaigns`` (the ``play`` session's service)."""
    token = SESSION.set(campaigns)
    try:
        yield campaigns
    finally:
        SESSION.reset(token)


def records_data(
    records: list[Recorded], state: CampaignState, player: bool = False
) -> list[dict[str, Any]]:
    """Records for ``--json``: the referee's whole records, or the party's lines and rolls."""
    view = player_record if player else referee_record
    return [view(record, state) for record in records]


def _secret(record: Recorded) -> bool:
    return record.event.visibility is Visibility.REFEREE


#: The log's columns; the last two wrap when the terminal is too narrow.
_LOG_COLUMNS = ("seq", "cmd", "when", "event", "rolls")
#: Between two columns, as a borderless Rich table leaves.
_GAP = "  "


def show_records(records: list[Recorded], state: CampaignState) -> None:
    """Draw records as the referee's log: seq, command, game time, what happened, the rolls.

    Laid out as a borderless table, each column as wide as its longest cell, as one text:
    a Rich table measures and draws every cell on its own, ten times the time for a year's
    log of thousands of rows.
    """
    rows = [
        (
            text((str(record.seq), "dim")),
            text((str(record.command), "dim")),
            text(calendar(record.at, state.ruleset.time)),
            text(*(_REFEREE if _secret(record) else ()), record.event.describe()),
            text("; ".join(roll.text() for roll in record.event.rolls)),
        )
        for record in records
    ]
    heading = tuple(text((column, "bold")) for column in _LOG_COLUMNS)
    widths = _log_widths([heading, *rows], console().width)
    lines = [line for row in (heading, *rows) for line in _log_lines(row, widths)]
    console().print(Text("\n").join(lines), highlight=False, no_wrap=True, crop=False)


def _log_widths(rows: list[tuple[Text, ...]], room: int) -> list[int]:
    """Each column's width: its longest cell; when they do not fit in ``room``, the wider of
    the event and rolls columns gives up width first, down to half of what the others leave
    (as a Rich table collapses its widest columns first)."""
    widths = [max(row[index].cell_len for row in rows) for index in range(len(_LOG_COLUMNS))]
    left = room - sum(widths[:3]) - len(_GAP) * (len(widths) - 1)
    event, rolls = widths[3:]
    if event + rolls > left:
        narrow = min(event, rolls, left // 2)
        wide = max(len("rolls"), left - narrow)
        widths[3:] = [wide, narrow] if event >= rolls else [narrow, wide]
    return widths


def _log_lines(row: tuple[Text, ...], widths: list[int]) -> list[Text]:
    """One row of the log as lines: each cell padded to its column's width, a cell longer
    than its column wrapped onto lines of its own below (Rich's word wrapping)."""
    cells = [
        [cell] if cell.cell_len <= width else list(cell.wrap(console(), width))
        for cell, width in zip(row, widths, strict=True)
    ]
    lines = []
    for depth in range(max(len(cell) for cell in cells)):
        pieces = [cell[depth] if depth < len(cell) else Text() for cell in cells]
        for piece, width in zip(pieces[:-1], widths, strict=False):
            piece.pad_right(width - piece.cell_len)
        lines.append(Text(_GAP).join(pieces))
    return lines


def show_lines(records: list[Recorded], player: bool = False) -> None:
    """Draw records as play goes: one line each, what happened then its rolls, dimmed.

    The party's view shows what the characters perceive (:meth:`Event.describe_to_party`),
    never the clock's own records nor what they do not perceive.
    """
    for record in records:
        event = record.event
        if player:
            line = event.describe_to_party()
            if line is None or event.kind == _CLOCK:
                continue
            rolls_shown = event.rolls_to_party()
        else:
            line, rolls_shown = event.describe(), event.rolls
        rolls = "; ".join(roll.text() for roll in rolls_shown)
        say(
            *(_REFEREE if _secret(record) else ()),
            line,
            *([("  " + rolls, "dim")] if rolls else []),
        )


def run(
    db: str | None,
    campaign: str | None,
    command: Command | Callable[[CampaignState], Command],
    as_json: bool,
    dice: str | None = None,
    *,
    player: bool = False,
    lines: bool = False,
    details: Callable[[str, CampaignState], dict[str, Any]] | None = None,
    where: Callable[[CampaignState], str] | None = None,
) -> None:
    """Run one command against the chosen campaign and print what it recorded.

    ``command`` may be a function of the state, for verbs that read the ruleset first.
    ``dice`` is the ``--dice`` text (physical dice instead of seeded ones). ``player`` keeps
    only the records the party perceives. People see the referee's log table, or with
    ``lines`` (and always in the party's view) one line per record. ``details`` adds keys
    to the JSON from the campaign's name and new state; ``where`` adds to the footer line.
    """
    faces = typed_faces(dice)
    with open_campaigns(db) as campaigns:
        name = campaigns.resolve(campaign)
        if callable(command):
            command = command(campaigns.state(name))
        records = campaigns.execute(name, command, faces)
        state = _ran_as(campaigns.state(name), command)
    shown = [r for r in records if not player or party_perceives(r, frozenset())]
    data: dict[str, Any] = {
        "campaign": name,
        "version": state.version,
        "date": state.date,
        "party": state.company,
        "records": records_data(shown, state, player),
    }
    if details is not None:
        data.update(details(name, state))

    # the turns of the time record to a party and back are the footer's to tell people
    sent_as = isinstance(command, AsParty)
    told = [r for r in shown if r.event.kind != "party.switched"] if sent_as else shown

    def render() -> None:
        if lines or player:
            show_lines(told, player)
        else:
            show_records(told, state)
        at = where(state) if where is not None else ""
        # in a world of several parties, whose present this is: the party the command ran as
        run = f" · {state.company}" if state.away or state.company != name else ""
        say((f"{name}{run} · {state.date}{at} · version {state.version}", "dim"))

    emit(data, as_json, render)


def _ran_as(state: CampaignState, command: Command) -> CampaignState:
    """The state as the party ``command`` ran as lives it: a command sent ``--as`` a party
    leaves the party run as it was, and what it did is told at that party's present."""
    if not isinstance(command, AsParty):
        return state
    if not any(same_party(command.party, party) for party in state.companies):
        return state  # (it joined another party)
    return state.as_party(command.party)
