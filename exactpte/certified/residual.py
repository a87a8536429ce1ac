"""Residuals of ``(I - M) x = c`` to about 2^-100, with a rigorous bound: what lets iterative
refinement reach last-bit enclosures on slowly mixing blocks.

A float64 residual ``c - x̂ + M̂ x̂`` is only known to ``~2^-53 Σ|terms|``, and the certified error is
that times ``‖(I - M)^{-1}‖`` — the hitting time of the block, 10^4-10^5 steps on large classes.  Here
the matrix is held to ``~2^-104`` (:class:`SplitMatrix`: each exact entry ``q = hi + lo + ε``) and the
approximate solution as an unevaluated sum ``x̂ = x_h + x_l``; the residual is accumulated with
error-free transformations (Knuth's TwoSum, Dekker's TwoProduct: ``a + b = s + e`` and ``a b = p + e``
exactly, Higham §4.3 and Ogita, Rump & Oishi, *Accurate sum and dot product*, SIAM J. Sci. Comput.
26 (2005)), and its error bounded by the a-priori bounds of :mod:`.rounding` applied to the
second-order terms only.  A refined ``x̂`` then has a residual near ``2^-100 ‖x‖`` and an enclosure
as narrow as its float midpoint allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import math

import numpy as np
from numpy.typing import ArrayLike
import scipy.sparse as sp

from exactpte.certified.rounding import ETA, U, gamma, up

__all__ = ["SplitMatrix", "two_sum", "two_prod", "dekker_split", "exact_sum", "dot_terms", "dd_residual"]

_SPLITTER = 134217729.0  # 2^27 + 1 (Dekker's split of a double into two 26-bit halves)
_SPLIT_SAFE = 2.0**995  # |x| below this: the split cannot overflow


def two_sum(a: np.ndarray, b: np.ndarray | float) -> tuple[np.ndarray, np.ndarray]:
    """``s = fl(a + b)`` and ``e`` with ``a + b = s + e`` exactly (Knuth; no overflow)."""
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def dekker_split(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``a = hi + lo`` exactly, each half with at most 26 significant bits (Dekker; ``|a| < 2^995``)."""
    c = _SPLITTER * a
    high = c - (c - a)
    return high, a - high


