"""A decomposition as *claimed* by some implementation, in exact form.

Checks judge a :class:`Claimed` (never exactpte's internals), so the same checks
serve exactpte's own output, a JSON file written by any other tool, and the
deliberately corrupted decompositions of the mutation tests.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias

import flint

from exactpte import Decomposition

from proofs_check.algebra.linalg import subtract_scaled

__all__ = ["Claimed", "from_decomposition", "Exact", "Vec"]

Exact: TypeAlias = flint.fmpq | int  # an exact number as the checks hold it
Vec: TypeAlias = tuple[Any, ...]  # of fmpq (Any: the checks mix its entries with their own exact numbers)


@dataclass(frozen=True)
class Claimed:
    """Claimed objects; ``None`` where the producer did not provide them."""

    classes: tuple[tuple[int, ...], ...]
    periods: tuple[int, ...]
    cyclic_classes: tuple[tuple[tuple[int, ...], ...], ...]
    anchors: tuple[tuple[int, int, int], ...]  # (class, phase, state) in basis-column order
    basis: tuple[Vec, ...]  # n rows x N columns
    theta: Vec
    g_star: Vec
    v_star: Vec
    rho: Vec | None = None
    h: Vec | None = None
    psi: Vec | None = None
    P_inf: tuple[Vec, ...] | None = None
    transient: tuple[int, ...] | None = None
    stationary: tuple[Vec, ...] | None = None  # per class, aligned with classes[i]
    class_gain: Vec | None = None  # per class
    absorption: tuple[Vec, ...] | None = None  # n rows x classes
    hitting_times: Vec | None = None  # n: expected hitting time of the anchor set
    labels: tuple[str, ...] | None = None
    labels_claimed: bool = False  # whether the producer stated ``labels`` at all (``null`` is a claim: no labels)
    malformed: tuple[tuple[str, str], ...] = ()  # (key, problem) for optional keys that could not be read

    def problem(self, key: str) -> str | None:
        """Why the optional key ``key`` could not be read, if it could not."""
        return dict(self.malformed).get(key)

    @property
    def N(self) -> int:
        """Number of basis columns (one per claimed anchor)."""
        return len(self.anchors)

    @property
    def anchor_states(self) -> list[int]:
        """The claimed anchor states in basis-column order."""
        return [s for _, _, s in self.anchors]

    def replace(self, **changes: Any) -> "Claimed":
        """A copy with some fields replaced (used to plant errors)."""
        return dataclasses.replace(self, **changes)

    def b(self, c: int) -> list[flint.fmpq]:
        """Basis column ``c`` as a list over states."""
        return [row[c] for row in self.basis]

    def basis_matrix(self) -> flint.fmpq_mat:
        """The claimed basis as an ``n x N`` matrix (a new one each call: the caller may change it; a copy of one
        built once, as a matrix from its entries costs 25x a copy)."""
        if self._basis_matrix is not None:
            return flint.fmpq_mat(self._basis_matrix)
        M = flint.fmpq_mat(len(self.basis), self.N)  # a ragged basis: entry by entry, an IndexError for a short row
        for s in range(len(self.basis)):
            for j in range(self.N):
                M[s, j] = self.basis[s][j]
        return M

    @functools.cached_property
    def _basis_matrix(self) -> flint.fmpq_mat | None:
        """The basis as a matrix, built once (``None`` for a ragged basis); only ever copied out."""
        flat = self._basis_entries
        return None if flat is None else flint.fmpq_mat(len(self.basis), self.N, flat)

    @functools.cached_property
    def _basis_entries(self) -> list[flint.fmpq] | None:
        """The basis's entries row by row, as fmpq (``None`` for a ragged basis)."""
        N = self.N
        if any(len(row) != N for row in self.basis):
            return None
        try:
            return [flint.fmpq(x) for row in self.basis for x in row]
        except (TypeError, ValueError):  # not exact numbers: entry by entry, as before, raises as before
            return None

    def project(self, v: Sequence[Exact], basis: Sequence[Sequence[flint.fmpq]] | None = None) -> list[flint.fmpq]:
        """``(Π v)(s) = v(s) - sum v(a_{i,k}) b_{i,k}(s)`` with the claimed anchors and the claimed (or given) basis."""
        return (self._projector if basis is None else self.projector(basis))(v)

    def projector(self, basis: Sequence[Sequence[flint.fmpq]] | None = None) -> Callable[[Sequence[Exact]], list[flint.fmpq]]:
        """``v -> Π v`` (as :meth:`project`) with the claimed anchors and the claimed (or given) basis, its matrix
        built once: for projecting many vectors with one basis."""
        rows = self.basis if basis is None else basis
        anchors, N = self.anchor_states, self.N

        def by_entries(v: Sequence[Exact]) -> list[flint.fmpq]:  # a ragged basis or vector: entry by entry, as far as the rows go
            return [v[s] - sum((v[a] * y for a, y in zip(anchors, rows[s])), flint.fmpq(0)) for s in range(len(v))]

        if not all(len(row) == N for row in rows):
            return by_entries
        B = self.basis_matrix() if basis is None else flint.fmpq_mat(len(rows), N, [x for row in rows for x in row])

        def apply(v: Sequence[Exact]) -> list[flint.fmpq]:
            if len(v) != len(rows):
                return by_entries(v)
            return [x - y for x, y in zip(v, (B * flint.fmpq_mat(N, 1, [v[a] for a in anchors])).entries())]

        return apply

    def project_all(self, vectors: Sequence[Sequence[Exact]], basis: Sequence[Sequence[flint.fmpq]] | None = None) -> list[list[flint.fmpq]]:
        """:meth:`project` of each vector: one product ``V - B V[anchors]`` for all of them when the basis and the
        vectors have the claim's shape (entry by entry otherwise)."""
        rows = self.basis if basis is None else basis
        n, N, k = len(rows), self.N, len(vectors)
        if not k or any(len(row) != N for row in rows) or any(len(v) != n for v in vectors):
            one = self.projector(basis)
            return [one(v) for v in vectors]
        V = flint.fmpq_mat(n, k, [v[s] for s in range(n) for v in vectors])
        VA = flint.fmpq_mat(N, k, [v[a] for a in self.anchor_states for v in vectors])
        B = self.basis_matrix() if basis is None else flint.fmpq_mat(n, N, [x for row in rows for x in row])
        out = (V - B * VA).entries()
        return [out[j::k] for j in range(k)]

    def projection_matrix(self) -> flint.fmpq_mat:
        """``Π`` as an ``n x n`` matrix, column ``j`` = ``Π e_j`` (:meth:`project` of the unit vectors):
        ``Π[s, a_j] -= b_j(s)`` on the identity (vector by vector for a ragged basis); a new matrix each call, a copy
        of one built once."""
        return flint.fmpq_mat(self._projection_matrix)

    @functools.cached_property
    def _projection_matrix(self) -> flint.fmpq_mat:
        n, N, anchors = len(self.basis), self.N, self.anchor_states
        if any(len(row) != N for row in self.basis) or any(not 0 <= a < n for a in anchors):
            units = [[flint.fmpq(int(i == j)) for i in range(n)] for j in range(n)]
            return flint.fmpq_mat([self.project(u) for u in units]).transpose()
        Pi = flint.fmpq_mat(n, n)
        for s in range(n):
            Pi[s, s] = 1
        for s, row in enumerate(self.basis):
            for a, x in zip(anchors, row):
                if x:
                    Pi[s, a] -= x
        return Pi

    @functools.cached_property
    def sparse_columns(self) -> list[dict[int, flint.fmpq]]:
        """Each basis column as ``{state: value}`` without its zeros (one pass over the rows; a ragged row's missing
        entries are zeros, as in :meth:`project`)."""
        cols: list[dict[int, flint.fmpq]] = [{} for _ in range(self.N)]
        for s, row in enumerate(self.basis):
            for j, x in enumerate(row[: self.N]):
                if x:
                    cols[j][s] = x
        return cols

    def project_sparse(self, v: Mapping[int, Exact]) -> dict[int, flint.fmpq]:
        """:meth:`project` of a sparse vector (``{state: value}``, zeros omitted in the result): ``v - Σ_j v(a_j) b_j``
        touching only the basis columns whose anchor ``v`` does not vanish at, each through its nonzero entries."""
        out = {s: flint.fmpq(x) for s, x in v.items() if x}
        for j, a in enumerate(self.anchor_states):
            x = v.get(a, 0)
            if not x:
                continue
            subtract_scaled(out, x, self.sparse_columns[j])
        return out

    @functools.cached_property
    def _projector(self) -> Callable[[Sequence[Exact]], list[flint.fmpq]]:
        return self.projector()


def from_decomposition(dec: Decomposition, *, with_P_inf: bool = True, with_hitting_times: bool = True) -> Claimed:
    """What exactpte's :class:`~exactpte.Decomposition` claims (every quantity it has)."""
    return Claimed(
        classes=dec.classes,
        periods=dec.periods,
        cyclic_classes=dec.cyclic_classes,
        anchors=tuple(dec.anchor_list),
        basis=tuple(dec.basis),  # (exactpte's rows are read, and cancelled, row by row: all of them here)
        theta=dec.theta,
        g_star=dec.g_star,
        v_star=dec.v_star,
        rho=dec.rho,
        h=dec.h,
        psi=dec.psi,
        P_inf=dec.P_inf if with_P_inf else None,
        transient=dec.transient,
        stationary=dec.stationary,
        class_gain=dec.class_gain,
        absorption=tuple(dec.absorption),
        hitting_times=dec.hitting_times if with_hitting_times else None,
        labels=dec.chain.labels,
        labels_claimed=True,
    )
