"""What a verb's argument is, and how a command line types it: the markers the verb table
puts on its fields.

A field of a verb's body model is plain pydantic (its type, bounds and description). Two
markers in its ``Annotated`` metadata say the rest, once for every front door:

- :class:`Kind`: what the value names in the game (a character, a foe standing, a supply the
  party has, a weather of the ruleset...), so ``play`` completes it from the campaign's state
  and the words of the rules are read back to their keys;
- :class:`Cli`: how the command line types it: a positional argument (no flags), or an option
  under flags of its own (``--type``, ``-t``), and, for a file, what the file is (the command
  line reads it and gives its text).

A field with neither is an option named after it (``set_turns`` is ``--set-turns``).

>>> from turnkeeper.campaign import Journal, parse_party
>>> from turnkeeper.rules.loader import preset
>>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 6\\n[supplies]\\ntorches = 2')
>>> state = Journal.start("Keep", preset("ex"), party, seed=1).state
>>> SUPPLY.complete(state, {}), LIGHT_SOURCE.complete(state, {})[:2]
(['torches'], ['torch', 'lamp'])
>>> MODE.read("Cautious", state), MODE.complete(state, {})
('cautious', ['cautious', 'swift', 'running'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from turnkeeper.procedures.domains import known_sites, maps_of
from turnkeeper.words import key_of

if TYPE_CHECKING:
    from turnkeeper.campaign import CampaignState

#: The arguments given so far on the line, by field name, for completions that depend on
#: them (after ``combat attack Aldo`` only Aldo's foes).
Given = Mapping[str, str]


@dataclass(frozen=True)
class Cli:
    """How a command line types a field: positional when it has no flags; ``file`` names what
    the file holds when the line gives a path whose text the field takes."""

    flags: tuple[str, ...] = ()
    metavar: str | None = None
    file: str | None = None
    name: str | None = None

    @property
    def positional(self) -> bool:
        return not self.flags


def Arg(metavar: str | None = None, *, file: str | None = None, name: str | None = None) -> Cli:
    """A positional argument (``damage TARGET AMOUNT``)."""
    return Cli((), metavar, file, name)


def Opt(
    *flags: str, metavar: str | None = None, file: str | None = None, name: str | None = None
) -> Cli:
    """An option under its own flags (``--type``, ``-t``); ``file`` as for :func:`Arg`."""
    return Cli(tuple(flags), metavar, file, name)


#: Where a field is left off the command line: its value has no text form there (a site or a
#: map as data, which the line gives as a file instead).
NOT_ON_THE_LINE = Cli(("",))


def _nothing(state: CampaignState, given: Given) -> list[str]:
    return []


@dataclass(frozen=True)
class Kind:
    """What an argument names in the game: its name, what to type (``metavar``), the names
    it may take now (:meth:`complete`), and, for a name of the rules, how words read back to
    the key (``keys``: ``heavy snow`` is ``heavy_snow``). ``spoken``: a value said in several
    words (``3 turns``), which a line may give unquoted as its last argument."""

    name: str
    metavar: str
    names: Callable[[CampaignState, Given], Iterable[str]] = _nothing
    keys: Callable[[CampaignState], Iterable[str]] | None = None
    choices: Sequence[str] = field(default=())
    spoken: bool = False

    def complete(self, state: CampaignState, given: Given) -> list[str]:
        """The values that make sense now, each once, in the state's order."""
        return list(dict.fromkeys([*self.choices, *self.names(state, given)]))

    def read(self, text: str, state: CampaignState) -> str:
        """The key ``text`` names, as words or as the key; ``text`` when it names none (the
        rules then refuse it with the near name)."""
        if self.keys is None:
            return text
        return key_of(text, self.keys(state))


def _of_the_rules(name: str, metavar: str, keys: Callable[[CampaignState], Iterable[str]]) -> Kind:
    """A name the ruleset keys (a weather, a movement mode): offered as its keys, read back
    from words to its key."""
    return Kind(name, metavar, lambda state, given: list(keys(state)), keys=keys)


# --- who --------------------------------------------------------------------------------------


def _living(state: CampaignState, given: Given) -> list[str]:
    names = [c.name for c in state.party.characters if c.alive]
    if state.combat is not None:
        names += [c.name for c in state.combat.combatants if c.standing]
    names += [m.name for m in state.monsters if m.alive]
    return names


def _wounded(state: CampaignState, given: Given) -> list[str]:
    names = [c.name for c in state.party.characters if c.alive and c.hp < c.max_hp]
    if state.combat is not None:
        names += [c.name for c in state.combat.combatants if c.standing and c.hp < c.max_hp]
    names += [m.name for m in state.monsters if m.alive and m.hp < m.max_hp]
    return names


def _fighters(state: CampaignState, given: Given) -> list[str]:
    fight = state.combat
    return [c.name for c in fight.combatants if c.standing] if fight is not None else []


def _foes_of(actor_field: str) -> Callable[[CampaignState, Given], list[str]]:
    """Those standing on the other side from the actor given in ``actor_field``."""

    def foes(state: CampaignState, given: Given) -> list[str]:
        fight = state.combat
        if fight is None:
            return []
        actor = next((c for c in fight.combatants if c.name == given.get(actor_field)), None)
        return [
            c.name
            for c in fight.combatants
            if c.standing and (actor is None or c.side is not actor.side)
        ]

    return foes


def _everyone(state: CampaignState, given: Given) -> list[str]:
    names = [c.name for c in state.party.characters]
    if state.combat is not None:
        names += [c.name for c in state.combat.combatants]
    return names


