"""The journal: the append-only time record, and the state as the fold of its events.

Undo is an event too (``command.undone`` naming the command): the record keeps
everything, and :func:`fold` skips the undone command's events, so the state forgets them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

from turnkeeper.campaign.commands import Command, decide
from turnkeeper.campaign.events import CampaignStarted, CommandUndone, Event, Recorded
from turnkeeper.campaign.party import Party
from turnkeeper.campaign.state import CampaignState
from turnkeeper.dice import DiceSource, SeededDice
from turnkeeper.errors import TurnkeeperError
from turnkeeper.rules.schema import Ruleset


def start_campaign(name: str, ruleset: Ruleset, party: Party, seed: int) -> list[Event]:
    """The events that start a campaign: the ruleset and party, embedded for replay."""
    if not name.strip():
        raise TurnkeeperError("a campaign needs a name")
    return [CampaignStarted(name=name, seed=seed, ruleset=ruleset, party=party)]


def command_dice(seed: int, version: int) -> SeededDice:
    """The dice for the command that starts at ``version``: the same in every process.

    >>> command_dice(7, 3).die(20) == command_dice(7, 3).die(20)
    True
    """
    digest = hashlib.sha256(f"turnkeeper:{seed}:{version}".encode()).digest()
    return SeededDice(int.from_bytes(digest[:8], "big"))


def step(
    state: CampaignState | None, record: Recorded, undone: frozenset[int] = frozenset()
) -> CampaignState:
    """Fold one record into the state (the first must start the campaign)."""
    event = record.event
    if state is None:
        if not isinstance(event, CampaignStarted):
            raise TurnkeeperError(f"a journal must begin with campaign.started, not {event.kind}")
        return event.start().model_copy(update={"version": record.seq})
    if record.command in undone:
        return state.model_copy(update={"version": record.seq})
    new = event.apply(state)
    live = state.live_commands
    if isinstance(event, CommandUndone):
        live = tuple(c for c in live if c != event.command)
    elif not live or live[-1] != record.command:
        live = (*live, record.command)
    return new.model_copy(update={"version": record.seq, "live_commands": live})


def _as_recorded(records: Iterable[Recorded | Mapping[str, object]]) -> list[Recorded]:
    return [r if isinstance(r, Recorded) else Recorded.from_record(r) for r in records]


def fold(records: Iterable[Recorded | Mapping[str, object]]) -> CampaignState:
    """Rebuild the state from the journal without rolling again; honours undo."""
    recorded = _as_recorded(records)
    undone = frozenset(r.event.command for r in recorded if isinstance(r.event, CommandUndone))
    state: CampaignState | None = None
    for record in recorded:
        state = step(state, record, undone)
    if state is None:
        raise TurnkeeperError("an empty journal has no campaign: start one first")
    return state


class Journal:
    """A campaign in memory: its records and its live state.

    The store keeps the records; a CLI verb loads them, executes one command and appends
    what :meth:`execute` returns (``[r.to_record() for r in ...]``).
    """

    def __init__(self, records: Iterable[Recorded | Mapping[str, object]]) -> None:
        self.records: list[Recorded] = _as_recorded(records)
        self.state: CampaignState = fold(self.records)

    @classmethod
    def start(cls, name: str, ruleset: Ruleset, party: Party, seed: int) -> Journal:
        """A new campaign's journal."""
        events = start_campaign(name, ruleset, party, seed)
        return cls([Recorded(seq=i + 1, command=1, at=0, event=e) for i, e in enumerate(events)])

    @property
    def version(self) -> int:
        """How many records the journal holds (the store's expected version)."""
        return len(self.records)

    def preview(self, command: Command, dice: DiceSource | None = None) -> list[Recorded]:
        """The records ``command`` would append, without appending them."""
        state = self.state
        dice = dice if dice is not None else command_dice(state.seed, state.version)
        events = decide(state, command, dice)
        number = state.version + 1
        records: list[Recorded] = []
        for offset, event in enumerate(events):
            record = Recorded(number + offset, number, state.now, event)
            if isinstance(event, CommandUndone):  # the state forgets: only a refold knows the time
                state = fold([*self.records, *records, record])
            else:
                state = step(state, record)
            records.append(Recorded(seq=number + offset, command=number, at=state.now, event=event))
        return records

    def execute(self, command: Command, dice: DiceSource | None = None) -> list[Recorded]:
        """Decide ``command`` (dice: :func:`command_dice` by default) and append its records."""
        records = self.preview(command, dice)
        self.append(records)
        return records

    def append(self, records: Iterable[Recorded]) -> None:
        """Append records (from :meth:`preview`, or read back from a store)."""
        new = list(records)
        self.records.extend(new)
        if any(isinstance(r.event, CommandUndone) for r in new):
            self.state = fold(self.records)
            return
        for record in new:
            self.state = step(self.state, record)
