"""exactpte's routes to one quantity, compared: a proof covers every route a user can reach.

exactpte computes a quantity by more than one route (``docs/proofs-for-families.md``, "What proved means"):

- **read after the basis** (the reference: what :func:`~proofs_check.judging.claims.from_decomposition` reads, and
  what the identities are proved on);
- **read before the basis**: ``v_star``, ``g_star``, ``psi``, ``rho`` and ``h`` read first (``dec.v_star``,
  ``to_dict(only=...)``, ``exactpte decompose --only``) take their own route when every class is aperiodic
  (``g* = ρ``, ``ψ = 0``, ``v* = h + P∞ v*``, no basis at all), and over ``QQ`` ``ρ`` by the gain solve;
- :func:`exactpte.gain` and :func:`exactpte.stationary_distribution`, the public functions;
- **the factored output** (``to_dict(factored=True)``, ``exactpte decompose --factored``) of a periodic chain over
  ``QQ(params)``, whose entries are sums of parts over the cyclotomic blocks' denominators;
- **exactpte's rational engine**: every chain a user decomposes is rational, and ``QQ`` takes other branches
  (lifting, sums on the solves' numerators, ``ρ`` assembled from the basis).

:func:`parametric_routes` compares the first four with the reference as rational functions (an identity of
rational functions: proved); :func:`rational_routes` compares the rational engine, read both ways, with the closed
forms evaluated at rational points of the region (``witnesses``).  Each disagreement is a :class:`RouteMismatch`.

Examples
--------
>>> import exactpte
>>> dec = exactpte.decompose(exactpte.example("two-state-pq"))
>>> _ = dec.basis, dec.v_star, dec.h, dec.psi
>>> parametric_routes(dec)
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import flint

import exactpte
from exactpte import Decomposition
from exactpte.results.factored import expand

from proofs_check.symbolic.region import Region

__all__ = ["RouteMismatch", "parametric_routes", "rational_routes", "ROUTE_KEYS", "ROUTE_STATEMENTS", "COMPARED", "BEFORE_BASIS"]

ROUTE_KEYS = ("routes:engine", "routes:rational")
ROUTE_STATEMENTS = {
    "routes:engine": "every route of exactpte's engine (quantities read before or after the basis, exactpte.gain, "
                     "exactpte.stationary_distribution, the factored output) gives the same closed forms",
    "routes:rational": "exactpte's rational engine, read before or after the basis, gives the closed forms' values at "
                       "rational points of the region",
}
"""The two route checks of a family and what they state."""

BEFORE_BASIS = ("v_star", "g_star", "psi", "h", "rho", "theta", "class_gain", "stationary", "absorption", "psi_coords")
"""The order a fresh decomposition is read in for the route "read before the basis" (the basis last)."""

COMPARED = (*BEFORE_BASIS, "basis")
"""The quantities compared between routes."""


@dataclass(frozen=True)
class RouteMismatch:
    """One disagreement: ``quantity`` by ``route`` differs from the reference at ``where`` (an entry), ``value``
    the difference (a rational function, or ``None`` when the shapes differ); ``point`` for the rational engine."""

    quantity: str
    route: str
    where: str
    detail: str
    value: Any = None
    point: dict[str, flint.fmpq] | None = None


def _flat(x: Any) -> list[Any]:
    """The entries of nested rows: tuples, lists or exactpte's row views (any sequence but text)."""
    if isinstance(x, Sequence) and not isinstance(x, str):
        return [y for z in x for y in _flat(z)]
    return [x]


def _compare(name: str, route: str, got: Any, expected: Any, point: dict[str, flint.fmpq] | None = None) -> list[RouteMismatch]:
    a, b = _flat(got), _flat(expected)
    if len(a) != len(b):
        return [RouteMismatch(name, route, "shape", f"{name} by {route} has {len(a)} entries, the reference {len(b)}", None, point)]
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return [RouteMismatch(name, route, f"entry {k}", f"{name} by {route} differs from {name} read after the basis at "
                                                            f"entry {k}: {x} vs {y}", x - y, point)]
    return []


def parametric_routes(dec: Decomposition) -> list[RouteMismatch]:
    """Every route of exactpte's engine on ``dec``'s chain against ``dec`` (read after the basis): a fresh
    decomposition read before the basis (:data:`BEFORE_BASIS`), the public :func:`exactpte.gain` and
    :func:`exactpte.stationary_distribution`, and the factored output of a periodic chain."""
    chain = dec.chain
    fresh = exactpte.decompose(chain)
    out: list[RouteMismatch] = []
    for q in BEFORE_BASIS:  # in this order, before anything reads the basis
        out += _compare(q, "read before the basis", getattr(fresh, q), getattr(dec, q))
    out += _compare("basis", "read after those", fresh.basis, dec.basis)
    out += _compare("rho", "exactpte.gain", exactpte.gain(chain), dec.rho)
    for i, members in enumerate(dec.classes):
        out += _compare("stationary", "exactpte.stationary_distribution", exactpte.stationary_distribution(chain, members),
                        dec.stationary[i])
    if any(d > 1 for d in dec.periods) and dec.field.is_parametric:
        out += _factored(dec)
    return out


def _factored(dec: Decomposition) -> list[RouteMismatch]:
    """The factored output (``to_dict(factored=True)``) read back against the reference."""
    data = expand(dec.to_dict(factored=True, include_P_inf=False))
    read = dec.field.read_result  # type: ignore[attr-defined]  # the parametric field's reader of its own output
    out: list[RouteMismatch] = []
    for q in ("basis", "theta", "g_star", "v_star", "psi", "rho", "h"):
        rows = data[q]
        got = [[read(t) for t in row] for row in rows] if q == "basis" else [read(t) for t in rows]
        out += _compare(q, "the factored output", got, getattr(dec, q))
    return out


def rational_routes(dec: Decomposition, region: Region, *, points: int = 1, seed: int = 0) -> tuple[list[RouteMismatch], int]:
    """exactpte's rational engine on the chain at up to ``points`` rational points of ``region``, read after and
    before the basis, and :func:`exactpte.gain`, against ``dec``'s closed forms evaluated there; also the number of
    points checked."""
    F = region.field
    checked = 0
    for point in region.points(points, seed=seed):
        named = dict(zip(F.params, point))
        try:
            expected = {q: _evaluated(getattr(dec, q), F, point) for q in COMPARED}
        except ZeroDivisionError:
            continue  # a pole of a closed form (its denominators are certified elsewhere)
        checked += 1
        rational = dec.chain.at(named)  # type: ignore[attr-defined]  # a parametric chain
        after = exactpte.decompose(rational)
        _ = after.basis
        out = [m for q in COMPARED for m in _compare(q, "the rational engine, read after the basis", getattr(after, q), expected[q], named)]
        before = exactpte.decompose(rational)
        out += [m for q in BEFORE_BASIS for m in _compare(q, "the rational engine, read before the basis", getattr(before, q),
                                                          expected[q], named)]
        out += _compare("rho", "exactpte.gain on the rational chain", exactpte.gain(rational), expected["rho"], named)
        if out:
            return out, checked
    return [], checked


def _evaluated(x: Any, F: Any, point: Sequence[flint.fmpq]) -> Any:
    if isinstance(x, Sequence) and not isinstance(x, str):
        return tuple(_evaluated(y, F, point) for y in x)
    return F.evaluate(x, list(point))
