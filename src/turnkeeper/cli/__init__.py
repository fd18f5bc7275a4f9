"""The ``turnkeeper`` command line: one module per group of verbs, loaded by name.

:mod:`turnkeeper.cli.app` holds the verb table; each verb's module defines it on its own
``verbs`` Typer and is imported only when the verb runs, and prints through
:mod:`turnkeeper.cli.output`.
"""

from turnkeeper.cli.app import app, main

__all__ = ["app", "main"]
