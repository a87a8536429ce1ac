"""The statistics the statistical checks rest on: binomial tails, normal quantiles, Holm's correction.

Each is the textbook formula in the standard library's ``math`` (no scipy), so a verdict's level follows from
stated formulas.

Examples
--------
>>> round(normal_quantile(0.05), 3), round(two_sided(1.959964), 3)
(1.96, 0.05)
"""

from __future__ import annotations

import math

__all__ = ["ALPHA", "binomial_tail", "normal_quantile", "two_sided", "holm"]


ALPHA = 0.01
"""The default level of every statistical check (family-wise within a check, Holm-corrected)."""


def binomial_tail(k: int, n: int, p: float) -> float:
    """``P[Binomial(n, p) >= k]``."""
    return float(sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1)))


def normal_quantile(alpha: float) -> float:
    """``z`` with ``P[|N(0, 1)| > z] = alpha`` (bisection on ``erfc``; no scipy needed)."""
    lo, hi = 0.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if math.erfc(mid / math.sqrt(2)) > alpha:
            lo = mid
        else:
            hi = mid
    return hi


def two_sided(z: float) -> float:
    """``P[|N(0, 1)| >= |z|]``."""
    return math.erfc(abs(z) / math.sqrt(2))


def holm(pvalues: dict[str, float], alpha: float) -> list[str]:
    """The hypotheses Holm's step-down procedure rejects at family-wise level ``alpha``.

    Examples
    --------
    >>> holm({"a": 0.001, "b": 0.02, "c": 0.5}, 0.05)
    ['a', 'b']
    """
    order = sorted(pvalues, key=lambda k: pvalues[k])
    out = []
    for i, key in enumerate(order):
        if pvalues[key] > alpha / (len(order) - i):
            break
        out.append(key)
    return out
