"""CLI verbs: maps (filled in by its issue)."""

from turnkeeper.cli.app import app  # noqa: F401
