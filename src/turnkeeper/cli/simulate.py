"""CLI verb ``simulate``: the designer's bench, many runs of a procedure at once.

``simulate expedition`` (a delve into a site), ``simulate journey`` (a map crossed),
``simulate fight`` (who wins), ``simulate months`` (the factions' goals: its own module,
``cli.simulate_months``); each answers for a second ruleset beside the first with ``--vs``,
draws a plot with ``--plot`` and gives every figure with ``--json``. numpy and the analysis
load only when a simulation runs; matplotlib only when a plot is asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Protocol

import typer
from rich.table import Table

from turnkeeper.cli.options import ForceOption, check_out, ruleset_files
from turnkeeper.cli.output import JsonOption, console, emit, say, text
from turnkeeper.cli.simulate_months import months_command
from turnkeeper.cli.simulating import RULESET, RUNS, SEED, VERSUS, each_ruleset, progress_bar
from turnkeeper.errors import NotFoundError, TurnkeeperError
from turnkeeper.files.reading import read_text
from turnkeeper.kernel.combat_state import Combatant
from turnkeeper.kernel.party import Character, Party, load_party
from turnkeeper.procedures.combat.roster import (
    RosterError,
    parse_roster,
    parse_side,
    parse_surprised,
)
from turnkeeper.words import counted
from turnkeeper.world.hexes import Hex
from turnkeeper.world.sites import load_site

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()

simulate_app = typer.Typer(
    help="Simulate procedures many times over: delves into a site, journeys, fights, the "
    "factions' months.\n\n"
    "Example: `turnkeeper simulate expedition --ruleset tp --vs ex --site examples/site.toml "
    "--party examples/party.toml --hours 3`.",
    no_args_is_help=True,
)
verbs.add_typer(simulate_app, name="simulate")

_PLOT = typer.Option(help="Also draw a histogram, mean and quartiles marked: x.png or x.svg.")


def _span(turns: int, minutes: int) -> str:
    """A delve's length as people say it: "18 turns (3 h)"."""
    hours, left = divmod(turns * minutes, 60)
    said = f"{hours} h" + (f" {left} min" if left else "") if hours else f"{left} min"
    return f"{counted(turns, 'turn')} ({said})"


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
    ruleset: str = RULESET,
    versus: Annotated[str | None, VERSUS] = None,
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
    fight: Annotated[
        bool,
        typer.Option("--fight", help="Fight every encounter: a rest falls due after [EX-REST-2]."),
    ] = False,
    runs: Annotated[int, RUNS] = 10_000,
    seed: Annotated[int, SEED] = 0,
    plot: Annotated[Path | None, _PLOT] = None,
    column: Annotated[
        str, typer.Option("--column", help="What --plot draws, e.g. torches_used or rests.")
    ] = "encounters",
    force: bool = ForceOption,
    as_json: bool = JsonOption,
) -> None:
    """Many delves into a site: encounters, surprise, torches and oil, darkness, rests.

    Each run takes turns at the movement mode, lights up from its supplies when dark, rests
    when a rest is due, and ends each encounter without a fight unless told to fight.

    Example: `turnkeeper simulate expedition --ruleset tp --vs ex --site examples/site.toml
    --party examples/party.toml --hours 3 --plot torches.png --column torches_used`.
    """
    if plot is not None:
        inputs: list[tuple[str | Path | None, str]] = [
            (site, "site file"),
            (party, "party file"),
            *ruleset_files(ruleset, versus),
        ]
        check_out(plot, "plot", force, inputs=inputs)
    from turnkeeper.analysis.expedition import (
        MAX_TURNS,
        Expedition,
        check_bounds,
        simulate_expedition,
    )

    if turns is not None and hours is not None:
        raise TurnkeeperError("give --turns or --hours for the delve's length, not both")
    place = load_site(site)
    found = []
    for rules in each_ruleset(ruleset, versus):
        span = turns if turns is not None else (3 if hours is None else hours) * 60
        if turns is None:
            span //= rules.time.turn_minutes
            if hours is not None and not 1 <= span <= MAX_TURNS:
                raise TurnkeeperError(
                    f"--hours {hours}: that is {span:,} turns of {rules.time.turn_minutes} "
                    f"minutes; simulate from 1 to {MAX_TURNS:,} turns"
                )
        check_bounds(runs, span, seed)
        plan = Expedition(
            rules,
            load_party(party, rules),
            place,
            level,
            mode,
            span,
            rests=not push_on,
            fights=fight,
        )
        found.append(plan)
    results = []
    for plan in found:
        label = f"{runs:,} delves under {plan.ruleset.name}"
        with progress_bar(not as_json, label, runs) as tell:
            results.append(simulate_expedition(plan, runs=runs, seed=seed, progress=tell))
    first = results[0]
    _show_columns(
        results,
        versus is not None,
        f"{runs:,} delves of {_span(first.turns, first.turn_minutes)}"
        + (f", {first.mode}" if first.mode else ""),
        f"in {_span(first.turns, first.turn_minutes)}",
        "per delve",
        plot,
        column,
        as_json,
    )