def two_prod(a: np.ndarray, a_split: tuple[np.ndarray, np.ndarray], b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``p = fl(a b)`` and ``e`` with ``a b = p + e`` exactly (Dekker; ``a_split = dekker_split(a)``; exact
    unless a partial product underflows, which the callers' ``ETA`` terms cover)."""
    p = a * b
    ah, al = a_split
    bh, bl = dekker_split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def exact_sum(parts: Sequence[ArrayLike]) -> tuple[float, float]:
    """The exact sum of every entry of ``parts`` as an unevaluated pair ``hi + lo`` with
    ``|Σ - hi - lo| <= 2^-53 |lo|`` (``math.fsum`` rounds the exact sum correctly, so the second call
    rounds the exact remainder).

    >>> exact_sum([np.array([1.0, 2.0**-60]), np.array([-1.0])])
    (8.673617379884035e-19, 0.0)
    """
    flat = [float(x) for p in parts for x in np.ravel(p)]
    hi = math.fsum(flat)
    return hi, math.fsum(flat + [-hi])


def dot_terms(xh: np.ndarray, xl: np.ndarray, yh: np.ndarray, yl: np.ndarray) -> tuple[list[np.ndarray], float]:
    """``Σ (xh + xl)(yh + yl)`` as float terms (for :func:`exact_sum`) plus a bound of what they miss:
    ``xh yh`` split exactly (TwoProduct), ``xl yh`` and ``xh yl`` rounded (``u`` each), ``xl yl`` dropped."""
    p, e = two_prod(xh, dekker_split(xh), yh)
    f, g = xl * yh, xh * yl
    miss = up(up(2.0 * U * up(np.abs(f).sum() + np.abs(g).sum())) + up(2.0 * np.abs(xl) @ np.abs(yl)) + 16 * len(xh) * ETA)
    return [p, e, f, g], float(miss)


@dataclass(frozen=True)
class SplitMatrix:
    """A nonnegative sparse matrix known to ``rel_err``: every stored exact entry ``q`` satisfies
    ``|q - hi - lo| <= rel_err |hi| + ETA`` (``hi`` canonical CSR, ``lo`` aligned with ``hi.data``).

    From an exact chain (:func:`exactpte.model.to_float.split_sparse_matrix`) ``rel_err = 2^-104``; a plain
    float matrix, taken as the nearest doubles of unknown exact entries, has ``lo = 0`` and
    ``rel_err = 2^-52``.

    Examples
    --------
    >>> M = SplitMatrix.of(sp.csr_matrix(np.array([[0.0, 0.5], [0.25, 0.0]])))
    >>> M.transpose().hi.toarray().tolist(), M.kron_cycle(2).hi.shape
    ([[0.0, 0.25], [0.5, 0.0]], (4, 4))
    """

    hi: sp.csr_matrix
    lo: np.ndarray
    rel_err: float

    @classmethod
    def of(cls, M: "SplitMatrix | sp.spmatrix | np.ndarray") -> "SplitMatrix":
        """A split matrix from a float one (``lo = 0``, entries trusted to half an ulp only)."""
        if isinstance(M, SplitMatrix):
            return M
        hi = sp.csr_matrix(M, dtype=np.float64, copy=True)
        hi.sum_duplicates()
        hi.sort_indices()
        return cls(hi, np.zeros(hi.nnz), 2.0 * U)

    @classmethod
    def exact(cls, hi: sp.csr_matrix, lo: np.ndarray) -> "SplitMatrix":
        """From the aligned pair of :func:`exactpte.model.to_float.split_sparse_matrix`."""
        hi = sp.csr_matrix(hi)
        if not hi.has_canonical_format:
            order = cls._index_matrix(hi)
            order.sort_indices()
            k = order.data.astype(np.int64) - 1
            hi = sp.csr_matrix((hi.data[k], order.indices, order.indptr), shape=hi.shape)
            lo = lo[k]
        return cls(hi, np.asarray(lo, dtype=np.float64), 2.0**-104)

    @staticmethod
    def _index_matrix(hi: sp.csr_matrix) -> sp.csr_matrix:
        # the same pattern with data 1..nnz: slicing and transposing carry it, so the lo parts follow
        return sp.csr_matrix((np.arange(1, hi.nnz + 1, dtype=np.float64), hi.indices, hi.indptr), shape=hi.shape)

    def _follow(self, moved: sp.csr_matrix) -> "SplitMatrix":
        moved = sp.csr_matrix(moved)
        moved.sort_indices()
        k = moved.data.astype(np.int64) - 1
        return SplitMatrix(sp.csr_matrix((self.hi.data[k], moved.indices, moved.indptr), shape=moved.shape),
                           self.lo[k], self.rel_err)

    def take(self, rows: np.ndarray, cols: np.ndarray) -> "SplitMatrix":
        """The submatrix ``M[rows][:, cols]``."""
        return self._follow(self._index_matrix(self.hi)[rows][:, cols])

    def transpose(self) -> "SplitMatrix":
        """``Mᵀ``."""
        return self._follow(self._index_matrix(self.hi).T.tocsr())

    def kron_cycle(self, d: int) -> "SplitMatrix":
        """``S ⊗ M`` with ``S`` the cyclic shift on ``Z_d`` (block ``(k, k+1)`` is ``M``): the
        phase-augmented transient block."""
        shift = sp.csr_matrix((np.ones(d), (np.arange(d), (np.arange(d) + 1) % d)), shape=(d, d))
        return self._follow(sp.kron(shift, self._index_matrix(self.hi), format="csr"))


class RowSchedule:
    """Rows ordered by their number of entries (longest first), so the ``k``-th entries of all rows
    that have one form a prefix: the compensated residual runs one vectorised pass per ``k``."""

    def __init__(self, M: SplitMatrix) -> None:
        lengths = np.diff(M.hi.indptr)
        self.order = np.argsort(-lengths, kind="stable")
        self.starts = M.hi.indptr[:-1][self.order]
        sorted_len = lengths[self.order]
        self.max_len = int(sorted_len[0]) if len(sorted_len) else 0
        self.active = [int(np.searchsorted(-sorted_len, -k, side="right")) for k in range(1, self.max_len + 1)]
        self.lengths = sorted_len.astype(np.float64)
        self.split = dekker_split(M.hi.data)


def dd_residual(M: SplitMatrix, schedule: RowSchedule, C: np.ndarray, Xh: np.ndarray, Xl: np.ndarray,
                C_low: np.ndarray | None = None, *, identity: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``R ≈ c - (I - M)(Xh + Xl)`` (columns) and ``err`` with ``|R - (c - (I - M)(Xh + Xl))| <= err``
    for the exact ``M`` (``c = C + C_low`` and ``Xh + Xl`` unevaluated sums of floats); with
    ``identity=False``, ``R ≈ c + M (Xh + Xl)`` for a rectangular ``M`` (rows of another system).

    The leading terms are summed with error-free transformations; the bound collects what is not
    exact: the compensation sum (``γ_K Σ|e|``), the rounded cross products ``mh·xl`` and ``ml·xh``
    (``u`` each), the dropped ``ml·xl`` and the entries' own error ``rel_err``, and the final rounding.

    >>> M = SplitMatrix.exact(sp.csr_matrix(np.array([[0.0, 0.5], [0.25, 0.0]])), np.zeros(2))  # exact entries
    >>> x = np.linalg.solve(np.eye(2) - M.hi.toarray(), np.ones((2, 1)))  # (12/7, 10/7) to a few ulps
    >>> R, err = dd_residual(M, RowSchedule(M), np.ones((2, 1)), x, np.zeros((2, 1)))
    >>> from fractions import Fraction as F
    >>> exact = [1 - F(x[0, 0]) + F(1, 2) * F(x[1, 0]), 1 - F(x[1, 0]) + F(1, 4) * F(x[0, 0])]
    >>> all(abs(F(R[i, 0]) - exact[i]) <= F(err[i, 0]) for i in range(2)), float(err.max()) < 1e-30
    (True, True)
    """
    m, c = C.shape
    order = schedule.order
    R = np.empty((m, c))
    err = np.empty((m, c))
    if m == 0:
        return R, err
    s = C[order]
    comp = np.zeros((m, c))
    absacc = np.zeros((m, c))
    if identity:
        s, e = two_sum(s, -Xh[order])
        comp = e
        absacc = np.abs(e)
        s, e = two_sum(s, -Xl[order])
        comp = comp + e
        absacc = absacc + np.abs(e)
    if C_low is not None:
        s, e = two_sum(s, C_low[order])
        comp = comp + e
        absacc = absacc + np.abs(e)
    rounded = np.zeros((m, c))  # Σ |fl(mh·xl)| + |fl(ml·xh)| (each off by u relative)
    dropped = np.zeros((m, c))  # Σ |ml||xl| + rel_err |mh| (|xh| + |xl|)
    data, low, indices = M.hi.data, M.lo, M.hi.indices
    ah_all, al_all = schedule.split
    for k, a in enumerate(schedule.active):
        pos = schedule.starts[:a] + k
        cols = indices[pos]
        mh, ml = data[pos][:, None], low[pos][:, None]
        xh, xl = Xh[cols], Xl[cols]
        p, e1 = two_prod(mh, (ah_all[pos][:, None], al_all[pos][:, None]), xh)
        s_a, e2 = two_sum(s[:a], p)
        s[:a] = s_a
        f = mh * xl
        g = ml * xh
        comp[:a] += (e1 + e2) + (f + g)
        absacc[:a] += (np.abs(e1) + np.abs(e2)) + (np.abs(f) + np.abs(g))
        rounded[:a] += np.abs(f) + np.abs(g)
        dropped[:a] += np.abs(ml) * np.abs(xl) + M.rel_err * mh * (np.abs(xh) + np.abs(xl))
    out = s + comp
    terms = 4 * schedule.lengths[:, None] + 5  # additions into comp per row, plus the final one
    # Every float sum of nonnegative terms here is within γ_K of the exact one, so doubling covers it.
    bound = up(2.0 * U * np.abs(out)) + up(gamma(terms) * up(2.0 * absacc)) + up(2.0 * U * rounded) \
        + up(2.0 * dropped) + up(16.0 * terms * ETA)
    bound = up(bound * (1.0 + 8.0 * U))
    # outside the transforms' range (any entry of a column huge or not finite): no bound for that column
    with np.errstate(invalid="ignore"):
        big = ~(np.abs(Xh) < _SPLIT_SAFE).all(axis=0) | ~np.isfinite(Xl).all(axis=0) | ~np.isfinite(C).all(axis=0)
    if C_low is not None:
        big |= ~np.isfinite(C_low).all(axis=0)
    bound = np.where(big[None, :] | np.isnan(out) | np.isnan(bound), np.inf, bound)
    R[order] = out
    err[order] = bound
    return R, err
