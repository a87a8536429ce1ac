"""Rigorous certificates about the quotient operator ``P̄`` on ``R^n / K'`` (``thm:minimal_quotient``,
``thm:quotient_contraction``).

- :func:`quotient_charpolys`: ``charpoly(P) = charpoly(P|K') · charpoly(P̄)`` for a ``P``-invariant
  ``K'``; a unimodular eigenvalue of a stochastic matrix is a root of unity, so "``P̄`` has no
  unimodular eigenvalue" is decided exactly by the absence of cyclotomic factors.
- :func:`contraction_certificate`: a norm in which ``P̄`` contracts by a rational ``γ < 1``,
  from an arb enclosure of the spectral radius and a Lyapunov matrix ``H`` for ``B = P̄/γ``:
  ``H ≻ 0`` and ``H − BᵀHB ≻ 0`` decided exactly by leading minors, ``H`` proposed by a float sum
  rounded to dyadic rationals (:func:`proposed_lyapunov_matrix`) or, when that proposal fails its
  exact check, the exact solution of ``H − BᵀHB = I``; past
  :data:`LYAPUNOV_MAX_DIM` a power ``k`` with ``‖P̄^k‖∞ < 1`` bounded in ball arithmetic.

Every decision is exact or rests on arb's rigorous enclosures; no float is trusted.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import cast

import flint
import numpy as np
from numpy.typing import NDArray

from proofs_check.algebra.floats import nearest_floats
from proofs_check.algebra.linalg import cyclotomic_part, identity, integer_poly, pivot_columns

__all__ = [
    "quotient_charpolys",
    "has_cyclotomic_factor",
    "quotient_matrix",
    "spectral_radius_upper",
    "spectral_radius_below_one",
    "SPECTRAL_PRECISIONS",
    "contraction_certificate",
    "stein_solution",
    "stein_solution_by_vec",
    "proposed_lyapunov_matrix",
    "positive_definite",
    "lyapunov_certificate",
    "power_norm_certificate",
    "LYAPUNOV_MAX_DIM",
]

LYAPUNOV_MAX_DIM = 12
"""The exact Lyapunov system has q^2 unknowns; past this quotient dimension, the power-norm certificate."""


def quotient_charpolys(P: flint.fmpq_mat, K: flint.fmpq_mat,
                       whole: flint.fmpq_poly | None = None) -> tuple[flint.fmpq_poly, flint.fmpq_poly] | tuple[None, None]:
    """``(charpoly of P on span K, charpoly of the quotient operator)``, or ``(None, None)``
    when ``span K`` is not ``P``-invariant.  ``K`` has full column rank; ``whole`` is
    ``P.charpoly()`` when the caller has it already.

    Examples
    --------
    >>> P = flint.fmpq_mat([[0, 1], [1, 0]])
    >>> r, q = quotient_charpolys(P, flint.fmpq_mat([[1], [1]]))
    >>> r.coeffs(), q.coeffs()
    ([-1, 1], [1, 1])
    """
    whole = P.charpoly() if whole is None else whole
    if K.ncols() == 0:
        return flint.fmpq_poly([1]), whole
    # coordinates of P K in the basis K
    Kt, PK = K.transpose(), P * K
    A = (Kt * K).solve(Kt * PK)
    if PK != K * A:
        return None, None
    restricted = A.charpoly()
    quotient, rem = divmod(whole, restricted)
    if not rem.is_zero():  # pragma: no cover - impossible for an invariant subspace
        return None, None
    return restricted, quotient


def has_cyclotomic_factor(poly: "flint.fmpq_poly | flint.fmpz_poly") -> bool:
    """Whether ``poly`` has a root of unity among its roots."""
    return len(cyclotomic_part(poly)[0]) > 1


def quotient_matrix(P: flint.fmpq_mat, K: flint.fmpq_mat) -> flint.fmpq_mat:
    """Matrix of the quotient operator on ``R^n / span K`` in the basis ``e_j + span K``,
    ``j`` in the non-pivot columns of ``Kᵀ`` (``K`` of full column rank, ``span K`` invariant)."""
    n = P.nrows()
    R, rk = K.transpose().rref() if K.ncols() else (flint.fmpq_mat(0, n), 0)
    pivots = pivot_columns(R, rk)
    rest = [j for j in range(n) if j not in pivots]
    C = flint.fmpq_mat(n, n)
    for j in range(K.ncols()):
        for i in range(n):
            C[i, j] = K[i, j]
    for t, j in enumerate(rest):
        C[j, K.ncols() + t] = 1
    M = C.inv() * P * C
    q = len(rest)
    off = K.ncols()
    return flint.fmpq_mat([[M[off + a, off + b] for b in range(q)] for a in range(q)]) if q else flint.fmpq_mat(0, 0)


def spectral_radius_upper(poly: "flint.fmpq_poly | flint.fmpz_poly", *, prec: int = 53) -> flint.arb:
    """Rigorous upper bound on the largest root modulus (arb balls from complex root isolation), the
    moduli computed with ``prec`` bits (a root at ``1 - 10^-16`` needs more than a double's 53).

    Examples
    --------
    >>> spectral_radius_upper(flint.fmpq_poly([flint.fmpq(-1, 4), 0, 1])) >= 0.5
    True
    """
    num = integer_poly(poly)
    if num.degree() < 1:
        return flint.arb(0)
    old = flint.ctx.prec
    flint.ctx.prec = max(prec, 53)
    try:
        best = flint.arb(0)
        # (root, multiplicity) pairs: python-flint 0.9's stub declares list[acb]
        roots = cast("list[tuple[flint.acb, int]]", num.complex_roots())
        for root, _mult in roots:
            m = abs(root)
            best = m if m.upper() > best.upper() else best
        return best.upper()
    finally:
        flint.ctx.prec = old


SPECTRAL_PRECISIONS = (53, 128, 512, 2048, 8192)
"""Working precisions (bits) tried in turn for a spectral-radius bound below 1: a root at ``1 - 10^-k`` needs
about ``3.4 k`` bits, so a quotient radius of ``1 - 10^-400`` is bounded at 2048 bits."""


def spectral_radius_below_one(poly: "flint.fmpq_poly | flint.fmpz_poly") -> Fraction | None:
    """A rational upper bound ``< 1`` on the largest root modulus, raising the precision until one is found
    (:data:`SPECTRAL_PRECISIONS`), or ``None`` when no precision tried bounds it below 1.

    >>> spectral_radius_below_one(flint.fmpq_poly([-1 + flint.fmpq(1, 10**16), 1])) < 1
    True
    >>> spectral_radius_below_one(flint.fmpq_poly([-1, 1])) is None
    True
    """
    old = flint.ctx.prec
    try:
        for prec in SPECTRAL_PRECISIONS:
            flint.ctx.prec = prec  # the bound is read off (upper end, rounded up) at the same precision
            hi = arb_upper_fraction(spectral_radius_upper(poly, prec=prec))
            if hi < 1:
                return hi
    finally:
        flint.ctx.prec = old
    return None


def arb_upper_fraction(x: flint.arb) -> Fraction:
    """A rational ``>=`` the upper end of an arb ball (exact dyadic)."""
    a = x.upper()
    if a == 0:
        return Fraction(0)
    man, exp = a.mid().man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def contraction_certificate(A: flint.fmpq_mat) -> str | None:
    """``None`` when a norm is certified in which ``A`` contracts by some ``γ < 1``, else what fails."""
    q = A.nrows()
    if q == 0:
        return None  # trivial quotient: every norm works
    if q > LYAPUNOV_MAX_DIM:
        return power_norm_certificate(A)
    return lyapunov_certificate(A)


def lyapunov_certificate(A: flint.fmpq_mat) -> str | None:
    """A rational ``γ < 1`` and an exact ``H ≻ 0`` with ``H − BᵀHB ⪰ 0``, ``B = A/γ``: then ``‖x‖_H = sqrt(xᵀHx)``
    gives ``‖Ax‖_H ≤ γ‖x‖_H``.  ``None`` when certified.

    ``γ`` is first proposed from a float spectral radius (:func:`_float_gamma`) with ``H`` from
    :func:`proposed_lyapunov_matrix`: both conditions on ``H`` are decided exactly, so whatever the floats did, a
    success is a certificate (and ``ρ(A) < γ``).  Otherwise ``γ`` lies above arb's enclosure of ``ρ(A)`` and ``H`` is
    proposed again, else the exact solution of ``H − BᵀHB = I``.

    Examples
    --------
    >>> lyapunov_certificate(flint.fmpq_mat([[flint.fmpq(1, 2), 1], [0, flint.fmpq(1, 3)]])) is None
    True
    >>> lyapunov_certificate(flint.fmpq_mat([[1, 0], [0, 0]]))
    'no enclosure of the spectral radius of the quotient operator lies below 1 (up to 8192 bits)'
    """
    q = A.nrows()
    Af = _float_matrix(A)
    g_float = _float_gamma(A, Af)
    if g_float is not None and proposed_lyapunov_matrix(A * (1 / g_float), floats=Af / float(g_float)) is not None:
        return None  # gamma proposed by floats, certified exactly by H (no enclosure of rho(A) needed)
    hi_q = spectral_radius_below_one(A.charpoly())
    if hi_q is None:
        return f"no enclosure of the spectral radius of the quotient operator lies below 1 (up to {SPECTRAL_PRECISIONS[-1]} bits)"
    gamma = (hi_q + 1) / 2
    g = flint.fmpq(gamma.numerator, gamma.denominator)
    Bm = A * (1 / g)
    if proposed_lyapunov_matrix(Bm) is not None:
        return None
    H = stein_solution(Bm)
    if H is None:
        return "the Lyapunov equation H - B^T H B = I is singular"
    if H != H.transpose():
        return "Lyapunov solution H is not symmetric"
    if Bm.transpose() * H * Bm + identity(q) != H:
        return "Lyapunov identity fails"
    for k in range(1, q + 1):
        minor = flint.fmpq_mat([[H[a, b] for b in range(k)] for a in range(k)]).det()
        if minor <= 0:
            return f"Lyapunov matrix H is not positive definite (leading minor {k} is {minor})"
    return None


def _float_matrix(A: flint.fmpq_mat) -> NDArray[np.float64]:
    """The nearest doubles to the entries of ``A`` (``±inf`` past the double range), as a ``q x q`` array."""
    return np.array(nearest_floats(A.entries()), dtype=float).reshape(A.nrows(), A.ncols())


def _float_gamma(A: flint.fmpq_mat, Af: NDArray[np.float64] | None = None) -> flint.fmpq | None:
    """A dyadic rational halfway between the float spectral radius of ``A`` and 1, or ``None`` when the floats
    put it at 1 or above (or fail): only a proposal, which :func:`lyapunov_certificate` checks exactly
    (``Af``: ``A``'s nearest doubles, when the caller has them)."""
    q = A.nrows()
    with np.errstate(all="ignore"):
        Af = _float_matrix(A) if Af is None else Af
        if not np.all(np.isfinite(Af)):
            return None
        try:
            rho = float(np.max(np.abs(np.linalg.eigvals(Af)))) if q else 0.0
        except np.linalg.LinAlgError:
            return None
    if not rho < 1 - 2.0**-20:
        return None
    scale = 2**30
    g = flint.fmpq(int(math.ceil((rho + 1) / 2 * scale)), scale)
    return g if g < 1 else None


def proposed_lyapunov_matrix(B: flint.fmpq_mat, *, bits: int = 40, floats: NDArray[np.float64] | None = None) -> flint.fmpq_mat | None:
    """A symmetric dyadic ``H`` with ``H ≻ 0`` and ``H − BᵀHB ≻ 0``, both decided exactly (leading minors),
    or ``None``.  ``H`` is only *proposed* by floats (``Σ_k (Bᵀ)^k B^k`` by doubling, rounded to
    ``bits`` binary digits; ``floats``: doubles near ``B``'s entries when the caller has them, by default
    ``B``'s nearest doubles); whatever the floats did, an ``H`` returned is a Lyapunov certificate:
    ``‖Bx‖_H < ‖x‖_H``.  The exact Stein solve (:func:`stein_solution`) is the fallback.

    Examples
    --------
    >>> H = proposed_lyapunov_matrix(flint.fmpq_mat([[flint.fmpq(1, 2), 1], [0, flint.fmpq(1, 3)]]))
    >>> H is not None and positive_definite(H)
    True
    >>> proposed_lyapunov_matrix(flint.fmpq_mat([[1, 0], [0, 0]])) is None   # no contraction: none exists
    True
    """
    q = B.nrows()
    # nearest doubles (inf past the range, refused below): a float only proposes, never decides
    Bf = _float_matrix(B) if floats is None else np.asarray(floats, dtype=float).reshape(q, q)
    S: NDArray[np.float64] = np.eye(q)  # S_m = sum_{k<m} (B^T)^k B^k, doubled
    P = Bf
    with np.errstate(all="ignore"):  # an overflow is an inf in S, refused below
        for _ in range(60):
            S = S + np.asarray(_float_mul(P.T, _float_mul(S, P)), dtype=float)
            P = np.asarray(_float_mul(P, P), dtype=float)
            if not P.size or np.abs(P).max() < 1e-30:
                break
        if not np.all(np.abs(S) < 2.0 ** 60):  # not finite or far too large: no proposal
            return None
    scale = 2 ** bits
    # the upper triangle mirrored, each entry rounded half-to-even to a multiple of 2^-bits (exact: float * 2^bits)
    upper = np.triu(S)
    Z = flint.fmpz_mat(q, q, [int(x) for x in np.rint((upper + np.triu(S, 1).T) * scale).ravel()])
    # H = Z / 2^bits and B = Bn / b: H > 0 iff Z > 0, and H - B^T H B > 0 iff b^2 Z - Bn^T Z Bn > 0 (positive
    # scalings), decided in integers
    Bn, b = B.numer_denom()
    if _positive_definite_integer(Z) and _positive_definite_integer(Z * (b * b) - Bn.transpose() * Z * Bn):
        return flint.fmpq_mat(Z) * flint.fmpq(1, scale)
    return None


def _float_mul(X: NDArray[np.float64], Y: NDArray[np.float64]) -> NDArray[np.float64]:
    product: NDArray[np.float64] = X @ Y
    return product


def _transpose(X: np.ndarray) -> NDArray[np.float64]:
    return np.transpose(np.asarray(X, dtype=np.float64))


def stein_solution(B: flint.fmpq_mat) -> flint.fmpq_mat | None:
    """The exact ``H`` with ``H - BᵀHB = I``, or ``None`` when the equation is singular (``λμ = 1`` for two
    eigenvalues of ``B``).

    With ``p(x) = Σ_k p_k x^k`` the characteristic polynomial of ``B`` (degree ``q``) and ``A = Bᵀ``, the
    operator ``L(X) = X - AXB`` satisfies ``p̃(A) X = Σ_{j<q} A^j Z_j L(X) B^j`` with ``p̃(x) = x^q p(1/x)``
    and ``Z_j = Σ_{k>j} p_k A^{q-k}`` (``(p(μ) - p(1/a))/(μ - 1/a)`` evaluated at the commuting left and right
    multiplications, ``p(B) = 0``), so ``H = p̃(A)^{-1} Σ_j A^j Z_j B^j``: ``O(q)`` products and one ``q x q``
    solve instead of the ``q² x q²`` system; ``p̃(A)`` is singular exactly when ``L`` is.  The result is
    checked exactly (``H - BᵀHB = I``), with the ``q² x q²`` system (:func:`stein_solution_by_vec`) as the route
    of last resort.

    Examples
    --------
    >>> stein_solution(flint.fmpq_mat([[flint.fmpq(1, 2), 1], [0, flint.fmpq(1, 3)]])).tolist()
    [[4/3, 4/5], [4/5, 129/40]]
    >>> stein_solution(flint.fmpq_mat([[2, 0], [0, flint.fmpq(1, 2)]])) is None   # 2 * 1/2 = 1
    True
    """
    q = B.nrows()
    if q == 0:
        return flint.fmpq_mat(0, 0)
    p = B.charpoly().coeffs()  # p_0 .. p_q, monic
    A = B.transpose()
    Z = [identity(q)] * q  # Z[q - 1] = p_q A^0 = I
    power = identity(q)  # A^(q - 1 - j) at step j
    for j in range(q - 2, -1, -1):
        power = power * A
        Z[j] = Z[j + 1] + power * p[j + 1]
    reversed_p = Z[0] + power * A * p[0]  # p~(A) = sum_k p_k A^(q-k)
    W = Z[q - 1]
    for j in range(q - 2, -1, -1):  # Horner: W = sum_j A^j Z_j B^j
        W = Z[j] + A * W * B
    try:
        H = reversed_p.solve(W)
    except ZeroDivisionError:
        return None
    if H - A * H * B != identity(q):  # pragma: no cover - the identity above is exact
        return stein_solution_by_vec(B)
    return H


def stein_solution_by_vec(B: flint.fmpq_mat) -> flint.fmpq_mat | None:
    """The exact ``H`` with ``H - BᵀHB = I`` from the ``q² x q²`` linear system (vec trick), or ``None`` when singular."""
    q = B.nrows()
    size = q * q
    L = flint.fmpq_mat(size, size)
    for i in range(q):
        for j in range(q):
            row = i * q + j
            L[row, row] += 1
            for k in range(q):
                if B[k, i] == 0:
                    continue
                for l_ in range(q):
                    if B[l_, j] != 0:
                        L[row, k * q + l_] -= B[k, i] * B[l_, j]
    rhs = flint.fmpq_mat(size, 1)
    for i in range(q):
        rhs[i * q + i, 0] = 1
    try:
        hvec = L.solve(rhs)
    except ZeroDivisionError:
        return None
    return flint.fmpq_mat(q, q, [hvec[t, 0] for t in range(size)])


def positive_definite(H: flint.fmpq_mat) -> bool:
    """Whether the symmetric ``H`` is positive definite (every leading minor positive).

    The leading minors of ``H`` scaled to integers are the pivots of one fraction-free LU (Bareiss) when it makes
    no row exchange; when it makes one (a zero leading minor along the way) they are computed one by one.

    >>> positive_definite(flint.fmpq_mat([[2, 1], [1, 1]])), positive_definite(flint.fmpq_mat([[1, 2], [2, 1]]))
    (True, False)
    >>> positive_definite(flint.fmpq_mat([[0, 1], [1, 2]]))
    False
    """
    return _positive_definite_integer(H.numer_denom()[0])  # a positive common denominator: the same signs of minors


def _positive_definite_integer(Z: flint.fmpz_mat) -> bool:
    """:func:`positive_definite` of a symmetric integer matrix."""
    q = Z.nrows()
    if q == 0:
        return True
    perm, _, _, U = Z.fflu()
    if perm.is_one():
        return all(U[k, k] > 0 for k in range(q))
    rows = Z.tolist()
    return all(flint.fmpz_mat([row[:k] for row in rows[:k]]).det() > 0 for k in range(1, q + 1))


def power_norm_certificate(A: flint.fmpq_mat, *, max_doublings: int = 16) -> str | None:
    """Certificate for large quotients: a ``k`` with ``‖A^k‖∞ < 1``, bounded rigorously in ball arithmetic.

    Then ``‖x‖_q = sum_{i<k} γ^{-i} ‖A^i x‖∞`` with ``γ = ‖A^k‖∞^{1/k} < 1`` is a norm in which
    ``A`` contracts by ``γ`` (``thm:quotient_contraction``).  ``None`` when certified.
    """
    old = flint.ctx.prec
    flint.ctx.prec = 256
    try:
        M = flint.arb_mat(A.nrows(), A.ncols(), [flint.arb(x) for x in A.entries()])
        k = 1
        for _ in range(max_doublings + 1):
            bound = max(sum((abs(M[i, j]) for j in range(M.ncols())), flint.arb(0)).upper() for i in range(M.nrows()))
            if bound < 1:
                return None
            M = M * M
            k *= 2
        return f"no power A^k with k <= 2^{max_doublings} has a certified infinity norm below 1"
    finally:
        flint.ctx.prec = old
