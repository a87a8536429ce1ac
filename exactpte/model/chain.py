"""The Markov reward process ``(P, r)``: exact input, validated up front, over a field.

:class:`Chain` is what every algorithm sees: a row-stochastic ``P`` stored sparsely
(support columns and values per row) over an exact field (:mod:`exactpte.fields`), a reward
``r``, labels, and the support-graph structure (computed once).  :class:`MarkovRewardProcess`
is the rational chain; :class:`exactpte.model.parametric.ParametricChain` the parametric one.
Both are validated by the same function, :func:`validated_rows`, so that every later stage
may assume a valid chain; errors name the row, entry or size at fault.  Turning user input
(matrices, edge lists, arrays, labels) into rows is :mod:`exactpte.numbers.arrays`'s job; the
support-graph analysis is :mod:`exactpte.graph.structure`'s, which knows nothing of chains.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar

import flint

from exactpte.numbers.scalars import FloatPolicy, to_fmpq
from exactpte.numbers.arrays import (
    require_labels,
    require_stochastic_rows,
    csr_edges,
    dense_rows,
    denominator_scale,
    edge_arrays,
    exact_reward,
    fractions_of,
    reward_vector,
    sequence_of,
    sparse_from_dense,
    sparse_from_edges,
)
from exactpte.errors import EntryError, NegativeEntryError, RowSumError, ShapeError, UsageError, brief
from exactpte.fields import QQ, Field, RationalField
from exactpte.numbers.from_floats import Converter, ImportReport, require_repair, require_tol, exact_rows, repair_row, repaired_rows
from exactpte.graph.structure import Structure, graph_structure, plain_structure
from exactpte.graph.support import SMALL_GRAPH, csr_graph
from exactpte.deprecation import renamed

if TYPE_CHECKING:  # pragma: no cover
    import scipy.sparse as sp

__all__ = ["Chain", "MarkovRewardProcess", "require_chain", "validated_rows", "import_chain", "MAX_DENSE_STATES"]

if not TYPE_CHECKING:  # old names, for one release (mypy sees only the new ones)
    __getattr__ = renamed(__name__, {"check_chain": "require_chain"})

MAX_DENSE_STATES = 5000
"""The most states for which :attr:`Chain.P` builds the dense matrix (25 million entries)."""

C = TypeVar("C", bound="Chain")


Csr: TypeAlias = "tuple[list[int], array[int], tuple[Any, ...]]"
"""A chain's transition matrix in CSR form, ``(ptr, indices, values)``: row ``i``'s columns are
``indices[ptr[i]:ptr[i+1]]`` (increasing), its entries ``values`` alike; ``n = len(ptr) - 1``.  A plain
tuple: every chain is built through one, and a named tuple's constructor would cost a Python call each time."""


