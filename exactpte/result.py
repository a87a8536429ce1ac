"""The immutable result of a decomposition, and its canonical outputs.

Fields carry the paper's symbols (``g_star``, ``v_star``, ``theta``, ``rho``,
``h``, ``psi``, ``P_inf``); all are exact.  ``P∞`` is kept factored
(``absorption`` x ``stationary``) and only materialised as an n x n matrix
when ``P_inf`` is read.  Hitting times are solved on first use, once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field as dc_field
from functools import cached_property
from typing import Any, Sequence

from .absorption import extend_to_transient
from .classical import cesaro_apply
from .model import MarkovRewardProcess
from .structure import Structure

__all__ = ["Decomposition", "FORMAT"]

FORMAT = "exactpte.decomposition/1"


@dataclass(frozen=True, eq=False)
class Decomposition:
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

    chain: MarkovRewardProcess
    structure: Structure
    anchors: tuple[tuple[int, ...], ...]
    basis: tuple[tuple[Any, ...], ...]
    theta: tuple
    g_star: tuple
    v_star: tuple
    stationary: tuple[tuple, ...]
    absorption: tuple[tuple, ...]
    class_gain: tuple
    rho: tuple
    psi_coords: tuple
    psi: tuple
    h: tuple
    field: Any = dc_field(repr=False)

    # -- structure shortcuts -------------------------------------------------------
    @property
    def n(self) -> int:
        return self.chain.n

    @property
    def classes(self):
        return self.structure.classes

    @property
    def periods(self):
        return self.structure.periods

    @property
    def cyclic_classes(self):
        return self.structure.cyclic_classes

    @property
    def transient(self):
        return self.structure.transient

    @property
    def N(self) -> int:
        return self.structure.N

    @property
    def anchor_list(self) -> list[tuple[int, int, int]]:
        """Anchors as ``(class, phase, state)`` in basis-column order."""
        return [(i, k, s) for i, group in enumerate(self.anchors) for k, s in enumerate(group)]

    def b(self, i: int, k: int) -> tuple:
        """The basis vector ``b_{i,k}`` as a tuple over states (``def:main_b``).

        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> tuple(dec.chain.matvec(dec.b(1, 1))) == dec.b(1, 0)   # lem:shift_b
        True
        """
        c = self.structure.column_of[(i, k)]
        return tuple(row[c] for row in self.basis)

    # -- derived objects ------------------------------------------------------------
    @cached_property
    def P_inf(self) -> tuple[tuple, ...]:
        """The Cesàro limit ``P∞(s, y) = α_i(s) π_i(y)`` as an n x n matrix (materialised once).

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
        return tuple(cesaro_apply(self.classes, self.stationary, self.absorption, x, self.field))

    def project(self, v: Sequence) -> tuple:
        """The anchor-gauge projection ``(Π v)(s) = v(s) - sum v(a_{i,k}) b_{i,k}(s)`` (``eq:anchor_projection``).

        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> dec.project(dec.h) == dec.v_star          # cor:projected_bias
        True
        """
        at = [v[s] for _, _, s in self.anchor_list]
        zero = self.field.zero
        return tuple(v[s] - sum((a * bv for a, bv in zip(at, self.basis[s]) if bv != 0), zero) for s in range(self.n))

    @cached_property
    def hitting_times(self) -> tuple:
        """``E_s[τ_A]``, the expected hitting time of the anchor set (0 at anchors).

        >>> import exactpte
        >>> [str(t) for t in exactpte.decompose(exactpte.example("two-paths")).hitting_times[:4]]
        ['0', '3', '2', '1']
        """
        f = self.field
        S, chain = self.structure, self.chain
        t = [f.zero] * self.n
        anchor_set = {s for _, _, s in self.anchor_list}
        for members in self.classes:
            rest = [s for s in members if s not in anchor_set]
            if not rest:
                continue
            pos = {s: a for a, s in enumerate(rest)}
            M = f.identity(len(rest))
            for a, s in enumerate(rest):
                for y, q in chain.rows_of(s):
                    if y in pos:
                        M[a, pos[y]] -= q
            ones = f.zeros(len(rest), 1)
            for a in range(len(rest)):
                ones[a, 0] = f.one
            for s, row in zip(rest, f.rows(f.solve(M, ones))):
                t[s] = row[0]
        return tuple(extend_to_transient(chain, S, t, lambda s: f.one, f))

    def returns(self, T: int) -> tuple:
        """``J_T = sum_{t<T} P^t r`` exactly (``T`` sparse products).

        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("two-paths"))
        >>> dec.returns(20)[1]        # from distance 3: 3 zero-reward steps, then reward 1
        17
        """
        T = _horizon(T)
        x = list(self.chain.r)
        J = [self.field.zero] * self.n
        for _ in range(T):
            J = [a + b for a, b in zip(J, x)]
            x = self.chain.matvec(x)
        return tuple(J)

    def return_split(self, T: int) -> tuple[tuple, tuple]:
        """``(sum_{t<T} P^t g*, v* - P^T v*)``, whose sum is ``J_T`` (``lem:app_telescoping``).

        The persistent orbit uses ``P b_{i,k} = b_{i,k-1}`` (``lem:shift_b``):
        ``sum_{t<T} P^t g* = sum_{i,k} b_{i,k} sum_{t<T} θ_{i,k+t}``.

        >>> import exactpte
        >>> dec = exactpte.decompose(exactpte.example("branching"))
        >>> persistent, boundary = dec.return_split(7)
        >>> tuple(p + b for p, b in zip(persistent, boundary)) == dec.returns(7)
        True
        """
        T = _horizon(T)
        zero = self.field.zero
        coeffs = []
        col = 0
        for d in self.periods:
            th = self.theta[col : col + d]
            full, rem = divmod(T, d)
            total = sum(th, zero)
            for k in range(d):
                coeffs.append(full * total + sum((th[(k + t) % d] for t in range(rem)), zero))
            col += d
        persistent = tuple(sum((c * bv for c, bv in zip(coeffs, row) if bv != 0), zero) for row in self.basis)
        x = list(self.v_star)
        for _ in range(T):
            x = self.chain.matvec(x)
        boundary = tuple(v - px for v, px in zip(self.v_star, x))
        return persistent, boundary

    # -- parametric decompositions -------------------------------------------------------------
    @property
    def is_parametric(self) -> bool:
        return hasattr(self.chain, "check_point")

    def subs(self, point) -> "Decomposition":
        """The rational decomposition at a parameter point (``{"p": "1/3", ...}``).

        Refuses (``GenericRegionError``) a point where a support entry vanishes or turns
        negative: there the structure changes and the closed form does not apply; decompose
        ``chain.at(point, check=False)`` instead.
        """
        if not self.is_parametric:
            raise TypeError("subs() applies to a decomposition of a ParametricChain")
        values = self.chain.check_point(point)
        vec = lambda v: tuple(x.evaluate(values) for x in v)
        rational = self.chain.at(point)
        from .backend import QQ

        return Decomposition(
            chain=rational, structure=self.structure, anchors=self.anchors,
            basis=tuple(vec(row) for row in self.basis), theta=vec(self.theta), g_star=vec(self.g_star),
            v_star=vec(self.v_star), stationary=tuple(vec(pi) for pi in self.stationary),
            absorption=tuple(vec(row) for row in self.absorption), class_gain=vec(self.class_gain),
            rho=vec(self.rho), psi_coords=vec(self.psi_coords), psi=vec(self.psi), h=vec(self.h), field=QQ,
        )

    def denominator_conditions(self) -> list[str]:
        """Parametric only: ``f != 0`` for every irreducible factor of a denominator of an output."""
        if not self.is_parametric:
            return []
        seen: dict[str, None] = {}
        values = [*self.theta, *self.g_star, *self.v_star, *self.rho, *self.h, *self.psi, *self.class_gain]
        values += [x for row in self.basis for x in row] + [x for pi in self.stationary for x in pi]
        F = self.field
        for x in values:
            if x.den.is_constant():
                continue
            _, factors = x.den.factor()
            for g, _e in factors:
                seen.setdefault(f"{F._poly_to_sympy(g)} != 0", None)
        return list(seen)

    # -- output -----------------------------------------------------------------------
    def to_dict(self, *, include_P_inf: bool = True, include_hitting_times: bool = False) -> dict:
        """The JSON contract as a dict (numbers as reduced ``"p/q"`` strings, states 0-based)."""
        s = _strs
        out = {
            "format": FORMAT,
            "n": self.n,
            "labels": list(self.chain.labels) if self.chain.labels is not None else None,
            "classes": [list(c) for c in self.classes],
            "transient": list(self.transient),
            "periods": list(self.periods),
            "cyclic_classes": [[list(ck) for ck in cyc] for cyc in self.cyclic_classes],
            "anchors": [list(a) for a in self.anchor_list],
            "basis": [s(row) for row in self.basis],
            "theta": s(self.theta),
            "g_star": s(self.g_star),
            "v_star": s(self.v_star),
            "rho": s(self.rho),
            "h": s(self.h),
            "psi": s(self.psi),
            "stationary": [s(pi) for pi in self.stationary],
            "class_gain": s(self.class_gain),
        }
        if self.is_parametric:
            out["params"] = list(self.chain.params)
            out["assumptions"] = self.chain.assumptions() + self.denominator_conditions()
        if include_P_inf:
            out["P_inf"] = [s(row) for row in self.P_inf]
        if include_hitting_times:
            out["hitting_times"] = s(self.hitting_times)
        return out

    def to_json(self, *, include_P_inf: bool = True, include_hitting_times: bool = False, indent: int | None = None) -> str:
        """JSON text of :meth:`to_dict`; canonical, so two runs compare with ``==``."""
        return json.dumps(self.to_dict(include_P_inf=include_P_inf, include_hitting_times=include_hitting_times), indent=indent)

    def table(self) -> str:
        """A per-state table: state, class/phase or transient, r, g*, v*, ρ, h, ψ."""
        S = self.structure
        head = ["state", "where", "r", "g*", "v*", "rho", "h", "psi"]
        rows = []
        anchors = {a for _, _, a in self.anchor_list}
        for s in range(self.n):
            where = "T" if S.class_of[s] < 0 else f"F{S.class_of[s]}/C{S.phase_of[s]}"
            if s in anchors:
                where += " (anchor)"
            rows.append([self.chain.label(s), where] + [str(x) for x in (self.chain.r[s], self.g_star[s], self.v_star[s], self.rho[s], self.h[s], self.psi[s])])
        widths = [max(len(h), *(len(r[j]) for r in rows)) for j, h in enumerate(head)]
        line = lambda cells: "  ".join(c.rjust(w) for c, w in zip(cells, widths)).rstrip()
        return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in rows])

    def summary(self) -> str:
        """Structure and persistent coordinates in a few lines."""
        S = self.structure
        lines = [f"n = {self.n}, {len(S.classes)} closed class(es), {len(S.transient)} transient state(s), N = {S.N}"]
        if self.is_parametric:
            conditions = self.chain.assumptions() + self.denominator_conditions()
            lines.append(f"parameters {', '.join(self.chain.params)}; valid where " + (", ".join(conditions) or "every parameter value"))
        col = 0
        for i, (members, d) in enumerate(zip(S.classes, S.periods)):
            th = ", ".join(str(t) for t in self.theta[col : col + d])
            lines.append(
                f"  F{i}: {len(members)} state(s), period {d}, anchors {list(self.anchors[i])}, "
                f"theta = ({th}), gain = {self.class_gain[i]}"
            )
            col += d
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary() + "\n" + self.table()

    def __repr__(self) -> str:
        return f"<Decomposition n={self.n} classes={len(self.classes)} periods={list(self.periods)} N={self.N}>"

    def to_latex(self) -> str:
        """A LaTeX ``tabular`` of the per-state table (fractions as ``\\tfrac``)."""
        S = self.structure
        out = [
            "\\begin{tabular}{llrrrrrr}",
            "\\toprule",
            "$s$ & class/phase & $r$ & $g^\\star_\\Pi$ & $v^\\star_\\Pi$ & $\\rho$ & $h$ & $\\psi_\\Pi$ \\\\",
            "\\midrule",
        ]
        for s in range(self.n):
            where = "$\\mathsf T$" if S.class_of[s] < 0 else f"$C_{{{S.class_of[s]},{S.phase_of[s]}}}$"
            vals = " & ".join(latex_number(x) for x in (self.chain.r[s], self.g_star[s], self.v_star[s], self.rho[s], self.h[s], self.psi[s]))
            label = self.chain.label(s).replace("_", "\\_")
            out.append(f"{label} & {where} & {vals} \\\\")
        out += ["\\bottomrule", "\\end{tabular}"]
        return "\n".join(out)


def latex_number(x) -> str:
    """``3/4`` -> ``$\\tfrac{3}{4}$``, ``-2`` -> ``$-2$``; parametric entries through sympy's LaTeX."""
    if hasattr(x, "F"):
        return f"${x.F.latex(x)}$"
    text = str(x)
    if "/" in text:
        p, q = text.split("/")
        sign = "-" if p.startswith("-") else ""
        return f"${sign}\\tfrac{{{p.lstrip('-')}}}{{{q}}}$"
    return f"${text}$"


def _strs(v) -> list[str]:
    return [str(x) for x in v]


def _horizon(T: Any) -> int:
    if isinstance(T, bool) or not isinstance(T, int) or T < 0:
        raise ValueError(f"horizon T must be an int >= 0, got {T!r}")
    return T
