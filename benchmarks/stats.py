"""Small helpers shared by the benchmarks: median and percentiles, printed plainly."""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by nearest rank."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def summary(values: Sequence[float], unit: str = "ms", scale: float = 1000.0) -> str:
    """'median X unit, p90 Y unit, p99 Z unit (n=N)' for values in seconds."""
    return (
        f"median {statistics.median(values) * scale:.3f} {unit}, "
        f"p90 {percentile(values, 90) * scale:.3f} {unit}, "
        f"p99 {percentile(values, 99) * scale:.3f} {unit} (n={len(values)})"
    )
