"""The map file: TOML or JSON (by extension), checked against one schema.

The file keeps the grid compact, one string per row with one letter per hex, so a large
map stays readable and small; everything sparse (features, view overrides, regions,
climates) sits in a ``hexes`` list keyed by the printed-map label. See docs/map-format.md.
:func:`map_json_schema` is the JSON Schema of :class:`MapFile` (checked in as
``map.schema.json``). A broken file raises one :class:`MapError` naming the file, the key
path and what was expected.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.keys import first_error, keys_at, unknown_key
from turnkeeper.files.names import MAX_NAME_LENGTH, check_name
from turnkeeper.files.reading import parse_json, parse_toml
from turnkeeper.world.errors import MapError
from turnkeeper.world.hexes import Hex
from turnkeeper.world.hexmap import ROAD_LETTERS, TERRAIN_LETTERS, Feature, HexMap

#: The widest and tallest map: 4 million hexes make and draw in seconds, and a route search
#: over them fits in memory.
MAX_MAP_SIDE = 2000

_TERRAIN_CHARS = "".join(TERRAIN_LETTERS.values())
_ROAD_CHARS = "".join(ROAD_LETTERS.values())


class HexEntry(BaseModel):
    """What one hex has beyond its terrain letter and road letter."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    at: str = Field(
        pattern=r"^([0-9]{4,}|-?[0-9]+,-?[0-9]+)$",
        description="The hex: printed-map label ('0304' = column 03, row 04) or axial 'q,r'.",
    )
    features: list[Feature] = Field(default_factory=list)
    blocks_view: bool | None = Field(
        default=None, description="Override the terrain's view blocking (e.g. canopy: true)."
    )
    region: str | None = Field(default=None, description="Region name (for weather).")
    climate: str | None = Field(default=None, description="Climate name (for weather).")


class MapFile(BaseModel):
    """A turnkeeper wilderness map file."""

    model_config = ConfigDict(extra="forbid", title="turnkeeper map", defer_build=True)

    name: str = Field(min_length=1, max_length=MAX_NAME_LENGTH)
    width: int = Field(strict=True, ge=1, le=MAX_MAP_SIDE, description="Columns of hexes.")
    height: int = Field(strict=True, ge=1, le=MAX_MAP_SIDE, description="Rows of hexes.")
    terrain: list[str] = Field(
        description=(
            "One string per row (top to bottom), one letter per hex: p plains, h hills, "
            "m marsh, s swamp, f forest, F deep forest, M mountains, H high mountains, "
            "d desert, w water."
        ),
        json_schema_extra={"items": {"type": "string", "pattern": f"^[{_TERRAIN_CHARS}]*$"}},
    )
    roads: list[str] | None = Field(
        default=None,
        description="Optional, one string per row: '.' none, 'R' road, 't' trail.",
        json_schema_extra={"items": {"type": "string", "pattern": f"^[{_ROAD_CHARS}]*$"}},
    )
    hexes: list[HexEntry] = Field(default_factory=list)


def map_json_schema() -> dict[str, Any]:
    """The JSON Schema of the map file, generated from :class:`MapFile`."""
    return MapFile.model_json_schema()


def _lookup(letters: Mapping[Any, str]) -> np.ndarray[Any, np.dtype[np.int16]]:
    table = np.full(256, -1, dtype=np.int16)
    for code, letter in letters.items():
        table[ord(letter)] = int(code)
    return table


_TERRAIN_TABLE = _lookup(TERRAIN_LETTERS)
_ROAD_TABLE = _lookup(ROAD_LETTERS)


def _grid(rows: list[str], key: str, width: int, height: int, table: Any, where: str) -> Any:
    if len(rows) != height:
        raise MapError(f"{where}: {key}: expected {height} rows (height), found {len(rows)}")
    for i, row in enumerate(rows):
        if len(row) != width:
            raise MapError(
                f"{where}: {key}[{i}]: expected {width} letters (width), found {len(row)}"
            )
    try:
        raw = np.frombuffer("".join(rows).encode("ascii"), dtype=np.uint8)
    except UnicodeEncodeError:
        raw = np.zeros(0, dtype=np.uint8)
    codes = table[raw] if raw.size == width * height else np.full(width * height, -1)
    bad = np.flatnonzero(codes < 0)
    if bad.size:
        i, col = divmod(int(bad[0]), width)
        letter = rows[i][col]
        valid = "".join(chr(c) for c in np.flatnonzero(table >= 0))
        raise MapError(
            f"{where}: {key}[{i}]: unknown letter {letter!r} at column {col}; "
            f"expected one of '{valid}'"
        )
    return codes.reshape(height, width).astype(np.uint8)


