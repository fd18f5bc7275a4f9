"""CLI: ``simulate months``, the world's month turns many times over: how soon each faction
of a factions file reaches its goal, under one ruleset or two side by side (``--vs``), with
``--plot`` (each faction's share by month) and ``--json`` (every month's share and standard
error). Registered on ``simulate`` by :mod:`turnkeeper.cli.simulate`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from turnkeeper.cli.options import ForceOption, check_out, ruleset_files
from turnkeeper.cli.output import JsonOption, console, emit, say, text
from turnkeeper.cli.simulating import RULESET, RUNS, SEED, VERSUS, each_ruleset, progress_bar
from turnkeeper.files.reading import read_text
from turnkeeper.world.factions import FactionsError, parse_factions

if TYPE_CHECKING:  # numpy loads only when a simulation runs
    from turnkeeper.analysis.months import MonthsOdds


def months_command(
    factions: Annotated[
        Path,
        typer.Option("--factions", help="A factions file (TOML), as docs/factions.md shows."),
    ],
    months: Annotated[
        int, typer.Option("--months", help="How many month turns to play (at most 1,200).")
    ] = 120,
    ruleset: str = RULESET,
    versus: Annotated[str | None, VERSUS] = None,
    runs: Annotated[int, RUNS] = 10_000,
    seed: Annotated[int, SEED] = 0,
    plot: Annotated[
        Path | None,
        typer.Option(
            help="Also draw each faction's share of runs with its goal reached, month by "
            "month: x.png or x.svg."
        ),
    ] = None,
    force: bool = ForceOption,
    as_json: bool = JsonOption,
) -> None:
    """How soon each faction reaches its goal: many runs of the world's month turns.

    Each month every faction, in the file's order, rolls the ruleset's faction roll and does
    what its faction table says [TP-TIME-1]. Shown for a few months: the share of runs in
    which each faction's goal had been reached by then, and the month by which half had.

    Example: `turnkeeper simulate months --factions examples/factions.toml --months 120
    --runs 20000 --plot goals.png`.
    """
    if plot is not None:
        inputs: list[tuple[str | Path | None, str]] = [
            (factions, "factions file"),
            *ruleset_files(ruleset, versus),
        ]
        check_out(plot, "plot", force, inputs=inputs)
    from turnkeeper.analysis.expedition import check_bounds
    from turnkeeper.analysis.months import Months, simulate_months

    check_bounds(runs, 1, seed)
    world = parse_factions(read_text(factions, "factions file", FactionsError), str(factions))
    plans = [Months(rules, world, months) for rules in each_ruleset(ruleset, versus)]
    results = []
    for plan in plans:
        label = f"{runs:,} runs of {months} months under {plan.ruleset.name}"
        with progress_bar(not as_json, label, runs) as tell:
            results.append(simulate_months(plan, runs=runs, seed=seed, progress=tell))
    records = [r.to_dict() for r in results]
    data: dict[str, Any] = records[0] if versus is None else {"compared": records}
    if plot is not None:
        _plot(results, plot)
        data["plot"] = str(plot)
    emit(data, as_json, lambda: _render(results, versus is not None, plot))


def _render(results: list[MonthsOdds], compared: bool, plot: Path | None) -> None:
    """Per faction (and ruleset), its share of runs with the goal reached at a few months."""
    from turnkeeper.analysis.months import milestones

    first = results[0]
    names = " against ".join(r.ruleset for r in results)
    shown = milestones(first.months)
    table = Table(
        box=None,
        title=text(f"{names}: goals reached in {first.runs:,} runs of {first.months} months"),
    )
    table.add_column("faction")
    for month in shown:
        table.add_column(f"month {month}" if month == shown[0] else str(month), justify="right")
    table.add_column("half by", justify="right")
    for i, name in enumerate(first.factions):
        for odds in results:
            half = odds.half_by(i)
            cells = [f"{name} ({odds.ruleset})" if compared else name]
            cells += [f"{odds.share(i, m):.1%}" for m in shown]
            cells.append("-" if half is None else str(half) if half else "start")
            table.add_row(*cells)
    console().print(table)
    widest = max(
        r.standard_error(i, m) for r in results for i in range(len(first.factions)) for m in shown
    )
    say(
        "the share of runs whose goal's clock had been full by the month's end, and the month "
        f"by which half had; one standard error is at most {100 * widest:.1f} points"
    )
    if plot is not None:
        say("plotted in ", str(plot))


def _plot(results: list[MonthsOdds], path: Path) -> None:
    # matplotlib loads only for a plot (an adapter's edge: heavy and rarely needed)
    from turnkeeper.analysis.plots import Curve, plot_curves

    compared = len(results) > 1
    curves = []
    for index, odds in enumerate(results):
        for i, name in enumerate(odds.factions):
            shares = odds.shares(i).tolist()
            errors = [odds.standard_error(i, m) for m in range(odds.months + 1)]
            label = f"{name} ({odds.ruleset})" if compared else name
            curves.append(Curve(label, shares, errors, colour=i, dashed=index > 0))
    names = " against ".join(r.ruleset for r in results)
    title = f"goals reached: {names} ({results[0].runs:,} runs{' each' if compared else ''})"
    plot_curves(curves, title, path, "month", "runs with the goal reached")
