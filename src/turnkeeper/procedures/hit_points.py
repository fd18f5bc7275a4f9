"""Hit points, death and daily healing (PG-HP-1, PG-HEAL-1).

- PG-HP-1: damage is subtracted from hit points; at 0 a character is unconscious and dies
  at negative hit points equal to their level; monsters die at 0.
- PG-HEAL-1: a character recovers 1 hit point a day with a meal and a night of
  uninterrupted rest. The design: the :func:`night_rest` command is the night. Each
  living character eats one ration before sleeping (those the rations do not reach go
  hungry, recorded as a shortfall); when the night ends uninterrupted, everyone who ate
  recovers ``heal_per_day`` hit points, at most once per calendar day (the day they wake).
  The night may be spent anywhere, a site included: its waits run the site's turns and
  wandering checks, and an encounter that breaks the night spoils the healing.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import ClassVar

from turnkeeper.clock.durations import format_duration
from turnkeeper.dice import DiceSource
from turnkeeper.errors import IllegalCommandError, TurnkeeperError
from turnkeeper.kernel.events import Event, Shown, Text
from turnkeeper.kernel.party import Monster
from turnkeeper.kernel.schedule import Draft, wait
from turnkeeper.kernel.state import CampaignState
from turnkeeper.procedures.countdowns import trigger
from turnkeeper.procedures.rest import Rested, RestInterrupted, RestStarted
from turnkeeper.procedures.supplies import consume

STATUSES = ("unconscious", "dead")
MEAL = "rations"

# --- events -------------------------------------------------------------------------------


class HitPointsChanged(Event):
    """A character's or monster's hit points change, and with them its status."""

    kind: ClassVar[str] = "hp.changed"
    shown: ClassVar[Shown] = Shown.PARTY
    target: str
    change: int
    hp: int
    status: str
    reason: Text = ""
    healed_day: int | None = None

    def apply(self, state: CampaignState) -> CampaignState:
        add = (self.status,) if self.status in STATUSES else ()
        _, hp, max_hp, _ = _current(state, self.target)
        if self.hp != hp + self.change or (self.change > 0 and self.hp > max_hp):
            # (a journal changed by hand: damage of -1000 would leave a rat at 1,004 hp)
            raise TurnkeeperError(
                f"{self.target} at {hp} of {max_hp} hp changes by {self.change} to {self.hp} hp: "
                "a change adds what it says, and healing never goes above the most"
            )
        monster = state.monster(self.target)
        if monster is not None:
            kept = tuple(c for c in monster.conditions if c not in STATUSES)
            return state.with_monster(
                monster.model_copy(update={"hp": self.hp, "conditions": kept + add})
            )
        character = state.character(self.target).with_conditions(add=add, remove=STATUSES)
        update: dict[str, object] = {"hp": self.hp}
        if self.healed_day is not None:
            update["healed_day"] = self.healed_day
        return state.with_character(character.model_copy(update=update))

    def describe(self) -> str:
        what = f"takes {-self.change} damage" if self.change < 0 else f"heals {self.change}"
        why = f" ({self.reason})" if self.reason else ""
        return f"{self.target} {what}{why}: {self.hp} hp, {self.status}"

    def describe_to_party(self) -> str | None:
        """Wounds and healing as the characters see them: no hit points (a monster's are the
        referee's; the party's own are on its sheet)."""
        why = f" ({self.reason})" if self.reason else ""
        if self.status == "dead":
            what = "dies"
        elif self.status == "unconscious":
            what = "falls unconscious"
        else:
            what = "is wounded" if self.change < 0 else "is healed"
        return f"{self.target} {what}{why}"


class MonsterAdded(Event):
    """A monster or NPC enters the record with its stat line."""

    kind: ClassVar[str] = "monster.added"
    shown: ClassVar[Shown] = Shown.PARTY
    monster: Monster

    def apply(self, state: CampaignState) -> CampaignState:
        return state.with_monster(self.monster)

    def describe(self) -> str:
        m = self.monster
        return f"{m.name} appears (HD {m.hd}, {m.hp} hp, AC {m.ac})"

    def describe_to_party(self) -> str | None:
        """A newcomer as the characters see it: a name, not a stat line."""
        return f"{self.monster.name} appears"


# --- procedures ---------------------------------------------------------------------------


def status_of(state: CampaignState, target: str, hp: int) -> str:
    """PG-HP-1: ``ok``, ``unconscious`` or ``dead`` for a creature at ``hp``."""
    rules = state.ruleset.hit_points
    if state.monster(target) is not None:
        return "dead" if hp <= rules.monsters_dead_at else "ok"
    level = state.character(target).level
    if rules.dead_at_minus_level and hp <= -level:
        return "dead"
    return "unconscious" if hp <= rules.unconscious_at else "ok"


def _current(state: CampaignState, target: str) -> tuple[str, int, int, bool]:
    monster = state.monster(target)
    if monster is not None:
        return monster.name, monster.hp, monster.max_hp, monster.alive
    character = state.character(target)
    return character.name, character.hp, character.max_hp, character.alive


def damage(state: CampaignState, target: str, amount: int, reason: str = "") -> list[Event]:
    """PG-HP-1: ``target`` takes ``amount`` damage; a wound also ticks countdowns (DG-CD-4)."""
    if amount < 1:
        raise IllegalCommandError(f"damage must be at least 1, not {amount}")
    name, hp, _, alive = _current(state, target)
    if not alive:
        raise IllegalCommandError(f"{name} is already dead")
    new = hp - amount
    event = HitPointsChanged(
        target=name, change=-amount, hp=new, status=status_of(state, name, new), reason=reason
    )
    return [event, *trigger(event.apply(state), "wound", name)]


def heal(state: CampaignState, target: str, amount: int, reason: str = "") -> list[Event]:
    """Heal ``target`` by ``amount``, never above its maximum; the dead do not heal."""
    if amount < 1:
        raise IllegalCommandError(f"healing must be at least 1, not {amount}")
    name, hp, max_hp, alive = _current(state, target)
    if not alive:
        raise IllegalCommandError(f"{name} is dead and cannot heal")
    new = min(max_hp, hp + amount)
    return [
        HitPointsChanged(
            target=name, change=new - hp, hp=new, status=status_of(state, name, new), reason=reason
        )
    ]


def add_monster(state: CampaignState, monster: Monster) -> list[Event]:
    """Bring a monster's stat line into the campaign (names are unique)."""
    if state.monster(monster.name) is not None or state.party.character(monster.name) is not None:
        raise IllegalCommandError(f"there is already someone called {monster.name!r}")
    return [MonsterAdded(monster=monster)]


