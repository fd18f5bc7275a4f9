"""The ``turnkeeper`` command line: one module per group of verbs, registered on import."""

from turnkeeper.cli import (  # noqa: F401  (each module registers its verbs on ``app``)
    campaign,
    combat,
    demo,
    dice,
    dungeon,
    maps,
    rules,
    scene,
    serve,
    wilderness,
)
from turnkeeper.cli.app import app, main

__all__ = ["app", "main"]
