"""The decomposition on every stratum of the parameter space, not only the generic one.

A parametric decomposition holds on the generic region: no support entry vanishes and no
denominator of the closed form does.  Where one does, the support graph (classes, periods,
transient states) or a solve changes, and so does the answer.  :func:`stratify` finds those
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

Examples
--------
>>> import exactpte
>>> m = exactpte.ParametricChain([[0, "q", "1-q"], [0, "p", "1-p"], [0, 1, 0]], [0, 1, 0], params=["p", "q"])
>>> strat = exactpte.stratify(m)
>>> [s.conditions for s in strat.strata][:3]
[['p != 0', 'p - 1 != 0', 'q != 0', 'q - 1 != 0'], ['p = 0', 'q != 0', 'q - 1 != 0'], ['p = 0', 'q = 0']]
>>> [str(x) for x in strat.at({"p": 0, "q": "1/3"}).g_star]    # periodic at p = 0
['2/3', '1', '0']
>>> [str(x) for x in strat.at({"p": "1/2", "q": "1/3"}).g_star]  # generic: -1/(p - 2)
['2/3', '2/3', '2/3']
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import flint

from .chain import Chain, MarkovRewardProcess, check_chain
from .errors import GenericRegionError, InvalidChainError, UsageError
from .fields import QQ, RationalField, RationalFunctionField, polynomials
from .fields.region import has_valid_point, simplest_region
from .fields.signs import real_roots, sign_at_root
from .parametric import ParametricChain
from .quantities import PER_STATE, REGISTRY
from .result import Decomposition, decompose

__all__ = ["stratify", "Stratum", "StratifiedDecomposition", "Condition", "PER_STATE"]


@dataclass(frozen=True)
class Condition:
    """``poly = 0`` or ``poly != 0``, ``poly`` in the original parameters' polynomial ring."""

    poly: Any = field(repr=False)
    equation: bool
    text: str

    def holds(self, field_: RationalFunctionField, values: Sequence[flint.fmpq]) -> bool:
        """Whether the condition holds at the point ``values`` (in the original parameters' order)."""
        zero = field_._eval_poly(self.poly, values) == 0
        return zero if self.equation else not zero

    def __str__(self) -> str:
        return f"{self.text} {'=' if self.equation else '!='} 0"

    def simplest(self) -> str:
        """``p = 1`` for an equation linear in one parameter, else :meth:`__str__`."""
        degrees = self.poly.degrees()
        used = [k for k, d in enumerate(degrees) if d]
        if self.equation and len(used) == 1 and degrees[used[0]] == 1:
            b, a = polynomials.univariate_in(self.poly, used[0])[:2]
            return f"{self.poly.context().names()[used[0]]} = {flint.fmpq(-b, a)}"
        return str(self)


@dataclass(frozen=True, eq=False)
class Stratum:
    """One stratum: conditions, the parameters left free on it, how the others are fixed, and the
    decomposition that holds there (``None`` for a pointwise stratum)."""

    equations: tuple[Condition, ...]
    inequations: tuple[Condition, ...]
    params: tuple[str, ...]
    substitution: dict[str, Any] = field(repr=False)
    chain: Chain | None = field(repr=False)
    decomposition: Decomposition | None = field(repr=False)
    region: tuple[str, ...] | None = None
    """The free parameters' range on the stratum in its simplest form (``0 < p < 1``): validity (every
    entry a probability) and the inequations together, implied conditions dropped; ``None`` when no
    simpler form was found (the inequations then stand as they are)."""

    @property
    def where(self) -> list[str]:
        """What the stratum is, in its simplest form: its equations, then its :attr:`region` (or its inequations)."""
        eqs = [c.simplest() for c in self.equations]
        return eqs + (list(self.region) if self.region is not None else [str(c) for c in self.inequations])

    @property
    def conditions(self) -> list[str]:
        """Equations then inequations, as ``"EXPR = 0"`` / ``"EXPR != 0"`` text."""
        return [str(c) for c in (*self.equations, *self.inequations)]

    @property
    def pointwise(self) -> bool:
        """Whether the stratum has no closed form (an equation that eliminates no parameter rationally)."""
        return self.decomposition is None

    def contains(self, field_: RationalFunctionField, values: Sequence[flint.fmpq]) -> bool:
        """Whether every condition holds at ``values``."""
        return all(c.holds(field_, values) for c in (*self.equations, *self.inequations))

    def to_dict(self) -> dict[str, Any]:
        """The stratum in the JSON contract: ``conditions``, ``substitution`` and every key of the decomposition."""
        out: dict[str, Any] = {"conditions": self.conditions, "where": self.where}
        if self.decomposition is None:
            out["pointwise"] = True
            return out
        text = self.decomposition.field.to_text
        out["substitution"] = {name: text(value) for name, value in self.substitution.items()}
        body = self.decomposition.to_dict(include_P_inf=False)
        body.setdefault("params", list(self.params))
        body.setdefault("assumptions", [])
        out.update(body)
        return out


