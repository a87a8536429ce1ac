"""The result of a certified decomposition: interval enclosures of every quantity, the exact
structure, and the certificates the bounds rest on (computed by
:func:`exactpte.certified.decomposition.decompose_certified`).

It shares the interface of the exact :class:`~exactpte.Decomposition`
(:class:`exactpte.results.decomposition.Result`): the same quantity names (``basis``, ``theta``, ``g_star``,
``v_star``, ``rho``, ``h``, ``psi``, ``psi_coords``, ``stationary``, ``absorption``,
``class_gain``, ``P_inf``), all properties, and the same ``to_dict`` / ``to_json`` options.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np

from exactpte.model.chain import MarkovRewardProcess
from exactpte.errors import UnknownNameError, UsageError
from exactpte.results.quantities import CORE, NESTED, QUANTITY_KEYS, Only
from exactpte.graph.structure import Structure
from exactpte.graph.view import Anchors, StructureShortcuts, anchor_list, structure_dict
from exactpte.certified.rounding import Interval
from exactpte.certified.systems import Certificate

__all__ = ["CertifiedDecomposition", "QUANTITIES", "FORMAT"]

QUANTITIES = CORE
"""The quantities a certified decomposition encloses (every key of the contract but ``P_inf``, which
is built from them, and the hitting times, which it does not compute)."""

FORMAT = "exactpte.certified/1"
"""The ``format`` key of the certified JSON output."""


def _only(only: Only) -> tuple[str, ...] | None:
    """``only`` as a tuple of enclosed quantities (``None``: all); a comma-separated string is accepted."""
    if only is None:
        return None
    items = [x.strip() for x in only.split(",")] if isinstance(only, str) else list(only)
    allowed = (*CORE, "P_inf")
    for x in items:
        if x not in allowed:
            extra = " (hitting times have no certified enclosure)" if x in QUANTITY_KEYS else ""
            raise UnknownNameError(f"unknown quantity {x!r} in only={extra}; choose from {', '.join(allowed)}")
    if not items:
        raise UnknownNameError(f"only= names no quantity; choose from {', '.join(allowed)}")
    return tuple(dict.fromkeys(items))


def _pairs(iv: Interval) -> list[Any]:
    """``[lo, hi]`` for every entry (nested like the interval's shape)."""
    nested: list[Any] = np.stack([iv.lo, iv.hi], axis=-1).tolist()
    return nested


@dataclass(frozen=True, eq=False)
class CertifiedDecomposition(StructureShortcuts):
    """Enclosures of every quantity of the decomposition (``Interval`` vectors, state-indexed),
    the exact structure, and the certificates the bounds rest on.

    ``basis_transient`` (``|T| x N``) and ``absorption_transient`` (``|T| x classes``) are what
    the algorithm solves; ``basis`` (``n x N``), ``absorption`` (``n x classes``), ``psi_coords``
    and ``P_inf`` (``n x n``, dense) are built from them on first access, once.

    Examples
    --------
    >>> import exactpte
    >>> cert = exactpte.decompose_certified(exactpte.example("branching"))
    >>> cert.absorption.lo.shape == (cert.n, len(cert.classes)), cert.basis.lo.shape == (cert.n, cert.N)
    (True, True)
    >>> bool((cert.P_inf.lo.sum(axis=1) <= 1).all() and (cert.P_inf.hi.sum(axis=1) >= 1).all())   # rows of P∞ sum to 1
    True
    """

    chain: MarkovRewardProcess
    structure: Structure
    anchors: Anchors
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

    @cached_property
    def basis(self) -> Interval:
        """``b`` on every state (``n x N``; recurrent rows exact indicators) (``def:main_b``)."""
        S = self.structure
        lo = np.zeros((S.n, S.N))
        hi = np.zeros((S.n, S.N))
        T = np.array(S.transient, dtype=np.int64)
        lo[T], hi[T] = self.basis_transient.lo, self.basis_transient.hi
        for (i, k), c in S.column_of.items():
            states = list(S.cyclic_classes[i][k])
            lo[states, c] = hi[states, c] = 1.0
        return Interval(lo, hi)

    @cached_property
    def absorption(self) -> Interval:
        """``absorption[s][i] = α_i(s)``, the probability of ending in ``F_i`` (``n x classes``; exact
        indicators on the closed classes)."""
        S = self.structure
        lo = np.zeros((S.n, len(S.classes)))
        hi = np.zeros((S.n, len(S.classes)))
        T = np.array(S.transient, dtype=np.int64)
        lo[T], hi[T] = self.absorption_transient.lo, self.absorption_transient.hi
        for i, members in enumerate(S.classes):
            lo[list(members), i] = hi[list(members), i] = 1.0
        return Interval(lo, hi)

    @cached_property
    def psi_coords(self) -> Interval:
        """Coordinates ``c_{i,k}`` of ``ψ = sum c b`` (``thm:comparison_gain_bias``): ``ψ`` at the
        anchors, since ``b_{i,k}(a_{j,l}) = [i = j, k = l]``."""
        states = np.array([s for _, _, s in anchor_list(self.anchors)], dtype=np.int64)
        return Interval(self.psi.lo[states], self.psi.hi[states])

    @cached_property
    def P_inf(self) -> Interval:
        """Enclosure of the Cesàro limit ``P∞(s, y) = α_i(s) π_i(y)`` (``n x n``; dense, built once)."""
        S = self.structure
        n = S.n
        lo, hi = np.zeros((n, n)), np.zeros((n, n))
        T = np.array(S.transient, dtype=np.int64)
        for i, members in enumerate(S.classes):
            cols = np.array(members)
            pi = self.stationary[i]
            lo[np.ix_(cols, cols)] = pi.lo[None, :]
            hi[np.ix_(cols, cols)] = pi.hi[None, :]
            if len(T):
                a = self.absorption_transient[:, i]
                prod = Interval(a.lo[:, None], a.hi[:, None]) * Interval(pi.lo[None, :], pi.hi[None, :])
                lo[np.ix_(T, cols)], hi[np.ix_(T, cols)] = prod.lo, prod.hi
        return Interval(lo, hi)

    def vectors(self) -> dict[str, Interval]:
        """The state-, coordinate- or class-indexed quantities by name."""
        return {name: getattr(self, name) for name in CORE if name not in NESTED}

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

    def to_dict(self, *, only: Only = None, include_P_inf: bool = True, include_hitting_times: bool = False,
                factored: bool = False) -> dict[str, Any]:
        """The JSON contract's keys, every number as ``[lo, hi]``, plus ``widths``, ``tol`` and
        ``certificate`` (one entry per solved system).  The options are the exact result's:
        ``only`` keeps the structure and just the quantities named (``"rho,h"``); the dense
        ``P_inf`` (n x n) is included by default, as in the exact contract (``include_P_inf=False``
        leaves it out: what ``exactpte decompose --certified --json`` does, for large chains);
        hitting times have no certified enclosure (``include_hitting_times=True`` is refused), and
        intervals have no denominators to name (``factored=True`` is refused)."""
        if include_hitting_times:
            raise UsageError("a certified decomposition has no hitting times (decompose exactly for them)")
        if factored:
            raise UsageError("a certified decomposition holds float intervals: there are no denominators to factor")
        selected = _only(only)
        keys = [k for k in (*CORE, "P_inf") if (k in selected if selected is not None else k != "P_inf" or include_P_inf)]
        out: dict[str, Any] = {"format": FORMAT, "arithmetic": "certified", **structure_dict(self)}
        for name in keys:
            value = getattr(self, name)
            out[name] = [_pairs(pi) for pi in value] if name == "stationary" else _pairs(value)
        out["tol"] = self.tol
        out["widths"] = self.widths()
        out["within_tol"] = self.within_tol()
        out["certificate"] = [c.to_dict() for c in self.certificates]
        return out

    def to_json(self, *, only: Only = None, include_P_inf: bool = True, include_hitting_times: bool = False,
                factored: bool = False, indent: int | None = None) -> str:
        """JSON text of :meth:`to_dict` (floats as JSON numbers; infinite bounds as ``±Infinity``)."""
        return json.dumps(self.to_dict(only=only, include_P_inf=include_P_inf, include_hitting_times=include_hitting_times,
                                       factored=factored), indent=indent)

    def contains(self, dec: Any) -> dict[str, bool]:
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


if TYPE_CHECKING:  # pragma: no cover - mypy checks that the certified result has the shared interface
    from exactpte.results.decomposition import Result

    def _conforms(cert: CertifiedDecomposition) -> Result[Interval]:
        return cert
