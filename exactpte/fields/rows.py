"""Square systems given as sparse rows, solved densely: the generic route behind
:meth:`~exactpte.fields.Field.solve_sparse` (a field may try something faster first)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

__all__ = ["solve_rows_densely", "DenseSolver"]

E = TypeVar("E")
M = TypeVar("M", bound="SettableMatrix")


class SettableMatrix(Protocol):
    """A dense matrix whose entries are read and written as ``A[i, j]``."""

    def __getitem__(self, ij: tuple[int, int], /) -> Any:
        """The entry ``(i, j)``."""

    def __setitem__(self, ij: tuple[int, int], value: Any, /) -> None:
        """Set the entry ``(i, j)``."""


class DenseSolver(Protocol[E, M]):
    """The part of :class:`~exactpte.fields.Field` a dense solve uses (elements ``E``, matrices ``M``)."""

    def zeros(self, m: int, c: int, /) -> M:
        """The ``m x c`` zero matrix."""

    def matrix(self, rows: Sequence[Sequence[E]], ncols: int | None = None, /) -> M:
        """A dense matrix from row lists (``ncols`` for an empty one)."""

    def solve(self, A: M, B: M, /) -> M:
        """``X`` with ``A X = B``."""

    def to_lists(self, M: M, /) -> list[list[E]]:
        """The matrix's entries as a list of rows."""


def solve_rows_densely(field: DenseSolver[E, M], rows: Sequence[Sequence[tuple[int, E]]], B: Sequence[Sequence[E]]) -> list[list[E]]:
    """``X`` with ``A X = B``, ``A``'s row ``a`` the ``(column, value)`` pairs of ``rows[a]`` (repeated
    columns add up), by the field's dense solve.

    Examples
    --------
    >>> from exactpte.fields import QQ
    >>> X = solve_rows_densely(QQ, [[(0, QQ.one * 2)], [(0, QQ.one), (1, QQ.one)]], [[QQ.one * 4], [QQ.one * 5]])
    >>> [str(row[0]) for row in X]
    ['2', '3']
    """
    m = len(rows)
    A = field.zeros(m, m)
    for a, row in enumerate(rows):
        for b, v in row:
            A[a, b] += v
    return field.to_lists(field.solve(A, field.matrix([list(r) for r in B], len(B[0]) if B else 0)))