def _asked(state: CampaignState, given: Given) -> list[str]:
    fight = state.combat
    return [a.name for a in fight.asked] if fight is not None else []


CHARACTER = Kind("character", "NAME", lambda state, given: [c.name for c in state.party.characters])
#: A character whose player is asked for a roll not yet rolled.
ASKED = Kind("asked character", "NAME", _asked)
TARGET = Kind("target", "NAME", _living)
WOUNDED = Kind("wounded", "NAME", _wounded)
FIGHTER = Kind("fighter", "NAME", _fighters)
COMBATANT = Kind("combatant", "NAME", _everyone)
#: An activity of the ruleset's haven turn.
ACTIVITY = Kind("activity", "ACTIVITY", lambda state, given: list(state.ruleset.haven.activities))


def foe(actor_field: str) -> Kind:
    """A foe standing against the actor named in ``actor_field``."""
    return Kind("foe", "TARGET", _foes_of(actor_field))


# --- what the party has -----------------------------------------------------------------------


def _supplies(state: CampaignState, given: Given) -> list[str]:
    counted = [item for item, count in state.supplies.counted.items() if count > 0]
    return counted + list(state.supplies.dice)


SUPPLY = Kind("supply", "ITEM", _supplies)
LIGHT_SOURCE = Kind(
    "light source", "SOURCE", lambda state, given: list(state.ruleset.light.sources)
)
COUNTDOWN = Kind("countdown", "NAME", lambda state, given: [c.name for c in state.countdowns])
#: Another party of the world (one the referee is not running now).
OTHER_PARTY = Kind("party", "PARTY", lambda state, given: [p.name for p in state.away])
#: Any party of the world.
PARTY = Kind("party", "PARTY", lambda state, given: list(state.companies))
#: A faction of the world (its factions file).
FACTION = Kind(
    "faction",
    "FACTION",
    lambda state, given: [f.name for f in state.factions.factions] if state.factions else [],
)
#: A domain of the world (a hex or a site a character holds).
DOMAIN = Kind("domain", "DOMAIN", lambda state, given: [d.name for d in state.domains])
COUNTDOWN_TYPE = _of_the_rules(
    "countdown type", "TYPE", lambda state: state.ruleset.countdowns.types
)
TRIGGER = Kind("trigger", "TRIGGER", choices=("wound", "action"))
OUTCOME_STEP = Kind("outcome", "OUTCOME", choices=("failure", "partial", "success", "greater"))


def _scene_players(state: CampaignState, given: Given) -> list[str]:
    scene = state.scenes.scene
    return list(scene.players) if scene is not None else []


def _creatures(state: CampaignState, given: Given) -> list[str]:
    scene = state.scenes.scene
    return list(scene.creatures) if scene is not None else []


ACTION = Kind(
    "action",
    "ACTION",
    choices=("attack", "ranged", "cast", "move", "move-far", "maneuver", "other", "on-turn"),
)
SCENE_PLAYER = Kind("scene player", "PLAYER", _scene_players)
CREATURE = Kind("creature", "CREATURE", _creatures)
#: DG-CD-4's "a creature who is suffocating": anyone living, a scene's creatures too.
SUBJECT = Kind(
    "creature", "NAME", lambda state, given: _living(state, given) + _creatures(state, given)
)
STAT = Kind("stat", "STAT", lambda state, given: list(state.ruleset.stats))


# --- where ------------------------------------------------------------------------------------


def _areas(state: CampaignState, given: Given) -> list[str]:
    site = state.site
    return [area.key for area in site.current_level.areas] if site is not None else []


def _found_features(state: CampaignState) -> list[str]:
    wild = state.wilderness
    if wild is None:
        return []
    found = (f for here in wild.hexmap.features.values() for f in here)
    return [f.name for f in found if f.id in wild.found]


def _hexes(state: CampaignState, given: Given) -> list[str]:
    wild = state.wilderness
    return sorted(h.label for h in wild.visited) if wild is not None else []


DIRECTIONS = ("n", "ne", "se", "s", "sw", "nw")

AREA = Kind("site area", "AREA", _areas)
#: A site the world knows: one a party is in, one of the place ledger, a faction's.
SITE = Kind("site", "SITE", lambda state, given: known_sites(state))
#: A wilderness map some party of the world is on.
MAP = Kind("map", "MAP", lambda state, given: list(maps_of(state)))
HEX = Kind("hex", "HEX", _hexes)
FEATURE = Kind("map feature", "FEATURE", lambda state, given: _found_features(state))
DESTINATION = Kind(
    "destination",
    "WHERE",
    lambda state, given: [*_found_features(state), *_hexes(state, given)],
    choices=DIRECTIONS,
)
MODE = _of_the_rules("movement mode", "MODE", lambda state: state.ruleset.dungeon.movement)
WEATHER = _of_the_rules("weather", "WEATHER", lambda state: state.ruleset.travel.weather)
TRAVELLERS = _of_the_rules(
    "travel condition", "CONDITION", lambda state: state.ruleset.travel.party
)
VESSEL = _of_the_rules("vessel", "VESSEL", lambda state: state.ruleset.travel.vessels)

# --- amounts ----------------------------------------------------------------------------------

DURATION = Kind(
    "duration", "SPAN", choices=("1 turn", "3 turns", "1 hour", "1 watch", "1 day"), spoken=True
)
DICE_OR_NUMBER = Kind("dice or number", "AMOUNT", choices=("1", "1d6", "2d6"))
DICE = Kind("dice", "DICE", choices=("d6", "d20", "2d6"))
TEXT = Kind("text", "TEXT")
