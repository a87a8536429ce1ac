"""Dense matrices over ``QQ(params)`` and their fraction-free (Bareiss) solve.

Examples
--------
>>> from exactpte.fields import RationalFunctionField
>>> F = RationalFunctionField(["p"])
>>> A = F.matrix([[F.convert("1 - p"), 0], [0, 2]])
>>> [str(row[0]) for row in bareiss_solve(A, F.matrix([[1], [1]])).tolist()]
['-1/(p - 1)', '1/2']
"""

from __future__ import annotations

from functools import reduce
from typing import Any, Generic, TypeVar

import flint

from exactpte.errors import SingularSystemError
from exactpte.fields.polynomials import poly_lcm

from exactpte.fields.fraction_protocols import FractionField, PolyFraction

E = TypeVar("E", bound=PolyFraction)

__all__ = ["PolyMatrix", "bareiss_solve", "bareiss_split"]


class PolyMatrix(Generic[E]):
    """Dense matrix over a :class:`~exactpte.fields.RationalFunctionField` with the operations the algorithms use."""

    __slots__ = ("entries", "field")

    def __init__(self, rows: list[list[E]], field: FractionField[E]) -> None:
        self.entries, self.field = rows, field

    def nrows(self) -> int:
        """Number of rows."""
        return len(self.entries)

    def ncols(self) -> int:
        """Number of columns."""
        return len(self.entries[0]) if self.entries else 0

    def __getitem__(self, ij: tuple[int, int]) -> E:
        i, j = ij
        return self.entries[i][j]

    def __setitem__(self, ij: tuple[int, int], value: Any) -> None:
        i, j = ij
        self.entries[i][j] = self.field.scalar(value)

    def __add__(self, other: PolyMatrix[E]) -> PolyMatrix[E]:
        return PolyMatrix([[a + b for a, b in zip(r1, r2)] for r1, r2 in zip(self.entries, other.entries)], self.field)

    def __sub__(self, other: PolyMatrix[E]) -> PolyMatrix[E]:
        return PolyMatrix([[a - b for a, b in zip(r1, r2)] for r1, r2 in zip(self.entries, other.entries)], self.field)

    def __mul__(self, other: PolyMatrix[E]) -> PolyMatrix[E]:
        zero = self.field.zero
        cols = list(zip(*other.entries)) if other.entries else []
        out: list[list[E]] = []
        for row in self.entries:
            nz = [(k, a) for k, a in enumerate(row) if not a.num.is_zero()]
            out.append([reduce(lambda acc, ka: acc + ka[1] * col[ka[0]], nz, zero) for col in cols])
        return PolyMatrix(out, self.field)

    def tolist(self) -> list[list[E]]:
        """The entries as a list of row lists."""
        return [list(r) for r in self.entries]


def bareiss_solve(A: PolyMatrix[E], B: PolyMatrix[E]) -> PolyMatrix[E]:
    """``X`` with ``A X = B`` by fraction-free (Bareiss) elimination over ``fmpz_mpoly``.

    Each row of ``A`` is scaled by the lcm of its denominators and each column of ``B``
    brought to one common denominator (kept aside); forward elimination keeps every entry a
    polynomial (exact divisions by the previous pivot); back-substitution computes ``det(A) x``
    as polynomials, and each ``x_i = (det x_i) / det`` is cancelled once.
    """
    field = A.field
    columns, col_den, det = _bareiss_numerators(A, B)
    X: list[list[E]] = [[field.zero] * len(columns) for _ in range(A.nrows())]
    for col, xt in enumerate(columns):
        for i, x in enumerate(xt):
            X[i][col] = field.fraction(x, det * col_den[col])
    return PolyMatrix(X, field)


def bareiss_split(A: PolyMatrix[E], B: PolyMatrix[E]) -> tuple[list[list[flint.fmpz_mpoly]], flint.fmpz_mpoly]:
    """``X`` with ``A X = B`` as ``(rows of numerators, den)``: :func:`bareiss_solve` without the
    cancellations, over ``det(A)`` times the lcm of ``B``'s column denominators.

    Examples
    --------
    >>> from exactpte.fields import RationalFunctionField
    >>> F = RationalFunctionField(["p"])
    >>> A, B = F.matrix([[F.convert("1 - p"), 0], [0, 2]]), F.matrix([[1], [1]])
    >>> nums, den = bareiss_split(A, B)
    >>> [F.fraction(row[0], den) for row in nums] == [row[0] for row in bareiss_solve(A, B).tolist()]
    True
    """
    columns, col_den, det = _bareiss_numerators(A, B)
    lcm = reduce(poly_lcm, col_den, A.field.one.num)
    scaled = [[x * (lcm / den) for x in xt] if den != lcm else xt for xt, den in zip(columns, col_den)]
    return [list(row) for row in zip(*scaled)] if scaled else [[] for _ in range(A.nrows())], det * lcm


