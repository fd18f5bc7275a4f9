"""SVG drawing: the player view never leaks referee notes or unfound features (TP-DISC-1)."""

from __future__ import annotations

import numpy as np

from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import Feature, HexMap, Road, Visibility
from turnkeeper.world.svg import render_svg

HERE, THERE, FAR = Hex.from_offset(0, 0), Hex.from_offset(1, 0), Hex.from_offset(2, 0)
MAP = HexMap.build(
    "Vale",
    np.zeros((2, 3), np.uint8),
    np.array([[Road.ROAD, Road.ROAD, 0], [0, 0, 0]], np.uint8),
    {
        HERE: (
            Feature(id="inn", name="Prancing Pony", notes="REFNOTE-innkeeper-is-a-spy"),
            Feature(id="cave", name="Hidden Cave", visibility=Visibility.HIDDEN),
        ),
        THERE: (Feature(id="vault", name="Secret Vault", visibility=Visibility.SECRET),),
    },
)


def test_referee_view_shows_everything() -> None:
    svg = render_svg(MAP)
    for text in (
        "Prancing Pony",
        "REFNOTE-innkeeper-is-a-spy",
        "Hidden Cave",
        "Secret Vault",
        "<line",
    ):
        assert text in svg
    assert svg.count("<polygon") >= 6


def test_player_view_hides_notes_and_unfound_features() -> None:
    svg = render_svg(
        MAP,
        party_at=HERE,
        known={HERE, THERE},
        player=True,
        found_features={"inn"},
        route=[HERE, THERE],
    )
    assert "Prancing Pony" in svg
    assert "REFNOTE" not in svg
    assert "Hidden Cave" not in svg and "Secret Vault" not in svg
    assert svg.count("<title>0") == 2  # only the two known hexes are drawn
    assert "party at 0000" in svg and "<polyline" in svg


def test_player_view_with_nothing_known_draws_no_hexes() -> None:
    svg = render_svg(MAP, player=True)
    assert "<polygon" not in svg and "Prancing Pony" not in svg
