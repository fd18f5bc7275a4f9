"""The demo map generator: deterministic, plausible, with every kind of feature (TP-DISC-1)."""

from __future__ import annotations

import numpy as np

from turnkeeper.world.generate import generate_map
from turnkeeper.world.hexmap import Concealment, Road, Terrain


def test_same_seed_same_map_and_other_seed_other_map() -> None:
    assert generate_map(40, 30, seed=11) == generate_map(40, 30, seed=11)
    assert generate_map(40, 30, seed=11) != generate_map(40, 30, seed=12)


def test_plausible_terrain_roads_and_features() -> None:
    m = generate_map(80, 60, seed=5)
    counts = np.bincount(m.terrain.reshape(-1), minlength=len(Terrain))
    assert counts[Terrain.PLAINS] > counts[Terrain.HIGH_MOUNTAINS] > 0
    assert counts[Terrain.WATER] > 0 and counts[Terrain.FOREST] > 0
    assert (m.road == Road.ROAD).any() and (m.road == Road.TRAIL).any()
    assert not (m.road[m.terrain == Terrain.WATER]).any()
    features = [f for _, f in m.all_features()]
    kinds = {f.visibility for f in features}
    assert kinds == set(Concealment)
    assert all(f.notes for f in features)
    assert len({f.id for f in features}) == len(features)


def test_tp_disc_1_about_one_in_six_overt_features_are_landmarks() -> None:
    m = generate_map(200, 150, seed=1)
    overt = [f for _, f in m.all_features() if f.visibility is Concealment.OVERT]
    landmarks = [f for f in overt if f.landmark]
    assert all(f.visibility is Concealment.OVERT for _, f in m.all_features() if f.landmark)
    assert 0.10 < len(landmarks) / len(overt) < 0.25


def test_a_road_whose_line_cuts_a_corner_off_the_map_stays_on_it() -> None:
    # seed 296 on 16 x 12 joins two villages by a line through row 12, one off the map: it was
    # an IndexError (`map new` an internal error), and a row or column -1 laid road hexes on
    # the far edge of the map
    for seed in (296, 337):
        m = generate_map(16, 12, seed=seed)
        assert m.road.shape == (12, 16) and (m.road != Road.NONE).any()