class Chain:
    """What every chain offers the algorithms: sparse rows over an exact field, rewards, structure.

    Every constructor ends in one place, :meth:`_assign` (``__init__`` directly, the others through
    :meth:`_from_csr`), which sets ``n``, ``field`` (when the class does not fix it), ``r``, ``labels``,
    ``notes`` and the sparse rows (checked by :func:`validated_rows` or, for edge arrays, vectorised),
    kept in CSR form: ``_ptr`` (row starts), ``_indices`` (an ``array('q')`` of columns, increasing within
    a row, which numpy and scipy read without a copy) and ``_values`` (the exact entries, aligned), so
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

    __slots__ = ("n", "_ptr", "_indices", "_values", "r", "labels", "notes", "__dict__")  # (__dict__: cached properties)
    n: int
    field: Field[Any]
    r: tuple[Any, ...]
    labels: tuple[str, ...] | None
    notes: tuple[str, ...]
    _ptr: list[int]
    _indices: array[int]
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
    def csr_lists(self) -> tuple[list[int], list[int], tuple[Any, ...]]:
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
    def support_graph(self) -> "sp.csr_matrix":
        """The support graph as a scipy CSR 0/1 matrix (shares the chain's column array; float64 entries,
        which scipy's graph routines take without a converted copy; a read-only view of it)."""
        graph = csr_graph(self.n, self._ptr, self._indices)
        graph.indices.setflags(write=False)
        return graph

    @property
    def nnz(self) -> int:
        """Number of nonzero transition probabilities."""
        return len(self._indices)

    @cached_property
    def structure(self) -> Structure:
        """Closed classes, periods, cyclic classes (computed once; see :mod:`exactpte.graph.structure`)."""
        # a chain's support is valid by construction: not re-checked.  A small graph in plain Python
        # (no numpy import on the exact route), a large one on its CSR arrays (numpy, scipy)
        if self.nnz <= SMALL_GRAPH:
            return plain_structure(self.n, self._ptr, self._indices.tolist())
        return graph_structure(self.support_graph)

    def label(self, s: int) -> str:
        """The display name of state ``s`` (its index when the chain has no labels)."""
        return self.labels[s] if self.labels is not None else str(s)

    @cached_property
    def P(self) -> tuple[tuple[Any, ...], ...]:
        """The transition matrix: ``chain.P[i][j]`` is ``P(i -> j)``, an exact entry (0 off the support).

        A tuple of ``n`` row tuples (immutable, like the chain), built on first access and cached;
        a chain of more than :data:`MAX_DENSE_STATES` states refuses it
        (:class:`~exactpte.errors.UsageError`): use :meth:`row`, :meth:`edges` or
        :func:`exactpte.model.to_float.float_sparse_matrix` there.

        Examples
        --------
        >>> m = MarkovRewardProcess([["1/2", "1/2"], [0, 1]], [1, 0])
        >>> m.P
        ((1/2, 1/2), (0, 1))
        >>> m.P[0][1], m.P is m.P
        (1/2, True)
        """
        if self.n > MAX_DENSE_STATES:
            raise UsageError(f"chain.P would hold {self.n}^2 entries (n > {MAX_DENSE_STATES}); use chain.row(i), "
                             f"chain.edges() or exactpte.model.to_float.float_sparse_matrix(chain) for a chain this large")
        return tuple(tuple(row) for row in self.dense())

    def dense(self) -> list[list[Any]]:
        """``P`` as an n x n list of exact rows (materialises n^2 entries)."""
        z = self.field.zero
        out = []
        for i in range(self.n):
            row = [z] * self.n
            for j, q in self.row(i):
                row[j] = q
            out.append(row)
        return out

    def matvec(self, x: Sequence[Any]) -> list[Any]:
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
        return _FieldChain.of(self, self.field, reward=r)

    def over(self, field: Field[Any]) -> "Chain":
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
        return _FieldChain.of(self, field)

    # -- the one construction path ------------------------------------------------------
    @classmethod
    def _from_csr(cls: type[C], csr: Csr, r: tuple[Any, ...], *, labels: tuple[str, ...] | None,
                  notes: tuple[str, ...] = (), field: Field[Any] | None = None, structure: Structure | None = None) -> C:
        """A chain of class ``cls`` from parts already checked: every constructor but ``__init__`` ends here
        (``__init__`` ends in :meth:`_assign`, which this calls), as sympy's ``DomainMatrix.from_rep``."""
        self = object.__new__(cls)
        self._assign(csr, r, labels=labels, notes=notes, field=field, structure=structure)
        return self

    def _assign(self, csr: Csr, r: tuple[Any, ...], *, labels: tuple[str, ...] | None, notes: tuple[str, ...] = (),
                field: Field[Any] | None = None, structure: Structure | None = None) -> None:
        """Set every attribute of a chain from checked parts; nothing else assigns them.  ``field``
        is given when the class does not fix it (``MarkovRewardProcess``'s is ``QQ``); ``structure``
        when the support graph's analysis is shared with another chain."""
        self._ptr, self._indices, self._values = csr
        self.n = len(self._ptr) - 1
        self.r, self.labels, self.notes = r, labels, notes
        if field is not None:
            self.field = field
        if structure is not None:
            self.__dict__["structure"] = structure

    def _same_rows(self, other: "Chain") -> bool:
        return self._ptr == other._ptr and self._indices == other._indices and self._values == other._values


class _FieldChain(Chain):
    """A chain's entries re-expressed in another field (:meth:`Chain.over`)."""

    @classmethod
    def of(cls, chain: Chain, field: Field[Any], *, reward: Any = None) -> "_FieldChain":
        """``chain`` over ``field``, with ``reward`` (converted) instead of its own when given."""
        values = chain._values if field is chain.field else tuple(field.scalar(q) for q in chain._values)
        if reward is None:
            r = tuple(field.scalar(x) for x in chain.r)
        else:
            r = tuple(field.convert(x, f"r[{i}]") for i, x in enumerate(reward_vector(reward, chain.n)))
        # the support graph is the same: share its analysis
        return cls._from_csr((chain._ptr, chain._indices, values), r, labels=chain.labels, notes=chain.notes,
                             field=field, structure=chain.structure)

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

    __slots__ = ()
    field: RationalField = QQ
    r: tuple[flint.fmpq, ...]

    def __init__(
        self,
        P: Any,
        r: Any,
        *,
        labels: Sequence[str] | None = None,
        denominator: int | None = None,
        floats: str = "refuse",
        limit_denominator: int | None = None,
    ) -> None:
        policy = FloatPolicy(floats, limit_denominator)
        scale = denominator_scale(denominator)

        def convert(x: Any, where: str) -> flint.fmpq:
            return to_fmpq(x, where, policy) * scale

        rows = dense_rows(P, denominator)
        try:
            with _float_hint(policy):
                csr, reward, names = _exact_parts(sparse_from_dense(rows, convert), r, labels, policy)
        except RowSumError as e:  # numpy integers with no denominator=: numerators read as probabilities
            sums = set(P.sum(axis=1).tolist()) if denominator is None and getattr(getattr(P, "dtype", None), "kind", "") in "iu" \
                and getattr(P, "ndim", 0) == 2 else set()
            if len(sums) == 1 and min(sums) > 1:
                raise RowSumError(f"{e} (every row of this integer array sums to {min(sums)}: if the entries are numerators, "
                                  f"pass denominator={min(sums)})") from None
            raise
        self._assign(csr, reward, labels=names)

    @classmethod
    def from_float(
        cls,
        P: Any,
        r: Any,
        *,
        labels: Sequence[str] | None = None,
        limit_denominator: int | None = None,
        repair: str | None = "largest",
        tol: Any = 1e-9,
    ) -> "MarkovRewardProcess":
        """An exact chain from a float model under a stated rule (:mod:`exactpte.numbers.from_floats`).

        Every float entry becomes its exact binary value (or, with ``limit_denominator=N``, the
        nearest fraction with denominator at most ``N``); then each row's difference ``1 - sum``
        is put on its largest entry (``repair="largest"``), or removed by dividing the row by its
        sum (``"proportional"``), or refused (``None``).  A row more than ``tol`` away from 1 is
        refused (:class:`~exactpte.errors.RowSumError`).  ``notes`` records the rule, the rows
        repaired and the largest change; :func:`import_chain` returns the
        full report as well.  ``P`` may also be a scipy sparse matrix or a list of ``{column: p}`` rows.

        Examples
        --------
        >>> m = MarkovRewardProcess.from_float([[1/3, 1/3, 1/3], [0, 0.5, 0.5], [0, 0, 1]], [1.0, 0, 0])
        >>> sum(q for _, q in m.row(0)) == 1, m.notes[0]
        (True, 'floats read as their exact binary values')
        >>> MarkovRewardProcess.from_float([[1/3, 1/3, 1/3]] * 3, [0] * 3, limit_denominator=100).row(0)
        ((0, 1/3), (1, 1/3), (2, 1/3))
        """
        chain, _ = import_chain(P, r, labels=labels, limit_denominator=limit_denominator, repair=repair, tol=tol)
        return chain

    @classmethod
    def _from_exact_rows(cls, rows: Sequence[Sequence[tuple[int, Any]]], r: Sequence[Any], *,
                         labels: Sequence[str] | None = None, notes: tuple[str, ...] = ()) -> "MarkovRewardProcess":
        """A chain from sparse rows of exact entries (validated again) and an exact reward."""
        csr, reward, names = _exact_parts(rows, r, labels, FloatPolicy())
        return cls._from_csr(csr, reward, labels=names, notes=tuple(notes))

    @classmethod
    def _from_csr_lists(cls, ptr: list[int], cols: list[int], vals: list[flint.fmpq], r: Sequence[flint.fmpq]) -> "MarkovRewardProcess":
        """A chain from CSR lists of exact entries (row ``i`` at ``ptr[i]:ptr[i+1]``, columns increasing and in
        range: a reader's own checks) and ``n`` ``fmpq`` rewards, validated (:func:`validated_csr`)."""
        ptr, cols, vals = validated_csr(ptr, cols, vals, QQ)
        return cls._from_csr((ptr, array("q", cols), tuple(vals)), tuple(r), labels=None)

    # -- alternative constructors -------------------------------------------------
    @classmethod
    def from_edges(
        cls,
        n: int,
        edges: Iterable[tuple[int, int, Any]],
        r: Any,
        *,
        labels: Sequence[str] | None = None,
        floats: str = "refuse",
        limit_denominator: int | None = None,
        duplicates: str = "error",
        repair: str | None = None,
        tol: Any = 1e-9,
    ) -> "MarkovRewardProcess":
        """Build from a sparse edge list ``(i, j, p)``; zero probabilities are dropped.

        A transition given twice is refused, unless ``duplicates="sum"`` (its probabilities are
        added, after conversion).  Floats need ``floats="exact"`` or ``limit_denominator=N``;
        ``repair="largest"`` (or ``"proportional"``) then repairs rows within ``tol`` of 1 as
        :meth:`from_float` does, and ``notes`` records what changed.

        Examples
        --------
        >>> m = MarkovRewardProcess.from_edges(2, [(0, 1, 1), (1, 0, "1/2"), (1, 1, "1/2")], [0, 1])
        >>> m.row(1)
        ((0, 1/2), (1, 1/2))
        >>> MarkovRewardProcess.from_edges(1, [(0, 0, 1/3)] * 3, [0], duplicates="sum", limit_denominator=10).notes
        ('floats converted to the nearest fraction with denominator at most 10 (limit_denominator=10), largest change of an entry 1.9e-17', '2 duplicate transition listings summed')
        """
        policy = FloatPolicy(floats, limit_denominator)
        if duplicates == "error" and repair is None:
            rows = sparse_from_edges(n, edges, lambda p, where: to_fmpq(p, where, policy))
            with _float_hint(policy):
                csr, reward, names = _exact_parts(rows, r, labels, policy)
            return cls._from_csr(csr, reward, labels=names)
        tol_q, convert, summed = require_tol(tol), Converter(policy), [0]
        raw = sparse_from_edges(n, edges, convert, duplicates=duplicates, summed=summed)
        require_repair(repair)
        rows, report = repaired_rows(raw, repair, tol_q, convert, summed[0])
        exact_r = [to_fmpq(x, f"r[{i}]", policy) for i, x in enumerate(reward_vector(r, len(rows)))]
        return cls._from_exact_rows(rows, exact_r, labels=labels, notes=report.notes())

    @classmethod
    def from_arrays(
        cls,
        n: int,
        rows: Any,
        cols: Any,
        numerators: Any,
        denominators: Any,
        r: Any,
        *,
        labels: Sequence[str] | None = None,
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
        n, (rows, cols, num, den) = edge_arrays(n, rows, cols, numerators, denominators)
        ptr, cols, num, den = csr_edges(n, rows, cols, num, den)
        require_stochastic_rows(ptr, num, den)
        csr = (ptr.tolist(), array("q", cols.astype("int64").tobytes()), fractions_of(num, den))
        return cls._from_csr(csr, exact_reward(r, n, reward_denominator), labels=require_labels(labels, n))

    @classmethod
    def from_policy(
        cls,
        transitions: Any,
        rewards: Any,
        policy: Any,
        *,
        labels: Sequence[str] | None = None,
        floats: str = "refuse",
        limit_denominator: int | None = None,
        repair: str | None = None,
        tol: Any = 1e-9,
    ) -> "MarkovRewardProcess":
        """The chain a stationary policy induces on a finite MDP (paper, Section 2).

        ``transitions[a][s][s']`` is ``P(s' | s, a)``, ``rewards[s][a]`` the reward and
        ``policy[s][a]`` the probability of action ``a`` in state ``s``; then
        ``P(s'|s) = sum_a pi(a|s) P(s'|s,a)`` and ``r(s) = sum_a pi(a|s) r(s,a)``.

        Floats (transitions, rewards, policy) need ``floats="exact"`` or ``limit_denominator=N``
        as everywhere; ``repair="largest"`` (or ``"proportional"``) then repairs every row of
        ``transitions[a]`` and of ``policy`` within ``tol`` of summing to 1, as
        :meth:`from_float` does (``notes`` records it).  For gymnasium's ``env.P`` dictionaries
        see :func:`exactpte.io.gym.from_gym`.

        Examples
        --------
        >>> m = MarkovRewardProcess.from_policy(
        ...     [[[1, 0], [0, 1]], [[0, 1], [1, 0]]], [[1, 0], [0, 2]], [["1/2", "1/2"], [0, 1]])
        >>> m.row(0), m.row(1), [str(x) for x in m.r]
        (((0, 1/2), (1, 1/2)), ((0, 1),), ['1/2', '2'])
        >>> m = MarkovRewardProcess.from_policy([[[1/3, 1/3, 1/3]] * 3], [[0.5]] * 3, [[1.0]] * 3, floats="exact", repair="largest")
        >>> sum(q for _, q in m.row(0)) == 1, m.notes[1][:37]
        (True, "3 rows repaired by the 'largest' rule")
        """
        fpolicy = FloatPolicy(floats, limit_denominator)
        tol_q = require_tol(tol)
        require_repair(repair)
        convert = Converter(fpolicy)
        mats, rewards, policy = _mdp_tables(transitions, rewards, policy)
        n, A = len(mats[0]), len(mats)
        repairs = []

        def repaired(pairs: list[tuple[int, flint.fmpq]], name: str, row: int, entry: str) -> dict[int, flint.fmpq]:
            fixed, rp = repair_row(pairs, repair, tol_q, row=row, name=name, entry=entry)
            if rp is not None:
                repairs.append(rp)
            return dict(fixed)

        zero = flint.fmpq(0)
        P_rows, r = [], []
        for s in range(n):
            if len(policy[s]) != A or len(rewards[s]) != A:
                raise ShapeError(f"policy[{s}] and rewards[{s}] need {A} entries (one per action)")
            pis = repaired([(a, convert(policy[s][a], f"policy[{s}][{a}]")) for a in range(A)], f"policy[{s}]", s, f"policy[{s}][{{j}}]")
            row: dict[int, flint.fmpq] = {}
            for a, pi in pis.items():
                action_row = repaired([(j, convert(x, f"transitions[{a}][{s}][{j}]")) for j, x in enumerate(mats[a][s])],
                                      f"transitions[{a}] row {s}", s, f"transitions[{a}][{s}][{{j}}]")
                for j, q in action_row.items():
                    row[j] = row.get(j, zero) + pi * q
            for a in range(A):  # every action's row is checked, even one the policy never takes
                if a not in pis:
                    repaired([(j, convert(x, f"transitions[{a}][{s}][{j}]")) for j, x in enumerate(mats[a][s])],
                             f"transitions[{a}] row {s}", s, f"transitions[{a}][{s}][{{j}}]")
            P_rows.append(sorted(row.items()))
            r.append(sum((pi * convert(rewards[s][a], f"rewards[{s}][{a}]") for a, pi in pis.items()), zero))
        report = ImportReport(convert.rule(), repair, tol_q, tuple(repairs), convert.max_change, tuple(convert.zeroed))
        return cls._from_exact_rows(P_rows, r, labels=labels, notes=report.notes())

    @classmethod
    def from_sparse(
        cls,
        matrix: Any,
        r: Any,
        *,
        labels: Sequence[str] | None = None,
        denominator: int | None = None,
        floats: str = "refuse",
        limit_denominator: int | None = None,
        repair: str | None = None,
        tol: Any = 1e-9,
    ) -> "MarkovRewardProcess":
        """From a scipy sparse matrix (or anything with ``tocoo()``), converted exactly.

        Integer data with ``denominator=`` is exact; float data needs an explicit
        conversion (``floats="exact"`` or ``limit_denominator=N``), as everywhere, and
        ``repair="largest"`` repairs its rows within ``tol`` as :meth:`from_float` does.  Entries
        stored twice (a COO matrix may hold them) are added, as scipy does.

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
        scale = denominator_scale(denominator)
        edges = [(i, j, to_fmpq(x, f"P[{i}][{j}]", policy) * scale)
                 for i, j, x in zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist())]
        return cls.from_edges(coo.shape[0], edges, r, labels=labels, duplicates="sum", repair=repair, tol=tol)

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


@contextmanager
def _float_hint(policy: FloatPolicy) -> Iterator[None]:
    """A row-sum error after a float conversion says how to repair the rows."""
    try:
        yield
    except RowSumError as e:
        if policy.mode == "refuse":
            raise
        raise RowSumError(f"{e} (the entries are converted floats: MarkovRewardProcess.from_float, or repair='largest' "
                          f"in from_edges/from_policy, repairs rows within a tolerance and reports the change)") from None


def _exact_parts(rows: Sequence[Sequence[tuple[int, flint.fmpq]]], r: Any, labels: Sequence[Any] | None,
                 policy: FloatPolicy) -> tuple[Csr, tuple[flint.fmpq, ...], tuple[str, ...] | None]:
    """A rational chain's parts, checked in this order: the rows (:func:`validated_rows`), the reward
    (converted under ``policy``), the labels."""
    csr = csr_of_rows(rows, QQ)
    n = len(rows)
    return csr, tuple(to_fmpq(x, f"r[{i}]", policy) for i, x in enumerate(reward_vector(r, n))), require_labels(labels, n)


def require_chain(chain: Any) -> Chain:
    """``chain`` itself, after checking it is a chain (:class:`~exactpte.errors.UsageError` otherwise).

    (Formerly ``check_chain``: a ``check_*`` name runs checks and returns verdicts; the old name warns for one release.)

    Examples
    --------
    >>> require_chain("chain.json")
    Traceback (most recent call last):
    ...
    exactpte.errors.UsageError: expected a MarkovRewardProcess or ParametricChain, got str (read a file with exactpte.load)
    """
    if not isinstance(chain, Chain):
        raise UsageError(f"expected a MarkovRewardProcess or ParametricChain, got {type(chain).__name__}"
                         + (" (read a file with exactpte.load)" if isinstance(chain, (str, bytes)) else ""))
    return chain


# -- the one validator ------------------------------------------------------------------------
def validated_rows(
    rows: Sequence[Sequence[tuple[int, Any]]], field: Field[Any], *, identically: bool = False
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[Any, ...], ...]]:
    """Sparse rows ``(columns, values)`` of a row-stochastic matrix, zeros dropped, after checking
    that no entry is negative (:meth:`Field.is_negative`) and every row sums to exactly 1
    (:func:`validated_csr` on the rows laid end to end).

    ``rows[i]`` lists ``(j, P[i, j])`` pairs with increasing ``j``, entries already in ``field``.
    ``identically`` says, in the row-sum message, that equality is identical in the parameters.

    Examples
    --------
    >>> validated_rows([[(0, QQ.one)], [(0, QQ.one / 2), (1, QQ.one / 3)]], QQ)
    Traceback (most recent call last):
    ...
    exactpte.errors.RowSumError: row 1 sums to 5/6, expected exactly 1
    """
    ptr, cols, vals = validated_csr(*_laid_end_to_end(rows), field, identically=identically)
    return (tuple(tuple(cols[ptr[i] : ptr[i + 1]]) for i in range(len(rows))),
            tuple(tuple(vals[ptr[i] : ptr[i + 1]]) for i in range(len(rows))))


def _laid_end_to_end(rows: Sequence[Sequence[tuple[int, Any]]]) -> tuple[list[int], list[int], list[Any]]:
    """``(ptr, columns, values)`` of sparse rows (CSR lists)."""
    ptr = [0]
    for row in rows:
        ptr.append(ptr[-1] + len(row))
    cols = [j for row in rows for j, _ in row]
    return ptr, cols, [q for row in rows for _, q in row]


def validated_csr(ptr: list[int], cols: list[int], vals: list[Any], field: Field[Any], *,
                  identically: bool = False) -> tuple[list[int], list[int], list[Any]]:
    """CSR lists of a row-stochastic matrix (row ``i``'s entries at ``ptr[i]:ptr[i+1]``, columns
    increasing), zeros dropped, after checking that no entry is negative and every row sums to exactly 1.

    A file's repeated entry is one object (its reader parses each text once), so rows repeat the same few
    tuples of objects: each distinct entry object is checked, and each distinct tuple summed, once (by ids;
    the lists keep every object alive meanwhile).  The first fault in row order is the one reported (within
    a row, a negative entry before the row's sum).

    Examples
    --------
    >>> validated_csr([0, 1, 3], [0, 0, 1], [QQ.one, QQ.one / 2, QQ.zero], QQ)
    Traceback (most recent call last):
    ...
    exactpte.errors.RowSumError: row 1 sums to 1/2, expected exactly 1
    """
    first = dict(zip(map(id, reversed(vals)), range(len(vals) - 1, -1, -1)))  # id -> first position
    negative, zeros = len(vals), False
    for e in first.values():
        q = vals[e]
        if q == 0:
            zeros = True
        elif e < negative and field.is_negative(q):
            negative = e
    if zeros:
        kept = [e for e, q in enumerate(vals) if q != 0]
        ptr_kept, k = [0], 0
        for end in ptr[1:]:
            while k < len(kept) and kept[k] < end:
                k += 1
            ptr_kept.append(k)
        negative = next((k for k, e in enumerate(kept) if e >= negative), len(kept))
        ptr, cols, vals = ptr_kept, [cols[e] for e in kept], [vals[e] for e in kept]
    ids = list(map(id, vals))
    keys = list(map(tuple, map(ids.__getitem__, map(slice, ptr, ptr[1:]))))  # each row's entry objects
    first_row = dict(zip(reversed(keys), range(len(keys) - 1, -1, -1)))
    faulty = len(keys)  # the first row whose entries do not sum to 1
    for key, i in first_row.items():
        if i < faulty:
            a, b = ptr[i], ptr[i + 1]
            if (sum(vals[a + 1 : b], vals[a]) if b > a else field.zero) != field.one:
                faulty = i
    if negative < len(vals) and bisect_right(ptr, negative) - 1 <= faulty:  # the row of the first negative entry
        i, j, q = bisect_right(ptr, negative) - 1, cols[negative], vals[negative]
        raise NegativeEntryError(
            f"P[{i}][{j}] is {brief(field.to_text(q))}, "
            + ("which is negative for every value of the parameters" if field.is_parametric and not field.is_constant(q)
               else "expected a probability >= 0"))
    if faulty < len(keys):
        a, b = ptr[faulty], ptr[faulty + 1]
        total = sum(vals[a + 1 : b], vals[a]) if b > a else field.zero
        raise RowSumError(f"row {faulty} sums to {brief(field.to_text(total))}, expected exactly 1"
                          + (" (identically in the parameters)" if identically else ""))
    return ptr, cols, vals


def csr_of_rows(rows: Sequence[Sequence[tuple[int, Any]]], field: Field[Any], *, identically: bool = False) -> Csr:
    """The CSR form of sparse rows, after :func:`validated_rows` (zeros dropped, rows checked).

    Examples
    --------
    >>> csr_of_rows([[(0, QQ.one)], [(0, QQ.one / 2), (1, QQ.one / 2)]], QQ)
    ([0, 1, 3], array('q', [0, 0, 1]), (1, 1/2, 1/2))
    """
    ptr, cols, vals = validated_csr(*_laid_end_to_end(rows), field, identically=identically)
    return ptr, array("q", cols), tuple(vals)


def _mdp_tables(transitions: Any, rewards: Any, policy: Any) -> tuple[list[list[Sequence[Any]]], list[list[Any]], list[list[Any]]]:
    """An MDP's ``transitions[a]`` (``n x n`` each), ``rewards[s]`` and ``policy[s]`` as lists, their
    shapes checked (:class:`~exactpte.errors.ShapeError` names the table at fault); the entries
    are converted later."""
    mats = [dense_rows(M, None) for M in sequence_of(transitions, "transitions", "one matrix per action")]
    if not mats:
        raise ShapeError("the MDP has no actions")
    n = len(mats[0])
    if n == 0:
        raise ShapeError("the MDP has no states")
    for a, M in enumerate(mats):
        if len(M) != n or any(len(row) != n for row in M):
            raise ShapeError(f"transitions[{a}] is not {n}x{n}")
    reward_rows = [sequence_of(row, f"rewards[{s}]", "one reward per action") for s, row in
                   enumerate(sequence_of(rewards, "rewards", "one row per state"))]
    policy_rows = [sequence_of(row, f"policy[{s}]", "one probability per action") for s, row in
                   enumerate(sequence_of(policy, "policy", "one row per state"))]
    if len(reward_rows) != n or len(policy_rows) != n:
        raise ShapeError(f"rewards and policy need {n} rows (one per state), got {len(reward_rows)} and {len(policy_rows)}")
    return mats, reward_rows, policy_rows


def import_chain(
    P: Any,
    r: Any,
    *,
    n: int | None = None,
    labels: Sequence[str] | None = None,
    limit_denominator: int | None = None,
    repair: str | None = "largest",
    tol: Any = 1e-9,
    duplicates: str = "sum",
) -> "tuple[MarkovRewardProcess, ImportReport]":
    """An exact :class:`~exactpte.MarkovRewardProcess` from a float model, and the import's report.

    ``P`` is anything :func:`~exactpte.numbers.from_floats.exact_rows` takes (an edge list with ``n=``); the reward ``r`` is
    converted by the same float rule (not repaired).  The chain's ``notes`` record the report.

    Examples
    --------
    >>> chain, report = import_chain([[1/3, 1/3, 1/3], [0, 1, 0], [0, 0, 1.0]], [0.5, 1, 0])
    >>> chain.notes[1]
    "1 row repaired by the 'largest' rule (the difference 1 - sum added to the row's largest entry), largest change 5.6e-17 (row 0), tolerance 1e-09"
    >>> report.repairs[0].deficit == flint.fmpq(1, 2**54), chain.r[0]
    (True, 1/2)
    """
    rows, report = exact_rows(P, n=n, limit_denominator=limit_denominator, repair=repair, tol=tol, duplicates=duplicates)
    convert = Converter(FloatPolicy("exact", limit_denominator))
    reward = [convert(x, f"r[{i}]") for i, x in enumerate(reward_vector(r, len(rows)))]
    notes = report.notes()
    if convert.floats and report.rule == "exact input":
        notes = (convert.rule(),) + notes
    chain = MarkovRewardProcess._from_exact_rows(rows, reward, labels=labels, notes=notes)
    return chain, report
