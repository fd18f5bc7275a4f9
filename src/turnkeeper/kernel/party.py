"""The party, its characters, the monsters they meet, and the supplies they carry.

A party is read from a documented TOML file (``docs/party.md``, ``examples/party.toml``)
with :func:`parse_party` / :func:`load_party`; a broken file is one :class:`PartyFileError`
naming the file and the key.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from pydantic import ConfigDict, Field, ValidationError, field_validator, model_validator

from turnkeeper.dice import UsageDie, parse
from turnkeeper.errors import DiceNotationError, TurnkeeperError
from turnkeeper.files.keys import first_error, keys_at, unknown_key
from turnkeeper.files.names import MAX_NAME_LENGTH, check_name
from turnkeeper.files.reading import MAX_PARTY_BYTES, parse_toml, read_text
from turnkeeper.frozen import Frozen
from turnkeeper.rules.schema import ActionRules, Ruleset

#: The most characters a world holds, in one party or in many (docs/party.md): far beyond any
#: table, and few enough that every view of them (status, the timeline) is quick. One bound
#: for both, so that parties that join never make a party larger than a file may give.
MAX_CHARACTERS = 300
#: The most things a character's equipment lists, and kinds of supplies a party carries.
MAX_ITEMS = 200

#: A word of a character sheet (a class, a piece of equipment, a condition, a supply's name):
#: as long as a name may be.
Word = Annotated[str, Field(max_length=MAX_NAME_LENGTH)]


class PartyFileError(TurnkeeperError):
    """A party file that cannot be read: names the file, the key and what was expected."""


class Model(Frozen):
    """Base of the campaign's data: immutable, and unknown keys are errors."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, defer_build=True)


class Character(Model):
    """A player character: hit points (PG-HP-1), stat modifiers the ruleset names, kit.

    ``conditions`` holds words such as ``wearied`` (EX-REST-3), ``unconscious`` and ``dead``
    (PG-HP-1). ``save`` is the character sheet's save target (PG-SAVE-1), if it has one.
    """

    name: str = Field(min_length=1)
    level: int = Field(1, ge=0)
    hp: int
    max_hp: int = Field(0, ge=0, description="0 in a file: the same as hp.")
    stats: dict[str, int] = Field(default_factory=dict)
    character_class: Word = Field("", alias="class")
    ac: int = 10
    save: int | None = None
    conditions: tuple[Word, ...] = ()
    equipment: tuple[Word, ...] = Field((), max_length=MAX_ITEMS)
    healed_day: int | None = Field(None, description="The day of the last daily healing.")
    damage: str = Field("d6", description="PG-ATK-2: the weapon's damage, a dice expression.")
    attack_bonus: int = Field(
        0,
        description="PG-ATK-2: the hit bonus (HB) and any magic weapon's, added to attacks.",
        # left out at 0, so the journals of parties without one stay as they were
        exclude_if=lambda bonus: bonus == 0,
    )
    coins: int = Field(
        0,
        ge=0,
        description="PG-MOV-2: coins carried (at most 3000; a heavy load moves only near).",
        exclude_if=lambda coins: coins == 0,  # journals of parties without any stay as they were
    )

    @field_validator("damage")
    @classmethod
    def _damage_is_dice(cls, value: str) -> str:
        # Checked on load, so a typo is the party file's error and not a failed attack later.
        names = parse(value).names
        if names:
            raise ValueError(
                f"damage {value!r} names {', '.join(sorted(names))}: give the weapon's dice "
                "only, such as 1d8 (the ruleset adds STR for the classes that get it, PG-ATK-2)"
            )
        return value

    @model_validator(mode="after")
    def _max_hp_defaults_to_hp(self) -> Character:
        if self.max_hp == 0:
            object.__setattr__(self, "max_hp", max(self.hp, 0))
        if self.hp > self.max_hp:
            raise ValueError(f"hp {self.hp} is above max_hp {self.max_hp}")
        return self

    def has(self, condition: str) -> bool:
        """True when the character has ``condition`` (``wearied``, ``dead``...)."""
        return condition in self.conditions

    @property
    def alive(self) -> bool:
        """False once the character is dead (PG-HP-1)."""
        return "dead" not in self.conditions

    def with_conditions(self, add: tuple[str, ...] = (), remove: tuple[str, ...] = ()) -> Character:
        """The character with conditions added and removed, order kept."""
        kept = tuple(c for c in self.conditions if c not in remove)
        return self.model_copy(update={"conditions": kept + tuple(c for c in add if c not in kept)})