class _Columns(Protocol):
    """What a simulator answers: per-run columns as histograms, under one ruleset."""

    @property
    def ruleset(self) -> str: ...
    @property
    def runs(self) -> int: ...
    @property
    def columns(self) -> Mapping[str, Any]: ...
    def shares(self, column: str) -> dict[int, Fraction]: ...
    def to_dict(self) -> dict[str, Any]: ...


def _show_columns(
    results: Sequence[_Columns],
    compared: bool,
    title: str,
    span: str,
    row: str,
    plot: Path | None,
    column: str,
    as_json: bool,
) -> None:
    """Every column's mean and quartiles (side by side with ``--vs``), the plot of one column,
    or all of it as JSON."""
    from turnkeeper.analysis.expedition import summarise

    if column not in results[0].columns:
        known = ", ".join(results[0].columns)
        raise NotFoundError(f"--column {column}: no such column; columns: {known}")
    names = " against ".join(r.ruleset for r in results)
    data: dict[str, Any] = (
        {"compared": [r.to_dict() for r in results]} if compared else results[0].to_dict()
    )
    if plot is not None:
        each = " each" if compared else ""
        heading = f"{column.replace('_', ' ')} {span}: {names} ({results[0].runs:,} runs{each})"
        _plot([(r.ruleset, r.shares(column)) for r in results], heading, plot, column)
        data["plot"] = str(plot)

    def render() -> None:
        table = Table(title=text(f"{names}: {title}"))
        table.add_column(row)
        for r in results:
            suffix = f" ({r.ruleset})" if compared else ""
            table.add_column(f"mean{suffix}", justify="right")
            table.add_column(f"quartiles{suffix}", justify="right")
            if not compared:
                table.add_column("least-most", justify="right")
        for name in dict.fromkeys(name for r in results for name in r.columns):
            cells = [name.replace("_", " ")]
            for r in results:
                if name not in r.columns:
                    cells += ["-", "-"] + ([] if compared else ["-"])
                    continue
                s = summarise(r.columns[name])
                cells += [
                    f"{s['mean']:.2f}",
                    f"{s['lower_quartile']} · {s['median']} · {s['upper_quartile']}",
                ]
                if not compared:
                    cells.append(f"{s['least']}-{s['most']}")
            table.add_row(*cells)
        console().print(table)
        if plot is not None:
            say("plotted in ", str(plot))

    emit(data, as_json, render)


# --- simulate journey -----------------------------------------------------------------------


@simulate_app.command("journey")
def journey_command(
    map_file: Annotated[Path, typer.Option("--map", help="A map file (.toml or .json).")],
    start: Annotated[
        str, typer.Option("--from", help="The hex the party sets out from, e.g. 0505.")
    ],
    goal: Annotated[str, typer.Option("--to", help="The hex it travels to, e.g. 1019.")],
    ruleset: str = RULESET,
    versus: Annotated[str | None, VERSUS] = None,
    party: Annotated[
        Path | None,
        typer.Option(
            "--party",
            help="A party file (TOML); without one, four travellers carrying no food, who "
            "forage when resources wane.",
        ),
    ] = None,
    condition: Annotated[
        list[str] | None,
        typer.Option("--condition", help="A party condition, e.g. mounted or carriage [TP-WIL-3]."),
    ] = None,
    season: Annotated[
        str | None, typer.Option("--season", help="winter, spring, summer or autumn.")
    ] = None,
    explore: Annotated[
        bool,
        typer.Option("--explore", help="The destination is uncharted: explore [TP-WIL-10]."),
    ] = False,
    days: Annotated[
        int, typer.Option("--days", help="Stop a journey still under way after this many days.")
    ] = 100,
    runs: Annotated[int, RUNS] = 10_000,
    seed: Annotated[int, SEED] = 0,
    plot: Annotated[Path | None, _PLOT] = None,
    column: Annotated[
        str, typer.Option("--column", help="What --plot draws, e.g. days or times_lost.")
    ] = "days",
    force: bool = ForceOption,
    as_json: bool = JsonOption,
) -> None:
    """Many journeys over a map: days, TP, encounters, times lost, food eaten.

    Each run walks the best route afresh at every hex, rolls the wilderness die at its
    moments and at the night camp, gets lost off road, forages when resources wane.

    Example: `turnkeeper simulate journey --map wild.toml --from 0505 --to 1019
    --season winter --runs 20000 --plot days.png`.
    """
    if plot is not None:
        check_out(
            plot, "plot", force, inputs=[(map_file, "map file"), *ruleset_files(ruleset, versus)]
        )
    from turnkeeper.analysis.journey import Journey, in_season, simulate_journey
    from turnkeeper.world.errors import MapError
    from turnkeeper.world.mapfile import format_for, loads_map

    hexmap = loads_map(
        read_text(map_file, "map file", MapError), format_for(map_file), str(map_file)
    )
    plans = []
    for rules in each_ruleset(ruleset, versus):
        rules = in_season(rules, season)
        members = load_party(party, rules) if party is not None else _four_travellers()
        plans.append(
            Journey(
                rules,
                members,
                hexmap,
                _hex(start, "--from"),
                _hex(goal, "--to"),
                tuple(condition or ()),
                explore,
                days,
            )
        )
    results = []
    for plan in plans:
        label = f"{runs:,} journeys under {plan.ruleset.name}"
        with progress_bar(not as_json, label, runs) as tell:
            results.append(simulate_journey(plan, runs=runs, seed=seed, progress=tell))
    _show_columns(
        results,
        versus is not None,
        f"{runs:,} journeys from {start} to {goal}" + (f" in {season}" if season else ""),
        f"from {start} to {goal}",
        "per journey",
        plot,
        column,
        as_json,
    )