def _bareiss_numerators(A: PolyMatrix[E], B: PolyMatrix[E]) -> tuple[list[list[flint.fmpz_mpoly]], list[flint.fmpz_mpoly], flint.fmpz_mpoly]:
    """``(columns of det(A) x as polynomials, the columns' denominators, det(A))`` for ``A X = B``.

    With more right-hand sides than rows (the absorption probabilities of a small block into many
    classes) the elimination runs on ``[A | I]`` instead: ``det(A) A^-1`` once, then each column of
    ``det(A) X`` is a combination of its columns over ``B``'s few nonzero entries."""
    field = A.field
    m, c = A.nrows(), B.ncols()
    one, zero = field.one.num, field.zero.num
    if m == 0:
        return [[] for _ in range(c)], [one] * c, one
    if c > m:
        return _through_adjugate(A, B)
    M, col_den = _polynomial_system(A, B)
    _eliminate(M, m, c, one, zero)
    det = M[m - 1][m - 1]
    columns: list[list[flint.fmpz_mpoly]] = []
    for col in range(c):
        xt = [zero] * m  # det * x, polynomials
        for i in range(m - 1, -1, -1):
            acc = det * M[i][m + col]
            for j in range(i + 1, m):
                if not M[i][j].is_zero() and not xt[j].is_zero():
                    acc = acc - M[i][j] * xt[j]
            xt[i] = acc / M[i][i]
        columns.append(xt)
    return columns, col_den, det


def _through_adjugate(A: PolyMatrix[E], B: PolyMatrix[E]) -> tuple[list[list[flint.fmpz_mpoly]], list[flint.fmpz_mpoly], flint.fmpz_mpoly]:
    """:func:`_bareiss_numerators` by ``det(A) A^-1`` (its columns ``u_j``): ``det(A) x = sum_j u_j B_z[j]``
    with ``B_z`` a column of ``B`` over its common denominator."""
    field = A.field
    m, c = A.nrows(), B.ncols()
    zero = field.zero.num
    inverse, _, det = _bareiss_numerators(A, field.identity(m))  # rows scaled inside: det(A') A^-1, A' = diag(l) A
    col_den = _column_denominators(B)
    columns: list[list[flint.fmpz_mpoly]] = []
    for col in range(c):
        xt = [zero] * m
        for j in range(m):
            x = B.entries[j][col]
            if not x.num.is_zero():
                b = x.num * (col_den[col] / x.den) if x.den != col_den[col] else x.num
                u = inverse[j]
                xt = [acc + u_i * b if not u_i.is_zero() else acc for acc, u_i in zip(xt, u)]
        columns.append(xt)
    return columns, col_den, det


def _polynomial_system(A: PolyMatrix[E], B: PolyMatrix[E]) -> tuple[list[list[flint.fmpz_mpoly]], list[flint.fmpz_mpoly]]:
    """``[A | B]`` as polynomial rows: a row of ``A`` times the lcm of its denominators, ``B``'s
    columns over one common denominator each (returned), so unrelated denominators of different
    columns are never multiplied together."""
    one, zero = A.field.one.num, A.field.zero.num
    m = A.nrows()
    col_den = _column_denominators(B)
    M: list[list[flint.fmpz_mpoly]] = []
    for i in range(m):
        l = reduce(poly_lcm, (x.den for x in A.entries[i]), one)
        row = [x.num * (l / x.den) if not x.num.is_zero() else zero for x in A.entries[i]]
        row += [x.num * ((col_den[j] / x.den) * l) if not x.num.is_zero() else zero for j, x in enumerate(B.entries[i])]
        M.append(row)
    return M, col_den


def _column_denominators(B: PolyMatrix[E]) -> list[flint.fmpz_mpoly]:
    """The lcm of each column's denominators."""
    one = B.field.one.num
    return [reduce(poly_lcm, (row[j].den for row in B.entries), one) for j in range(B.ncols())]


def _eliminate(M: list[list[flint.fmpz_mpoly]], m: int, c: int, one: flint.fmpz_mpoly, zero: flint.fmpz_mpoly) -> None:
    """Fraction-free forward elimination of the ``m x (m + c)`` polynomial rows ``M`` in place
    (pivot: the shortest nonzero entry of the column; every division exact)."""
    prev = one
    for k in range(m):
        piv = None
        best = None
        for i in range(k, m):
            if not M[i][k].is_zero():
                size = len(M[i][k])
                if best is None or size < best:
                    piv, best = i, size
        if piv is None:
            raise SingularSystemError(f"singular {m}x{m} parametric block system (generically)")
        if piv != k:
            M[k], M[piv] = M[piv], M[k]
        pk = M[k][k]
        rowk = M[k]
        for i in range(k + 1, m):
            rowi = M[i]
            a = rowi[k]
            if a.is_zero():
                if not (pk == prev):
                    for j in range(k + 1, m + c):
                        if not rowi[j].is_zero():
                            rowi[j] = (rowi[j] * pk) / prev
            else:
                for j in range(k + 1, m + c):
                    rowi[j] = (rowi[j] * pk - a * rowk[j]) / prev
                rowi[k] = zero
        prev = pk
