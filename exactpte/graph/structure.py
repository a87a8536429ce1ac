"""Structure of the support graph: SCCs, closed classes, periods, cyclic classes, anchors.

Everything here works on the support graph alone (successor lists), iteratively
(no recursion limit) and in time linear in the number of edges.  Conventions
(``docs/json-contract.md``, "Conventions"): classes are ordered by their smallest state;
phase 0 of a class is the cyclic class holding its smallest state, so one step
from ``C_{i,k}`` enters ``C_{i,k+1 mod d_i}``; the canonical anchor ``a_{i,k}``
is the smallest state of ``C_{i,k}``.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from exactpte.errors import AnchorError, ShapeError, brief
from exactpte.graph.plain import plain_structure_parts
from exactpte.graph.support import SMALL_GRAPH, HasSupportGraph, is_small, support_matrix
from exactpte.numbers.scalars import as_int, numpy_if_loaded

if TYPE_CHECKING:
    import scipy.sparse as sp

__all__ = ["Structure", "chain_structure", "graph_structure", "plain_structure"]


def _require_successors(succ: Any) -> None:
    """Successor lists of a graph on ``0..n-1`` (:class:`~exactpte.errors.ShapeError` otherwise)."""
    if isinstance(succ, (str, bytes)) or not isinstance(succ, Sequence) or not len(succ):
        raise ShapeError(f"a support graph is a non-empty list of successor lists, got {type(succ).__name__}")
    n = len(succ)
    np = numpy_if_loaded()
    for s, row in enumerate(succ):
        if isinstance(row, (str, bytes)) or not (isinstance(row, Sequence) or (np is not None and isinstance(row, np.ndarray))):
            raise ShapeError(f"successors of state {s} must be a list of states, got {type(row).__name__}")
        for j in row:
            if as_int(j) is None or not 0 <= j < n:
                raise ShapeError(f"state {s} has successor {brief(j, 20, quoted=True)}, expected a state in 0..{n - 1}")


@dataclass(frozen=True)
class Structure:
    """Canonical structure of a chain's support graph.

    ``classes[i]`` lists the states of closed class ``F_i`` (sorted), ``periods[i]``
    its period ``d_i``, ``cyclic_classes[i][k]`` the states of ``C_{i,k}``;
    ``transient`` the transient states; ``transient_sccs`` the SCCs of the
    transient part in reverse topological order (downstream first).
    """

    n: int
    classes: tuple[tuple[int, ...], ...]
    periods: tuple[int, ...]
    cyclic_classes: tuple[tuple[tuple[int, ...], ...], ...]
    transient: tuple[int, ...]
    transient_blocks: tuple[tuple[int, ...], tuple[int, ...]] = field(repr=False, default=((), (0,)))
    """The transient SCCs, flat: ``(states, starts)``, SCC ``j`` is ``states[starts[j]:starts[j+1]]``."""

    @cached_property
    def transient_sccs(self) -> tuple[tuple[int, ...], ...]:
        """The SCCs of the transient part in reverse topological order (downstream first)."""
        states, starts = self.transient_blocks
        return tuple(tuple(states[a:b]) for a, b in zip(starts, starts[1:]))

    @cached_property
    def class_of(self) -> tuple[int, ...]:
        """Class index of every state, ``-1`` for transient states."""
        out = [-1] * self.n
        for i, cls in enumerate(self.classes):
            for s in cls:
                out[s] = i
        return tuple(out)

    @cached_property
    def phase_of(self) -> tuple[int, ...]:
        """Phase (cyclic class index) of every state, ``-1`` for transient states."""
        out = [-1] * self.n
        for cyc in self.cyclic_classes:
            for k, states in enumerate(cyc):
                for s in states:
                    out[s] = k
        return tuple(out)

    @property
    def index_set(self) -> tuple[tuple[int, int], ...]:
        """The pairs ``(i, k)`` in basis-column order, ``N = len(index_set)``."""
        return tuple((i, k) for i, d in enumerate(self.periods) for k in range(d))

    @property
    def N(self) -> int:
        """Number of peripheral coordinates ``N = sum_i d_i = dim K(P)``."""
        return sum(self.periods)

    @cached_property
    def column_of(self) -> dict[tuple[int, int], int]:
        """Basis column of every pair ``(class, phase)``."""
        return {ik: c for c, ik in enumerate(self.index_set)}

    def canonical_anchors(self) -> tuple[tuple[int, ...], ...]:
        """``a_{i,k}`` = smallest state of ``C_{i,k}`` (per class, per phase)."""
        return tuple(tuple(states[0] for states in cyc) for cyc in self.cyclic_classes)

    def validate_anchors(self, anchors: Any) -> tuple[tuple[int, ...], ...]:
        """Check user anchors: one state of ``C_{i,k}`` for every ``(i, k)``.

        Accepts ``None`` (canonical anchors), per-class groups ``[[a_00, a_01], [a_10]]``,
        a flat sequence of ``N`` states in ``(class, phase)`` order, or a mapping
        ``{(i, k): state}``.
        """
        if anchors is None:
            return self.canonical_anchors()
        if isinstance(anchors, dict):
            missing = [ik for ik in self.index_set if ik not in anchors]
            extra = [ik for ik in anchors if ik not in self.column_of]
            if missing or extra:
                raise AnchorError(f"anchor mapping must have exactly the keys (class, phase) = {list(self.index_set)}; "
                                  f"missing {missing}, unknown {extra}")
            groups = [[anchors[(i, k)] for k in range(d)] for i, d in enumerate(self.periods)]
        else:
            if isinstance(anchors, (str, bytes)) or not isinstance(anchors, Iterable):
                raise AnchorError(f"anchors must be per-class lists, a flat list of N = {self.N} states or a mapping "
                                  f"{{(class, phase): state}}, got {brief(anchors, 40, quoted=True)}")
            items = list(anchors)
            if items and all(isinstance(a, (list, tuple)) for a in items):
                if len(items) != len(self.classes):
                    raise AnchorError(f"{len(items)} anchor groups given for {len(self.classes)} closed classes")
                groups = [list(g) for g in items]
                for i, g in enumerate(groups):
                    if len(g) != self.periods[i]:
                        raise AnchorError(
                            f"class {i} has period {self.periods[i]} and needs {self.periods[i]} anchors, got {len(g)}"
                        )
            else:
                if len(items) != self.N:
                    raise AnchorError(f"{len(items)} anchors given, expected N = {self.N} (one per cyclic class)")
                it = iter(items)
                groups = [[next(it) for _ in range(d)] for d in self.periods]
        out = []
        for i, group in enumerate(groups):
            row = []
            for k, s in enumerate(group):
                if as_int(s) is None or not 0 <= s < self.n:
                    raise AnchorError(f"anchor for class {i}, phase {k} is {s!r}, expected a state index in 0..{self.n - 1}")
                s = int(s)
                if self.class_of[s] != i or self.phase_of[s] != k:
                    where = "transient" if self.class_of[s] < 0 else f"in class {self.class_of[s]}, phase {self.phase_of[s]}"
                    raise AnchorError(
                        f"anchor for class {i}, phase {k} is state {s}, which is {where}; "
                        f"choose a state of C_{{{i},{k}}} = {list(self.cyclic_classes[i][k])}"
                    )
                row.append(s)
            out.append(tuple(row))
        return tuple(out)


def chain_structure(succ: "Sequence[Sequence[int]] | HasSupportGraph") -> Structure:
    """Canonical :class:`Structure` of a support graph (``lem:recurrent_decomp``).

    Closed classes are the closed strongly connected components; the period of a class is the
    gcd of its cycle lengths, its cyclic classes the BFS levels mod the period.  Linear in the
    number of edges.

    Parameters
    ----------
    succ : sequence of sequences of int, or a chain
        Successor lists (``succ[s]`` = states reachable in one step from ``s``), checked; or
        anything with a ``support_graph`` (a chain: its graph is used as it is, and
        ``chain.structure`` caches the same result).

    Returns
    -------
    Structure
        Classes ordered by smallest state, phase 0 holding the class's smallest state,
        transient SCCs downstream first.

    Examples
    --------
    >>> s = chain_structure([[1], [2], [1], [0, 3]])
    >>> s.classes, s.periods, s.cyclic_classes, s.transient
    (((1, 2),), (2,), (((1,), (2,)),), (0, 3))
    >>> import exactpte
    >>> chain_structure(exactpte.example("branching")) == exactpte.example("branching").structure
    True
    """
    if isinstance(succ, HasSupportGraph):
        return graph_structure(succ.support_graph)
    _require_successors(succ)
    indptr = [0]
    for row in succ:
        indptr.append(indptr[-1] + len(row))
    if indptr[-1] <= SMALL_GRAPH:
        return plain_structure(len(succ), indptr, [int(j) for row in succ for j in sorted(row)])
    return graph_structure(support_matrix(succ))


def plain_structure(n: int, indptr: list[int], indices: list[int]) -> Structure:
    """The :class:`Structure` of the graph whose state ``s`` has the successors
    ``indices[indptr[s]:indptr[s+1]]``, in plain Python (:mod:`exactpte.graph.plain`: no numpy, no
    scipy; what :func:`graph_structure` gives, for graphs of up to :data:`SMALL_GRAPH` edges).

    Examples
    --------
    >>> plain_structure(3, [0, 1, 2, 3], [1, 0, 0]).transient
    (2,)
    """
    return Structure(**plain_structure_parts(n, indptr, indices))  # type: ignore[arg-type]


def graph_structure(graph: "sp.csr_matrix") -> Structure:
    """Canonical :class:`Structure` of a support graph given as a square scipy CSR matrix (not
    checked: the pure-graph entry point :attr:`Chain.structure <exactpte.model.chain.Chain.structure>` calls).

    Examples
    --------
    >>> import numpy as np
    >>> from exactpte.graph.support import csr_graph
    >>> graph_structure(csr_graph(3, [0, 1, 2, 3], np.array([1, 0, 0]))).transient
    (2,)
    """
    if is_small(graph):  # the one place a small graph is sent to plain Python (no numpy pass per class)
        return plain_structure(graph.shape[0], graph.indptr.tolist(), graph.indices.tolist())
    import numpy as np

    from exactpte.graph.components import closed_components, reverse_topological_components, strongly_connected_components
    from exactpte.graph.periods import closed_class_phases

    n = graph.shape[0]
    k, labels = strongly_connected_components(graph)
    closed = closed_components(graph, k, labels)
    order = np.argsort(labels, kind="stable")  # states grouped by label, ascending inside
    bounds = np.searchsorted(labels[order], np.arange(k + 1))
    classes, periods, cyclic = closed_class_phases(graph, labels, closed)
    transient_labels = np.flatnonzero(~closed)
    topo = np.asarray(reverse_topological_components(graph, labels, transient_labels), dtype=np.int64)
    sizes = bounds[topo + 1] - bounds[topo]
    starts = np.zeros(len(topo) + 1, dtype=np.int64)
    np.cumsum(sizes, out=starts[1:])
    if len(topo) and not np.array_equal(topo, transient_labels):  # topological sort was needed: regroup
        flat = np.concatenate([order[bounds[c] : bounds[c + 1]] for c in topo.tolist()])
    else:
        flat = order[~closed[labels[order]]]
    transient = tuple(np.flatnonzero(~closed[labels]).tolist())
    return Structure(
        n=n,
        classes=tuple(classes),
        periods=tuple(periods),
        cyclic_classes=tuple(cyclic),
        transient=transient,
        transient_blocks=(tuple(flat.tolist()), tuple(starts.tolist())),
    )
