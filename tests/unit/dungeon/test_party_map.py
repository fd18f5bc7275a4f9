"""The party's map is what the party recorded, kept apart from the true map (EX-MAP-2)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from turnkeeper.campaign import Journal
from turnkeeper.errors import IllegalCommandError
from turnkeeper.procedures.dungeon import EnterSite, LeaveSite, NoteMap, Turn
from turnkeeper.world.sites import Site

Inside = Callable[..., Journal]
SECRETS = ("notes", "encounters", "omens", "giant leech", "lairs in the well", "reliquary key")


def view(journal: Journal) -> dict[str, object]:
    assert journal.state.site is not None
    return journal.state.site.player_view()


def areas(shown: dict[str, object]) -> dict[int, list[str]]:
    site = shown["site"]
    assert isinstance(site, dict)
    return {level["number"]: [a["name"] for a in level["areas"]] for level in site["levels"]}


def test_ex_map_2_player_view_shows_only_the_places_the_party_has_been(inside: Inside) -> None:
    journal = inside("ex")  # entered at level 1, no area yet
    assert areas(view(journal)) == {1: []}
    journal.execute(Turn(mode="cautious", area="1"))
    assert areas(view(journal)) == {1: ["Gatehouse"]}
    journal.execute(Turn(mode="cautious", area="3"))
    assert areas(view(journal)) == {1: ["Gatehouse", "Cells"]}
    seen = json.dumps(view(journal))
    assert "Flooded garth" not in seen and "The Crypts" not in seen  # never been there
    for secret in SECRETS:
        assert secret not in seen


def test_ex_map_2_a_level_change_reveals_that_level_not_its_areas(inside: Inside) -> None:
    journal = inside("ex")
    journal.execute(Turn(mode="cautious", level=2))
    shown = view(journal)
    assert areas(shown) == {1: [], 2: []}
    seen = json.dumps(shown)
    assert "The Crypts" in seen and "Low vaults under the chapel" in seen
    assert "falling grate" not in seen and "ghoul" not in seen


def test_ex_map_2_entering_at_an_area_marks_it_visited(inside: Inside, site: Site) -> None:
    journal = inside("ex")
    journal.execute(LeaveSite())
    journal.execute(EnterSite(site, 1, "2"))
    assert areas(view(journal)) == {1: ["Flooded garth"]}
    assert "lairs in the well" not in json.dumps(view(journal))


def test_ex_map_2_the_party_map_keeps_what_the_mapper_wrote_uncorrected(inside: Inside) -> None:
    journal = inside("ex")
    journal.execute(Turn(mode="cautious", area="1"))
    journal.execute(NoteMap("the east passage bends north"))
    # area 7 does not exist on the true map: the note stands, the error is not corrected
    records = journal.execute(NoteMap("a stair down behind the altar", area="7"))
    assert records[0].event.describe() == (
        "the party's map (level 1, 7): a stair down behind the altar"
    )
    notes = view(journal)["party_map"]
    assert notes == [
        {"text": "the east passage bends north", "level": 1, "area": "1"},
        {"text": "a stair down behind the altar", "level": 1, "area": "7"},
    ]
    assert areas(view(journal)) == {1: ["Gatehouse"]}  # the note reveals nothing true
    visit = journal.state.site
    assert visit is not None and visit.site.level(1).areas[0].description.startswith("A collapsed")


def test_ex_map_2_a_blank_map_note_is_refused(inside: Inside) -> None:
    journal = inside("ex")
    with pytest.raises(IllegalCommandError, match="needs some text"):
        journal.execute(NoteMap("   "))


def test_ex_map_2_a_map_note_needs_a_site(inside: Inside) -> None:
    journal = inside("ex")
    journal.execute(LeaveSite())
    with pytest.raises(IllegalCommandError, match="not in a site"):
        journal.execute(NoteMap("here be dragons"))
