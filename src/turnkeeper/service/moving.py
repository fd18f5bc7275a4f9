"""Journals as text, in and out: an exported journal read back and checked as a user's file,
a record written as a store writes it, and each record's line as people read it.

An import reads its lines as one JSON array (:func:`parse_journal`); :func:`imported` holds the
records to what a journal's must be (numbered 1, 2, 3..., begun by ``campaign.started``) and
renames the campaign where asked. :class:`~turnkeeper.service.campaigns.Campaigns` replays and
stores them.
"""

from __future__ import annotations

from collections.abc import Iterable

from turnkeeper.campaign import Recorded
from turnkeeper.campaign.registry import EVENTS
from turnkeeper.errors import TurnkeeperError
from turnkeeper.files import check_numbers, parse_json
from turnkeeper.kernel.events import CampaignStarted
from turnkeeper.procedures.parties import PartyArrived, PartySplit

PAGE = 2000
"""Records a whole-journal reader (an export, ``log --json``) reads at a time: about a
megabyte of stored text, whatever the journal's length."""

SaidLine = tuple[int | None, int, str, str]
"""A record as the store keeps it (:data:`~turnkeeper.store.base.StoredLine`), its line said."""


def lines_said(records: Iterable[Recorded]) -> list[str]:
    """Each record's line as people read it, kept beside it by the store."""
    return [r.event.describe() for r in records]


def _lines(text: str) -> list[tuple[int, str]]:
    r"""The JSON Lines of ``text``, numbered: split at line feeds only, since str.splitlines
    also breaks at U+2028 and its kin, which a JSON string may hold as they are.

    >>> _lines('{"text": "a\u2028b"}\r\n\n{}')
    [(1, '{"text": "a\u2028b"}'), (3, '{}')]
    """
    return [
        (n, line.removesuffix("\r"))
        for n, line in enumerate(text.split("\n"), start=1)
        if line.strip()
    ]


def parse_journal(text: str) -> tuple[list[Recorded], list[str] | None]:
    """The records of a journal's lines, in their order, checked as a user's file is, and
    the lines themselves where they are the records as a store writes them (else None).

    The lines are read as one JSON array: every record validated from the text in one go
    (as a store's journal is read back), where a record at a time cost five times as much,
    and its numbers checked as any file's (:func:`~turnkeeper.files.check_numbers`). Only a
    journal that fails (a blank line between its records fails too) is read again a line at
    a time, numbered (:func:`_lines`), to name the line at fault, each line checked whole.
    """
    if not text or text.isspace():
        return [], None
    texts = text.split("\n")
    if not texts[-1]:
        texts.pop()  # the newline ending the last line; a blank line elsewhere goes the long way
    if "\r" in text:
        texts = [line.removesuffix("\r") for line in texts]
    try:
        # Its nesting is not measured: a text that reads as records nests no deeper than
        # their schema lets it, within the files' limit (a test walks the schema), and one
        # that does not read is read again below, a line at a time, each line measured.
        # A page at a time (a page's records stay in the processor's cache from their
        # validation to their check, a sixth faster than the whole at once), with the
        # schema of every kind the journal names.
        kinds = EVENTS.kinds_named(text.encode("utf-8", "surrogatepass"))
        records: list[Recorded] = []
        stored_as_written = True
        for start in range(0, len(texts), PAGE):
            page = ",".join(texts[start : start + PAGE])
            raw = f"[{page}]".encode("utf-8", "surrogatepass")
            read, as_written = EVENTS.journal_json(raw, kinds)
            # a text as pydantic-core writes records holds no NaN nor infinity (it writes null)
            check_numbers(raw, "the journal", reals=not as_written)
            records += read
            stored_as_written = stored_as_written and as_written
        return records, texts if stored_as_written else None
    except TurnkeeperError:
        # the line at fault raises here; if every line reads alone (records out of order,
        # say), the caller's checks say what is wrong
        return [_parse_line(number, line) for number, line in _lines(text)], None


def _parse_line(number: int, line: str) -> Recorded:
    record = parse_json(line, f"line {number}")
    if not isinstance(record, dict):
        raise TurnkeeperError(f"line {number}: a journal record is a JSON object")
    try:
        return EVENTS.record(record)
    except TurnkeeperError as error:
        raise TurnkeeperError(f"line {number}: {error}") from None


def imported(text: str, name: str | None = None) -> tuple[list[Recorded], list[str] | None]:
    """The records of an exported journal (:func:`parse_journal`), checked as a journal's
    must be, the campaign renamed ``name`` where given; and the lines as stored, if they are.
    """
    records, texts = parse_journal(text)
    if not records:
        raise TurnkeeperError("the journal to import is empty")
    seqs = [r.seq for r in records]
    if seqs != list(range(1, len(records) + 1)):
        raise TurnkeeperError("the journal to import must number its records 1, 2, 3... in order")
    first = records[0]
    if not isinstance(first.event, CampaignStarted):
        raise TurnkeeperError("the journal to import must begin with campaign.started")
    if name is not None and name != first.event.name:
        # a world's founding party keeps its name: its records name it (a switch to it)
        world = any(isinstance(r.event, PartySplit | PartyArrived) for r in records)
        founders = first.event.company if world else first.event.party_name
        renamed = first.event.model_copy(update={"name": name, "party_name": founders})
        records[0] = Recorded(first.seq, first.command, first.at, renamed, first.party)
    return records, texts
