"""Structure of the support graph: SCCs, closed classes, periods, cyclic classes, anchors.

Everything here works on the support graph alone (successor lists), iteratively
(no recursion limit) and in time linear in the number of edges.  Conventions
(``docs/json-contract.md``, "Conventions"): classes are ordered by their smallest state;
phase 0 of a class is the cyclic class holding its smallest state, so one step
from ``C_{i,k}`` enters ``C_{i,k+1 mod d_i}``; the canonical anchor ``a_{i,k}``
is the smallest state of ``C_{i,k}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

import numpy as np

from .errors import AnchorError, ShapeError

if TYPE_CHECKING:  # scipy loads only for graphs past SMALL_GRAPH edges (or when a caller asks scipy for more)
    import scipy.sparse as sp

__all__ = [
    "closed_class_phases",
    "support_matrix",
    "strongly_connected_components",
    "reverse_topological_components",
    "closed_components",
    "period_and_phases",
    "bfs_levels",
    "band_order",
    "chain_structure",
    "graph_structure",
    "csr_graph",
    "HasSupportGraph",
    "Structure",
    "SupportGraph",
    "SMALL_GRAPH",
]

SMALL_GRAPH = 20_000
"""Graphs with at most this many edges are analysed in plain Python (no SciPy import: a small chain's
``exactpte decompose`` does not pay SciPy's start-up); larger ones with scipy.sparse.csgraph."""


class SupportGraph:
    """A square 0/1 CSR graph (``indptr``, ``indices``) standing in for a scipy CSR matrix: the
    structure analysis reads its arrays directly; anything else (``graph[rows]``, ``tocoo()``,
    ``toarray()``, ``@``) goes to the scipy matrix, built (and SciPy imported) on first use."""

    def __init__(self, n: int, indptr: Any, indices: np.ndarray) -> None:
        self.shape = (n, n)
        self.indptr = np.asarray(indptr, dtype=np.int64)
        self.indices = indices
        self._csr: Any = None

    @property
    def nnz(self) -> int:
        """Number of edges."""
        return len(self.indices)

    @property
    def small(self) -> bool:
        """Whether the graph is analysed without SciPy (:data:`SMALL_GRAPH`)."""
        return self.nnz <= SMALL_GRAPH

    def scipy(self) -> "sp.csr_matrix":
        """The scipy CSR matrix (float64 ones), built once."""
        if self._csr is None:
            import scipy.sparse as sp

            self._csr = sp.csr_matrix((np.ones(len(self.indices)), self.indices, self.indptr), shape=self.shape)
        return self._csr

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_csr", "shape", "indptr", "indices"):
            raise AttributeError(name)
        return getattr(self.scipy(), name)

    def __getitem__(self, key: Any) -> Any:
        return self.scipy()[key]

    def __matmul__(self, other: Any) -> Any:
        return self.scipy() @ other

    def __rmatmul__(self, other: Any) -> Any:
        return other @ self.scipy()

    def __repr__(self) -> str:
        return f"SupportGraph(n={self.shape[0]}, nnz={self.nnz})"


def _as_scipy(graph: Any) -> "sp.csr_matrix":
    return graph.scipy() if isinstance(graph, SupportGraph) else graph


def _is_small(graph: Any) -> bool:
    return isinstance(graph, SupportGraph) and graph.small


@runtime_checkable
class HasSupportGraph(Protocol):
    """Anything that offers its support graph as a scipy CSR matrix (a chain does)."""

    @property
    def support_graph(self) -> "sp.csr_matrix":
        """The support graph: a square scipy CSR matrix, nonzero where a transition is possible."""


def csr_graph(n: int, indptr: Any, indices: np.ndarray) -> "sp.csr_matrix":
    """The graph on ``0..n-1`` whose state ``s`` has the successors ``indices[indptr[s]:indptr[s+1]]``,
    as a :class:`SupportGraph`: its arrays are read directly (``indices`` is shared, not copied), and
    it behaves as a scipy CSR 0/1 matrix otherwise (``.scipy()`` gives that matrix, float64 entries,
    built on first use), so a small chain's structure never imports SciPy.

    Examples
    --------
    >>> csr_graph(2, [0, 1, 2], np.array([1, 0])).toarray().tolist()
    [[0.0, 1.0], [1.0, 0.0]]
    """
    return cast("sp.csr_matrix", SupportGraph(n, indptr, indices))


def support_matrix(succ: Sequence[Sequence[int]]) -> "sp.csr_matrix":
    """The support graph of successor lists as a scipy CSR 0/1 matrix (:func:`csr_graph`)."""
    n = len(succ)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum([len(s) for s in succ], out=indptr[1:])
    indices = np.fromiter((j for s in succ for j in s), dtype=np.int64, count=int(indptr[-1]))
    return SupportGraph(n, indptr, indices).scipy()


def _edge_sources(graph: "sp.csr_matrix") -> np.ndarray:
    """The source state of every stored edge (``graph.indices`` holds the targets)."""
    return np.repeat(np.arange(graph.shape[0]), np.diff(graph.indptr))


def strongly_connected_components(graph: "sp.csr_matrix") -> tuple[int, np.ndarray]:
    """SCC labels of the support graph (scipy's linear-time algorithm).

    Examples
    --------
    >>> k, labels = strongly_connected_components(support_matrix([[1], [0, 2], [2]]))
    >>> k, bool(labels[0] == labels[1] != labels[2])
    (2, True)
    """
    if _is_small(graph):
        return _tarjan(graph.shape[0], graph.indptr.tolist(), graph.indices.tolist())
    from scipy.sparse import csgraph

    k, labels = csgraph.connected_components(_as_scipy(graph), directed=True, connection="strong")
    return int(k), labels


def _tarjan(n: int, indptr: list[int], indices: list[int]) -> tuple[int, np.ndarray]:
    """SCC labels by Tarjan's algorithm (iterative), numbered as components complete: after every
    component they reach, as scipy numbers them."""
    index, low, labels = [-1] * n, [0] * n, [-1] * n
    on_stack, stack = [False] * n, []
    k = counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        work = [[root, indptr[root]]]
        while work:
            frame = work[-1]
            v, i = frame
            if i < indptr[v + 1]:
                frame[1] = i + 1
                w = indices[i]
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append([w, indptr[w]])
                elif on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            work.pop()
            if work and low[v] < low[work[-1][0]]:
                low[work[-1][0]] = low[v]
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    labels[w] = k
                    if w == v:
                        break
                k += 1
    return k, np.array(labels, dtype=np.int32)


def closed_components(graph: "sp.csr_matrix", k: int, labels: np.ndarray) -> np.ndarray:
    """For each SCC label, whether the SCC is closed (no edge leaves it): ``lem:recurrent_decomp``.

    Examples
    --------
    >>> g = support_matrix([[1], [0, 2], [2]])
    >>> k, labels = strongly_connected_components(g)
    >>> closed = closed_components(g, k, labels)
    >>> bool(closed[labels[2]]), bool(closed[labels[0]])
    (True, False)
    """
    rows = _edge_sources(graph)
    leaving = labels[rows] != labels[graph.indices]
    closed = np.ones(k, dtype=bool)
    closed[labels[rows[leaving]]] = False
    return closed


def reverse_topological_components(graph: "sp.csr_matrix", labels: np.ndarray, comps: "Sequence[int] | np.ndarray") -> list[int]:
    """The SCC labels ``comps`` ordered downstream first (every SCC after those it reaches).

    This is the order in which absorbing systems on the transient part are solved
    block by block.  scipy's labels already come in that order (its SCC algorithm numbers a
    component when it completes, after everything it reaches), which one vectorised pass over
    the cross edges confirms; a topological sort runs only if it does not hold.

    Examples
    --------
    >>> g = support_matrix([[1], [2], [2], [0]])
    >>> k, labels = strongly_connected_components(g)
    >>> order = reverse_topological_components(g, labels, [labels[s] for s in (3, 0, 1)])
    >>> [s for c in order for s in (0, 1, 3) if labels[s] == c]
    [1, 0, 3]
    """
    lr, lc = labels[_edge_sources(graph)], labels[graph.indices]
    mask = lr != lc
    if bool(np.all(lr[mask] > lc[mask])):
        return np.sort(np.asarray(comps, dtype=np.int64)).tolist()
    wanted = set(int(c) for c in comps)
    pairs = set(zip(lr[mask].tolist(), lc[mask].tolist()))
    out_deg = {c: 0 for c in wanted}
    preds: dict[int, list[int]] = {c: [] for c in wanted}
    for a, b in pairs:
        if a in wanted and b in wanted:
            out_deg[a] += 1
            preds[b].append(a)
    ready = sorted(c for c, deg in out_deg.items() if deg == 0)
    order: list[int] = []
    while ready:
        c = ready.pop()
        order.append(c)
        for a in preds[c]:
            out_deg[a] -= 1
            if out_deg[a] == 0:
                ready.append(a)
    return order


def bfs_levels(graph: "sp.csr_matrix", source: int) -> np.ndarray:
    """Unweighted distances from ``source`` (``-1`` where unreachable): scipy's breadth-first tree,
    then each node's depth in it by pointer jumping (``log2(depth)`` vectorised passes).  The same
    numbers as ``csgraph.shortest_path(graph, unweighted=True, indices=source)``, without its fixed
    cost (70 µs a call, most of a small chain's structure analysis).

    Examples
    --------
    >>> bfs_levels(support_matrix([[1], [2], [0], [3]]), 0).tolist()
    [0, 1, 2, -1]
    """
    n = graph.shape[0]
    if _is_small(graph):
        ptr, cols = graph.indptr.tolist(), graph.indices.tolist()
        lev = [-1] * n
        lev[source] = 0
        queue = [source]
        for u in queue:  # the list grows while it is read: a FIFO queue
            for w in cols[ptr[u] : ptr[u + 1]]:
                if lev[w] < 0:
                    lev[w] = lev[u] + 1
                    queue.append(w)
        return np.array(lev, dtype=np.int64)
    from scipy.sparse import csgraph

    order, pred = csgraph.breadth_first_order(_as_scipy(graph), source, directed=True, return_predecessors=True)
    jump = np.arange(n)
    jump[order[1:]] = pred[order[1:]]  # the BFS tree's parent; the source and unreached nodes point at themselves
    dist = (jump != np.arange(n)).astype(np.int64)
    while True:
        up = jump[jump]
        if np.array_equal(up, jump):
            break
        dist += dist[jump]
        jump = up
    level = np.full(n, -1, dtype=np.int64)
    level[order] = dist[order]
    return level


def band_order(nodes: Sequence[int], neighbours: Any) -> list[int]:
    """The nodes in reverse Cuthill–McKee order: breadth first from a node of least degree, the
    neighbours of each node by increasing degree, then reversed (ties by node number, so the
    order is canonical).  A dense elimination of a block taken in this order fills little outside
    the band (a transient path keeps a narrow band whatever the states' numbering in the file).

    ``neighbours(s)`` gives the successors of ``s``; edges count in both directions, and only
    edges between ``nodes``.

    Examples
    --------
    >>> path = {0: [3], 3: [0, 1], 1: [3, 2], 2: [1]}      # 0 - 3 - 1 - 2, numbered out of order
    >>> band_order([0, 1, 2, 3], path.__getitem__)
    [2, 1, 3, 0]
    """
    inside = set(nodes)
    adjacent: dict[int, set[int]] = {s: set() for s in nodes}
    for s in nodes:
        for j in neighbours(s):
            if j in inside and j != s:
                adjacent[s].add(j)
                adjacent[j].add(s)

    def degree_then_number(v: int) -> tuple[int, int]:
        return len(adjacent[v]), v

    order: list[int] = []
    seen: set[int] = set()
    for start in sorted(nodes, key=degree_then_number):  # one start for each connected part
        if start in seen:
            continue
        seen.add(start)
        queue, head = [start], 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for w in sorted(adjacent[v] - seen, key=degree_then_number):
                seen.add(w)
                queue.append(w)
        order += queue
    return order[::-1]


def period_and_phases(graph: "sp.csr_matrix", members: np.ndarray) -> tuple[int, np.ndarray]:
    """Period ``d`` of a closed class and the phase of each member (same order as ``members``).

    BFS levels from the smallest member; ``d = gcd(level(u) + 1 - level(v))``
    over the class's edges, and ``phase(y) = level(y) mod d``: the smallest
    state has phase 0 and every edge goes from phase ``k`` to ``k + 1 mod d``.

    Examples
    --------
    >>> d, phase = period_and_phases(support_matrix([[1], [2], [0]]), np.array([0, 1, 2]))
    >>> d, phase.tolist()
    (3, [0, 1, 2])
    """
    members = np.asarray(members)
    n = graph.shape[0]
    pos = np.full(n, -1, dtype=np.int64)
    pos[members] = np.arange(len(members))
    rows = np.repeat(np.arange(n), np.diff(graph.indptr))
    inside = (pos[rows] >= 0) & (pos[graph.indices] >= 0)
    u, v = pos[rows[inside]], pos[graph.indices[inside]]
    sub_ptr = np.zeros(len(members) + 1, dtype=np.int64)
    np.cumsum(np.bincount(u, minlength=len(members)), out=sub_ptr[1:])
    sub = SupportGraph(len(members), sub_ptr, v[np.argsort(u, kind="stable")])
    # the BFS levels from the first member (unweighted shortest paths)
    level = bfs_levels(cast("sp.csr_matrix", sub if sub.small else sub.scipy()), 0)
    diffs = level[u] + 1 - level[v]
    d = int(np.gcd.reduce(np.abs(diffs))) if len(diffs) else 1
    d = d or 1
    return d, level % d


def closed_class_phases(graph: "sp.csr_matrix", labels: np.ndarray, closed: np.ndarray) -> tuple[list, list, list]:
    """Classes, periods and cyclic classes of every closed SCC at once (vectorised).

    Closed classes have no edges between them, so one BFS from a virtual source joined to the
    smallest state of every class gives each class's BFS levels from its smallest state; then,
    per class, ``d = gcd(level(u) + 1 - level(v))`` over its edges and ``phase = level mod d``
    (as :func:`period_and_phases`, one class at a time).  Classes come ordered by their smallest
    state, members and cyclic classes sorted.

    Examples
    --------
    >>> g = support_matrix([[1], [0], [3], [4], [2], [0, 2]])
    >>> k, labels = strongly_connected_components(g)
    >>> closed_class_phases(g, labels, closed_components(g, k, labels))
    ([(0, 1), (2, 3, 4)], [2, 3], [((0,), (1,)), ((2,), (3,), (4,))])
    """
    rec = np.flatnonzero(closed[labels])  # recurrent states, ascending
    if not len(rec):
        return [], [], []
    rec_labels = labels[rec]
    uniq, first_pos = np.unique(rec_labels, return_index=True)  # first_pos: smallest state of each class
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[np.argsort(rec[first_pos], kind="stable")] = np.arange(len(uniq))  # classes by smallest state
    cls = rank[np.searchsorted(uniq, rec_labels)]
    R = len(rec)
    # the rows of the recurrent states (closed classes have no edge leaving them: every target is
    # recurrent), gathered straight from the CSR arrays
    starts, counts = graph.indptr[rec], np.diff(graph.indptr)[rec]
    ends = np.cumsum(counts)
    edge = np.arange(int(ends[-1])) - np.repeat(ends - counts - starts, counts)
    position = np.empty(graph.shape[0], dtype=np.int64)
    position[rec] = np.arange(R)
    u = np.repeat(np.arange(R), counts)
    v = position[graph.indices[edge]]
    # the same graph plus a virtual source R joined to each class's smallest state, as CSR (u is sorted)
    indptr = np.zeros(R + 2, dtype=np.int64)
    indptr[1 : R + 1] = ends
    indptr[R + 1] = ends[-1] + len(first_pos)
    aug = SupportGraph(R + 1, indptr, np.concatenate([v, first_pos]))
    level = bfs_levels(cast("sp.csr_matrix", aug if aug.small else aug.scipy()), R)[:R] - 1
    diff = np.abs(level[u] + 1 - level[v])
    edge_cls = cls[u]
    order = np.argsort(edge_cls, kind="stable")
    starts = np.searchsorted(edge_cls[order], np.arange(len(uniq)))
    d = np.gcd.reduceat(diff[order], starts)
    d[d == 0] = 1
    phase = level % d[cls]
    key = np.lexsort((rec, phase, cls))
    rec_sorted, cls_sorted, phase_sorted = rec[key].tolist(), cls[key], phase[key]
    bounds = np.searchsorted(cls_sorted, np.arange(len(uniq) + 1)).tolist()
    members = rec[np.argsort(cls, kind="stable")].tolist()  # grouped by class, ascending inside
    # every (class, phase) group is non-empty, so class i's cyclic classes are its d_i consecutive groups
    group = cls_sorted * int(d.max()) + phase_sorted
    cuts = [0] + (np.flatnonzero(np.diff(group)) + 1).tolist() + [R]
    periods = d.tolist()
    classes, cyclic = [], []
    g = 0
    for i, di in enumerate(periods):
        cyclic.append(tuple(tuple(rec_sorted[cuts[g + k] : cuts[g + k + 1]]) for k in range(di)))
        classes.append(tuple(members[bounds[i] : bounds[i + 1]]))
        g += di
    return classes, periods, cyclic


def _check_successors(succ: Any) -> None:
    """Successor lists of a graph on ``0..n-1`` (:class:`~exactpte.errors.ShapeError` otherwise)."""
    if isinstance(succ, (str, bytes)) or not isinstance(succ, Sequence) or not len(succ):
        raise ShapeError(f"a support graph is a non-empty list of successor lists, got {type(succ).__name__}")
    n = len(succ)
    for s, row in enumerate(succ):
        if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
            raise ShapeError(f"successors of state {s} must be a list of states, got {type(row).__name__}")
        for j in row:
            if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or not 0 <= j < n:
                raise ShapeError(f"state {s} has successor {j!r:.20}, expected a state in 0..{n - 1}")


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

    def validate_anchors(self, anchors) -> tuple[tuple[int, ...], ...]:
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
                                  f"{{(class, phase): state}}, got {anchors!r:.40}")
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
                if isinstance(s, bool) or not isinstance(s, (int, np.integer)) or not 0 <= s < self.n:
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
    _check_successors(succ)
    return graph_structure(support_matrix(succ))


def graph_structure(graph: "sp.csr_matrix") -> Structure:
    """Canonical :class:`Structure` of a support graph given as a square scipy CSR matrix (not
    checked: the pure-graph entry point :attr:`Chain.structure <exactpte.chain.Chain.structure>` calls).

    Examples
    --------
    >>> graph_structure(csr_graph(3, [0, 1, 2, 3], np.array([1, 0, 0]))).transient
    (2,)
    """
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