def night_rest(draft: Draft, dice: DiceSource, seconds: int, interrupted: bool = False) -> None:
    """PG-HEAL-1: a meal, a night's rest of ``seconds``, then 1 hp for each who ate and slept."""
    if seconds < 3600:
        raise IllegalCommandError(
            f"a night's rest lasts at least 1 hour, not {format_duration(seconds)}"
        )
    state = draft.state
    rules = state.ruleset.hit_points
    living = state.party.living
    fed = len(living)
    if MEAL not in state.supplies.dice:
        fed = min(fed, state.supplies.count(MEAL))
    draft.add(*consume(draft.state, MEAL, len(living), dice, "the evening meal"))
    ate = {c.name for c in living[:fed]}
    draft.add(
        RestStarted(reason="a night's rest, interrupted" if interrupted else "a night's rest")
    )
    start = draft.state.now
    broken = wait(draft, seconds, dice)
    if broken is not None:
        # An encounter in the night (a site's wandering check): the night is interrupted and
        # heals nothing; the quiet turns before it were rest all the same (EX-REST-1), as in
        # any wait, unless the encounter spoiled the only rest turn there was.
        turn = draft.state.scales.turn
        rested = draft.state.now - start - turn >= draft.state.ruleset.rest.rest_turns * turn
        draft.add(Rested() if rested else RestInterrupted(reason=broken))
        if rules.heal_needs_night:
            return
    else:
        draft.add(Rested())
    if interrupted and rules.heal_needs_night:
        return
    heal_the_night(draft, ate)


def heal_the_night(draft: Draft, fed: Collection[str]) -> None:
    """PG-HEAL-1: a meal and a whole night give each who ate (``fed``, where the ruleset
    asks for a meal) ``heal_per_day`` hit points, once a day; a night that heals nothing (a
    ruleset healing 0) records nothing."""
    rules = draft.state.ruleset.hit_points
    today = draft.state.day
    for character in draft.state.party.living:
        eligible = character.name in fed or not rules.heal_needs_meal
        if not eligible or character.healed_day == today or character.hp >= character.max_hp:
            continue
        new = min(character.max_hp, character.hp + rules.heal_per_day)
        if new == character.hp:
            continue
        draft.add(
            HitPointsChanged(
                target=character.name,
                change=new - character.hp,
                hp=new,
                status=status_of(draft.state, character.name, new),
                reason="a meal and a night's rest",
                healed_day=today,
            )
        )


#: The events of this procedure, for the command table's registry.
EVENTS: tuple[type[Event], ...] = (
    HitPointsChanged,
    MonsterAdded,
)
