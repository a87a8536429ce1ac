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

The float solutions come from scipy (sparse LU on small blocks, GMRES on large ones); nothing
about them is trusted: only the two checked inequalities enter the bound.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from .rounding import ETA, Interval, down, gamma, up

__all__ = ["Certificate", "MMatrixSystem", "ClassSolver", "DIRECT_LIMIT"]

DIRECT_LIMIT = 3000
"""Blocks up to this size are factored (sparse LU, reused for every right-hand side); larger ones
are solved iteratively (sparse LU of a random graph fills in: 223 s for a 30,000-state block)."""


def fixed_point(M: sp.csr_matrix, C: np.ndarray, *, max_iter: int = 5000) -> tuple[np.ndarray, bool]:
    """``x = M x + c`` iterated (converges geometrically at the escape rate of the block)."""
    X = C.copy()
    for _ in range(max_iter):
        new = M @ X + C
        delta = np.abs(new - X).max() if X.size else 0.0
        X = new
        if delta <= 1e-17 * max(1.0, float(np.abs(X).max())):
            return X, True
    return X, False


def gmres_columns(A, C: np.ndarray, *, restart: int = 80, maxiter: int = 40) -> np.ndarray:
    """GMRES per column (``A`` a matrix or ``LinearOperator``), with one refinement step."""
    X = np.empty_like(C)
    for j in range(C.shape[1]):
        b = C[:, j]
        if not np.any(b):
            X[:, j] = 0.0
            continue
        x, _ = spla.gmres(A, b, rtol=1e-15, atol=0.0, restart=restart, maxiter=maxiter)
        r = b - A @ x
        if np.any(r):
            dx, _ = spla.gmres(A, r, rtol=1e-15, atol=0.0, restart=restart, maxiter=maxiter)
            x = x + dx
        X[:, j] = x
    return X


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
        k = self.k
        self.A = spla.LinearOperator((k, k), matvec=lambda x: x - self.P @ x + np.full(k, pi @ x), dtype=np.float64)
        self.AT = spla.LinearOperator((k, k), matvec=lambda x: x - PT @ x + pi * x.sum(), dtype=np.float64)
        self._unit: dict[tuple[int, bool], np.ndarray] = {}

    def _Z(self, V: np.ndarray, transpose: bool) -> np.ndarray:
        return gmres_columns(self.AT if transpose else self.A, V)

    def _unit_solution(self, a: int, transpose: bool) -> np.ndarray:
        key = (a, transpose)
        if key not in self._unit:
            e = np.zeros((self.k, 1))
            e[a] = 1.0
            self._unit[key] = self._Z(e, transpose)[:, 0]
        return self._unit[key]

    def first_passage(self, removed: list[int], B: np.ndarray, *, transpose: bool = False) -> np.ndarray:
        """Float solution of ``(I - P_NN) X = B`` (or ``X^T (I - P_NN) = B^T``), ``N`` = all but ``removed``."""
        k = self.k
        keep = np.setdiff1d(np.arange(k), removed)
        d = len(removed)
        Bt = np.zeros((k, B.shape[1]))
        Bt[keep] = B
        Y = self._Z(Bt, transpose)
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

    def to_dict(self) -> dict:
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
    """``(I - M) x = c`` with ``M >= 0`` given as floats ``M̂`` within ``u`` relative of the exact entries.

    Examples
    --------
    >>> M = sp.csr_matrix(np.array([[0.0, 0.5], [0.25, 0.0]]))
    >>> system = MMatrixSystem(M, "example")
    >>> x = system.solve(Interval(np.array([[1.0], [1.0]])))
    >>> bool(x.lo[0, 0] <= 12 / 7 <= x.hi[0, 0]) and system.certificate.certified
    True
    """

    def __init__(self, M: sp.csr_matrix, name: str, *, witness: np.ndarray | None = None, solver=None) -> None:
        self.solver = solver  # a float solver for (I - M) X = C, or None for the default
        self.M = sp.csr_matrix(M)
        self.m = self.M.shape[0]
        self.name = name
        self.A = (sp.identity(self.m, format="csr") - self.M).tocsc()
        self.k = np.diff(self.M.indptr).astype(np.float64) + 3  # terms per row of a residual
        self._lu = None
        self.u = self._certify(witness)

    # -- float solves (untrusted) ----------------------------------------------------------------------
    def float_solve(self, C: np.ndarray) -> np.ndarray:
        """An approximate solution (columns of ``C``); never trusted, only checked (NaN when the
        float solver fails: the certificate then fails and the bounds are infinite)."""
        try:
            with np.errstate(all="ignore"):
                return self._float_solve(C)
        except (RuntimeError, ValueError, ArithmeticError, np.linalg.LinAlgError):
            return np.full(C.shape, np.nan)

    def _float_solve(self, C: np.ndarray) -> np.ndarray:
        if self.m == 0:
            return np.zeros_like(C)
        if self.solver is not None:
            return self.solver(C)
        if self.m <= DIRECT_LIMIT:
            if self._lu is None:
                self._lu = spla.splu(self.A)
            return self._lu.solve(C)
        X, ok = fixed_point(self.M, C)
        if ok:
            return X
        return gmres_columns(self.A.tocsr(), C, maxiter=400)

    # -- rigorous checks ------------------------------------------------------------------------------------
    def _row_bound(self, X: np.ndarray, C_mid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Computed ``R̂ = c - x̂ + M̂ x̂`` and a bound on ``|R̂ - (c - (I - M) x̂)|`` per entry."""
        R = C_mid - X + self.M @ X
        S = up(up(np.abs(C_mid) + np.abs(X)) + up(self.M @ np.abs(X)))
        g = gamma(2 * self.k + 4)[:, None]
        err = up(up(up(g * S) * (1 + 4e-16)) + (self.k[:, None] * ETA))
        return R, err

    def _certify(self, witness: np.ndarray | None) -> np.ndarray:
        ones = np.ones((self.m, 1))
        u = witness if witness is not None else self.float_solve(2 * ones)[:, 0]
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

    def solve(self, C: Interval) -> Interval:
        """Enclosures of ``(I - M)^{-1} c`` for every ``c`` in the interval columns ``C`` (``m x k``)."""
        C_mid, C_rad = C.mid, C.rad
        if C_mid.ndim == 1:
            C_mid, C_rad = C_mid[:, None], C_rad[:, None]
        if self.m == 0:
            return Interval(np.zeros(C_mid.shape), np.zeros(C_mid.shape))
        X = self.float_solve(C_mid)
        R, err = self._row_bound(X, C_mid)
        rabs = up(up(np.abs(R) + err) + C_rad)  # |c - (I - M) x̂| <= rabs for every c in the interval
        # componentwise: |x - x̂| <= (I - M)^{-1} rabs = E + (I - M)^{-1} (rabs - (I - M) E)
        #                          <= E + u ‖(rabs - (I - M) E)^+‖∞, for any E (take E ≈ (I - M)^{-1} rabs)
        E = np.maximum(self.float_solve(rabs), 0.0)
        R2, err2 = self._row_bound(E, rabs)
        res2 = up(np.maximum(R2 + err2, 0.0)).max(axis=0)
        with np.errstate(invalid="ignore"):
            e = up(E + up(self.u[:, None] * res2[None, :]))
        e = np.where(np.isnan(e), np.inf, e)
        cert = self.certificate
        cert.residual = max(cert.residual, float(rabs.max()) if rabs.size else 0.0)
        cert.error = max(cert.error, float(e.max()) if e.size else 0.0)
        return Interval(down(X - e), up(X + e))
