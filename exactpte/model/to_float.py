"""Leaving the exact path: exact rationals rounded to floats, once, for float consumers
(the estimator, the oracle's comparisons, plots).

``int(p) / int(q)`` is Python's correctly rounded integer division, so every float is the
nearest double to the exact value.

Examples
--------
>>> import exactpte
>>> to_floats(exactpte.example("branching").r).tolist()
[1.0, 0.0, 0.0, 3.0, 0.0, 0.0, 0.0]
>>> float_matrix(exactpte.example("periodic")).tolist()
[[0.0, 1.0], [1.0, 0.0]]
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import flint

from exactpte.errors import UsageError

if TYPE_CHECKING:  # pragma: no cover (numpy loads in the functions that build arrays: to_float alone needs none)
    import numpy as np
    import scipy.sparse as sp

    from exactpte.model.chain import Chain

__all__ = ["to_float", "to_floats", "float_matrix", "float_sparse_matrix", "split_values", "split_sparse_matrix"]


def _ratio(p: int, q: int) -> float:
    """``p / q`` correctly rounded; past the largest double, an infinity of the right sign (IEEE rounding)."""
    try:
        return p / q
    except OverflowError:
        return math.inf if (p > 0) == (q > 0) else -math.inf


def _magnitude(q: Any) -> str:
    """About how big an exact rational is, without converting it to a float (``~1e400``)."""
    p, d = abs(int(q.p)), int(q.q)  # bit lengths, not decimal text (Python refuses str() past 4,300 digits)
    return f"~{'-' if q < 0 else ''}1e{round((p.bit_length() - d.bit_length()) * math.log10(2))}"


def to_float(x: Any) -> float:
    """The nearest double to an exact rational (``fmpq``, ``Fraction``); other numbers via ``float``."""
    if isinstance(x, flint.fmpq):
        return _ratio(int(x.p), int(x.q))
    if isinstance(x, numbers.Rational):
        return _ratio(int(x.numerator), int(x.denominator))
    if isinstance(x, numbers.Real):
        return float(x)
    raise UsageError(f"{type(x).__name__} {x} has no float value: substitute the parameters first (chain.at(point))")


def to_floats(values: Iterable[Any]) -> np.ndarray:
    """The nearest doubles to a sequence of exact numbers, as a float array."""
    import numpy as np

    return np.array([to_float(x) for x in values], dtype=float)


def float_matrix(chain: Chain) -> np.ndarray:
    """The chain's transition matrix as a dense float array (a rational chain's; a parametric chain
    needs a point first: :class:`~exactpte.errors.UsageError`)."""
    import numpy as np

    if chain.field.is_parametric:
        raise UsageError(f"{chain!r} has parameters {list(chain.field.params)}; substitute a point first (chain.at(point))")
    P = np.zeros((chain.n, chain.n))
    for i, j, q in chain.edges():
        P[i, j] = to_float(q)
    return P


def float_sparse_matrix(chain: Chain) -> sp.csr_matrix:
    """The transition matrix as a scipy CSR float matrix sharing the chain's column array, every entry
    the nearest double (:func:`to_float`, once per distinct probability)."""
    return split_sparse_matrix(chain)[0]


def split_values(values: Iterable[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Exact rationals as unevaluated sums of two doubles: ``hi`` the nearest double to ``q``, ``lo``
    the nearest double to ``q - hi``, so ``|q - hi - lo| <= 2^-53 |q - hi| <= 2^-106 |q|`` (plus
    ``2^-1074`` where ``lo`` is subnormal); converted once per distinct value.

    >>> from fractions import Fraction
    >>> hi, lo = split_values([flint.fmpq(1, 3), flint.fmpq(2)])
    >>> abs(Fraction(1, 3) - Fraction(hi[0]) - Fraction(lo[0])) <= Fraction(1, 3) / 2**106, bool(lo[1] == 0.0)
    (True, True)
    >>> split_values([flint.fmpq(10**400)])
    Traceback (most recent call last):
    ...
    exactpte.errors.UsageError: entry 0 (~1e400) is past the largest double (about 1.8e308): this route computes in doubles; use the exact route (exactpte.decompose) or rescale
    """
    import numpy as np

    cache: dict[Any, tuple[float, float]] = {}
    values = list(values)
    hi = np.empty(len(values))
    lo = np.empty(len(values))
    for e, q in enumerate(values):
        pair = cache.get(q)
        if pair is None:
            f = to_float(q)
            if not math.isfinite(f):
                # A double pair cannot hold it; refusing beats an OverflowError deep in a solve.
                raise UsageError(f"entry {e} ({_magnitude(q)}) is past the largest double (about 1.8e308): "
                                 "this route computes in doubles; use the exact route (exactpte.decompose) or rescale")
            pair = cache[q] = (f, to_float(q - flint.fmpq(*f.as_integer_ratio())))
        hi[e], lo[e] = pair
    return hi, lo


def split_sparse_matrix(chain: Chain) -> tuple[sp.csr_matrix, np.ndarray]:
    """The transition matrix as two aligned CSR float arrays ``hi + lo`` (:func:`split_values` of each
    entry): returns ``(csr hi, lo data array)``.

    >>> import exactpte
    >>> from fractions import Fraction
    >>> chain = exactpte.example("branching")
    >>> hi, lo = split_sparse_matrix(chain)
    >>> exact = [Fraction(int(q.p), int(q.q)) for _, _, q in chain.edges()]
    >>> all(abs(q - Fraction(h) - Fraction(l)) <= q / 2**106 for q, h, l in zip(exact, hi.data, lo))
    True
    """
    import numpy as np
    import scipy.sparse as sp  # noqa: F811 (at run time, on first use)

    if chain.field.is_parametric:
        raise UsageError(f"{chain!r} has parameters {list(chain.field.params)}; substitute a point first (chain.at(point))")
    data, low = split_values(chain._values)
    return sp.csr_matrix((data, np.asarray(chain._indices), np.asarray(chain._ptr)), shape=(chain.n, chain.n)), low
