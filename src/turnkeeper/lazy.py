"""Names a package re-exports but loads only on first use (PEP 562).

The campaign and its procedures import each other (procedures fold into the campaign's state;
the campaign's ``decide`` dispatches to every procedure), so a procedure package cannot import
its modules eagerly in ``__init__``. Each such package lists where its names live and takes
its module ``__getattr__`` from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``name`` from ``homes[name]`` on first use.

    >>> getattr_ = lazy_names("demo", {"Fraction": "fractions"})
    >>> getattr_("Fraction")(1, 2)
    Fraction(1, 2)
    >>> getattr_("nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'demo' has no attribute 'nothing'
    """

    def load(name: str) -> Any:
        try:
            home = homes[name]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        return getattr(import_module(home), name)

    return load
