"""Sites: the dungeons, ruins and caves a party enters, as documented TOML files.

A site has levels; each level has its wandering-encounter table (EX-ENC-1, TP-DUN-1 face 1),
its omen table for "the dungeon rouses" (TP-DUN-2, face 2), an optional good-encounter table
(face 6) and optional areas with a description the party may hear and notes for the referee
only. The format is described in docs/site-format.md; examples/site.toml is a whole example.

A table row covers a single total (``roll = 3``) or a band (``roll = "1-2"``) of the table's
dice. Whatever is wrong with a file comes out as ONE :class:`SiteError` naming the file, the
key path and what was expected.

A party inside a site (where it is, the encounter it has met, its own map) is a
:class:`~turnkeeper.world.visits.SiteVisit`, which embeds the site.

>>> site = parse_site('''
... [site]
... name = "Crypt"
... [[levels]]
... number = 1
... [levels.encounters]
... dice = "d2"
... rows = [{roll = 1, creature = "rats"}, {roll = 2, creature = "ghoul"}]
... ''')
>>> site.level(1).encounters.row_for(2).creature
'ghoul'
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, TypeVar

from pydantic import (
    Discriminator,
    Field,
    Tag,
    ValidationError,
    field_validator,
    model_validator,
)

from turnkeeper.dice import DiceSource, Roll, parse, roll
from turnkeeper.errors import NotFoundError, TurnkeeperError
from turnkeeper.files.keys import first_error, keys_at, unknown_key
from turnkeeper.files.names import MAX_NAME_LENGTH, check_name
from turnkeeper.files.reading import parse_toml, read_text
from turnkeeper.frozen import Strict

__all__ = [
    "Area",
    "EncounterRow",
    "Occupants",
    "OmenRow",
    "Site",
    "SiteError",
    "SiteLevel",
    "SiteTable",
    "StatLine",
    "Wanderers",
    "load_site",
    "parse_site",
    "roll_wanderers",
]


class SiteError(TurnkeeperError):
    """A site file that is broken: names the file, the key path and what was expected."""


_BAND = re.compile(r"^\s*(-?[0-9]+)\s*(?:-\s*(-?[0-9]+)\s*)?$")  # ASCII digits, not \d


class _Row(Strict):
    """One band of a site table: the totals ``low`` to ``high`` of the table's dice."""

    roll: int | str = Field(description="A total (3) or a band ('1-2') of the table's dice.")
    text: str = Field("", description="What the referee reads out or describes.")
    notes: str = Field("", description="For the referee only: never shown to the party.")

    @field_validator("roll")
    @classmethod
    def _band(cls, value: int | str) -> int | str:
        if isinstance(value, str) and not _BAND.match(value):
            raise ValueError(f"expected a total such as 3 or a band such as '1-2', got {value!r}")
        return value

    @property
    def band(self) -> tuple[int, int]:
        """The lowest and highest totals this row covers."""
        if isinstance(self.roll, int):
            return self.roll, self.roll
        match = _BAND.match(self.roll)
        assert match is not None  # checked when loaded
        low = int(match.group(1))
        return low, int(match.group(2)) if match.group(2) else low


class EncounterRow(_Row):
    """A wandering inhabitant of a level (EX-ENC-1, TP-DUN-1 face 1)."""

    creature: str = Field(min_length=1)
    number: str = Field("1", description="How many appear: a dice expression such as 2d4.")
    heard: bool = Field(
        True, description="EX-ENC-5: it can be heard coming, so a party may hide from it."
    )
    hungry: bool = Field(
        False, description="EX-SUR-5: a hungry foe that wins surprise is readier to attack."
    )
    in_darkness: bool = Field(
        True, description="EX-LIGHT-3: it lurks unlit, so a party bearing light cannot surprise it."
    )
    stealth: int = Field(0, description="EX-SUR-4, CB-SUR-1: its DEX/Stealth (Sneak) bonus.")
    notice: int = Field(0, description="EX-SUR-4, CB-SUR-1: its WIS/Scout (Notice) bonus.")
    undisciplined: bool = Field(
        False, description="CB-SUR-2: a poorly trained group may check morale when surprised."
    )


class OmenRow(_Row):
    """An omen or environmental effect: "the dungeon rouses" (TP-DUN-2, face 2)."""


class GoodRow(_Row):
    """A good encounter: helpful soul, safe corner, cache found (TP-DUN-1 face 6)."""


RowT = TypeVar("RowT", bound="_Row")


