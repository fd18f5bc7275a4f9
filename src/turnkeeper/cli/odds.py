"""CLI verb ``odds``: exact odds of dice notation, of a usage die's lifetime (PG-USE-1), or of
a dungeon turn under a ruleset."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from turnkeeper.cli.options import ForceOption, SetOption, check_out, ruleset_files, set_values
from turnkeeper.cli.output import JsonOption, console, emit, say
from turnkeeper.dice import (
    DEFAULT_CHAIN,
    UsageDie,
    exact,
    exact_json,
    format_fraction,
    format_mixed,
    parse,
    usage_lifetime,
)
from turnkeeper.errors import DiceNotationError, TurnkeeperError
from turnkeeper.files.names import digits
from turnkeeper.words import counted

#: The verbs of this module, loaded by name when one runs (:data:`turnkeeper.cli.app.VERBS`).
verbs = typer.Typer()


def _chain(text: str | None) -> tuple[int, ...]:
    if text is None:
        return DEFAULT_CHAIN
    written = [part.strip().lstrip("d") for part in text.split(",")]
    # ASCII digits only: int() reads "٣" (an Arabic-Indic three) as 3
    if not all(digits(part) and len(part) <= 18 for part in written):
        raise DiceNotationError(f"--chain {text!r}: write dice sizes like 12,10,8,6,4")
    sizes = [int(part) for part in written]
    # the ruleset's own check of a chain (and its limits), loaded only when --chain is given
    from turnkeeper.rules.schema.ruleset import check_usage_chain

    try:
        return tuple(check_usage_chain(sizes))
    except ValueError as error:
        raise DiceNotationError(f"--chain: {error}") from None


#: The longest span ``odds turn`` works out exactly: a thousand turns, about a week of game time.
MAX_ODDS_TURNS = 1000


_TURN = "turn"


@verbs.command("odds")
def odds_command(
    expression: str | None = typer.Argument(
        None, help="Dice notation, e.g. 3d6 or 2d20kl1; or 'turn' for a dungeon turn's odds."
    ),
    usage: str | None = typer.Option(
        None, "--usage", help="How many uses a usage die lasts, e.g. d12 [PG-USE-1]."
    ),
    chain: str | None = typer.Option(
        None, "--chain", help="The usage dice chain, largest first (default 12,10,8,6,4)."
    ),
    set_items: list[str] | None = SetOption,
    ruleset: str | None = typer.Option(
        None, "--ruleset", "-r", help="For odds turn or --usage: a preset name or a ruleset file."
    ),
    turns: int | None = typer.Option(
        None,
        "--turns",
        help=f"For odds turn: the span in turns (default: an hour; at most {MAX_ODDS_TURNS:,}).",
    ),
    mode: str | None = typer.Option(None, "--mode", "-m", help="For odds turn: a movement mode."),
    noisy: bool = typer.Option(
        False, "--noisy", help="For odds turn: tumult or trouble every turn [EX-ENC-4]."
    ),
    versus: Annotated[
        str | None,
        typer.Option(
            "--vs",
            help="For odds turn or --usage with --ruleset: the same question under a second "
            "ruleset.",
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option(help="Also draw a histogram, mean and quartiles marked: x.png or x.svg."),
    ] = None,
    event: Annotated[
        str,
        typer.Option(
            "--event", help="For odds turn --plot: the event whose count is drawn, e.g. encounter."
        ),
    ] = "encounter",
    force: bool = ForceOption,
    as_json: bool = JsonOption,
) -> None:
    """Exact odds of dice notation, of a usage die's lifetime, or of a dungeon turn.

    With `turn`: the event rates, light lifetimes and rests of dungeon turns.

    Example: `turnkeeper odds 3d6`; `turnkeeper odds --usage d10`;
    `turnkeeper odds turn --ruleset ex --turns 6 --mode cautious`;
    `turnkeeper odds turn --ruleset tp --vs ex --turns 18 --plot encounters.png`.
    """
    if plot is not None:
        check_out(plot, "plot", force, inputs=ruleset_files(ruleset, versus))
    turn_options = turns is not None or mode is not None or noisy
    if expression == _TURN:
        if usage is not None or chain is not None or set_items:
            raise TurnkeeperError("odds turn takes --ruleset, --turns, --mode and --noisy only")
        if ruleset is None:
            raise TurnkeeperError("odds turn needs a ruleset: odds turn --ruleset ex")
        if turns is not None and not 1 <= turns <= MAX_ODDS_TURNS:
            raise TurnkeeperError(
                f"--turns {turns}: odds turn works out 1 to {MAX_ODDS_TURNS:,} turns exactly"
            )
        show_turn_odds(ruleset, turns, mode, noisy, as_json, versus, plot, event)
        return
    if versus is not None and (usage is None or ruleset is None):
        raise TurnkeeperError(
            "--vs compares rulesets on odds turn (odds turn -r ex --vs tp) or on a usage "
            "die's chain (odds --usage d10 -r pg --vs my-rules.toml)"
        )
    if turn_options or (ruleset is not None and usage is None):
        raise TurnkeeperError(
            "--turns, --mode and --noisy are for a turn's odds (odds turn --ruleset ex); "
            "--ruleset also picks a usage die chain (odds --usage d10 --ruleset pg)"
        )
    if ruleset is not None and chain is not None:
        raise TurnkeeperError("give --chain or --ruleset for the usage die chain, not both")
    if (expression is None) == (usage is None):
        raise DiceNotationError("give a dice expression or --usage d12, one of them")
    answers: list[_Odds] = []
    if usage is not None:
        names: list[str | None] = [ruleset] if versus is None else [ruleset, versus]
        answers = [_usage_odds(usage, chain, name) for name in names]
    else:
        parsed = parse(expression or "")
        values = set_values(set_items)
        distribution = exact.distribution(parsed, values)
        mean = exact.mean(parsed, values)
        record = {
            "expression": str(parsed),
            **exact_json("distribution", distribution),
            **exact_json("mean", mean),
        }
        answers = [_Odds(record, distribution, mean, f"odds of {parsed}", "", "")]
    data: dict[str, Any] = (
        answers[0].record if versus is None else {"compared": [a.record for a in answers]}
    )
    if plot is not None:
        # matplotlib loads only for a plot (an adapter's edge: heavy and rarely needed)
        from turnkeeper.analysis.plots import plot_compared

        unit = "uses" if usage is not None else "total"
        title = answers[0].title + (
            "" if versus is None else ": " + " against ".join(a.label for a in answers)
        )
        series = [(a.label if versus else "", a.distribution, a.mean) for a in answers]
        plot_compared(series, title, plot, unit)
        data["plot"] = str(plot)

    def render() -> None:
        for answer in answers:
            under = f" under {answer.label}" if versus is not None else ""
            _render_table(answer.title + under, answer.distribution, answer.mean, answer.note)
        if plot is not None:
            say("plotted in ", str(plot))

    emit(data, as_json, render)


@dataclass(frozen=True)
class _Odds:
    """One exact answer: its JSON record, distribution, mean, title, note and ruleset."""

    record: dict[str, Any]
    distribution: dict[int, Fraction]
    mean: Fraction
    title: str
    note: str
    label: str


def _usage_odds(usage: str, chain: str | None, ruleset: str | None) -> _Odds:
    """PG-USE-1: how many uses a usage die lasts, down the chain given or the ruleset's."""
    if ruleset is not None:
        from turnkeeper.rules import find_ruleset

        rules = find_ruleset(ruleset)
        die = UsageDie.parse(usage, tuple(rules.usage_die))
        label = rules.name
    else:
        die = UsageDie.parse(usage, _chain(chain))
        label = ""
    if die.sides is None:
        raise DiceNotationError("a depleted resource has no uses left; give a die, e.g. d12")
    lifetime = usage_lifetime(die.sides, die.chain)
    distribution, mean = lifetime.distribution, lifetime.mean
    record = {
        "usage_die": str(die),
        "chain": list(die.chain),
        **exact_json("distribution", distribution),
        **exact_json("mean", mean),
        "tail_cut_below": lifetime.tail_cut_below,
    }
    if ruleset is not None:
        record["ruleset"] = label
    note = ""
    if lifetime.tail_cut_below is not None:
        note = (
            f"lifetimes with chance below {lifetime.tail_cut_below:g} are left out; "
            f"the mean, {format_fraction(mean)} uses, is exact"
        )
    return _Odds(record, distribution, mean, f"uses of a {die} usage die (PG-USE-1)", note, label)


