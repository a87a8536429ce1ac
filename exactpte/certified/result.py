"""The result of a certified decomposition: interval enclosures of every quantity, the exact
structure, and the certificates the bounds rest on (computed by
:func:`exactpte.certified.decomposition.decompose_certified`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..chain import MarkovRewardProcess
from ..report import structure_dict
from ..result import StructureShortcuts
from ..structure import Structure
from .rounding import Interval
from .systems import Certificate

__all__ = ["CertifiedDecomposition"]


@dataclass
class CertifiedDecomposition(StructureShortcuts):
    """Enclosures of every quantity of the decomposition (``Interval`` vectors, state-indexed),
    the exact structure, and the certificates the bounds rest on."""

    chain: MarkovRewardProcess
    structure: Structure
    anchors: tuple
    tol: float
    basis_transient: Interval  # |T| x N
    theta: Interval
    g_star: Interval
    v_star: Interval
    rho: Interval
    h: Interval
    psi: Interval
    stationary: list[Interval]
    class_gain: Interval
    absorption_transient: Interval  # |T| x classes
    certificates: list[Certificate] = field(default_factory=list)
    seconds: float = 0.0

    def basis(self) -> Interval:
        """``b`` on every state (``n x N``; recurrent rows exact indicators)."""
        S = self.structure
        lo = np.zeros((S.n, S.N))
        hi = np.zeros((S.n, S.N))
        T = np.array(S.transient, dtype=np.int64)
        lo[T], hi[T] = self.basis_transient.lo, self.basis_transient.hi
        for (i, k), c in S.column_of.items():
            states = list(S.cyclic_classes[i][k])
            lo[states, c] = hi[states, c] = 1.0
        return Interval(lo, hi)

    def vectors(self) -> dict[str, Interval]:
        """The state- or coordinate-indexed quantities by name."""
        return {"theta": self.theta, "g_star": self.g_star, "v_star": self.v_star, "rho": self.rho, "h": self.h,
                "psi": self.psi, "class_gain": self.class_gain}

    def widths(self) -> dict[str, float]:
        """Largest relative width ``(hi - lo) / max(1, |value|)`` of each quantity."""
        out = {}
        items = dict(self.vectors())
        items["basis"] = self.basis_transient
        for i, pi in enumerate(self.stationary):
            items[f"stationary[{i}]"] = pi
        for name, iv in items.items():
            if iv.lo.size == 0:
                out[name] = 0.0
                continue
            scale = np.maximum(1.0, np.maximum(np.abs(iv.lo), np.abs(iv.hi)))
            with np.errstate(invalid="ignore"):
                w = iv.width / scale
            out[name] = float(np.nan_to_num(w, nan=np.inf).max())
        return out

    def within_tol(self) -> dict[str, bool]:
        """Whether each quantity met ``tol`` (a wider enclosure is reported as it is)."""
        return {k: w <= self.tol for k, w in self.widths().items()}

    def P_inf(self) -> Interval:
        """Enclosure of the Cesàro limit ``P∞(s, y) = α_i(s) π_i(y)`` (``n x n``; dense)."""
        S = self.structure
        n = S.n
        lo, hi = np.zeros((n, n)), np.zeros((n, n))
        T = np.array(S.transient, dtype=np.int64)
        for i, members in enumerate(S.classes):
            members = np.array(members)
            pi = self.stationary[i]
            lo[np.ix_(members, members)] = pi.lo[None, :]
            hi[np.ix_(members, members)] = pi.hi[None, :]
            if len(T):
                a = self.absorption_transient[:, i]
                prod = Interval(a.lo[:, None], a.hi[:, None]) * Interval(pi.lo[None, :], pi.hi[None, :])
                lo[np.ix_(T, members)], hi[np.ix_(T, members)] = prod.lo, prod.hi
        return Interval(lo, hi)

    def to_dict(self, *, include_P_inf: bool = False) -> dict:
        """The JSON contract's keys, every number as ``[lo, hi]``, plus ``widths``, ``tol`` and
        ``certificate`` (one entry per solved system)."""

        def pairs(iv: Interval) -> list:
            return np.stack([iv.lo, iv.hi], axis=-1).tolist()

        out: dict[str, Any] = {"format": "exactpte.certified/1", "arithmetic": "certified", **structure_dict(self),
                               "basis": pairs(self.basis())}
        for name, iv in self.vectors().items():
            out[name] = pairs(iv)
        out["stationary"] = [pairs(pi) for pi in self.stationary]
        if include_P_inf:
            out["P_inf"] = pairs(self.P_inf())
        out["tol"] = self.tol
        out["widths"] = self.widths()
        out["within_tol"] = self.within_tol()
        out["certificate"] = [c.to_dict() for c in self.certificates]
        return out

    def to_json(self, *, include_P_inf: bool = False, indent: int | None = None) -> str:
        """JSON text of :meth:`to_dict` (floats as JSON numbers; infinite bounds as ``±Infinity``)."""
        return json.dumps(self.to_dict(include_P_inf=include_P_inf), indent=indent)

    def contains(self, dec) -> dict[str, bool]:
        """Whether every value of an exact :class:`~exactpte.Decomposition` lies in its enclosure."""
        out = {name: bool(iv.contains(getattr(dec, name)).all()) for name, iv in self.vectors().items()}
        T = list(self.structure.transient)
        exact_b = [x for s in T for x in dec.basis[s]]
        out["basis"] = bool(Interval(self.basis_transient.lo.reshape(-1), self.basis_transient.hi.reshape(-1))
                            .contains(exact_b).all()) if T else True
        out["stationary"] = all(bool(pi.contains(ex).all()) for pi, ex in zip(self.stationary, dec.stationary))
        return out

    def __str__(self) -> str:
        S = self.structure
        w = self.widths()
        lines = [f"CertifiedDecomposition: n = {S.n}, {len(S.classes)} closed class(es), {len(S.transient)} transient, "
                 f"N = {S.N}; {len(self.certificates)} certified systems in {self.seconds:.2f} s",
                 "largest relative widths: " + ", ".join(f"{k} {v:.1e}" for k, v in w.items() if not k.startswith("stationary["))]
        bad = [k for k, ok in self.within_tol().items() if not ok]
        lines.append(f"tol {self.tol:g}: " + ("met by every quantity" if not bad else "NOT met by " + ", ".join(bad)))
        return "\n".join(lines)
