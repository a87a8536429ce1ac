"""The Markov reward process ``(P, r)``: exact input, validated up front, over a field.

:class:`Chain` is what every algorithm sees: a row-stochastic ``P`` stored sparsely
(support columns and values per row) over an exact field (:mod:`exactpte.fields`), a reward
``r``, labels, and the support-graph structure (computed once).  :class:`MarkovRewardProcess`
is the rational chain; :class:`exactpte.parametric.ParametricChain` the parametric one.
Both are validated by the same function, :func:`validated_rows`, so that every later stage
may assume a valid chain; errors name the row, entry or size at fault.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from typing import Any

import flint
import numpy as np

from ._numbers import FloatPolicy, to_fmpq
from .errors import (
    EntryError,
    LabelError,
    NegativeEntryError,
    RowSumError,
    ShapeError,
    UsageError,
)
from .fields import QQ, Field

__all__ = ["Chain", "MarkovRewardProcess", "check_chain", "validated_rows", "sparse_from_edges", "sparse_from_dense", "check_labels", "reward_vector", "dense_rows"]


class Chain:
    """What every chain offers the algorithms: sparse rows over an exact field, rewards, structure.

    Subclasses set ``n``, ``field``, ``r``, ``labels``, ``notes`` and the sparse rows (through
    :func:`validated_rows`), kept in CSR form: ``_ptr`` (row starts), ``_indices`` (a numpy
    array of columns, increasing within a row) and ``_values`` (the exact entries, aligned), so
    the support graph goes to scipy without a Python pass over the edges.

    Attributes
    ----------
    n : int
        Number of states (``0 .. n-1``).
    field : Field
        The exact field of the entries.
    r : tuple
        The reward, one field element per state.
    labels : tuple of str or None
        Display names of the states.
    notes : tuple of str
        Conversions stated by the reader that built the chain (e.g. decimals read exactly).
    """

    __slots__ = ()
    n: int
    field: Field
    r: tuple[Any, ...]
    labels: tuple[str, ...] | None
    notes: tuple[str, ...]
    _ptr: list[int]
    _indices: np.ndarray
    _values: tuple[Any, ...]

    # -- access -----------------------------------------------------------------------
    def row(self, i: int) -> tuple[tuple[int, Any], ...]:
        """Row ``i`` of ``P`` as ``(column, probability)`` pairs over its support, columns increasing.

        Examples
        --------
        >>> MarkovRewardProcess([["1/2", "1/2"], [0, 1]], [0, 0]).row(0)
        ((0, 1/2), (1, 1/2))
        """
        a, b = self._ptr[i], self._ptr[i + 1]
        return tuple(zip(self._indices[a:b].tolist(), self._values[a:b]))

    def edges(self) -> Iterator[tuple[int, int, Any]]:
        """Every transition ``(i, j, P[i, j])`` with ``P[i, j] != 0``, row by row."""
        cols = self._indices.tolist()
        for i in range(self.n):
            for e in range(self._ptr[i], self._ptr[i + 1]):
                yield i, cols[e], self._values[e]

    @cached_property
    def support(self) -> tuple[tuple[int, ...], ...]:
        """The support graph: the successors of every state (sorted)."""
        cols, ptr = self._indices.tolist(), self._ptr
        return tuple(tuple(cols[ptr[i] : ptr[i + 1]]) for i in range(self.n))

    @cached_property
    def csr_lists(self) -> tuple[list[int], list[int], tuple]:
        """``(ptr, columns, values)``: row ``i``'s entries are ``columns[ptr[i]:ptr[i+1]]`` with
        ``values`` alike, as Python lists (for loops that visit every edge once without a call per row).

        Examples
        --------
        >>> ptr, cols, _ = MarkovRewardProcess([["1/2", "1/2"], [0, 1]], [0, 0]).csr_lists
        >>> ptr, cols
        ([0, 2, 3], [0, 1, 1])
        """
        return list(self._ptr), self._indices.tolist(), self._values

    @cached_property
    def support_graph(self):
        """The support graph as a scipy CSR 0/1 matrix (shares the chain's column array; float64 entries,
        which scipy's graph routines take without a converted copy)."""
        import scipy.sparse as sp

        return sp.csr_matrix((np.ones(len(self._indices)), self._indices, np.asarray(self._ptr, dtype=np.int64)),
                             shape=(self.n, self.n))

    @property
    def nnz(self) -> int:
        """Number of nonzero transition probabilities."""
        return len(self._indices)

    @cached_property
    def structure(self):
        """Closed classes, periods, cyclic classes (computed once; see :mod:`exactpte.structure`)."""
        from .structure import chain_structure

        return chain_structure(self)  # a chain's support is valid by construction: no Python pass to re-check it

    def label(self, s: int) -> str:
        """The display name of state ``s`` (its index when the chain has no labels)."""
        return self.labels[s] if self.labels is not None else str(s)

    def dense(self) -> list[list]:
        """``P`` as an n x n list of exact rows (materialises n^2 entries)."""
        z = self.field.zero
        out = []
        for i in range(self.n):
            row = [z] * self.n
            for j, q in self.row(i):
                row[j] = q
            out.append(row)
        return out

    def matvec(self, x: Sequence) -> list:
        """``P x`` by sparse rows."""
        z = self.field.zero
        out = []
        for i in range(self.n):
            acc = z
            for j, q in self.row(i):
                acc += q * x[j]
            out.append(acc)
        return out

    def _repr_html_(self) -> str:
        from html import escape

        text = self.field.to_text
        rows = []
        for s in range(min(self.n, 60)):
            succ = ", ".join(f"{escape(self.label(j))}: {escape(text(q))}" for j, q in self.row(s))
            rows.append(f"<tr><td>{escape(self.label(s))}</td><td>{escape(text(self.r[s]))}</td><td>{succ}</td></tr>")
        more = f"<p>… {self.n - 60} more states</p>" if self.n > 60 else ""
        return (f"<p><b>{escape(type(self).__name__)}</b>: n = {self.n}, {self.nnz} transitions over {escape(self.field.name)}</p>"
                f"<table><thead><tr><th>state</th><th>r</th><th>transitions</th></tr></thead><tbody>{''.join(rows)}</tbody></table>{more}")

    def with_reward(self, r: Any) -> "Chain":
        """The same transition matrix with another reward (entries converted by the chain's field);
        the support-graph structure is shared, not recomputed.

        Examples
        --------
        >>> m = MarkovRewardProcess([["1/2", "1/2"], [0, 1]], [1, 0])
        >>> [str(x) for x in m.with_reward([0, "1/3"]).r], m.with_reward([0, 1]).structure is m.structure
        (['0', '1/3'], True)
        """
        return _FieldChain(self, self.field, reward=r)

    def over(self, field: Field) -> "Chain":
        """The same chain with its entries in another exact field (each converted with ``field.scalar``).

        Used to cross-check the two arithmetic fields: a rational chain over ``QQ()`` (rational
        functions of no parameter) must decompose to the same numbers as over ``QQ``.

        Examples
        --------
        >>> from exactpte.fields import RationalFunctionField
        >>> m = MarkovRewardProcess([["1/2", "1/2"], [0, 1]], [1, 0])
        >>> [str(x) for x in m.over(RationalFunctionField(())).r]
        ['1', '0']
        """
        return _FieldChain(self, field)

    def _set_rows(self, rows: Sequence[Sequence[tuple[int, Any]]], *, identically: bool = False) -> None:
        cols, vals = validated_rows(rows, self.field, identically=identically)
        ptr = [0]
        for c in cols:
            ptr.append(ptr[-1] + len(c))
        self._set_csr(ptr, np.fromiter((j for c in cols for j in c), dtype=np.int64, count=ptr[-1]),
                      tuple(q for v in vals for q in v))

    def _set_csr(self, ptr: list[int], indices: np.ndarray, values: tuple) -> None:
        self._ptr, self._indices, self._values = ptr, indices, values
        indices.setflags(write=False)

    def _same_rows(self, other: "Chain") -> bool:
        return self._ptr == other._ptr and np.array_equal(self._indices, other._indices) and self._values == other._values


class _FieldChain(Chain):
    """A chain's entries re-expressed in another field (:meth:`Chain.over`)."""

    def __init__(self, chain: Chain, field: Field, *, reward: Any = None) -> None:
        self.n, self.field, self.labels, self.notes = chain.n, field, chain.labels, chain.notes
        same = field is chain.field
        self._set_csr(chain._ptr, chain._indices, chain._values if same else tuple(field.scalar(q) for q in chain._values))
        if reward is None:
            self.r = tuple(field.scalar(x) for x in chain.r)
        else:
            self.r = tuple(field.convert(x, f"r[{i}]") for i, x in enumerate(reward_vector(reward, chain.n)))
        self.__dict__["structure"] = chain.structure  # the support graph is the same: share its analysis

    def __repr__(self) -> str:
        return f"Chain(n={self.n}, field={self.field.name})"


class MarkovRewardProcess(Chain):
    """A finite Markov reward process with exact rational entries.

    Parameters
    ----------
    P : matrix-like
        Nested lists (ints, ``Fraction``, strings such as ``"3/7"``), a sympy rational
        matrix, a ``flint.fmpq_mat``/``fmpz_mat`` or a numpy integer array (with
        ``denominator=`` for a common denominator).  Rows must sum to exactly 1.
    r : vector-like
        The reward, one exact number per state.
    labels : sequence of str, optional
        Display names, unique, one per state (states are always the indices ``0..n-1``).
    denominator : int, optional
        Divide every entry of ``P`` by this (for integer arrays).
    floats : {"refuse", "exact"}
        Floats are refused unless ``"exact"`` (the float's exact binary value) ...
    limit_denominator : int, optional
        ... or the nearest fraction with at most this denominator.

    Raises
    ------
    InvalidChainError
        A subclass naming the fault: :class:`ShapeError`, :class:`EntryError`,
        :class:`FloatEntryError`, :class:`NegativeEntryError`, :class:`RowSumError`,
        :class:`LabelError`.

    Examples
    --------
    >>> m = MarkovRewardProcess([["1/2", "1/2"], [0, 1]], [1, 0], labels=["s", "t"])
    >>> m.n, m.row(0), str(m.r[0])
    (2, ((0, 1/2), (1, 1/2)), '1')
    >>> MarkovRewardProcess([[1, 0], ["1/2", "3/5"]], [0, 0])
    Traceback (most recent call last):
    ...
    exactpte.errors.RowSumError: row 1 sums to 11/10, expected exactly 1
    """

    __slots__ = ("n", "_ptr", "_indices", "_values", "r", "labels", "notes", "__dict__")
    field = QQ

    def __init__(
        self,
        P: Any,
        r: Any,
        labels: Sequence[str] | None = None,
        *,
        denominator: int | None = None,
        floats: str = "refuse",
        limit_denominator: int | None = None,
    ) -> None:
        policy = FloatPolicy(floats, limit_denominator)
        scale = _denominator_scale(denominator)

        def convert(x: Any, where: str) -> flint.fmpq:
            return to_fmpq(x, where, policy) * scale

        rows = dense_rows(P, denominator)
        self._init(len(rows), sparse_from_dense(rows, convert), r, labels, policy)

    # -- alternative constructors -------------------------------------------------
    @classmethod
    def from_edges(
        cls,
        n: int,
        edges: Iterable[tuple[int, int, Any]],
        r: Any,
        labels: Sequence[str] | None = None,
        *,
        floats: str = "refuse",
        limit_denominator: int | None = None,
    ) -> "MarkovRewardProcess":
        """Build from a sparse edge list ``(i, j, p)``; zero probabilities are dropped.

        Examples
        --------
        >>> m = MarkovRewardProcess.from_edges(2, [(0, 1, 1), (1, 0, "1/2"), (1, 1, "1/2")], [0, 1])
        >>> m.row(1)
        ((0, 1/2), (1, 1/2))
        """
        policy = FloatPolicy(floats, limit_denominator)
        rows = sparse_from_edges(n, edges, lambda p, where: to_fmpq(p, where, policy))
        self = cls.__new__(cls)
        self._init(n, rows, r, labels, policy)
        return self

    @classmethod
    def from_arrays(
        cls,
        n: int,
        rows: Any,
        cols: Any,
        numerators: Any,
        denominators: Any,
        r: Any,
        labels: Sequence[str] | None = None,
        *,
        reward_denominator: int = 1,
    ) -> "MarkovRewardProcess":
        """Build from integer edge arrays: ``P[rows[e], cols[e]] = numerators[e] / denominators[e]``.

        The fast path for large chains (numpy in): validation is vectorised (indices in range,
        no transition given twice, entries ``>= 0``, every row summing to exactly 1 over a
        common denominator), the support goes straight into CSR, and only the distinct
        probabilities become Python ``fmpq`` objects.  ``r`` may be an integer array
        (divided by ``reward_denominator``) or anything the other constructors accept.

        Examples
        --------
        >>> import numpy as np
        >>> m = MarkovRewardProcess.from_arrays(2, np.array([0, 0, 1]), np.array([0, 1, 0]),
        ...                                     np.array([1, 1, 1]), np.array([2, 2, 1]), np.array([3, 0]))
        >>> m == MarkovRewardProcess([["1/2", "1/2"], [1, 0]], [3, 0])
        True
        >>> MarkovRewardProcess.from_arrays(2, [0, 0, 1], [0, 1, 0], [1, 2, 1], [2, 3, 1], [0, 0])
        Traceback (most recent call last):
        ...
        exactpte.errors.RowSumError: row 0 sums to 7/6, expected exactly 1
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise ShapeError(f"n must be a positive int, got {n!r:.30}")
        n = int(n)
        arrays = []
        for name, a in (("rows", rows), ("cols", cols), ("numerators", numerators), ("denominators", denominators)):
            a = np.asarray(a)
            if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
                raise ShapeError(f"{name} must be a 1-d integer array, got shape {a.shape} and dtype {a.dtype}")
            arrays.append(a.astype(np.int64, copy=False))
        rows, cols, num, den = arrays
        if not len(rows) == len(cols) == len(num) == len(den):
            raise ShapeError(f"rows, cols, numerators, denominators have lengths {len(rows)}, {len(cols)}, {len(num)}, "
                             f"{len(den)}; expected one entry per transition in each")
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
            raise NegativeEntryError(f"P[{rows[e]}][{cols[e]}] is {flint.fmpq(int(num[e]), int(den[e]))}, expected a probability >= 0")
        in_order = bool(np.all((rows[1:] > rows[:-1]) | ((rows[1:] == rows[:-1]) & (cols[1:] > cols[:-1]))))
        if not in_order:  # (edges given row by row, columns ascending, need no sort)
            order = np.argsort(rows * n + cols, kind="stable") if n < 2**31 else np.lexsort((cols, rows))
            rows, cols, num, den = rows[order], cols[order], num[order], den[order]
        dup = np.flatnonzero((rows[1:] == rows[:-1]) & (cols[1:] == cols[:-1]))
        if len(dup):
            raise ShapeError(f"the transition {rows[dup[0]]} -> {cols[dup[0]]} is given twice; give each transition once")
        keep = num != 0
        rows, cols, num, den = rows[keep], cols[keep], num[keep], den[keep]
        ptr = np.searchsorted(rows, np.arange(n + 1))
        _check_row_sums(ptr, num, den)
        width = int(den.max(initial=1)) + 1
        if int(num.max(initial=0)) < 2**62 // width:  # one int64 key per (numerator, denominator) pair
            keys, inverse = _unique(num * width + den)
            pairs = np.stack([keys // width, keys % width], axis=1)
        else:
            pairs, inverse = np.unique(np.stack([num, den], axis=1), axis=0, return_inverse=True)
        distinct = [flint.fmpq(int(a), int(b)) for a, b in pairs.tolist()]
        self = cls.__new__(cls)
        self.n = n
        self._set_csr(ptr.tolist(), cols.copy(), tuple(map(distinct.__getitem__, inverse.reshape(-1).tolist())))
        r_arr = np.asarray(r) if isinstance(r, np.ndarray) else None
        if r_arr is not None and r_arr.ndim == 1 and r_arr.dtype.kind in "iu" and len(r_arr) == n:
            values, idx = _unique(r_arr)
            scale = flint.fmpq(1, reward_denominator)
            distinct_r = [flint.fmpq(int(v)) * scale for v in values.tolist()]
            self.r = tuple(map(distinct_r.__getitem__, idx.reshape(-1).tolist()))
        else:
            scale = flint.fmpq(1, reward_denominator)
            self.r = tuple(to_fmpq(x, f"r[{i}]") * scale for i, x in enumerate(reward_vector(r, n)))
        self.labels = check_labels(labels, n)
        self.notes = ()
        return self

    @classmethod
    def from_policy(
        cls,
        transitions: Any,
        rewards: Any,
        policy: Any,
        labels: Sequence[str] | None = None,
    ) -> "MarkovRewardProcess":
        """The chain a stationary policy induces on a finite MDP (paper, Section 2).

        ``transitions[a][s][s']`` is ``P(s' | s, a)``, ``rewards[s][a]`` the reward and
        ``policy[s][a]`` the probability of action ``a`` in state ``s``; then
        ``P(s'|s) = sum_a pi(a|s) P(s'|s,a)`` and ``r(s) = sum_a pi(a|s) r(s,a)``.

        Examples
        --------
        >>> m = MarkovRewardProcess.from_policy(
        ...     [[[1, 0], [0, 1]], [[0, 1], [1, 0]]], [[1, 0], [0, 2]], [["1/2", "1/2"], [0, 1]])
        >>> m.row(0), m.row(1), [str(x) for x in m.r]
        (((0, 1/2), (1, 1/2)), ((0, 1),), ['1/2', '2'])
        """
        mats = [dense_rows(M, None) for M in _sequence(transitions, "transitions", "one matrix per action")]
        A = len(mats)
        if A == 0:
            raise ShapeError("the MDP has no actions")
        n = len(mats[0])
        if n == 0:
            raise ShapeError("the MDP has no states")
        for a, M in enumerate(mats):
            if len(M) != n or any(len(row) != n for row in M):
                raise ShapeError(f"transitions[{a}] is not {n}x{n}")
        rewards = [_sequence(row, f"rewards[{s}]", "one reward per action") for s, row in
                   enumerate(_sequence(rewards, "rewards", "one row per state"))]
        policy = [_sequence(row, f"policy[{s}]", "one probability per action") for s, row in
                  enumerate(_sequence(policy, "policy", "one row per state"))]
        if len(rewards) != n or len(policy) != n:
            raise ShapeError(f"rewards and policy need {n} rows (one per state), got {len(rewards)} and {len(policy)}")
        P_rows, r = [], []
        for s in range(n):
            if len(policy[s]) != A or len(rewards[s]) != A:
                raise ShapeError(f"policy[{s}] and rewards[{s}] need {A} entries (one per action)")
            pis = [to_fmpq(policy[s][a], f"policy[{s}][{a}]") for a in range(A)]
            for a, p in enumerate(pis):
                if p < 0:
                    raise NegativeEntryError(f"policy[{s}][{a}] is {p}, expected a probability >= 0")
            total = sum(pis, flint.fmpq(0))
            if total != 1:
                raise RowSumError(f"policy[{s}] sums to {total}, expected exactly 1")
            action_rows = [[to_fmpq(x, f"transitions[{a}][{s}][{j}]") for j, x in enumerate(mats[a][s])] for a in range(A)]
            for a, row in enumerate(action_rows):
                row_sum = sum(row, flint.fmpq(0))
                if row_sum != 1:
                    raise RowSumError(f"transitions[{a}] row {s} sums to {row_sum}, expected exactly 1")
            P_rows.append([
                sum((pis[a] * action_rows[a][j] for a in range(A) if pis[a] != 0), flint.fmpq(0)) for j in range(n)
            ])
            r.append(sum((pis[a] * to_fmpq(rewards[s][a], f"rewards[{s}][{a}]") for a in range(A) if pis[a] != 0), flint.fmpq(0)))
        return cls(P_rows, r, labels)

    @classmethod
    def from_sparse(
        cls,
        matrix: Any,
        r: Any,
        labels: Sequence[str] | None = None,
        *,
        denominator: int | None = None,
        floats: str = "refuse",
        limit_denominator: int | None = None,
    ) -> "MarkovRewardProcess":
        """From a scipy sparse matrix (or anything with ``tocoo()``), converted exactly.

        Integer data with ``denominator=`` is exact; float data needs an explicit
        conversion (``floats="exact"`` or ``limit_denominator=N``), as everywhere.

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> m = MarkovRewardProcess.from_sparse(sp.csr_matrix([[1, 1], [0, 2]]), [0, 1], denominator=2)
        >>> m.row(0)
        ((0, 1/2), (1, 1/2))
        """
        try:
            coo = matrix.tocoo()
        except AttributeError:
            raise ShapeError(f"from_sparse takes a scipy sparse matrix, got {type(matrix).__name__}") from None
        if coo.shape[0] != coo.shape[1]:
            raise ShapeError(f"P is {coo.shape[0]}x{coo.shape[1]}, expected a square matrix")
        policy = FloatPolicy(floats, limit_denominator)
        integer = coo.data.dtype.kind in "iu"
        if denominator is not None and not integer:
            raise EntryError(f"denominator= needs integer data, got dtype {coo.data.dtype}")
        scale = _denominator_scale(denominator)
        edges = [(i, j, to_fmpq(x, f"P[{i}][{j}]", policy) * scale)
                 for i, j, x in zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist())]
        return cls.from_edges(coo.shape[0], edges, r, labels, floats=floats, limit_denominator=limit_denominator)

    # -- validation -----------------------------------------------------------------
    def _init(self, n: int, rows, r, labels, policy: FloatPolicy) -> None:
        self.n = n
        self._set_rows(rows)
        self.r = tuple(to_fmpq(x, f"r[{i}]", policy) for i, x in enumerate(reward_vector(r, n)))
        self.labels = check_labels(labels, n)
        self.notes: tuple[str, ...] = ()

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, MarkovRewardProcess)
            and self.r == other.r
            and self._same_rows(other)
        )

    def __hash__(self) -> int:
        return hash((self._indices.tobytes(), self._values, self.r))

    def to_fmpq_mat(self) -> flint.fmpq_mat:
        """``P`` as a dense ``flint.fmpq_mat``."""
        return flint.fmpq_mat(self.dense())

    def __repr__(self) -> str:
        return f"MarkovRewardProcess(n={self.n}, nnz={self.nnz})"


def _unique(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(keys, return_inverse=True)`` for integer keys; by a presence table, without a sort,
    when the keys span a small range (the distinct probabilities of a chain are few).

    Examples
    --------
    >>> values, inverse = _unique(np.array([7, 3, 7, 5]))
    >>> values.tolist(), inverse.tolist()
    ([3, 5, 7], [2, 0, 2, 1])
    """
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


def _check_row_sums(ptr: np.ndarray, num: np.ndarray, den: np.ndarray) -> None:
    """Every row of the CSR arrays sums to exactly 1 (:class:`~exactpte.errors.RowSumError` naming the first that does not).

    Vectorised over each row's least common denominator ``D_s`` when ``D_s`` and the scaled
    numerators fit in 62 bits (the usual case: small denominators); those rows that do not are
    checked in exact rationals.
    """
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
            raise RowSumError(f"row {i} sums to {total}, expected exactly 1")


def check_chain(chain: Any) -> Chain:
    """``chain`` itself, after checking it is a chain (:class:`~exactpte.errors.UsageError` otherwise)."""
    if not isinstance(chain, Chain):
        raise UsageError(f"expected a MarkovRewardProcess or ParametricChain, got {type(chain).__name__}"
                         + (" (read a file with exactpte.load)" if isinstance(chain, (str, bytes)) else ""))
    return chain


# -- the one validator ------------------------------------------------------------------------
def validated_rows(
    rows: Sequence[Sequence[tuple[int, Any]]], field: Field, *, identically: bool = False
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[Any, ...], ...]]:
    """Sparse rows ``(columns, values)`` of a row-stochastic matrix, zeros dropped, after checking
    that no entry is negative (:meth:`Field.is_negative`) and every row sums to exactly 1.

    ``rows[i]`` lists ``(j, P[i, j])`` pairs with increasing ``j``, entries already in ``field``.
    ``identically`` says, in the row-sum message, that equality is identical in the parameters.

    Examples
    --------
    >>> validated_rows([[(0, QQ.one)], [(0, QQ.one / 2), (1, QQ.one / 3)]], QQ)
    Traceback (most recent call last):
    ...
    exactpte.errors.RowSumError: row 1 sums to 5/6, expected exactly 1
    """
    cols: list[tuple[int, ...]] = []
    vals: list[tuple[Any, ...]] = []
    one = field.one
    for i, row in enumerate(rows):
        c, v = [], []
        total = field.zero
        for j, q in row:
            if q == 0:
                continue
            if field.is_negative(q):
                raise NegativeEntryError(
                    f"P[{i}][{j}] is {field.to_text(q)}, "
                    + ("which is negative for every value of the parameters" if field.is_parametric and not field.is_constant(q)
                       else "expected a probability >= 0"))
            c.append(j)
            v.append(q)
            total = total + q
        if total != one:
            raise RowSumError(f"row {i} sums to {field.to_text(total)}, expected exactly 1"
                              + (" (identically in the parameters)" if identically else ""))
        cols.append(tuple(c))
        vals.append(tuple(v))
    return tuple(cols), tuple(vals)


