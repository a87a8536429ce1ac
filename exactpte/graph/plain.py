"""The structure analysis of a small graph in plain Python: no numpy, no scipy.

A chain's structure (:attr:`Chain.structure <exactpte.model.chain.Chain.structure>`) on at most
:data:`~exactpte.graph.support.SMALL_GRAPH` edges is computed here from its CSR lists, so that
``exactpte decompose`` on a small exact or parametric chain never imports numpy (a third of such a
command's time went to that import).  The result is the :class:`~exactpte.graph.structure.Structure`
that :func:`~exactpte.graph.structure.graph_structure` gives on the same graph (the same
conventions, the same SCC numbering: tests compare the two on random graphs): Tarjan's algorithm
numbers every SCC when it completes, after every SCC it reaches, so the labels of the transient SCCs,
ascending, are already downstream first.
"""

from __future__ import annotations

from math import gcd

__all__ = ["tarjan_labels", "class_phases", "plain_structure_parts"]


def tarjan_labels(n: int, indptr: list[int], indices: list[int]) -> tuple[int, list[int]]:
    """SCC labels by Tarjan's algorithm (iterative), numbered as components complete: after every
    component they reach, as scipy numbers them.

    Examples
    --------
    >>> tarjan_labels(3, [0, 1, 3, 4], [1, 0, 2, 2])
    (2, [1, 1, 0])
    """
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
    return k, labels


def class_phases(indptr: list[int], indices: list[int], members: list[int]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Period and cyclic classes of one closed class (``members`` ascending): BFS levels from its
    smallest state, ``d = gcd(level(u) + 1 - level(v))`` over its edges, phase ``level mod d``."""
    level = {members[0]: 0}
    queue = [members[0]]
    for u in queue:  # the list grows while it is read: a FIFO queue (a closed class: no edge leaves it)
        for w in indices[indptr[u] : indptr[u + 1]]:
            if w not in level:
                level[w] = level[u] + 1
                queue.append(w)
    d = 0
    for u in members:
        lu = level[u] + 1
        for w in indices[indptr[u] : indptr[u + 1]]:
            d = gcd(d, lu - level[w])
    d = d or 1
    phases: list[list[int]] = [[] for _ in range(d)]
    for s in members:
        phases[level[s] % d].append(s)
    return d, tuple(tuple(p) for p in phases)


def plain_structure_parts(n: int, indptr: list[int], indices: list[int]) -> dict[str, object]:
    """The fields of the :class:`~exactpte.graph.structure.Structure` of the graph whose state ``s``
    has the successors ``indices[indptr[s]:indptr[s+1]]``, in plain Python.

    Examples
    --------
    >>> parts = plain_structure_parts(4, [0, 1, 2, 3, 5], [1, 2, 1, 0, 3])
    >>> parts["classes"], parts["periods"], parts["cyclic_classes"], parts["transient"]
    (((1, 2),), (2,), (((1,), (2,)),), (0, 3))
    >>> parts["transient_blocks"]
    ((0, 3), (0, 1, 2))
    """
    k, labels = tarjan_labels(n, indptr, indices)
    closed = [True] * k
    for u in range(n):
        lu = labels[u]
        if closed[lu]:
            for w in indices[indptr[u] : indptr[u + 1]]:
                if labels[w] != lu:
                    closed[lu] = False
                    break
    groups: list[list[int]] = [[] for _ in range(k)]
    for s in range(n):
        groups[labels[s]].append(s)  # states ascending inside each SCC
    classes, periods, cyclic = [], [], []
    for members in sorted((g for c, g in enumerate(groups) if closed[c]), key=lambda g: g[0]):
        d, phases = class_phases(indptr, indices, members)
        classes.append(tuple(members))
        periods.append(d)
        cyclic.append(phases)
    flat: list[int] = []
    starts = [0]
    for c in range(k):  # Tarjan's labels ascending: downstream first
        if not closed[c]:
            flat.extend(groups[c])
            starts.append(len(flat))
    return {
        "n": n,
        "classes": tuple(classes),
        "periods": tuple(periods),
        "cyclic_classes": tuple(cyclic),
        "transient": tuple(s for s in range(n) if not closed[labels[s]]),
        "transient_blocks": (tuple(flat), tuple(starts)),
    }
