"""Reading rulesets: TOML files, ``extends``, and one clear error for a broken file.

A ruleset file is TOML checked against :class:`~turnkeeper.rules.schema.Ruleset`. It may
start with ``extends = "tp"`` (a preset's name) or ``extends = "base.toml"`` (a file,
relative to this one) and then override any key: tables merge into the parent's tables,
lists and single values replace the parent's. The five presets (one per seed text) live in
``presets/`` and are found by name, as python-chess finds its variants.

Whatever is wrong with a file (bad TOML, an unknown key, a value of the wrong kind, a dice
expression that does not parse, an ``extends`` that leads nowhere or in a circle) comes out
as ONE :class:`~turnkeeper.errors.RulesetError` naming the file, the dotted key path and
what was expected.

>>> preset("tp").time.round_seconds
10
>>> [info.name for info in presets()]
['cb', 'dg', 'ex', 'pg', 'tp']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from turnkeeper.errors import NotFoundError, RulesetError
from turnkeeper.files.keys import first_error, keys_at, unknown_key
from turnkeeper.files.names import check_name
from turnkeeper.files.paths import real_path
from turnkeeper.files.reading import parse_toml, read_text
from turnkeeper.rules.schema import Ruleset, RulesetInfo
from turnkeeper.rules.schema.base import MisplacedValue

__all__ = ["find_ruleset", "load_ruleset", "parse_ruleset", "preset", "presets"]

_PRESETS: Traversable = files("turnkeeper.rules") / "presets"

#: The most files an ``extends`` chain may hold, the ruleset's own file included.
MAX_EXTENDS = 16


@dataclass(frozen=True)
class _Source:
    """Where a ruleset's text comes from: a folder (a real one or the package's) and a name."""

    folder: Traversable
    name: str
    shown: str  # how the file is named in messages

    @property
    def file(self) -> Traversable:
        return self.folder / self.name

    @property
    def key(self) -> str:
        file = self.file
        # symbolic links followed without fail: a loop is named when the file is read
        return str(real_path(file)) if isinstance(file, Path) else str(file)


def _preset_names() -> list[str]:
    return sorted(
        entry.name.removesuffix(".toml")
        for entry in _PRESETS.iterdir()
        if entry.name.endswith(".toml") and not entry.name.startswith("_")
    )


def _preset_source(name: str) -> _Source:
    return _Source(_PRESETS, f"{name}.toml", f"preset {name} ({name}.toml)")


def _path_source(path: Path) -> _Source:
    return _Source(path.parent, path.name, str(path))


# --- reading and merging ---------------------------------------------------------------------


def _read_toml(source: _Source) -> dict[str, Any]:
    file = source.file
    if isinstance(file, Path):
        text = read_text(file, "ruleset file", RulesetError)
    else:
        text = file.read_text(encoding="utf-8")  # a shipped preset
    return parse_toml(text, source.shown, RulesetError)


def _merge(
    parent: dict[str, Any],
    child: Mapping[str, Any],
    shown: str,
    origins: dict[tuple[str, ...], str],
    prefix: tuple[str, ...] = (),
) -> dict[str, Any]:
    """Deep-merge ``child`` over ``parent``: tables merge, lists and values replace.

    ``origins`` remembers which file set each key, so an error in an inherited value names
    the file it came from.
    """
    merged = dict(parent)
    for key, value in child.items():
        path = (*prefix, key)
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value, shown, origins, path)
        else:
            merged[key] = value
            # Re-inserted, so the last entry under a table is the file that set it last.
            origins.pop(path, None)
            origins[path] = shown
    return merged


def _resolve_extends(source: _Source, target: object) -> _Source:
    if not isinstance(target, str) or not target:
        raise RulesetError(
            f"{source.shown}: extends: expected a preset name or a file path, got {target!r}"
        )
    relative = source.folder / target
    if target.endswith(".toml") or "/" in target:
        if not relative.is_file():
            raise RulesetError(
                f"{source.shown}: extends: no ruleset file {target!r} next to this file"
            )
        return _Source(source.folder, target, _shown_relative(source, target))
    if target in _preset_names():
        return _preset_source(target)
    raise RulesetError(
        f"{source.shown}: extends: no preset named {target!r}; "
        f"presets: {', '.join(_preset_names())} (or give a path such as base.toml)"
    )


def _shown_relative(source: _Source, target: str) -> str:
    if isinstance(source.folder, Path):
        return str(source.folder / target)
    return f"preset file {target}"


def _resolved_data(
    source: _Source, origins: dict[tuple[str, ...], str], chain: tuple[str, ...] = ()
) -> dict[str, Any]:
    """The file's data with its ``extends`` chain merged in, parent first."""
    if source.key in chain:
        raise RulesetError(
            f"{source.shown}: extends: goes round in a circle ({' -> '.join((*chain, source.key))})"
        )
    if len(chain) >= MAX_EXTENDS:
        # named by the file the user gave, where the chain starts
        raise RulesetError(
            f"{chain[0]}: extends: the chain is more than {MAX_EXTENDS} files long; "
            f"a ruleset extends at most {MAX_EXTENDS - 1} others in a row (presets included)"
        )
    data = _read_toml(source)
    target = data.pop("extends", None)
    own: dict[tuple[str, ...], str] = {}
    if target is None:
        _merge({}, data, source.shown, own)
        origins.update(own)
        return data
    parent = _resolved_data(_resolve_extends(source, target), origins, (*chain, source.key))
    return _merge(parent, data, source.shown, origins)


