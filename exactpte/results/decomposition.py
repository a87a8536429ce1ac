"""The immutable result of an exact decomposition, its entry point :func:`decompose`, and the
interface every result kind shares (:class:`Result`).

Fields carry the paper's symbols (``g_star``, ``v_star``, ``theta``, ``rho``, ``h``, ``psi``,
``P_inf``; :mod:`exactpte.results.quantities` lists them all); all are exact, over the chain's field.
``P∞`` is kept factored (``absorption`` x ``stationary``) and only materialised as an n x n
matrix when ``P_inf`` is read; every quantity is computed on first access, once
(:class:`~exactpte.solves.work.DecompositionWork`).  Outputs (JSON, table, LaTeX) live in
:mod:`exactpte.results.report`, returns and hitting times in :mod:`exactpte.solves.evaluation`; the methods
here delegate to them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, TypeVar, overload

from exactpte.solves import evaluation
from exactpte.results import report
from exactpte.model.chain import Chain, MarkovRewardProcess, require_chain
from exactpte.solves.classical import bias, cesaro_apply
from exactpte.solves.work import DecompositionWork
from exactpte.errors import GenericRegionError, UsageError, brief
from exactpte.fields import Field
from exactpte.model.interface import Result
from exactpte.model.parametric import ParametricChain
from exactpte.results.quantities import COMPUTED, NESTED, REGISTRY, Only
from exactpte.results.report import FORMAT
from exactpte.graph.structure import Structure
from exactpte.graph.view import Anchors, AnchorSpec, StructureShortcuts

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["Decomposition", "Result", "decompose", "FORMAT", "QUANTITIES", "Vector", "Matrix"]

QUANTITIES = COMPUTED
"""The exact quantities of a decomposition, each computed on first access (from :mod:`exactpte.results.quantities`)."""

Vector = tuple[Any, ...]
"""A vector of field elements (``fmpq``, or rational functions for a parametric chain)."""
Matrix = tuple[tuple[Any, ...], ...]
"""Rows of field elements."""

T = TypeVar("T")


class _Quantity(Generic[T]):
    """A result field read once from the decomposition's shared intermediate results (its doc and
    paper label from :data:`exactpte.results.quantities.REGISTRY`)."""

    def __init__(self, name: str, doc: str | None = None) -> None:
        self.name = name
        self.__doc__ = doc if doc is not None else f"{REGISTRY[name].doc} (``{REGISTRY[name].label}``)"

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> "_Quantity[T]": ...

    @overload
    def __get__(self, obj: "Decomposition", owner: type | None = None) -> T: ...

    def __get__(self, obj: "Decomposition | None", owner: type | None = None) -> "T | _Quantity[T]":
        if obj is None:
            return self
        value: T = getattr(obj._work, self.name)
        obj.__dict__[self.name] = value  # a non-data descriptor: the next read finds the value itself
        return value


class GivenValues:
    """Intermediate results that are simply given (a decomposition evaluated at a point)."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)
        if "basis_sparse" not in values:
            self.basis_sparse = tuple({c: x for c, x in enumerate(row) if x != 0} for row in values["basis"])

    def computed(self) -> tuple[str, ...]:
        """Everything is given."""
        return tuple(vars(self))


