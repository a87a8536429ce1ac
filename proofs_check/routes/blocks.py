"""Independent exact routes block by block, for chains too large for the dense routes.

The dense routes (:mod:`proofs_check.routes.dense`) build ``K(P)`` from the characteristic polynomial
and ``P∞`` as a spectral projector: cubic in ``n`` with growing entries.  These routes use the
support graph analysed by proofs_check's own code (:mod:`proofs_check.algebra.graph`: Tarjan's SCCs, whose
output order is downstream first; BFS-level periods) and solve only dense systems the size of
one strongly connected block, with flint directly (never exactpte's solvers):

- ``π_i``: ``π (I - P_F) = 0``, ``Σ π = 1`` on each closed class;
- ``ρ``: ``γ_i = π_i · r`` on the classes, then ``(I - Q_SS) ρ_S = P_{S,rest} ρ`` per transient
  SCC ``S``, downstream first;
- ``h``: the deviation matrix on each class, ``h_F = (I - P_F + 1 π_F)^{-1} (r_F - γ_i)``, then
  ``(I - Q_SS) h_S = (r - ρ)_S + P_{S,rest} h`` per transient SCC;
- ``b_{i,k}``: on each transient SCC the phase-augmented system in the unknowns ``x_k(s)``,
  ``k ∈ Z_d`` (``d|S|`` unknowns, no ``I - Q^d`` elimination as exactpte does), which is
  ``def:main_b`` conditioned on the first step;
- ``K(P)``: ``x ∈ K`` iff ``P^D x = x`` with ``D`` the lcm of the periods (``rem:peripheral_semisimple``,
  sparse products), and ``dim K = Σ d_i`` (Perron–Frobenius for each closed class).

Examples
--------
>>> import exactpte
>>> chain = exactpte.example("branching")
>>> routes = BlockRoutes(chain)
>>> routes.rho == list(exactpte.decompose(chain).rho)
True
>>> tuple(routes.basis_column((1, 1))) == exactpte.decompose(chain).b(1, 1)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from math import lcm
from typing import Any

import flint

from exactpte import MarkovRewardProcess
from exactpte.errors import RouteTooLargeError

from proofs_check.algebra.graph import SupportGraph
from proofs_check.algebra.linalg import Exact

__all__ = ["BlockRoutes", "BLOCK_LIMIT"]

BLOCK_LIMIT = 1500
"""Largest strongly connected block (times its period, for the basis) these routes solve densely."""

ZERO, ONE = flint.fmpq(0), flint.fmpq(1)

DENSE_MATVEC_LIMIT = 2000
"""Up to this many states a chain with full rows is multiplied as a dense integer matrix (at most 4M entries)."""


def _solve(A: flint.fmpq_mat, B: flint.fmpq_mat) -> flint.fmpq_mat:
    """Dense exact solve over the integers (flint ``fmpz_mat``: Dixon lifting)."""
    A_z, a = A.numer_denom()
    B_z, b = B.numer_denom()
    X = A_z.solve(B_z)  # an fmpq_mat (python-flint 0.9's stub says flint_mat)
    assert isinstance(X, flint.fmpq_mat)
    return X * flint.fmpq(a, b)


class BlockRoutes:
    """Exact objects of one chain computed block by block (see the module docstring)."""

    def __init__(self, chain: MarkovRewardProcess, *, max_block: int = BLOCK_LIMIT, graph: SupportGraph | None = None) -> None:
        self.chain = chain
        self.n = chain.n
        self.max_block = max_block
        self.rows = [dict(chain.row(s)) for s in range(chain.n)]
        if graph is not None:  # the chain's support graph, already analysed (the dense routes' own)
            self.__dict__["graph"] = graph

    def _require(self, size: int, what: str) -> None:
        if size > self.max_block:
            raise RouteTooLargeError(f"not checked: the block route needs a dense {size} x {size} solve for {what}; "
                                     f"the limit is {self.max_block} (raise it with --max-dense)")

    @cached_property
    def graph(self) -> SupportGraph:
        """The support graph, analysed by proofs_check's own code."""
        return SupportGraph.of(self.chain)

    @cached_property
    def classes(self) -> list[list[int]]:
        """Closed classes, ordered by smallest state."""
        return sorted((sorted(c) for c in self.graph.closed_classes()), key=lambda c: c[0])

    @cached_property
    def class_of(self) -> dict[int, int]:
        """Closed class of every recurrent state."""
        return {s: i for i, c in enumerate(self.classes) for s in c}

    @cached_property
    def phases(self) -> list[list[list[int]]]:
        """Cyclic classes of every closed class, phase 0 holding the smallest state."""
        out = []
        for c in self.classes:
            cyc = self.graph.cyclic_classes(c)
            k0 = next(k for k, states in enumerate(cyc) if c[0] in states)
            out.append(cyc[k0:] + cyc[:k0])
        return out

    @cached_property
    def phase_of(self) -> dict[int, int]:
        """Phase of every recurrent state."""
        return {s: k for cyc in self.phases for k, states in enumerate(cyc) for s in states}

    @cached_property
    def periods(self) -> list[int]:
        """Period of every closed class."""
        return [len(cyc) for cyc in self.phases]

    @cached_property
    def transient_blocks(self) -> list[list[int]]:
        """Transient SCCs, downstream first (Tarjan emits a component after those it reaches)."""
        closed = set(self.class_of)
        return [c for c in self.graph.components if c[0] not in closed]

    @cached_property
    def D(self) -> int:
        """``lcm`` of the periods: ``x ∈ K(P)`` iff ``P^D x = x``."""
        return lcm(*self.periods) if self.periods else 1

    @property
    def N(self) -> int:
        """``dim K(P) = Σ d_i``."""
        return sum(self.periods)

    @cached_property
    def _integer_rows(self) -> tuple[list[tuple[list[int], list[int]]], list[int]]:
        """Each row as (successors, integer numerators) over the row's own denominator, and those denominators."""
        out, dens = [], []
        for row in self.rows:
            den = 1
            for q in row.values():
                den = lcm(den, int(q.q))
            out.append((list(row), [int(q.p) * (den // int(q.q)) for q in row.values()]))
            dens.append(den)
        return out, dens

    @cached_property
    def _dense_integer(self) -> flint.fmpz_mat | None:
        """``P`` with each row scaled to integers, as a dense ``fmpz_mat`` when that is small and the rows are full
        enough to make a C product pay (herman9: rows of up to 512 successors)."""
        nnz = sum(len(row) for row in self.rows)
        if self.n > DENSE_MATVEC_LIMIT or nnz < 8 * self.n:
            return None
        rows, _ = self._integer_rows
        M = flint.fmpz_mat(self.n, self.n)
        for s, (succ, nums) in enumerate(rows):
            for j, v in zip(succ, nums):
                M[s, j] = v
        return M

    def matvec(self, x: Sequence[Exact]) -> list[flint.fmpq]:
        """``P x`` exactly: ``x`` over one common denominator ``L``, integer row products (in C when ``P`` is dense
        enough), each row's result ``/ (den_s L)``; no rational arithmetic inside a dot product."""
        if not self.n:
            return []
        X, L = flint.fmpq_mat(self.n, 1, list(x)).numer_denom()
        rows, dens = self._integer_rows
        M = self._dense_integer
        if M is not None:
            Y = M * X
            return [flint.fmpq(Y[s, 0], dens[s] * L) for s in range(self.n)]
        ints = [int(X[j, 0]) for j in range(self.n)]
        return [flint.fmpq(sum(v * ints[j] for j, v in zip(succ, nums)), dens[s] * int(L)) for s, (succ, nums) in enumerate(rows)]

    @cached_property
    def _predecessors(self) -> list[list[tuple[int, flint.fmpq]]]:
        """``[(s, P[s, j]) for every s with P[s, j] != 0]`` per state ``j``: the columns of ``P``."""
        pred: list[list[tuple[int, flint.fmpq]]] = [[] for _ in range(self.n)]
        for s, row in enumerate(self.rows):
            for j, q in row.items():
                pred[j].append((s, q))
        return pred

    def matvec_sparse(self, x: Mapping[int, Exact]) -> dict[int, flint.fmpq]:
        """``P x`` for a sparse ``x`` (``{state: value}``; zeros omitted in the result), through the columns of ``P`` at
        the states where ``x`` does not vanish: the cost is the number of nonzeros of ``P`` those columns hold."""
        y: dict[int, flint.fmpq] = {}
        pred = self._predecessors
        for j, xj in x.items():
            if xj:
                for s, q in pred[j]:
                    y[s] = y.get(s, ZERO) + q * xj
        return {s: v for s, v in y.items() if v}

    def in_K_sparse(self, x: Mapping[int, Exact]) -> bool:
        """:meth:`in_K` of a sparse vector: ``P^D x = x`` through :meth:`matvec_sparse`."""
        target = {s: flint.fmpq(v) for s, v in x.items() if v}
        y = target
        for _ in range(self.D):
            y = self.matvec_sparse(y)
        return y == target

    def in_K(self, x: Sequence[flint.fmpq]) -> bool:
        """``P^D x = x`` (sparse exact products)."""
        y = list(x)
        for _ in range(self.D):
            y = self.matvec(y)
        return y == list(x)

    # -- closed classes -------------------------------------------------------------------------------------
    @cached_property
    def stationary(self) -> list[list[flint.fmpq]]:
        """Stationary distribution of every closed class (aligned with ``classes``)."""
        out = []
        for c in self.classes:
            m = len(c)
            self._require(m, "a stationary distribution")
            pos = {s: a for a, s in enumerate(c)}
            A = flint.fmpq_mat(m, m)
            for a, s in enumerate(c):  # column a of (I - P_F)^T ... written as rows: balance of state y
                A[a, a] += ONE
            for a, s in enumerate(c):
                for j, q in self.rows[s].items():
                    A[pos[j], a] -= q
            for a in range(m):
                A[m - 1, a] = ONE
            rhs = flint.fmpq_mat(m, 1)
            rhs[m - 1, 0] = ONE
            out.append([x for x in _solve(A, rhs).entries()])
        return out

    @cached_property
    def class_gain(self) -> list[flint.fmpq]:
        """``γ_i = π_i · r`` for every closed class."""
        r = self.chain.r
        return [sum((p * r[s] for s, p in zip(c, pi)), ZERO) for c, pi in zip(self.classes, self.stationary)]

    def _extend(
        self, blocks: Sequence[Sequence[int]], x: list[flint.fmpq | None], base: Callable[[int], flint.fmpq], what: str
    ) -> list[flint.fmpq]:
        """Fill ``x`` on ``blocks`` (downstream first) from ``x(s) = base(s) + Σ_j P(s, j) x(j)``, one dense
        solve per block; ``x`` is read on every state the blocks lead to (``ZeroDivisionError`` when a
        block is singular)."""
        for block in blocks:
            m = len(block)
            self._require(m, what)
            pos = {s: a for a, s in enumerate(block)}
            A = flint.fmpq_mat(m, m)
            rhs = flint.fmpq_mat(m, 1)
            for a, s in enumerate(block):
                A[a, a] += ONE
                acc = base(s)
                for j, q in self.rows[s].items():
                    if j in pos:
                        A[a, pos[j]] -= q
                    else:
                        xj = x[j]
                        assert xj is not None, "blocks are solved downstream first: x is known where a block leads"
                        acc += q * xj
                rhs[a, 0] = acc
            for s, v in zip(block, _solve(A, rhs).entries()):
                x[s] = v
        filled = [v for v in x if v is not None]
        assert len(filled) == len(x), "the blocks and the states given in x cover every state"
        return filled

    @cached_property
    def rho(self) -> list[flint.fmpq]:
        """``ρ = P∞ r``."""
        x: list[flint.fmpq | None] = [None] * self.n
        for c, g in zip(self.classes, self.class_gain):
            for s in c:
                x[s] = g
        return self._extend(self.transient_blocks, x, lambda s: ZERO, "a transient block")

    @cached_property
    def h(self) -> list[flint.fmpq]:
        """The bias from the deviation matrix, class by class, then the transient blocks."""
        x: list[flint.fmpq | None] = [None] * self.n
        r = self.chain.r
        for c, pi, g in zip(self.classes, self.stationary, self.class_gain):
            m = len(c)
            self._require(m, "a class deviation matrix")
            pos = {s: a for a, s in enumerate(c)}
            A = flint.fmpq_mat(m, m)
            rhs = flint.fmpq_mat(m, 1)
            for a, s in enumerate(c):
                A[a, a] += ONE
                for j, q in self.rows[s].items():
                    A[a, pos[j]] -= q
                for b, p in enumerate(pi):
                    A[a, b] += p
                rhs[a, 0] = r[s] - g
            for s, v in zip(c, _solve(A, rhs).entries()):
                x[s] = v
        rho = self.rho
        return self._extend(self.transient_blocks, x, lambda s: r[s] - rho[s], "a transient block")

    @cached_property
    def basis_transient(self) -> dict[tuple[int, int], dict[int, flint.fmpq]]:
        """``b_{i,k}`` on the transient states (nonzero values only): per period, one augmented block
        solve per transient SCC with a column for every class of that period."""
        out: dict[tuple[int, int], dict[int, flint.fmpq]] = {(i, k): {} for i, d in enumerate(self.periods) for k in range(d)}
        by_period: dict[int, list[int]] = {}
        for i, d in enumerate(self.periods):
            by_period.setdefault(d, []).append(i)
        for d, cls in by_period.items():
            slot = {i: c for c, i in enumerate(cls)}

            def value(i: int, k: int, j: int) -> flint.fmpq:
                ci = self.class_of.get(j)
                if ci is not None:
                    return ONE if ci == i and self.phase_of[j] == k else ZERO
                return out[(i, k)].get(j, ZERO)

            for block in self.transient_blocks:
                m = len(block)
                self._require(d * m, "a phase-augmented transient block")
                pos = {s: a for a, s in enumerate(block)}
                # which classes of this period the block reaches in one step (directly or downstream)
                reach = set()
                for s in block:
                    for j in self.rows[s]:
                        ci = self.class_of.get(j)
                        if ci is not None and ci in slot:
                            reach.add(ci)
                        elif ci is None and j not in pos:
                            reach.update(i for i in cls if any(out[(i, k)].get(j) for k in range(d)))
                if not reach:
                    continue
                cols = sorted(reach)
                A = flint.fmpq_mat(d * m, d * m)
                rhs = flint.fmpq_mat(d * m, len(cols))
                for k in range(d):  # x_k(s) = Σ_j P(s, j) x_{k+1}(j): a step shifts the phase offset
                    for a, s in enumerate(block):
                        row = k * m + a
                        A[row, row] += ONE
                        for j, q in self.rows[s].items():
                            if j in pos:
                                A[row, ((k + 1) % d) * m + pos[j]] -= q
                            else:
                                for c, i in enumerate(cols):
                                    v = value(i, (k + 1) % d, j)
                                    if v != 0:
                                        rhs[row, c] += q * v
                sol = _solve(A, rhs)
                for k in range(d):
                    for a, s in enumerate(block):
                        for c, i in enumerate(cols):
                            v = sol[k * m + a, c]
                            if v != 0:
                                out[(i, k)][s] = v
        return out

    def basis_value(self, ik: tuple[int, int], s: int) -> flint.fmpq:
        """``b_{i,k}(s)``."""
        ci = self.class_of.get(s)
        if ci is not None:
            return ONE if (ci, self.phase_of[s]) == ik else ZERO
        return self.basis_transient[ik].get(s, ZERO)

    @cached_property
    def _basis_columns(self) -> dict[tuple[int, int], list[flint.fmpq]]:
        return {}

    def sparse_basis_column(self, ik: tuple[int, int]) -> dict[int, flint.fmpq]:
        """``b_{i,k}`` as ``{state: value}`` without zeros (no dense list)."""
        i, k = ik
        out = {s: ONE for s in self.phases[i][k]}
        out.update((s, v) for s, v in self.basis_transient[ik].items() if v)
        return out

    def anchor_columns(self, anchors: Sequence[tuple[int, int, int]], *, sparse: bool) -> list[Any] | str:
        """The basis columns ``b`` of the claimed anchors ``(class, phase, state)``, in their order, sparse
        (:meth:`sparse_basis_column`) or dense (:meth:`basis_column`); a message when an anchor is not recurrent."""
        cols: list[Any] = []
        for i, k, s in anchors:
            if s not in self.class_of:
                return f"claimed anchor {s} of ({i}, {k}) is not in a closed class"
            ik = (self.class_of[s], self.phase_of[s])
            cols.append(self.sparse_basis_column(ik) if sparse else self.basis_column(ik))
        return cols

    def basis_column(self, ik: tuple[int, int]) -> list[flint.fmpq]:
        """``b_{i,k}`` as a dense list over the states (built on demand, kept)."""
        cache = self._basis_columns
        if ik not in cache:
            col = [ZERO] * self.n
            i, k = ik
            for s in self.phases[i][k]:
                col[s] = ONE
            for s, v in self.basis_transient[ik].items():
                col[s] = v
            cache[ik] = col
        return cache[ik]

    @cached_property
    def absorption_rows(self) -> list[dict[int, flint.fmpq]]:
        """``α_i(s) = Σ_k b_{i,k}(s)`` per state, as ``{class: value}`` (nonzero only)."""
        rows: list[dict[int, flint.fmpq]] = [{} for _ in range(self.n)]
        for s, i in self.class_of.items():
            rows[s][i] = ONE
        for (i, _k), col in self.basis_transient.items():
            for s, v in col.items():
                rows[s][i] = rows[s].get(i, ZERO) + v
        return rows

    def hitting_cost(self, A: set[int], f: Callable[[int], flint.fmpq]) -> list[flint.fmpq] | None:
        """``x = 0`` on ``A``, ``x(s) = f(s) + Σ_j P(s, j) x(j)`` elsewhere: the expected sum of ``f`` before
        hitting ``A``, solved on the strongly connected blocks of the graph without ``A``, downstream first
        (``None`` when a block is singular: ``A`` is not reached almost surely)."""
        rest = [s for s in range(self.n) if s not in A]
        index = {s: a for a, s in enumerate(rest)}
        sub = SupportGraph([[index[j] for j in self.rows[s] if j in index] for s in rest])
        blocks = [[rest[a] for a in comp] for comp in sub.components]  # Tarjan: downstream first
        try:
            start: list[flint.fmpq | None] = [ZERO] * self.n
            return self._extend(blocks, start, f, "a hitting-cost block")
        except ZeroDivisionError:
            return None

    def P_inf_apply(self, x: Sequence[Exact]) -> list[flint.fmpq]:
        """``P∞ x = Σ_i α_i (π_i · x)`` (factored: no n x n matrix)."""
        means = [sum((p * x[s] for s, p in zip(c, pi)), ZERO) for c, pi in zip(self.classes, self.stationary)]
        return [sum((a * means[i] for i, a in row.items()), ZERO) for row in self.absorption_rows]
