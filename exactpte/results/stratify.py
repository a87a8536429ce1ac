"""The decomposition on every stratum of the parameter space, not only the generic one.

A parametric decomposition holds on the generic region: no support entry vanishes and no
denominator of the closed form does.  Where one does, the support graph (classes, periods,
transient states) or a solve changes, and so does the answer.  this module finds those
sets and decomposes each:

- the *special factors* of a chain are the irreducible factors of its entries' numerators
  (where the support changes) and of the denominators of its generic decomposition (where a
  solve degenerates);
- with special factors ``f_1 .. f_m``, the valid region is the disjoint union of the generic
  stratum ``{f_1 != 0, .., f_m != 0}`` and ``S_j = {f_j = 0, f_l != 0 for l < j}``;
- on ``S_j`` the equation ``f_j = 0`` eliminates a parameter when ``f_j`` has degree 1 in it:
  ``x = -b/a`` for ``f_j = a x + b`` (with ``a != 0`` as a condition, and the branch
  ``a = 0, b = 0`` handled the same way when ``a`` is not constant); the substituted chain
  (fewer parameters, some entries now zero) is stratified recursively under the inherited
  inequations;
- sets that hold no valid point are dropped: an inherited inequation that becomes identically
  zero, an entry that becomes negative for every value of the remaining parameters, a pole;
- an equation of degree >= 2 in every parameter (e.g. ``p^2 + q^2 = 1/2``) cannot be solved
  rationally: its stratum is kept as *pointwise* (``decomposition`` is ``None``) and
  :meth:`StratifiedDecomposition.at` decomposes the substituted rational chain there.

Conditions are polynomials in the original parameters, printed as sympy-parsable text
(``EXPR = 0`` or ``EXPR != 0``).

The result is a :class:`~exactpte.results.strata.StratifiedDecomposition`.
"""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any, Union

import flint

from exactpte.model.chain import Chain, MarkovRewardProcess, require_chain
from exactpte.errors import InvalidChainError, UsageError
from exactpte.fields import QQ, Field, RationalField, RationalFunction, RationalFunctionField, polynomials
from exactpte.fields.region import bounding_box, has_valid_point, simplest_region, vanishes_in_region
from exactpte.fields.signs import real_roots, sign_at_root
from exactpte.model.parametric import ParametricChain
from exactpte.results.decomposition import Decomposition, decompose

from exactpte.results.strata import Condition, StratifiedDecomposition, Stratum

__all__ = ["stratify"]

RingElement = Any
"""An equation's or inequation's polynomial: an ``fmpz_mpoly`` of the level's ring, or an ``fmpz`` once no
parameter is left.  (Typed ``Any``: which one it is follows from ``level.params``, which a type checker does not
correlate; every use on polynomials runs only at levels with parameters.)"""

LevelField = Union[RationalFunctionField, RationalField]
"""A level's field: ``QQ(params left)``, or ``QQ`` once every parameter is eliminated."""


# -- the construction -----------------------------------------------------------------------------------
class _Level:
    """A chain after some parameters were eliminated: its field, and the way back to the original ring."""

    def __init__(self, chain: Chain, original: RationalFunctionField, subst: dict[str, Any]) -> None:
        self.chain = chain
        self.field = chain.field
        self.original = original
        # eliminated original parameter -> element of this level's field (a RationalFunction while parameters
        # are left, an fmpq at the last level: Any, as the level's field is known only at run time)
        self.subst = subst
        self.params: tuple[str, ...] = getattr(chain, "params", ())

    @property
    def rf(self) -> RationalFunctionField:
        """The level's field while parameters are left (a rational function field)."""
        F = self.field
        assert isinstance(F, RationalFunctionField), "no parameter is left at this level"
        return F

    def to_original(self, f: RingElement) -> flint.fmpz_mpoly:
        """A polynomial of this level's ring (or a rational constant) in the original ring."""
        O = self.original
        if not self.params:
            return O.ctx.constant(int(flint.fmpq(f).p))
        images = [O.variable(p) for p in self.params]
        return self.rf.compose_poly(f, images, O).num

    def condition(self, f: RingElement, equation: bool, decided: bool = True) -> Condition:
        g = self.to_original(f)
        if g.leading_coefficient() < 0:
            g = -g
        return Condition(g, equation, self.original.poly_text(g), decided)


