"""The quotient ``P̄`` on ``R^n / K'`` decided by structure and small exact algebra (``thm:minimal_quotient``,
``thm:quotient_contraction`` on chains of thousands of states).

Two facts replace the ``n x n`` characteristic polynomial of the dense route (:mod:`proofs_check.routes.certificates`):

- for a ``P``-invariant ``K' = span Y`` (``Y`` of full column rank), ``charpoly(P) = charpoly(P|K') ·
  charpoly(P̄)``, and ``charpoly(P|K')`` is the characteristic polynomial of the small matrix ``A`` with
  ``P Y = Y A`` (found from ``dim K'`` rows of ``Y``, checked on every row by sparse products);
- for a stochastic ``P`` (Perron–Frobenius), the roots of unity among the eigenvalues, with their algebraic
  multiplicities, are exactly those of ``c(x) = Π_i (x^{d_i} - 1)`` over the closed classes with periods
  ``d_i`` (the support graph's, :mod:`proofs_check.algebra.graph`): every other eigenvalue has modulus below 1.

So ``P̄`` keeps a unimodular eigenvalue exactly when the cyclotomic part of ``charpoly(P|K')`` has degree
below ``deg c = Σ d_i``: decided exactly with ``dim K' x dim K'`` matrices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import flint

from proofs_check.algebra.linalg import cyclotomic_part, mat_poly, nullspace, pivot_columns

__all__ = ["peripheral_polynomial", "peripheral_factors", "restricted_operator", "cyclotomic_degree", "keeps_unimodular",
           "sub_operator", "coordinate_subspaces"]

Matvec = Callable[[list[Any]], list[Any]]


def peripheral_polynomial(periods: Sequence[int]) -> flint.fmpz_poly:
    """``c(x) = Π_i (x^{d_i} - 1)``: the part of ``charpoly(P)`` whose roots are roots of unity (Perron–Frobenius).

    >>> peripheral_polynomial([1, 2]).coeffs()
    [1, -1, -1, 1]
    """
    out = flint.fmpz_poly([1])
    for d in periods:
        out *= flint.fmpz_poly([-1] + [0] * (d - 1) + [1])
    return out


def cyclotomic_degree(poly: "flint.fmpq_poly | flint.fmpz_poly") -> int:
    """The degree of the cyclotomic part of ``poly`` (roots of unity, with multiplicity).

    >>> cyclotomic_degree(flint.fmpq_poly([-1, 0, 1]) * flint.fmpq_poly([flint.fmpq(-1, 2), 1]))
    2
    """
    return len(cyclotomic_part(poly)[0]) - 1


def restricted_operator(matvec: Matvec, Y: flint.fmpq_mat) -> flint.fmpq_mat | str:
    """The ``m x m`` matrix ``A`` with ``P Y = Y A`` (``P`` applied column by column with ``matvec``), or why there
    is none: ``Y`` (``n x m``) rank deficient, or ``span Y`` not ``P``-invariant (checked on every row exactly).

    >>> A = restricted_operator(lambda x: [x[1], x[0]], flint.fmpq_mat([[1], [1]]))
    >>> A.tolist()
    [[1]]
    >>> restricted_operator(lambda x: [x[1], x[0]], flint.fmpq_mat([[1], [0]]))
    'its span is not P-invariant'
    """
    n, m = Y.nrows(), Y.ncols()
    if m == 0:
        return flint.fmpq_mat(0, 0)
    R, rk = Y.transpose().rref()
    if rk < m:
        return f"it has rank {rk} < {m} columns"
    rows = pivot_columns(R, rk)
    columns = [[Y[s, j] for s in range(n)] for j in range(m)]
    PY = flint.fmpq_mat([list(x) for x in zip(*[matvec(c) for c in columns])])
    Ysub = flint.fmpq_mat([[Y[s, j] for j in range(m)] for s in rows])
    A = Ysub.solve(flint.fmpq_mat([[PY[s, j] for j in range(m)] for s in rows]))
    if Y * A != PY:
        return "its span is not P-invariant"
    return A


def sub_operator(A: flint.fmpq_mat, Z: flint.fmpq_mat) -> flint.fmpq_mat | None:
    """``A`` restricted to the column span of ``Z`` (coordinates in ``Z``, full column rank), or ``None`` when
    that span is not ``A``-invariant.

    >>> sub_operator(flint.fmpq_mat([[0, 1], [1, 0]]), flint.fmpq_mat([[1], [-1]])).tolist()
    [[-1]]
    """
    k = Z.ncols()
    if k == 0:
        return flint.fmpq_mat(0, 0)
    G = Z.transpose() * Z
    S = G.solve(Z.transpose() * (A * Z))
    return S if Z * S == A * Z else None


def keeps_unimodular(restricted: flint.fmpq_mat, periods: Sequence[int], extra: flint.fmpq_poly | None = None) -> bool:
    """Whether the quotient by an invariant ``K'`` keeps an eigenvalue of modulus 1, from ``P|K'`` in coordinates
    (times ``extra``, the characteristic polynomial of a further invariant summand) and the periods: exactly when
    the cyclotomic part of ``charpoly(P|K')`` has degree below ``Σ d_i``.

    >>> keeps_unimodular(flint.fmpq_mat([[1]]), [2]), keeps_unimodular(flint.fmpq_mat([[0, 1], [1, 0]]), [2])
    (True, False)
    """
    poly = restricted.charpoly() if restricted.nrows() else flint.fmpq_poly([1])
    if extra is not None:
        poly *= extra
    return cyclotomic_degree(poly) < sum(periods)


def peripheral_factors(periods: Sequence[int]) -> tuple[flint.fmpz_poly, list[tuple[flint.fmpz_poly, int]]]:
    """``c = Π_i (x^{d_i} - 1)`` and its irreducible factors ``Φ_m`` with multiplicities, from the periods alone
    (``x^d - 1 = Π_{m | d} Φ_m``): no factorisation of a degree-``Σ d_i`` polynomial.

    >>> c, f = peripheral_factors([2, 2]); [(g.coeffs(), e) for g, e in f]
    [([-1, 1], 2), ([1, 1], 2)]
    """
    counts: dict[int, int] = {}
    for d in periods:
        for m in range(1, d + 1):
            if d % m == 0:
                counts[m] = counts.get(m, 0) + 1
    return peripheral_polynomial(periods), [(flint.fmpz_poly.cyclotomic(m), e) for m, e in sorted(counts.items())]


def coordinate_subspaces(A: flint.fmpq_mat, periods: Sequence[int],
                         factors: tuple[flint.fmpz_poly, list[tuple[flint.fmpz_poly, int]]] | None = None
                         ) -> list[tuple[str, flint.fmpq_mat]]:
    """Invariant subspaces of ``span(b) = K`` in ``b``'s coordinates that leave out part of ``K``: ``K`` minus the
    Fourier component of each cyclotomic factor ``Φ_m ≠ x - 1`` of ``c`` (``ker (c / Φ_m^e)(A)``, the polynomial
    first reduced mod ``charpoly(A)``: Cayley–Hamilton) and, when some class is periodic, ``ker(I - P) = ker(A - I)``.
    ``factors``: :func:`peripheral_factors` of the periods, when the caller has them."""
    c, fs = factors or peripheral_factors(periods)
    chi = A.charpoly() if A.nrows() else flint.fmpq_poly([1])
    out = []
    for f, e in fs:
        if f.degree() >= 1 and f != flint.fmpz_poly([-1, 1]):
            rest = flint.fmpq_poly(c // (f**e)) % chi if A.nrows() else flint.fmpq_poly([0])
            out.append((f"span(b) minus the Fourier component of {f} (K minus a Fourier pair)", nullspace(mat_poly(rest.coeffs(), A))))
    if any(d > 1 for d in periods):
        one = flint.fmpq_mat(A.nrows(), A.nrows(), [int(i == j) for i in range(A.nrows()) for j in range(A.nrows())])
        out.append(("ker(I-P) (some class is periodic)", nullspace(A - one)))
    return out
