"""Input coercion: every matrix-, vector- and edge-like input a chain accepts, as raw rows.

Nothing here knows a chain type: these functions turn user input (nested lists, numpy arrays,
sympy matrices, ``flint.fmpq_mat``/``fmpz_mat``, edge lists, integer edge arrays) into
sparse rows ``(column, entry)`` or CSR arrays, checking shapes, indices and labels on the way
and naming the row, entry or edge at fault.  The chains (:mod:`exactpte.model.chain`,
:mod:`exactpte.model.parametric`) then validate the rows over their field (``validated_rows``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

import flint

from exactpte.numbers.scalars import as_int, numpy_if_loaded, to_fmpq
from exactpte.errors import EntryError, LabelError, NegativeEntryError, RowSumError, ShapeError, UsageError, brief
from exactpte.deprecation import renamed

__all__ = [
    "Int64Array",
    "dense_rows",
    "sparse_from_dense",
    "sparse_from_edges",
    "reward_vector",
    "vector_entries",
    "require_labels",
    "sequence_of",
    "denominator_scale",
    "edge_arrays",
    "csr_edges",
    "require_stochastic_rows",
    "fractions_of",
    "exact_reward",
    "unique_inverse",
]

if not TYPE_CHECKING:  # old names, for one release (mypy sees only the new ones)
    __getattr__ = renamed(__name__, {"check_labels": "require_labels", "check_row_sums": "require_stochastic_rows"})


if TYPE_CHECKING:  # numpy is imported by the functions that take arrays, not by the exact route's input
    import numpy as np
    import numpy.typing as npt

Int64Array: TypeAlias = "npt.NDArray[np.int64]"
"""One of a chain's checked edge arrays (rows, columns, numerators, denominators, CSR pointers)."""


# -- nested sequences, matrices, vectors, labels ----------------------------------------------
def dense_rows(P: Any, denominator: int | None = None) -> list[Sequence[Any]]:
    """The rows of any matrix-like input as lists of raw entries (nothing converted yet)."""
    if isinstance(P, (flint.fmpq_mat, flint.fmpz_mat)):
        return [list(row) for row in P.tolist()]
    np = numpy_if_loaded()  # (a numpy array exists only once numpy is loaded)
    if np is not None and isinstance(P, np.ndarray):
        if P.ndim != 2:
            raise ShapeError(f"P has {P.ndim} dimensions, expected a 2-d matrix")
        if P.dtype.kind in "iu":
            return [[int(x) for x in row] for row in P.tolist()]
        if denominator is not None:
            raise EntryError(f"denominator= needs an integer array, got dtype {P.dtype}")
        float_rows: list[Sequence[Any]] = P.tolist()  # floats are refused entry by entry, with their position
        return float_rows
    if type(P).__module__.startswith("sympy") and hasattr(P, "tolist"):  # a sympy Matrix (sympy not imported here)
        sympy_rows: list[Sequence[Any]] = P.tolist()
        return sympy_rows
    if isinstance(P, (str, bytes, Mapping)) or not isinstance(P, Iterable):
        raise ShapeError(f"P must be a matrix (nested sequences), got {type(P).__name__}")
    rows: list[Sequence[Any]] = []
    for i, row in enumerate(P):
        if isinstance(row, (str, bytes, Mapping)) or not isinstance(row, Iterable):
            raise ShapeError(f"row {i} of P is not a sequence ({row!r})")
        rows.append(list(row))
    return rows


def sparse_from_dense(rows: Sequence[Sequence[Any]], convert: Callable[[Any, str], Any]) -> list[list[tuple[int, Any]]]:
    """``(j, convert(P[i][j]))`` pairs of a square dense matrix given as row lists (shape checked)."""
    n = len(rows)
    if n == 0:
        raise ShapeError("P is empty; a chain needs at least one state")
    out = []
    for i, row in enumerate(rows):
        if len(row) != n:
            raise ShapeError(f"P is not square: row {i} has {len(row)} entries, expected {n}")
        pairs = []
        for j, x in enumerate(row):
            if isinstance(x, int) and not isinstance(x, bool) and x == 0:
                continue  # fast path for the zeros of dense input
            pairs.append((j, convert(x, f"P[{i}][{j}]")))
        out.append(pairs)
    return out


