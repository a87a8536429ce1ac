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

from .absorption import Shared, SparseVector, TransientBasis, transient_basis
from .classical import bias, class_means, gain, harmonic_extension, psi_coordinates, stationary_distribution
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
    if len(members) == 1:  # an absorbing state: θ = r there, v* = 0 at its anchor
        return [chain.r[members[0]]], {members[0]: field.zero}
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


def weighted_sums(field: Field, rows: dict[int, SparseVector], weights: Sequence[Sequence],
                  shared: dict[int, list[Shared]] | None = None, groups: Sequence[int] | None = None,
                  splits: dict | None = None) -> list[dict[int, Any]]:
    """``{s: sum_c w[c] rows[s][c]}`` for every weight vector ``w`` (rows sparse).

    The sums run on numerators and every result is cancelled once (adding large fractions one by
    one would cancel after every addition).  A row is read from ``shared[s]`` when given (pieces
    over a block solve's common denominator, :class:`~exactpte.absorption.Shared`: no splitting
    at all), else brought to its own common denominator (:meth:`~exactpte.fields.Field.split`).
    Each weight vector is split per group of columns (``groups[c]``, e.g. the column's class, whose
    weights share most of their denominator), so the products with the rows stay small and the
    groups' partial sums are brought to the weights' common denominator once per row.  A result
    touching one piece and one group is cancelled over those two denominators only.  ``splits``
    (a dict kept by the caller) remembers rows already split, by the identity of their values: the
    absorption rows and the period-1 basis columns hold the same numbers.

    Examples
    --------
    >>> from exactpte.fields import QQ
    >>> weighted_sums(QQ, {0: {0: QQ.one, 2: QQ.one / 2}}, [[1, 5, 4]])
    [{0: 3}]
    >>> weighted_sums(QQ, {0: {0: QQ.one / 3, 1: QQ.one / 5}}, [[QQ.one / 7, QQ.one / 11]], groups=[0, 1])
    [{0: 76/1155}]
    """
    one = field.split([field.one])[1]  # the ring's one
    group_of = list(groups) if groups is not None else [0] * max((len(w) for w in weights), default=0)
    members: dict[int, list[int]] = {}
    for c, g in enumerate(group_of):
        members.setdefault(g, []).append(c)

    def common_denominator(dens: list) -> tuple[list, Any]:
        """The cofactors ``lcm / den`` and the lcm of ring elements."""
        return field.split([field.fraction(one, den) for den in dens])

    split_weights = []
    for w in weights:
        values = [field.scalar(x) for x in w]
        numerators: list[Any] = [0] * len(values)
        group_den: dict[int, Any] = {}
        for g, cols in members.items():
            nums, den = field.split([values[c] for c in cols])
            for c, v in zip(cols, nums):
                numerators[c] = v
            group_den[g] = den
        cofactors, lcm = common_denominator(list(group_den.values()))
        split_weights.append((numerators, group_den, dict(zip(group_den, cofactors)), lcm))
    row_common: dict[tuple[int, ...], tuple[Any, list, list]] = {}  # lcm and cofactors of a row's pieces
    out: list[dict[int, Any]] = [{} for _ in weights]
    for s, row in rows.items():
        pieces = list(shared.get(s, ())) if shared is not None else []
        if pieces:
            covered = {c for piece in pieces for c in piece.columns}
            rest = {c: v for c, v in row.items() if c not in covered}
        else:
            rest = row
        if rest:  # entries no block solve shares: over the row's own common denominator
            values = list(rest.values())
            if splits is None:
                nums, den = field.split(values)
            else:
                key = tuple(map(id, values))
                if key not in splits:
                    splits[key] = (field.split(values), values)  # the values keep their ids valid
                nums, den = splits[key][0]
            pieces.append(Shared(list(rest), nums, den))
        for (numerators, group_den, group_cof, w_lcm), acc in zip(split_weights, out):
            partials: list[dict[int, Any]] = []
            for piece in pieces:
                partial: dict[int, Any] = {}
                for c, v in zip(piece.columns, piece.nums):
                    n = numerators[c]
                    if n:
                        g = group_of[c]
                        partial[g] = partial[g] + n * v if g in partial else n * v
                partials.append({g: t for g, t in partial.items() if t})
            touched = [j for j, partial in enumerate(partials) if partial]
            if not touched:
                acc[s] = field.zero
                continue
            if len(touched) == 1 and len(partials[touched[0]]) == 1:
                (g, t), = partials[touched[0]].items()
                acc[s] = field.fraction(t, pieces[touched[0]].den * group_den[g])
                continue
            per_piece = []
            for j in touched:
                total = 0
                for g, t in partials[j].items():
                    total += t * group_cof[g]
                per_piece.append(total)
            if len(touched) == 1:
                acc[s] = field.fraction(per_piece[0], pieces[touched[0]].den * w_lcm)
                continue
            key = tuple(id(piece.den) for piece in pieces)
            if key not in row_common:
                cofactors, lcm = common_denominator([piece.den for piece in pieces])
                row_common[key] = (lcm, cofactors, pieces)  # the pieces keep the ids valid
            lcm, cofactors, _ = row_common[key]
            total = 0
            for j, t in zip(touched, per_piece):
                total += t * cofactors[j]
            acc[s] = field.fraction(total, lcm * w_lcm)
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
    :func:`~exactpte.gain`'s route, which needs no basis; when every class is aperiodic, so do
    ``g* = ρ``, ``ψ = 0`` and ``v* = h + P∞v*`` (``P∞v*`` by one more scalar absorbing pass).

    Examples
    --------
    >>> import exactpte
    >>> dec = exactpte.decompose(exactpte.example("two-paths"))       # one aperiodic class
    >>> _ = dec.v_star, dec.g_star
    >>> "basis_transient" in dec.computed(), dec.g_star == dec.rho
    (False, True)
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
    def basis_transient(self) -> TransientBasis:
        """The phase basis on ``T`` (one phase system per distinct period): sparse rows, and the
        block solves' numerators over their common denominators for the sums below."""
        return transient_basis(self.chain, self.S)

    @cached_property
    def transient_sums(self) -> dict[str, dict[int, Any]]:
        """``g*``, ``ψ`` on ``T`` as sums over the phase basis (``lem:anchor_interpolation``: ``g* = sum θ b``;
        ``ψ = sum c b``), ``ρ`` and ``P∞ v*`` as sums over the absorption probabilities
        (``P∞ x = sum_i (π_i·x) α_i``), whose denominators are far smaller."""
        B, classes = self.basis_transient, [i for i, _ in self.S.index_set]
        splits: dict = {}
        g_star, psi = weighted_sums(self.field, B.rows, [self.theta, self.psi_coords], B.shared, groups=classes,
                                    splits=splits)
        rho, Pinf_v = weighted_sums(self.field, B.absorption, [self.class_gain, self.class_mean_v], B.absorption_shared,
                                    groups=range(len(self.S.classes)), splits=splits)
        return {"g_star": g_star, "psi": psi, "rho": rho, "Pinf_v": Pinf_v}

    # -- the quantities -------------------------------------------------------------------------------
    @cached_property
    def basis_sparse(self) -> tuple[dict[int, Any], ...]:
        """``{column: b_c(s)}`` for every state, nonzero entries only."""
        col_of, S, one = self.S.column_of, self.S, self.field.one
        bt = self.basis_transient.rows
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
        """``α_i(s) = sum_k b_{i,k}(s)`` for every state and class (on ``T``: the absorbing solve)."""
        field, S = self.field, self.S
        on_T = self.basis_transient.absorption
        blank = [field.zero] * len(S.classes)
        rows = []
        for s in range(S.n):
            i, row = S.class_of[s], blank.copy()
            if i < 0:
                for j, v in on_T[s].items():
                    row[j] = v
            else:
                row[i] = field.one
            rows.append(tuple(row))
        return tuple(rows)

    def _assemble(self, name: str, on_class) -> tuple:
        """A vector that is ``on_class(i, k)`` on ``C_{i,k}`` and the basis combination on ``T``."""
        S, sums = self.S, self.transient_sums[name]
        return tuple(sums[s] if S.class_of[s] < 0 else on_class(S.class_of[s], S.phase_of[s]) for s in range(S.n))

    def _aperiodic_without_basis(self) -> bool:
        """Every closed class aperiodic and the basis not computed: then ``K(P)`` is spanned by the
        absorption probabilities ``α_i`` (``b_{i,0} = α_i``, ``θ_i = γ_i``), so ``g* = ρ``, ``ψ = 0`` and
        ``P∞v*`` is one scalar absorbing pass, and the decomposition needs no ``n x N`` basis."""
        return "basis_transient" not in vars(self) and all(d == 1 for d in self.S.periods)

    @cached_property
    def g_star(self) -> tuple:
        """``g* = θ_{phase}`` on the classes, ``sum θ b`` on ``T`` (``= ρ`` when every class is aperiodic)."""
        if self._aperiodic_without_basis():
            return self.rho
        col_of, theta = self.S.column_of, self.theta
        return self._assemble("g_star", lambda i, k: theta[col_of[(i, k)]])

    @cached_property
    def psi(self) -> tuple:
        """``ψ = c_{i,k}`` on ``C_{i,k}``, ``sum c b`` on ``T`` (``= 0`` when every class is aperiodic)."""
        if self._aperiodic_without_basis():
            return (self.field.zero,) * self.S.n
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
        if self._aperiodic_without_basis():  # ψ = 0
            Pinf_v, h = harmonic_extension(self.chain, self.class_mean_v), self.h
            return tuple(v_rec[s] if s in v_rec else h[s] + Pinf_v[s] for s in range(self.S.n))
        psi, Pinf_v, h = self.transient_sums["psi"], self.transient_sums["Pinf_v"], self.h
        return tuple(v_rec[s] if s in v_rec else h[s] - psi[s] + Pinf_v[s] for s in range(self.S.n))

    @cached_property
    def h(self) -> tuple:
        """The normalized bias by the classical route (:func:`~exactpte.classical.bias`)."""
        return bias(self.chain, stationary=self.stationary, rho=self.rho)