#: Above this many outcomes people get a summary and a banded chart; --json keeps them all.
LISTED_OUTCOMES = 30


def _render_table(title: str, distribution: dict[int, Fraction], mean: Fraction, note: str) -> None:
    summarised = len(distribution) > LISTED_OUTCOMES
    rows = (
        _bands(distribution, LISTED_OUTCOMES // 2)
        if summarised
        else [(str(outcome), chance) for outcome, chance in distribution.items()]
    )
    table = Table(title=Text(title))  # the player's notation ([fire]) is never markup
    table.add_column("results" if summarised else "result", justify="right")
    table.add_column("chance", justify="right")
    table.add_column("at least", justify="right")
    table.add_column("")
    biggest = max((chance for _, chance in rows), default=Fraction(1))
    at_least = sum(distribution.values(), Fraction(0))
    for outcome, chance in rows:
        bar = "█" * round(30 * chance / biggest) if biggest else ""
        table.add_row(outcome, f"{float(chance):.2%}", f"{float(at_least):.2%}", bar)
        at_least -= chance
    console().print(table)
    console().print(
        f"mean [bold]{_mean_words(mean)}[/]"
        + (
            f"; quartiles {', '.join(str(q) for q in exact.quartiles(distribution))}"
            if summarised
            else ""
        )
    )
    if summarised:
        console().print(f"[dim]{len(distribution)} results in bands; --json lists each one[/]")
    if note:
        console().print(f"[dim]{note}[/]")


def _mean_words(mean: Fraction) -> str:
    """A mean as people read it: a mixed number when its fraction is a simple one, its
    decimal beside it (``10½ (10.500)``), else the decimal alone (issue 25: ``15869/1296``
    and 31-digit fractions were printed for people); ``--json`` keeps the exact fraction.

    >>> _mean_words(Fraction(21, 2)), _mean_words(Fraction(15869, 1296))
    ('10½ (10.500)', 'about 12.245')
    """
    if mean.denominator <= 8:
        return f"{format_mixed(mean)} ({float(mean):.3f})"
    return f"about {float(mean):.3f}"


def _bands(distribution: dict[int, Fraction], count: int) -> list[tuple[str, Fraction]]:
    """The outcomes grouped into about ``count`` bands of equal width, lowest first; the long
    tail past 99.9% of the chance is one last band (``70+``)."""
    low, high = min(distribution), max(distribution)
    running, cut = Fraction(0), high
    for outcome, chance in sorted(distribution.items()):
        running += chance
        if running >= Fraction(999, 1000):
            cut = outcome
            break
    width = max(1, -(-(cut - low + 1) // count))
    bands: dict[str, Fraction] = {}
    for outcome, chance in sorted(distribution.items()):
        if outcome > cut:
            key = f"{cut + 1}+"
        else:
            start = low + (outcome - low) // width * width
            end = min(start + width - 1, cut)
            key = str(start) if start == end else f"{start}-{end}"
        bands[key] = bands.get(key, Fraction(0)) + chance
    return list(bands.items())


def show_turn_odds(
    ruleset: str,
    turns: int | None,
    mode: str | None,
    noisy: bool,
    as_json: bool,
    versus: str | None = None,
    plot: Path | None = None,
    event: str = "encounter",
) -> None:
    """Exact odds of the ruleset's dungeon turn: event rates, light lifetimes, rests; with
    ``versus``, the same question under a second ruleset, side by side.

    ``turnkeeper odds turn --ruleset R [--vs R2]`` lands here (see :func:`odds_command`).
    """
    # The turn's procedures and the rulesets load only for `odds turn`, not for dice.
    from turnkeeper.analysis.turn_odds import turn_odds
    from turnkeeper.rules.loader import find_ruleset

    names = [ruleset] if versus is None else [ruleset, versus]
    odds = [turn_odds(find_ruleset(name), turns=turns, mode=mode, noisy=noisy) for name in names]
    data: dict[str, object] = (
        odds[0].to_data() if versus is None else {"compared": [o.to_data() for o in odds]}
    )
    if plot is not None:
        # matplotlib loads only for a plot (an adapter's edge: heavy and rarely needed)
        from turnkeeper.analysis.plots import plot_compared

        rates = [o.event(event) for o in odds]
        title = (
            f"{event.replace('_', ' ')}s in {counted(odds[0].turns, 'turn')}: "
            + " against ".join(o.ruleset for o in odds)
        )
        labels = versus is not None
        series = [
            (o.ruleset if labels else "", r.counts, r.expected)
            for o, r in zip(odds, rates, strict=True)
        ]
        plot_compared(series, title, plot, f"{event.replace('_', ' ')}s")
        data["plot"] = str(plot)

    def render() -> None:
        first = odds[0]
        title = (
            " against ".join(o.ruleset for o in odds)
            + f": {counted(first.turns, 'turn')} ({first.turns * first.minutes} min)"
            + (f", {first.mode}" if first.mode else "")
        )
        table = Table(title=title)
        table.add_column("event")
        for o in odds:
            suffix = f" ({o.ruleset})" if versus is not None else ""
            table.add_column(f"per turn{suffix}", justify="right")
            table.add_column(f"at least once{suffix}", justify="right")
            if versus is None:
                table.add_column("expected", justify="right")
        # Side by side, exact fractions would not fit a terminal: percentages (--json is exact).
        shown = _percent if versus is None else (lambda value: f"{float(value):.1%}")
        events = list(dict.fromkeys(rate.event for o in odds for rate in o.events))
        for event in events:
            cells = [event.replace("_", " ")]
            for o in odds:
                rate = next((r for r in o.events if r.event == event), None)
                if rate is None:
                    cells += ["-", "-"]
                    continue
                cells += [shown(rate.per_turn), shown(rate.at_least_one)]
                if versus is None:
                    cells.append(f"{float(rate.expected):.3f}")
            table.add_row(*cells)
        console().print(table)
        for o in odds:
            under = f" under {o.ruleset}" if versus is not None else ""
            for light in o.lights:
                console().print(
                    f"{light.source}{under}: lasts {float(light.expected_turns):.2f} turns on "
                    f"average; lasts the whole span {_percent(light.lasts_span)}"
                )
            console().print(f"turns of rest due{under}: {float(o.rest_turns):.2f}")
        if plot is not None:
            say("plotted in ", str(plot))

    emit(data, as_json, render)


def _percent(value: Any) -> str:
    return f"{value} ({float(value):.1%})"