class Monster(Model):
    """A monster's or NPC's stat line: hit dice, hit points, armour class, stats."""

    name: str = Field(min_length=1)
    hd: int = Field(1, ge=0)
    hp: int
    max_hp: int = 0
    ac: int = 10
    stats: dict[str, int] = Field(default_factory=dict)
    conditions: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _max_hp_defaults_to_hp(self) -> Monster:
        if self.max_hp == 0:
            object.__setattr__(self, "max_hp", max(self.hp, 0))
        return self

    @property
    def alive(self) -> bool:
        """False once the monster is dead (PG-HP-1: at 0)."""
        return "dead" not in self.conditions


class Supplies(Model):
    """What the party carries: counted items and usage-die items (PG-USE-1).

    ``counted`` maps an item (``rations``, ``water``, ``torches``, ``oil``) to how many;
    ``dice`` maps an item (``arrows``) to the size of its current usage die.

    >>> Supplies(counted={"torches": 6}).count("torches"), Supplies().count("oil")
    (6, 0)
    """

    counted: dict[Word, int] = Field(default_factory=dict, max_length=MAX_ITEMS)
    dice: dict[Word, int] = Field(default_factory=dict, max_length=MAX_ITEMS)

    @field_validator("counted")
    @classmethod
    def _not_negative(cls, counted: dict[str, int]) -> dict[str, int]:
        for item, count in counted.items():
            if count < 0:
                raise ValueError(f"{item}: a count cannot be negative ({count})")
        return counted

    def count(self, item: str) -> int:
        """How many of a counted item the party has (0 if none)."""
        return self.counted.get(item, 0)

    def with_count(self, item: str, count: int) -> Supplies:
        """The supplies with ``item`` set to ``count``."""
        return self.model_copy(update={"counted": {**self.counted, item: count}})

    def with_die(self, item: str, sides: int | None) -> Supplies:
        """The supplies with ``item``'s usage die set to ``sides`` (None: depleted, removed)."""
        dice = {k: v for k, v in self.dice.items() if k != item}
        if sides is not None:
            dice[item] = sides
        return self.model_copy(update={"dice": dice})


class Party(Model):
    """The adventuring party: its characters, the leader (PG-REA-1's CHA), its supplies."""

    characters: tuple[Character, ...] = Field(min_length=1, max_length=MAX_CHARACTERS)
    leader: str | None = None
    supplies: Supplies = Supplies()

    @model_validator(mode="after")
    def _names_unique_and_leader_known(self) -> Party:
        names = [c.name for c in self.characters]
        # counted once each (a count per name was quadratic: minutes for a 16 MiB party)
        doubles = sorted(name for name, times in Counter(names).items() if times > 1)
        if doubles:
            raise ValueError(f"two characters share the name {doubles[0]!r}")
        if self.leader is None:
            object.__setattr__(self, "leader", names[0])
        elif self.leader not in names:
            raise ValueError(f"leader {self.leader!r} is not one of the characters {names}")
        return self

    def character(self, name: str) -> Character | None:
        """The character called ``name`` (case-insensitive), or None."""
        return next((c for c in self.characters if c.name.lower() == name.lower()), None)

    @property
    def leader_cha(self) -> int:
        """The leader's CHA: every reaction roll the party meets adds it (PG-REA-1), the
        dungeon's encounters and the noise of a fight's initiative die alike (TP-INI-1)."""
        leader = self.character(self.leader or "") or self.characters[0]
        return leader.stats.get("CHA", 0)

    @property
    def living(self) -> tuple[Character, ...]:
        """The characters who are not dead."""
        return tuple(c for c in self.characters if c.alive)

    @property
    def able(self) -> tuple[Character, ...]:
        """The characters who can act: neither dead nor unconscious (PG-HP-1)."""
        return tuple(c for c in self.living if not c.has("unconscious"))