class SiteTable(Strict, Generic[RowT]):
    """A table read by the total of its dice; rows may not overlap."""

    dice: str = Field("d6", description="The dice rolled on the table, e.g. d8 or 2d6.")
    rows: list[RowT] = Field(min_length=1)

    @model_validator(mode="after")
    def _bands_do_not_overlap(self) -> SiteTable[RowT]:
        bands = sorted(row.band for row in self.rows)
        for low, high in bands:
            if low > high:
                raise ValueError(f"band {low}-{high} runs backwards")
        for (_, high), (low, _) in pairwise(bands):
            if low <= high:
                raise ValueError(f"rows overlap at {low}")
        return self

    def row_for(self, total: int) -> RowT:
        """The row a total lands on; a total with no row is the site file's mistake."""
        for row in self.rows:
            low, high = row.band
            if low <= total <= high:
                return row
        raise SiteError(f"the table rolled on {self.dice} has no row for a total of {total}")


def left_out(value: object) -> bool:
    """A key a file left out, kept out of a journal's copy of the site too."""
    return value is None


class StatLine(Strict):
    """A foe's numbers, by the keys of a roster's ``[[foes]]`` line and of
    ``combat start --monster`` (the roster turns them into combatants, one reader for all):
    whatever is left out takes the roster's default (1 HD, 4 hp a HD, AC 10, a d6)."""

    hd: int | None = Field(
        None, exclude_if=left_out, ge=0, description="Hit dice (PG-ATK-2, PG-SAVE-1)."
    )
    hp: int | None = Field(
        None, exclude_if=left_out, ge=1, description="Hit points each (default 4 a HD)."
    )
    ac: int | None = Field(
        None, exclude_if=left_out, description="Armour class (default 10, unarmoured)."
    )
    damage: str | None = Field(
        None, exclude_if=left_out, description="The damage dice of its blow (default d6)."
    )
    attack_bonus: int | None = Field(
        None, exclude_if=left_out, description="PG-ATK-2: a bonus to hit."
    )
    save: int | None = Field(
        None, exclude_if=left_out, description="PG-SAVE-1: its save target, if not 19 - HD."
    )
    morale: int | None = Field(
        None, exclude_if=left_out, description="Morale score: 2d6 at or under it holds."
    )
    xp: int | None = Field(
        None, exclude_if=left_out, ge=0, description="PG-TRE-1: what overcoming one is worth."
    )
    stats: dict[str, int] | None = Field(
        None, exclude_if=left_out, description="Stat modifiers: { DEX = 1 }."
    )

    def line(self) -> dict[str, Any]:
        """The keys written, as a roster line holds them (the others take its defaults)."""
        return {
            key: getattr(self, key)
            for key in StatLine.model_fields
            if getattr(self, key) is not None
        }


class Occupants(StatLine):
    """Who dwells in an area, as foes the engine can fight: ``name`` with a count and a stat
    line, or ``encounter``, the total of a row of the level's encounter table, whose
    creature dwells here (their number rolled on the row when they are met, unless ``count``
    gives it; a stat line may be added, else the roster's defaults)."""

    name: str = Field(
        "",
        exclude_if=lambda name: not name,
        description="What each is called: Skeleton makes Skeleton 1 to 4.",
    )
    count: int | None = Field(
        None, exclude_if=left_out, ge=1, description="How many dwell here (default 1)."
    )
    encounter: int | None = Field(
        None,
        exclude_if=left_out,
        description="A total of the level's encounter table: its row's creature.",
    )

    @model_validator(mode="after")
    def _named_once(self) -> Occupants:
        if bool(self.name) == (self.encounter is not None):
            raise ValueError(
                "write who dwells here once: a name with a count and a stat line "
                '(occupants = { name = "Skeleton", count = 4, hd = 1, ac = 7 }) or a row of '
                "the level's encounter table by its total (occupants = { encounter = 3 })"
            )
        return self


def _occupants_form(value: Any) -> str | None:
    """Which form of occupants a file wrote: words, or a table of foes."""
    if isinstance(value, str):
        return "words"
    return "Occupants" if isinstance(value, (Mapping, Occupants)) else None


#: The occupants of an area: foes (:class:`Occupants`), or the older form, words ("4
#: skeletons"), kept so old files and journals read: the party meets them described, and
#: the referee names the foes when a fight starts.
OccupantsField = Annotated[
    Annotated[str, Tag("words")] | Annotated[Occupants, Tag("Occupants")],
    Discriminator(
        _occupants_form,
        custom_error_type="occupants_form",
        custom_error_message=(
            'expected a table of foes, e.g. { name = "Skeleton", count = 4, hd = 1, ac = 7 } '
            "or { encounter = 3 }"
        ),
    ),
]


