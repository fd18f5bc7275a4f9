"""The session log: the journal as Markdown a table reads, day by day and turn by turn.

Each line has its game time, what happened and what was rolled (the breakdown, with
typed-in dice marked). In the referee's log undone commands stay, struck through, because
the record keeps everything. A world of several parties is logged a section per party, each
in its own game time. The players' log is what their characters perceive: no
referee-only event, each event's party line and rolls, and nothing of an undone command.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence

from turnkeeper.campaign.registry import EVENTS
from turnkeeper.campaign.time_record import records_run_for, world_parties
from turnkeeper.clock.calendar import date_at, day_number, start_offset
from turnkeeper.clock.scales import Scales
from turnkeeper.errors import TurnkeeperError
from turnkeeper.kernel.events import (
    UNDO_EVENTS,
    CampaignStarted,
    Recorded,
    Visibility,
    undone_commands,
)


def render_markdown(
    records: Iterable[Recorded | Mapping[str, object]], player: bool = False
) -> str:
    """The Markdown session log of ``records``; ``player=True`` omits referee-only events.

    >>> from turnkeeper.campaign import Journal, Wait, parse_party
    >>> from turnkeeper.rules.schema import Ruleset, RulesetInfo
    >>> rules = Ruleset(ruleset=RulesetInfo(name="demo", title="Demo"))
    >>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6')
    >>> journal = Journal.start("Keep", rules, party, 1)
    >>> _ = journal.execute(Wait(600))
    >>> print(render_markdown(journal.records), end="")
    # Keep
    <BLANKLINE>
    ## Day 1 (1-01-01)
    <BLANKLINE>
    ### Turn of 08:00
    <BLANKLINE>
    - 08:00 campaign Keep starts under demo: Aldo
    <BLANKLINE>
    ### Turn of 08:10
    <BLANKLINE>
    - 08:10 10m pass
    """
    recorded = [r if isinstance(r, Recorded) else EVENTS.record(r) for r in records]
    undone = undone_commands(recorded)
    parties = world_parties(recorded)
    return "".join(world_markdown_lines(lambda: recorded, parties, undone, player))


def world_markdown_lines(
    read: Callable[[], Iterable[Recorded]],
    parties: Sequence[str],
    undone: Collection[int],
    player: bool = False,
) -> Iterator[str]:
    """The session log of a world of ``parties`` (:func:`~turnkeeper.campaign.time_record.
    world_parties`), as a referee prints it for a session's notes: a section for each party,
    its lines in its own game time (the journal holds the parties' commands in the order they
    were given, each party at its own present). ``read`` reads the journal afresh, once for
    each party: a journal streamed a page at a time is written in constant memory. A world of
    one party is one log, as :func:`markdown_lines` writes it."""
    if len(parties) < 2:
        yield from markdown_lines(read(), undone, player)
        return
    for number, party in enumerate(parties):
        yield from markdown_lines(read(), undone, player, party=party, title=number == 0)


def markdown_lines(
    records: Iterable[Recorded],
    undone: Collection[int],
    player: bool = False,
    *,
    party: str | None = None,
    title: bool = True,
) -> Iterator[str]:
    """The session log's lines (each ending in a newline), made as ``records`` come: only the
    first record's ruleset and the day and turn last headed are kept, so a journal streamed
    a page at a time is written in constant memory. ``undone``: the commands an undo took
    back anywhere in the journal and no redo brought back (an undo strikes out lines written
    before it is read). ``party``: only that party's section of a world (its heading, then its
    days and turns a level deeper; nothing if it has no line to show); ``title``: begin with
    the campaign's name."""
    day_seen: int | None = None
    turn_seen: int | None = None
    started: CampaignStarted | None = None
    time = None
    turn = offset = 0
    deeper = "" if party is None else "#"
    headed = party is None
    for running, beside, record in records_run_for(records):
        event = record.event
        if started is None:
            if not isinstance(event, CampaignStarted):
                break
            started, time = event, event.ruleset.time
            turn, offset = Scales.of(time).turn, start_offset(time)
            if title:
                yield f"# {started.name}\n"
        assert time is not None
        if party is not None and party not in (running, beside):
            continue
        told = event.describe_to_party() if player else event.describe()
        if told is None or (
            player
            and (
                event.visibility is Visibility.REFEREE
                or record.command in undone
                or isinstance(event, UNDO_EVENTS)
            )
        ):
            continue
        if not headed:
            yield f"\n## Party: {party}\n"
            headed = True
        date = date_at(record.at, time)
        day = day_number(record.at, time)
        if day != day_seen:
            yield f"\n{deeper}## Day {day} ({date.day_text})\n"
            day_seen, turn_seen = day, None
        turn_index = (offset + record.at) // turn
        if turn_index != turn_seen:
            turn_start = date_at(turn_index * turn - offset, time)
            yield f"\n{deeper}### Turn of {turn_start.hour:02d}:{turn_start.minute:02d}\n\n"
            turn_seen = turn_index
        text = told
        rolls = event.rolls_to_party() if player else event.rolls
        if rolls:
            text += " (rolled " + "; ".join(roll.text() for roll in rolls) + ")"
        if event.visibility is Visibility.REFEREE:
            text = f"[referee] {text}"
        if record.command in undone:
            text = f"~~{text}~~ (undone)"
        yield f"- {date.hour:02d}:{date.minute:02d} {text}\n"
    if started is None:
        raise TurnkeeperError("a session log needs a journal that starts with campaign.started")
