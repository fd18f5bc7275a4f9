"""CLI verb ``simulate``: the designer's bench, many runs of a procedure at once.

``simulate expedition`` (a delve into a site), ``simulate fight`` (who wins); each answers
for a second ruleset beside the first with ``--vs``, draws a histogram with ``--plot`` and
gives every column's summary and histogram with ``--json``. numpy and the analysis load only
when a simulation runs; matplotlib only when a plot is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from turnkeeper.cli.app import JsonOption, console, emit, say
from turnkeeper.errors import NotFoundError, TurnkeeperError
from turnkeeper.files import read_text
from turnkeeper.kernel.combat_state import Combatant
from turnkeeper.kernel.party import load_party
from turnkeeper.procedures.combat.roster import RosterError, parse_roster
from turnkeeper.rules.loader import find_ruleset
from turnkeeper.rules.schema import Ruleset
from turnkeeper.world.sites import load_site

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

simulate_app = typer.Typer(
    help="Simulate procedures many times over: expeditions into a site, fights.\n\n"
    "Example: `turnkeeper simulate expedition --ruleset tp --vs ex --site examples/site.toml "
    "--party examples/party.toml --hours 3`.",
    no_args_is_help=True,
)
verbs.add_typer(simulate_app, name="simulate")

_RULESET = typer.Option("tp", "--ruleset", "-r", help="A preset name or a ruleset file.")
_VERSUS = typer.Option("--vs", help="The same question under a second ruleset, side by side.")
_RUNS = typer.Option("--runs", help="How many runs (at most 10,000,000).")
_SEED = typer.Option("--seed", help="The seed: the same seed, the same figures.")
_PLOT = typer.Option(help="Also draw a histogram, mean and quartiles marked: x.png or x.svg.")


def _span(turns: int, minutes: int) -> str:
    """A delve's length as people say it: "18 turns (3 h)"."""
    hours, left = divmod(turns * minutes, 60)
    said = f"{hours} h" + (f" {left} min" if left else "") if hours else f"{left} min"
    return f"{turns} turns ({said})"


def _rulesets(ruleset: str, versus: str | None) -> list[Ruleset]:
    return [find_ruleset(name) for name in ([ruleset] if versus is None else [ruleset, versus])]


