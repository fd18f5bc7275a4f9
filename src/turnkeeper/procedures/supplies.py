"""Supplies: counted items and usage-die items, spent by hand or by procedures (PG-USE-1).

A counted item (rations, water, torches, oil) goes down by one per use. A usage-die item
(arrows d10) rolls its die when used: on 1 or 2 it steps down the chain (d12, d10, d8, d6,
d4 by default, ``ruleset.usage_die``); on 1 or 2 on the smallest die it is depleted.
By hand, spending more than the party has is an IllegalCommandError; a procedure that must
spend (forced rest, a meal) records a shortfall instead.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from turnkeeper.dice import DiceSource, UsageDie
from turnkeeper.errors import DiceNotationError, IllegalCommandError
from turnkeeper.kernel.events import Amount, Event, RollRecord, Shown, Text
from turnkeeper.kernel.state import CampaignState
from turnkeeper.words import key_of, near, of_item, unknown

# --- events -------------------------------------------------------------------------------


class SupplyAdded(Event):
    """Counted supplies are added (bought, found, given)."""

    kind: ClassVar[str] = "supply.added"
    shown: ClassVar[Shown] = Shown.PARTY
    item: str
    amount: Amount

    def apply(self, state: CampaignState) -> CampaignState:
        supplies = state.supplies.with_count(
            self.item, state.supplies.count(self.item) + self.amount
        )
        return state.model_copy(update={"supplies": supplies})

    def describe(self) -> str:
        return f"{of_item(self.amount, self.item)} added"


class UsageDieSet(Event):
    """A usage-die item is added or refilled at a given die."""

    kind: ClassVar[str] = "supply.die_set"
    shown: ClassVar[Shown] = Shown.PARTY
    item: str
    sides: int

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"supplies": state.supplies.with_die(self.item, self.sides)})

    def describe(self) -> str:
        return f"{self.item} now at a d{self.sides} usage die"


class SupplyUsed(Event):
    """Counted supplies are spent."""

    kind: ClassVar[str] = "supply.used"
    shown: ClassVar[Shown] = Shown.PARTY
    item: str
    amount: Amount
    reason: Text = "used"
    fed: tuple[str, ...] = Field(
        (),
        description="Who ate, when the supplies are the day's meal (procedures.days): a "
        "night's healing asks (PG-HEAL-1). A meal's word rides on its food, a day's upkeep.",
        exclude_if=lambda fed: not fed,
    )

    def apply(self, state: CampaignState) -> CampaignState:
        supplies = state.supplies.with_count(
            self.item, state.supplies.count(self.item) - self.amount
        )
        if not self.fed:
            return state.model_copy(update={"supplies": supplies})
        rest = state.rest.model_copy(update={"fed_at": state.now, "fed": self.fed})
        return state.model_copy(update={"supplies": supplies, "rest": rest})

    def describe(self) -> str:
        return f"{of_item(self.amount, self.item)} spent{_why(self.reason)}"


class UsageDieRolled(Event):
    """A usage-die item is used: its die is rolled and may step down or deplete (PG-USE-1)."""

    kind: ClassVar[str] = "supply.usage_rolled"
    shown: ClassVar[Shown] = Shown.PARTY
    item: str
    before: int
    after: int | None
    reason: str = "used"

    def apply(self, state: CampaignState) -> CampaignState:
        return state.model_copy(update={"supplies": state.supplies.with_die(self.item, self.after)})

    def describe(self) -> str:
        face = self.rolls[0].total if self.rolls else "?"
        if self.after == self.before:
            result = f"stays d{self.before}"
        elif self.after is None:
            result = "depleted"
        else:
            result = f"d{self.before} steps down to d{self.after}"
        return f"{self.item} used{_why(self.reason)}: rolled {face}, {result}"


class SupplyShortfall(Event):
    """A procedure needed more of an item than the party had; they went without."""

    kind: ClassVar[str] = "supply.shortfall"
    shown: ClassVar[Shown] = Shown.PARTY
    item: str
    needed: int
    had: int
    reason: str

    def describe(self) -> str:
        return f"short of {self.item} for {self.reason}: needed {self.needed}, had {self.had}"


def _why(reason: str) -> str:
    """`` (a meal)`` after a supply's use; nothing for the plain "used" (issue 25: "arrows
    used (used)")."""
    return f" ({reason})" if reason and reason != "used" else ""


