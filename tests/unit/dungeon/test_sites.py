"""The site file format: levels, tables, areas, referee notes kept from the party (EX-MAP-2)."""

from __future__ import annotations

import json

import pytest

from turnkeeper.errors import NotFoundError
from turnkeeper.world.sites import Site, SiteError, parse_site

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
