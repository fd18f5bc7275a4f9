"""What to say of the keys a schema refuses in a user's file: which error to show first,
the near name of a key spelt wrong, and the keys a table may hold.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from difflib import get_close_matches
from types import UnionType
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

__all__ = ["first_error", "keys_at", "unknown_key"]

_Found = TypeVar("_Found", bound=Mapping[str, Any])


def first_error(errors: Sequence[_Found]) -> _Found:
    """Of the errors a schema found in a file, the one a person should read first: an
    unknown key before any other, since a key spelt wrong also leaves the key it meant
    missing (``hitpoints = 5`` is the cause of "hp: Field required", not its echo).

    >>> first_error([{"type": "missing", "loc": ("hp",)},
    ...              {"type": "extra_forbidden", "loc": ("hitpoints",)}])["loc"]
    ('hitpoints',)
    """
    return next((found for found in errors if found["type"] == "extra_forbidden"), errors[0])


#: Keys written out in full (or as other games write them) for the short keys files use: no
#: spelling is near enough for a close match ("hitpoints" and "hp" share two letters).
_SAID_OTHERWISE = {
    "hitpoints": "hp",
    "hit_points": "hp",
    "max_hitpoints": "max_hp",
    "max_hit_points": "max_hp",
    "armour": "ac",
    "armor": "ac",
    "armour_class": "ac",
    "armor_class": "ac",
    "gold": "coins",
    "money": "coins",
    "lvl": "level",
}


def unknown_key(key: object, known: Iterable[str]) -> str:
    """What to say of a key a file may not hold: the near name if there is one, else the
    keys it may hold there. The one wording of every file kind's unknown key.

    >>> unknown_key("coinz", ["coins", "class", "hp"])
    "unknown key 'coinz'; did you mean 'coins'?"
    >>> unknown_key("hitpoints", ["ac", "hp", "name"])
    "unknown key 'hitpoints'; did you mean 'hp'?"
    >>> unknown_key("zz", ["hp", "ac"])
    "unknown key 'zz'; the keys here are ac, hp"
    """
    keys = sorted(set(known))
    near = get_close_matches(str(key), keys, n=1)
    meant = _SAID_OTHERWISE.get(str(key).lower().replace("-", "_").replace(" ", "_"))
    if meant in keys:
        near = [meant]
    if near:
        return f"unknown key {str(key)!r}; did you mean {near[0]!r}?"
    listed = ", ".join(keys[:12]) + (f" (and {len(keys) - 12} more)" if len(keys) > 12 else "")
    return f"unknown key {str(key)!r}; " + (
        f"the keys here are {listed}" if keys else "no keys here"
    )


def keys_at(model: Any, loc: Iterable[int | str]) -> list[str]:
    """The keys a file may hold in the table at ``loc`` of pydantic ``model`` (its fields,
    by the alias a file writes), for :func:`unknown_key`; [] where that is not a table.

    ``loc`` is a pydantic error's location less its last part (the unknown key): keys, list
    indexes, and the name of a union's member where pydantic names it (``SiteTable[Row]``).
    """
    current: list[Any] = [model]
    for part in loc:
        inner: list[Any] = []
        for kind in _members(current):
            fields = getattr(kind, "model_fields", None)
            if isinstance(part, str) and getattr(kind, "__name__", None) == part:
                inner.append(kind)  # a union's member, named by pydantic
            elif fields is not None and isinstance(part, str):
                field = fields.get(part) or next(
                    (f for f in fields.values() if f.alias == part), None
                )
                inner += [field.annotation] if field is not None else []
            elif fields is None:
                # a list's or a tuple's item (tuple[X, ...]), a mapping's value
                args = [arg for arg in get_args(kind) if arg is not Ellipsis]
                inner += args[-1:]
        current = inner
    found = [kind for kind in _members(current) if hasattr(kind, "model_fields")]
    return sorted({f.alias or name for kind in found for name, f in kind.model_fields.items()})


def _members(kinds: list[Any]) -> list[Any]:
    """Types with Optional, unions and Annotated unwrapped."""
    out: list[Any] = []
    stack = list(kinds)
    while stack:
        kind = stack.pop()
        origin = get_origin(kind)
        if origin is Union or origin is UnionType or origin is Annotated:
            stack += get_args(kind)[:1] if origin is Annotated else get_args(kind)
        elif kind is not type(None):
            out.append(kind)
    return out