# --- pydantic errors as one message ----------------------------------------------------------


def _dotted(loc: tuple[int | str, ...]) -> str:
    # a key of 20,000 characters is named by its start
    shown = (str(part) if len(str(part)) <= 40 else f"{str(part)[:40]}..." for part in loc)
    return ".".join(shown) or "(top level)"


def _shown(given: object) -> str:
    """A value as the file wrote it: TOML spells booleans ``true`` and ``false``."""
    if isinstance(given, bool):
        return str(given).lower()
    return repr(given)


def _location(error: Mapping[str, Any]) -> tuple[int | str, ...]:
    """Where an error is: a check of a whole table may blame one key inside it."""
    loc = tuple(error["loc"])
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, MisplacedValue):
        return (*loc, *cause.key.split("."))
    return loc


def _expectation(error: Mapping[str, Any]) -> str:
    kind, loc, given = error["type"], tuple(error["loc"]), _shown(error.get("input"))
    limits = error.get("ctx") or {}
    if kind.startswith("fraction"):
        return f"expected a fraction such as 2/3, got {given}"
    if kind == "extra_forbidden":
        return unknown_key(loc[-1], keys_at(Ruleset, loc[:-1]))
    if kind == "missing":
        return "missing: this key is required"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"expected a whole number, got {given}"
    if kind in ("bool_parsing", "bool_type"):
        return f"expected true or false, got {given}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"expected a table of keys, got {given}"
    if kind == "greater_than":
        return f"expected more than {limits['gt']}, got {given}"
    if kind == "greater_than_equal":
        return f"expected {limits['ge']} or more, got {given}"
    if kind == "less_than_equal":
        # a bound keeps what the engine makes of the number exact (days, routes, odds)
        return (
            f"expected {limits['le']} or less, got {given}: the most this key may be is "
            f"{limits['le']}; lower it"
        )
    if kind == "greater_than_equal" and limits["ge"] < 0:
        return (
            f"expected {limits['ge']} or more, got {given}: the least this key may be is "
            f"{limits['ge']}; raise it"
        )
    if kind == "string_too_long":
        length = len(error["input"]) if isinstance(error.get("input"), str) else "more"
        return (
            f"a text of {length:,} characters; at most {limits['max_length']:,}: shorten it"
            if isinstance(length, int)
            else f"a text longer than {limits['max_length']:,} characters: shorten it"
        )
    if kind == "value_error":
        return str(error["msg"]).removeprefix("Value error, ")
    message = str(error["msg"]).replace("Input should be", "expected", 1)
    return f"{message}, got {given}"