@dataclass(frozen=True, eq=False)
class StratifiedDecomposition:
    """The decomposition of a parametric chain on every stratum of its parameter space.

    ``strata[0]`` is the generic stratum; the strata partition the valid region (every point
    where the entries are probabilities lies in exactly one).  Shares ``chain``, :meth:`at`,
    :meth:`to_dict` and :meth:`to_json` with the other result kinds (:class:`exactpte.result.Result`).
    """

    chain: ParametricChain
    strata: tuple[Stratum, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "strata", tuple(self.strata))

    @property
    def params(self) -> tuple[str, ...]:
        """The chain's parameters."""
        return tuple(self.chain.params)

    @property
    def field(self) -> RationalFunctionField:
        """The chain's field, ``QQ(params)``."""
        F = self.chain.field
        assert isinstance(F, RationalFunctionField)
        return F

    def locate(self, point: Mapping[str, Any]) -> Stratum:
        """The stratum holding ``point`` (``{"p": "1/3", ...}``), after checking the point is valid.

        Raises
        ------
        GenericRegionError
            The point is not valid (an entry is negative or has a pole there).
        """
        return self._located(point)[0]

    def _located(self, point: Mapping[str, Any]) -> tuple[Stratum, list[flint.fmpq], MarkovRewardProcess]:
        """``(stratum, values, rational chain at the point)``: the point parsed and substituted once."""
        values = self.chain._point(point)
        try:
            rational = self.chain.at(point, check=False)
        except (InvalidChainError, GenericRegionError) as e:
            raise GenericRegionError(f"the point {dict(zip(self.params, map(str, values)))} is not valid: {e}") from None
        hits = [s for s in self.strata if s.contains(self.field, values)]
        if len(hits) != 1:  # a partition: anything else is a bug, never a silent answer
            raise AssertionError(f"{len(hits)} strata hold the point {values}")
        return hits[0], values, rational

    def at(self, point: Mapping[str, Any]) -> Decomposition:
        """The exact rational :class:`~exactpte.Decomposition` at ``point``, from the stratum holding it.

        Examples
        --------
        >>> import exactpte
        >>> m = exactpte.ParametricChain([["1-p", "p"], [1, 0]], [1, 0], params=["p"])
        >>> strat = exactpte.stratify(m)
        >>> strat.at({"p": 0}).classes, strat.at({"p": "1/2"}).classes
        (((0,),), ((0, 1),))
        """
        stratum, values, rational = self._located(point)
        if stratum.decomposition is None:
            return decompose(rational)
        if not stratum.params:
            return stratum.decomposition
        by_name = dict(zip(self.params, values))
        return stratum.decomposition.at({p: by_name[p] for p in stratum.params})

    def to_dict(self) -> dict[str, Any]:
        """``{"params": [...], "strata": [...]}``, each stratum a :meth:`Stratum.to_dict`."""
        return {"format": "exactpte.strata/1", "params": list(self.params), "strata": [s.to_dict() for s in self.strata]}

    def to_json(self, *, indent: int | None = None) -> str:
        """JSON text of :meth:`to_dict`."""
        import json

        return json.dumps(self.to_dict(), indent=indent)

    def to_sympy(self, *, quantities: Sequence[str] = PER_STATE) -> dict[str, list[Any]]:
        """A ``sympy.Piecewise`` per state for each per-state quantity (``g_star``, ``v_star``,
        ``rho``, ``h``, ``psi``): one piece per stratum, its condition the stratum in its simplest
        form (:attr:`Stratum.where`: ``Eq(p, 0) & (q > 0) & (q < 1)``; pointwise strata give
        ``nan``: evaluate them with :meth:`at`)."""
        import sympy

        F = self.field
        syms = dict(zip(self.params, F.symbols))
        out: dict[str, list[Any]] = {}
        for name in quantities:
            if name not in PER_STATE:
                raise UsageError(f"to_sympy gives the per-state quantities {', '.join(PER_STATE)}, not {name!r}")
            pieces_per_state: list[list] = [[] for _ in range(self.chain.n)]
            for s in self.strata:
                cond = sympy.And(*[_sympy_condition(F, text) for text in s.where])
                for state in range(self.chain.n):
                    if s.decomposition is None:
                        expr = sympy.nan
                    else:
                        x = getattr(s.decomposition, name)[state]
                        expr = x.to_sympy().xreplace({sympy.Symbol(p, real=True): syms[p] for p in s.params}) \
                            if s.params else sympy.Rational(int(x.p), int(x.q))
                    pieces_per_state[state].append((expr, cond))
            out[name] = [sympy.Piecewise(*_merged(pieces)) for pieces in pieces_per_state]
        return out

    def to_latex(self, *, quantities: Sequence[str] = ("g_star", "rho")) -> str:
        """A cases table per state for each quantity: one line per stratum with its conditions."""
        lines = []
        for name in quantities:
            if name not in PER_STATE:
                raise UsageError(f"to_latex gives the per-state quantities {', '.join(PER_STATE)}, not {name!r}")
            symbol = REGISTRY[name].latex
            for state in range(self.chain.n):
                cases = []
                for s in self.strata:
                    cond = r",\ ".join(_latex_condition(c) for c in s.where) or r"\text{always}"
                    if s.decomposition is None:
                        value = r"\text{(pointwise)}"
                    else:
                        value = s.decomposition.field.to_latex(getattr(s.decomposition, name)[state])
                    cases.append(f"{value} & {cond}")
                lines.append(f"{symbol}({state}) = \\begin{{cases}} " + r" \\ ".join(cases) + r" \end{cases}")
        return "\\[\n" + "\n\\]\n\\[\n".join(lines) + "\n\\]"

    def table(self) -> str:
        """Each stratum's conditions, then its decomposition's per-state table."""
        out = []
        for k, s in enumerate(self.strata):
            out.append(f"[{k}] {' and '.join(s.where) or 'everywhere'}")
            out.append(s.decomposition.table() if s.decomposition is not None else "  pointwise: decompose each point (.at)")
        return "\n".join(out)

    def to_csv(self, *, only: Any = None) -> str:
        """One CSV of every stratum's per-state rows, led by the columns ``stratum`` and ``conditions``
        (a pointwise stratum has one row without values)."""
        import csv
        import io

        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        header_written = False
        for k, s in enumerate(self.strata):
            where = " and ".join(s.where)
            if s.decomposition is None:
                if header_written:
                    writer.writerow([k, where])
                continue
            rows = list(csv.reader(io.StringIO(s.decomposition.to_csv(only=only))))
            if not header_written:
                writer.writerow(["stratum", "conditions", *rows[0]])
                header_written = True
            for row in rows[1:]:
                writer.writerow([k, where, *row])
        return buf.getvalue()

    def plot(self, quantity: str = "rho", state: int = 0, ax: Any = None) -> Any:
        """A picture of the parameter space (one or two parameters): the valid region, the curves and
        points of the lower strata labelled with their periods and classes, and ``quantity[state]``
        over the region (:func:`exactpte.plotting.plot_strata`; needs matplotlib)."""
        from .plotting import plot_strata

        if quantity not in PER_STATE:
            raise UsageError(f"plot draws one of the per-state quantities {', '.join(PER_STATE)}, not {quantity!r}")
        return plot_strata(self, quantity, state, ax)

    def _repr_latex_(self) -> str:
        return self.to_latex()

    def _repr_html_(self) -> str:
        import html

        items = []
        for s in self.strata:
            where = html.escape(" and ".join(s.where) or "everywhere")
            if s.decomposition is None:
                items.append(f"<li><b>{where}</b>: pointwise</li>")
                continue
            d = s.decomposition
            text = d.field.to_text
            cells = "".join(f"<tr><td>{i}</td><td>{html.escape(text(g))}</td><td>{html.escape(text(r))}</td></tr>"
                            for i, (g, r) in enumerate(zip(d.g_star, d.rho)))
            items.append(f"<li><b>{where}</b>: periods {list(d.periods)}, classes {[list(c) for c in d.classes]}"
                         f"<table><tr><th>state</th><th>g*</th><th>&rho;</th></tr>{cells}</table></li>")
        return f"<p>StratifiedDecomposition over {html.escape(', '.join(self.params))}: {len(self.strata)} strata</p><ul>{''.join(items)}</ul>"

    def __str__(self) -> str:
        out = [f"StratifiedDecomposition over {', '.join(self.params)}: {len(self.strata)} strata"]
        for k, s in enumerate(self.strata):
            where = " and ".join(s.where) or "everywhere"
            if s.decomposition is None:
                out.append(f"  [{k}] {where}: pointwise (no rational elimination; decompose each point)")
                continue
            d = s.decomposition
            text = d.field.to_text
            subst = ", ".join(f"{p} = {text(v)}" for p, v in s.substitution.items())
            out.append(f"  [{k}] {where}{' (' + subst + ')' if subst else ''}: classes {list(map(list, d.classes))}, "
                       f"periods {list(d.periods)}, transient {list(d.transient)}")
            out.append(f"       g* = ({', '.join(text(x) for x in d.g_star)})")
        return "\n".join(out)

    def __repr__(self) -> str:
        return f"StratifiedDecomposition(params={list(self.params)}, strata={len(self.strata)})"


