"""The journal as each role reads it: the players' journal and the referee's record.

The players' journal is what the characters perceive. :func:`player_log` picks the records
they may read: party-visible, not taken back by an undo (nor the undo itself), and seen at all
(a torch burning down a turn is not); in a world, only their own party's
(:func:`perceived_by`). :func:`player_record` shapes one: the event's party line
(:meth:`~turnkeeper.kernel.events.Event.describe_to_party`: a foe is hit or falls, never its
armour class or hit points; the torch gutters, never its turns left) and the rolls that line
may show, never the event's data (a party-visible event such as ``campaign.started`` embeds
the seed and the ruleset). :func:`referee_record` is the whole record, with its date and line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from turnkeeper.campaign import CampaignState, Recorded, Visibility
from turnkeeper.campaign.time_record import PartyLines
from turnkeeper.clock.calendar import calendar
from turnkeeper.kernel.events import UNDO_EVENTS, undone_commands


def party_perceives(record: Recorded, undone: frozenset[int]) -> bool:
    """Whether the players' journal holds ``record``: a party-visible event of a command not
    undone, that is not an undo or a redo, and that the characters perceive at all."""
    event = record.event
    return (
        event.visibility is Visibility.PARTY
        and record.command not in undone
        and not isinstance(event, UNDO_EVENTS)
        and event.describe_to_party() is not None
    )


def perceived_by(lines: PartyLines, undone: frozenset[int]) -> Callable[[Recorded], bool]:
    """Which records the players of a party read in a world: those the party perceives
    (:func:`party_perceives`) of its own ``lines`` (:meth:`~turnkeeper.service.Campaigns.
    party_lines`: made while the time record was run for it, or before it split off for the
    party it left). Another party's delve is never theirs.

    >>> from turnkeeper.kernel.events import NoteMade
    >>> mine = PartyLines("Scouts", [(5, "Scouts"), (9, "Keep")], [], "Keep")
    >>> keep = perceived_by(mine, frozenset())
    >>> [keep(Recorded(seq, seq, 0, NoteMade(text="tracks"))) for seq in (3, 7, 9)]
    [False, True, False]
    """

    def keep(record: Recorded) -> bool:
        return party_perceives(record, undone) and record.seq in lines

    return keep


def player_log(records: Sequence[Recorded], since: int = 0) -> list[Recorded]:
    """The players' journal after seq ``since``, from the campaign's WHOLE journal
    (``records``): an undo later on takes back what its command recorded, so the undone
    commands are read from every record, not only the ones after ``since``.

    >>> from turnkeeper.campaign import Journal, Light, Undo, parse_party
    >>> from turnkeeper.rules.loader import preset
    >>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6\\n[supplies]\\ntorches = 1')
    >>> journal = Journal.start("Keep", preset("ex"), party, seed=1)
    >>> _ = journal.execute(Light("torch")), journal.execute(Undo())
    >>> [r.event.kind for r in journal.records], [r.event.kind for r in player_log(journal.records)]
    (['campaign.started', 'light.lit', 'command.undone'], ['campaign.started'])
    """
    undone = undone_commands(records)
    return [r for r in records if r.seq > since and party_perceives(r, undone)]


def referee_record(
    record: Recorded, state: CampaignState, undone: frozenset[int] | None = None
) -> dict[str, Any]:
    """A journal record for the referee: the whole record, its game date and its line; with
    ``undone`` (:func:`undone_commands` of the journal), whether an undo took it back."""
    out = record.to_record()
    out["date"] = calendar(record.at, state.ruleset.time)
    out["text"] = record.event.describe()
    if undone is not None:
        out["undone"] = record.command in undone
    return out


def referee_record_json(
    stored: str,
    record: Recorded,
    state: CampaignState,
    undone: frozenset[int],
    ascii_only: bool = False,
) -> str:
    """:func:`referee_record` as compact JSON, from the record's text as the store keeps it
    (``stored``, the JSON object of ``record``): that text is written as it is and only the
    date, the line and whether it was undone are made, so a whole log streams at about the
    cost of reading it. ``ascii_only`` escapes every non-ASCII character (JSON text outside
    strings is ASCII, so only strings change)."""
    extra = {
        "date": calendar(record.at, state.ruleset.time),
        "text": record.event.describe(),
        "undone": record.command in undone,
    }
    tail = json.dumps(extra, ensure_ascii=ascii_only, separators=(",", ":"))
    if ascii_only and not stored.isascii():
        stored = _NON_ASCII.sub(lambda m: json.dumps(m.group())[1:-1], stored)
    return stored[:-1] + "," + tail[1:]


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def player_record(record: Recorded, state: CampaignState) -> dict[str, Any]:
    """A party-visible record for players: the line the party reads and the rolls it may
    show, never the event's data. A record the characters do not perceive (pick records with
    :func:`player_log`) has an empty line."""
    if record.event.visibility is not Visibility.PARTY:
        raise ValueError(f"record {record.seq} is the referee's")
    line = record.event.describe_to_party()
    return {
        "seq": record.seq,
        "command": record.command,
        "at": record.at,
        "date": calendar(record.at, state.ruleset.time),
        "kind": record.event.kind,
        "visibility": record.event.visibility.value,
        "text": line or "",
        "rolls": [roll.text() for roll in record.event.rolls_to_party()] if line else [],
    }
