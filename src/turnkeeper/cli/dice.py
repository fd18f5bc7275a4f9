"""CLI verbs: dice (filled in by its issue)."""

from turnkeeper.cli.app import app  # noqa: F401


@app.command()
def version() -> None:
    """Print turnkeeper's version."""
    from turnkeeper import __version__

    print(__version__)