@contextmanager
def _progress(show: bool, label: str, total: int) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on the terminal for people (none for ``--json``): told how far."""
    if not show:
        yield None
        return
    from rich.progress import Progress

    with Progress(console=console(), transient=True) as progress:
        task = progress.add_task(label, total=total)
        yield lambda done: progress.update(task, completed=done)


def _plot(
    series: Sequence[tuple[str, dict[int, Fraction]]], title: str, path: Path, unit: str
) -> None:
    # matplotlib loads only for a plot (an adapter's edge: heavy and rarely needed)
    from turnkeeper.analysis.plots import plot_compared

    labels = len(series) > 1
    plot_compared([(name if labels else "", d, None) for name, d in series], title, path, unit)


# --- simulate expedition ----------------------------------------------------------------------


@simulate_app.command("expedition")
def expedition_command(
    site: Annotated[
        Path, typer.Option("--site", help="A site file (TOML), e.g. examples/site.toml.")
    ],
    party: Annotated[
        Path, typer.Option("--party", help="A party file (TOML), e.g. examples/party.toml.")
    ],
    ruleset: str = _RULESET,
    versus: Annotated[str | None, _VERSUS] = None,
    turns: Annotated[
        int | None, typer.Option("--turns", help="The delve's length in turns (default: 3 hours).")
    ] = None,
    hours: Annotated[
        int | None, typer.Option("--hours", help="The delve's length in hours, instead of turns.")
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option("--mode", "-m", help="A movement mode: cautious, swift, running [EX-MOV-1]."),
    ] = None,
    level: Annotated[
        int | None, typer.Option("--level", help="The level (first: default).")
    ] = None,
    push_on: Annotated[
        bool,
        typer.Option("--push-on", help="Never rest unless forced: weariness comes [EX-REST-3]."),
    ] = False,
    runs: Annotated[int, _RUNS] = 10_000,
    seed: Annotated[int, _SEED] = 0,
    plot: Annotated[Path | None, _PLOT] = None,
    column: Annotated[
        str, typer.Option("--column", help="What --plot draws, e.g. torches_used or rests.")
    ] = "encounters",
    as_json: bool = JsonOption,
) -> None:
    """Many delves into a site: encounters, surprise, torches and oil, darkness, rests.

    Each run takes turns at the movement mode, lights up from its supplies when dark, rests
    when a rest is due, and ends each encounter without a fight.

    Example: `turnkeeper simulate expedition --ruleset tp --vs ex --site examples/site.toml
    --party examples/party.toml --hours 3 --plot torches.png --column torches_used`.
    """
    from turnkeeper.analysis.expedition import Expedition, check_bounds, simulate_expedition

    if turns is not None and hours is not None:
        raise TurnkeeperError("give --turns or --hours for the delve's length, not both")
    place = load_site(site)
    found = []
    for rules in _rulesets(ruleset, versus):
        span = turns if turns is not None else (3 if hours is None else hours) * 60
        if turns is None:
            span //= rules.time.turn_minutes
        check_bounds(runs, span, seed)
        plan = Expedition(
            rules, load_party(party, rules), place, level, mode, span, rests=not push_on
        )
        found.append(plan)
    results = []
    for plan in found:
        label = f"{runs:,} delves under {plan.ruleset.name}"
        with _progress(not as_json, label, runs) as tell:
            results.append(simulate_expedition(plan, runs=runs, seed=seed, progress=tell))
    if column not in results[0].columns:
        known = ", ".join(results[0].columns)
        raise NotFoundError(f"--column {column}: no such column; columns: {known}")
    data: dict[str, Any] = (
        results[0].to_dict() if versus is None else {"compared": [r.to_dict() for r in results]}
    )
    if plot is not None:
        first = results[0]
        title = (
            f"{column.replace('_', ' ')} in {_span(first.turns, first.turn_minutes)}: "
            + " against ".join(r.ruleset for r in results)
            + f" ({runs:,} runs each)"
        )
        _plot([(r.ruleset, r.shares(column)) for r in results], title, plot, column)
        data["plot"] = str(plot)

    def render() -> None:
        from turnkeeper.analysis.expedition import summarise

        first = results[0]
        title = (
            " against ".join(r.ruleset for r in results)
            + f": {runs:,} delves of {_span(first.turns, first.turn_minutes)}"
            + (f", {first.mode}" if first.mode else "")
        )
        table = Table(title=title)
        table.add_column("per delve")
        for r in results:
            suffix = f" ({r.ruleset})" if versus is not None else ""
            table.add_column(f"mean{suffix}", justify="right")
            table.add_column(f"quartiles{suffix}", justify="right")
            if versus is None:
                table.add_column("least-most", justify="right")
        names = list(dict.fromkeys(name for r in results for name in r.columns))
        for name in names:
            cells = [name.replace("_", " ")]
            for r in results:
                if name not in r.columns:
                    cells += ["-", "-"] + ([] if versus is not None else ["-"])
                    continue
                s = summarise(r.columns[name])
                cells += [
                    f"{s['mean']:.2f}",
                    f"{s['lower_quartile']} · {s['median']} · {s['upper_quartile']}",
                ]
                if versus is None:
                    cells.append(f"{s['least']}-{s['most']}")
            table.add_row(*cells)
        console().print(table)
        if plot is not None:
            say("plotted in ", str(plot))

    emit(data, as_json, render)


# --- simulate fight ---------------------------------------------------------------------------


def _roster(path: Path) -> list[Combatant]:
    """A roster file's combatants on the sides it gives: [[characters]] and [[allies]] with
    the party, [[foes]] against it (CB-SIDE-1)."""
    if not path.is_file():
        raise NotFoundError(f"no file at {path}")
    return parse_roster(read_text(path, "roster file", RosterError), str(path))


@simulate_app.command("fight")
def fight_command(
    party: str = typer.Option(
        ..., "--party", help="The party file (TOML), e.g. examples/fighters.toml."
    ),
    foes: str = typer.Option(..., "--foes", help="The foes file (TOML), e.g. examples/foes.toml."),
    ruleset: str = _RULESET,
    versus: Annotated[str | None, _VERSUS] = None,
    runs: Annotated[int, _RUNS] = 10_000,
    seed: Annotated[int, _SEED] = 0,
    plot: Annotated[
        Path | None,
        typer.Option(help="Also draw the rounds fights take as a histogram: x.png or x.svg."),
    ] = None,
    as_json: bool = JsonOption,
) -> None:
    """Who wins, in how many rounds, at what cost: many fights at once.

    Allies in either file fight on the party's side [CB-SIDE-1].

    Example: `turnkeeper simulate fight --party examples/fighters.toml --foes examples/foes.toml`.
    """
    from turnkeeper.analysis.expedition import check_bounds
    from turnkeeper.analysis.simulate import simulate_fight

    check_bounds(runs, 1, seed)
    fighters = _roster(Path(party)) + _roster(Path(foes))
    results = []
    for rules in _rulesets(ruleset, versus):
        with _progress(not as_json, f"{runs:,} fights under {rules.name}", 50) as tell:
            odds = simulate_fight(rules, fighters, runs=runs, seed=seed, progress=tell)
        results.append((rules.name, odds))
    records = [{"ruleset": name, "seed": seed, **odds.to_dict()} for name, odds in results]
    data: dict[str, Any] = records[0] if versus is None else {"compared": records}
    if plot is not None:
        title = "rounds of " + " against ".join(
            f"{odds.runs:,} fights under {name}" for name, odds in results
        )
        shares = [
            (name, {r: Fraction(count, odds.runs) for r, count in odds.rounds.items()})
            for name, odds in results
        ]
        _plot(shares, title, plot, "rounds")
        data["plot"] = str(plot)

    def render() -> None:
        title = " against ".join(f"{runs:,} fights under {name}" for name, _ in results)
        table = Table(title=title, box=None)
        table.add_column("")
        for name, _ in results:
            suffix = f" ({name})" if versus is not None else ""
            table.add_column(f"party{suffix}", justify="right")
            table.add_column(f"foes{suffix}", justify="right")
        rows = {
            "wins": [(f"{o.party_wins:.1%}", f"{o.opposition_wins:.1%}") for _, o in results],
            "hp lost": [
                (f"{o.hp_lost_party:.1f}", f"{o.hp_lost_opposition:.1f}") for _, o in results
            ],
        }
        for label, pairs in rows.items():
            table.add_row(label, *(cell for pair in pairs for cell in pair))
        console().print(table)
        for name, odds in results:
            under = f" under {name}" if versus is not None else ""
            say(
                f"both down{under} {odds.both_down:.1%} · unresolved {odds.unresolved:.1%} · "
                f"rounds {odds.rounds_mean:.2f} on average"
            )
        spread = Table(box=None, title="rounds taken")
        spread.add_column("rounds", justify="right")
        for name, _ in results:
            spread.add_column(
                f"fights ({name})" if versus is not None else "fights", justify="right"
            )
        every = sorted({r for _, odds in results for r in odds.rounds})
        for rounds in every:
            spread.add_row(
                str(rounds), *(f"{odds.rounds.get(rounds, 0) / runs:.1%}" for _, odds in results)
            )
        console().print(spread)
        if plot is not None:
            say("plotted in ", str(plot))

    emit(data, as_json, render)
