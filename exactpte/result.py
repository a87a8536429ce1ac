"""The immutable result of a decomposition.

Fields carry the paper's symbols (``g_star``, ``v_star``, ``theta``, ``rho``,
``h``, ``psi``, ``P_inf``); all are exact, over the chain's field.  ``P∞`` is kept
factored (``absorption`` x ``stationary``) and only materialised as an n x n matrix
when ``P_inf`` is read; hitting times are solved on first use, once.  Outputs
(JSON, table, LaTeX) live in :mod:`exactpte.report`, returns and hitting times in
:mod:`exactpte.evaluation`; the methods here delegate to them.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cached_property
from typing import Any, Sequence

from . import evaluation, report
from .chain import Chain
from .classical import cesaro_apply
from .errors import GenericRegionError, UsageError
from .fields import Field
from .report import FORMAT
from .structure import Structure

__all__ = ["Decomposition", "StructureShortcuts", "FORMAT", "QUANTITIES"]

QUANTITIES = ("basis", "theta", "g_star", "v_star", "stationary", "absorption", "class_gain", "rho", "psi_coords",
              "psi", "h")
"""The exact quantities of a decomposition, each computed on first access."""


def _quantity(name: str, doc: str) -> cached_property:
    """A result field read (once) from the decomposition's shared intermediate results."""

    def get(self: "Decomposition") -> Any:
        return getattr(self._work, name)

    get.__name__ = name
    get.__doc__ = doc
    prop = cached_property(get)
    prop.__set_name__(None, name)  # type: ignore[arg-type]
    return prop