def _ruleset_error(
    error: ValidationError, origins: Mapping[tuple[str, ...], str], shown: str
) -> RulesetError:
    errors = error.errors()
    first = first_error(errors)
    loc = _location(first)
    key = tuple(str(part) for part in loc)
    # A check of a whole table (overlapping rows, a die's faces) blames the file that last
    # set anything inside it, not the parent that first made the table.
    inside = [origin for path, origin in origins.items() if path[: len(key)] == key]
    where = inside[-1] if inside else None
    cause = (first.get("ctx") or {}).get("error")
    if isinstance(cause, MisplacedValue) and cause.involves:
        # A check across keys blames the file that set any of them last (origins keep the
        # order keys were set in, parent first).
        table = tuple(str(part) for part in first["loc"])
        read = [key, *((*table, *other.split(".")) for other in cause.involves)]
        touched = [
            origin
            for path, origin in origins.items()
            if any(path[: len(r)] == r or r[: len(path)] == path for r in read)
        ]
        where = touched[-1] if touched else None
    if where is None:
        where = next(
            (origins[key[:n]] for n in range(len(key), 0, -1) if key[:n] in origins), shown
        )
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return RulesetError(f"{where}: {_dotted(loc)}: {_expectation(first)}{more}")


# --- the public face ---------------------------------------------------------------------------


def parse_ruleset(data: Mapping[str, Any], shown: str = "<ruleset>") -> Ruleset:
    """Validate already-merged ruleset data; a broken one is one :class:`RulesetError`."""
    try:
        return Ruleset.model_validate(dict(data))
    except ValidationError as error:
        raise _ruleset_error(error, {}, shown) from None


def _load(source: _Source) -> Ruleset:
    origins: dict[tuple[str, ...], str] = {}
    data = _resolved_data(source, origins)
    try:
        ruleset = Ruleset.model_validate(data)
    except ValidationError as error:
        raise _ruleset_error(error, origins, source.shown) from None
    return check_ruleset(ruleset, origins.get(("ruleset", "name"), source.shown))


def check_ruleset(ruleset: Ruleset, where: str) -> Ruleset:
    """What a ruleset file is held to beyond its schema (``where`` names it in the error):
    the name a campaign shows is a name (printable, not too long). Checked as a file is read
    and as an imported journal's start is, not when a stored journal is read back."""
    check_name(ruleset.name, f"{where}: ruleset.name", RulesetError)
    return ruleset


def load_ruleset(path: str | Path) -> Ruleset:
    """Load a ruleset file, following its ``extends`` chain, and check it against the schema."""
    return _load(_path_source(Path(path)))


@cache
def preset(name: str) -> Ruleset:
    """The shipped ruleset for one seed text: ``tp``, ``ex``, ``pg``, ``dg`` or ``cb``.

    >>> preset("pg").tables["reaction"].dice
    '2d6+CHA'
    """
    if name not in _preset_names():
        raise NotFoundError(f"no preset named {name!r}; presets: {', '.join(_preset_names())}")
    return _load(_preset_source(name))


def presets() -> list[RulesetInfo]:
    """What each shipped preset encodes: name, title, rules text and rule-ID prefix."""
    return [preset(name).ruleset for name in _preset_names()]


def find_ruleset(name_or_path: str | Path) -> Ruleset:
    """A preset by name, or else a ruleset file by path.

    >>> find_ruleset("ex").ruleset.prefix
    'EX'
    """
    text = str(name_or_path)
    if isinstance(name_or_path, str) and text in _preset_names():
        return preset(text)
    path = Path(text)
    if path.is_file():
        return load_ruleset(path)
    raise NotFoundError(
        f"no preset or ruleset file named {text!r}; presets: {', '.join(_preset_names())}"
    )
