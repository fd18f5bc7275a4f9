"""What the simulators' tests share: the check that a simulator and the engine agree."""

from __future__ import annotations

import math

import numpy as np

from turnkeeper.analysis.expedition import ColumnOdds


def agree(fast: ColumnOdds, engine: list[dict[str, int]]) -> None:
    """Every column: the same mean (within 4.5 standard errors) and the same distribution
    (a two-sample Kolmogorov-Smirnov distance below its 0.1% critical value)."""
    m = len(engine)
    for name, counts in fast.columns.items():
        values = np.array([run.get(name, 0) for run in engine])
        n = fast.runs
        grid = np.arange(max(counts.size, int(values.max()) + 1))
        fast_mean = float((np.arange(counts.size) * counts).sum()) / n
        fast_var = float((np.arange(counts.size) ** 2 * counts).sum()) / n - fast_mean**2
        spread = math.sqrt(fast_var / n + values.var() / m) + 1e-9
        assert abs(fast_mean - values.mean()) <= 4.5 * spread + 1e-6, (name, fast_mean, values)
        fast_cdf = np.cumsum(np.pad(counts, (0, grid.size - counts.size))) / n
        engine_cdf = np.array([(values <= g).mean() for g in grid])
        distance = float(np.abs(fast_cdf - engine_cdf).max())
        assert distance <= 1.95 * math.sqrt((n + m) / (n * m)), (name, distance)