def check_map_size(width: int, height: int, where: str = "map") -> None:
    """Refuse a map larger than :data:`MAX_MAP_SIDE` on a side before anything is made of it.

    >>> check_map_size(2001, 10)
    Traceback (most recent call last):
    ...
    turnkeeper.world.errors.MapError: map: 2001 x 10 hexes: maps are at most 2,000 x 2,000 hexes
    """
    if not (1 <= width <= MAX_MAP_SIDE and 1 <= height <= MAX_MAP_SIDE):
        raise MapError(
            f"{where}: {width} x {height} hexes: maps are at most "
            f"{MAX_MAP_SIDE:,} x {MAX_MAP_SIDE:,} hexes"
            + ("" if width >= 1 and height >= 1 else ", and at least 1 x 1")
        )


def map_from_data(data: Any, where: str = "<map>") -> HexMap:
    """Check plain data (as read from TOML or JSON) and build the map it describes."""
    try:
        spec = MapFile.model_validate(data)
    except ValidationError as error:
        first = first_error(error.errors())
        path = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first["loc"])
        message = first["msg"]
        if first["type"] == "extra_forbidden":
            loc = tuple(first["loc"])
            message = unknown_key(loc[-1], keys_at(MapFile, loc[:-1]))
        if first["type"] in ("less_than_equal", "greater_than_equal") and path in (
            ".width",
            ".height",
        ):
            message = (
                f"maps are at most {MAX_MAP_SIDE:,} x {MAX_MAP_SIDE:,} hexes, got {first['input']}"
            )
        raise MapError(f"{where}: {path.lstrip('.') or '(top level)'}: {message}") from None
    check_name(spec.name, f"{where}: name", MapError)
    terrain = _grid(spec.terrain, "terrain", spec.width, spec.height, _TERRAIN_TABLE, where)
    road = (
        _grid(spec.roads, "roads", spec.width, spec.height, _ROAD_TABLE, where)
        if spec.roads is not None
        else None
    )
    features: dict[Hex, tuple[Feature, ...]] = {}
    overrides: dict[Hex, bool] = {}
    regions: dict[Hex, str] = {}
    climates: dict[Hex, str] = {}
    seen_ids: set[str] = set()
    for i, entry in enumerate(spec.hexes):
        key = f"hexes[{i}]"
        try:
            hex_ = Hex.parse(entry.at)
        except TurnkeeperError as error:
            raise MapError(f"{where}: {key}.at: {error}") from None
        if not (0 <= hex_.col < spec.width and 0 <= hex_.row < spec.height):
            raise MapError(
                f"{where}: {key}.at: hex {entry.at!r} is off the map; expected columns "
                f"0..{spec.width - 1} and rows 0..{spec.height - 1}"
            )
        if hex_ in features or hex_ in overrides or hex_ in regions or hex_ in climates:
            raise MapError(f"{where}: {key}.at: hex {entry.at!r} is listed twice; merge entries")
        for j, feature in enumerate(entry.features):
            # what search --for and map reveal are given, and what the pages show
            check_name(feature.id, f"{where}: {key}.features[{j}].id", MapError)
            check_name(feature.name, f"{where}: {key}.features[{j}].name", MapError)
            if feature.id in seen_ids:
                raise MapError(
                    f"{where}: {key}.features[{j}].id: {feature.id!r} is used twice; "
                    "expected ids unique across the map"
                )
            seen_ids.add(feature.id)
        if entry.features:
            features[hex_] = tuple(entry.features)
        if entry.blocks_view is not None:
            overrides[hex_] = entry.blocks_view
        if entry.region is not None:
            regions[hex_] = entry.region
        if entry.climate is not None:
            climates[hex_] = entry.climate
    return HexMap.build(spec.name, terrain, road, features, overrides, regions, climates)


