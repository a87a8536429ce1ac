"""The narrow arithmetic interface every algorithm is written against.

An algorithm needs exact scalars with ``+ - * /`` and ``== 0``, and dense
matrices (for the blocks that need a solve) with ``+ - *``, a solve and a way
back to rows.  :class:`RationalField` provides these over python-flint's
``fmpq``/``fmpq_mat``; a parametric backend provides the same over the
parameters' fraction field, so algorithms are written once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import flint

from .errors import ExactpteError

__all__ = ["RationalField", "QQ", "SingularSystemError"]


class SingularSystemError(ExactpteError, ArithmeticError):
    """A block system that the theory says is nonsingular turned out singular (a defect)."""


class RationalField:
    """Exact rationals through python-flint.

    >>> A = QQ.matrix([[2, 1], [1, 1]])
    >>> QQ.rows(QQ.solve(A, QQ.matrix([[3], [2]])))
    [[1], [1]]
    """

    name = "QQ"
    zero = flint.fmpq(0)
    one = flint.fmpq(1)

    @staticmethod
    def scalar(x: Any) -> flint.fmpq:
        return x if isinstance(x, flint.fmpq) else flint.fmpq(x)

    @staticmethod
    def matrix(rows: Sequence[Sequence[Any]], ncols: int | None = None) -> flint.fmpq_mat:
        if not rows:
            return flint.fmpq_mat(0, ncols or 0)
        return flint.fmpq_mat(rows)

    @staticmethod
    def zeros(m: int, c: int) -> flint.fmpq_mat:
        return flint.fmpq_mat(m, c)

    @staticmethod
    def identity(m: int) -> flint.fmpq_mat:
        I = flint.fmpq_mat(m, m)
        for i in range(m):
            I[i, i] = 1
        return I

    @staticmethod
    def solve(A: flint.fmpq_mat, B: flint.fmpq_mat) -> flint.fmpq_mat:
        """``X`` with ``A X = B``; ``A`` must be nonsingular."""
        if A.nrows() == 0:
            return flint.fmpq_mat(0, B.ncols())
        try:
            return A.solve(B, algorithm="dixon" if A.nrows() > 64 else None)
        except ZeroDivisionError:
            raise SingularSystemError(f"singular {A.nrows()}x{A.ncols()} block system") from None

    @staticmethod
    def rows(M: flint.fmpq_mat) -> list[list[flint.fmpq]]:
        return M.tolist()

    @staticmethod
    def rank(M: flint.fmpq_mat) -> int:
        return M.rank()


QQ = RationalField()
