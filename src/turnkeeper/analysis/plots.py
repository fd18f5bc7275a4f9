"""Plots for the designer's bench: an exact distribution as a histogram with its mean and
quartiles marked, or shares that grow month by month as lines, written as PNG or SVG
(matplotlib, loaded only when a plot is asked for).

>>> import tempfile, os
>>> from fractions import Fraction
>>> path = os.path.join(tempfile.mkdtemp(), "d4.svg")
>>> plot_distribution({k: Fraction(1, 4) for k in range(1, 5)}, "1d4", path)
>>> "mean 2½" in open(path, encoding="utf-8").read()
True
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from turnkeeper.dice import format_mixed
from turnkeeper.dice.exact import quartiles
from turnkeeper.errors import TurnkeeperError
from turnkeeper.files.writing import write_bytes

#: The picture formats a plot is written in, by the file's extension.
FORMATS = (".png", ".svg")


#: One colour per ruleset compared: the first as odds have always been drawn, then a second.
COLOURS = ("#3f78c8", "#e08a1e", "#3a9a5b", "#9b59b6")


def plot_distribution(
    distribution: Mapping[int, Fraction],
    title: str,
    path: str | Path,
    unit: str = "result",
    mean: Fraction | None = None,
) -> None:
    """A histogram of an exact distribution, its mean (``mean``, or the distribution's own)
    and quartiles marked, written to ``path`` (.png or .svg)."""
    plot_compared([("", distribution, mean)], title, path, unit)


def plot_compared(
    series: Sequence[tuple[str, Mapping[int, Fraction], Fraction | None]],
    title: str,
    path: str | Path,
    unit: str = "result",
) -> None:
    """Histograms side by side, one per ``(label, distribution, mean)`` (a ruleset against
    another: ``--vs``), each with its mean and quartiles marked in its colour; a mean of
    None is the distribution's own."""
    out = _picture(path)
    if len(series) > len(COLOURS):
        raise TurnkeeperError(f"a plot compares at most {len(COLOURS)} distributions")
    # A bare Figure draws straight to a file: no pyplot state, no window, no display needed.
    figure = Figure(figsize=(8, 4.5))
    figure.subplots_adjust(left=0.08, right=0.97, bottom=0.12, top=0.9)
    axes = figure.subplots()
    width = 0.9 / len(series)
    single = len(series) == 1
    for index, (label, distribution, mean) in enumerate(series):
        colour = COLOURS[index]
        results = sorted(distribution)
        chances = [float(distribution[r]) * 100 for r in results]
        offset = (index - (len(series) - 1) / 2) * width  # bars side by side, marks where true
        if mean is None:
            mean = sum((r * p for r, p in distribution.items()), Fraction(0))
        shown = format_mixed(mean) if mean.denominator <= 8 else f"{float(mean):.2f}"
        named = f"{label}: " if label else ""
        axes.bar(
            [r + offset for r in results], chances, width=width, color=colour, label=label or None
        )
        axes.axvline(
            float(mean),
            color="#c00000" if single else colour,
            linewidth=2,
            label=f"{named}mean {shown}",
        )
        # Quartiles that fall on one result share one mark and one label.
        marks: dict[int, list[str]] = {}
        names = ("lower quartile", "median", "upper quartile")
        for mark, name in zip(quartiles(dict(distribution)), names, strict=True):
            marks.setdefault(mark, []).append(name)
        for mark, named_here in marks.items():
            axes.axvline(mark, color="#444444" if single else colour, linestyle="--", linewidth=1)
            said = "quartiles" if len(named_here) == 3 else ", ".join(named_here)
            axes.annotate(
                f"{named}{said} {mark}",
                (mark, 0.99 - 0.5 * index),
                xycoords=("data", "axes fraction"),
                rotation=90,
                va="top",
                ha="right",
                fontsize=8,
                color="#222222" if single else colour,
                bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "linewidth": 0},
            )
    # A long thin tail (18 encounters in 18 turns) would squeeze the bars people look at.
    seen = [r for _, d, _ in series for r, p in d.items() if p >= Fraction(1, 1000)]
    if seen:
        axes.set_xlim(min(seen) - 0.7, max(seen) + 0.7)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # results are whole numbers
    axes.set_title(title)
    axes.set_xlabel(unit.replace("_", " "))
    axes.set_ylabel("chance (%)")
    axes.legend(loc="best", fontsize=8)
    _write(figure, out)


@dataclass(frozen=True)
class Curve:
    """One line of shares over time: ``shares[m]`` at month (or turn) ``m`` from 0, each
    with its standard error; ``colour`` picks one of :data:`COLOURS` (a faction's), ``dashed``
    draws a second ruleset's line beside the first's."""

    label: str
    shares: Sequence[float]
    errors: Sequence[float]
    colour: int = 0
    dashed: bool = False


def plot_curves(
    curves: Sequence[Curve], title: str, path: str | Path, unit: str, what: str
) -> None:
    """Lines of shares (as percentages) over ``unit`` (month...), each in a band of two
    standard errors either side, written to ``path`` (.png or .svg); ``what`` names the
    share on the vertical axis."""
    out = _picture(path)
    figure = Figure(figsize=(8, 4.5))
    figure.subplots_adjust(left=0.08, right=0.97, bottom=0.12, top=0.9)
    axes = figure.subplots()
    for curve in curves:
        # past the bench's own colours, matplotlib's cycle of ten (a world of many factions)
        colour = COLOURS[curve.colour] if curve.colour < len(COLOURS) else f"C{curve.colour % 10}"
        xs = range(len(curve.shares))
        ys = [100 * s for s in curve.shares]
        low = [100 * max(s - 2 * e, 0) for s, e in zip(curve.shares, curve.errors, strict=True)]
        high = [100 * min(s + 2 * e, 1) for s, e in zip(curve.shares, curve.errors, strict=True)]
        axes.fill_between(xs, low, high, color=colour, alpha=0.2, linewidth=0)
        style = "--" if curve.dashed else "-"
        axes.plot(xs, ys, style, color=colour, linewidth=1.8, label=curve.label)
    axes.set_ylim(0, 100)
    axes.set_xlim(0, max(len(c.shares) - 1 for c in curves))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_title(title)
    axes.set_xlabel(unit)
    axes.set_ylabel(f"{what} (%)")
    axes.legend(loc="best", fontsize=8)
    _write(figure, out)


def _picture(path: str | Path) -> Path:
    """The plot's file, refused unless it is a .png or .svg."""
    out = Path(path)
    if out.suffix.lower() not in FORMATS:
        raise TurnkeeperError(f"--plot {out}: a plot is a .png or .svg file")
    return out


def _write(figure: Figure, out: Path) -> None:
    # drawn in memory, then written as every output file is (beside it, then moved in place)
    drawing = io.BytesIO()
    figure.savefig(drawing, format=out.suffix.lower().lstrip("."))
    write_bytes(out, drawing.getvalue(), "plot")