def _supplies(raw: Mapping[str, Any]) -> dict[str, Any]:
    counted: dict[str, Any] = {}
    dice: dict[str, int] = {}
    for item, value in raw.items():
        if isinstance(value, str):
            try:
                usage = UsageDie.parse(value)
            except DiceNotationError as error:
                raise PartyFileError(f"supplies.{item}: {error}") from None
            if usage.sides is not None:
                dice[item] = usage.sides
        elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise PartyFileError(
                f"supplies.{item}: expected a count (0 or more) or a usage die "
                f'such as "d8", got {value!r}'
            )
        else:
            counted[item] = value
    return {"counted": counted, "dice": dice}


def _where(location: tuple[int | str, ...]) -> str:
    return ".".join(
        str(part) if isinstance(part, str) else f"[{part}]" for part in location
    ).replace(".[", "[")


def parse_party(text: str, source: str = "party file", ruleset: Ruleset | None = None) -> Party:
    """Read a party from TOML text (format in ``docs/party.md``); one error names file and key.

    When ``ruleset`` is given, stat names must be among the ruleset's ``stats``.

    >>> party = parse_party('[[characters]]\\nname = "Aldo"\\nhp = 8\\n[supplies]\\narrows = "d10"')
    >>> party.leader, party.supplies.dice
    ('Aldo', {'arrows': 10})
    """
    data = dict(parse_toml(text, source, PartyFileError))
    # counted before each is read: a party of 20,000 took a minute to start and every status
    # after it took 20 s
    characters = data.get("characters")
    if isinstance(characters, list) and len(characters) > MAX_CHARACTERS:
        raise PartyFileError(
            f"{source}: characters: {len(characters):,} characters; a party holds at most "
            f"{MAX_CHARACTERS} (and the world's parties together as many): split them into "
            "parties of their own; see docs/party.md"
        )
    if isinstance(data.get("supplies"), Mapping):
        try:
            data["supplies"] = _supplies(data["supplies"])
        except PartyFileError as error:
            raise PartyFileError(f"{source}: {error}; see docs/party.md") from None
    try:
        # strictly, as JSON: a file's `hp = true` or `hp = "3"` is a slip, not 1 or 3
        party = Party.model_validate_json(json.dumps(data, default=str), strict=True)
    except ValidationError as error:
        first = first_error(error.errors())
        loc = tuple(first["loc"])
        where = _where(loc) or "(top level)"
        message = first["msg"].removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            message = unknown_key(loc[-1], keys_at(Party, loc[:-1]))
        raise PartyFileError(f"{source}: {where}: {message}; see docs/party.md") from None
    return check_party(party, source, ruleset)


def check_party(party: Party, source: str, ruleset: Ruleset | None = None) -> Party:
    """``party`` if a party file could give it (PartyFileError naming ``source`` if not):
    printable names, no more coins than can be carried, and given ``ruleset``, stat names
    among its ``stats``. Checked on the way in (a party file, an imported journal's start),
    not by the model: a stored journal's party is read back as it was stored."""
    for index, character in enumerate(party.characters):
        check_name(character.name, f"{source}: characters[{index}].name", PartyFileError)
    # PG-MOV-2: more coins than the ruleset's limit (the text's 3000) cannot be carried at all
    limit: int = (
        ActionRules.model_fields["max_coins"].default
        if ruleset is None
        else ruleset.actions.max_coins
    )
    for index, character in enumerate(party.characters):
        if character.coins > limit:
            raise PartyFileError(
                f"{source}: characters[{index}].coins: {character.coins} coins, more than the "
                f"{limit} a character can carry (PG-MOV-2, the ruleset's actions.max_coins); "
                "see docs/party.md"
            )
    if ruleset is not None:
        for index, character in enumerate(party.characters):
            unknown = sorted(set(character.stats) - set(ruleset.stats))
            if unknown:
                raise PartyFileError(
                    f"{source}: characters[{index}].stats: {unknown[0]!r} is not a stat of "
                    f"{ruleset.name} (it has {', '.join(ruleset.stats)})"
                )
    return party


def load_party(path: str | Path, ruleset: Ruleset | None = None) -> Party:
    """Read a party file from disk (the one I/O in this package, kept at the edge)."""
    text = read_text(
        path, "party file", PartyFileError, missing=PartyFileError, limit=MAX_PARTY_BYTES
    )
    return parse_party(text, str(path), ruleset)