@dataclass(frozen=True, eq=False)
class Decomposition(StructureShortcuts):
    """Exact persistent–transient decomposition of a Markov reward process.

    ``Decomposition(chain, structure, anchors)`` reads nothing until a quantity is asked for;
    :func:`decompose` checks the chain and the anchors first.  Attributes (vectors are tuples
    indexed by state; ``N = sum_i d_i``):

    - ``structure``: classes, periods, cyclic classes, transient states;
      ``classes``, ``periods``, ``cyclic_classes``, ``transient`` are shortcuts.
    - ``anchors[i][k]``: the anchor ``a_{i,k}``.
    - ``basis[s][c]``: ``b_{i,k}(s)``, columns ordered by ``(class, phase)`` (``def:main_b``): an
      :class:`~exactpte.solves.absorption.ExactRows` (``absorption`` too), whose rows are tuples cancelled when
      first read (a gcd of the entry's size each: most of the cost of a large chain's basis), and whose
      ``parts(s)`` give row ``s`` exactly, as integer numerators over the block solves' shared denominators,
      without cancelling; ``basis_sparse[s]`` is row ``s`` as ``{column: value}``.
    - ``theta[c]``: ``θ*_{i,k} = g*(a_{i,k})`` (``def:theta_star``).
    - ``g_star``, ``v_star``: ``r = g* + (I - P) v*``, ``g* ∈ K(P)``, ``v* = 0`` at anchors.
    - ``stationary[i]``: stationary distribution of ``F_i`` (aligned with ``classes[i]``);
      ``absorption[s][i]``: probability of ending in ``F_i``; ``class_gain[i] = π_i · r``.
    - ``rho = P∞ r``, ``h`` (``r = ρ + (I - P) h``, ``P∞ h = 0``), ``psi`` with
      ``g* = ρ + (I - P) ψ`` (``thm:comparison_gain_bias``); ``psi_coords`` its
      coordinates in the basis ``b``.
    - ``P_inf``: the Cesàro limit, materialised on first access.

    Examples
    --------
    >>> import exactpte
    >>> m = exactpte.example("periodic")
    >>> Decomposition(m, m.structure, ((0, 1),)).g_star == exactpte.decompose(m).g_star
    True
    """

    chain: Chain
    structure: Structure
    anchors: Anchors
    _work: DecompositionWork | GivenValues = dataclass_field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.structure is not self.chain.structure and self.structure != self.chain.structure:
            raise UsageError("the structure is not the chain's (pass chain.structure)")
        anchors = self.structure.validate_anchors(self.anchors)
        object.__setattr__(self, "anchors", anchors)
        object.__setattr__(self, "_work", DecompositionWork(self.chain, self.structure, anchors))

    @classmethod
    def _given(cls, chain: Chain, structure: Structure, anchors: Anchors, values: GivenValues) -> "Decomposition":
        """A decomposition whose quantities are already known (no checks, nothing solved)."""
        dec = cls.__new__(cls)
        for name, value in (("chain", chain), ("structure", structure), ("anchors", anchors), ("_work", values)):
            object.__setattr__(dec, name, value)
        return dec

    basis = _Quantity[Sequence[tuple[Any, ...]]]("basis")
    basis_sparse = _Quantity[Sequence[dict[int, Any]]](
        "basis_sparse", "``basis_sparse[s] = {c: b_c(s)}``, nonzero entries only (a transient state holds only the "
                        "classes it reaches)")
    theta = _Quantity[Vector]("theta")
    g_star = _Quantity[Vector]("g_star")
    v_star = _Quantity[Vector]("v_star")
    stationary = _Quantity[Matrix]("stationary")
    absorption = _Quantity[Sequence[tuple[Any, ...]]]("absorption")
    class_gain = _Quantity[Vector]("class_gain")
    rho = _Quantity[Vector]("rho")
    psi_coords = _Quantity[Vector]("psi_coords")
    psi = _Quantity[Vector]("psi")
    h = _Quantity[Vector]("h")

    def computed(self) -> tuple[str, ...]:
        """The intermediate results computed so far (quantities are computed on first access).

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> _ = dec.rho
        >>> "basis_transient" in dec.computed()      # ρ alone needs no phase basis
        False
        """
        return self._work.computed()

    @property
    def field(self) -> Field[Any]:
        """The exact field of every number in the result (the chain's)."""
        return self.chain.field

    def b(self, i: int, k: int) -> Vector:
        """The basis vector ``b_{i,k}`` as a tuple over states (``def:main_b``).

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> tuple(dec.chain.matvec(dec.b(1, 1))) == dec.b(1, 0)   # lem:shift_b
        True
        """
        c = self.structure.column_of.get((i, k))
        if c is None:
            raise UsageError(f"no cyclic class C_{{{i},{k}}}: the chain's (class, phase) pairs are {list(self.structure.index_set)}")
        zero = self.field.zero
        return tuple(row.get(c, zero) for row in self.basis_sparse)

    # -- derived objects ------------------------------------------------------------
    @cached_property
    def P_inf(self) -> Matrix:
        """The Cesàro limit ``P∞(s, y) = α_i(s) π_i(y)`` as an n x n matrix (materialised once).

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> all(sum(row) == 1 for row in dec.P_inf), tuple(dec.chain.matvec([row[0] for row in dec.P_inf])) == tuple(row[0] for row in dec.P_inf)
        (True, True)
        """
        zero = self.field.zero
        n = self.n
        rows: list[Vector] = []
        for s in range(n):
            row = [zero] * n
            for i, members in enumerate(self.classes):
                a = self.absorption[s][i]
                if a != 0:
                    for y, p in zip(members, self.stationary[i]):
                        row[y] = a * p
            rows.append(tuple(row))
        return tuple(rows)

    def P_inf_apply(self, x: Sequence[Any]) -> Vector:
        """``P∞ x`` through the factored form (no n x n matrix)."""
        return tuple(cesaro_apply(self.classes, self.stationary, self.absorption, x, field=self.field))

    def project(self, v: Sequence[Any]) -> Vector:
        """The anchor-gauge projection ``(Π v)(s) = v(s) - sum v(a_{i,k}) b_{i,k}(s)`` (``eq:anchor_projection``).

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> dec.project(dec.h) == dec.v_star          # cor:projected_bias
        True
        """
        if isinstance(v, (str, bytes)) or not isinstance(v, Sequence) or len(v) != self.n:
            raise UsageError(f"project() takes a vector of length n = {self.n}, got {brief(v, 40, quoted=True)}")
        w = [self.field.convert(x, f"v[{s}]") for s, x in enumerate(v)]
        at = [w[s] for _, _, s in self.anchor_list]
        zero = self.field.zero
        return tuple(w[s] - sum((at[c] * bv for c, bv in self.basis_sparse[s].items()), zero) for s in range(self.n))

    @cached_property
    def hitting_times(self) -> Vector:
        """``E_s[τ_A]``, the expected hitting time of the anchor set (0 at anchors); see
        :func:`exactpte.solves.evaluation.hitting_times`.

        Examples
        --------
        >>> import exactpte
        >>> [str(t) for t in exactpte.decompose(exactpte.example("two-paths")).hitting_times[:4]]
        ['0', '3', '2', '1']
        """
        return evaluation.hitting_times(self.chain, [s for _, _, s in self.anchor_list])

    def returns(self, T: int) -> Vector:
        """``J_T = sum_{t<T} P^t r`` exactly (:func:`exactpte.solves.evaluation.returns`).

        Examples
        --------
        >>> import exactpte
        >>> exactpte.decompose(exactpte.example("two-paths")).returns(20)[1]
        17
        """
        return evaluation.returns(self.chain, T)

    def return_split(self, T: int) -> tuple[Vector, Vector]:
        """``(sum_{t<T} P^t g*, v* - P^T v*)``, whose sum is ``J_T`` (``lem:app_telescoping``);
        see :func:`exactpte.solves.evaluation.return_split`.

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> persistent, boundary = dec.return_split(7)
        >>> tuple(p + b for p, b in zip(persistent, boundary)) == dec.returns(7)
        True
        """
        return evaluation.return_split(self, T)

    # -- parametric decompositions -------------------------------------------------------------
    @property
    def is_parametric(self) -> bool:
        """Whether the numbers are rational functions of parameters."""
        return self.field.is_parametric

    def at(self, point: Mapping[str, Any]) -> "Decomposition":
        """The rational decomposition at a parameter point (``{"p": "1/3", ...}``): every quantity's
        closed form evaluated there (the structure is the generic one).

        Raises
        ------
        GenericRegionError
            At a point where a support entry vanishes or turns negative: there the structure
            changes and the closed form does not apply; decompose ``chain.at(point, check=False)``
            or use :func:`exactpte.stratify`.
        UsageError
            When the decomposition is not parametric.

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("two-state-pq"))
        >>> point = {"p": "1/3", "q": "1/2"}
        >>> dec.at(point).h == exactpte.decompose(dec.chain.at(point)).h
        True
        """
        if not isinstance(self.chain, ParametricChain):
            raise UsageError("at() applies to a decomposition of a ParametricChain")
        values = self.chain.require_generic_point(point)
        rational = self.chain.at(point)
        ev = self.field.evaluate

        def vec(v: Sequence[Any]) -> Vector:
            try:
                return tuple(ev(x, values) for x in v)
            except ZeroDivisionError:
                raise GenericRegionError(
                    "the point is a pole of the closed form (a denominator factor vanishes there: see "
                    "dec.denominator_conditions()); decompose chain.at(point) instead") from None

        given = {name: tuple(vec(row) for row in getattr(self, name)) if name in NESTED else vec(getattr(self, name))
                 for name in COMPUTED}
        return Decomposition._given(rational, self.structure, self.anchors, GivenValues(**given))

    def relabelled(self, order: Sequence[int], *, anchors: AnchorSpec = None) -> "Decomposition":
        """The decomposition of the same chain with state ``s`` renamed ``order[s]``, from this one by
        permutation and an exact change of gauge: nothing is solved again.

        Relabelling permutes ``P``, ``r`` and every per-state quantity; the class order, the phase 0 of
        each class and the canonical anchors follow the relabelled chain's own conventions (classes by
        smallest state, phase 0 holding it, anchors the smallest state of each cyclic class), or
        ``anchors`` (given in the new labels).  ``b``, ``ρ``, ``h``, ``π``, ``α`` and ``γ`` do not depend
        on the anchors; moving the anchors inside their cyclic classes changes the gauge
        (``lem:W_norm_equiv``): with ``w = Σ_c v*(a'_c) b_c ∈ K``, ``v*' = v* - w``,
        ``g*' = g* + (I - P) w``, ``θ'_c = g*'(a'_c)`` and ``ψ' = ψ + w - P∞ w`` (so ``h = v*' + ψ' - P∞ v*'``
        still holds, ``thm:comparison_gain_bias``).  The result equals ``decompose`` of the relabelled
        chain, quantity by quantity.

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> order = list(reversed(range(dec.n)))
        >>> moved = dec.relabelled(order)
        >>> moved.v_star == exactpte.decompose(moved.chain).v_star and moved.g_star == exactpte.decompose(moved.chain).g_star
        True
        """
        n = self.n
        if sorted(order) != list(range(n)) or len(order) != n:
            raise UsageError(f"relabelled() takes a permutation of 0..{n - 1}, got {list(order)!r:.60}")
        chain = _relabelled_chain(self.chain, order)
        S = chain.structure
        new_anchors = S.validate_anchors(anchors)
        values = _relabelled_values(self, chain, S, new_anchors, list(order))
        return Decomposition._given(chain, S, new_anchors, GivenValues(**values))

    def denominator_conditions(self) -> list[str]:
        """Parametric only: ``f != 0`` for every irreducible factor of a denominator of an output that
        can vanish in the generic region (:meth:`~exactpte.ParametricChain.conditions`)."""
        if not isinstance(self.chain, ParametricChain):
            return []
        return report.assumptions(self)[len(self.chain.assumptions()):]

    # -- output (exactpte.results.report) ------------------------------------------------------------------
    def to_dict(self, *, only: Only = None, include_P_inf: bool = True,
                include_hitting_times: bool = False, factored: bool = False) -> dict[str, Any]:
        """The JSON contract as a dict (:func:`exactpte.results.report.to_dict`; ``only="rho,h"`` computes just those;
        ``factored``: each distinct denominator named once, :mod:`exactpte.results.factored`)."""
        return report.to_dict(self, include_P_inf=include_P_inf, include_hitting_times=include_hitting_times, only=only,
                              factored=factored)

    def to_json(self, *, only: Only = None, include_P_inf: bool = True, include_hitting_times: bool = False,
                factored: bool = False, indent: int | None = None) -> str:
        """JSON text of the contract; canonical, so two runs compare with ``==`` (:func:`exactpte.results.report.to_json`)."""
        return report.to_json(self, include_P_inf=include_P_inf, include_hitting_times=include_hitting_times,
                              indent=indent, only=only, factored=factored)

    def table(self) -> str:
        """A per-state table (:func:`exactpte.results.report.table`)."""
        return report.table(self)

    def summary(self) -> str:
        """Structure and persistent coordinates in a few lines (:func:`exactpte.results.report.summary`)."""
        return report.summary(self)

    def entry_parts(self, key: str) -> dict[int, Any] | None:
        """The transient entries of ``key`` (``basis``, ``g_star``, ``psi``, ``v_star``) as sums of parts over the
        cyclotomic blocks' denominators, when the field splits periods and a class is periodic (else ``None``);
        what the factored output writes (:meth:`~exactpte.solves.work.DecompositionWork.entry_parts`)."""
        work = self._work
        return work.entry_parts(key) if isinstance(work, DecompositionWork) else None

    def to_latex(self, *, factored: bool = False) -> str:
        """A LaTeX ``tabular`` of the per-state table (:func:`exactpte.results.report.to_latex`); ``factored``:
        over named denominators, defined beneath (:func:`exactpte.results.factored.factored_latex`)."""
        if factored:
            from exactpte.results.factored import factored_latex

            return factored_latex(self)
        return report.to_latex(self)

    def to_csv(self, *, only: Only = None) -> str:
        """The per-state table as CSV (:func:`exactpte.results.report.to_csv`; ``only="rho,h"`` keeps just those columns)."""
        return report.to_csv(self, only=only)

    def to_dataframe(self) -> Any:
        """The per-state table as a pandas DataFrame (:func:`exactpte.results.report.to_dataframe`; needs pandas)."""
        return report.to_dataframe(self)

    def _repr_html_(self) -> str:
        return report.to_html(self)

    def _repr_latex_(self) -> str | None:
        return report.latex_array(self) if self.is_parametric else None

    def draw(self, ax: "Axes | None" = None, *, edge_labels: bool = False) -> "Axes":
        """Draw the support graph: classes as rings of cyclic classes, transient states apart, anchors
        marked (:func:`exactpte.plots.chains.draw`; needs matplotlib)."""
        from exactpte.plots.chains import draw

        return draw(self, ax=ax, edge_labels=edge_labels)

    # -- the deviation (fundamental) matrix -------------------------------------------------------
    def deviation_apply(self, x: Sequence[Any]) -> Vector:
        """``D x`` with the deviation matrix ``D = (I - P + P∞)^-1 - P∞``: the unique ``y`` with
        ``(I - P) y = x - P∞ x`` and ``P∞ y = 0``, the normalized bias of the reward ``x``
        (``thm:comparison_gain_bias``), by :func:`~exactpte.solves.classical.bias`'s sparse block solves
        with this decomposition's stationary distributions (no n x n matrix; anchors play no part).

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> dec.deviation_apply(dec.chain.r) == dec.h
        True
        """
        if isinstance(x, (str, bytes)) or not isinstance(x, Sequence) or len(x) != self.n:
            raise UsageError(f"deviation_apply() takes a vector of length n = {self.n}")
        return bias(self.chain.with_reward(x), stationary=self.stationary)

    @cached_property
    def deviation_matrix(self) -> Matrix:
        """The deviation (fundamental) matrix ``D = (I - P + P∞)^-1 - P∞``, n x n, materialised once by a
        dense solve (``D r = h``, ``P∞ D = D P∞ = 0``).

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("periodic"))
        >>> [[str(x) for x in row] for row in dec.deviation_matrix]
        [['1/4', '-1/4'], ['-1/4', '1/4']]
        """
        f, n = self.field, self.n
        Z = f.zeros(n, n)
        for s in range(n):
            Z[s, s] = Z[s, s] + f.one
            for j, q in self.chain.row(s):
                Z[s, j] = Z[s, j] - q
        Pinf = self.P_inf
        for s in range(n):
            for y in range(n):
                if Pinf[s][y] != 0:
                    Z[s, y] = Z[s, y] + Pinf[s][y]
        rhs = f.zeros(n, n)
        for s in range(n):
            for y in range(n):
                rhs[s, y] = (f.one if s == y else f.zero) - Pinf[s][y]
        return tuple(tuple(row) for row in f.to_lists(f.solve(Z, rhs)))

    def __str__(self) -> str:
        return self.summary() + "\n" + self.table()

    def __repr__(self) -> str:
        return f"<Decomposition n={self.n} classes={len(self.classes)} periods={list(self.periods)} N={self.N}>"



