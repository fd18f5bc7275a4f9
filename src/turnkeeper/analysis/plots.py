"""Plots for the designer's bench: an exact distribution as a histogram with its mean and
quartiles marked, written as PNG or SVG (matplotlib, loaded only when a plot is asked for).

>>> import tempfile, os
>>> from fractions import Fraction
>>> path = os.path.join(tempfile.mkdtemp(), "d4.svg")
>>> plot_distribution({k: Fraction(1, 4) for k in range(1, 5)}, "1d4", path)
>>> "mean 2½" in open(path, encoding="utf-8").read()
True
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from turnkeeper.dice import format_mixed
from turnkeeper.dice.exact import quartiles
from turnkeeper.errors import TurnkeeperError

#: The picture formats a plot is written in, by the file's extension.
FORMATS = (".png", ".svg")


def plot_distribution(
    distribution: Mapping[int, Fraction],
    title: str,
    path: str | Path,
    unit: str = "result",
    mean: Fraction | None = None,
) -> None:
    """A histogram of an exact distribution, its mean (``mean``, or the distribution's own)
    and quartiles marked, written to ``path`` (.png or .svg)."""
    out = Path(path)
    if out.suffix.lower() not in FORMATS:
        raise TurnkeeperError(f"--plot {out}: a plot is a .png or .svg file")
    results = sorted(distribution)
    chances = [float(distribution[r]) * 100 for r in results]
    if mean is None:
        mean = sum((r * p for r, p in distribution.items()), Fraction(0))
    shown = format_mixed(mean) if mean.denominator <= 8 else f"{float(mean):.2f}"
    low, middle, high = quartiles(dict(distribution))
    # A bare Figure draws straight to a file: no pyplot state, no window, no display needed.
    figure = Figure(figsize=(8, 4.5))
    figure.subplots_adjust(left=0.08, right=0.97, bottom=0.12, top=0.9)
    axes = figure.subplots()
    axes.bar(results, chances, width=0.9, color="#3f78c8")
    axes.axvline(float(mean), color="#c00000", linewidth=2, label=f"mean {shown}")
    for mark, name in ((low, "lower quartile"), (middle, "median"), (high, "upper quartile")):
        axes.axvline(mark, color="#444444", linestyle="--", linewidth=1)
        axes.annotate(
            f"{name} {mark}", (mark, max(chances)), rotation=90, va="top", ha="right", fontsize=8
        )
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # results are whole numbers
    axes.set_title(title)
    axes.set_xlabel(unit)
    axes.set_ylabel("chance (%)")
    axes.legend(loc="upper right")
    figure.savefig(out)
