"""Rational points on a stratum without a rational elimination (``p**2 + q**2 = 4``), where it is checked chain by chain.

A pointwise stratum of :func:`exactpte.stratify` has an equation of degree at least two in every parameter: no
closed form holds on it, so its chains are checked one at a time, at rational points of it.  :func:`stratum_points`
looks for them on lines of a grid: every parameter but one fixed at a small rational of the region's box, the last
one's rational roots found by factoring the equations' gcd over ``QQ`` (its linear factors), each point kept when
every equation vanishes, every inequation does not, the chain there is a chain (entries ``>= 0``) and
:meth:`exactpte.StratifiedDecomposition.locate` puts it on this stratum.  With one parameter the real roots are
counted too (Sturm sequences), so the answer says whether the points found are *all* the stratum's chains.

Examples
--------
>>> import exactpte
>>> m = exactpte.ParametricChain([["(p**2+q**2)/4", "1-(p**2+q**2)/4", 0], ["p/2", 0, "1-p/2"], ["q/2", "1-q/2", 0]],
...                              [1, 0, 0], params=["p", "q"])
>>> strat = exactpte.stratify(m)
>>> index = next(k for k, s in enumerate(strat.strata) if s.pointwise)
>>> found = stratum_points(m, strat, index, 3)
>>> [sorted(str(x) for x in point.values()) for point in found.points], found.complete
([['6/5', '8/5'], ['6/5', '8/5'], ['10/13', '24/13']], False)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import flint

from exactpte.errors import ExactpteError
from exactpte.fields.signs import real_root_count

from proofs_check.symbolic.region import Region

if TYPE_CHECKING:
    from exactpte import ParametricChain, StratifiedDecomposition

__all__ = ["StratumPoints", "stratum_points"]

DENOMINATORS = 13
"""The grid's rationals ``j/q`` have ``q`` up to this (small heights: the circle ``p**2 + q**2 = 4`` meets ``q = 8/5``)."""

LINES = 600
"""At most this many grid lines are tried per free parameter."""


@dataclass
class StratumPoints:
    """Rational points of a stratum (parameter -> value), and whether they are all its points (``complete``: one
    parameter, every real root of the equations in the region rational and found); ``real_points``: with one
    parameter, how many real points the stratum has (``0``: it holds no chain)."""

    points: list[dict[str, flint.fmpq]] = field(default_factory=list)
    complete: bool = False
    real_points: int | None = None


def _grid(lo: flint.fmpq, hi: flint.fmpq) -> list[flint.fmpq]:
    """Rationals strictly between ``lo`` and ``hi`` with small denominators, the smallest heights first."""
    out: list[flint.fmpq] = []
    for q in range(1, DENOMINATORS + 1):
        for j in range(int((lo * q).floor()), int((hi * q).ceil()) + 1):
            x = flint.fmpq(j, q)
            if lo < x < hi and x not in out:
                out.append(x)
    return out


def _rational_roots(poly: Any) -> list[flint.fmpq]:
    """The rational roots of a univariate ``fmpq_poly`` (its linear factors)."""
    if poly.degree() < 1:
        return []
    return [-f[0] / f[1] for f, _m in poly.factor()[1] if f.degree() == 1]