def sparse_from_edges(n: Any, edges: Any, convert: Callable[[Any, str], Any], *,
                      duplicates: str = "error", summed: list[int] | None = None) -> list[list[tuple[int, Any]]]:
    """Rows of ``(j, convert(p))`` pairs from an edge list ``(i, j, p)``, columns increasing.

    Checked before anything is allocated: ``n`` is a positive int (numpy integers included) and at
    most the number of edges (every row of a stochastic matrix has a nonzero entry, so a chain of
    ``n`` states has at least ``n`` transitions); then every index is in range and no transition
    is given twice, unless ``duplicates="sum"``: then the converted values of a repeated
    transition are added (and ``summed``, when given, receives the number of repeats).

    Examples
    --------
    >>> sparse_from_edges(10**12, [(0, 0, 1)], lambda p, where: p)
    Traceback (most recent call last):
    ...
    exactpte.errors.ShapeError: n = 1000000000000 states need at least n transitions (every row sums to 1), but 1 edge is given
    """
    if duplicates not in ("error", "sum"):
        raise UsageError(f"duplicates must be 'error' or 'sum', got {duplicates!r}")
    n_int = as_int(n)
    if n_int is None or n_int < 1:
        raise ShapeError(f"n must be a positive int, got {brief(n, quoted=True)}")
    n = n_int
    if isinstance(edges, (str, bytes, Mapping)) or not isinstance(edges, Iterable):
        raise ShapeError(f"edges must be a sequence of (i, j, p) triples, got {type(edges).__name__}")
    edges = list(edges)
    if n > len(edges):
        raise ShapeError(f"n = {brief(n)} states need at least n transitions (every row sums to 1), but "
                         f"{len(edges)} edge{'' if len(edges) == 1 else 's'} {'is' if len(edges) == 1 else 'are'} given")
    row_maps: list[dict[int, Any]] = [dict() for _ in range(n)]
    for e_idx, edge in enumerate(edges):
        if isinstance(edge, (str, bytes, Mapping)) or not isinstance(edge, (tuple, list)) or len(edge) != 3:
            raise ShapeError(f"edge {e_idx} is {brief(edge, quoted=True)}, expected a triple (i, j, p)")
        i, j, p = edge
        for name, s in (("source", i), ("target", j)):
            if as_int(s) is None or not 0 <= s < n:
                raise ShapeError(f"edge {e_idx} has {name} {brief(s, 30, quoted=True)}, expected a state index in 0..{n - 1}")
        i, j = int(i), int(j)
        q = convert(p, f"edge {e_idx} ({i} -> {j})")
        if duplicates == "sum" and isinstance(q, flint.fmpq) and q < 0:  # (checked before a sum could hide it)
            raise NegativeEntryError(f"edge {e_idx} ({i} -> {j}) is {brief(q)}, expected a probability >= 0")
        if j in row_maps[i]:
            if duplicates == "error":
                raise ShapeError(f"edge {e_idx} repeats the transition {i} -> {j}; give each transition once "
                                 f"(or pass duplicates='sum' to add the probabilities of repeated transitions)")
            q = row_maps[i][j] + q
            if summed is not None:
                summed[0] += 1
        row_maps[i][j] = q
    return [sorted(rm.items()) for rm in row_maps]


def reward_vector(r: Any, n: int) -> list[Any]:
    """The reward as a list of ``n`` raw entries (any vector-like input)."""
    out = vector_entries(r)
    if len(out) != n:
        raise ShapeError(f"reward has length {len(out)}, expected {n} (one per state of P)")
    return out


