"""The gauge-fixed persistent–transient decomposition ``r = g* + (I - P) v*`` (``thm:wellposed``).

Solves only what needs solving: the phase-offset basis on the transient block
(:mod:`exactpte.absorption`), one ``|F_i| x |F_i|`` system per closed class for
``θ_i`` and ``v*`` on ``F_i``, then one absorbing solve for ``v*`` on ``T``.
The classical ``ρ``, ``ψ``, ``h`` follow from these by vector operations.  Nothing is
computed before it is read (:class:`DecompositionWork`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

from .absorption import SparseVector, phase_offset_basis
from .classical import bias, class_means, gain, psi_coordinates, stationary_distribution
from .chain import Chain, check_chain
from .errors import UsageError
from .fields import Field
from .result import Decomposition
from .structure import Structure

__all__ = ["decompose", "class_gauge_solve", "DecompositionWork", "weighted_sums"]


def class_gauge_solve(
    chain: Chain, members: Sequence[int], phases: Sequence[int], anchors: Sequence[int]
) -> tuple[list, dict[int, Any]]:
    """``θ_i`` and ``v*`` on one closed class ``F_i`` of period ``d = len(anchors)``.

    On a closed class ``K`` restricted to ``F_i`` is spanned by the phase
    indicators, so ``g* = θ_{phase(y)}`` there, and ``v*`` vanishes at the anchors
    (``lem:main_b_identify``).  The ``|F_i|`` equations
    ``v(y) - sum_y' P(y,y') v(y') + θ_{phase(y)} = r(y)`` in the ``|F_i| - d``
    unknowns ``v(y), y not an anchor`` and the ``d`` unknowns ``θ_k`` have a unique
    solution because ``W ∩ K = {0}`` (``lem:W_norm_equiv``).

    Examples
    --------
    >>> from exactpte import MarkovRewardProcess

    >>> m = MarkovRewardProcess([[0, 1], [1, 0]], [1, 0])
    >>> theta, v = class_gauge_solve(m, [0, 1], [0, 1], [0, 1])
    >>> [str(t) for t in theta], v
    (['1', '0'], {0: 0, 1: 0})
    """
    field = chain.field
    anchor_set = set(anchors)
    unknown = [s for s in members if s not in anchor_set]
    col = {s: j for j, s in enumerate(unknown)}
    rows: list[list] = []
    rhs = []
    for a, y in enumerate(members):
        row = [(col[y], field.one)] if y in col else []
        row.extend((col[z], -q) for z, q in chain.row(y) if z in col)
        row.append((len(unknown) + phases[a], field.one))
        rows.append(row)
        rhs.append([chain.r[y]])
    sol = [row[0] for row in field.solve_sparse(rows, rhs)]
    v = {s: field.zero for s in anchors}
    for s, j in col.items():
        v[s] = sol[j]
    return sol[len(unknown) :], v


def decompose(chain: Chain, anchors: Any = None, *, strata: bool = False, arithmetic: str = "exact",
              tol: float = 1e-9) -> Decomposition:
    """Exact persistent–transient decomposition of ``(P, r)`` in the anchor gauge.

    Computes ``g*`` in ``K(P)`` and ``v*`` (zero at the anchors) with
    ``r = g* + (I - P) v*`` (``thm:wellposed``), the phase-offset basis ``b``
    (``def:main_b``), ``θ* = g*(anchors)`` (``def:theta_star``), the classical gain
    ``ρ = P∞ r``, the normalized bias ``h`` and the bridge ``ψ`` with
    ``g* = ρ + (I - P) ψ`` and ``h = v* + ψ - P∞ v*`` (``thm:comparison_gain_bias``).
    Only the blocks that need it are solved: the transient block (by SCC, downstream
    first) and one system per closed class.  Every quantity is computed on first access
    from shared intermediate results, so reading ``dec.rho`` alone costs one class solve per
    class and one transient solve with a small right-hand side (:func:`~exactpte.gain`'s
    route), ``dec.h`` alone two (:func:`~exactpte.classical.bias`'s route), and the phase
    basis is solved only when something needs it (``basis``, ``g_star``, ``v_star``, ``psi``).

    Parameters
    ----------
    chain : Chain
        A :class:`~exactpte.MarkovRewardProcess` (answers over ``QQ``) or a
        :class:`~exactpte.ParametricChain` (answers as rational functions).
    anchors : optional
        ``None`` for the canonical anchors (smallest state of each cyclic class), per-class
        groups ``[[a_00, a_01], [a_10]]``, a flat list in ``(class, phase)`` order, or a
        mapping ``{(i, k): state}``.
    strata : bool
        For a :class:`~exactpte.ParametricChain`: the decomposition on every stratum of the
        parameter space (a :class:`~exactpte.strata.StratifiedDecomposition`), not only the
        generic one (:func:`exactpte.strata.stratify`).
    arithmetic : {"exact", "certified"}
        ``"certified"``: float work with certified enclosures of every number (a
        :class:`~exactpte.certified.CertifiedDecomposition`), for chains too large for exact
        arithmetic (10^5-10^6 states); ``tol`` is the relative width asked for.

    Returns
    -------
    Decomposition
        Frozen result with fields named after the paper's symbols.

    Raises
    ------
    AnchorError
        The anchors do not pick one state of every cyclic class.

    Examples
    --------
    >>> from exactpte.examples import example
    >>> dec = decompose(example("two-paths"))
    >>> chain = dec.chain
    >>> Pv = chain.matvec(dec.v_star)
    >>> all(r == g + v - pv for r, g, v, pv in zip(chain.r, dec.g_star, dec.v_star, Pv))
    True
    """
    check_chain(chain)
    if arithmetic not in ("exact", "certified"):
        raise UsageError(f"arithmetic must be 'exact' or 'certified', got {arithmetic!r}")
    if arithmetic == "certified":
        if strata or anchors is not None:
            raise UsageError("certified arithmetic uses the canonical anchors and has no strata")
        from .certified import decompose_certified

        return decompose_certified(chain, tol=tol)  # type: ignore[return-value]
    if strata:
        from .strata import stratify

        if anchors is not None:
            raise UsageError("anchors apply to one decomposition; every stratum uses its canonical anchors")
        return stratify(chain)  # type: ignore[return-value]
    S = chain.structure
    A = S.validate_anchors(anchors)
    return Decomposition(chain=chain, structure=S, anchors=A, _work=DecompositionWork(chain, S, A))


def weighted_sums(field: Field, rows: dict[int, SparseVector], weights: Sequence[Sequence]) -> list[dict[int, Any]]:
    """``{s: sum_c w[c] rows[s][c]}`` for every weight vector ``w`` (rows sparse).

    Each row and each weight vector is brought to one common denominator once
    (:meth:`~exactpte.fields.Field.split`), the sums run on numerators, and every result is
    cancelled once: adding large fractions one by one would cancel after every addition.

    Examples
    --------
    >>> from exactpte.fields import QQ
    >>> weighted_sums(QQ, {0: {0: QQ.one, 2: QQ.one / 2}}, [[1, 5, 4]])
    [{0: 3}]
    """
    split_weights = [field.split([field.scalar(x) for x in w]) for w in weights]
    out: list[dict[int, Any]] = [{} for _ in weights]
    for s, row in rows.items():
        if not row:
            for acc in out:
                acc[s] = field.zero
            continue
        cols = list(row)
        nums, den = field.split(list(row.values()))
        for (w_nums, w_den), acc in zip(split_weights, out):
            total = 0
            for c, v in zip(cols, nums):
                total += w_nums[c] * v
            acc[s] = field.fraction(total, den * w_den)
    return out


class DecompositionWork:
    """The shared intermediate results of one decomposition, each computed once on first use.

    :class:`~exactpte.Decomposition` reads its fields from here, so a caller pays only for
    the quantities it reads.  Dependencies: class solves (``stationary``, ``gauge``) →
    ``class_gain``, ``psi_coords`` → the phase basis on ``T`` (one solve per distinct period)
    → ``g*``, ``ψ``, ``ρ``, ``P∞v*`` on ``T`` by one product per period.  ``h`` always takes
    the classical route (:func:`~exactpte.classical.bias`: one absorbing solve with a small
    answer), and ``v* = h - ψ + P∞v*`` on ``T`` follows without a solve of its own
    (``thm:comparison_gain_bias``).  ``ρ`` read before the phase basis takes
    :func:`~exactpte.gain`'s route, which needs no basis.
    """

    def __init__(self, chain: Chain, structure: Structure, anchors: tuple[tuple[int, ...], ...]) -> None:
        self.chain, self.S, self.anchors, self.field = chain, structure, anchors, chain.field

    def computed(self) -> tuple[str, ...]:
        """The names of the intermediate results computed so far."""
        return tuple(k for k in vars(self) if k not in ("chain", "S", "anchors", "field"))

    # -- closed classes ------------------------------------------------------------------
    @cached_property
    def stationary(self) -> tuple[tuple, ...]:
        """Stationary distribution of every closed class (one solve per class)."""
        return tuple(tuple(stationary_distribution(self.chain, members)) for members in self.S.classes)

    @cached_property
    def class_gain(self) -> tuple:
        """``γ_i = π_i · r`` for every closed class."""
        return tuple(class_means(self.S.classes, self.stationary, self.chain.r, field=self.field))

    @cached_property
    def gauge(self) -> tuple[tuple, dict[int, Any]]:
        """``(θ, v* on the closed classes)`` from one gauge system per class."""
        theta: list = []
        v_rec: dict[int, Any] = {}
        for i, members in enumerate(self.S.classes):
            th, v = class_gauge_solve(self.chain, members, [self.S.phase_of[s] for s in members], self.anchors[i])
            theta.extend(th)
            v_rec.update(v)
        return tuple(theta), v_rec

    @property
    def theta(self) -> tuple:
        """``θ*`` in basis-column order."""
        return self.gauge[0]

    @cached_property
    def psi_coords(self) -> tuple:
        """Coordinates of ``ψ`` in the basis (:func:`~exactpte.classical.psi_coordinates`)."""
        return tuple(psi_coordinates(self.theta, self.class_gain, self.S, field=self.field))

    @cached_property
    def class_mean_v(self) -> tuple:
        """``μ_i = π_i · v*|_{F_i}`` (so ``P∞ v* = μ_i`` on ``F_i``)."""
        v_rec = self.gauge[1]
        return tuple(sum((p * v_rec[y] for y, p in zip(members, pi)), self.field.zero)
                     for members, pi in zip(self.S.classes, self.stationary))

    # -- the transient block -------------------------------------------------------------------
    @cached_property
    def basis_transient(self) -> dict[int, SparseVector]:
        """The phase basis on ``T``, sparse rows (one phase system per distinct period)."""
        return phase_offset_basis(self.chain, self.S)

    def _per_column(self, per_class: Sequence) -> list:
        return [per_class[i] for i, k in self.S.index_set]

    @cached_property
    def transient_sums(self) -> dict[str, dict[int, Any]]:
        """``g*``, ``ψ``, ``ρ``, ``P∞ v*`` on ``T`` as basis combinations, in one product
        (``lem:anchor_interpolation``: ``g* = sum θ b``; ``ψ = sum c b``; ``P∞ x = sum_i (π_i·x) α_i``)."""
        names = ("g_star", "psi", "rho", "Pinf_v")
        weights = [self.theta, self.psi_coords, self._per_column(self.class_gain), self._per_column(self.class_mean_v)]
        return dict(zip(names, weighted_sums(self.field, self.basis_transient, weights)))

    # -- the quantities -------------------------------------------------------------------------------
    @cached_property
    def basis_sparse(self) -> tuple[dict[int, Any], ...]:
        """``{column: b_c(s)}`` for every state, nonzero entries only."""
        col_of, S, one = self.S.column_of, self.S, self.field.one
        bt = self.basis_transient
        return tuple(bt[s] if S.class_of[s] < 0 else {col_of[(S.class_of[s], S.phase_of[s])]: one} for s in range(S.n))

    @cached_property
    def basis(self) -> tuple[tuple, ...]:
        """Dense basis rows (materialised from the sparse ones)."""
        zero, N = self.field.zero, self.S.N
        rows = []
        for sparse in self.basis_sparse:
            row = [zero] * N
            for c, v in sparse.items():
                row[c] = v
            rows.append(tuple(row))
        return tuple(rows)

    @cached_property
    def absorption(self) -> tuple[tuple, ...]:
        """``α_i(s) = sum_k b_{i,k}(s)`` for every state and class."""
        field, S = self.field, self.S
        class_of_column = [i for i, _ in S.index_set]
        rows = []
        for sparse in self.basis_sparse:
            row = [field.zero] * len(S.classes)
            for c, v in sparse.items():  # at most d_i terms per class: plain sums
                i = class_of_column[c]
                row[i] = v if row[i] == 0 else row[i] + v
            rows.append(tuple(row))
        return tuple(rows)

    def _assemble(self, name: str, on_class) -> tuple:
        """A vector that is ``on_class(i, k)`` on ``C_{i,k}`` and the basis combination on ``T``."""
        S, sums = self.S, self.transient_sums[name]
        return tuple(sums[s] if S.class_of[s] < 0 else on_class(S.class_of[s], S.phase_of[s]) for s in range(S.n))

    @cached_property
    def g_star(self) -> tuple:
        """``g* = θ_{phase}`` on the classes, ``sum θ b`` on ``T``."""
        col_of, theta = self.S.column_of, self.theta
        return self._assemble("g_star", lambda i, k: theta[col_of[(i, k)]])

    @cached_property
    def psi(self) -> tuple:
        """``ψ = c_{i,k}`` on ``C_{i,k}``, ``sum c b`` on ``T``."""
        col_of, c = self.S.column_of, self.psi_coords
        return self._assemble("psi", lambda i, k: c[col_of[(i, k)]])

    @cached_property
    def rho(self) -> tuple:
        """``ρ = γ_i`` on ``F_i``; on ``T`` from the basis when it is known, else by one absorbing solve."""
        if "transient_sums" in vars(self) or "basis_transient" in vars(self):
            gain_i = self.class_gain
            return self._assemble("rho", lambda i, k: gain_i[i])
        return gain(self.chain, stationary=self.stationary)

    @cached_property
    def v_star(self) -> tuple:
        """``v*``: the gauge solves on the classes, ``h - ψ + P∞v*`` on ``T``."""
        # On T, v* = h - ψ + P∞v* (thm:comparison_gain_bias): h's absorbing solve has a far smaller
        # answer than v*'s own (whose right-hand side r - g* carries every period's phase
        # determinant), so the classical route is the cheaper one.
        v_rec = self.gauge[1]
        Pinf_v = self.transient_sums["Pinf_v"]
        h, psi = self.h, self.psi
        return tuple(v_rec[s] if s in v_rec else h[s] - psi[s] + Pinf_v[s] for s in range(self.S.n))

    @cached_property
    def h(self) -> tuple:
        """The normalized bias by the classical route (:func:`~exactpte.classical.bias`)."""
        return bias(self.chain, stationary=self.stationary, rho=self.rho)
