"""Small statistics helpers shared by the benchmark scripts."""

import math


def percentile(values, p):
    """Nearest-rank percentile (p in 0..100) of a non-empty list; None for an empty one."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def median(values):
    return percentile(values, 50)


def steady(rates, tolerance=0.03):
    """Whether a warm-up's successive rates have stopped rising: at least three, and the last two
    within `tolerance` of the best one before them (bench/run's load tests, bulk_create_bench.py)."""
    return len(rates) >= 3 and max(rates[-2:]) <= (1 + tolerance) * max(rates[:-2])