def _latex_condition(text: str) -> str:
    """One condition of :attr:`Stratum.where` as LaTeX (``**`` powers, ``*`` products, ``!=``, ``<``)."""
    return text.replace("**", "^").replace("*", " ").replace("!=", r"\neq")


# -- the construction -----------------------------------------------------------------------------------
class _Level:
    """A chain after some parameters were eliminated: its field, and the way back to the original ring."""

    def __init__(self, chain: Chain, original: RationalFunctionField, subst: dict[str, Any]) -> None:
        self.chain = chain
        self.field = chain.field
        self.original = original
        self.subst = subst  # eliminated original parameter -> element of this level's field
        self.params: tuple[str, ...] = getattr(chain, "params", ())

    @property
    def rf(self) -> RationalFunctionField:
        """The level's field while parameters are left (a rational function field)."""
        F = self.field
        assert isinstance(F, RationalFunctionField), "no parameter is left at this level"
        return F

    def to_original(self, f) -> Any:
        """A polynomial of this level's ring (or a rational constant) in the original ring."""
        O = self.original
        if not self.params:
            return O.ctx.constant(int(flint.fmpq(f).p))
        images = [O.variable(p) for p in self.params]
        return self.rf.compose_poly(f, images, O).num

    def condition(self, f, equation: bool) -> Condition:
        g = self.to_original(f)
        if g.leading_coefficient() < 0:
            g = -g
        return Condition(g, equation, self.original.poly_text(g))


