"""Exact solutions of the phase-coupled transient systems by numeric–symbolic lifting.

The phase basis needs, on each transient block ``S`` (``m`` states) and for each period ``d``,
the exact solution of ``x_k - Q x_{k+1} = c_k`` (``k`` mod ``d``) with small right-hand sides
(probabilities of entering a cyclic class).  Its answers are large (thousands of bits: the
denominators carry ``det(I - Q^d)``) while the matrix is sparse and small-entried, so the work is
in producing digits.  Here they come from floats: with the rows scaled to integers
(``A x = b``, ``A`` sparse, entries below ``2^20``),

- ``y_i = round(2^32 A^{-1} R_i)`` by a float solve (factored once: a sparse LU of ``I - Q``, or for
  ``d > 1`` of ``I - ωQ`` over the ``d``-th roots of unity, when its fill is small, else a dense LU of
  ``I - Q^d``; the other phases by back-substitution),
- ``R_{i+1} = 2^32 R_i - A y_i`` exactly (machine integers, sparse; ``R`` stays small because the
  float solve is accurate to far more than 32 bits on these well-conditioned M-matrices),

so that ``A (Σ_i 2^{32(K-1-i)} y_i) = 2^{32K} b - R_K`` holds exactly after ``K`` steps and the
sum is ``x`` to ``32K`` bits.  The common denominator is then read off one entry by continued
fractions, every entry rounded to it, and the result **verified exactly** (``A N = D b`` in
integers): nothing about the floats is trusted.  Any doubt — a float solve that does not
contract the residual, entries too large for machine integers, a failed verification — returns
``None`` and the caller takes the p-adic route (python-flint's Dixon solver).  This is the
numeric–symbolic iteration of Wan (*Computing the rational solution of a linear system*, 2006),
specialised to the phase systems so that ``I - Q^d`` is factored in floats only.  The factorisation's
``log2 |det|`` bounds the denominator's size and schedules the reconstruction attempts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from math import lcm
from typing import NamedTuple

import flint
import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

__all__ = ["lift_phase_system", "lift_sparse_system"]

_ALPHA = 32  # bits per step: one uint32 digit
_WIDE = 48  # bits per step when the float solution is below 2^(52 - 48): 2^48 |x| stays exact, a third fewer steps
_MAX_ENTRY = 2**20  # scaled matrix and right-hand-side entries (keeps A y inside 64-bit words)
_MAX_X = 2.0**19  # |float solution| bound: 2^32 |x| stays exactly representable (< 2^53)
_MAX_R = 2**40  # residual bound: beyond it the float solve is not contracting
_SMALL_X = 2.0**16  # the digit lifting starts once the remaining solution A^{-1} R is below this


def lift_phase_system(Q_rows: Sequence[Sequence[tuple[int, flint.fmpq]]], C: Sequence[Sequence[Sequence[flint.fmpq]]],
                      d: int, mean: tuple[list[flint.fmpz], flint.fmpz] | None = None
                      ) -> tuple[list[list[list[flint.fmpz]]], flint.fmpz] | None:
    """``x_0 .. x_{d-1}`` with ``x_k = Q x_{k+1} + C_k`` (``x_d = x_0``), exactly, or ``None``.

    ``Q_rows[a]`` lists ``(b, Q_ab)`` inside the block, ``C[k]`` is ``m x c`` (rows of ``fmpq``).  ``mean``, when
    known, is ``Σ_k x_k = (I - Q)^{-1} Σ_k C_k`` (for the phase basis: the absorption probabilities, solved
    before) as numerators, row by row, over one denominator: the ``I - Q`` component of ``x_0`` then needs no
    lifting of its own (:func:`_mean_component`; a wrong ``mean`` fails the final exact check).
    Returns ``(nums, den)`` with ``x_k[a][j] = nums[k][a][j] / den``: one common denominator for
    every entry, so that sums over the answer run on integers and are cancelled once (making a
    canonical ``fmpq`` costs a gcd of the answer's size, per entry).  The answer satisfies the
    system exactly (checked in integer arithmetic before it is returned); ``None`` means the
    lifting did not apply, never a wrong answer.

    Examples
    --------
    >>> q = flint.fmpq
    >>> Q = [[(1, q(1, 2))], [(0, q(1, 3))]]
    >>> nums, den = lift_phase_system(Q, [[[q(1, 2)], [q(2, 3)]], [[q(0)], [q(0)]]], 2)
    >>> [[str(q(v[0], den)) for v in Xk] for Xk in nums]  # x_0 = Q x_1 + c_0, x_1 = Q x_0
    [['3/5', '4/5'], ['2/5', '1/5']]
    """
    m = len(Q_rows)
    c = len(C[0][0]) if m else 0
    if m == 0 or c == 0:
        return None
    scaled = _integer_rows(Q_rows)
    if scaled is None:
        return None
    if d in _COMPONENTS:
        split = _lift_by_components(Q_rows, C, d, scaled, mean)
        if split is not None:
            return split
    L, Qz, Qf = scaled
    rhs, rhs_den = _integer_rhs([row for k in range(d) for row in C[k]], np.tile(L, d))
    factored = _phase_float_solver(Qf, d, c)
    if factored is None:
        return None
    Lf = L.astype(np.float64)[None, :, None]
    phase_solve = factored.solve
    # the integer system is the d m x d m block-cyclic one with rows scaled by L: det = Π L^d det(I - Q^d)
    log2_det = d * float(np.log2(L.astype(np.float64)).sum()) + factored.log2_det
    y = _solve_integer(L, Qz, rhs, lambda Rf: phase_solve(Rf / Lf), d, m, c, log2_det)
    if y is None:
        return None
    nums, den = y
    return [[nums[(k * m + a) * c : (k * m + a + 1) * c] for a in range(m)] for k in range(d)], flint.fmpz(den * rhs_den)


def lift_sparse_system(rows: Sequence[Sequence[tuple[int, flint.fmpq]]], B: Sequence[Sequence[flint.fmpq]]) -> list[list[flint.fmpq]] | None:
    """``X`` with ``A X = B`` for a square sparse ``A`` (``rows[a]`` lists ``(column, A_ab)``), by the
    same lifting with a float LU of ``A`` (sparse when its fill is small, else dense), or ``None``
    (entries too large, no contraction).

    Examples
    --------
    >>> q = flint.fmpq
    >>> X = lift_sparse_system([[(0, q(2)), (1, q(1, 3))], [(1, q(1))]], [[q(1)], [q(3)]])
    >>> [str(row[0]) for row in X]
    ['0', '3']
    """
    m = len(rows)
    c = len(B[0]) if B else 0
    y = _lift_rows(rows, B)
    if y is None:
        return None
    x = _fractions(y, 1)
    return [x[a * c : (a + 1) * c] for a in range(m)]


def _lift_rows(rows: Sequence[Sequence[tuple[int, flint.fmpq]]], B: Sequence[Sequence[flint.fmpq]],
               solver: Callable[[np.ndarray, int], FloatSolver | None] | None = None) -> tuple[list[flint.fmpz], flint.fmpz] | None:
    """:func:`lift_sparse_system`'s answer as numerators (row by row) over one denominator, not cancelled;
    ``solver(scale, columns)``, when given, makes the float solver of the row-scaled integer matrix
    (instead of a sparse LU of it)."""
    m = len(rows)
    c = len(B[0]) if B else 0
    if m == 0 or c == 0:
        return None
    scaled = _integer_rows(rows)
    if scaled is None:
        return None
    scale, Az, _ = scaled
    factored = _float_solver(Az.astype(np.float64), c) if solver is None else solver(scale, c)
    if factored is None:
        return None
    rhs, rhs_den = _integer_rhs(B, scale)
    # A_z written as diag(L) - Qz with L = 0 and Qz = -A_z: the phase machinery with d = 1
    float_solve = factored.solve
    y = _solve_integer(np.zeros(m, dtype=np.int64), -Az, rhs, lambda Rf: float_solve(Rf[0])[None], 1, m, c,
                       factored.log2_det)
    if y is None:
        return None
    return [flint.fmpz(v) for v in y[0]], flint.fmpz(y[1]) * rhs_den


def _linearised_solver(Qf: sp.csr_matrix, e: int) -> Callable[[np.ndarray, int], FloatSolver | None]:
    """Float solver of ``Φ_e(Q)`` linearised on ``(u, v = Qu)`` (:func:`_component_rows`, ``e`` = 3 or 4), rows
    scaled by ``scale``: ``u = M^{-1} (r_1 - Q r_2)``, ``v = r_2 + Q u`` with the ``m x m`` real factor
    ``M = Φ_e(Q) = I + [Q] + Q^2`` (its determinant is the block matrix's)."""
    m = Qf.shape[0]
    eye = sp.identity(m, format="csr")

    def make(scale: np.ndarray, columns: int) -> FloatSolver | None:
        M = eye + Qf @ Qf + (Qf if e == 3 else 0 * eye)
        lu = _sparse_lu(M, m * m / _SPARSE_PENALTY, columns)
        if lu is None:
            return None
        s = scale.astype(np.float64)[:, None]

        def solve(R: np.ndarray) -> np.ndarray:
            Rs = R / s
            u = lu.solve(Rs[:m] - Qf @ Rs[m:])
            return np.concatenate([u, Rs[m:] + Qf @ u])

        return FloatSolver(solve, float(np.log2(s).sum()) + _log2_det(lu))

    return make


_COMPONENTS: dict[int, tuple[tuple[int, tuple[flint.fmpq, ...]], ...]] = {
    2: ((1, (flint.fmpq(1, 2),)), (2, (flint.fmpq(1, 2),))),
    3: ((1, (flint.fmpq(1, 3),)), (3, (flint.fmpq(2, 3), flint.fmpq(1, 3)))),
    4: ((1, (flint.fmpq(1, 4),)), (2, (flint.fmpq(1, 4),)), (4, (flint.fmpq(1, 2),))),
}
"""Partial fractions ``1/(1 - z^d) = Σ_{e | d} A_e(z) / Φ_e(z)`` over the cyclotomic polynomials
(``Φ_1 = 1 - z`` here, ``Φ_2 = 1 + z``, ``Φ_3 = 1 + z + z^2``, ``Φ_4 = 1 + z^2``): ``(e, A_e's coefficients,
lowest degree first)``.  E.g. ``1/(1 - z^4) = (1/4)/(1 - z) + (1/4)/(1 + z) + (1/2)/(1 + z^2)``."""


def _component_rows(Q_rows: Sequence[Sequence[tuple[int, flint.fmpq]]], e: int) -> list[list[tuple[int, flint.fmpq]]]:
    """``Φ_e(Q)`` as sparse rows with the entries of ``Q`` (``Φ_3``, ``Φ_4`` linearised on ``(u, v = Qu)``:
    ``2m`` rows ``u + [Qu] + Qv = y``, ``v - Qu = 0``), so that the integer rows stay small."""
    m = len(Q_rows)
    one = flint.fmpq(1)

    def merged(a: int, entries: list[tuple[int, flint.fmpq]]) -> list[tuple[int, flint.fmpq]]:
        row = {a: one}
        for b, q in entries:
            row[b] = row[b] + q if b in row else q
        return [(b, q) for b, q in row.items() if q != 0]

    if e == 1:
        return [merged(a, [(b, -q) for b, q in row]) for a, row in enumerate(Q_rows)]
    if e == 2:
        return [merged(a, list(row)) for a, row in enumerate(Q_rows)]
    top = [merged(a, ([(b, q) for b, q in row] if e == 3 else []) + [(m + b, q) for b, q in row]) for a, row in enumerate(Q_rows)]
    return top + [merged(m + a, [(b, -q) for b, q in row]) for a, row in enumerate(Q_rows)]


def _lift_by_components(Q_rows: Sequence[Sequence[tuple[int, flint.fmpq]]], C: Sequence[Sequence[Sequence[flint.fmpq]]], d: int,
                        scaled: tuple[np.ndarray, sp.csr_matrix, sp.csr_matrix],
                        mean: tuple[list[flint.fmpz], flint.fmpz] | None = None
                        ) -> tuple[list[list[list[flint.fmpz]]], flint.fmpz] | None:
    """:func:`lift_phase_system` through the cyclotomic components: ``x_0 = (I - Q^d)^{-1} y`` with
    ``y = Σ_j Q^j C_j`` is ``Σ_e A_e(Q) u_e`` with ``Φ_e(Q) u_e = y`` (:data:`_COMPONENTS`), each ``u_e``
    lifted on its own sparse matrix (``I - Q``, ``I + Q``, ...: sparse factors, and digits for
    ``det Φ_e(Q)`` alone, where lifting ``x_0`` itself takes digits for all of ``det(I - Q^d)`` through
    every factor at each step); ``x_{d-1} .. x_1`` by exact back-substitution, and ``x_0 = C_0 + Q x_1``
    checked in integers.  With ``mean`` the ``I - Q`` component comes from it (:func:`_mean_component`).  ``None``
    when a component does not lift."""
    m, c = len(Q_rows), len(C[0][0])
    y = [list(row) for row in C[d - 1]]
    for k in range(d - 2, -1, -1):  # Horner, exactly: y = C_k + Q y
        y = [[C[k][a][j] + sum((q * y[b][j] for b, q in row), flint.fmpq(0)) for j in range(c)] for a, row in enumerate(Q_rows)]
    parts: list[tuple[tuple[flint.fmpq, ...], list[flint.fmpz], flint.fmpz]] = []
    for e, coefficients in _COMPONENTS[d]:
        if e == 1 and mean is not None:
            parts.append((coefficients, *_mean_component(Q_rows, C, d, mean)))
            continue
        rows = _component_rows(Q_rows, e)
        zero = [flint.fmpq(0)] * c
        lifted = _lift_rows(rows, y + [zero] * (len(rows) - m), _linearised_solver(scaled[2], e) if e > 2 else None)
        if lifted is None:
            return None
        parts.append((coefficients, *lifted))
    den = flint.fmpz(1)
    for _, _, de in parts:
        den = den.lcm(de)
    # x_0 = Σ_e Σ_t a_{e,t} (Q^t u_e), Q^t u_e being rows t m .. (t+1) m of the component's answer
    scale = flint.fmpz(1)
    for coefficients, _, _ in parts:
        for a_t in coefficients:
            scale = scale.lcm(a_t.q)
    N0 = [flint.fmpz(0)] * (m * c)
    for coefficients, nums, de in parts:
        cof = den // de
        for t, a_t in enumerate(coefficients):
            w = a_t.p * (scale // a_t.q) * cof
            block = nums[t * m * c : (t + 1) * m * c]
            N0 = [x + w * v for x, v in zip(N0, block)]
    return _phases_from_x0(scaled, C, d, m, c, N0, den * scale)


def _mean_component(Q_rows: Sequence[Sequence[tuple[int, flint.fmpq]]], C: Sequence[Sequence[Sequence[flint.fmpq]]], d: int,
                    mean: tuple[list[flint.fmpz], flint.fmpz]) -> tuple[list[flint.fmpz], flint.fmpz]:
    """``u_1 = (I - Q)^{-1} Σ_j Q^j C_j`` from ``mean = (I - Q)^{-1} Σ_j C_j`` without a solve: ``(I - Q)^{-1} Q^j =
    (I - Q)^{-1} - (I + Q + .. + Q^{j-1})``, so ``u_1 = mean - Σ_{t <= d-2} Q^t D_t`` with ``D_t = Σ_{j > t} C_j``
    (by Horner, exactly); as numerators over one denominator, row by row."""
    m, c = len(Q_rows), len(C[0][0])
    tails = [[[flint.fmpq(0)] * c for _ in range(m)] for _ in range(d)]  # tails[t] = D_t
    for t in range(d - 2, -1, -1):
        nxt = tails[t + 1] if t + 1 < d - 1 else None
        tails[t] = [[C[t + 1][a][j] + (nxt[a][j] if nxt is not None else 0) for j in range(c)] for a in range(m)]
    z = tails[d - 2]
    for t in range(d - 3, -1, -1):  # z = D_t + Q z
        z = [[tails[t][a][j] + sum((q * z[b][j] for b, q in row), flint.fmpq(0)) for j in range(c)] for a, row in enumerate(Q_rows)]
    flat = [v for row in z for v in row]
    z_den = flint.fmpz(1)
    for v in flat:
        if z_den % v.q:
            z_den = z_den.lcm(v.q)
    den = mean[1] if not mean[1] % z_den else mean[1].lcm(z_den)
    cof_mean, cof_z = den // mean[1], den // z_den
    return [u * cof_mean - v.p * (cof_z * (z_den // v.q)) for u, v in zip(mean[0], flat)], den


def _phases_from_x0(scaled: tuple[np.ndarray, sp.csr_matrix, sp.csr_matrix], C: Sequence[Sequence[Sequence[flint.fmpq]]], d: int, m: int,
                    c: int, N0: list[flint.fmpz], den0: flint.fmpz) -> tuple[list[list[list[flint.fmpz]]], flint.fmpz] | None:
    """``x_k = C_k + Q x_{k+1}`` for ``k = d-1 .. 1`` from ``x_0 = N0 / den0`` in integers (``Q = Qz / L`` by
    rows, ``C = Cz / cden``: each phase's denominator is the next one's times ``cden lcm(L)``), all phases
    over phase 1's denominator; ``None`` unless ``x_0 = C_0 + Q x_1`` holds exactly."""
    L, Qz, _ = scaled
    indptr, indices, data = Qz.indptr.tolist(), Qz.indices.tolist(), [flint.fmpz(v) for v in Qz.data.tolist()]
    Lcm = flint.fmpz(1)
    for v in set(L.tolist()):
        Lcm = Lcm.lcm(v)
    lcof = [Lcm // v for v in L.tolist()]
    cden = flint.fmpz(1)
    for k in range(d):
        for row in C[k]:
            for v in row:
                if cden % v.q:
                    cden = cden.lcm(v.q)
    Cz = [[[v.p * (cden // v.q) for v in row] for row in C[k]] for k in range(d)]

    def step(k: int, N: list[flint.fmpz], D: flint.fmpz) -> list[flint.fmpz]:
        """Numerators of ``C_k + Q x`` over ``cden Lcm D`` for ``x = N / D``."""
        out = []
        for a in range(m):
            for j in range(c):
                acc = flint.fmpz(0)
                for e in range(indptr[a], indptr[a + 1]):
                    acc += data[e] * N[indices[e] * c + j]
                out.append(Cz[k][a][j] * Lcm * D + lcof[a] * cden * acc)
        return out

    grow = cden * Lcm
    phases = {0: (N0, den0)}
    N, D = N0, den0
    for k in range(d - 1, 0, -1):
        N, D = step(k, N, D), grow * D
        phases[k] = (N, D)
    top = phases[1][1] if d > 1 else den0
    if step(0, phases[1 % d][0], phases[1 % d][1]) != [v * (grow * phases[1 % d][1] // den0) for v in N0]:
        return None
    out = []
    for k in range(d):
        Nk, Dk = phases[k]
        f = top // Dk
        out.append([[Nk[a * c + j] * f if f != 1 else Nk[a * c + j] for j in range(c)] for a in range(m)])
    return out, top


def _solve_integer(L: np.ndarray, Qz: sp.csr_matrix, rhs: list[int], float_solve: Callable[[np.ndarray], np.ndarray], d: int, m: int,
                   c: int, log2_det: float) -> tuple[list[flint.fmpz], int] | None:
    """``y = nums / den`` with ``A y = rhs`` exactly (``A = diag(L) - Qz`` on phases): a large
    right-hand side reduced by integer steps, then the digit lifting; ``float_solve`` maps an integer
    residual (as floats, shape ``(d, m, c)``) to an approximate ``A^{-1} R``; ``None`` if it fails."""
    head = _reduce_rhs(L, Qz, rhs, float_solve, d, m, c)
    if head is None:
        return None
    whole, R = head
    # Hadamard: the common denominator divides det of the d m x d m integer system, so it has at most
    # H bits, the numerators H plus the answer's magnitude: past 2 H + slack digits, give up
    row_norms = np.sqrt(L.astype(np.float64) ** 2 + np.asarray(Qz.multiply(Qz).sum(axis=1), dtype=np.float64).ravel())
    hadamard = d * float(np.log2(np.maximum(row_norms, 1.0)).sum())
    # the denominator divides det A: reconstruction should succeed from about 2 log2|det A| bits
    expected = int(2 * log2_det) + 128 if np.isfinite(log2_det) else None
    tail = _lift(L, Qz, R, float_solve, d, max_bits=int(2 * hadamard) + 512, expected_bits=expected)
    if tail is None:
        return None
    N, den = tail
    return [w * den + n if w else n for w, n in zip(whole, N)], den


def _integer_rows(rows: Sequence[Sequence[tuple[int, flint.fmpq]]]) -> tuple[np.ndarray, sp.csr_matrix, sp.csr_matrix] | None:
    """Each row scaled by the lcm ``L_a`` of its denominators: ``(L, Z, F)`` with ``Z`` the integer
    rows (``Z_ab = L_a M_ab``) and ``F`` the unscaled entries as floats; ``None`` when an ``L_a`` or
    an entry of ``Z`` passes ``2^20`` (then ``A y`` would not stay inside 64-bit words).  Vectorised:
    the lcms by ``np.lcm.reduceat`` once no row's product of denominators can pass 64 bits."""
    m = len(rows)
    counts = np.fromiter((len(row) for row in rows), dtype=np.int64, count=m)
    r_idx = np.repeat(np.arange(m, dtype=np.int64), counts)
    c_idx = np.fromiter((b for row in rows for b, _ in row), dtype=np.int64, count=int(counts.sum()))
    ps = [int(v.p) for row in rows for _, v in row]
    qs = [int(v.q) for row in rows for _, v in row]
    if max(qs, default=1) > _MAX_ENTRY or max(map(abs, ps), default=0) > _MAX_ENTRY:
        return None
    p_arr, q_arr = np.array(ps, dtype=np.int64), np.array(qs, dtype=np.int64)
    L = np.ones(m, dtype=np.int64)
    full = counts > 0
    if full.any():
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))[full]
        # np.lcm could wrap in a row whose product of denominators passes 64 bits (a state with 729
        # successors of 1/729 in leader6_3): those rows take Python's lcm of their distinct denominators
        wide = np.add.reduceat(np.log2(q_arr.astype(np.float64)), starts) > 60
        L[full] = np.lcm.reduceat(q_arr, starts) if not wide.all() else 1
        if wide.any():
            ends = np.concatenate((starts[1:], [len(q_arr)]))
            rows_full = np.flatnonzero(full)
            for r in np.flatnonzero(wide).tolist():
                row_lcm = lcm(*set(qs[starts[r] : ends[r]]))
                if row_lcm > _MAX_ENTRY:
                    return None
                L[rows_full[r]] = row_lcm
    if L.max(initial=1) > _MAX_ENTRY:
        return None
    num = p_arr * (L[r_idx] // q_arr)
    if np.abs(num).max(initial=0) > _MAX_ENTRY:
        return None
    Z = sp.csr_matrix((num, (r_idx, c_idx)), shape=(m, m))
    F = sp.csr_matrix((p_arr / q_arr, (r_idx, c_idx)), shape=(m, m))
    return L, Z, F


class FloatSolver(NamedTuple):
    """``solve(R) ≈ A^{-1} R`` in floats, and ``log2 |det A|`` from the same factorisation."""

    solve: Callable[[np.ndarray], np.ndarray]
    log2_det: float


_SPARSE_PENALTY = 1.5
"""A sparse triangular solve costs about this many dense-LU entries per stored entry (CPU time, five
right-hand sides: fill 3.9e4 in 0.29 ms against a dense 765^2 LU in 5.4 ms; fill 3.8e5 in 2.5 ms against
a dense 2527^2 LU in 24 ms, so between 0.8 and 1.8)."""
_PAIR_COST = 3
"""The fill of ``I - 2aQ + Q^2`` (a conjugate pair of roots) against that of ``I - Q`` (measured 2.9 on the
2527-state block)."""


def _log2_det(lu: spla.SuperLU | tuple[np.ndarray, np.ndarray]) -> float:
    """``log2 |det|`` of a factored matrix (SuperLU: ``L`` has a unit diagonal; dense: ``(lu, piv)``)."""
    diagonal = lu.U.diagonal() if isinstance(lu, spla.SuperLU) else np.diag(lu[0])
    with np.errstate(divide="ignore"):
        return float(np.log2(np.abs(diagonal)).sum())


def _dense_solver(dense: np.ndarray) -> FloatSolver | None:
    """A dense float LU, or ``None`` if it is not usable (not finite, a zero pivot)."""
    try:
        with np.errstate(all="ignore"):
            lu = sla.lu_factor(dense, check_finite=True)
    except (ValueError, np.linalg.LinAlgError):
        return None
    if not np.all(np.isfinite(lu[0])) or np.min(np.abs(np.diag(lu[0]))) == 0.0:
        return None
    return FloatSolver(lambda R: sla.lu_solve(lu, R, check_finite=False), _log2_det(lu))


_ORDERINGS = ("MMD_AT_PLUS_A", "COLAMD")
"""Column orderings tried for a large sparse LU: the one whose trial solve is faster is kept.  Their fills are
close, but SuperLU's triangular solves with several right-hand sides differ by up to 4x between them on
one matrix (measured on the 2527-state block at n = 10^4, eight columns: 17 ms against 4.8 ms)."""
_TRIAL_SIZE = 256
"""Blocks from this many states on get the trial of both orderings (below, one factorisation is cheaper
than the trial)."""


def _factor(A: sp.csc_matrix, ordering: str) -> spla.SuperLU | None:
    try:
        with np.errstate(all="ignore"):
            return spla.splu(A, permc_spec=ordering)
    except (RuntimeError, ValueError):  # exactly singular, or not finite
        return None


def _trial_seconds(lu: spla.SuperLU, columns: int) -> float:
    """CPU seconds of the faster of two solves with ``columns`` right-hand sides."""
    y = np.ones((lu.shape[0], columns))
    best = float("inf")
    for _ in range(2):
        t0 = time.process_time()
        lu.solve(y)
        best = min(best, time.process_time() - t0)
    return best


def _sparse_lu(A: sp.spmatrix, budget: float, columns: int = 1) -> spla.SuperLU | None:
    """SuperLU of ``A`` (minimum-degree ordering on ``A + A^T``; on large blocks also COLAMD, keeping the
    one that solves ``columns`` right-hand sides faster), or ``None`` when it fails or its fill passes
    ``budget`` entries (the dense LU is then the cheaper solver).  The choice changes only the speed: every
    answer is verified exactly."""
    A = sp.csc_matrix(A)
    lu = _factor(A, _ORDERINGS[0])
    if lu is None:
        return None
    if A.shape[0] >= _TRIAL_SIZE:
        other = _factor(A, _ORDERINGS[1])
        if other is not None and _trial_seconds(other, columns) < _trial_seconds(lu, columns):
            lu = other
    if lu.L.nnz + lu.U.nnz > budget:
        return None
    return lu


def _float_solver(A: sp.csr_matrix, columns: int = 1) -> FloatSolver | None:
    """``R -> A^{-1} R`` in floats for a square sparse ``A``: sparse LU when its fill is small (the
    transient blocks and classes of sparse chains), else a dense LU; ``None`` if neither factors."""
    m = A.shape[0]
    lu = _sparse_lu(A, m * m / _SPARSE_PENALTY, columns)
    if lu is not None:
        return FloatSolver(lu.solve, _log2_det(lu))
    return _dense_solver(A.toarray())


def _roots_solver(Qf: sp.csr_matrix, d: int, columns: int = 1) -> FloatSolver | None:
    """``y -> (I - Q^d)^{-1} y`` from sparse factors over the ``d``-th roots of unity,
    ``(I - Q^d)^{-1} = (1/d) Σ_ω (I - ω Q)^{-1}`` (``1/(1 - z^d) = (1/d) Σ_ω 1/(1 - ω z)``; every
    ``I - ω Q`` is nonsingular since ``Q``'s spectral radius is below one).  A conjugate pair of roots
    ``ω = a ± ib`` is taken in real arithmetic: ``(I - ωQ)^{-1} + (I - ω̄Q)^{-1} = 2 (I - aQ) M^{-1}`` with
    ``M = (I - ωQ)(I - ω̄Q) = I - 2aQ + Q^2`` (SuperLU's complex factorisation took 14 s on the 2527-state
    block where ``M``'s real one takes 0.5 s).  ``None`` when the factors fill more than a dense LU of
    ``I - Q^d`` would cost to apply."""
    m = Qf.shape[0]
    eye = sp.identity(m, format="csr")
    budget = m * m / _SPARSE_PENALTY
    first = _sparse_lu(eye - Qf, budget, columns)
    if first is None:
        return None
    pairs = (d - 1) // 2
    fill = first.L.nnz + first.U.nnz
    if fill * (1 + (d % 2 == 0) + _PAIR_COST * pairs) > budget:  # a pair's M fills about _PAIR_COST times more
        return None
    terms: list[tuple[spla.SuperLU, sp.csr_matrix | None]] = [(first, None)]
    if d % 2 == 0:
        lu = _sparse_lu(eye + Qf, budget, columns)
        if lu is None:
            return None
        terms.append((lu, None))
    Q2 = Qf @ Qf if pairs else None
    for j in range(1, pairs + 1):
        a = float(np.cos(2 * np.pi * j / d))
        lu = _sparse_lu(eye - 2 * a * Qf + Q2, budget, columns)
        if lu is None:
            return None
        terms.append((lu, (eye - a * Qf) * 2.0))
    if sum(lu.L.nnz + lu.U.nnz for lu, _ in terms) > budget:
        return None

    def solve(y: np.ndarray) -> np.ndarray:
        total = np.zeros(y.shape)
        for lu, post in terms:
            x = lu.solve(y)
            total += x if post is None else post @ x
        return total / d

    # det(I - Q^d) = Π_ω det(I - ωQ), a conjugate pair's product being det M
    return FloatSolver(solve, sum(_log2_det(lu) for lu, _ in terms))


def _fractions(y: tuple[list[flint.fmpz], int | flint.fmpz], rhs_den: int) -> list[flint.fmpq]:
    """``x = nums / (den D)``, each entry cancelled once."""
    nums, den = y
    total = den * rhs_den
    return [flint.fmpq(v, total) for v in nums]


def _apply(L: np.ndarray, Qz: sp.csr_matrix, Y: np.ndarray) -> np.ndarray:
    """``(A Y)_k = L Y_k - Qz Y_{k+1}`` in int64 (the callers keep it far from overflow)."""
    d = Y.shape[0]
    return np.stack([L[:, None] * Y[k] - Qz @ Y[(k + 1) % d] for k in range(d)])


def _integer_rhs(rows: Sequence[Sequence[flint.fmpq]], scale: np.ndarray) -> tuple[list[int], int]:
    """``(L_a D b_a)`` flattened row by row, and ``D`` the lcm of every denominator (any size): the
    right-hand side of the scaled system ``A (D x) = L D b``.  (The lcm on GMP integers: the bias's
    right-hand side has thousands of distinct denominators of tens of thousands of bits.)"""
    den = flint.fmpz(1)
    seen = set()
    for row in rows:
        for v in row:
            q = v.q
            if q not in seen:
                seen.add(q)
                den = den.lcm(q)
    s = scale.tolist()
    return [int(v.p * (den // v.q)) * s[a] for a, row in enumerate(rows) for v in row], int(den)


_WINDOW = 1024
"""Bits of the residual the refinement steps work on at a time (the lower bits wait unchanged); 1,024 against
4,096: the bias on the n = 3,000 bar chain 1.07 s against 1.18-1.29 s CPU (a 12,308-bit right-hand side)."""


def _reduce_rhs(L: np.ndarray, Qz: sp.csr_matrix, rhs: list[int], float_solve: Callable[[np.ndarray], np.ndarray], d: int, m: int,
                c: int) -> tuple[list[int], np.ndarray] | None:
    """A large right-hand side brought down: ``y = Y + A^{-1} R`` with ``Y`` integers and ``|A^{-1} R|``
    below ``2^16`` (so the digit lifting's first step fits in 53 bits).

    Each step takes ``Y += round(A^{-1} R)`` from a float solve (53 significant bits, so ``R``
    loses about 45 bits a step) and updates ``R -= A round(...)`` exactly in Python integers.
    A step changes only ``R``'s top bits, so ``R = hi 2^B + lo`` is kept split and the steps touch
    ``hi`` alone (a window of a few thousand bits), and ``Y``'s increments are summed per window:
    the work is the answer's size per window, not per step.
    Returns ``(Y, R)`` (``R`` as int64, shape ``(d, m, c)``) or ``None`` if ``R`` stops shrinking."""
    low = (1 << 26) - 1
    R = list(rhs)
    whole = [0] * len(R)
    base, hi, lo, part = 0, R, [0] * len(R), [0] * len(R)

    def open_window(below: int) -> None:
        """Fold the window back into ``R`` and ``Y``, and split ``R`` at ``2^base`` with ``base < below``."""
        nonlocal base, hi, lo, part, whole, R
        R = [(h << base) + g for h, g in zip(hi, lo)] if base else hi
        whole = [w + (p << base) for w, p in zip(whole, part)]
        base = max(0, below - _WINDOW)
        hi = [r >> base for r in R] if base else R
        lo = [r - (h << base) for r, h in zip(R, hi)] if base else [0] * len(R)
        part = [0] * len(R)

    open_window(_bits(R) - 128)
    while True:
        top = base + _bits(hi)
        shift = max(0, top - 60)
        if base and shift - base < 128:  # the window is used up: the next one below
            open_window(shift - 128)
            continue
        Rs = np.array([h >> (shift - base) for h in hi], dtype=np.float64).reshape(d, m, c)
        with np.errstate(all="ignore"):
            Xf = float_solve(Rs)  # ≈ A^{-1} R / 2^shift
        biggest = float(np.abs(Xf).max(initial=0.0))
        if not np.isfinite(biggest):
            return None
        if top <= 62 and biggest * 2.0**shift < _SMALL_X:  # the digit lifting takes it from here
            open_window(0)
            return whole, np.array(R, dtype=np.int64).reshape(d, m, c)
        t = max(0, int(np.floor(np.log2(biggest))) - 50 + shift)  # round(A^{-1} R) = M 2^t, |M| < 2^52
        if t < base:  # A^{-1} shrinks R more than the window allows for: widen it downwards
            open_window(t)
            continue
        M = np.rint(Xf * 2.0 ** (shift - t)).astype(np.int64)
        high, low_part = M >> 26, M & low  # M = high 2^26 + low exactly: A high and A low stay far inside int64
        AM = [(h << 26) + g for h, g in zip(_apply(L, Qz, high).ravel().tolist(), _apply(L, Qz, low_part).ravel().tolist())]
        offset = t - base
        hi = [h - (am << offset) for h, am in zip(hi, AM)]
        part = [p + (x << offset) for p, x in zip(part, M.ravel().tolist())]
        if base + _bits(hi) > top - 8:
            return None  # the float solve is not reducing the residual


def _bits(xs: list[int]) -> int:
    """The largest ``bit_length`` in ``xs`` (of the largest magnitude: two C-level passes, no generator)."""
    return max(max(xs), -min(xs)).bit_length() if xs else 0


def _phase_float_solver(Qf: sp.csr_matrix, d: int, columns: int = 1) -> FloatSolver | None:
    """Float solver of the phase system: ``x_0 = (I - Q^d)^{-1} Σ_j Q^j r_j`` (factored once: sparse
    factors over the roots of unity, or a dense LU of ``I - Q^d``), then ``x_k = r_k + Q x_{k+1}``
    for ``k = d-1 .. 1``."""
    m = Qf.shape[0]
    if d == 1:  # a sparse LU of I - Q, or its dense LU
        factored = _float_solver(sp.identity(m, format="csr") - Qf, columns)
    else:  # sparse factors over the roots of unity, or a dense LU of I - Q^d
        factored = _roots_solver(Qf, d, columns)
        if factored is None:
            power = Qf
            for _ in range(d - 1):
                power = power @ Qf
            factored = _dense_solver(np.eye(m) - power.toarray())
    if factored is None:
        return None
    core = factored.solve

    def solve(Rf: np.ndarray) -> np.ndarray:
        y = Rf[d - 1]
        for k in range(d - 2, -1, -1):
            y = Rf[k] + Qf @ y
        X = np.empty_like(Rf)
        X[0] = core(y)
        nxt = X[0]
        for k in range(d - 1, 0, -1):
            X[k] = Rf[k] + Qf @ nxt
            nxt = X[k]
        return X

    return FloatSolver(solve, factored.log2_det)


def _spmv_wrapping(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """``A Y`` modulo ``2^64`` (uint64: wrapping is exact modular arithmetic; the true results the
    callers need are small, so they come out exactly)."""
    products = data[:, None] * Y[indices]
    cs = np.zeros((len(indices) + 1, Y.shape[1]), dtype=np.uint64)
    np.cumsum(products, axis=0, dtype=np.uint64, out=cs[1:])
    wrapped: np.ndarray = cs[indptr[1:]] - cs[indptr[:-1]]
    return wrapped


def _lift(L: np.ndarray, Qz: sp.csr_matrix, Cz: np.ndarray, float_solve: Callable[[np.ndarray], np.ndarray], d: int, max_bits: int,
          expected_bits: int | None = None) -> tuple[list[flint.fmpz], int] | None:
    """``A y = Cz`` for a small right-hand side (int64, ``(d, m, c)``): ``y = N / den``, verified."""
    m, c = Cz.shape[1], Cz.shape[2]
    Lu = L.astype(np.uint64)[:, None]
    indptr, indices, data = Qz.indptr, Qz.indices, Qz.data.astype(np.int64).view(np.uint64)
    if not Cz.any():
        return [flint.fmpz(0)] * (d * m * c), 1
    R = Cz.copy()
    digits = _Digits(d * m * c)
    probe = None
    next_attempt = 512
    while digits.bits < max_bits:
        with np.errstate(all="ignore"):
            Xf = float_solve(R.astype(np.float64))
        biggest = float(np.abs(Xf).max(initial=0.0))
        if not np.isfinite(biggest) or biggest >= _MAX_X:
            return None
        # a wide step when the solution is small (the residual then stays small too: the float solve is
        # accurate to far more than 48 bits on these systems; when it is not, |x| grows and steps narrow)
        alpha = _WIDE if biggest < 2.0 ** (52 - _WIDE) else _ALPHA
        Y = np.rint(Xf * float(2**alpha)).astype(np.int64)
        if probe is None:  # the largest entry: the one most likely to carry the full denominator
            probe = int(np.argmax(np.abs(Y).reshape(-1)))
        Yu = Y.view(np.uint64)
        Ru = R.view(np.uint64) << np.uint64(alpha)
        for k in range(d):
            AY = Lu * Yu[k] - _spmv_wrapping(indptr, indices, data, Yu[(k + 1) % d])
            Ru[k] -= AY
        R = Ru.view(np.int64)
        if np.abs(R).max(initial=0) > _MAX_R:
            return None
        digits.append(Y.reshape(-1), alpha)
        if digits.bits >= next_attempt or digits.bits + _WIDE >= max_bits:
            # attempts grow geometrically (a failed one costs one continued fraction); near the size
            # the determinant predicts (an upper estimate: the row scaling's content is in det A, not
            # in the denominator; measured 0.9 of it) they come closer, so few digits go past the need
            next_attempt = int(digits.bits * 1.25)
            if expected_bits is not None:
                near = int(0.75 * expected_bits)
                next_attempt = min(next_attempt, near) if digits.bits < near else int(digits.bits * 1.05)
            answer = _reconstruct(digits, probe, L, Qz, Cz, d, m, c)
            if answer is not None:
                return answer
    return None


class _Digits:
    """``S = Σ_i 2^{(bits after step i)} y_i`` for every entry (step ``i`` worth ``α_i`` bits, 32 or 48), held as
    Python ints for the older digits and a short list of digit vectors for the newest (folded every ``FOLD``
    steps or when the width changes, so memory stays the size of the answer, not steps x entries machine
    words)."""

    FOLD = 128

    def __init__(self, entries: int) -> None:
        self.folded = [0] * entries
        self.recent: list[np.ndarray] = []
        self.alpha = _ALPHA
        self.bits = 0

    def append(self, y: np.ndarray, alpha: int = _ALPHA) -> None:
        if alpha != self.alpha:
            self._fold()
            self.alpha = alpha
        self.recent.append(y)
        self.bits += alpha
        if len(self.recent) >= self.FOLD:
            self._fold()

    def _fold(self) -> None:
        if self.recent:
            width = self.alpha * len(self.recent)
            self.folded = [(f << width) + v for f, v in zip(self.folded, _combine(self.recent, self.alpha))]
            self.recent = []

    def entry(self, e: int) -> int:
        acc = self.folded[e]
        for y in self.recent:
            acc = (acc << self.alpha) + int(y[e])
        return acc

    def all(self) -> list[int]:
        self._fold()
        return self.folded


def _combine(digits: list[np.ndarray], alpha: int = _ALPHA) -> list[int]:
    """Every entry of ``Σ_i 2^{α(K-1-i)} y_i`` as a Python int (``α`` a multiple of 8): carries normalise the
    digits into ``[0, 2^α)`` (vectorised), the digit strings become ints through ``int.from_bytes``."""
    K, E = len(digits), len(digits[0])
    out = np.empty((K, E), dtype="<u8")
    carry = np.zeros(E, dtype=np.int64)
    mask = (1 << alpha) - 1
    for j, i in enumerate(range(K - 1, -1, -1)):  # least significant first
        v = digits[i] + carry
        out[j] = (v & mask).astype(np.uint64)
        carry = v >> alpha
    size = alpha // 8
    buf = np.ascontiguousarray(np.ascontiguousarray(out.T).view(np.uint8).reshape(E, K, 8)[:, :, :size]).tobytes()
    width = size * K
    top = carry.tolist()
    shift = alpha * K
    return [int.from_bytes(buf[e * width : (e + 1) * width], "little") + (top[e] << shift) for e in range(E)]


_LEHMER_BITS = 60
"""Leading bits of the continued fraction's pair that Lehmer's steps work on in machine-size integers."""


def _convergent_denominator(num: int, den: int, max_den: int) -> int:
    """The denominator of the last continued-fraction convergent of ``num / den`` (``den > 0``) not
    above ``max_den``.  A fraction ``p/q`` with ``|x - p/q| < 1/(2q^2)`` is a convergent of ``x``
    (Legendre), so with enough digits this is the answer's denominator.  Only the denominators are
    carried, and the partial quotients come from the pair's leading bits in small integers (Lehmer's
    steps, Knuth's Algorithm 4.5.2L: a quotient is taken only when both ends of the leading bits' interval
    give it, so each is the true one), the large numbers updated once per batch of a dozen or so quotients:
    one large-integer ``divmod`` a quotient cost a third of a 23,000-bit lifting's reconstruction.

    Examples
    --------
    >>> _convergent_denominator(355, 113, 1000), _convergent_denominator(-1, 3, 10), _convergent_denominator(314159, 100000, 10)
    (113, 3, 7)
    >>> x = 3**400
    >>> _convergent_denominator(x // 7 * 2**200 + 12345, x * 2**200, 10**60)   # the 400-digit pair leaves 7 in sight
    7
    """
    n, d = num % den, den  # the integer part changes no denominator
    q0, q1 = 0, 1  # denominators of the convergents before the current one
    while n:
        quotients = _leading_quotients(d, n) if d.bit_length() > 2 * _LEHMER_BITS else None
        if quotients is None:  # a plain step (small numbers, or the leading bits decide no quotient)
            a, r = divmod(d, n)
            q2 = a * q1 + q0
            if q2 > max_den:
                break
            q0, q1 = q1, q2
            d, n = n, r
            continue
        (A, B, C, D), batch = quotients
        c00, c01, c10, c11 = 1, 0, 0, 1  # (q_prev, q_cur) = (c00 q0 + c01 q1, c10 q0 + c11 q1)
        for a in batch:
            c00, c01, c10, c11 = c10, c11, a * c10 + c00, a * c11 + c01
        top = c10 * q0 + c11 * q1
        if top > max_den:  # the bound falls inside this batch: replay it quotient by quotient
            for a in batch:
                q2 = a * q1 + q0
                if q2 > max_den:
                    return q1
                q0, q1 = q1, q2
            raise AssertionError("unreachable: the batch passed the bound")  # pragma: no cover
        q0, q1 = c00 * q0 + c01 * q1, top
        d, n = A * d + B * n, C * d + D * n
    return q1


def _leading_quotients(d: int, n: int) -> tuple[tuple[int, int, int, int], list[int]] | None:
    """Lehmer's inner loop on the leading bits of ``d > n > 0``: the partial quotients it can vouch for and the
    cofactors ``(A, B, C, D)`` with ``(d', n') = (A d + B n, C d + D n)`` after them (``None`` when none)."""
    k = d.bit_length() - _LEHMER_BITS
    x, y = d >> k, n >> k
    A, B, C, D = 1, 0, 0, 1
    quotients = []
    while y + C and y + D:
        a = (x + A) // (y + C)
        if a != (x + B) // (y + D):
            break
        A, B, C, D = C, D, A - a * C, B - a * D
        x, y = y, x - a * y
        quotients.append(a)
    return ((A, B, C, D), quotients) if quotients else None


def _reconstruct(digits: _Digits, probe: int, L: np.ndarray, Qz: sp.csr_matrix, Cz: np.ndarray, d: int, m: int,
                 c: int) -> tuple[list[flint.fmpz], int] | None:
    """The exact answer from the digits so far, or ``None`` when more are needed."""
    shift = digits.bits
    # |x - S / 2^shift| <= ‖A^{-1}‖ |R_K| / 2^shift < 2^(60 - shift): a fraction with denominator up
    # to 2^((shift - 62) / 2) is then the continued-fraction convergent; one found near that limit is
    # noise (too few digits yet), so plausible denominators stay 16 bits below it
    max_den = 1 << max(1, (shift - 62) // 2)
    plausible = (shift - 62) // 2 - 16

    def denominator(s: int) -> int | None:
        q = _convergent_denominator(s, 1 << shift, max_den)
        return q if q.bit_length() <= plausible else None

    den = denominator(digits.entry(probe))
    if den is None:
        return None
    S = digits.all()
    # columns have denominators of their own: widen by the largest entry of each first, so that
    # (usually) one pass over all entries finds every one integral
    width = len(S) // (d * c) if S else 0
    for j in range(c):  # phase 0 only: the other phases' stragglers are few, widened below
        block = [S[a * c + j] for a in range(width)]
        top = max(range(width), key=lambda a: abs(block[a]))
        extra = denominator(block[top]) if block[top] else 1
        if extra is None:
            return None
        den = lcm(den, extra)
    if den.bit_length() > plausible:
        return None
    # den x_e needs S_e only to 2^-64 relative to the largest plausible den: the low bits beyond that
    # are dropped (den <= 2^plausible, so den |S_e - 2^drop (S_e >> drop)| / 2^shift < 2^-64), which
    # halves every product; products on python-flint integers (GMP, several times faster here)
    drop = max(0, shift - plausible - 64)
    Sf = [flint.fmpz(s >> drop) for s in S]
    low = shift - drop  # den x_e = den Sf_e / 2^low
    half, tol, mask = flint.fmpz(1 << (low - 1)), 1 << (low - 24), flint.fmpz((1 << low) - 1)
    upper = (1 << low) - tol
    known: dict[int, tuple[flint.fmpz, int]] = {}
    pending: Sequence[int] = range(len(S))
    for _ in range(64):  # an entry whose reduced denominator the common one lacks widens it
        still = []
        den_f = flint.fmpz(den)
        for e in pending:
            t = den_f * Sf[e]
            frac = t & mask  # den x_e = t / 2^low: integral iff the low bits are (nearly) 0 or 2^low
            if frac <= tol or frac >= upper:
                known[e] = ((t + half) >> low, den)
            else:
                still.append(e)
        if not still:
            break
        extra = denominator(S[still[0]])
        if extra is None:
            return None
        den = lcm(den, extra)
        if den.bit_length() > plausible:
            return None
        pending = still
    else:
        return None
    N = [n if de == den else n * (den // de) for n, de in (known[e] for e in range(len(S)))]
    if not _verify(N, den, L, Qz, Cz, d, m, c):
        return None
    return N, den


def _verify(N: list[flint.fmpz], den: int, L: np.ndarray, Qz: sp.csr_matrix, Cz: np.ndarray, d: int, m: int, c: int) -> bool:
    """``L_a N_k(a) - Σ_b Qz_ab N_{k+1}(b) = den · Cz_k(a)`` for every row, phase and column, in
    exact integers: the check the answer rests on."""
    indptr, indices, data = Qz.indptr.tolist(), Qz.indices.tolist(), Qz.data.tolist()
    Ll, Cl = L.tolist(), Cz.tolist()
    for k in range(d):
        base, nxt = k * m * c, ((k + 1) % d) * m * c
        for a in range(m):
            for j in range(c):
                acc = Ll[a] * N[base + a * c + j]
                for e in range(indptr[a], indptr[a + 1]):
                    acc -= data[e] * N[nxt + indices[e] * c + j]
                if acc != den * Cl[k][a][j]:
                    return False
    return True
