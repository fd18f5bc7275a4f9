"""What every ``simulate`` subcommand shares: its options, the rulesets compared (``--vs``)
and the progress bar of a long run. The subcommands are ``cli.simulate``'s and, for the
world's months, ``cli.simulate_months``'s."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer

from turnkeeper.cli.output import console
from turnkeeper.rules.loader import find_ruleset
from turnkeeper.rules.schema import Ruleset

RULESET = typer.Option("tp", "--ruleset", "-r", help="A preset name or a ruleset file.")
VERSUS = typer.Option("--vs", help="The same question under a second ruleset, side by side.")
RUNS = typer.Option("--runs", help="How many runs (at most 10,000,000).")
SEED = typer.Option("--seed", help="The seed: the same seed, the same figures.")


def each_ruleset(ruleset: str, versus: str | None) -> list[Ruleset]:
    """The ruleset asked for, and the one ``--vs`` sets beside it."""
    return [find_ruleset(name) for name in ([ruleset] if versus is None else [ruleset, versus])]


@contextmanager
def progress_bar(show: bool, label: str, total: int) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on the terminal for people (none for ``--json``): told how far."""
    if not show:
        yield None
        return
    from rich.progress import Progress

    screen = console()
    # Off a terminal (a pipe, a file) a bar would leave blank lines: none is drawn.
    with Progress(console=screen, transient=True, disable=not screen.is_terminal) as progress:
        task = progress.add_task(label, total=total)
        yield lambda done: progress.update(task, completed=done)