def _numerator(field_, x) -> Any:
    """The ring numerator of a field element (a condition ``x = 0`` / ``x != 0`` needs only that)."""
    return field_.split([x])[0][0]


def _special_factors(level: _Level, dec: Decomposition) -> list[Any]:
    F = level.rf
    seen: list = []

    def add(poly):
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


def _substituted(level: _Level, var: int, value) -> tuple[_Level, list]:
    """The level with parameter ``var`` replaced by ``value`` (a function of the others)."""
    F, chain = level.rf, level.chain
    name = level.params[var]
    rest = tuple(p for p in level.params if p != name)
    G: RationalFunctionField | RationalField = QQ
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


def _solve(level: _Level, pending: list, neqs: list, eqs: list[Condition]) -> list[Stratum]:
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
        if not _real_point_exists(level, pending, neqs):
            return []
        cond = [level.condition(x, True) for x in pending]
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
    new_neqs = []
    for x in branch_neqs:
        z = F.compose(F.poly(x), images, G)
        if z == 0:
            return out  # an inherited inequation fails identically: empty
        if not G.is_constant(z):
            new_neqs.append(_numerator(G, z))
    new_pending = [_numerator(G, F.compose(F.poly(x), images, G)) for x in pending[1:]]
    return out + _solve(sub, new_pending, new_neqs, eqs + [level.condition(g, True)])


