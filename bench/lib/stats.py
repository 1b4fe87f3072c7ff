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
