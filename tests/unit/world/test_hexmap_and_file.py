"""The map model (TP-DISC-1 visibility, landmarks, view blocking) and the map file format."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from turnkeeper.errors import NotFoundError, TurnkeeperError
from turnkeeper.world.errors import MapError
from turnkeeper.world.generate import generate_map
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import Concealment, Feature, HexMap, Road, Terrain
from turnkeeper.world.mapfile import dumps_map, loads_map, map_from_data, map_json_schema

SCHEMA = Path(__file__).parents[3] / "src/turnkeeper/world/map.schema.json"

GOOD = {
    "name": "Vale",
    "width": 3,
    "height": 2,
    "terrain": ["pHF", "fhw"],
    "roads": ["R.t", "..."],
    "hexes": [
        {"at": "0000", "blocks_view": True, "climate": "temperate"},
        {
            "at": "0101",
            "region": "Downs",
            "features": [
                {"id": "t1", "name": "Tower", "landmark": True, "notes": "a lich"},
                {"id": "c1", "name": "Crypt", "visibility": "secret"},
            ],
        },
    ],
}


def test_tp_disc_1_features_have_visibility_and_landmarks() -> None:
    m = map_from_data(GOOD)
    tower, crypt = m.features_at(Hex.from_label("0101"))
    assert tower.visibility is Concealment.OVERT and tower.landmark
    assert crypt.visibility is Concealment.SECRET and not crypt.landmark
    assert m.find_feature("c1") == (Hex.from_label("0101"), crypt)
    with pytest.raises(ValidationError):
        Feature(id="x", name="X", visibility="invisible")  # type: ignore[arg-type]


def test_tp_disc_1_view_blocked_by_high_mountains_and_deep_forest_unless_overridden() -> None:
    m = map_from_data(GOOD)
    assert m.blocks_view_at(Hex.from_offset(1, 0))  # high mountains
    assert m.blocks_view_at(Hex.from_offset(2, 0))  # deep forest
    assert not m.blocks_view_at(Hex.from_offset(0, 1))  # forest does not
    assert m.blocks_view_at(Hex.from_offset(0, 0))  # plains, but a canopy override
    assert m.blocks_view_grid().tolist() == [[True, True, True], [False, False, False]]


def test_model_reads_terrain_road_region_climate() -> None:
    m = map_from_data(GOOD)
    assert m.terrain_at(Hex.from_offset(2, 1)) is Terrain.WATER
    assert m.road_at(Hex.from_offset(2, 0)) is Road.TRAIL
    assert m.regions == {Hex.from_label("0101"): "Downs"}
    assert m.climates == {Hex.from_label("0000"): "temperate"}
    assert not m.terrain.flags.writeable
    with pytest.raises(NotFoundError, match="not on map"):
        m.terrain_at(Hex.from_offset(3, 0))


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_file_round_trip(fmt: str) -> None:
    m = map_from_data(GOOD)
    assert loads_map(dumps_map(m, fmt), fmt) == m
    g = generate_map(15, 9, seed=4)
    assert loads_map(dumps_map(g, fmt), fmt) == g


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"width": "three"}, r"vale.toml: width: .*integer"),
        ({"terrain": ["pHF"]}, r"terrain: expected 2 rows"),
        ({"terrain": ["pHF", "fh"]}, r"terrain\[1\]: expected 3 letters"),
        ({"terrain": ["pHF", "fhx"]}, r"terrain\[1\]: .*'x'|terrain\[1\]: .*pattern"),
        ({"roads": ["R.t", "..X"]}, r"roads\[1\]"),
        ({"hexes": [{"at": "0500"}]}, r"hexes\[0\]\.at: .*off the map"),
        ({"hexes": [{"at": "0000", "bogus": 1}]}, r"hexes\[0\]\.bogus"),
        (
            {
                "hexes": [
                    {"at": "0000", "features": [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}]}
                ]
            },
            r"hexes\[0\]\.features\[1\]\.id: 'a' is used twice",
        ),
        (
            {"hexes": [{"at": "0000", "features": [{"id": "a"}]}]},
            r"hexes\[0\]\.features\[0\]\.name",
        ),
    ],
)
def test_broken_file_gives_one_error_with_file_and_key_path(
    change: dict[str, object], expected: str
) -> None:
    with pytest.raises(MapError, match=expected) as caught:
        map_from_data({**GOOD, **change}, where="vale.toml")
    assert isinstance(caught.value, TurnkeeperError)
    assert "\n" not in str(caught.value) and str(caught.value).startswith("vale.toml: ")


def test_broken_syntax_names_the_file() -> None:
    with pytest.raises(MapError, match=r"^v.json: not valid JSON"):
        loads_map("{", "json", where="v.json")


def test_checked_in_schema_is_the_generated_one() -> None:
    assert json.loads(SCHEMA.read_text(encoding="utf-8")) == map_json_schema()


def test_big_map_holds_grids_not_objects() -> None:
    m = HexMap.build("big", np.zeros((300, 400), np.uint8))
    assert m.terrain.dtype == np.uint8 and m.terrain.shape == (300, 400)
    assert m.features == {}


def test_docs_example_is_a_valid_map() -> None:
    doc = (Path(__file__).parents[3] / "docs/map-format.md").read_text(encoding="utf-8")
    example = doc.split("```toml\n", 1)[1].split("```", 1)[0]
    m = loads_map(example, "toml", where="docs/map-format.md")
    assert m.find_feature("crypt")[1].visibility is Concealment.SECRET
