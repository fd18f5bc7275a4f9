"""The haven turn: a character's month at a haven (TP-TIME-1: "Haven/Domain Turn: 1 month").

The texts give only the scale; the procedure is the project's own, every number in the
ruleset's ``haven`` section (:class:`~turnkeeper.rules.schema.HavenRules`, DEFAULT):

- A haven is where the party is off the procedures' maps: in no site and on no wilderness
  map (a town, a keep, wherever the referee has the party rest between expeditions). The
  maps have no settlements of their own, so a party on a map leaves it (`map leave`) to
  spend a month at a haven.
- The character pays the cost of living and the activity's cost from their own coins
  before the month begins; a character who cannot pay is refused, and nothing changes.
- The party's month passes as every wait's days pass (:func:`days.pass_days`, in downtime):
  the meals, the nights' healing, the downtime die where the ruleset has one, and the
  world's month turn as its boundary is passed. An encounter breaks the month there: the
  result is not rolled, and the referee plays the encounter out.
- The activity's roll (a stat's name in it adds the character's modifier) falls in a band
  that says what the month came to, and heals, cures or earns or spends coins as it says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from turnkeeper.dice import DiceSource, roll
from turnkeeper.errors import IllegalCommandError
from turnkeeper.kernel.events import Event, RollRecord, Shown, Text
from turnkeeper.kernel.schedule import Draft
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.days import pass_days
from turnkeeper.procedures.hit_points import HitPointsChanged, status_of
from turnkeeper.rules.schema.months import HavenActivity

# --- events -------------------------------------------------------------------------------


class HavenTurnBegun(Event):
    """A character begins a month at a haven on an activity."""

    kind: ClassVar[str] = "haven.begun"
    shown: ClassVar[Shown] = Shown.PARTY
    character: str
    activity: HavenActivity
    days: int

    def describe(self) -> str:
        return f"{self.character} spends a month ({self.days} days) at a haven: {self.activity}"


class CoinsChanged(Event):
    """A character's coins change: paid (``change`` below 0) or earned."""

    kind: ClassVar[str] = "coins.changed"
    shown: ClassVar[Shown] = Shown.PARTY
    character: str
    change: int
    coins: int
    reason: Text = ""

    def apply(self, state: CampaignState) -> CampaignState:
        character = state.character(self.character)
        return state.with_character(character.model_copy(update={"coins": self.coins}))

    def describe(self) -> str:
        what = f"pays {-self.change}" if self.change < 0 else f"earns {self.change}"
        return f"{self.character} {what} coins ({self.reason}): {self.coins} left"


class HavenResult(Event):
    """What a character's month at a haven came to: the roll's band, and the conditions it
    cures (its healing and coins are events of their own)."""

    kind: ClassVar[str] = "haven.result"
    shown: ClassVar[Shown] = Shown.PARTY
    character: str
    activity: HavenActivity
    total: int
    text: Text
    cured: tuple[str, ...] = ()

    def apply(self, state: CampaignState) -> CampaignState:
        if not self.cured:
            return state
        character = state.character(self.character)
        return state.with_character(character.with_conditions(remove=self.cured))

    def describe(self) -> str:
        cured = f"; no longer {', '.join(self.cured)}" if self.cured else ""
        return f"{self.character}'s {self.activity} ({self.total}): {self.text}{cured}"


# --- commands -----------------------------------------------------------------------------


@dataclass(frozen=True)
class HavenTurn:
    """A character spends a month at a haven on ``activity``."""

    character: str
    activity: str


# --- procedures ---------------------------------------------------------------------------


def _at_a_haven(state: CampaignState) -> None:
    if state.fight_running:
        raise IllegalCommandError(f"{state.company} is fighting: end the fight before a haven turn")
    if state.site is not None:
        raise IllegalCommandError(
            f"{state.company} is in {state.site.site.name}: a haven turn is spent out of sites "
            "and maps, at a haven (`site leave` first)"
        )
    if state.wilderness is not None:
        raise IllegalCommandError(
            f"{state.company} is on the map {state.wilderness.map.name!r}: a haven turn is spent "
            "off the maps, at a haven (`map leave` first)"
        )


def haven_turn(draft: Draft, command: HavenTurn, dice: DiceSource) -> None:
    """The haven turn (see the module's docstring)."""
    state = draft.state
    rules = state.ruleset.haven
    if command.activity not in rules.activities:
        raise IllegalCommandError(
            f"no haven activity {command.activity!r}: the ruleset's are "
            f"{', '.join(rules.activities)}"
        )
    activity: HavenActivity = command.activity  # checked above
    character = state.character(command.character)
    if not character.alive:
        raise IllegalCommandError(f"{character.name} is dead: the dead spend no month at a haven")
    _at_a_haven(state)
    table = rules.activities[activity]
    month_days = state.ruleset.time.month_days
    seconds = month_days * state.scales.day
    if seconds > state.ruleset.time.longest_wait:
        raise IllegalCommandError(
            "the ruleset's time.max_wait_days is shorter than a month: a haven turn passes "
            f"{month_days} days in one command"
        )
    due = rules.living + table.cost
    if character.coins < due:
        raise IllegalCommandError(
            f"{character.name} has {character.coins} coins; a month's {activity} costs {due} "
            f"({rules.living} living, {table.cost} the activity): give them coins in the party "
            "file, or choose another activity"
        )
    draft.add(HavenTurnBegun(character=character.name, activity=activity, days=month_days))
    if due:
        left = character.coins - due
        why = f"a month's living and {activity}"
        draft.add(CoinsChanged(character=character.name, change=-due, coins=left, reason=why))
    if pass_days(draft, seconds, dice, downtime=True) is not None:
        return  # an encounter breaks the month: the referee plays it out, no result
    _result(draft, character.name, activity, dice)


def _result(draft: Draft, name: str, activity: HavenActivity, dice: DiceSource) -> None:
    state = draft.state
    character = state.character(name)
    table = state.ruleset.haven.activities[activity]
    values = {stat: character.stats.get(stat, 0) for stat in state.ruleset.stats}
    rolled = roll(table.roll, dice, values)
    band = table.band_for(rolled.total)
    cured = tuple(c for c in band.cure if character.has(c))
    result = HavenResult(
        character=name, activity=activity, total=rolled.total, text=band.text, cured=cured
    )
    draft.add(result.model_copy(update={"rolls": (RollRecord.of(rolled),)}))
    character = draft.state.character(name)
    if band.heal and character.alive and character.hp < character.max_hp:
        hp = min(character.max_hp, character.hp + band.heal)
        status = status_of(draft.state, name, hp)
        why = f"a month's {activity}"
        change = hp - character.hp
        draft.add(HitPointsChanged(target=name, change=change, hp=hp, status=status, reason=why))
    coins = max(band.coins, -character.coins)  # a loss takes at most what is held
    if coins:
        left = character.coins + coins
        why = f"a month's {activity}"
        draft.add(CoinsChanged(character=name, change=coins, coins=left, reason=why))


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (HavenTurnBegun, CoinsChanged, HavenResult)
