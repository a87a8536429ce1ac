"""Leaving the exact path: exact rationals rounded to floats, once, for float consumers
(the estimator, the oracle's comparisons, plots).

``int(p) / int(q)`` is Python's correctly rounded integer division, so every float is the
nearest double to the exact value.

>>> import exactpte
>>> to_floats(exactpte.example("branching").r).tolist()
[1.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0]
>>> float_matrix(exactpte.example("periodic")).tolist()
[[0.0, 1.0], [1.0, 0.0]]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["to_float", "to_floats", "float_matrix"]


def to_float(x: Any) -> float:
    """The nearest double to an exact rational (``fmpq``, ``Fraction``); other numbers via ``float``."""
    if hasattr(x, "p") and hasattr(x, "q"):
        return int(x.p) / int(x.q)
    if hasattr(x, "numerator") and hasattr(x, "denominator"):
        return int(x.numerator) / int(x.denominator)
    return float(x)


def to_floats(values: Iterable[Any]) -> np.ndarray:
    return np.array([to_float(x) for x in values], dtype=float)


def float_matrix(chain) -> np.ndarray:
    """The chain's transition matrix as a dense float array."""
    P = np.zeros((chain.n, chain.n))
    for i, (cols, vals) in enumerate(chain.rows()):
        P[i, list(cols)] = to_floats(vals)
    return P