def _numerator(field_: Field[Any], x: Any) -> RingElement:
    """The ring numerator of a field element (a condition ``x = 0`` / ``x != 0`` needs only that)."""
    return field_.split([x])[0][0]


def _special_factors(level: _Level, dec: Decomposition) -> list[flint.fmpz_mpoly]:
    F = level.rf
    seen: list[flint.fmpz_mpoly] = []

    def add(poly: flint.fmpz_mpoly) -> None:
        for g in F.irreducible_factors(poly):
            if g not in seen:
                seen.append(g)

    for _i, _j, e in level.chain.edges():
        add(e.num)
    values = [*dec.theta, *dec.g_star, *dec.v_star, *dec.rho, *dec.h, *dec.psi, *dec.class_gain]
    values += [x for row in dec.basis_sparse for x in row.values()] + [x for pi in dec.stationary for x in pi]
    for x in values:
        add(x.den)
    return seen


def _substituted(level: _Level, var: int, value: RationalFunction) -> tuple[_Level, list[Any]]:
    """The level with parameter ``var`` replaced by ``value`` (a function of the others)."""
    F, chain = level.rf, level.chain
    name = level.params[var]
    rest = tuple(p for p in level.params if p != name)
    G: LevelField = QQ
    gens: dict[str, Any] = {}
    if rest:
        G = RationalFunctionField(rest)
        gens = {p: G.variable(p) for p in rest}
    images: list[Any] = [None] * len(level.params)
    for k, p in enumerate(level.params):
        if p != name:
            images[k] = gens[p]
    # the value is free of `name`: compose it with the other images (its slot is never used)
    images[var] = G.zero
    value_g = F.compose(value, images, G)
    images[var] = value_g
    edges = []
    for i, j, e in chain.edges():
        x = F.compose(e, images, G)
        if x != 0:
            edges.append((i, j, x))
    r = [F.compose(x, images, G) for x in chain.r]
    sub: Chain
    if rest:
        sub = ParametricChain.from_edges(chain.n, edges, r, params=list(rest), labels=chain.labels)
    else:
        sub = MarkovRewardProcess.from_edges(chain.n, edges, r, labels=chain.labels)
    subst = {p: F.compose(v, images, G) for p, v in level.subst.items()}
    subst[name] = value_g
    return _Level(sub, level.original, subst), images


def _solve(level: _Level, pending: list[RingElement], neqs: list[RingElement], eqs: list[Condition]) -> list[Stratum]:
    """Impose the equations ``pending`` (polynomials of the level's ring) and stratify what is left."""
    while pending and pending[0] == 0:
        pending = pending[1:]
    if not pending:
        return _stratify(level, neqs, eqs)
    g = pending[0]
    if not level.params or g.is_constant():
        return []  # a nonzero constant = 0: empty
    F = level.rf
    choice = None
    for constant_coefficient in (True, False):
        for v in range(len(level.params)):
            lin = F.linear_in(g, v)
            if lin is not None and lin[0].is_constant() == constant_coefficient:
                choice = (v, lin)
                break
        if choice:
            break
    if choice is None:  # no rational elimination: a pointwise stratum, when it holds a valid real point
        exists = _real_point_exists(level, pending, neqs)
        if exists is False:
            return []
        cond = [level.condition(x, True, decided=exists is True) for x in pending]  # None: may hold no valid point
        return [Stratum(tuple(eqs + cond), tuple(level.condition(x, False) for x in neqs), level.params, {}, None, None)]
    v, (a, b) = choice
    out: list[Stratum] = []
    branch_neqs = list(neqs)
    if not a.is_constant():
        out += _solve(level, [a, b] + pending[1:], neqs, eqs)  # a = 0 forces b = 0
        branch_neqs.append(a)
    value = F.poly(-b) / F.poly(a)
    try:
        sub, images = _substituted(level, v, value)
    except (InvalidChainError, ZeroDivisionError):
        return out  # an entry negative for every remaining value, or a pole: no valid point
    G = sub.field
    new_neqs: list[RingElement] = []
    for x in branch_neqs:
        z = F.compose(F.poly(x), images, G)
        if z == 0:
            return out  # an inherited inequation fails identically: empty
        if not G.is_constant(z):
            new_neqs.append(_numerator(G, z))
    new_pending = [_numerator(G, F.compose(F.poly(x), images, G)) for x in pending[1:]]
    return out + _solve(sub, new_pending, new_neqs, eqs + [level.condition(g, True)])