def vector_entries(r: Any) -> list[Any]:
    """Raw entries of a vector-like input (flint, numpy, sympy column, sequence)."""
    if isinstance(r, (flint.fmpq_mat, flint.fmpz_mat)):
        if min(r.nrows(), r.ncols()) > 1:
            raise ShapeError(f"reward is a {r.nrows()}x{r.ncols()} matrix, expected a vector")
        return list(r.entries())
    if hasattr(r, "tolist") and not isinstance(r, (str, bytes)):
        r = r.tolist()
    if isinstance(r, (str, bytes, Mapping)) or not isinstance(r, Iterable):
        raise ShapeError(f"reward must be a sequence of numbers, got {type(r).__name__}")
    out = list(r)
    if out and isinstance(out[0], list):  # sympy column Matrix.tolist() -> [[a], [b]]
        if all(isinstance(x, list) and len(x) == 1 for x in out):
            out = [x[0] for x in out]
        else:
            raise ShapeError("reward must be a vector, got a matrix")
    return out


def require_labels(labels: Sequence[Any] | None, n: int) -> tuple[str, ...] | None:
    """Labels as strings, one per state, all different (``None`` stays ``None``)."""
    if labels is None:
        return None
    if isinstance(labels, (str, bytes, Mapping)) or not isinstance(labels, Iterable):
        raise LabelError(f"labels must be a sequence of strings, one per state, got {type(labels).__name__}")
    labels = tuple(str(x) for x in labels)
    if len(labels) != n:
        raise LabelError(f"{len(labels)} labels given for {n} states")
    seen: dict[str, int] = {}
    for i, lab in enumerate(labels):
        if lab in seen:
            raise LabelError(f"label {lab!r} is used by states {seen[lab]} and {i}; labels must be unique")
        seen[lab] = i
    return labels


def sequence_of(x: Any, name: str, what: str) -> list[Any]:
    """``x`` as a list, after checking it is a sequence (numpy arrays included), not a string or mapping."""
    np = numpy_if_loaded()
    if np is not None and isinstance(x, np.ndarray):
        return list(x)
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        raise ShapeError(f"{name} must be a sequence ({what}), got {type(x).__name__}")
    return list(x)


def denominator_scale(denominator: int | None) -> flint.fmpq:
    """``1 / denominator`` (1 when none is given), after checking it is a positive int."""
    if denominator is None:
        return flint.fmpq(1)
    d = as_int(denominator)
    if d is None or d < 1:
        raise EntryError(f"denominator must be a positive int, got {denominator!r}")
    return flint.fmpq(1, d)


# -- integer edge arrays (MarkovRewardProcess.from_arrays) ---------------------------------------
def edge_arrays(n: Any, rows: Any, cols: Any, numerators: Any,
                denominators: Any) -> tuple[int, tuple[Int64Array, Int64Array, Int64Array, Int64Array]]:
    """``n`` as an int and the four edge arrays as int64, after checking their shapes, that every
    index is a state, every denominator positive and every numerator non-negative.

    Examples
    --------
    >>> edge_arrays(2, [0, 1], [1, 2], [1, 1], [1, 1])
    Traceback (most recent call last):
    ...
    exactpte.errors.ShapeError: edge 1 has col index 2, expected a state index in 0..1
    """
    import numpy as np

    n_int = as_int(n)
    if n_int is None or n_int < 1:
        raise ShapeError(f"n must be a positive int, got {brief(n, 30, quoted=True)}")
    n = n_int
    arrays: list[Int64Array] = []
    for name, a in (("rows", rows), ("cols", cols), ("numerators", numerators), ("denominators", denominators)):
        a = np.asarray(a)
        if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
            raise ShapeError(f"{name} must be a 1-d integer array, got shape {a.shape} and dtype {a.dtype}")
        arrays.append(a.astype(np.int64, copy=False))
    rows, cols, num, den = arrays
    if not len(rows) == len(cols) == len(num) == len(den):
        raise ShapeError(f"rows, cols, numerators, denominators have lengths {len(rows)}, {len(cols)}, {len(num)}, "
                         f"{len(den)}; expected one entry per transition in each")
    _require_edge_entries(n, rows, cols, num, den)
    return n, (rows, cols, num, den)


