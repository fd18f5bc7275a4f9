"""Combatants from text: a TOML roster of characters and foes, and a one-line monster.

The roster format (documented in ``examples/foes.toml``)::

    [[characters]]            # the party side; a campaign party file also reads
    name = "Ann"
    class = "fighter"
    level = 2
    hp = 12
    ac = 14
    damage = "d8"             # the weapon's die (default d6)
    stats = { STR = 2, DEX = 1 }

    [[foes]]                  # the opposition
    name = "Goblin"
    count = 4                 # Goblin 1 .. Goblin 4
    hd = 1
    hp = 4                    # default: 4 per HD, rounded down from the HD's d8 average
    ac = 12
    damage = "d6"
    xp = 5
    morale = 7
    stats = { DEX = 1 }

``[[allies]]`` join the party side (CB-SIDE-1). Keys a campaign party file adds (``save``,
``equipment``, ``conditions``, ``[supplies]``, ``leader``) are read or ignored, so the
campaign's party file serves as a ``--party`` file too.

>>> foes = parse_roster('[[foes]]\\nname = "Goblin"\\ncount = 2\\nhd = 1\\nac = 12')
>>> [(c.name, c.hp, c.side.value) for c in foes]
[('Goblin 1', 4, 'opposition'), ('Goblin 2', 4, 'opposition')]
>>> parse_monster("Goblin:hd=1,hp=4,ac=12,dex=1")[0].stats
{'DEX': 1}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.keys import first_error, keys_at, unknown_key
from turnkeeper.files.names import check_name, digits
from turnkeeper.files.reading import parse_toml
from turnkeeper.kernel.combat_state import Combatant, Side

__all__ = ["MAX_COMBATANTS", "RosterError", "encounter_foes", "parse_monster", "parse_roster"]

#: The most combatants one roster line makes (``count``).
MAX_COUNT = 1000

#: The most combatants of a roster, and of a fight: a field of battle, not a census (a
#: 200,000-foe file took minutes to start a fight and a simulation asked for 37 GiB).
MAX_COMBATANTS = 1000

_SECTIONS = {"characters": Side.PARTY, "allies": Side.PARTY, "foes": Side.OPPOSITION}
_IGNORED = {"equipment", "healed_day", "conditions"}
_STATS = ("STR", "DEX", "CON", "INT", "WIS", "CHA")


class RosterError(TurnkeeperError):
    """A roster or monster line that cannot be read; says where and what was expected."""


def _combatant(entry: Mapping[str, Any], side: Side, where: str) -> list[Combatant]:
    data = {k: v for k, v in entry.items() if k not in _IGNORED}
    count = data.pop("count", 1)
    if "class" in data:
        data["character_class"] = data.pop("class")
    if side is Side.OPPOSITION or "hd" in data:
        data.setdefault("hd", 1)
        data.setdefault("hp", max(1, int(data["hd"]) * 4) if isinstance(data["hd"], int) else 1)
    data.setdefault("max_hp", data.get("hp", 0))
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_COUNT:
        raise RosterError(
            f"{where}: count must be a whole number from 1 to {MAX_COUNT:,}, not {count!r}"
        )
    name = str(data.get("name", ""))
    if not name:
        raise RosterError(f"{where}: every combatant needs a name")
    check_name(name, f"{where}: name", RosterError)
    try:
        return [
            Combatant.model_validate(
                {**data, "side": side, "name": name if count == 1 else f"{name} {i}"}
            )
            for i in range(1, count + 1)
        ]
    except ValidationError as error:
        first = first_error(error.errors())
        loc = tuple(first["loc"])
        key = ".".join(str(p) for p in loc)
        message = first["msg"]
        if first["type"] == "extra_forbidden":
            # a roster line also takes count and class (as character_class), and a party's
            known = [
                *keys_at(Combatant, loc[:-1]),
                "count",
                "class",
                *(_IGNORED if not loc[:-1] else ()),
            ]
            message = unknown_key(loc[-1], known)
        raise RosterError(f"{where}: {key}: {message}") from None


def parse_roster(text: str, source: str = "roster") -> list[Combatant]:
    """Every combatant of a roster file's text, party side first, in file order."""
    data = parse_toml(text, source, RosterError)
    stray = set(data) - set(_SECTIONS) - {"supplies", "leader"}
    if stray:
        raise RosterError(
            f"{source}: unknown section {sorted(stray)[0]!r}; use [[characters]], "
            "[[allies]] or [[foes]]"
        )
    combatants: list[Combatant] = []
    for section, side in _SECTIONS.items():
        entries = data.get(section, [])
        if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
            raise RosterError(f"{source}: {section}: expected tables, written [[{section}]]")
        for index, entry in enumerate(entries):
            combatants += _combatant(entry, side, f"{source}: {section}[{index}]")
            if len(combatants) > MAX_COMBATANTS:
                raise RosterError(
                    f"{source}: more than {MAX_COMBATANTS:,} combatants by {section}[{index}]; "
                    f"a roster holds at most {MAX_COMBATANTS:,}: split the fight"
                )
    if not combatants:
        raise RosterError(f"{source}: no [[characters]] or [[foes]] in it")
    return combatants


