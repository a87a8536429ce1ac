"""Support graphs: every chain with at most N states, as one parametric chain per graph up to relabelling.

A chain's *support graph* says which transitions are positive.  Every Markov chain with ``n``
states lies in the open region of exactly one support graph (every state has at least one
successor; self-loops allowed), and relabelling the states permutes the graph, so the graphs up to
relabelling cover every chain: 1, 6, 70, 2,340 and 248,436 graphs for ``n = 1, .., 5``, listed by orderly
generation (:func:`support_graphs`) and counted independently by Burnside's lemma
(:func:`count_support_graphs`).  On one graph the
structure (classes, periods, cyclic classes, transient states) is fixed, and with one parameter per
free transition and per reward one symbolic decomposition covers every chain and every reward on it:

- a state with successors ``j_1 < .. < j_k`` (``k >= 2``) gets ``P(s, j_m) = x_{s,j_m}`` for
  ``m < k`` and ``P(s, j_k) = 1 - sum_m x_{s,j_m}``; one successor gets ``1``; ``r(s)`` is the symbol
  ``r_s``.  The region (every entry positive) is the image of the positive orthant under
  ``x_{s,j} = w_{s,j} / (1 + sum_m w_{s,j_m})``, a bijection, so a polynomial whose image under this
  chart (times the row sums' powers) has coefficients of one sign never vanishes on the region: the
  one-line certificate for every denominator of the closed forms (:class:`~proofs_check.symbolic.region.Region`).

Examples
--------
>>> [len(support_graphs(n)) for n in (1, 2, 3)]
[1, 6, 70]
>>> chain, region = graph_chain(((0, 1), (0,)))
>>> [str(e) for _i, _j, e in chain.edges()], region.rows
(['x0_0', '1 - x0_0', '1'], [[0]])
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

import exactpte
from exactpte.errors import UsageError

from proofs_check.symbolic.region import Region

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["Graph", "MAX_STATES", "support_graphs", "count_support_graphs", "graph_chain"]

MAX_STATES = 5
"""The largest graph size listed (248,436 graphs, in about a second).  Six states have 88,124,470 graphs
(:func:`count_support_graphs`), 355 times as many, each with more parameters: ``exhaustive`` refuses them, a
sample included (a uniform sample of the classes needs the list)."""

Graph = tuple[tuple[int, ...], ...]
"""A support graph as successor tuples, state by state."""


def support_graphs(n: int) -> list[Graph]:
    """Every support graph on ``n`` states (each state with a successor, self-loops allowed), one per
    class under relabelling, sorted.

    The representative of a class is its *canonical* labelling: the one whose adjacency matrix, read in nested
    order (state ``v``'s entries ``(0, v), (v, 0), .., (v - 1, v), (v, v - 1), (v, v)`` after those of the states
    before it), is the largest binary number.  The first ``k`` states of a canonical graph form a canonical
    ``k``-state graph (a relabelling of them that read larger would make the whole graph read larger), so the
    graphs are generated state by state (orderly generation, Read and Faradzev): each canonical ``k``-state
    digraph, self-loops and states without successors allowed, is extended by every choice of the new state's
    row and column entries, and an extension is kept when no relabelling reads larger.  At the last state
    only graphs where every state has a successor are kept.  No scan of all ``2^(n^2)`` patterns: five states
    test 1.1 million extensions (3,044 four-state digraphs times 512), against the 120 relabellings at once
    (numpy: a relabelled graph's number is the sum of its old part and its new part, each read off once).

    Examples
    --------
    >>> support_graphs(2)
    [((0,), (0,)), ((0,), (1,)), ((0, 1), (0,)), ((0, 1), (0, 1)), ((0, 1), (1,)), ((1,), (0,))]
    """
    if not 1 <= n <= MAX_STATES:
        raise UsageError(f"support graphs are listed for 1 <= n <= {MAX_STATES}, got {n}")
    return list(_listed(n))


@functools.cache
def _listed(n: int) -> tuple[Graph, ...]:
    """:func:`support_graphs`, computed once per size."""
    bits = np.zeros((1, 0), dtype=np.int64)
    for k in range(1, n + 1):
        bits = _extensions(bits, k, every_row_nonempty=k == n)
    masks = bits.reshape(len(bits), n, n) @ (1 << np.arange(n, dtype=np.int64))
    successors = [tuple(j for j in range(n) if m >> j & 1) for m in range(1 << n)]
    return tuple(sorted(tuple(successors[m] for m in row) for row in masks.tolist()))


def _nested_order(k: int) -> list[tuple[int, int]]:
    """The entries of a ``k``-state adjacency matrix, most significant first (see :func:`support_graphs`)."""
    return [e for v in range(k) for u in range(v + 1) for e in (((u, v), (v, u)) if u < v else ((v, v),))]


def _extensions(prefixes: npt.NDArray[np.int64], k: int, *, every_row_nonempty: bool) -> npt.NDArray[np.int64]:
    """The canonical ``k``-state digraphs (flattened 0/1 matrices, row by row) that extend the canonical
    ``k - 1``-state ones ``prefixes``: each with every choice of the new state's ``2k - 1`` entries, kept when no
    relabelling reads larger (with ``every_row_nonempty``: only those where every state has a successor)."""
    v, order = k - 1, _nested_order(k)
    weight = np.zeros((k, k), dtype=np.int64)
    for t, (i, j) in enumerate(order):
        weight[i, j] = 1 << (len(order) - 1 - t)
    perms = np.array(list(itertools.permutations(range(k))), dtype=np.int64)  # the identity first
    relabelled = weight[perms[:, :, None], perms[:, None, :]]  # [sigma, i, j]: what entry (i, j) weighs after sigma
    new = order[v * v :]
    ext = np.array(list(itertools.product((0, 1), repeat=len(new))), dtype=np.int64)
    rows, cols = np.divmod(np.arange(v * v), v) if v else (np.zeros(0, dtype=np.int64),) * 2
    old_part = prefixes @ relabelled[:, rows, cols].T  # the prefixes' entries, row by row
    new_part = ext @ relabelled[:, [i for i, _ in new], [j for _, j in new]].T
    alive = np.ones((len(prefixes), len(ext)), dtype=bool)
    if every_row_nonempty:
        old_rows = np.asarray(prefixes.reshape(len(prefixes), v, v).any(axis=2))
        new_column = ext[:, [new.index((i, v)) for i in range(v)]].astype(bool)
        new_row = np.asarray(ext[:, [new.index((v, j)) for j in range(k)]].any(axis=1))
        alive &= (old_rows[:, None, :] | new_column[None, :, :]).all(axis=2)
        alive &= new_row[None, :]
    p, e = np.nonzero(alive)
    code = old_part[p, 0] + new_part[e, 0]
    for sigma in range(1, len(perms)):  # candidates that a relabelling reads larger drop out at once
        keep = old_part[p, sigma] + new_part[e, sigma] <= code
        p, e, code = p[keep], e[keep], code[keep]
    out = np.zeros((len(p), k, k), dtype=np.int64)
    out[:, :v, :v] = prefixes[p].reshape(len(p), v, v)
    for b, (i, j) in enumerate(new):
        out[:, i, j] = ext[e, b]
    return out.reshape(len(p), k * k)


def count_support_graphs(n: int) -> int:
    """How many support graphs on ``n`` states there are up to relabelling, by Burnside's lemma (no
    enumeration: an independent count of :func:`support_graphs`, and the count for sizes too large to list).

    A relabelling ``sigma`` fixes a graph when each row is the image of the row before it on its cycle;
    a row on a cycle of length ``L`` comes back to itself permuted by ``sigma^L``, so it is a nonempty
    union of cycles of ``sigma^L``: ``fix(sigma) = prod over the cycles of sigma (2^{c(sigma^L)} - 1)``,
    and the count is the mean of ``fix`` over the ``n!`` relabellings.

    Examples
    --------
    >>> [count_support_graphs(n) for n in range(1, 6)]
    [1, 6, 70, 2340, 248436]
    """
    from math import factorial

    total = 0
    for perm in itertools.permutations(range(n)):
        fixed = 1
        for L in _cycle_lengths(perm):
            power = list(range(n))
            for _ in range(L):
                power = [perm[k] for k in power]
            fixed *= 2 ** len(_cycle_lengths(power)) - 1
        total += fixed
    return total // factorial(n)


def _cycle_lengths(perm: Sequence[int]) -> list[int]:
    seen, out = [False] * len(perm), []
    for start in range(len(perm)):
        length, k = 0, start
        while not seen[k]:
            seen[k], k, length = True, perm[k], length + 1
        if length:
            out.append(length)
    return out


def graph_chain(graph: Graph) -> tuple[ParametricChain, Region]:
    """The parametric chain of every chain and reward on ``graph`` and its region (with the weight chart)."""
    n = len(graph)
    params: list[str] = []
    edges: list[tuple[int, int, str]] = []
    rows: list[list[int]] = []
    for s, succ in enumerate(graph):
        names = [f"x{s}_{j}" for j in succ[:-1]]
        rows.append(list(range(len(params), len(params) + len(names))))
        params += names
        edges += [(s, j, x) for j, x in zip(succ, names)]
        edges.append((s, succ[-1], "1 - " + " - ".join(names) if names else "1"))
    params += [f"r{s}" for s in range(n)]
    chain = exactpte.ParametricChain.from_edges(n, edges, [f"r{s}" for s in range(n)], params=params)
    F = chain.field
    entries = list(dict.fromkeys(e for _i, _j, e in chain.edges() if not e.is_constant()))
    where = tuple(f"{e} > 0" for e in entries) or ("every entry constant",)
    return chain, Region(F, entries, [], rows=[r for r in rows if r], where=where)
