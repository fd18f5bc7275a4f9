"""Exact odds of a ruleset's dungeon turn: the designer's view of ``turnkeeper turn``.

For a span of turns (an hour by default: 60 / the turn's minutes), what happens how often:

- Overloaded rulesets (TP-DUN-1, TP-DUN-2): each face's event has chance (faces showing it)
  / sides every turn; a light lasts until a Waning Resources face (TP-ENC-2), so its
  lifetime in turns is geometric, cut short by its own fixed duration if it has one.
- Classic rulesets (EX-ENC-1, EX-ENC-4): a check every ``check_every_turns`` turns with the
  chance for the movement mode and noise; lights last their fixed turns (EX-LIGHT-1, -2);
  rest falls due every ``active_turns`` (EX-REST-1) or after every turn of running (EX-REST-2).

Every figure is an exact :class:`~fractions.Fraction`; counts are computed with icepool.

>>> from turnkeeper.rules.loader import preset
>>> odds = turn_odds(preset("ex"), mode="cautious")
>>> odds.event("encounter").at_least_one
Fraction(91, 216)
>>> turn_odds(preset("tp")).light_source("torch").expected_turns
Fraction(6, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import icepool

from turnkeeper.dice import exact_json
from turnkeeper.errors import IllegalCommandError, NotFoundError
from turnkeeper.procedures.dungeon.wandering import wandering_chance
from turnkeeper.rules.schema import FaceEvent, Ruleset

__all__ = ["EventRate", "LightLifetime", "TurnOdds", "turn_odds"]


@dataclass(frozen=True)
class EventRate:
    """How often one kind of event happens over the span.

    ``counts`` maps a number of occurrences to its exact chance.
    """

    event: str
    per_turn: Fraction
    at_least_one: Fraction
    expected: Fraction
    counts: dict[int, Fraction]

    def to_data(self) -> dict[str, object]:
        return {
            "event": self.event,
            **exact_json("per_turn", self.per_turn),
            **exact_json("at_least_one", self.at_least_one),
            **exact_json("expected", self.expected),
            **exact_json("counts", self.counts),
        }


@dataclass(frozen=True)
class LightLifetime:
    """How many turns one light source lasts, and the chance it lasts the whole span."""

    source: str
    expected_turns: Fraction
    fixed_turns: int | None
    lasts_span: Fraction

    def to_data(self) -> dict[str, object]:
        return {
            "source": self.source,
            **exact_json("expected_turns", self.expected_turns),
            "fixed_turns": self.fixed_turns,
            **exact_json("lasts_span", self.lasts_span),
        }


@dataclass(frozen=True)
class TurnOdds:
    """The exact odds of a span of dungeon turns under one ruleset, mode and noise."""

    ruleset: str
    procedure: str
    mode: str | None
    noisy: bool
    turns: int
    minutes: int
    events: tuple[EventRate, ...]
    lights: tuple[LightLifetime, ...]
    rest_turns: Fraction

    def event(self, name: str) -> EventRate:
        """The rate of one event (``encounter``, ``waning_resources``...)."""
        for rate in self.events:
            if rate.event == name:
                return rate
        known = ", ".join(rate.event for rate in self.events)
        raise NotFoundError(f"no event {name!r} in this turn procedure; events: {known}")

    def light_source(self, name: str) -> LightLifetime:
        """The lifetime of one light source."""
        for light in self.lights:
            if light.source == name:
                return light
        known = ", ".join(light.source for light in self.lights) or "none"
        raise NotFoundError(f"no light source {name!r}; sources: {known}")

    def to_data(self) -> dict[str, object]:
        return {
            "ruleset": self.ruleset,
            "procedure": self.procedure,
            "mode": self.mode,
            "noisy": self.noisy,
            "turns": self.turns,
            "minutes": self.minutes,
            "events": [rate.to_data() for rate in self.events],
            "lights": [light.to_data() for light in self.lights],
            **exact_json("rest_turns", self.rest_turns),
        }


def _count_rate(event: str, chance: Fraction, trials: int, per_turn: Fraction) -> EventRate:
    """Occurrences over ``trials`` independent chances of ``chance``, counted with icepool."""
    hit = icepool.Die({1: chance.numerator, 0: chance.denominator - chance.numerator})
    total = trials @ hit if trials > 0 else icepool.Die([0])
    denominator = total.denominator()
    counts = {int(k): Fraction(q, denominator) for k, q in total.items()}
    return EventRate(
        event=event,
        per_turn=per_turn,
        at_least_one=1 - counts.get(0, Fraction(0)),
        expected=chance * trials,
        counts=counts,
    )


def _geometric_lifetime(p: Fraction, cap: int | None, span: int) -> tuple[Fraction, Fraction]:
    """Expected turns a light burns (at most ``cap``), and the chance it burns ``span`` turns.

    A light relit on a Waning Resources face burns that turn and every turn until the die
    next shows the face (the turn it is replaced): T turns, T geometric on 1, 2, ... with
    chance ``p``, so E[T] = 1/p and P(T >= span) = (1 - p) ** (span - 1).
    """
    survive = 1 - p
    if cap is None:
        expected = 1 / p if p else Fraction(10**9)
    else:
        expected = sum((survive**j for j in range(cap)), Fraction(0))
    outlasts = survive ** (span - 1) if cap is None or cap >= span else Fraction(0)
    return expected, outlasts


def _rest_turns(ruleset: Ruleset, mode: str | None, turns: int) -> Fraction:
    """Turns of rest the span makes due by cadence (EX-REST-1) or running (EX-REST-2)."""
    rest = ruleset.rest
    movement = ruleset.dungeon.movement.get(mode) if mode else None
    if movement is not None and movement.rest_after and rest.after_running:
        return Fraction(turns // 2 * rest.rest_turns)
    if rest.active_turns:
        cycle = rest.active_turns + rest.rest_turns
        return Fraction(turns // cycle * rest.rest_turns)
    return Fraction(0)


def turn_odds(
    ruleset: Ruleset, *, turns: int | None = None, mode: str | None = None, noisy: bool = False
) -> TurnOdds:
    """The exact odds of ``turns`` dungeon turns (default: one hour) under ``ruleset``.

    ``mode`` is a movement mode of the ruleset (``cautious``, ``swift``, ``running``); it
    raises the classic wandering chance (EX-ENC-4) and sets the rests due (EX-REST-2).
    """
    dungeon = ruleset.dungeon
    minutes = ruleset.time.turn_minutes
    span = turns if turns is not None else max(60 // minutes, 1)
    if span < 1:
        raise IllegalCommandError(f"the span must be at least 1 turn, got {span}")
    if mode is not None and mode not in dungeon.movement:
        known = ", ".join(dungeon.movement) or "none"
        raise NotFoundError(
            f"ruleset {ruleset.name!r} has no movement mode {mode!r}; modes: {known}"
        )
    events: list[EventRate] = []
    lights: list[LightLifetime] = []
    rest_turns = _rest_turns(ruleset, mode, span)
    if dungeon.procedure == "overloaded":
        die = ruleset.dice[dungeon.die]
        by_event: dict[FaceEvent, int] = {}
        for face in die.faces.values():
            by_event[face.event] = by_event.get(face.event, 0) + 1
        for event, count in by_event.items():
            chance = Fraction(count, die.sides)
            events.append(_count_rate(event.value, chance, span, chance))
        waning = Fraction(by_event.get(FaceEvent.WANING_RESOURCES, 0), die.sides)
        rest_turns += Fraction(by_event.get(FaceEvent.FORCED_REST, 0), die.sides) * span
        for name, source in ruleset.light.sources.items():
            expected, outlasts = _geometric_lifetime(waning, source.turns, span)
            lights.append(LightLifetime(name, expected, source.turns, outlasts))
    else:
        chance = Fraction(wandering_chance(dungeon, mode, noisy), dungeon.check_die)
        checks = span // dungeon.check_every_turns
        per_turn = chance / dungeon.check_every_turns
        events.append(_count_rate("encounter", chance, checks, per_turn))
        for name, source in ruleset.light.sources.items():
            fixed = source.turns
            expected = Fraction(fixed) if fixed is not None else Fraction(10**9)
            outlasts = Fraction(1 if fixed is None or fixed >= span else 0)
            lights.append(LightLifetime(name, expected, fixed, outlasts))
    return TurnOdds(
        ruleset=ruleset.name,
        procedure=dungeon.procedure,
        mode=mode,
        noisy=noisy,
        turns=span,
        minutes=minutes,
        events=tuple(events),
        lights=tuple(lights),
        rest_turns=rest_turns,
    )