def _require_edge_entries(n: int, rows: Int64Array, cols: Int64Array, num: Int64Array, den: Int64Array) -> None:
    """Indices in ``0..n-1``, denominators ``>= 1``, numerators ``>= 0`` (the first fault named)."""
    import numpy as np

    for name, a in (("rows", rows), ("cols", cols)):
        bad = np.flatnonzero((a < 0) | (a >= n))
        if len(bad):
            raise ShapeError(f"edge {bad[0]} has {name[:-1]} index {a[bad[0]]}, expected a state index in 0..{n - 1}")
    bad = np.flatnonzero(den <= 0)
    if len(bad):
        raise EntryError(f"edge {bad[0]} ({rows[bad[0]]} -> {cols[bad[0]]}) has denominator {den[bad[0]]}, expected >= 1")
    bad = np.flatnonzero(num < 0)
    if len(bad):
        e = bad[0]
        raise NegativeEntryError(f"P[{rows[e]}][{cols[e]}] is {brief(flint.fmpq(int(num[e]), int(den[e])))}, expected a probability >= 0")


def csr_edges(n: int, rows: Int64Array, cols: Int64Array, num: Int64Array,
              den: Int64Array) -> tuple[Int64Array, Int64Array, Int64Array, Int64Array]:
    """``(ptr, cols, num, den)``: checked edge arrays in CSR order (by row, columns ascending), zero
    probabilities dropped, after checking that no transition is given twice.

    Examples
    --------
    >>> import numpy as np
    >>> [a.tolist() for a in csr_edges(2, np.array([1, 0, 0]), np.array([0, 1, 0]), np.array([1, 0, 1]), np.array([1, 1, 1]))]
    [[0, 1, 2], [0, 0], [1, 1], [1, 1]]
    """
    import numpy as np

    in_order = bool(np.all((rows[1:] > rows[:-1]) | ((rows[1:] == rows[:-1]) & (cols[1:] > cols[:-1]))))
    if not in_order:  # (edges given row by row, columns ascending, need no sort)
        order = np.argsort(rows * n + cols, kind="stable") if n < 2**31 else np.lexsort((cols, rows))
        rows, cols, num, den = rows[order], cols[order], num[order], den[order]
    dup = np.flatnonzero((rows[1:] == rows[:-1]) & (cols[1:] == cols[:-1]))
    if len(dup):
        raise ShapeError(f"the transition {rows[dup[0]]} -> {cols[dup[0]]} is given twice; give each transition once")
    keep = num != 0
    rows, cols, num, den = rows[keep], cols[keep], num[keep], den[keep]
    return np.searchsorted(rows, np.arange(n + 1)), cols, num, den


