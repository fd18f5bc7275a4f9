"""Frozen pydantic models that copy quickly: the fold makes a new state per event.

>>> from pydantic import ConfigDict
>>> class Torch(Frozen):
...     model_config = ConfigDict(frozen=True, defer_build=True)
...     turns_left: int
>>> lit = Torch(turns_left=6)
>>> lit.model_copy(update={"turns_left": 5}), lit
(Torch(turns_left=5), Torch(turns_left=6))
>>> lit.model_copy(update={"turns_lfet": 5})
Traceback (most recent call last):
TypeError: Torch has no field 'turns_lfet' (its fields: turns_left)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, Self, TypeVar

from pydantic import BaseModel, ConfigDict

_set = object.__setattr__


class Frozen(BaseModel):
    """Base of immutable game data whose ``model_copy`` is a dict merge.

    Pydantic's ``model_copy`` copies the extra, private and fields-set slots through
    ``copy.copy``, about three times the cost of the copy itself; folding a 100,000-event
    journal makes over 100,000 copies. Subclasses are frozen and have no private attributes
    or extra fields (anything else falls back to pydantic's own copy). Like pydantic's, the
    update is not validated: callers pass values of the fields' types.
    """

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """A shallow copy with ``update`` applied (pydantic's semantics, a quicker path); a
        name in ``update`` that is not one of the model's fields is a TypeError, not a value
        set beside them (pydantic keeps it, silently: ``update={"lihgt": None}``)."""
        if deep or self.__pydantic_private__ is not None or self.__pydantic_extra__ is not None:
            if update and not update.keys() <= self.__dict__.keys():
                raise _unknown(self, update)
            return super().model_copy(update=update, deep=deep)
        copied = object.__new__(type(self))
        fields = self.__dict__.copy()
        fields_set = self.__pydantic_fields_set__
        if update:
            known = len(fields)
            fields.update(update)
            if len(fields) != known:  # a name that is no field made the merge grow
                raise _unknown(self, update)
            if not update.keys() <= fields_set:
                fields_set = fields_set | update.keys()
        # A frozen model's fields-set never changes once made, so copies may share it.
        _set(copied, "__dict__", fields)
        _set(copied, "__pydantic_fields_set__", fields_set)
        _set(copied, "__pydantic_extra__", None)
        _set(copied, "__pydantic_private__", None)
        return copied


class Strict(Frozen):
    """Base of the game's data: immutable, and a key it does not know is an error, in a file,
    a journal read back and a copy alike."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


def _unknown(model: BaseModel, update: Mapping[str, Any]) -> TypeError:
    """The error of a copy naming a field the model does not have."""
    wrong = sorted(set(update) - set(model.__dict__))
    return TypeError(
        f"{type(model).__name__} has no field {', '.join(map(repr, wrong))} "
        f"(its fields: {', '.join(model.__dict__)})"
    )


T = TypeVar("T")


class Same(Generic[T]):
    """An immutable object as a cache key by identity: the very object, not an equal one.

    For what never changes but is costly to compare or hash by value (a ruleset, a map's
    grids): a cache of what is worked out from it keys on ``Same(it)``. A key held keeps
    its object alive, so its id is never another's while it is cached.

    >>> from pydantic import ConfigDict
    >>> class Torch(Frozen):
    ...     model_config = ConfigDict(frozen=True, defer_build=True)
    ...     turns_left: int
    >>> lit = Torch(turns_left=6)
    >>> Same(lit) == Same(lit), Same(lit) == Same(Torch(turns_left=6))
    (True, False)
    """

    __slots__ = ("it",)

    def __init__(self, it: T) -> None:
        self.it = it

    def __hash__(self) -> int:
        return id(self.it)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.it is self.it
