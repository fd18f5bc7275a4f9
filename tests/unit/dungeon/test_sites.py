"""The site file format: levels, tables, areas, referee notes kept from the party (EX-MAP-2)."""

from __future__ import annotations

import json

import pytest

from turnkeeper.errors import NotFoundError
from turnkeeper.kernel.combat_state import Combatant
from turnkeeper.world.sites import Occupants, Site, SiteError, StatLine, parse_site

MINIMAL = """
[site]
name = "Crypt"
[[levels]]
number = 1
"""


def test_example_has_two_levels_with_tables(site: Site) -> None:
    assert [level.number for level in site.levels] == [1, 2]
    crypts = site.level(2)
    assert crypts.encounters is not None and crypts.encounters.dice == "2d4"
    assert crypts.encounters.row_for(5).creature == "drowned monks"
    assert site.level(1).area("2").occupied and site.level(1).area("1").hiding_place


def test_ex_map_2_party_view_holds_no_referee_knowledge(site: Site) -> None:
    """rule: EX-MAP-2 - the party's picture is kept apart from the true map and its secrets."""
    seen = json.dumps(site.player_view([(1, "2")]))  # the party has been in the garth
    for secret in ("notes", "encounters", "giant leech", "lairs in the well", "reliquary key"):
        assert secret not in seen
    assert "Flooded garth" in seen


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("foo = 1", "site.foo: unknown key"),
        (
            '[levels.encounters]\nrows = [{roll = 1, creature = "a"},'
            ' {roll = "1-2", creature = "b"}]',
            "levels.0.encounters: rows overlap at 1",
        ),
        ('[levels.omens]\nrows = [{roll = "x"}]', "levels.0.omens.rows.0.roll"),
        (
            '[levels.encounters]\nrows = [{roll = 1, creature = "a", number = "2q4"}]',
            "levels.0.encounters.rows.0.number: expected dice",
        ),
    ],
)
def test_broken_site_is_one_clear_error(extra: str, message: str) -> None:
    if extra.startswith("foo"):
        text = MINIMAL.replace('name = "Crypt"', f'name = "Crypt"\n{extra}')
    else:
        text = MINIMAL + extra
    with pytest.raises(SiteError, match=message.replace("[", r"\[")):
        parse_site(text, "crypt.toml")


def test_missing_level_and_area_name_what_exists(site: Site) -> None:
    with pytest.raises(NotFoundError, match="levels: 1, 2"):
        site.level(3)
    with pytest.raises(NotFoundError, match="areas: 1, 2, 3"):
        site.level(1).area("9")


def test_a_total_with_no_row_is_the_files_mistake() -> None:
    site = parse_site(MINIMAL + '[levels.omens]\ndice = "d4"\nrows = [{roll = 1, text = "x"}]')
    table = site.level(1).omens
    assert table is not None
    with pytest.raises(SiteError, match="no row for a total of 3"):
        table.row_for(3)


TABLED = (
    MINIMAL
    + '[levels.encounters]\ndice = "d4"\nrows = [{roll = "1-3", creature = "skeletons"}]\n'
    + '[[levels.areas]]\nkey = "7"\nname = "Hall of Shields"\n'
)


def test_ex_sur_2_occupants_are_written_as_foes_or_as_a_row_of_the_table() -> None:
    """EX-SUR-2: who dwells in an occupied place, as foes: a count and a stat line, read by
    the roster's keys; or a row of the level's encounter table by its total. The older words
    still read (met as described). A journal's copy leaves out the keys the file left out."""
    line = 'occupants = { name = "Skeleton", count = 4, hd = 1, ac = 7, stats = { DEX = 1 } }'
    occupants = parse_site(TABLED + line).level(1).area("7").occupants
    assert isinstance(occupants, Occupants) and occupants.count == 4
    assert occupants.line() == {"hd": 1, "ac": 7, "stats": {"DEX": 1}}
    dumped = parse_site(TABLED + line).model_dump(mode="json")["levels"][0]["areas"][0]
    assert dumped["occupants"] == {"name": "Skeleton", "count": 4, "hd": 1, "ac": 7,
                                   "stats": {"DEX": 1}}  # fmt: skip
    row = parse_site(TABLED + "occupants = { encounter = 2 }").level(1).area("7").occupants
    assert isinstance(row, Occupants) and row.encounter == 2
    assert parse_site(TABLED + 'occupants = "4 skeletons"').level(1).area("7").occupants == (
        "4 skeletons"
    )


def test_a_stat_line_holds_the_keys_a_roster_line_gives_a_foe() -> None:
    """One reader for a foe's numbers: every key of a site's stat line is a combatant's, so
    the roster turns the occupants into foes as it does a [[foes]] line."""
    assert set(StatLine.model_fields) <= set(Combatant.model_fields)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            'occupants = { name = "Skeleton", cnt = 4 }',
            "levels.0.areas.0.occupants.cnt: unknown key 'cnt'; did you mean 'count'?",
        ),
        ("occupants = { count = 4 }", "occupants: write who dwells here once"),
        ('occupants = { name = "S", encounter = 1 }', "occupants: write who dwells here once"),
        ("occupants = 4", "occupants: expected a table of foes"),
        ('occupants = { name = "S", hp = "4" }', "occupants.hp: Input should be a valid integer"),
        ('occupants = { name = "S", count = 0 }', "occupants.count: Input should be greater"),
        ('occupants = { name = "S", damage = "2q" }', "occupants.damage: expected dice"),
        ("occupants = { encounter = 9 }", "occupants.encounter: .* no row for a total of 9"),
    ],
)
def test_occupants_written_wrong_are_one_clear_error(line: str, message: str) -> None:
    with pytest.raises(SiteError, match=message):
        parse_site(TABLED + line, "tomb.toml")


def test_occupants_from_a_level_with_no_table_say_so() -> None:
    text = MINIMAL + '[[levels.areas]]\nkey = "7"\noccupants = { encounter = 2 }\n'
    with pytest.raises(SiteError, match="level 1 has no encounter table to take a row from"):
        parse_site(text, "tomb.toml")