def _relabelled_chain(chain: Chain, order: Sequence[int]) -> Chain:
    """The chain with state ``s`` renamed ``order[s]`` (rows, rewards and labels permuted; same field)."""
    n = chain.n
    inverse = [0] * n
    for s, t in enumerate(order):
        inverse[t] = s
    rows = [sorted((order[j], q) for j, q in chain.row(inverse[t])) for t in range(n)]
    r = [chain.r[inverse[t]] for t in range(n)]
    labels = None if chain.labels is None else [chain.labels[inverse[t]] for t in range(n)]
    if isinstance(chain, ParametricChain):
        return ParametricChain.from_rows(rows, r, field=chain.field, labels=labels)
    return MarkovRewardProcess._from_exact_rows(rows, r, labels=labels)


def _relabelled_values(dec: "Decomposition", chain: Chain, S: Structure, anchors: Anchors, order: list[int]) -> dict[str, Any]:
    """Every computed quantity of ``dec`` in the relabelled chain's conventions (see :meth:`Decomposition.relabelled`)."""
    old, F, n = dec.structure, dec.field, dec.n
    inverse = [0] * n
    for s, t in enumerate(order):
        inverse[t] = s
    cls = [old.class_of[inverse[min(members)]] for members in S.classes]  # new class j is old class cls[j]
    col = [old.column_of[(cls[i], old.phase_of[inverse[S.cyclic_classes[i][k][0]]])] for i, k in S.index_set]
    # the gauge: new anchors (old labels) lie in the same cyclic classes as the old ones, where b_c = 1
    new_anchor = [inverse[a] for group in anchors for a in group]
    v, b = dec.v_star, dec.basis_sparse
    coeff = {c: v[a] for c, a in zip(col, new_anchor) if v[a] != 0}
    g, psi = list(dec.g_star), list(dec.psi)
    v_new = list(v)
    if coeff:  # w = sum_c coeff_c b_c is in K: P b_{i,k} = b_{i,k-1} (lem:shift_b), P∞ b_{i,k} = α_i / d_i
        index = old.index_set
        prev = {c: old.column_of[(i, (k - 1) % old.periods[i])] for c, (i, k) in enumerate(index)}
        by_class: dict[int, Any] = {}
        for c, x in coeff.items():
            i = index[c][0]
            by_class[i] = by_class.get(i, F.zero) + x / old.periods[i]
        for s in range(n):
            w = sum((x * b[s][c] for c, x in coeff.items() if c in b[s]), F.zero)
            moved = sum((x * b[s][prev[c]] for c, x in coeff.items() if prev[c] in b[s]), F.zero)  # (P w)(s)
            mean = sum((dec.absorption[s][i] * x for i, x in by_class.items()), F.zero)  # (P∞ w)(s)
            v_new[s] = v[s] - w
            if w != moved:
                g[s] = g[s] + w - moved
            if w != mean:
                psi[s] = psi[s] + w - mean

    def per_state(x: Sequence[Any]) -> tuple[Any, ...]:
        return tuple(x[inverse[t]] for t in range(n))

    position = {s: {y: k for k, y in enumerate(members)} for members in old.classes for s in members}
    stationary = tuple(tuple(dec.stationary[cls[j]][position[inverse[y]][inverse[y]]] for y in members)
                       for j, members in enumerate(S.classes))
    theta = tuple(g[a] for a in new_anchor)
    return {"basis": tuple(tuple(dec.basis[inverse[t]][c] for c in col) for t in range(n)),
            "basis_sparse": tuple({c_new: b[inverse[t]][c] for c_new, c in enumerate(col) if c in b[inverse[t]]} for t in range(n)),
            "theta": theta, "g_star": per_state(g), "v_star": per_state(v_new), "psi": per_state(psi),
            "psi_coords": tuple(psi[a] for a in new_anchor), "rho": per_state(dec.rho), "h": per_state(dec.h),
            "stationary": stationary, "class_gain": tuple(dec.class_gain[i] for i in cls),
            "absorption": tuple(tuple(dec.absorption[inverse[t]][i] for i in cls) for t in range(n))}