class Area(Strict):
    """A keyed place on a level: its description for the party, its notes for the referee."""

    key: str = Field(min_length=1, description="The map key, e.g. '1' or 'B3'.")
    name: str = ""
    description: str = ""
    notes: str = Field("", description="For the referee only.")
    occupied: bool = Field(False, description="EX-SUR-2: someone dwells here.")
    # Left out of a journal's copy of the site at their defaults, so old journals replay.
    occupants: OccupantsField = Field(
        "",
        description="Who dwells here, met when the party enters (implies occupied).",
        exclude_if=lambda occupants: not occupants,
    )
    ambush: bool = Field(
        False,
        description="EX-SUR-1: the occupants lie in ambush for whoever comes in.",
        exclude_if=lambda ambush: not ambush,
    )
    hiding_place: bool = Field(False, description="EX-ENC-5: a party here can hide.")
    off_lanes: bool = Field(
        False, description="EX-ENC-3: a seldom-visited corner, off the lanes of traffic."
    )


# Each table a class of its own, not a parametrised SiteTable: a state holding a site is sent
# to a worker process (a map drawn off the server, turnkeeper.web.lanes), and pickle finds a
# class by its module's name for it, which a parametrised generic has not.
class EncounterTable(SiteTable[EncounterRow]):
    """A level's wandering-monster table."""


class OmenTable(SiteTable[OmenRow]):
    """A level's omen table."""


class GoodTable(SiteTable[GoodRow]):
    """A level's table of good things."""


class SiteLevel(Strict):
    """One level (or zone) of a site with its own tables."""

    number: int
    name: str = ""
    description: str = ""
    notes: str = Field("", description="For the referee only.")
    encounters: EncounterTable | None = None
    omens: OmenTable | None = None
    good: GoodTable | None = None
    areas: list[Area] = Field(default_factory=list)

    def area(self, key: str) -> Area:
        """The keyed area; a key not on this level is a clear error."""
        for area in self.areas:
            if area.key == key:
                return area
        known = ", ".join(area.key for area in self.areas) or "none"
        raise NotFoundError(f"level {self.number} has no area {key!r}; areas: {known}")


class SiteInfo(Strict):
    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    kind: Literal["dungeon", "ruin", "cave", "site"] = "dungeon"
    description: str = ""
    notes: str = Field("", description="For the referee only.")
    wandering: bool = Field(True, description="EX-ENC-1: the site has wandering encounters.")
    lit: bool = Field(False, description="True if the site is lit; most sites are dark.")


class Site(Strict):
    """A whole site: its name and kind, and its levels by number."""

    site: SiteInfo
    levels: list[SiteLevel] = Field(min_length=1)

    @model_validator(mode="after")
    def _levels_unique(self) -> Site:
        numbers = [level.number for level in self.levels]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"level numbers repeat: {numbers}")
        return self

    @property
    def name(self) -> str:
        return self.site.name

    def level(self, number: int) -> SiteLevel:
        """A level by its number; a missing one is a clear error."""
        for level in self.levels:
            if level.number == number:
                return level
        known = ", ".join(str(level.number) for level in self.levels)
        raise NotFoundError(f"site {self.name!r} has no level {number}; levels: {known}")

    def player_view(self, visited: Collection[tuple[int, str | None]] = ()) -> dict[str, Any]:
        """What the party may know of the site (EX-MAP-2): only the places it has been.

        ``visited`` holds the (level, area) pairs the party has stood in (area None: the
        level itself). Unvisited levels and areas, tables and referee notes stay out.

        >>> site = parse_site('''
        ... [site]
        ... name = "Crypt"
        ... [[levels]]
        ... number = 1
        ... areas = [{key = "1", name = "Stair"}, {key = "2", name = "Vault", notes = "trap"}]
        ... ''')
        >>> view = site.player_view([(1, "1")])
        >>> [a["name"] for a in view["levels"][0]["areas"]], site.player_view()["levels"]
        (['Stair'], [])
        """
        been = set(visited)
        levels = {level for level, _ in been}
        return {
            "name": self.site.name,
            "kind": self.site.kind,
            "description": self.site.description,
            "levels": [
                {
                    "number": level.number,
                    "name": level.name,
                    "description": level.description,
                    "areas": [
                        {"key": a.key, "name": a.name, "description": a.description}
                        for a in level.areas
                        if (level.number, a.key) in been
                    ],
                }
                for level in self.levels
                if level.number in levels
            ],
        }


@dataclass(frozen=True)
class Wanderers:
    """Who a level's wandering table sends and how many: its row, the table's roll and the
    roll of the number appearing."""

    row: EncounterRow
    table_roll: Roll
    number: Roll