def _hex(text: str, option: str) -> Hex:
    try:
        return Hex.parse(text)
    except Exception:
        raise TurnkeeperError(
            f"{option} {text}: a hex is written 0505 (column, row) or q,r"
        ) from None


def _four_travellers() -> Party:
    return Party(characters=tuple(Character(name=f"Traveller {i}", hp=6) for i in range(1, 5)))


# --- simulate fight ---------------------------------------------------------------------------


def _roster(path: Path) -> list[Combatant]:
    """A roster file's combatants on the sides it gives: [[characters]] and [[allies]] with
    the party, [[foes]] against it (CB-SIDE-1)."""
    return parse_roster(read_text(path, "roster file", RosterError), str(path))


@simulate_app.command("fight")
def fight_command(
    party: str = typer.Option(
        ..., "--party", help="The party file (TOML), e.g. examples/fighters.toml."
    ),
    foes: str = typer.Option(..., "--foes", help="The foes file (TOML), e.g. examples/foes.toml."),
    ruleset: str = RULESET,
    versus: Annotated[str | None, VERSUS] = None,
    surprise: Annotated[
        str | None,
        typer.Option(
            "--surprise",
            help="Who is surprised: party, foes, both or none (default: the ruleset rolls).",
        ),
    ] = None,
    aware: Annotated[
        list[str] | None, typer.Option("--aware", help="A side that cannot be surprised.")
    ] = None,
    attackers: Annotated[
        str | None,
        typer.Option("--attackers", help="The side trying for surprise: party or foes [CB-SUR-1]."),
    ] = None,
    range_rounds: Annotated[
        int, typer.Option("--range-rounds", help="Rounds of missiles before the melee.")
    ] = 0,
    shooter: Annotated[
        list[str] | None,
        typer.Option("--shooter", help="Who has missiles: a name, or a group's (Goblin)."),
    ] = None,
    runs: Annotated[int, RUNS] = 10_000,
    seed: Annotated[int, SEED] = 0,
    plot: Annotated[
        Path | None,
        typer.Option(help="Also draw the rounds fights take as a histogram: x.png or x.svg."),
    ] = None,
    force: bool = ForceOption,
    as_json: bool = JsonOption,
) -> None:
    """Who wins, in how many rounds, at what cost: many fights at once.

    Allies in either file fight on the party's side [CB-SIDE-1]. Surprise is rolled as the
    ruleset says unless given; the surprised alone lose a round, and a surprised
    undisciplined group may flee [CB-SUR-2]. Shooters fire before the melee.

    Example: `turnkeeper simulate fight --party examples/fighters.toml --foes examples/foes.toml
    --ruleset pg --vs cb --range-rounds 1 --shooter Bo --shooter Goblin`.
    """
    if plot is not None:
        check_out(
            plot,
            "plot",
            force,
            inputs=[(party, "party file"), (foes, "foes file"), *ruleset_files(ruleset, versus)],
        )
    from turnkeeper.analysis.expedition import check_bounds
    from turnkeeper.analysis.simulate import simulate_fight

    check_bounds(runs, 1, seed)
    fighters = _roster(Path(party)) + _roster(Path(foes))
    results = []
    for rules in each_ruleset(ruleset, versus):
        with progress_bar(not as_json, f"{runs:,} fights under {rules.name}", runs) as tell:
            odds = simulate_fight(
                rules,
                fighters,
                runs=runs,
                seed=seed,
                progress=tell,
                range_rounds=range_rounds,
                shooters=tuple(shooter or ()),
                surprised=parse_surprised(surprise) if surprise is not None else None,
                aware=frozenset(parse_side(a, "--aware") for a in aware or ()),
                attackers=parse_side(attackers, "--attackers") if attackers else None,
            )
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
        rows["surprised"] = [
            (f"{o.party_surprised:.1%}", f"{o.foes_surprised:.1%}") for _, o in results
        ]
        rows["fled"] = [("", f"{o.foes_fled:.2f}") for _, o in results]
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


# --- simulate months (its own module: the world's months, not a party's procedures) ---------

simulate_app.command("months")(months_command)
