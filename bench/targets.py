"""Each figure beside its target, and the run's verdict, as bench/months.py and
bench/simulate.py print them (imported from beside them: a bench runs as a script)."""

from __future__ import annotations

#: Whether each figure reported so far met its target.
results: list[bool] = []


def report(label: str, figure: str, ok: bool, target: str) -> None:
    """One line: the figure, its target and PASS or FAIL; remembered for :func:`verdict`."""
    results.append(ok)
    print(f"  {label:<44} {figure:>22}   target {target:<10} {'PASS' if ok else 'FAIL'}")


def verdict() -> int:
    """PASS when every figure met its target, else FAIL; the exit status to match (0 or 1)."""
    passed = all(results)
    print("PASS" if passed else "FAIL")
    return 0 if passed else 1