def decompose(chain: Chain, *, anchors: AnchorSpec = None) -> Decomposition:
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
    route), ``dec.h`` alone two (:func:`~exactpte.solves.classical.bias`'s route), and the phase
    basis is solved only when something needs it (``basis``, ``g_star``, ``v_star``, ``psi``).

    The other result kinds have their own entry points: :func:`exactpte.stratify` (a
    parametric chain on every stratum of its parameter space) and
    :func:`exactpte.decompose_certified` (certified float enclosures, for chains too large
    for exact arithmetic).

    Parameters
    ----------
    chain : Chain
        A :class:`~exactpte.MarkovRewardProcess` (answers over ``QQ``) or a
        :class:`~exactpte.ParametricChain` (answers as rational functions).
    anchors : optional
        ``None`` for the canonical anchors (smallest state of each cyclic class), per-class
        groups ``[[a_00, a_01], [a_10]]``, a flat list in ``(class, phase)`` order, or a
        mapping ``{(i, k): state}``.

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
    >>> from exactpte.model.examples import example
    >>> dec = decompose(example("two-paths"))
    >>> chain = dec.chain
    >>> Pv = chain.matvec(dec.v_star)
    >>> all(r == g + v - pv for r, g, v, pv in zip(chain.r, dec.g_star, dec.v_star, Pv))
    True
    """
    require_chain(chain)
    S = chain.structure
    return Decomposition(chain, S, S.validate_anchors(anchors))


if TYPE_CHECKING:  # pragma: no cover - mypy checks that the exact result has the shared interface
    def _conforms(dec: Decomposition) -> Result[Any]:  # elements of its field: fmpq or a rational function
        return dec