def fractions_of(num: Int64Array, den: Int64Array) -> tuple[flint.fmpq, ...]:
    """``num[e] / den[e]`` for every edge as ``fmpq``: only the distinct pairs are converted, the
    edges then share those objects.

    Examples
    --------
    >>> import numpy as np
    >>> fractions_of(np.array([1, 2, 1]), np.array([2, 4, 3]))
    (1/2, 1/2, 1/3)
    """
    import numpy as np

    width = int(den.max(initial=1)) + 1
    if int(num.max(initial=0)) < 2**62 // width:  # one int64 key per (numerator, denominator) pair
        keys, inverse = unique_inverse(num * width + den)
        pairs = np.stack([keys // width, keys % width], axis=1)
    else:
        pairs, inverse = np.unique(np.stack([num, den], axis=1), axis=0, return_inverse=True)
    distinct = [flint.fmpq(int(a), int(b)) for a, b in pairs.tolist()]
    return tuple(map(distinct.__getitem__, inverse.reshape(-1).tolist()))


def exact_reward(r: Any, n: int, reward_denominator: int = 1) -> tuple[flint.fmpq, ...]:
    """The reward as ``fmpq`` divided by ``reward_denominator``: an integer array converts by its
    distinct values, anything else entry by entry (:func:`reward_vector`).

    Examples
    --------
    >>> import numpy as np
    >>> exact_reward(np.array([3, 0, 3]), 3, 2)
    (3/2, 0, 3/2)
    """
    scale = flint.fmpq(1, reward_denominator)
    np = numpy_if_loaded()
    if np is not None and isinstance(r, np.ndarray) and r.ndim == 1 and r.dtype.kind in "iu" and len(r) == n:
        values, idx = unique_inverse(r)
        distinct_r = [flint.fmpq(int(v)) * scale for v in values.tolist()]
        return tuple(map(distinct_r.__getitem__, idx.reshape(-1).tolist()))
    return tuple(to_fmpq(x, f"r[{i}]") * scale for i, x in enumerate(reward_vector(r, n)))


def require_stochastic_rows(ptr: Int64Array, num: Int64Array, den: Int64Array) -> None:
    """Every row of the CSR arrays sums to exactly 1 (:class:`~exactpte.errors.RowSumError` naming the first that does not).

    Vectorised over each row's least common denominator ``D_s`` when ``D_s`` and the scaled
    numerators fit in 62 bits (the usual case: small denominators); those rows that do not are
    checked in exact rationals.
    """
    import numpy as np

    n = len(ptr) - 1
    counts = np.diff(ptr)
    empty = np.flatnonzero(counts == 0)
    if len(empty):
        raise RowSumError(f"row {empty[0]} sums to 0, expected exactly 1")
    starts = ptr[:-1]
    small = den < 2**31
    safe_den = np.where(small, den, 1)
    D = np.lcm.reduceat(safe_den, starts)  # exact while it stays below 2^62 (checked next)
    row_of = np.repeat(np.arange(n), counts)
    fits = np.logical_and.reduceat(small, starts) & (D < 2**40) & (D > 0)
    scale = D[row_of] // safe_den
    fits &= np.logical_and.reduceat((num < 2**62 // np.maximum(counts[row_of], 1) // np.maximum(scale, 1)) & (scale > 0), starts)
    sums = np.add.reduceat(np.where(fits[row_of], num * scale, 0), starts)
    bad_rows = np.flatnonzero(fits & (sums != D)).tolist()[:1] + np.flatnonzero(~fits).tolist()
    for i in sorted(bad_rows):
        total = sum((flint.fmpq(int(a), int(b)) for a, b in zip(num[ptr[i] : ptr[i + 1]], den[ptr[i] : ptr[i + 1]])), flint.fmpq(0))
        if total != 1:
            raise RowSumError(f"row {i} sums to {brief(total)}, expected exactly 1")


def unique_inverse(keys: "npt.NDArray[np.integer[Any]]") -> "tuple[npt.NDArray[np.integer[Any]], npt.NDArray[np.intp]]":
    """``np.unique(keys, return_inverse=True)`` for integer keys; by a presence table, without a sort,
    when the keys span a small range (the distinct probabilities of a chain are few).

    Examples
    --------
    >>> import numpy as np
    >>> values, inverse = unique_inverse(np.array([7, 3, 7, 5]))
    >>> values.tolist(), inverse.tolist()
    ([3, 5, 7], [2, 0, 2, 1])
    """
    import numpy as np

    if not len(keys):
        return keys, np.zeros(0, dtype=np.int64)
    low, high = int(keys.min()), int(keys.max())
    if high - low > 2**24 or high >= 2**63:  # (uint64 keys past int64: np.unique keeps their dtype)
        values, inverse = np.unique(keys, return_inverse=True)
        return values, inverse.reshape(-1)
    present = np.zeros(high - low + 1, dtype=bool)
    shifted = keys - low
    present[shifted] = True
    rank = np.cumsum(present) - 1
    return np.flatnonzero(present) + low, rank[shifted]
