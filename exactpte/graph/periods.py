"""Periods and cyclic classes of the closed classes: BFS levels taken modulo the gcd of the level
differences along edges (``lem:recurrent_decomp``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np

if TYPE_CHECKING:  # scipy loads only for graphs past SMALL_GRAPH edges (or when a caller asks scipy for more)
    import scipy.sparse as sp

from exactpte.graph.support import BoolArray, IntArray, SupportGraph, as_scipy, is_small

__all__ = ["bfs_levels", "period_and_phases", "closed_class_phases"]


def bfs_levels(graph: "sp.csr_matrix", source: int) -> IntArray:
    """Unweighted distances from ``source`` (``-1`` where unreachable): scipy's breadth-first tree,
    then each node's depth in it by pointer jumping (``log2(depth)`` vectorised passes).  The same
    numbers as ``csgraph.shortest_path(graph, unweighted=True, indices=source)``, without its fixed
    cost (70 µs a call, most of a small chain's structure analysis).

    Examples
    --------
    >>> from exactpte.graph import closed_components, strongly_connected_components, support_matrix
    >>> bfs_levels(support_matrix([[1], [2], [0], [3]]), 0).tolist()
    [0, 1, 2, -1]
    """
    n = graph.shape[0]
    if is_small(graph):
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

    order, pred = csgraph.breadth_first_order(as_scipy(graph), source, directed=True, return_predecessors=True)
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


def period_and_phases(graph: "sp.csr_matrix", members: IntArray) -> tuple[int, IntArray]:
    """Period ``d`` of a closed class and the phase of each member (same order as ``members``).

    BFS levels from the smallest member; ``d = gcd(level(u) + 1 - level(v))``
    over the class's edges, and ``phase(y) = level(y) mod d``: the smallest
    state has phase 0 and every edge goes from phase ``k`` to ``k + 1 mod d``.

    Examples
    --------
    >>> from exactpte.graph import closed_components, strongly_connected_components, support_matrix
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


def closed_class_phases(graph: "sp.csr_matrix", labels: IntArray,
                        closed: BoolArray) -> tuple[list[tuple[int, ...]], list[int], list[tuple[tuple[int, ...], ...]]]:
    """Classes, periods and cyclic classes of every closed SCC at once (vectorised).

    Closed classes have no edges between them, so one BFS from a virtual source joined to the
    smallest state of every class gives each class's BFS levels from its smallest state; then,
    per class, ``d = gcd(level(u) + 1 - level(v))`` over its edges and ``phase = level mod d``
    (as :func:`period_and_phases`, one class at a time).  Classes come ordered by their smallest
    state, members and cyclic classes sorted.

    Examples
    --------
    >>> from exactpte.graph import closed_components, strongly_connected_components, support_matrix
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
    periods: list[int] = d.tolist()
    classes: list[tuple[int, ...]] = []
    cyclic: list[tuple[tuple[int, ...], ...]] = []
    g = 0
    for i, di in enumerate(periods):
        cyclic.append(tuple(tuple(rec_sorted[cuts[g + k] : cuts[g + k + 1]]) for k in range(di)))
        classes.append(tuple(members[bounds[i] : bounds[i + 1]]))
        g += di
    return classes, periods, cyclic


