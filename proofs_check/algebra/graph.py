"""The support graph, analysed by a code path of its own (independent of :mod:`exactpte.graph.structure`).

Pure Python, iterative (no recursion limit): Tarjan's strongly connected components, closed
components, the period of a class as the gcd of ``level(u) + 1 - level(v)`` over its edges
(BFS levels from any member), and the cyclic classes as the levels mod the period.  The
structure checks compare a claim with these; exactpte computes the same objects with scipy's
csgraph, so a bug in one route cannot make the other agree.

Examples
--------
>>> g = SupportGraph([[1], [2], [1], [0, 3]])
>>> sorted(map(sorted, g.closed_classes())), g.period([1, 2])
([[1, 2]], 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from math import gcd
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from exactpte import Chain

__all__ = ["SupportGraph"]


class SupportGraph:
    """Successor lists of a chain's support graph with the structure computed from them."""

    def __init__(self, successors: Sequence[Sequence[int]]) -> None:
        self.succ = [list(s) for s in successors]
        self.n = len(self.succ)

    @classmethod
    def of(cls, chain: Chain) -> "SupportGraph":
        """The support graph of a chain (states with a nonzero transition)."""
        return cls([[j for j, _ in chain.row(s)] for s in range(chain.n)])

    @cached_property
    def components(self) -> list[list[int]]:
        """Strongly connected components (Tarjan, iterative), each sorted."""
        index = [-1] * self.n
        low = [0] * self.n
        on_stack = [False] * self.n
        stack: list[int] = []
        out: list[list[int]] = []
        counter = 0
        for root in range(self.n):
            if index[root] >= 0:
                continue
            work = [(root, 0)]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack[root] = True
            while work:
                v, i = work[-1]
                if i < len(self.succ[v]):
                    work[-1] = (v, i + 1)
                    w = self.succ[v][i]
                    if index[w] < 0:
                        index[w] = low[w] = counter
                        counter += 1
                        stack.append(w)
                        on_stack[w] = True
                        work.append((w, 0))
                    elif on_stack[w]:
                        low[v] = min(low[v], index[w])
                    continue
                work.pop()
                if work:
                    u = work[-1][0]
                    low[u] = min(low[u], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on_stack[w] = False
                        comp.append(w)
                        if w == v:
                            break
                    out.append(sorted(comp))
        return out

    def closed_classes(self) -> list[list[int]]:
        """The closed components: no edge leaves them (the recurrent classes)."""
        out = []
        for comp in self.components:
            members = set(comp)
            if all(j in members for s in comp for j in self.succ[s]):
                out.append(comp)
        return out

    def levels(self, members: Sequence[int]) -> dict[int, int]:
        """BFS levels inside ``members`` from its smallest state."""
        inside = set(members)
        start = min(members)
        level = {start: 0}
        frontier = [start]
        while frontier:
            nxt = []
            for s in frontier:
                for j in self.succ[s]:
                    if j in inside and j not in level:
                        level[j] = level[s] + 1
                        nxt.append(j)
            frontier = nxt
        return level

    def period(self, members: Sequence[int]) -> int:
        """The gcd of the cycle lengths of a strongly connected set of states."""
        level = self.levels(members)
        inside = set(members)
        d = 0
        for s in members:
            for j in self.succ[s]:
                if j in inside:
                    d = gcd(d, abs(level[s] + 1 - level[j]))
        return d or 1

    def cyclic_classes(self, members: Sequence[int]) -> list[list[int]]:
        """The cyclic classes of a closed class, phase 0 holding its smallest state."""
        d = self.period(members)
        level = self.levels(members)
        return [sorted(s for s in members if level[s] % d == k) for k in range(d)]