def sparse_from_edges(n: Any, edges: Any, convert: Callable[[Any, str], Any]) -> list[list[tuple[int, Any]]]:
    """Rows of ``(j, convert(p))`` pairs from an edge list ``(i, j, p)``, columns increasing.

    Checked before anything is allocated: ``n`` is a positive int and at most the number of
    edges (every row of a stochastic matrix has a nonzero entry, so a chain of ``n`` states has at
    least ``n`` transitions); then every index is in range and no transition is given twice.

    Examples
    --------
    >>> sparse_from_edges(10**12, [(0, 0, 1)], lambda p, where: p)
    Traceback (most recent call last):
    ...
    exactpte.errors.ShapeError: n = 1000000000000 states need at least n transitions (every row sums to 1), but 1 edge is given
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ShapeError(f"n must be a positive int, got {n!r}")
    if isinstance(edges, (str, bytes, Mapping)) or not isinstance(edges, Iterable):
        raise ShapeError(f"edges must be a sequence of (i, j, p) triples, got {type(edges).__name__}")
    edges = list(edges)
    if n > len(edges):
        raise ShapeError(f"n = {n} states need at least n transitions (every row sums to 1), but "
                         f"{len(edges)} edge{'' if len(edges) == 1 else 's'} {'is' if len(edges) == 1 else 'are'} given")
    row_maps: list[dict[int, Any]] = [dict() for _ in range(n)]
    for e_idx, edge in enumerate(edges):
        if isinstance(edge, (str, bytes, Mapping)) or not isinstance(edge, (tuple, list)) or len(edge) != 3:
            raise ShapeError(f"edge {e_idx} is {edge!r:.60}, expected a triple (i, j, p)")
        i, j, p = edge
        for name, s in (("source", i), ("target", j)):
            if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or not 0 <= s < n:
                raise ShapeError(f"edge {e_idx} has {name} {s!r:.30}, expected a state index in 0..{n - 1}")
        i, j = int(i), int(j)
        if j in row_maps[i]:
            raise ShapeError(f"edge {e_idx} repeats the transition {i} -> {j}; give each transition once")
        row_maps[i][j] = convert(p, f"edge {e_idx} ({i} -> {j})")
    return [sorted(rm.items()) for rm in row_maps]


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


def check_labels(labels: Sequence[Any] | None, n: int) -> tuple[str, ...] | None:
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


def reward_vector(r: Any, n: int) -> list:
    """The reward as a list of ``n`` raw entries (any vector-like input)."""
    out = _vector(r)
    if len(out) != n:
        raise ShapeError(f"reward has length {len(out)}, expected {n} (one per state of P)")
    return out


def _vector(r: Any) -> list:
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


def dense_rows(P: Any, denominator: int | None = None) -> list[Sequence[Any]]:
    """The rows of any matrix-like input as lists of raw entries (nothing converted yet)."""
    if isinstance(P, (flint.fmpq_mat, flint.fmpz_mat)):
        return [list(row) for row in P.tolist()]
    if isinstance(P, np.ndarray):
        if P.ndim != 2:
            raise ShapeError(f"P has {P.ndim} dimensions, expected a 2-d matrix")
        if P.dtype.kind in "iu":
            return [[int(x) for x in row] for row in P.tolist()]
        if denominator is not None:
            raise EntryError(f"denominator= needs an integer array, got dtype {P.dtype}")
        return P.tolist()  # floats are refused entry by entry, with their position
    if type(P).__module__.startswith("sympy") and hasattr(P, "tolist"):  # a sympy Matrix (sympy not imported here)
        return P.tolist()
    if isinstance(P, (str, bytes, Mapping)) or not isinstance(P, Iterable):
        raise ShapeError(f"P must be a matrix (nested sequences), got {type(P).__name__}")
    rows = []
    for i, row in enumerate(P):
        if isinstance(row, (str, bytes, Mapping)) or not isinstance(row, Iterable):
            raise ShapeError(f"row {i} of P is not a sequence ({row!r})")
        rows.append(list(row))
    return rows


def _sequence(x: Any, name: str, what: str) -> list:
    """``x`` as a list, after checking it is a sequence (numpy arrays included), not a string or mapping."""
    if isinstance(x, np.ndarray):
        return list(x)
    if isinstance(x, (str, bytes, Mapping)) or not isinstance(x, Sequence):
        raise ShapeError(f"{name} must be a sequence ({what}), got {type(x).__name__}")
    return list(x)


def _denominator_scale(denominator: int | None) -> flint.fmpq:
    """``1 / denominator`` (1 when none is given), after checking it is a positive int."""
    if denominator is None:
        return flint.fmpq(1)
    if isinstance(denominator, bool) or not isinstance(denominator, int) or denominator < 1:
        raise EntryError(f"denominator must be a positive int, got {denominator!r}")
    return flint.fmpq(1, denominator)
