"""Float iterative solvers for the certified path (untrusted: every result is checked afterwards).

Two solvers cover every large system: the fixed-point iteration ``x = M x + c`` for blocks that
escape fast (the transient block), and restarted GMRES for the rest.  Asking for only the accuracy
that is needed matters more than anything else here: a witness needs ``(I - M) u >= 1`` with room to
spare (``rtol = 1e-3``), a refinement step ``~1e-11``, the componentwise error stage ``1e-4``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from scipy.linalg import solve_triangular

__all__ = ["fixed_point", "gmres", "gmres_columns"]


def fixed_point(M: sp.csr_matrix, C: np.ndarray, *, rtol: float = 1e-17, max_iter: int = 5000) -> tuple[np.ndarray, bool]:
    """``x = M x + c`` iterated (converges geometrically at the escape rate ``q`` of the block); stops
    when the error estimate ``Δ q / (1 - q)`` (``Δ`` the last update, ``q`` the observed contraction) is
    below ``rtol`` of the largest entry, and gives up early (``False``) when ``q`` is too close to 1 to
    get there within ``max_iter`` steps: slowly escaping blocks go to GMRES instead.

    >>> M = sp.csr_matrix(np.array([[0.0, 0.5], [0.25, 0.0]]))
    >>> x, ok = fixed_point(M, np.ones((2, 1)), rtol=1e-15)
    >>> ok, bool(abs(x[0, 0] - 12 / 7) < 1e-14)
    (True, True)
    """
    X = C.copy()
    previous = np.inf
    for it in range(max_iter):
        new = M @ X + C
        delta = float(np.abs(new - X).max()) if X.size else 0.0
        X = new
        scale = float(np.abs(X).max()) if X.size else 1.0  # relative: corrections are tiny
        if delta == 0.0:
            return X, True
        q = min(delta / previous, 0.999999) if np.isfinite(previous) else 0.5
        previous = delta
        if not np.isfinite(delta):
            return X, False
        if delta * q / (1.0 - q) <= rtol * scale:
            return X, True
        if it >= 50 and q > 0.0 and np.log(rtol * scale * (1.0 - q) / delta) / np.log(q) > max_iter - it:
            return X, False
    return X, False


def gmres(apply: Callable[[np.ndarray], np.ndarray], b: np.ndarray, *, rtol: float, restart: int = 30, max_restarts: int = 60) -> np.ndarray:
    """Restarted GMRES for ``A x = b`` (``apply(v) = A v``) to ``‖b - A x‖ <= rtol ‖b‖``.

    Arnoldi with classical Gram-Schmidt applied twice (two matrix-vector products with the basis per
    step instead of a Python loop over it) and Givens rotations for the residual norm.  Restarts every
    30 steps: on the 10^5 benchmark's 8,747-state classes a solve to 1e-11 takes 61 steps either way,
    but 0.018 s CPU against 0.18 s with a 60-step basis (which falls out of cache).

    >>> A = np.array([[4.0, 1.0], [2.0, 3.0]])
    >>> x = gmres(lambda v: A @ v, np.array([1.0, 2.0]), rtol=1e-14)
    >>> bool(np.allclose(A @ x, [1.0, 2.0], rtol=0, atol=1e-13))
    True
    """
    n = b.shape[0]
    x = np.zeros(n)
    b_norm = float(np.linalg.norm(b))
    if b_norm == 0.0 or not np.isfinite(b_norm):
        return x if b_norm == 0.0 else np.full(n, np.nan)
    target = rtol * b_norm
    m = min(restart, n)
    for _ in range(max_restarts):
        r = b - apply(x)
        beta = float(np.linalg.norm(r))
        if beta <= target or not np.isfinite(beta):
            break
        V = np.empty((m + 1, n))
        H = np.zeros((m + 1, m))
        cs, sn = np.zeros(m), np.zeros(m)
        g = np.zeros(m + 1)
        g[0] = beta
        V[0] = r / beta
        k = 0
        for j in range(m):
            w = apply(V[j])
            h = V[: j + 1] @ w
            w -= h @ V[: j + 1]
            h2 = V[: j + 1] @ w
            w -= h2 @ V[: j + 1]
            h += h2
            h_next = float(np.linalg.norm(w))
            col = np.append(h, h_next)
            for i in range(j):  # previous rotations on the new column
                col[i], col[i + 1] = cs[i] * col[i] + sn[i] * col[i + 1], -sn[i] * col[i] + cs[i] * col[i + 1]
            denom = float(np.hypot(col[j], col[j + 1]))
            cs[j], sn[j] = (1.0, 0.0) if denom == 0.0 else (col[j] / denom, col[j + 1] / denom)
            col[j], col[j + 1] = denom, 0.0
            g[j], g[j + 1] = cs[j] * g[j], -sn[j] * g[j]
            H[: j + 2, j] = col
            k = j + 1
            if h_next == 0.0 or abs(g[j + 1]) <= 0.5 * target:
                break
            V[j + 1] = w / h_next
        if k == 0 or H[k - 1, k - 1] == 0.0:
            break
        y = solve_triangular(H[:k, :k], g[:k])
        x = x + y @ V[:k]
    return x


def gmres_columns(apply: Callable[[np.ndarray], np.ndarray], C: np.ndarray, *, rtol: float) -> np.ndarray:
    """:func:`gmres` on every column of ``C``."""
    X = np.empty_like(C)
    for j in range(C.shape[1]):
        X[:, j] = gmres(apply, C[:, j], rtol=rtol)
    return X
