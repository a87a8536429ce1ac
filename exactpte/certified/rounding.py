"""Rigorous float primitives: intervals with outward rounding, and a-priori rounding-error bounds.

Model: IEEE-754 binary64, round to nearest (what numpy and scipy compute in).  Every elementwise
operation is correctly rounded, so ``nextafter`` outward after it encloses the exact result.
Sums of ``k`` terms computed in any order satisfy ``|fl(s) - s| <= γ_k Σ|t|`` with
``γ_k = k u / (1 - k u)``, ``u = 2^-53`` (Higham, *Accuracy and Stability of Numerical Algorithms*,
§3.1), plus ``k · 2^-1074`` for underflow; ``math.fsum`` is correctly rounded.  A bound is only
ever computed from these facts and exactly checked inequalities, never from an unchecked float.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import TypeAlias, overload

import flint
import numpy as np
from numpy.typing import ArrayLike

from exactpte.model.to_float import to_floats

__all__ = ["U", "ETA", "gamma", "down", "up", "Interval", "fsum_down", "fsum_up", "to_float_interval"]

U = 2.0**-53
ETA = 2.0**-1074

_Index: TypeAlias = "int | slice | np.ndarray | list[int] | tuple[int | slice | np.ndarray, ...]"


def gamma(k: ArrayLike) -> np.ndarray:
    """``γ_k = k u / (1 - k u)``, rounded up (``k`` an int or an array of ints)."""
    ks: np.ndarray = np.asarray(k, dtype=np.float64)
    ratio: np.ndarray = up(ks * U) / down(1.0 - ks * U)
    return up(ratio)


@overload
def down(x: float) -> float: ...
@overload
def down(x: np.ndarray) -> np.ndarray: ...
def down(x: float | np.ndarray) -> float | np.ndarray:
    """The next float towards ``-inf``."""
    return np.nextafter(x, -np.inf)


@overload
def up(x: float) -> float: ...
@overload
def up(x: np.ndarray) -> np.ndarray: ...
def up(x: float | np.ndarray) -> float | np.ndarray:
    """The next float towards ``+inf``."""
    return np.nextafter(x, np.inf)


def fsum_down(x: np.ndarray) -> float:
    """A lower bound of the exact sum (``math.fsum`` is correctly rounded)."""
    return float(down(math.fsum(x.tolist())))


def fsum_up(x: np.ndarray) -> float:
    """An upper bound of the exact sum."""
    return float(up(math.fsum(x.tolist())))


def to_float_interval(values: Sequence[flint.fmpq]) -> tuple[np.ndarray, np.ndarray]:
    """``[lo, hi]`` floats enclosing exact rationals (Python's int division is correctly rounded,
    so the nearest float is off by at most half an ulp; one step outward encloses it)."""
    mid = to_floats(values)
    exact = np.array([v.q == 1 and abs(int(v.p)) < 2**53 for v in values], dtype=bool)
    lo = np.where(exact, mid, down(mid))
    hi = np.where(exact, mid, up(mid))
    return lo, hi


class Interval:
    """A vector (or scalar) of intervals ``[lo, hi]`` with outward-rounded arithmetic.

    Examples
    --------
    >>> a = Interval(np.array([1.0]), np.array([2.0]))
    >>> b = a * a - a
    >>> bool(b.lo[0] <= -1.0 and b.hi[0] >= 3.0)
    True
    """

    __slots__ = ("lo", "hi")

    def __init__(self, lo: ArrayLike, hi: ArrayLike | None = None) -> None:
        lo = np.asarray(lo, dtype=np.float64)
        hi = np.asarray(lo if hi is None else hi, dtype=np.float64)
        # an undefined bound (nan from inf - inf, 0 * inf, a failed solve) never narrows: it widens
        self.lo = np.where(np.isnan(lo), -np.inf, lo) if np.isnan(lo).any() else lo
        self.hi = np.where(np.isnan(hi), np.inf, hi) if np.isnan(hi).any() else hi

    @classmethod
    def exact(cls, values: Sequence[flint.fmpq]) -> "Interval":
        """Enclosures of exact rationals."""
        return cls(*to_float_interval(values))

    def __getitem__(self, idx: _Index) -> "Interval":
        return Interval(self.lo[idx], self.hi[idx])

    def __len__(self) -> int:
        return len(self.lo)

    def __iter__(self) -> Iterator["Interval"]:
        """The entries' intervals in order (an interval vector is a vector of intervals)."""
        return (self[i] for i in range(len(self)))

    @property
    def mid(self) -> np.ndarray:
        """Midpoints (floats inside each interval; on an unbounded one its finite end, or 0 on ``[-inf, inf]``)."""
        with np.errstate(invalid="ignore", over="ignore"):
            m = self.lo + (self.hi - self.lo) / 2
        bad = ~np.isfinite(m)
        if bad.any():  # an enclosure a failed solve left unbounded: a point inside it all the same
            m = np.where(bad, np.where(np.isfinite(self.lo), self.lo, np.where(np.isfinite(self.hi), self.hi, 0.0)), m)
        return m

    @property
    def rad(self) -> np.ndarray:
        """An upper bound of the distance from ``mid`` to either end."""
        m = self.mid
        wider: np.ndarray = np.maximum(up(self.hi - m), up(m - self.lo))
        return up(wider)

    @property
    def width(self) -> np.ndarray:
        """``hi - lo`` rounded up."""
        return up(self.hi - self.lo)

    def _coerce(self, other: "Interval | ArrayLike") -> "Interval":
        return other if isinstance(other, Interval) else Interval(other, other)

    def __add__(self, other: "Interval | ArrayLike") -> "Interval":
        o = self._coerce(other)
        return Interval(down(self.lo + o.lo), up(self.hi + o.hi))

    __radd__ = __add__

    def __neg__(self) -> "Interval":
        return Interval(-self.hi, -self.lo)

    def __sub__(self, other: "Interval | ArrayLike") -> "Interval":
        return self + (-self._coerce(other))

    def __rsub__(self, other: "Interval | ArrayLike") -> "Interval":
        return self._coerce(other) - self

    def __mul__(self, other: "Interval | ArrayLike") -> "Interval":
        o = self._coerce(other)
        a, b, c, d = self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi
        lo = np.minimum(np.minimum(a, b), np.minimum(c, d))  # elementwise (reduce over a list stacks a copy)
        hi = np.maximum(np.maximum(a, b), np.maximum(c, d))
        return Interval(down(lo), up(hi))

    __rmul__ = __mul__

    def divide_positive(self, d: "Interval") -> "Interval":
        """``self / d`` for ``d`` with ``d.lo > 0``."""
        assert np.all(d.lo > 0)
        q = [self.lo / d.lo, self.lo / d.hi, self.hi / d.lo, self.hi / d.hi]
        return Interval(down(np.minimum.reduce(q)), up(np.maximum.reduce(q)))

    def sum(self) -> "Interval":
        """The sum of the entries, as one interval."""
        return Interval(fsum_down(self.lo), fsum_up(self.hi))

    def hull(self, other: "Interval") -> "Interval":
        """The smallest interval holding both."""
        return Interval(np.minimum(self.lo, other.lo), np.maximum(self.hi, other.hi))

    def contains(self, values: Sequence[flint.fmpq]) -> np.ndarray:
        """Whether each exact rational lies in its interval (decided exactly)."""
        out = []
        for v, lo, hi in zip(values, self.lo.tolist(), self.hi.tolist()):
            # fast path: f = p / q is Python's correctly rounded int division, so v lies within half a
            # spacing of f; lo < f < hi strictly (floats) then puts v inside (crowds-5-5: 18 million
            # basis and absorption entries).  Otherwise, or past the double range, decide exactly.
            try:
                f = int(v.p) / int(v.q)
            except (OverflowError, AttributeError):
                f = math.nan
            if lo < f < hi:
                out.append(True)
                continue
            above = lo == -math.inf or (lo != math.inf and flint.fmpq(*lo.as_integer_ratio()) <= v)
            below = hi == math.inf or (hi != -math.inf and v <= flint.fmpq(*hi.as_integer_ratio()))
            out.append(above and below)
        return np.array(out, dtype=bool)

    def __repr__(self) -> str:
        return f"Interval(lo={self.lo!r}, hi={self.hi!r})"