def _generic_region_nonempty(level: _Level, neqs: list[RingElement]) -> bool | None:
    """Whether some point makes every support entry > 0 and every inequation hold, decided exactly with
    one free parameter (:func:`~exactpte.fields.region.has_valid_point`); ``None`` (undecided) with more."""
    if len(level.params) != 1:
        return None
    return has_valid_point(level.rf, [e for _i, _j, e in level.chain.edges()], neqs)


def _region(level: _Level, neqs: list[RingElement]) -> tuple[str, ...] | None:
    """The generic region of a level in its simplest form (:func:`~exactpte.fields.region.simplest_region`)."""
    entries = [e for _i, _j, e in level.chain.edges() if not e.is_constant()]
    return simplest_region(level.rf, entries, neqs)


def _real_point_exists(level: _Level, pending: list[RingElement], neqs: list[RingElement]) -> bool | None:
    """Whether the equations ``pending`` hold at a valid real point (every entry ``>= 0``, no pole, no
    inequation ``neqs`` vanishing).  Decided exactly with one free parameter (real roots of the
    equations' gcd, isolated, and the sign of each entry at each root).  With more: ``False`` when a
    certificate shows an equation has no root on a box holding the region
    (:func:`~exactpte.fields.region.vanishes_in_region`), ``True`` when a point is found on a line
    through a grid of the box (every parameter but one fixed at a rational value, the last one's roots
    isolated and each checked exactly), else ``None``: not decided (the stratum is kept, marked so)."""
    entries = [e for _i, _j, e in level.chain.edges()]
    if len(level.params) == 1:
        return _point_on_line([polynomials.univariate(f) for f in pending],
                              [(polynomials.univariate(e.num), polynomials.univariate(e.den)) for e in entries],
                              [polynomials.univariate(f) for f in neqs])
    F = level.rf
    varying = [e for e in entries if not e.is_constant()]
    if any(vanishes_in_region(F, varying, f) is False for f in pending):
        return False
    return True if _witness(level, pending, neqs, entries) else None


def _point_on_line(pending: list[flint.fmpz_poly], entries: list[tuple[flint.fmpz_poly, flint.fmpz_poly]],
                   neqs: list[flint.fmpz_poly]) -> bool:
    """Whether the one-parameter equations ``pending`` share a real root where no entry (numerator,
    denominator) is negative or a pole and no inequation vanishes, decided exactly."""
    g = None
    for u in pending:
        g = u if g is None else g.gcd(u)
    if g is None or g.degree() < 1:
        return g is not None and g.is_zero()
    for interval in real_roots(g):
        def sign(h: flint.fmpz_poly) -> int:
            return sign_at_root(h, g, interval)

        if any(sign(den) == 0 for _num, den in entries) or any(sign(f) == 0 for f in neqs):
            continue
        if all(sign(num) * sign(den) >= 0 for num, den in entries):
            return True
    return False


WITNESS_GRID = 7
"""Rational values per fixed parameter when looking for a valid point on a stratum of several parameters."""


def _witness(level: _Level, pending: list[RingElement], neqs: list[RingElement], entries: list[RationalFunction]) -> bool:
    """A valid real point on ``pending = 0`` found on the lines of a grid of the region's box: every
    parameter but one fixed at ``lo + (hi - lo) j / (WITNESS_GRID + 1)``, the free one's roots checked
    exactly (:func:`_point_on_line`; ``entries``: the chain's entries).  ``False`` means none was found, not that there
    is none."""
    F = level.rf
    box = bounding_box(F, [e for e in entries if not e.is_constant()]) or [(flint.fmpq(0), flint.fmpq(1))] * len(F.params)
    grids = [[lo + (hi - lo) * flint.fmpq(j, WITNESS_GRID + 1) for j in range(1, WITNESS_GRID + 1)] for lo, hi in box]
    for free, name in enumerate(F.params):
        G = RationalFunctionField([name])
        t = G.variable(name)
        others = [grids[k] for k in range(len(F.params)) if k != free]
        for values in itertools.islice(itertools.product(*others), 400):
            it = iter(values)
            images = [t if k == free else G.convert(next(it)) for k in range(len(F.params))]

            def line(f: RingElement) -> flint.fmpz_poly:
                return polynomials.univariate(_numerator(G, F.compose(F.poly(f), images, G)))

            def pair(e: RationalFunction) -> tuple[flint.fmpz_poly, flint.fmpz_poly]:
                x = F.compose(e, images, G)
                return polynomials.univariate(x.num), polynomials.univariate(x.den)

            try:
                if _point_on_line([line(f) for f in pending], [pair(e) for e in entries], [line(f) for f in neqs]):
                    return True
            except ZeroDivisionError:
                continue
    return False


