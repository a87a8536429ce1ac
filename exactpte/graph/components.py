"""Strongly connected components of the support graph, which of them are closed, and their order
(Tarjan's algorithm in plain Python for small graphs, scipy.sparse.csgraph for large ones)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # scipy loads only for graphs past SMALL_GRAPH edges (or when a caller asks scipy for more)
    import scipy.sparse as sp

from exactpte.graph.plain import tarjan_labels
from exactpte.graph.support import BoolArray, IntArray, as_scipy, edge_sources, is_small

__all__ = ["strongly_connected_components", "closed_components", "reverse_topological_components"]


def strongly_connected_components(graph: "sp.csr_matrix") -> tuple[int, IntArray]:
    """SCC labels of the support graph (scipy's linear-time algorithm).

    Examples
    --------
    >>> from exactpte.graph.support import support_matrix
    >>> k, labels = strongly_connected_components(support_matrix([[1], [0, 2], [2]]))
    >>> k, bool(labels[0] == labels[1] != labels[2])
    (2, True)
    """
    if is_small(graph):
        return _tarjan(graph.shape[0], graph.indptr.tolist(), graph.indices.tolist())
    from scipy.sparse import csgraph

    k, labels = csgraph.connected_components(as_scipy(graph), directed=True, connection="strong")
    return int(k), labels


def _tarjan(n: int, indptr: list[int], indices: list[int]) -> tuple[int, IntArray]:
    """SCC labels by Tarjan's algorithm (:func:`~exactpte.graph.plain.tarjan_labels`) as an array."""
    k, labels = tarjan_labels(n, indptr, indices)
    return k, np.array(labels, dtype=np.int32)


def closed_components(graph: "sp.csr_matrix", k: int, labels: IntArray) -> BoolArray:
    """For each SCC label, whether the SCC is closed (no edge leaves it): ``lem:recurrent_decomp``.

    Examples
    --------
    >>> from exactpte.graph.support import support_matrix
    >>> g = support_matrix([[1], [0, 2], [2]])
    >>> k, labels = strongly_connected_components(g)
    >>> closed = closed_components(g, k, labels)
    >>> bool(closed[labels[2]]), bool(closed[labels[0]])
    (True, False)
    """
    rows = edge_sources(graph)
    leaving = labels[rows] != labels[graph.indices]
    closed = np.ones(k, dtype=bool)
    closed[labels[rows[leaving]]] = False
    return closed


def reverse_topological_components(graph: "sp.csr_matrix", labels: IntArray, comps: "Sequence[int] | IntArray") -> list[int]:
    """The SCC labels ``comps`` ordered downstream first (every SCC after those it reaches).

    This is the order in which absorbing systems on the transient part are solved
    block by block.  scipy's labels already come in that order (its SCC algorithm numbers a
    component when it completes, after everything it reaches), which one vectorised pass over
    the cross edges confirms; a topological sort runs only if it does not hold.

    Examples
    --------
    >>> from exactpte.graph.support import support_matrix
    >>> g = support_matrix([[1], [2], [2], [0]])
    >>> k, labels = strongly_connected_components(g)
    >>> order = reverse_topological_components(g, labels, [labels[s] for s in (3, 0, 1)])
    >>> [s for c in order for s in (0, 1, 3) if labels[s] == c]
    [1, 0, 3]
    """
    lr, lc = labels[edge_sources(graph)], labels[graph.indices]
    mask = lr != lc
    if bool(np.all(lr[mask] > lc[mask])):
        ascending: list[int] = np.sort(np.asarray(comps, dtype=np.int64)).tolist()
        return ascending
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