def parse_monster(text: str, side: Side = Side.OPPOSITION) -> list[Combatant]:
    """A monster from one line, ``Name:key=value,...`` (stats by name: ``dex=1``).

    ``count=3`` makes Name 1 to Name 3.
    """
    name, _, rest = text.partition(":")
    entry: dict[str, Any] = {"name": name.strip()}
    stats: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, equals, value = part.partition("=")
        key = key.strip()
        if not equals:
            raise RosterError(f"monster {text!r}: expected key=value, got {part!r}")
        if key.upper() in _STATS:
            target: dict[str, Any] = stats
            key = key.upper()
        else:
            target = entry
        value = value.strip()
        # ASCII digits only: int() reads "٣" (an Arabic-Indic three) as 3; a run past 64 bits
        # stays text, for the model's own refusal of it
        unsigned = value[1:] if value[:1] in "+-" else value
        if digits(unsigned) and len(unsigned) <= 19:
            target[key] = int(value)
        elif target is stats:
            raise RosterError(f"monster {text!r}: {key} must be a whole number (digits 0 to 9)")
        else:
            target[key] = value
    entry["stats"] = stats
    return _combatant(entry, side, f"monster {text!r}")


SIDE_WORDS = {"party": Side.PARTY, "foes": Side.OPPOSITION, "opposition": Side.OPPOSITION}
"""How the referee names a side: the party, or its foes (the opposition)."""


def parse_side(text: str, option: str = "side") -> Side:
    """The side ``text`` names; one error naming ``option`` when it names none.

    >>> parse_side(" Foes "), parse_side("party")
    (<Side.OPPOSITION: 'opposition'>, <Side.PARTY: 'party'>)
    """
    try:
        return SIDE_WORDS[text.strip().lower()]
    except KeyError:
        raise RosterError(f"{option} {text!r}: say party or foes") from None


def parse_surprised(text: str, option: str = "--surprise") -> frozenset[Side]:
    """Who is surprised: ``party``, ``foes``, ``both`` or ``none``.

    >>> sorted(side.value for side in parse_surprised("both")), parse_surprised("none")
    (['opposition', 'party'], frozenset())
    """
    choice = text.strip().lower()
    if choice == "none":
        return frozenset()
    if choice == "both":
        return frozenset(Side)
    return frozenset({parse_side(choice, option)})


def encounter_foes(
    creature: str, number: int, line: Mapping[str, Any] | None = None
) -> list[Combatant]:
    """The foes of an encounter met in a site: ``creature 1`` to ``number``, each on the
    stat ``line`` the site gives (its occupants' keys, read as a ``[[foes]]`` line is).

    Whatever the site leaves out takes the roster's defaults: 1 HD, 4 hp, AC 10
    (unarmoured), a d6; a wandering table names who comes, not their stat line.

    >>> [(c.name, c.hp, c.ac, c.damage) for c in encounter_foes("giant rats", 2)]
    [('giant rats 1', 4, 10, 'd6'), ('giant rats 2', 4, 10, 'd6')]
    >>> [(c.name, c.hp, c.ac) for c in encounter_foes("Skeleton", 2, {"hd": 2, "ac": 7})]
    [('Skeleton 1', 8, 7), ('Skeleton 2', 8, 7)]
    """
    entry = {"ac": 10, **(line or {}), "name": creature, "count": max(number, 1)}
    return _combatant(entry, Side.OPPOSITION, creature)