def map_to_data(hexmap: HexMap) -> dict[str, Any]:
    """The map as plain data in the file's shape (JSON- and TOML-ready)."""
    t_letters = np.array([ord(TERRAIN_LETTERS[t]) for t in sorted(TERRAIN_LETTERS)], np.uint8)
    r_letters = np.array([ord(ROAD_LETTERS[r]) for r in sorted(ROAD_LETTERS)], np.uint8)
    data: dict[str, Any] = {
        "name": hexmap.name,
        "width": hexmap.width,
        "height": hexmap.height,
        "terrain": [bytes(row).decode("ascii") for row in t_letters[hexmap.terrain]],
    }
    if hexmap.road.any():
        data["roads"] = [bytes(row).decode("ascii") for row in r_letters[hexmap.road]]
    keys = sorted(
        set(hexmap.features)
        | set(hexmap.blocks_view_overrides)
        | set(hexmap.regions)
        | set(hexmap.climates),
        key=lambda h: (h.row, h.col),
    )
    entries: list[dict[str, Any]] = []
    for hex_ in keys:
        entry: dict[str, Any] = {"at": hex_.label}
        if hex_ in hexmap.blocks_view_overrides:
            entry["blocks_view"] = hexmap.blocks_view_overrides[hex_]
        if hex_ in hexmap.regions:
            entry["region"] = hexmap.regions[hex_]
        if hex_ in hexmap.climates:
            entry["climate"] = hexmap.climates[hex_]
        if hexmap.features.get(hex_):
            entry["features"] = [f.model_dump(mode="json") for f in hexmap.features[hex_]]
        entries.append(entry)
    if entries:
        data["hexes"] = entries
    return data


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a valid TOML basic string
    if isinstance(value, list):
        return "[\n" + "".join(f"  {_toml_value(v)},\n" for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _to_toml(data: dict[str, Any]) -> str:
    lines = [f"{k} = {_toml_value(v)}" for k, v in data.items() if k != "hexes"]
    for entry in data.get("hexes", []):
        lines += ["", "[[hexes]]"]
        lines += [f"{k} = {_toml_value(v)}" for k, v in entry.items() if k != "features"]
        for feature in entry.get("features", []):
            lines += ["", "[[hexes.features]]"]
            lines += [f"{k} = {_toml_value(v)}" for k, v in feature.items()]
    return "\n".join(lines) + "\n"


def dumps_map(hexmap: HexMap, fmt: str = "toml") -> str:
    """The map file text, ``fmt`` "toml" or "json"."""
    data = map_to_data(hexmap)
    if fmt == "json":
        return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if fmt == "toml":
        return _to_toml(data)
    raise MapError(f"unknown map format {fmt!r}; expected 'toml' or 'json'")


def format_for(path: Path) -> str:
    """The file format a path's extension names (.toml, .json, or a .csv terrain grid)."""
    suffix = path.suffix.lower()
    if suffix in (".toml", ".json", ".csv"):
        return suffix[1:]
    raise MapError(
        f"{path}: map files end in .toml, .json or .csv, not {suffix or '(no extension)'!r}"
    )


def loads_map(text: str, fmt: str, where: str = "<map>") -> HexMap:
    """Read map file text in ``fmt`` ("toml", "json", or "csv": a grid of terrain)."""
    if fmt == "csv":
        return map_from_data(_csv_grid(text, where), where)
    if fmt == "toml":
        return map_from_data(parse_toml(text, where, MapError), where)
    return map_from_data(parse_json(text, where, MapError), where)


#: A terrain cell of a grid made elsewhere: its letter, or its name in any case and spacing.
_CELL_TERRAIN = {
    **{letter: letter for letter in TERRAIN_LETTERS.values()},
    **{t.key.replace("_", ""): letter for t, letter in TERRAIN_LETTERS.items()},
}


def _csv_grid(text: str, where: str) -> dict[str, object]:
    r"""A map made elsewhere as a CSV grid, one row of hexes per line, one terrain a cell (a
    letter, ``f``, or a name, ``deep forest``): the map file's data for it.

    >>> data = _csv_grid("plains,hills\nF,water\n", "vale.csv")
    >>> data["terrain"], data["width"], data["height"], data["name"]
    (['ph', 'Fw'], 2, 2, 'vale')
    >>> _csv_grid("p,h\np,lava\n", "vale.csv")
    Traceback (most recent call last):
    ...
    turnkeeper.world.errors.MapError: vale.csv: row 2, column 2: unknown terrain 'lava'; ...
    """
    rows = [row for row in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in row)]
    if not rows:
        raise MapError(f"{where}: the grid is empty: one row of terrain per line")
    width = len(rows[0])
    letters = []
    for number, row in enumerate(rows, start=1):
        if len(row) != width:
            raise MapError(f"{where}: row {number} has {len(row)} cells; the first row has {width}")
        line = []
        for column, cell in enumerate(row, start=1):
            key = cell.strip()
            letter = _CELL_TERRAIN.get(key) or _CELL_TERRAIN.get(
                key.casefold().replace(" ", "").replace("_", "")
            )
            if letter is None:
                known = ", ".join(t.key.replace("_", " ") for t in TERRAIN_LETTERS)
                raise MapError(
                    f"{where}: row {number}, column {column}: unknown terrain {key!r}; "
                    f"use a letter ({''.join(sorted(TERRAIN_LETTERS.values()))}) or a name: "
                    f"{known}"
                )
            line.append(letter)
        letters.append("".join(line))
    name = Path(where).stem or "imported map"
    return {"name": name, "width": width, "height": len(rows), "terrain": letters}
