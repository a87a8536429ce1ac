"""Square systems given as sparse rows, solved densely: the generic route behind
:meth:`~exactpte.fields.Field.solve_sparse` (a field may try something faster first)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["solve_rows_densely"]


def solve_rows_densely(field: Any, rows: Sequence[Sequence[tuple[int, Any]]], B: Sequence[Sequence[Any]]) -> list[list[Any]]:
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