# --- procedures ---------------------------------------------------------------------------


def _usage_die(state: CampaignState, item: str) -> UsageDie:
    return UsageDie(state.supplies.dice[item], tuple(state.ruleset.usage_die))


def roll_usage(
    state: CampaignState, item: str, dice: DiceSource, reason: str = "used"
) -> UsageDieRolled:
    """Use a usage-die item once: roll its die (PG-USE-1)."""
    before = _usage_die(state, item)
    after, face = before.use(dice)
    return UsageDieRolled(
        item=item,
        before=state.supplies.dice[item],
        after=after.sides,
        reason=reason,
        rolls=(RollRecord.of_die(face),),
    )


def use_supply(state: CampaignState, item: str, amount: int, dice: DiceSource) -> list[Event]:
    """The party uses ``amount`` of an item by hand; a usage-die item rolls once per use."""
    known = [*state.supplies.counted, *state.supplies.dice]
    item = key_of(item, known)
    if item not in known and near(item, known):  # a misspelling, not an item run out
        raise IllegalCommandError(unknown("supply", item, known))
    if amount < 1:
        raise IllegalCommandError(f"use at least 1 {item}, not {amount}")
    if item in state.supplies.dice:
        events: list[Event] = []
        current = state
        for _ in range(amount):
            if item not in current.supplies.dice:
                raise IllegalCommandError(f"{item} ran out after {len(events)} uses of {amount}")
            event = roll_usage(current, item, dice)
            current = event.apply(current)
            events.append(event)
        return events
    have = state.supplies.count(item)
    if have < amount:
        raise IllegalCommandError(f"the party has {have} {item}, cannot use {amount}")
    return [SupplyUsed(item=item, amount=amount)]


def add_supply(
    state: CampaignState, item: str, amount: int = 0, die: str | None = None
) -> list[Event]:
    """Add counted supplies, or set a usage-die item's die (``die="d8"``)."""
    if die is not None:
        try:
            usage = UsageDie.parse(die, tuple(state.ruleset.usage_die))
        except DiceNotationError as error:
            raise IllegalCommandError(str(error)) from None
        if usage.sides is None:
            raise IllegalCommandError(f"cannot add a depleted {item}")
        if state.supplies.count(item):
            raise IllegalCommandError(f"{item} is counted; add a number, not a usage die")
        return [UsageDieSet(item=item, sides=usage.sides)]
    if amount < 1:
        raise IllegalCommandError(f"add at least 1 {item}, not {amount}")
    if item in state.supplies.dice:
        raise IllegalCommandError(f"{item} is tracked by a usage die; set its die instead")
    return [SupplyAdded(item=item, amount=amount)]


def consume(
    state: CampaignState, item: str, amount: int, dice: DiceSource, reason: str
) -> list[Event]:
    """A procedure spends supplies; what is missing is a recorded shortfall, not an error.

    A usage-die item rolls its die once for the whole need (the party's meal is one use).
    """
    if amount < 1:
        return []
    if item in state.supplies.dice:
        return [roll_usage(state, item, dice, reason)]
    have = state.supplies.count(item)
    events: list[Event] = []
    if have:
        events.append(SupplyUsed(item=item, amount=min(have, amount), reason=reason))
    if have < amount:
        events.append(SupplyShortfall(item=item, needed=amount, had=have, reason=reason))
    return events


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    SupplyAdded,
    UsageDieSet,
    SupplyUsed,
    UsageDieRolled,
    SupplyShortfall,
)