def roll_wanderers(table: SiteTable[EncounterRow], dice: DiceSource) -> Wanderers:
    """Roll a level's wandering table, then the number appearing on the row it gives.

    The one roll of who comes, for every procedure that meets wanderers: the dungeon's check
    and die (EX-ENC-1, TP-DUN-1 face 1) and the initiative die's noise (TP-INI-1 face 1).

    >>> from turnkeeper.dice import TypedDice
    >>> table = SiteTable[EncounterRow](dice="d2", rows=[
    ...     {"roll": 1, "creature": "rats", "number": "2d4"}, {"roll": 2, "creature": "ghoul"}])
    >>> met = roll_wanderers(table, TypedDice([1, 3, 2]))
    >>> met.row.creature, met.number.total
    ('rats', 5)
    """
    table_roll = roll(table.dice, dice)
    row = table.row_for(table_roll.total)
    return Wanderers(row=row, table_roll=table_roll, number=roll(row.number, dice))


def _dotted(loc: tuple[int | str, ...]) -> str:
    # pydantic puts the generic's name in the path ("SiteTable[EncounterRow]"): drop it
    # and the form of occupants it names ("Occupants")
    parts = [
        str(part)
        for part in loc
        if not str(part).startswith("SiteTable[") and part not in ("Occupants", "words")
    ]
    return ".".join(parts) or "(top level)"


def parse_site(text: str, shown: str = "<site>") -> Site:
    """Read a site from TOML text; ``shown`` names the file in messages."""
    return site_from_data(parse_toml(text, shown, SiteError), shown)


def site_from_data(data: Mapping[str, Any], shown: str = "<site>") -> Site:
    """Check already-read site data against the format; one :class:`SiteError` if broken."""
    try:
        # strictly: a file's `number = "1"` or `lit = 1` is a slip, not 1 or true
        site = Site.model_validate(dict(data), strict=True)
    except ValidationError as error:
        first = first_error(error.errors())
        more = f" (and {error.error_count() - 1} more)" if error.error_count() > 1 else ""
        message = str(first["msg"]).removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            loc = tuple(first["loc"])
            message = unknown_key(loc[-1], keys_at(Site, loc[:-1]))
        elif first["type"] == "missing":
            message = "missing: this key is required"
        raise SiteError(f"{shown}: {_dotted(tuple(first['loc']))}: {message}{more}") from None
    _check_dice(site, shown)
    _check_names(site, shown)
    _check_occupants(site, shown)
    return site


def _check_occupants(site: Site, shown: str) -> None:
    """Occupants written as foes are foes the engine can fight: a printable name, damage
    it can roll, and a row of the level's encounter table where they name one."""
    for i, level in enumerate(site.levels):
        for j, area in enumerate(level.areas):
            occupants = area.occupants
            if not isinstance(occupants, Occupants):
                continue
            where = f"{shown}: levels.{i}.areas.{j}.occupants"
            if occupants.name:
                check_name(occupants.name, f"{where}.name", SiteError)
            if occupants.damage is not None:
                try:
                    parse(occupants.damage)
                except TurnkeeperError as error:
                    raise SiteError(
                        f"{where}.damage: expected dice such as d6, got {occupants.damage!r} "
                        f"({error})"
                    ) from None
            if occupants.encounter is None:
                continue
            if level.encounters is None:
                raise SiteError(
                    f"{where}.encounter: level {level.number} has no encounter table to take "
                    "a row from: add [levels.encounters] or name the occupants (name = ...)"
                )
            try:
                level.encounters.row_for(occupants.encounter)
            except SiteError as error:
                raise SiteError(f"{where}.encounter: {error}") from None


def _check_names(site: Site, shown: str) -> None:
    """The site's, its levels' and its areas' names and keys are printable names (a level's
    or an area's name may be left out); checked on the way in, not when a journal is read."""
    names = [("site.name", site.site.name)]
    for i, level in enumerate(site.levels):
        names += [(f"levels.{i}.name", level.name)] if level.name else []
        for j, area in enumerate(level.areas):
            names.append((f"levels.{i}.areas.{j}.key", area.key))
            names += [(f"levels.{i}.areas.{j}.name", area.name)] if area.name else []
    for where, name in names:
        check_name(name, f"{shown}: {where}", SiteError)


def _check_dice(site: Site, shown: str) -> None:
    """Every table's dice and every encounter's number must be dice the engine can roll."""
    for index, level in enumerate(site.levels):
        for name in ("encounters", "omens", "good"):
            table = getattr(level, name)
            if table is None:
                continue
            texts = [("dice", table.dice)]
            if name == "encounters":
                texts += [(f"rows.{i}.number", row.number) for i, row in enumerate(table.rows)]
            for key, text in texts:
                try:
                    parse(text)
                except TurnkeeperError as error:
                    raise SiteError(
                        f"{shown}: levels.{index}.{name}.{key}: expected dice such as 2d4, "
                        f"got {text!r} ({error})"
                    ) from None


def load_site(path: str | Path) -> Site:
    """Load a site file; a missing or broken file is one clear error."""
    return parse_site(read_text(path, "site file", SiteError), str(path))
