"""The party's track (issue 27): the hexes it left, oldest first, kept in the state so the map
draws where it went; a move that does not leave its hex adds nothing, and the track keeps
the last TRACK_HEXES hexes only."""

from __future__ import annotations

from turnkeeper.dice import TypedDice
from turnkeeper.kernel.wilderness_state import TRACK_HEXES
from turnkeeper.procedures.wilderness import Camp, Travel
from turnkeeper.world.hexes import Hex

NONE = TypedDice([])


def test_the_track_is_the_hexes_the_party_left_oldest_first(start) -> None:  # type: ignore[no-untyped-def]
    journal = start(["p"] * 6)
    for _ in range(3):
        journal.execute(Travel("s"), NONE)
    wild = journal.state.wilderness
    assert wild.position == Hex.from_offset(0, 3)
    assert wild.track == (Hex.from_offset(0, 0), Hex.from_offset(0, 1), Hex.from_offset(0, 2))


def test_the_track_keeps_its_last_hexes_only(start) -> None:  # type: ignore[no-untyped-def]
    journal = start(["p"] * 2)
    for _ in range(TRACK_HEXES // 4 + 2):  # four moves a day, 4 TP on the plains
        for way in ("s", "n", "s", "n"):
            journal.execute(Travel(way), NONE)
        journal.execute(Camp(), NONE)
    track = journal.state.wilderness.track
    assert len(track) == TRACK_HEXES
    assert track[-1] == Hex.from_offset(0, 1)  # the hex it left last, back to 0000
    assert journal.state.wilderness.position == Hex.from_offset(0, 0)