def _generic_region_nonempty(level: _Level, neqs: list) -> bool | None:
    """Whether some point makes every support entry > 0 and every inequation hold, decided exactly with
    one free parameter (:func:`~exactpte.fields.region.has_valid_point`); ``None`` (undecided) with more."""
    if len(level.params) != 1:
        return None
    return has_valid_point(level.rf, [e for _i, _j, e in level.chain.edges()], neqs)


def _region(level: _Level, neqs: list) -> tuple[str, ...] | None:
    """The generic region of a level in its simplest form (:func:`~exactpte.fields.region.simplest_region`)."""
    entries = [e for _i, _j, e in level.chain.edges() if not e.is_constant()]
    return simplest_region(level.rf, entries, neqs)


def _real_point_exists(level: _Level, pending: list, neqs: list) -> bool:
    """Whether the equations ``pending`` hold at a valid real point (every entry ``>= 0``, no pole, no
    inequation ``neqs`` vanishing): decided exactly with one free parameter (real roots of the
    equations' gcd, isolated, and the sign of each entry at each root); with more, assumed (the
    stratum is kept, pointwise)."""
    if len(level.params) != 1:
        return True
    g = None
    for f in pending:
        u = polynomials.univariate(f)
        g = u if g is None else g.gcd(u)
    if g is None or g.degree() < 1:
        return g is not None and g == 0
    entries = [e for _i, _j, e in level.chain.edges()]
    for interval in real_roots(g):
        def sign(f) -> int:
            return sign_at_root(polynomials.univariate(f), g, interval)

        if any(sign(e.den) == 0 for e in entries) or any(sign(f) == 0 for f in neqs):
            continue
        if all(sign(e.num) * sign(e.den) >= 0 for e in entries):
            return True
    return False


def _stratify(level: _Level, neqs: list, eqs: list[Condition]) -> list[Stratum]:
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
    kept: list = []
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


def _merged(pieces: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """One piece per distinct value, its condition the ``Or`` of its strata's (the strata are disjoint,
    so order does not matter; Piecewise would merge neighbours itself, into a conjunctive form)."""
    import sympy

    conds: dict[Any, list[Any]] = {}
    for expr, cond in pieces:
        conds.setdefault(expr, []).append(cond)
    return [(expr, sympy.Or(*cs)) for expr, cs in conds.items()]


_RELATION = re.compile(r"\s*(<=|>=|!=|<|>|=)\s*")


def _sympy_condition(F: RationalFunctionField, text: str) -> Any:
    """One line of :attr:`Stratum.where` (``"0 < p < 1"``, ``"q = 1 - p"``, ``"p*q - 1 != 0"``) as a
    sympy condition; each side read by the expression parser (never evaluated)."""
    import sympy

    relation = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge, "=": sympy.Eq, "!=": sympy.Ne}
    parts = _RELATION.split(text.strip())
    sides = [F.convert(side, "a stratum's condition").to_sympy() for side in parts[::2]]
    return sympy.And(*[relation[op](a, b) for a, op, b in zip(sides, parts[1::2], sides[1:])])


def _order_key(F: RationalFunctionField, f) -> tuple:
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
    check_chain(chain)
    if not isinstance(chain, ParametricChain):
        raise UsageError("strata apply to a ParametricChain; a rational chain has a single decomposition")
    field = chain.field
    assert isinstance(field, RationalFunctionField)  # a ParametricChain's field
    level = _Level(chain, field, {})
    return StratifiedDecomposition(chain, tuple(_stratify(level, [], [])))