class GivenValues:
    """Intermediate results that are simply given (a decomposition evaluated at a point)."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)
        if "basis_sparse" not in values:
            self.basis_sparse = tuple({c: x for c, x in enumerate(row) if x != 0} for row in values["basis"])

    def computed(self) -> tuple[str, ...]:
        """Everything is given."""
        return tuple(vars(self))



class StructureShortcuts:
    """The structure of a result read through ``structure``, ``chain`` and ``anchors`` (shared by the
    exact :class:`Decomposition` and :class:`~exactpte.certified.CertifiedDecomposition`)."""

    @property
    def n(self) -> int:
        """Number of states."""
        return self.chain.n

    @property
    def classes(self):
        """Closed classes ``F_i`` (sorted states; ordered by smallest state)."""
        return self.structure.classes

    @property
    def periods(self):
        """Period ``d_i`` of every closed class."""
        return self.structure.periods

    @property
    def cyclic_classes(self):
        """``cyclic_classes[i][k]``: the states of ``C_{i,k}``."""
        return self.structure.cyclic_classes

    @property
    def transient(self):
        """The transient states."""
        return self.structure.transient

    @property
    def N(self) -> int:
        """``N = sum_i d_i = dim K(P)``."""
        return self.structure.N

    @property
    def anchor_list(self) -> list[tuple[int, int, int]]:
        """Anchors as ``(class, phase, state)`` in basis-column order."""
        return [(i, k, s) for i, group in enumerate(self.anchors) for k, s in enumerate(group)]


@dataclass(frozen=True, eq=False)
class Decomposition(StructureShortcuts):
    """Exact persistent–transient decomposition of a Markov reward process.

    Attributes (vectors are tuples indexed by state; ``N = sum_i d_i``):

    - ``structure``: classes, periods, cyclic classes, transient states;
      ``classes``, ``periods``, ``cyclic_classes``, ``transient`` are shortcuts.
    - ``anchors[i][k]``: the anchor ``a_{i,k}``.
    - ``basis[s][c]``: ``b_{i,k}(s)``, columns ordered by ``(class, phase)`` (``def:main_b``).
    - ``theta[c]``: ``θ*_{i,k} = g*(a_{i,k})`` (``def:theta_star``).
    - ``g_star``, ``v_star``: ``r = g* + (I - P) v*``, ``g* ∈ K(P)``, ``v* = 0`` at anchors.
    - ``stationary[i]``: stationary distribution of ``F_i`` (aligned with ``classes[i]``);
      ``absorption[s][i]``: probability of ending in ``F_i``; ``class_gain[i] = π_i · r``.
    - ``rho = P∞ r``, ``h`` (``r = ρ + (I - P) h``, ``P∞ h = 0``), ``psi`` with
      ``g* = ρ + (I - P) ψ`` (``thm:comparison_gain_bias``); ``psi_coords`` its
      coordinates in the basis ``b``.
    - ``P_inf``: the Cesàro limit, materialised on first access.
    """

    chain: Chain
    structure: Structure
    anchors: tuple[tuple[int, ...], ...]
    _work: Any = dataclass_field(repr=False)

    basis = _quantity("basis", "``basis[s][c] = b_{i,k}(s)``, columns in ``(class, phase)`` order (``def:main_b``).")
    basis_sparse = _quantity("basis_sparse", "``basis_sparse[s] = {c: b_c(s)}``, nonzero entries only (a transient "
                                             "state holds only the classes it reaches).")
    theta = _quantity("theta", "``θ*_{i,k} = g*(a_{i,k})`` in basis-column order (``def:theta_star``).")
    g_star = _quantity("g_star", "``g* ∈ K(P)`` with ``r = g* + (I - P) v*`` (``thm:wellposed``).")
    v_star = _quantity("v_star", "``v*``, zero at the anchors, with ``r = g* + (I - P) v*`` (``thm:wellposed``).")
    stationary = _quantity("stationary", "``stationary[i]``: the stationary distribution of ``F_i``, aligned with "
                                         "``classes[i]``.")
    absorption = _quantity("absorption", "``absorption[s][i] = α_i(s)``, the probability of ending in ``F_i``.")
    class_gain = _quantity("class_gain", "``class_gain[i] = π_i · r``.")
    rho = _quantity("rho", "The classical gain ``ρ = P∞ r``.")
    psi_coords = _quantity("psi_coords", "Coordinates of ``ψ`` in the basis ``b`` (``thm:comparison_gain_bias``).")
    psi = _quantity("psi", "``ψ ∈ K ∩ ker P∞`` with ``g* = ρ + (I - P) ψ`` (``thm:comparison_gain_bias``).")
    h = _quantity("h", "The normalized bias: ``r = ρ + (I - P) h``, ``P∞ h = 0``.")

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

    # -- structure shortcuts -------------------------------------------------------
    @property
    def field(self) -> Field:
        """The exact field of every number in the result (the chain's)."""
        return self.chain.field

    def b(self, i: int, k: int) -> tuple:
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
            raise UsageError(f"no cyclic class C_{i},{k}: the chain's (class, phase) pairs are {list(self.structure.index_set)}")
        zero = self.field.zero
        return tuple(row.get(c, zero) for row in self.basis_sparse)

    # -- derived objects ------------------------------------------------------------
    @cached_property
    def P_inf(self) -> tuple[tuple, ...]:
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
        rows = []
        for s in range(n):
            row = [zero] * n
            for i, members in enumerate(self.classes):
                a = self.absorption[s][i]
                if a != 0:
                    for y, p in zip(members, self.stationary[i]):
                        row[y] = a * p
            rows.append(tuple(row))
        return tuple(rows)

    def P_inf_apply(self, x: Sequence) -> tuple:
        """``P∞ x`` through the factored form (no n x n matrix)."""
        return tuple(cesaro_apply(self.classes, self.stationary, self.absorption, x, field=self.field))

    def project(self, v: Sequence) -> tuple:
        """The anchor-gauge projection ``(Π v)(s) = v(s) - sum v(a_{i,k}) b_{i,k}(s)`` (``eq:anchor_projection``).

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> dec.project(dec.h) == dec.v_star          # cor:projected_bias
        True
        """
        if isinstance(v, (str, bytes)) or not isinstance(v, Sequence) or len(v) != self.n:
            raise UsageError(f"project() takes a vector of length n = {self.n}, got {v!r:.40}")
        v = [self.field.convert(x, f"v[{s}]") for s, x in enumerate(v)]
        at = [v[s] for _, _, s in self.anchor_list]
        zero = self.field.zero
        return tuple(v[s] - sum((at[c] * bv for c, bv in self.basis_sparse[s].items()), zero) for s in range(self.n))

    @cached_property
    def hitting_times(self) -> tuple:
        """``E_s[τ_A]``, the expected hitting time of the anchor set (0 at anchors); see
        :func:`exactpte.evaluation.hitting_times`.

        Examples
        --------
        >>> import exactpte
        >>> [str(t) for t in exactpte.decompose(exactpte.example("two-paths")).hitting_times[:4]]
        ['0', '3', '2', '1']
        """
        return evaluation.hitting_times(self.chain, [s for _, _, s in self.anchor_list])

    def returns(self, T: int) -> tuple:
        """``J_T = sum_{t<T} P^t r`` exactly (:func:`exactpte.evaluation.returns`).

        Examples
        --------
        >>> import exactpte
        >>> exactpte.decompose(exactpte.example("two-paths")).returns(20)[1]
        17
        """
        return evaluation.returns(self.chain, T)

    def return_split(self, T: int) -> tuple[tuple, tuple]:
        """``(sum_{t<T} P^t g*, v* - P^T v*)``, whose sum is ``J_T`` (``lem:app_telescoping``);
        see :func:`exactpte.evaluation.return_split`.

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

    def subs(self, point) -> "Decomposition":
        """The rational decomposition at a parameter point (``{"p": "1/3", ...}``).

        Raises
        ------
        GenericRegionError
            At a point where a support entry vanishes or turns negative: there the structure
            changes and the closed form does not apply; decompose ``chain.at(point, check=False)``.
        UsageError
            When the decomposition is not parametric.
        """
        if not self.is_parametric:
            raise UsageError("subs() applies to a decomposition of a ParametricChain")
        values = self.chain.check_point(point)
        rational = self.chain.at(point)
        ev = self.field.evaluate

        def vec(v):
            try:
                return tuple(ev(x, values) for x in v)
            except ZeroDivisionError:
                raise GenericRegionError(
                    "the point is a pole of the closed form (a denominator factor vanishes there: see "
                    "dec.denominator_conditions()); decompose chain.at(point) instead") from None

        values = GivenValues(
            basis=tuple(vec(row) for row in self.basis), theta=vec(self.theta), g_star=vec(self.g_star),
            v_star=vec(self.v_star), stationary=tuple(vec(pi) for pi in self.stationary),
            absorption=tuple(vec(row) for row in self.absorption), class_gain=vec(self.class_gain),
            rho=vec(self.rho), psi_coords=vec(self.psi_coords), psi=vec(self.psi), h=vec(self.h),
        )
        return Decomposition(chain=rational, structure=self.structure, anchors=self.anchors, _work=values)

    def denominator_conditions(self) -> list[str]:
        """Parametric only: ``f != 0`` for every irreducible factor of a denominator of an output."""
        return report.assumptions(self)[len(self.chain.assumptions()):] if self.is_parametric else []

    # -- output (exactpte.report) ------------------------------------------------------------------
    def to_dict(self, *, include_P_inf: bool = True, include_hitting_times: bool = False, only: Any = None) -> dict:
        """The JSON contract as a dict (:func:`exactpte.report.to_dict`; ``only="rho,h"`` computes just those)."""
        return report.to_dict(self, include_P_inf=include_P_inf, include_hitting_times=include_hitting_times, only=only)

    def to_json(self, *, include_P_inf: bool = True, include_hitting_times: bool = False, indent: int | None = None,
                only: Any = None) -> str:
        """JSON text of the contract; canonical, so two runs compare with ``==`` (:func:`exactpte.report.to_json`)."""
        return report.to_json(self, include_P_inf=include_P_inf, include_hitting_times=include_hitting_times,
                              indent=indent, only=only)

    def table(self) -> str:
        """A per-state table (:func:`exactpte.report.table`)."""
        return report.table(self)

    def summary(self) -> str:
        """Structure and persistent coordinates in a few lines (:func:`exactpte.report.summary`)."""
        return report.summary(self)

    def to_latex(self) -> str:
        """A LaTeX ``tabular`` of the per-state table (:func:`exactpte.report.to_latex`)."""
        return report.to_latex(self)

    def to_csv(self, only: Any = None) -> str:
        """The per-state table as CSV (:func:`exactpte.report.to_csv`; ``only="rho,h"`` keeps just those columns)."""
        return report.to_csv(self, only)

    def to_dataframe(self):
        """The per-state table as a pandas DataFrame (:func:`exactpte.report.to_dataframe`; needs pandas)."""
        return report.to_dataframe(self)

    def _repr_html_(self) -> str:
        return report.to_html(self)

    def _repr_latex_(self) -> str | None:
        return report.latex_array(self) if self.is_parametric else None

    def draw(self, ax=None, *, edge_labels: bool = False):
        """Draw the support graph: classes as rings of cyclic classes, transient states apart, anchors
        marked (:func:`exactpte.plotting.draw`; needs matplotlib)."""
        from .plotting import draw

        return draw(self, ax=ax, edge_labels=edge_labels)

    # -- the deviation (fundamental) matrix -------------------------------------------------------
    def deviation_apply(self, x: Sequence) -> tuple:
        """``D x`` with the deviation matrix ``D = (I - P + P∞)^-1 - P∞``: the unique ``y`` with
        ``(I - P) y = x - P∞ x`` and ``P∞ y = 0`` (the normalized bias of the reward ``x``), by the
        decomposition's sparse block solves (no n x n matrix).

        Examples
        --------
        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> dec.deviation_apply(dec.chain.r) == dec.h
        True
        """
        if isinstance(x, (str, bytes)) or not isinstance(x, Sequence) or len(x) != self.n:
            raise UsageError(f"deviation_apply() takes a vector of length n = {self.n}")
        from .decomposition import decompose

        return decompose(self.chain.with_reward(x), anchors=self.anchors).h

    @cached_property
    def deviation_matrix(self) -> tuple[tuple, ...]:
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