def stratum_points(chain: ParametricChain, strat: StratifiedDecomposition, index: int, count: int) -> StratumPoints:
    """Up to ``count`` rational points of stratum ``index`` of ``strat`` (``chain``'s strata), see the module docstring."""
    stratum = strat.strata[index]
    F = chain.field
    params = list(F.params)
    qctx = F.qctx
    equations = [qctx.from_dict({e: int(c) for e, c in cond.poly.to_dict().items()}) for cond in stratum.equations]
    entries = [e for _i, _j, e in chain.edges() if not e.is_constant()]
    box = Region(F, entries).boxes
    out = StratumPoints()
    used = {k for cond in stratum.equations for k, d in enumerate(cond.poly.degrees()) if d}
    if len(used) == 1:  # the equations fix one parameter: its real roots decide whether the stratum holds a chain
        out.real_points = _real_points(chain, strat, index, used.pop())
        if out.real_points and len(params) > 1:
            out.real_points = None  # the other parameters range freely: not a finite set of chains
    for free in range(len(params)):
        others = [k for k in range(len(params)) if k != free]
        grids = [_grid(*(_bounds(box, k))) for k in others]
        for values in itertools.islice(itertools.product(*grids), LINES):
            fixed: dict[str | int, Any] = {params[k]: v for k, v in zip(others, values)}
            line = [eq.subs(fixed) if fixed else eq for eq in equations]
            g = _gcd([_univariate(u, free) for u in line])
            for root in ([] if g is None else _rational_roots(g)):
                point = {**{str(k): v for k, v in fixed.items()}, params[free]: root}
                if point not in out.points and _on_stratum(chain, strat, index, point):
                    out.points.append(point)
                    if len(out.points) >= count:
                        return _finish(out)
    return _finish(out)


def _finish(out: StratumPoints) -> StratumPoints:
    out.complete = out.real_points is not None and out.real_points == len(out.points)
    return out


def _bounds(box: dict[int, tuple[flint.fmpq | None, flint.fmpq | None]], k: int) -> tuple[flint.fmpq, flint.fmpq]:
    lo, hi = box.get(k, (None, None))
    return (lo if lo is not None else flint.fmpq(-6), hi if hi is not None else flint.fmpq(6))


def _univariate(f: Any, var: int) -> Any:
    """A polynomial of ``qctx`` using only variable ``var`` as an ``fmpq_poly`` (``None`` if it uses another)."""
    coeffs: dict[int, flint.fmpq] = {}
    for exps, c in f.to_dict().items():
        if any(e for k, e in enumerate(exps) if k != var):
            return None
        coeffs[exps[var]] = flint.fmpq(c)
    top = max(coeffs, default=0)
    return flint.fmpq_poly([coeffs.get(d, 0) for d in range(top + 1)])


def _gcd(polys: Sequence[Any]) -> Any:
    g = None
    for u in polys:
        if u is None:
            return None
        g = u if g is None else g.gcd(u)
    return g


def _on_stratum(chain: ParametricChain, strat: StratifiedDecomposition, index: int, point: dict[str, flint.fmpq]) -> bool:
    """Whether the chain at ``point`` is a chain and :meth:`~exactpte.StratifiedDecomposition.locate` puts it on the stratum."""
    try:
        chain.at(point, check=False)
        return strat.locate(point) is strat.strata[index]
    except (ExactpteError, ZeroDivisionError):
        return False


def _real_points(chain: ParametricChain, strat: StratifiedDecomposition, index: int, var: int) -> int | None:
    """When the equations use only parameter ``var``: how many of its real values the stratum has (the equations' gcd's
    real roots, each on the stratum: decided at the roots that are rational, ``None`` when an irrational root may or
    may not lie on it); ``0``: the stratum holds no chain."""
    stratum = strat.strata[index]
    F = chain.field
    polys = [flint.fmpq_poly([flint.fmpq(int(c)) for c in _dense(cond.poly, var)]) for cond in stratum.equations]
    g = _gcd(polys)
    if g is None or g.degree() < 1:
        return None
    squarefree = g / g.gcd(g.derivative())
    roots = _rational_roots(squarefree)
    if squarefree.degree() != len(roots):  # an irrational real root: whether its chain is valid is not decided here
        irrational = real_root_count(flint.fmpz_poly([int(c * squarefree.denom()) for c in squarefree.coeffs()])) - len(roots)
        if irrational:
            return None
    if len(F.params) > 1:
        return len(roots)  # rational roots: points exist when the other parameters allow a chain (searched for)
    return sum(_on_stratum(chain, strat, index, {F.params[0]: x}) for x in roots)


def _dense(poly: Any, var: int) -> list[int]:
    """The coefficients of an ``fmpz_mpoly`` that uses only variable ``var``, constant term first."""
    terms = {exps[var]: c for exps, c in poly.to_dict().items()}
    return [terms.get(d, 0) for d in range(max(terms, default=0) + 1)]
