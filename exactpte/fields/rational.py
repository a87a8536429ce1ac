"""Exact rationals through python-flint: the field :data:`QQ` of rational chains."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import flint

from exactpte.numbers.scalars import to_fmpq
from exactpte.errors import SingularSystemError
from exactpte.fields.rows import solve_rows_densely

__all__ = ["RationalField", "QQ"]

MIN_BLOCK = 120
"""Square systems smaller than this go to the p-adic solver directly (its fixed cost is small there);
larger ones are lifted (:mod:`exactpte.fields.lifting`, which imports SciPy: small chains never load it).
The same bound serves the absorbing systems ``(I - Q) x = c`` on transient blocks (``d = 1``: ``ρ``, ``h``,
hitting times, absorption probabilities).  Measured (CPU, blocks of the bench family, and rings and random
blocks of 1, 3 and 8 successors a state): the lifting's fixed cost (about 1 ms) makes the dense solve faster
below about 100 states, and it is slower from 110-150 on (one right-hand side: 2.2x at 185 states, 2.6x at
226; eight: 1.2x at 185, 2.2x at 226)."""

MIN_PHASE_BLOCK = 200
"""Transient phase systems of period ``d > 1`` smaller than this too: measured on the bench family's blocks
(two columns, ``d`` = 2, 3, 4), the dense solve of ``I - Q^d`` is faster up to about 185 states (0.9-1.0x of the
lifting there) and slower from 226 on (1.2-1.35x).  (It was 400 before the lifting's components and its
cheaper steps: n = 1,000's 247-state block, basis 0.28 s dense against 0.20 s lifted.)"""


class RationalField:
    """``QQ``: python-flint ``fmpq`` scalars and ``fmpq_mat`` matrices (the :class:`~exactpte.fields.Field` protocol).

    Examples
    --------
    >>> A = QQ.matrix([[2, 1], [1, 1]])
    >>> QQ.to_lists(QQ.solve(A, QQ.matrix([[3], [2]])))
    [[1], [1]]
    """

    name = "QQ"
    zero = flint.fmpq(0)
    one = flint.fmpq(1)
    is_parametric = False
    params: tuple[str, ...] = ()
    splits_periods = False

    @staticmethod
    def scalar(x: Any) -> flint.fmpq:
        """``x`` as an ``fmpq`` (ints and ``fmpz`` convert exactly)."""
        return x if isinstance(x, flint.fmpq) else flint.fmpq(x)

    @staticmethod
    def convert(x: Any, where: str = "entry") -> flint.fmpq:
        """One user value as an ``fmpq`` (exact numbers only; floats refused), ``where`` naming it in errors."""
        return to_fmpq(x, where)

    @staticmethod
    def matrix(rows: Sequence[Sequence[Any]], ncols: int | None = None) -> flint.fmpq_mat:
        """An ``fmpq_mat`` from row lists."""
        if not rows:
            return flint.fmpq_mat(0, ncols or 0)
        return flint.fmpq_mat(rows)

    @staticmethod
    def zeros(m: int, c: int) -> flint.fmpq_mat:
        """The ``m x c`` zero matrix."""
        return flint.fmpq_mat(m, c)

    @staticmethod
    def identity(m: int) -> flint.fmpq_mat:
        """The ``m x m`` identity."""
        I = flint.fmpq_mat(m, m)
        for i in range(m):
            I[i, i] = 1
        return I

    @staticmethod
    def solve(A: flint.fmpq_mat, B: flint.fmpq_mat) -> flint.fmpq_mat:
        """``X`` with ``A X = B``; ``A`` must be nonsingular.

        Solved over the integers: ``A = A_z / a`` and ``B = B_z / b`` with one common
        denominator each, then ``X = (a / b) A_z^{-1} B_z`` by flint's ``fmpz_mat`` solver
        (Dixon p-adic lifting for large blocks).  ``fmpq_mat.solve`` would instead scale every
        row of ``[A | B]`` by its own denominator lcm, so one large right-hand side (``v*`` has
        thousands of bits) inflates every row of the small-entry ``A``: 4x slower and 15x the
        memory on a 765-state transient block.
        """
        if A.nrows() == 0:
            return flint.fmpq_mat(0, B.ncols())
        A_z, a = A.numer_denom()
        B_z, b = B.numer_denom()
        try:
            X = cast(flint.fmpq_mat, A_z.solve(B_z))
        except ZeroDivisionError:
            raise SingularSystemError(f"singular {A.nrows()}x{A.ncols()} block system") from None
        return X if a == b else X * flint.fmpq(a, b)

    def solve_split(self, A: flint.fmpq_mat, B: flint.fmpq_mat) -> tuple[list[list[flint.fmpz]], flint.fmpz]:
        """:meth:`solve` over the least common denominator."""
        return self.matrix_split(self.solve(A, B))

    @staticmethod
    def cofactors(dens: Sequence[flint.fmpz]) -> tuple[list[flint.fmpz], flint.fmpz]:
        """``([lcm / den], lcm)`` of integers."""
        lcm = flint.fmpz(1)
        for den in dens:
            lcm = lcm.lcm(den) if lcm % den else lcm
        return [lcm // den for den in dens], lcm

    @staticmethod
    def to_lists(M: flint.fmpq_mat) -> list[list[flint.fmpq]]:
        """The entries as a list of rows."""
        return M.tolist()

    def solve_sparse(self, rows: Sequence[Sequence[tuple[int, flint.fmpq]]],
                     B: Sequence[Sequence[flint.fmpq]]) -> list[list[flint.fmpq]]:
        """Numeric-symbolic lifting (:func:`exactpte.fields.lifting.lift_sparse_system`) on systems of at
        least ``MIN_BLOCK`` rows, the dense p-adic solve otherwise or when lifting does not apply."""
        if len(rows) >= MIN_BLOCK:  # lifting imports SciPy: only when it applies
            from exactpte.fields.lifting import lift_sparse_system

            X = lift_sparse_system(rows, B)
            if X is not None:
                return X
        return solve_rows_densely(self, rows, B)

    @staticmethod
    def solve_phase_system(Q_rows: Sequence[Sequence[tuple[int, flint.fmpq]]], C: Sequence[Sequence[Sequence[flint.fmpq]]],
                           d: int, mean: tuple[list[flint.fmpz], flint.fmpz] | None = None
                           ) -> tuple[list[list[list[flint.fmpz]]], flint.fmpz] | None:
        """Numeric-symbolic lifting (:func:`exactpte.fields.lifting.lift_phase_system`: float digits, exact
        integer residuals, the answer verified exactly) on large blocks,
        as integer numerators over one denominator; ``None`` where it does not apply (small blocks, below
        :data:`MIN_BLOCK` states for ``d = 1`` and :data:`MIN_PHASE_BLOCK` otherwise; large entries), and the
        p-adic solve runs.  ``mean`` (``Σ_k x_k``, when known: the absorption probabilities) spares the lifting of
        the ``I - Q`` component."""
        if len(Q_rows) < (MIN_BLOCK if d == 1 else MIN_PHASE_BLOCK):
            return None
        from exactpte.fields.lifting import lift_phase_system

        return lift_phase_system(Q_rows, C, d, mean)

    @staticmethod
    def split(xs: Sequence[flint.fmpq]) -> tuple[list[flint.fmpz], flint.fmpz]:
        """``xs`` as integer numerators over their least common denominator.

        Starts from the largest denominator and widens only by one that does not divide it (a
        division, where an lcm costs a gcd): the denominators of one row usually divide one another.
        """
        den = max((x.q for x in xs), default=flint.fmpz(1))
        for x in xs:
            q = x.q
            if den % q:
                den = den.lcm(q)
        return [x.p * (den // x.q) if x.q != den else x.p for x in xs], den

    @staticmethod
    def matrix_split(M: flint.fmpq_mat) -> tuple[list[list[flint.fmpz]], flint.fmpz]:
        """``M = M_z / den`` with the least common denominator."""
        M_z, den = M.numer_denom()
        return M_z.tolist(), den

    @staticmethod
    def fraction(num: flint.fmpz, den: flint.fmpz) -> flint.fmpq:
        """``num / den`` reduced."""
        return flint.fmpq(num, den)

    @staticmethod
    def sum_fractions(pairs: Sequence[tuple[flint.fmpz, flint.fmpz]]) -> flint.fmpq:
        """``sum num / den`` over the pairs' least common denominator, reduced once.

        Examples
        --------
        >>> QQ.sum_fractions([(flint.fmpz(1), flint.fmpz(6)), (flint.fmpz(1), flint.fmpz(10))])
        4/15
        """
        den = flint.fmpz(1)
        for _, d in pairs:
            if den % d:
                den = den.lcm(d)
        return flint.fmpq(sum((n * (den // d) for n, d in pairs), flint.fmpz(0)), den)

    @staticmethod
    def is_negative(x: flint.fmpq) -> bool:
        """``x < 0``."""
        return x < 0

    @staticmethod
    def is_constant(x: flint.fmpq) -> bool:
        """Every rational is a constant."""
        return True

    @staticmethod
    def evaluate(x: flint.fmpq, values: Sequence[flint.fmpq]) -> flint.fmpq:
        """A rational has no parameters: ``x`` itself."""
        return x

    @staticmethod
    def to_text(x: flint.fmpq) -> str:
        """Reduced ``"p/q"`` (``"p"`` when ``q == 1``)."""
        return str(x)

    @staticmethod
    def to_latex(x: flint.fmpq) -> str:
        """``3/4`` -> ``\\tfrac{3}{4}``, ``-2`` -> ``-2``."""
        p, q = int(x.p), int(x.q)
        if q == 1:
            return str(p)
        return f"{'-' if p < 0 else ''}\\tfrac{{{abs(p)}}}{{{q}}}"

    @staticmethod
    def denominator_factors(x: flint.fmpq) -> list[str]:
        """Rationals have constant denominators: no conditions."""
        return []


QQ = RationalField()
