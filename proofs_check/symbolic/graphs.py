"""Support graphs: every chain with at most N states, as one parametric chain per graph up to relabelling.

A chain's *support graph* says which transitions are positive.  Every Markov chain with ``n``
states lies in the open region of exactly one support graph (every state has at least one
successor; self-loops allowed), and relabelling the states permutes the graph, so the graphs up to
relabelling cover every chain: 1, 6, 70 and 2,340 graphs for ``n = 1, 2, 3, 4``.  On one graph the
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

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

import exactpte
from exactpte.errors import UsageError

from proofs_check.symbolic.region import Region

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["Graph", "MAX_STATES", "support_graphs", "count_support_graphs", "graph_chain"]

MAX_STATES = 4
"""The largest graph size enumerated: n = 5 has 31^5 (28.6 million) support patterns to canonicalise
against 120 relabellings, hours in Python; it needs an orderly generation algorithm (and a cluster:
:func:`count_support_graphs` counts 248,436 graphs)."""

Graph = tuple[tuple[int, ...], ...]
"""A support graph as successor tuples, state by state."""


def support_graphs(n: int) -> list[Graph]:
    """Every support graph on ``n`` states (each state with a successor, self-loops allowed), one per
    class under relabelling: the adjacency pattern that is smallest, read as a binary number, among
    its ``n!`` relabellings.

    Examples
    --------
    >>> support_graphs(2)
    [((0,), (0,)), ((0,), (1,)), ((0, 1), (0,)), ((0, 1), (0, 1)), ((0, 1), (1,)), ((1,), (0,))]
    """
    if not 1 <= n <= MAX_STATES:
        raise UsageError(f"support graphs are enumerated for 1 <= n <= {MAX_STATES}, got {n} (n = 5 would take hours "
                         "to canonicalise in Python)")
    perms = list(itertools.permutations(range(n)))
    rowmap = [[sum(1 << perm[j] for j in range(n) if m >> j & 1) for m in range(1 << n)] for perm in perms]
    out: list[Graph] = []
    for rows in itertools.product(range(1, 1 << n), repeat=n):
        code = _code(rows, n)
        if all(_code(_permuted(rows, perm, table), n) >= code for perm, table in zip(perms[1:], rowmap[1:])):
            out.append(tuple(tuple(j for j in range(n) if m >> j & 1) for m in rows))
    return sorted(out)


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


def _permuted(rows: Sequence[int], perm: Sequence[int], table: Sequence[int]) -> list[int]:
    """The row masks of the graph with state ``s`` renamed ``perm[s]``."""
    out = [0] * len(rows)
    for s, m in enumerate(rows):
        out[perm[s]] = table[m]
    return out


def _code(rows: Sequence[int], n: int) -> int:
    return sum(m << (n * s) for s, m in enumerate(rows))


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
