"""The gauge-fixed persistent–transient decomposition ``r = g* + (I - P) v*`` (``thm:wellposed``).

Solves only what needs solving: the phase-offset basis on the transient block
(:mod:`exactpte.solves.absorption`), one ``|F_i| x |F_i|`` system per closed class for
``θ_i`` and ``v*`` on ``F_i``, then one absorbing solve for ``v*`` on ``T``.
The classical ``ρ``, ``ψ``, ``h`` follow from these by vector operations.  Nothing is
computed before it is read (:class:`DecompositionWork`); the result that reads it is
:class:`exactpte.results.decomposition.Decomposition`, made by :func:`exactpte.decompose`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any

from exactpte.solves import cyclotomic
from exactpte.solves.absorption import ExactRows, SparseRows, TransientBasis, extend_to_transient, transient_basis
from exactpte.model.chain import Chain
from exactpte.solves.classical import bias, class_means, gain, harmonic_extension, psi_coordinates, stationary_distribution
from exactpte.graph.structure import Structure
from exactpte.graph.view import Anchors
from exactpte.fields import Field
from exactpte.solves.summation import Commons, Pair, SplitCache, common_sum, weighted_pairs

__all__ = ["class_gauge_solve", "DecompositionWork"]


def class_gauge_solve(
    chain: Chain, members: Sequence[int], phases: Sequence[int], anchors: Sequence[int]
) -> tuple[list[Any], dict[int, Any]]:
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
    rows: list[list[tuple[int, Any]]] = []
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


class DecompositionWork:
    """The shared intermediate results of one decomposition, each computed once on first use.

    :class:`~exactpte.Decomposition` reads its fields from here, so a caller pays only for
    the quantities it reads.  Dependencies: class solves (``stationary``, ``gauge``) →
    ``class_gain``, ``psi_coords`` → the phase basis on ``T`` (one solve per distinct period)
    → ``g*``, ``ψ``, ``ρ``, ``P∞v*`` on ``T`` by one product per period.  ``h`` takes the classical
    absorbing pass on ``T`` (one solve with a small answer); on the closed classes it is ``v* + ψ - P∞v*``
    once the gauge solves are done, else one class solve each (:func:`~exactpte.solves.classical.bias`), and
    ``v* = h - ψ + P∞v*`` on ``T`` follows without a solve of its own (``thm:comparison_gain_bias``).  ``ρ`` read before the phase basis takes
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

    def __init__(self, chain: Chain, structure: Structure, anchors: Anchors) -> None:
        self.chain, self.S, self.anchors, self.field = chain, structure, anchors, chain.field

    def computed(self) -> tuple[str, ...]:
        """The names of the intermediate results computed so far."""
        return tuple(k for k in vars(self) if k not in ("chain", "S", "anchors", "field"))

    # -- closed classes ------------------------------------------------------------------
    @cached_property
    def stationary(self) -> tuple[tuple[Any, ...], ...]:
        """Stationary distribution of every closed class (one solve per class)."""
        return tuple(tuple(stationary_distribution(self.chain, members)) for members in self.S.classes)

    @cached_property
    def class_gain(self) -> tuple[Any, ...]:
        """``γ_i = π_i · r`` for every closed class."""
        return tuple(class_means(self.S.classes, self.stationary, self.chain.r, field=self.field))

    @cached_property
    def gauge(self) -> tuple[tuple[Any, ...], dict[int, Any]]:
        """``(θ, v* on the closed classes)`` from one gauge system per class."""
        theta: list[Any] = []
        v_rec: dict[int, Any] = {}
        for i, members in enumerate(self.S.classes):
            th, v = class_gauge_solve(self.chain, members, [self.S.phase_of[s] for s in members], self.anchors[i])
            theta.extend(th)
            v_rec.update(v)
        return tuple(theta), v_rec

    @property
    def theta(self) -> tuple[Any, ...]:
        """``θ*`` in basis-column order."""
        return self.gauge[0]

    @cached_property
    def psi_coords(self) -> tuple[Any, ...]:
        """Coordinates of ``ψ`` in the basis (:func:`~exactpte.solves.classical.psi_coordinates`)."""
        return tuple(psi_coordinates(self.theta, self.class_gain, self.S, field=self.field))

    @cached_property
    def class_mean_v(self) -> tuple[Any, ...]:
        """``μ_i = π_i · v*|_{F_i}`` (so ``P∞ v* = μ_i`` on ``F_i``)."""
        v_rec = self.gauge[1]
        return tuple(sum((p * v_rec[y] for y, p in zip(members, pi)), self.field.zero)
                     for members, pi in zip(self.S.classes, self.stationary))

    # -- the transient block -------------------------------------------------------------------
    @cached_property
    def spectrum(self) -> cyclotomic.Spectrum:
        """The cyclotomic components of the phase systems (:func:`~exactpte.solves.cyclotomic.phase_spectrum`):
        the route of fields that split periods (``QQ(params)``) to the periodic part of the basis and
        to sums over it."""
        return cyclotomic.phase_spectrum(self.chain, self.S)

    @cached_property
    def basis_transient(self) -> TransientBasis:
        """The phase basis on ``T`` (one phase system per distinct period, or the cyclotomic components):
        sparse rows, and the block solves' numerators over their common denominators for the sums below."""
        return transient_basis(self.chain, self.S, spectrum=self.spectrum if self.field.splits_periods else None)

    @cached_property
    def transient_sums(self) -> dict[str, dict[int, Any]]:
        """``g*``, ``ψ`` and ``P∞v*`` on ``T`` as sums over the phase basis (``lem:anchor_interpolation``:
        ``g* = sum θ b``; ``ψ = sum c b``, ``thm:comparison_gain_bias``; ``P∞ x = sum_i (π_i·x) α_i``).

        Over ``QQ`` the sums run on the lifted solves' numerators (:func:`~exactpte.solves.summation.weighted_sums`),
        ``g* = ρ + sum (θ - γ) b`` and ``ρ``, ``P∞v*`` over the absorption probabilities, whose
        denominators are far smaller.  When the field splits periods (``QQ(params)``) the periodic
        classes' parts are taken on the cyclotomic components (:func:`~exactpte.solves.cyclotomic.weighted_sums`:
        one cancellation an entry, a frequency the weights lack leaving its determinant out) and the
        aperiodic classes' parts by scalar absorbing passes."""
        if self.field.splits_periods:
            return self._sums_on_components()
        field, pairs = self.field, self._transient_pairs
        rho, Pinf_v = _cancelled(field, pairs["rho"]), _cancelled(field, pairs["Pinf_v"])
        if "dg" not in pairs:
            return {"g_star": rho, "psi": {s: field.zero for s in rho}, "Pinf_v": Pinf_v, "rho": rho}
        # g* = ρ + the periodic part, on numerators (over denominators the states of a block share, whose lcm is
        # taken once): g* and ψ are each cancelled once
        commons: Commons = {}
        g_star = _cancelled(field, {s: _added(field, [pairs["rho"][s], pairs["dg"][s]], commons) for s in rho})
        return {"g_star": g_star, "psi": _cancelled(field, pairs["psi"]), "Pinf_v": Pinf_v, "rho": rho}

    @cached_property
    def _transient_pairs(self) -> dict[str, dict[int, Pair | None]]:
        """Over ``QQ``, :attr:`transient_sums` before cancelling (:func:`~exactpte.solves.summation.weighted_pairs`):
        ``ρ`` and ``P∞v*`` over the absorption probabilities; with a periodic class, ``dg = sum (θ - γ) b`` and ``ψ``
        over the periodic columns (on an aperiodic class ``θ = γ``, ``b = α`` and ψ's coordinates vanish)."""
        classes, field = [i for i, _ in self.S.index_set], self.field
        periodic = [self.S.periods[i] > 1 for i in classes]
        B = self.basis_transient
        splits: SplitCache = {}
        rho, Pinf_v = weighted_pairs(field, B.absorption_rest, [self.class_gain, self.class_mean_v],
                                     shared=B.absorption_shared, groups=range(len(self.S.classes)), splits=splits)
        if not any(periodic):
            return {"rho": rho, "Pinf_v": Pinf_v}
        gain_i = self.class_gain
        w_g = [t - gain_i[i] if p else field.zero for t, i, p in zip(self.theta, classes, periodic)]
        w_psi = [c if p else field.zero for c, p in zip(self.psi_coords, periodic)]
        dg, psi = weighted_pairs(field, B.rest, [w_g, w_psi], shared=B.shared, groups=classes, splits=splits)
        return {"rho": rho, "Pinf_v": Pinf_v, "dg": dg, "psi": psi}

    def _sums_on_components(self) -> dict[str, dict[int, Any]]:
        """:attr:`transient_sums` over ``QQ(params)``: ``sum θ b`` and ``sum c b`` over the periodic columns
        on the components, plus ``γ_i α_i`` of the aperiodic classes; ``P∞v*`` by a scalar pass."""
        S, field = self.S, self.field
        classes = [i for i, _ in S.index_set]
        periodic = [S.periods[i] > 1 for i in classes]
        Pinf_all = harmonic_extension(self.chain, self.class_mean_v)
        Pinf_v = {s: Pinf_all[s] for s in S.transient}
        if not any(periodic):
            rho = self.rho
            return {"g_star": {s: rho[s] for s in S.transient}, "psi": {s: field.zero for s in S.transient}, "Pinf_v": Pinf_v}
        w_g = [t if p else field.zero for t, p in zip(self.theta, periodic)]
        w_psi = [c if p else field.zero for c, p in zip(self.psi_coords, periodic)]
        g, psi = cyclotomic.weighted_sums(field, S, self.spectrum, [w_g, w_psi])
        if not all(periodic):  # the aperiodic classes' γ_i α_i: a scalar pass with their gains alone
            rho_a = harmonic_extension(self.chain, [x if d == 1 else field.zero for x, d in zip(self.class_gain, S.periods)])
            g = {s: x + rho_a[s] for s, x in g.items()}
        return {"g_star": g, "psi": psi, "Pinf_v": Pinf_v}

    def entry_parts(self, key: str) -> dict[int, Any] | None:
        """The entries of ``key`` as sums of parts before they are brought over one denominator, when the
        field splits periods and a class is periodic (else ``None``): ``{s: {column: parts}}`` for ``"basis"``,
        ``{s: parts}`` for ``"g_star"``, ``"psi"`` and ``"v_star"``, each part ``(num, den)`` (ring elements, not
        reduced) over a block's cyclotomic denominator (:func:`~exactpte.solves.cyclotomic.basis_parts`,
        :func:`~exactpte.solves.cyclotomic.weighted_parts`); the parts sum to the entry.  What the factored
        output writes.

        When every class is periodic every state is given (a closed class's entries as one part each) and
        nothing is brought over one denominator: the reduced basis, g*, ψ and v* are never computed.  With
        an aperiodic class only the transient states are given (an aperiodic column of the basis left out:
        it is a single fraction), and ``g*``'s aperiodic share is read off the reduced ``g*``."""
        S, field = self.S, self.field
        if not field.splits_periods or all(d == 1 for d in S.periods) or key not in ("basis", "g_star", "psi", "v_star"):
            return None
        complete = all(d > 1 for d in S.periods)
        one = [(field.one.num, field.one.den)]
        if key == "basis":
            parts: dict[int, Any] = cyclotomic.basis_parts(S, self.spectrum)
            if complete:
                parts.update({s: {S.column_of[(S.class_of[s], S.phase_of[s])]: one} for s in range(S.n) if S.class_of[s] >= 0})
            return parts
        classes = [i for i, _ in S.index_set]
        periodic = [S.periods[i] > 1 for i in classes]
        w_g = [t if p else field.zero for t, p in zip(self.theta, periodic)]
        w_psi = [c if p else field.zero for c, p in zip(self.psi_coords, periodic)]
        g, psi = cyclotomic.weighted_parts(field, S, self.spectrum, [w_g, w_psi])
        if key == "psi":
            out = psi
        elif key == "g_star":
            out = g
            if not complete:  # the aperiodic classes' γ_i α_i, one part
                rest = {s: self.transient_sums["g_star"][s] - cyclotomic.sum_parts(field, g[s]) for s in g}
                out = {s: g[s] + ([(x.num, x.den)] if x != 0 else []) for s, x in rest.items()}
        else:
            h, Pinf_v = self.h, self._Pinf_v_T
            out = {}
            for s, ps in psi.items():
                first = h[s] + Pinf_v[s]  # both over the absorbing solve's small denominators
                out[s] = ([(first.num, first.den)] if first != 0 else []) + [(-num, den) for num, den in ps]
        if complete:
            out.update({s: [(x.num, x.den)] if x != 0 else [] for s, x in self._on_classes(key).items()})
        return out

    def _on_classes(self, key: str) -> dict[int, Any]:
        """``g*``, ``ψ`` or ``v*`` on the closed classes (θ, ψ's coordinates, the gauge solves), no transient solve."""
        S = self.S
        if key == "v_star":
            return dict(self.gauge[1])
        values = self.theta if key == "g_star" else self.psi_coords
        return {s: values[S.column_of[(S.class_of[s], S.phase_of[s])]] for s in range(S.n) if S.class_of[s] >= 0}

    @cached_property
    def _Pinf_v_T(self) -> dict[int, Any]:
        """``P∞v*`` on ``T`` by one scalar absorbing pass (as :meth:`_sums_on_components` takes it)."""
        if "transient_sums" in vars(self):
            return dict(self.transient_sums["Pinf_v"])
        Pinf_all = harmonic_extension(self.chain, self.class_mean_v)
        return {s: Pinf_all[s] for s in self.S.transient}

    # -- the quantities -------------------------------------------------------------------------------
    @cached_property
    def basis(self) -> ExactRows:
        """The ``n x N`` basis, read row by row (:class:`~exactpte.solves.absorption.ExactRows`: a row's entries are
        cancelled when it is first read, and :meth:`~exactpte.solves.absorption.ExactRows.parts` gives it exactly
        without cancelling); a closed class's states are unit rows."""
        S = self.S
        unit = {s: S.column_of[(S.class_of[s], S.phase_of[s])] for s in range(S.n) if S.class_of[s] >= 0}
        return self.basis_transient.view(S.n, S.N, unit)

    @cached_property
    def basis_sparse(self) -> "SparseRows":
        """``{column: b_c(s)}`` for every state, nonzero entries only (the rows of :attr:`basis`)."""
        return SparseRows(self.basis)

    @cached_property
    def absorption(self) -> ExactRows:
        """``α_i(s) = sum_k b_{i,k}(s)`` for every state and class (on ``T``: the absorbing solve), read row by row
        as :attr:`basis` is."""
        S = self.S
        unit = {s: S.class_of[s] for s in range(S.n) if S.class_of[s] >= 0}
        return self.basis_transient.view(S.n, len(S.classes), unit, absorption=True)

    def _assemble(self, name: str, on_class: Callable[[int, int], Any]) -> tuple[Any, ...]:
        """A vector that is ``on_class(i, k)`` on ``C_{i,k}`` and the basis combination on ``T``."""
        S, sums = self.S, self.transient_sums[name]
        return tuple(sums[s] if S.class_of[s] < 0 else on_class(S.class_of[s], S.phase_of[s]) for s in range(S.n))

    def _aperiodic_without_basis(self) -> bool:
        """Every closed class aperiodic and the basis not computed: then ``K(P)`` is spanned by the
        absorption probabilities ``α_i`` (``b_{i,0} = α_i``, ``θ_i = γ_i``), so ``g* = ρ``, ``ψ = 0`` and
        ``P∞v*`` is one scalar absorbing pass, and the decomposition needs no ``n x N`` basis."""
        return "basis_transient" not in vars(self) and all(d == 1 for d in self.S.periods)

    @cached_property
    def g_star(self) -> tuple[Any, ...]:
        """``g* = θ_{phase}`` on the classes, ``sum θ b`` on ``T`` (``= ρ`` when every class is aperiodic)."""
        if self._aperiodic_without_basis():
            return self.rho
        col_of, theta = self.S.column_of, self.theta
        return self._assemble("g_star", lambda i, k: theta[col_of[(i, k)]])

    @cached_property
    def psi(self) -> tuple[Any, ...]:
        """``ψ = c_{i,k}`` on ``C_{i,k}``, ``sum c b`` on ``T`` (``= 0`` when every class is aperiodic)."""
        if self._aperiodic_without_basis():
            return (self.field.zero,) * self.S.n
        col_of, c = self.S.column_of, self.psi_coords
        return self._assemble("psi", lambda i, k: c[col_of[(i, k)]])

    @cached_property
    def rho(self) -> tuple[Any, ...]:
        """``ρ = γ_i`` on ``F_i``; on ``T`` from the basis sums when they are known over ``QQ``, else by one
        absorbing solve."""
        if not self.field.splits_periods and ("transient_sums" in vars(self) or "basis_transient" in vars(self)):
            gain_i = self.class_gain
            return self._assemble("rho", lambda i, k: gain_i[i])
        return gain(self.chain, stationary=self.stationary)

    @cached_property
    def v_star(self) -> tuple[Any, ...]:
        """``v*``: the gauge solves on the classes, ``h - ψ + P∞v*`` on ``T``."""
        # On T, v* = h - ψ + P∞v* (thm:comparison_gain_bias): h's absorbing solve has a far smaller
        # answer than v*'s own (whose right-hand side r - g* carries every period's phase
        # determinant), so the classical route is the cheaper one.
        v_rec = self.gauge[1]
        if self._aperiodic_without_basis():  # ψ = 0
            Pinf_v, h = harmonic_extension(self.chain, self.class_mean_v), self.h
            return tuple(v_rec[s] if s in v_rec else h[s] + Pinf_v[s] for s in range(self.S.n))
        sums, bias_ = self.transient_sums, self.h
        # (h + P∞v*) first: both have the small denominators of the absorbing solve; ψ's large one meets them once
        # (adding canonical fractions costs a gcd of their denominators only: cheaper than any sum on numerators,
        # which cancels the result at the size of ψ's denominator; ψ itself is cancelled once, as it must be)
        return tuple(v_rec[s] if s in v_rec else (bias_[s] + sums["Pinf_v"][s]) - sums["psi"][s] for s in range(self.S.n))

    @cached_property
    def h(self) -> tuple[Any, ...]:
        """The normalized bias ``h``.  Once the gauge solves are done (``θ`` or ``v*`` read), a closed class needs no
        solve of its own: ``h = v* + ψ - P∞v*`` there (``thm:comparison_gain_bias``, with ``ψ = c_{i,phase}`` and
        ``P∞v* = μ_i``), and ``T`` takes the classical absorbing pass ``h = Q h + (r - ρ) + P_{T,F} h_F``.  Otherwise
        the classical route (:func:`~exactpte.solves.classical.bias`: one solve per class), so ``ρ`` and ``h`` alone
        cost no gauge solve.  Both give the same canonical entries."""
        if "gauge" not in vars(self):
            return bias(self.chain, stationary=self.stationary, rho=self.rho)
        S, field, v_rec = self.S, self.field, self.gauge[1]
        c, mu, col_of = self.psi_coords, self.class_mean_v, S.column_of
        h = [field.zero] * S.n
        for i, members in enumerate(S.classes):
            for s in members:
                h[s] = (v_rec[s] - mu[i]) + c[col_of[(i, S.phase_of[s])]]
        r, rho = self.chain.r, self.rho
        return tuple(extend_to_transient(self.chain, S, h, lambda s: r[s] - rho[s]))


def _cancelled(field: Field[Any], pairs: dict[int, Pair | None]) -> dict[int, Any]:
    """Each :data:`~exactpte.solves.summation.Pair` as a field element (``None``: zero), cancelled once."""
    return {s: field.zero if pair is None else field.fraction(*pair) for s, pair in pairs.items()}


def _added(field: Field[Any], terms: Sequence[Pair | None], commons: Commons | None) -> Pair | None:
    """The sum of the nonzero terms as one uncancelled pair (``None`` if there is none)."""
    present = [t for t in terms if t is not None]
    if not present:
        return None
    if len(present) == 1:
        return present[0]
    return common_sum(field, present, commons)
