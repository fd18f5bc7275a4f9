"""Hex coordinates: parse/print round trips, neighbours, distance, lines, rings."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from turnkeeper.errors import TurnkeeperError
from turnkeeper.world.hexes import Direction, Hex

coords = st.integers(-500, 500)
hexes = st.builds(Hex, coords, coords)


@given(hexes)
def test_parse_and_str_round_trip(h: Hex) -> None:
    assert Hex.parse(str(h)) == h


@given(st.integers(0, 999), st.integers(0, 999))
def test_label_round_trip(col: int, row: int) -> None:
    h = Hex.from_offset(col, row)
    assert (h.col, h.row) == (col, row)
    assert Hex.from_label(h.label) == h


def test_label_reads_column_then_row() -> None:
    h = Hex.from_label("0304")
    assert (h.col, h.row) == (3, 4)
    assert h.label == "0304"
    assert Hex.parse("0304") == h
    assert hash(h) == hash(Hex.from_offset(3, 4))


@pytest.mark.parametrize("text", ["", "3", "a,b", "030", "3,4,5"])
def test_bad_hex_text_is_one_clear_error(text: str) -> None:
    with pytest.raises(TurnkeeperError, match=r"hex|label"):
        Hex.parse(text)


@given(hexes)
def test_neighbours_are_one_apart_and_distinct(h: Hex) -> None:
    ns = h.neighbours()
    assert len(set(ns)) == 6
    assert all(h.distance(n) == 1 for n in ns)
    assert [h.neighbour(d) for d in Direction] == list(ns)


def test_flat_topped_directions_are_opposite_pairs() -> None:
    h = Hex(2, -1)
    assert h.neighbour(Direction.N).neighbour(Direction.S) == h
    assert h.neighbour(Direction.NE).neighbour(Direction.SW) == h
    assert h.neighbour(Direction.SE).neighbour(Direction.NW) == h


@given(hexes, hexes)
def test_distance_is_a_metric_and_line_is_contiguous(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    line = a.line_to(b)
    assert line[0] == a and line[-1] == b
    assert len(line) == a.distance(b) + 1
    assert all(p.distance(q) == 1 for p, q in itertools.pairwise(line))


@pytest.mark.parametrize("radius", [0, 1, 2, 5])
def test_ring_and_within(radius: int) -> None:
    centre = Hex(1, -3)
    ring = centre.ring(radius)
    assert len(set(ring)) == max(1, 6 * radius)
    assert all(centre.distance(h) == radius for h in ring)
    within = list(centre.within(radius))
    assert len(set(within)) == 1 + 3 * radius * (radius + 1)