def _stratify(level: _Level, neqs: list[RingElement], eqs: list[Condition]) -> list[Stratum]:
    chain = level.chain
    if not level.params:
        return [Stratum(tuple(eqs), (), (), dict(level.subst), chain, decompose(chain), ())]
    F = level.rf
    nonempty = _generic_region_nonempty(level, neqs)
    special = []
    for _i, _j, e in chain.edges():
        special += [g for g in F.irreducible_factors(e.num) if g not in special]
    dec = None
    if nonempty is not False:
        try:
            dec = decompose(chain)
            special = _special_factors(level, dec)
        except (InvalidChainError, ZeroDivisionError, ArithmeticError):
            dec = None  # no closed form on the generic region (it may hold no valid point): pointwise
    inherited = [g for x in neqs for g in F.irreducible_factors(x)]
    special = sorted((f for f in special if f not in inherited), key=lambda f: _order_key(F, f))
    special_strata: list[list[Stratum]] = []
    kept: list[RingElement] = []
    for f in special:
        found = _solve(level, [f], [*neqs, *kept], eqs)
        if not found:  # every valid point with f = 0 lies on an earlier stratum: "f != 0" is implied there
            continue
        kept.append(f)
        special_strata.append(found)
    rest = [s for found in special_strata for s in found]
    if nonempty is False:
        return rest  # the generic part holds no valid point
    generic = Stratum(tuple(eqs), tuple(level.condition(x, False) for x in [*neqs, *kept]), level.params,
                      dict(level.subst), chain if dec is not None else None, dec, _region(level, [*neqs, *kept]))
    return [generic] + rest


def _order_key(F: RationalFunctionField, f: flint.fmpz_mpoly) -> tuple[int, int, str]:
    """Canonical order of special factors: fewer parameters, lower degree, then the text."""
    degrees = f.degrees()
    return (sum(1 for d in degrees if d), sum(degrees), F.poly_text(f))


def stratify(chain: ParametricChain) -> StratifiedDecomposition:
    """The decomposition on every stratum of a parametric chain's parameter space.

    The strata partition the valid region (see the module docstring for the construction);
    each carries the :class:`~exactpte.Decomposition` that holds on it, with the parameters
    an equation fixes eliminated.

    Parameters
    ----------
    chain : ParametricChain

    Returns
    -------
    StratifiedDecomposition

    Examples
    --------
    >>> import exactpte
    >>> m = exactpte.ParametricChain([["1-p", "p"], ["p", "1-p"]], [1, 0], params=["p"])
    >>> strat = stratify(m)
    >>> [(s.conditions, s.decomposition.periods) for s in strat.strata]
    [(['p != 0', 'p - 1 != 0'], (1,)), (['p = 0'], (1, 1)), (['p - 1 = 0'], (2,))]
    """
    require_chain(chain)
    if not isinstance(chain, ParametricChain):
        raise UsageError("strata apply to a ParametricChain; a rational chain has a single decomposition")
    field = chain.field
    assert isinstance(field, RationalFunctionField)  # a ParametricChain's field
    level = _Level(chain, field, {})
    return StratifiedDecomposition(chain, _marked(_stratify(level, [], [])))


def _marked(strata: list[Stratum]) -> tuple[Stratum, ...]:
    """Every inequation ``f != 0`` whose equation's stratum ``f = 0`` was not decided (it may hold no valid
    point, so ``f != 0`` may be implied) marked not decided too, on every stratum that carries it."""
    undecided = [c.poly for s in strata for c in s.equations if not c.decided]
    if not undecided:
        return tuple(strata)

    def mark(c: Condition) -> Condition:
        return replace(c, decided=False) if c.decided and any(c.poly == f for f in undecided) else c

    return tuple(replace(s, inequations=tuple(mark(c) for c in s.inequations)) for s in strata)
