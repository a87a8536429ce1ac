"""Certified solves of nonsingular M-matrix systems ``(I - M) x = c``, ``M >= 0`` sparse.

Every system the certified decomposition solves has this form: the transient block
``I - Q``, its phase-augmented version (``x_k - Q x_{k+1} = c_k``), and on each closed class the
first-passage systems with the anchors removed (and their transposes).  The certificate:

- **witness** ``u >= 0`` with ``(I - M) u >= 1``, checked with rigorous rounding bounds.  A
  Z-matrix with such a ``u`` is a nonsingular M-matrix, so ``(I - M)^{-1} >= 0`` and
  ``(I - M)^{-1} 1 <= u`` (Berman & Plemmons, *Nonnegative Matrices*, Thm 6.2.3);
- **residual** ``ρ >= ‖c - (I - M) x̂‖∞``, also bounded rigorously (``c`` may be an interval);
- so ``|x - x̂| <= (I - M)^{-1} |c - (I - M) x̂| <= u ρ`` componentwise; sharper, with ``R``
  a rigorous bound of ``|c - (I - M) x̂|`` and any ``E``: ``(I - M)^{-1} R <= E + u ‖(R - (I - M) E)^+‖∞``,
  which with ``E`` a float solve of ``(I - M) E = R`` leaves only rounding-level slack.

- **refinement**: ``R`` is computed to ``~2^-100`` from the matrix held to ``2^-104``
  (:mod:`.residual`), and ``x̂ ← x̂ + (float solve of R)`` until ``‖u‖ R`` is below the last bit of
  ``x̂``, so the enclosure is as narrow as the float that prints it, even where ``‖u‖`` (a hitting
  time) is 10^5.

The float solutions come from scipy and :mod:`.iterative` (sparse LU on small blocks, fixed-point
iteration or GMRES on large ones); nothing about them is trusted: only the two checked
inequalities enter the bound.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csgraph
import scipy.sparse.linalg as spla

from exactpte.certified.iterative import fixed_point, gmres_columns
from exactpte.certified.residual import RowSchedule, SplitMatrix, dd_residual
from exactpte.certified.rounding import ETA, Interval, down, gamma, up

__all__ = ["Certificate", "MMatrixSystem", "ClassSolver", "DIRECT_LIMIT", "FloatSolver"]

FloatSolver: TypeAlias = Callable[[np.ndarray, float], np.ndarray]
"""A float solver ``(C, rtol) -> X`` for ``(I - M) X = C`` (untrusted: its answers are certified)."""

DIRECT_LIMIT = 3000
"""Blocks up to this size, or whose strongly connected components all are (the fill-in of a sparse LU
stays inside them: crowds-5-5's 7,347 transient states form 4,407 components of at most 15), are
factored (sparse LU, reused for every right-hand side); larger ones are solved iteratively (sparse
LU of a random graph fills in: 223 s for a 30,000-state block)."""

LU_CHUNK = 64
"""Right-hand sides per SuperLU triangular solve: wider blocks fall out of cache (1,260 columns on
crowds-5-5's transient block: 8.6 s at once, 0.4 s in chunks of 64)."""

RESIDUAL_CHUNK = 32
"""Columns per compensated-residual pass (the pass is columnwise; narrow blocks stay in cache)."""

WITNESS_RTOL = 1e-3  # u only needs (I - M) u >= 1 from a right-hand side of 2: half the digits spare
REFINE_RTOL = 1e-11  # each refinement step gains this factor on the residual
ERROR_RTOL = 1e-4  # the componentwise stage needs E only roughly: its own residual is bounded too
MAX_REFINE = 4


class ClassSolver:
    """Fast float solves on one closed class (untrusted: every result is then certified).

    First-passage systems ``(I - P_NN) x = b`` (``N`` = the class without a set ``A``) mix slowly
    (hitting one state of a large class), so they are solved through the well-conditioned
    deviation operator ``I - P + 1 π̂ᵀ`` (eigenvalues ``1 - λ`` for the non-Perron eigenvalues,
    ``1`` for the Perron one): with ``Z = (I - P + 1π̂ᵀ)^{-1}``, ``x = Z(b̃ + Σ_a β_a e_a) + c 1``
    with ``d + 1`` scalars fixed by ``x(A) = 0`` and solvability; transposed systems likewise with
    ``Zᵀ`` and the left null vector ``π``.  ``π̂`` comes from power iteration on the lazy chain.
    """

    def __init__(self, P_F: sp.csr_matrix) -> None:
        self.P = sp.csr_matrix(P_F)
        self.k = self.P.shape[0]
        PT = self.P.T.tocsr()
        pi = np.full(self.k, 1.0 / self.k)
        for _ in range(20000):
            new = 0.5 * (pi + PT @ pi)
            new /= new.sum()
            done = np.abs(new - pi).max() <= 1e-18
            pi = new
            if done:
                break
        self.pi = pi
        self.apply = lambda x: x - self.P @ x + (pi @ x)
        self.apply_T = lambda x: x - PT @ x + pi * x.sum()
        self._unit: dict[tuple[int, bool], np.ndarray] = {}

    def _Z(self, V: np.ndarray, transpose: bool, rtol: float) -> np.ndarray:
        return gmres_columns(self.apply_T if transpose else self.apply, V, rtol=rtol)

    def _unit_solution(self, a: int, transpose: bool) -> np.ndarray:
        key = (a, transpose)
        if key not in self._unit:
            e = np.zeros((self.k, 1))
            e[a] = 1.0
            self._unit[key] = self._Z(e, transpose, 1e-13)[:, 0]
        return self._unit[key]

    def first_passage(self, removed: list[int], B: np.ndarray, *, transpose: bool = False, rtol: float = 1e-12) -> np.ndarray:
        """Float solution of ``(I - P_NN) X = B`` (or ``X^T (I - P_NN) = B^T``), ``N`` = all but ``removed``."""
        k = self.k
        keep = np.setdiff1d(np.arange(k), removed)
        d = len(removed)
        Bt = np.zeros((k, B.shape[1]))
        Bt[keep] = B
        Y = self._Z(Bt, transpose, rtol)
        units = np.column_stack([self._unit_solution(a, transpose) for a in removed])  # k x d
        base = np.ones(k) if not transpose else self.pi  # the null direction added with c
        out = np.empty((len(keep), B.shape[1]))
        # unknowns (β_1..β_d, c): x(a') = 0 for a' in A, and the solvability row
        M = np.zeros((d + 1, d + 1))
        M[:d, :d] = units[removed]
        M[:d, d] = base[removed]
        M[d, :d] = self.pi[removed] if not transpose else 1.0
        for j in range(B.shape[1]):
            rhs = np.zeros(d + 1)
            rhs[:d] = -Y[removed, j]
            rhs[d] = -(self.pi @ Bt[:, j]) if not transpose else -Bt[:, j].sum()
            coef = np.linalg.solve(M, rhs)
            x = Y[:, j] + units @ coef[:d] + coef[d] * base
            out[:, j] = x[keep]
        return out


def _largest_component(M: sp.csr_matrix) -> int:
    """The size of the largest strongly connected component of ``M``'s graph."""
    _, labels = csgraph.connected_components(M, directed=True, connection="strong")
    return int(np.bincount(labels).max()) if len(labels) else 0


@dataclass
class Certificate:
    """What bounds one system's solutions, and whether it was verified."""

    system: str
    rows: int
    certified: bool
    u_max: float
    min_witness_row: float
    residual: float = 0.0
    error: float = 0.0

    def to_dict(self) -> dict[str, str | int | float | bool]:
        """JSON-ready fields, with the bound stated."""
        return {
            "system": self.system,
            "rows": self.rows,
            "bound": "|x - x̂| <= E + u ‖(R - (I - M) E)^+‖∞ with R >= |c - (I - M) x̂| (rigorous rounding bounds), "
                     "u >= 0 with (I - M) u >= 1 checked: (I - M)^{-1} >= 0 (M-matrix)",
            "certified": self.certified,
            "witness_u_max": self.u_max,
            "witness_min_row": self.min_witness_row,
            "residual_max": self.residual,
            "error_max": self.error,
        }


class MMatrixSystem:
    """``(I - M) x = c`` with ``M >= 0`` known exactly to ``~2^-104`` (a :class:`SplitMatrix`; a plain
    float matrix is taken as the nearest doubles of its exact entries).

    ``solver(C, rtol)``, if given, is the float solver used (untrusted); by default sparse LU up to
    :data:`DIRECT_LIMIT` rows, else fixed-point iteration or GMRES.

    Examples
    --------
    >>> M = sp.csr_matrix(np.array([[0.0, 0.5], [0.25, 0.0]]))
    >>> system = MMatrixSystem(M, "example")
    >>> x = system.solve(Interval(np.array([[1.0], [1.0]])))
    >>> bool(x.lo[0, 0] <= 12 / 7 <= x.hi[0, 0]) and system.certificate.certified
    True
    """

    def __init__(self, M: SplitMatrix | sp.spmatrix, name: str, *, witness: np.ndarray | None = None,
                 solver: FloatSolver | None = None) -> None:
        self.solver = solver  # a float solver for (I - M) X = C, or None for the default
        self.split = SplitMatrix.of(M)
        self.M = self.split.hi
        self.m = self.M.shape[0]
        self.name = name
        self.A = (sp.identity(self.m, format="csr") - self.M).tocsc()
        self.k = np.diff(self.M.indptr).astype(np.float64) + 3  # terms per row of a residual
        self._lu: spla.SuperLU | None = None
        self.direct = self.m <= DIRECT_LIMIT or _largest_component(self.M) <= DIRECT_LIMIT
        self._schedule: RowSchedule | None = None
        self.u = self._certify(witness)

    # -- float solves (untrusted) ----------------------------------------------------------------------
    def float_solve(self, C: np.ndarray, *, rtol: float = REFINE_RTOL) -> np.ndarray:
        """An approximate solution (columns of ``C``) to about ``rtol``; never trusted, only checked
        (NaN when the float solver fails: the certificate then fails and the bounds are infinite)."""
        try:
            with np.errstate(all="ignore"):
                return self._float_solve(C, rtol)
        except (RuntimeError, ValueError, ArithmeticError, np.linalg.LinAlgError):
            return np.full(C.shape, np.nan)

    def _float_solve(self, C: np.ndarray, rtol: float) -> np.ndarray:
        if self.m == 0:
            return np.zeros_like(C)
        if self.solver is not None:
            return self.solver(C, rtol)
        if self.direct:
            lu = self._lu
            if lu is None:
                lu = self._lu = spla.splu(self.A)
            if C.shape[1] <= LU_CHUNK:
                X_lu: np.ndarray = lu.solve(C)
                return X_lu
            X = np.empty(C.shape)
            for j in range(0, C.shape[1], LU_CHUNK):
                X[:, j : j + LU_CHUNK] = lu.solve(np.ascontiguousarray(C[:, j : j + LU_CHUNK]))
            return X
        X, ok = fixed_point(self.M, C, rtol=min(rtol, 1e-3) * 1e-2)
        if ok:
            return X
        A = self.A.tocsr()
        return gmres_columns(lambda v: A @ v, C, rtol=rtol)

    # -- rigorous checks ------------------------------------------------------------------------------------
    def _row_bound(self, X: np.ndarray, C_mid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Computed ``R̂ = c - x̂ + M̂ x̂`` in plain floats and a bound on ``|R̂ - (c - (I - M) x̂)|``
        per entry (``M̂`` within ``2^-52`` relative of the exact entries: the ``γ_{2k+4}`` term)."""
        R = C_mid - X + self.M @ X
        S = up(up(np.abs(C_mid) + np.abs(X)) + up(self.M @ np.abs(X)))
        g = gamma(2 * self.k + 4)[:, None]
        err = up(up(up(g * S) * (1 + 4e-16)) + (self.k[:, None] * ETA))
        return R, err

    def residual(self, C_mid: np.ndarray, X: np.ndarray, D: np.ndarray, C_low: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``c - (I - M)(X + D)`` (``c = C_mid + C_low``) to about ``2^-100`` and a rigorous bound of its
        error (:func:`~exactpte.certified.residual.dd_residual`)."""
        if self._schedule is None:
            self._schedule = RowSchedule(self.split)
        c = C_mid.shape[1]
        if c <= RESIDUAL_CHUNK:
            return dd_residual(self.split, self._schedule, C_mid, X, D, C_low)
        R, err = np.empty(C_mid.shape), np.empty(C_mid.shape)
        for j in range(0, c, RESIDUAL_CHUNK):  # column blocks that stay in cache
            cols = slice(j, j + RESIDUAL_CHUNK)
            R[:, cols], err[:, cols] = dd_residual(self.split, self._schedule, C_mid[:, cols], X[:, cols], D[:, cols],
                                                   None if C_low is None else C_low[:, cols])
        return R, err

    def _certify(self, witness: np.ndarray | None) -> np.ndarray:
        ones = np.ones((self.m, 1))
        u = witness if witness is not None else self.float_solve(2 * ones, rtol=WITNESS_RTOL)[:, 0]
        ok, low = False, 0.0
        if self.m == 0:
            ok, low = True, np.inf
        elif np.all(np.isfinite(u)) and np.all(u >= 0):
            R, err = self._row_bound(u[:, None], np.zeros((self.m, 1)))
            lower = down(-R[:, 0] - err[:, 0])  # R = 0 - (I - M) u, so exact (I - M) u >= lower
            low = float(lower.min())
            ok = bool(low >= 1.0)
        self.certificate = Certificate(self.name, self.m, ok, float(u.max()) if self.m else 0.0, low)
        return u if ok else np.full(self.m, np.inf)

    def _refined(self, C_mid: np.ndarray, C_low: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``x̂ = X + D`` by iterative refinement on compensated residuals, and a rigorous bound
        ``rabs >= |c - (I - M) x̂|`` for ``c = C_mid + C_low``."""
        X = self.float_solve(C_mid)
        D = np.zeros_like(X)
        u_max = float(self.u.max()) if self.m else 0.0
        for step in range(MAX_REFINE + 1):
            R, err = self.residual(C_mid, X, D, C_low)
            rabs = up(np.abs(R) + err)
            # done once the residual's share of the error, ‖u‖ ‖r‖, is below the last bit of x̂
            share = u_max * rabs.max(axis=0)
            if step == MAX_REFINE or not np.isfinite(u_max) or np.all(share <= 2.0**-56 * np.abs(X).max(axis=0)):
                return X, D, rabs
            correction = self.float_solve(R)
            if not np.all(np.isfinite(correction)):
                return X, D, rabs
            D = D + correction
        raise AssertionError("unreachable")

    def _error_bound(self, E: np.ndarray, rabs: np.ndarray) -> np.ndarray:
        """``E + u ‖(rabs - (I - M) E)^+‖∞``, a rigorous bound of ``(I - M)^{-1} rabs`` for any ``E >= 0``."""
        R2, err2 = self._row_bound(E, rabs)
        res2 = up(np.maximum(R2 + err2, 0.0)).max(axis=0)
        with np.errstate(invalid="ignore"):
            e = up(E + up(self.u[:, None] * res2[None, :]))
        return np.where(np.isnan(e), np.inf, e)

    def solve(self, C: Interval, *, low: Interval | None = None) -> Interval:
        """Enclosures of ``(I - M)^{-1} c`` for every ``c`` in the interval columns ``C`` (``m x k``);
        with ``low``, for every ``c`` in ``C + low`` (a right-hand side known to more than float precision
        as a pair, e.g. exact rewards minus a float: the midpoints are added without rounding)."""
        X, D, e = self.solve_refined(C, low=low)
        with np.errstate(invalid="ignore"):
            center = X + D
        return Interval(down(down(center) - e), up(up(center) + e))

    def solve_refined(self, C: Interval, *, low: Interval | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """As :meth:`solve`, but the approximation kept as an unevaluated pair: ``|x - (X + D)| <= e``
        componentwise (``e`` can be far below an ulp of ``X``: for callers that cancel it)."""
        C_mid, C_rad = C.mid, C.rad
        low_mid = None
        if low is not None:
            C_rad = up(C_rad + low.rad)
            low_mid = low.mid
        if C_mid.ndim == 1:
            C_mid, C_rad = C_mid[:, None], C_rad[:, None]
            low_mid = None if low_mid is None else low_mid[:, None]
        if self.m == 0:
            return np.zeros(C_mid.shape), np.zeros(C_mid.shape), np.zeros(C_mid.shape)
        X, D, res_abs = self._refined(C_mid, low_mid)
        rabs = up(res_abs + C_rad)  # |c - (I - M) x̂| <= rabs for every c in the interval
        with np.errstate(invalid="ignore"):
            center = X + D
        # componentwise: |x - x̂| <= (I - M)^{-1} rabs <= E + u ‖(rabs - (I - M) E)^+‖∞ for any E >= 0.
        # First E = κ|x̂| (free): right where c >= 0 and C_rad <= κ c, e.g. an exact right-hand side
        # rounded to floats (the refined residual is far below it); otherwise a rough solve of (I - M) E = rabs.
        e = self._cheap_error(center, C_mid, C_rad, rabs)
        redo = ~self._last_bits(e, center)
        if np.any(redo):
            E = np.maximum(self.float_solve(rabs[:, redo], rtol=ERROR_RTOL), 0.0)
            e[:, redo] = np.minimum(e[:, redo], self._error_bound(E, rabs[:, redo]))
        cert = self.certificate
        cert.residual = max(cert.residual, float(res_abs.max()) if res_abs.size else 0.0)
        cert.error = max(cert.error, float(e.max()) if e.size else 0.0)
        return X, D, e

    def _cheap_error(self, center: np.ndarray, C_mid: np.ndarray, C_rad: np.ndarray, rabs: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(C_rad > 0, C_rad / np.abs(C_mid), 0.0)
        kappa = up(np.where(np.isnan(ratio), np.inf, ratio).max(axis=0, initial=0.0))
        usable = np.isfinite(kappa) & np.all(np.isfinite(center), axis=0)
        e = np.full(center.shape, np.inf)
        if np.any(usable):
            E = up(kappa[None, usable] * np.abs(center[:, usable]))
            e[:, usable] = self._error_bound(E, rabs[:, usable])
        return e

    @staticmethod
    def _last_bits(e: np.ndarray, center: np.ndarray) -> np.ndarray:
        """Columns whose error is within 2^-44 of ``max(|x̂|, 2^-30 ‖x̂‖∞)`` everywhere (nothing to gain)."""
        scale = np.maximum(np.abs(center), 2.0**-30 * np.abs(center).max(axis=0, initial=0.0))
        with np.errstate(invalid="ignore"):
            settled: np.ndarray = np.all(e <= 2.0**-44 * scale, axis=0)
            return settled
