"""The paper's identities as equations over the chain's own field: ``QQ`` or ``QQ(params)``.

The checks of :mod:`proofs_check.checks` judge a rational claim against dense rational routes
(characteristic polynomials, nullspaces, spectral projectors).  Over ``QQ(params)`` those routes
are out of reach, so each identity is written here in a form that needs only the chain's rows,
the claimed closed forms and the support graph:

- every equation is a list of *residuals* (``lhs - rhs``, entry by entry) that must be the zero
  element of the field; over ``QQ(params)`` that is an identity of rational functions, so it holds
  at every point of a region where no denominator involved vanishes
  (:mod:`proofs_check.symbolic.proving` certifies that);
- every inequality (``b >= 0``, ``pi > 0``) is a list of *signs* to decide on the region;
- the objects the checks need come from defining equations that have one solution for the
  support graph at hand, never from exactpte's solvers: ``pi_i`` solves ``pi_i (I - P_{F_i}) = 0``,
  ``sum pi_i = 1`` (unique on an irreducible class), ``alpha_i`` solves the absorption equations
  (unique: every transient state leaves the transient set with positive probability), ``P_inf =
  sum_i alpha_i pi_i^T`` follows, and ``K(P) = ker(P^D - I)`` has dimension the number of closed
  classes of the ``D``-step support graph (:class:`~proofs_check.algebra.graph.SupportGraph`, no
  arithmetic), ``D`` the lcm of the periods.

Each check is ``ctx -> Finding`` (residuals that are not zero, signs to decide, the claimed
quantities it reads) or :class:`~proofs_check.judging.registry.NotApplicable`.  Checks whose statement is
spectral or statistical (``thm:quotient_contraction``, ``rem:peripheral_semisimple``, the
estimator's lemmas) have no symbolic form here: :data:`NOT_PROVABLE` says why.

Examples
--------
>>> import exactpte
>>> from proofs_check.judging.claims import from_decomposition
>>> m = exactpte.ParametricChain([["1-p", "p"], ["q", "1-q"]], ["a", "b"], params=["p", "q", "a", "b"])
>>> ctx = SymbolicContext(m, from_decomposition(exactpte.decompose(m), with_P_inf=False, with_hitting_times=False))
>>> finding = SYMBOLIC_CHECKS["claim:h"](ctx)
>>> finding.residuals, [what for what, _v, _strict in SYMBOLIC_CHECKS["claim:stationary"](ctx).signs]
([], ['pi_0(0) > 0', 'pi_0(1) > 0'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from math import lcm
from typing import Any, TypeAlias

from exactpte import Chain
from exactpte.fields import RationalFunctionField

from proofs_check.judging.claims import Claimed
from proofs_check.algebra.graph import SupportGraph
from proofs_check.judging.registry import NotApplicable
from proofs_check.symbolic.fractions import Atoms, Unreduced, lift_value

__all__ = ["SymbolicContext", "Finding", "SymbolicCheck", "SYMBOLIC_CHECKS", "NOT_PROVABLE", "symbolic_check", "determinant",
           "kernel_is_span_b", "EQUIVARIANT"]

Vector: TypeAlias = list[Any]
"""A vector of field elements (``fmpq`` or rational functions), indexed by state."""

_QUANTITIES = ("stationary", "absorption", "class_gain", "rho", "basis", "theta", "g_star", "v_star", "h", "psi", "P_inf",
               "hitting_times")
"""The claimed quantities the checks compute with (over ``QQ(params)`` as :class:`~proofs_check.symbolic.fractions.Unreduced`),
the small denominators first (their factors then divide the larger ones: :class:`~proofs_check.symbolic.fractions.Atoms`)."""


@dataclass
class Finding:
    """What one symbolic check found: ``residuals`` that are not zero (each ``(what, value)``), the
    ``signs`` to decide on the region (``(what, value, strict)``: ``value >= 0``, ``> 0`` when strict)
    and the claimed quantities read (their denominators must not vanish on the region)."""

    residuals: list[tuple[str, Any]] = field(default_factory=list)
    signs: list[tuple[str, Any, bool]] = field(default_factory=list)
    uses: tuple[str, ...] = ()
    nonzero: list[tuple[str, Any]] = field(default_factory=list)
    """Values that must vanish nowhere on the region (a minor whose nonzero value makes a solution unique), each
    ``(what, value)``; certified like a denominator, else the verdict says uniqueness was not derived."""
    notes: list[str] = field(default_factory=list)
    """What the verdict rests on besides the residuals (said in its detail)."""

    def equal(self, what: str, lhs: Sequence[Any], rhs: Sequence[Any]) -> None:
        """Record ``lhs[s] - rhs[s]`` for every entry where it is not zero."""
        if len(lhs) != len(rhs):
            self.residuals.append((f"{what}: length {len(lhs)} vs {len(rhs)}", 1))
            return
        for s, (a, b) in enumerate(zip(lhs, rhs)):
            if a != b:  # canonical forms: equal elements compare equal without a subtraction
                d = a - b
                if d != 0:
                    self.residuals.append((f"{what} at entry {s}", d))

    def zero(self, what: str, values: Sequence[Any]) -> None:
        """Record every entry of ``values`` that is not zero."""
        for s, x in enumerate(values):
            if x != 0:
                self.residuals.append((f"{what} at entry {s}", x))


class SymbolicContext:
    """A chain over any exact field, a claim of it, and the field-free objects the checks share."""

    def __init__(self, chain: Chain, claimed: Claimed, *, atoms: Atoms | None = None) -> None:
        self.chain = chain
        self.n = chain.n
        rows: list[list[tuple[int, Any]]] = [list(chain.row(s)) for s in range(chain.n)]
        r: Vector = list(chain.r)
        F = chain.field
        self.atoms: Atoms | None = None
        if isinstance(F, RationalFunctionField) and F.params:  # residuals over factored denominators: no gcd
            atoms = self.atoms = atoms if atoms is not None and atoms.field is F else Atoms(F)
            claimed = claimed.replace(**{q: lift_value(atoms, getattr(claimed, q)) for q in _QUANTITIES})
            rows = [[(j, atoms.lift(p)) for j, p in row] for row in rows]
            r = [atoms.lift(x) for x in r]
        self.claimed = claimed
        self.rows = rows
        self.r = r
        self._products: dict[tuple[str, int], tuple[Sequence[Any], Vector]] = {}

    @cached_property
    def graph(self) -> SupportGraph:
        """The support graph (its own SCC and period code)."""
        return SupportGraph([[j for j, _ in row] for row in self.rows])

    @cached_property
    def D(self) -> int:
        """The lcm of the claimed periods (1 without classes)."""
        return lcm(*self.claimed.periods) if self.claimed.periods else 1

    def _remembered(self, name: str, v: Sequence[Any], compute: Callable[[Sequence[Any]], Vector]) -> Vector:
        """``compute(v)``, computed once per claimed vector (the checks apply ``P`` and ``P_inf`` to the same claimed
        vectors, tuples, and to ``r`` again and again; a vector a check builds is computed each time); the object
        is kept with its result, so its id is never reused meanwhile."""
        if not isinstance(v, tuple) and v is not self.r:
            return compute(v)
        key = (name, id(v))
        hit = self._products.get(key)
        if hit is None or hit[0] is not v:
            hit = self._products[key] = (v, compute(v))
        return list(hit[1])

    def P(self, v: Sequence[Any]) -> Vector:
        """``P v``."""
        return self._remembered("P", v, lambda v: [sum((p * v[j] for j, p in row), 0 * v[0] if v else 0) for row in self.rows])

    def P_pow(self, v: Sequence[Any], t: int) -> Vector:
        """``P^t v`` by repeated products."""
        out = list(v)
        for _ in range(t):
            out = self.P(out)
        return out

    def I_minus_P(self, v: Sequence[Any]) -> Vector:
        """``(I - P) v``."""
        return [a - b for a, b in zip(v, self.P(v))]

    def col(self, c: int) -> Vector:
        """Claimed basis column ``b_c``."""
        return [row[c] for row in self.claimed.basis]

    def Pi(self, v: Sequence[Any]) -> Vector:
        """``Pi v = v - sum_c v(a_c) b_c`` with the claimed anchors and basis."""
        out = list(v)
        for c, a in enumerate(self.claimed.anchor_states):
            if v[a] != 0:
                out = [x - v[a] * b for x, b in zip(out, self.col(c))]
        return out

    def unit(self, s: int) -> Vector:
        """The unit vector ``e_s``."""
        one = self.r[0] * 0 + 1 if self.r else 1
        return [one if k == s else 0 * one for k in range(self.n)]

    @cached_property
    def P_inf_columns(self) -> list[Vector]:
        """The columns ``P_inf e_y`` of ``P_inf = sum_i alpha_i pi_i^T``, from the claimed absorption and
        stationary vectors (checked against their defining equations by ``claim:absorption`` and
        ``claim:stationary``)."""
        return [self.P_inf(self.unit(y)) for y in range(self.n)]

    def P_inf(self, v: Sequence[Any]) -> Vector:
        """``P_inf v = sum_i alpha_i (pi_i . v)``: one scalar per class, then the absorption columns."""
        return self._remembered("P_inf", v, self._P_inf)

    def _P_inf(self, v: Sequence[Any]) -> Vector:
        c = self.claimed
        assert c.absorption is not None and c.stationary is not None
        zero = 0 * v[0] if len(v) else 0
        out: Vector = [zero] * self.n
        for i, members in enumerate(c.classes):
            weight = sum((pi * v[y] for y, pi in zip(members, c.stationary[i]) if v[y] != 0), zero)
            if weight != 0:
                out = [x + row[i] * weight for x, row in zip(out, c.absorption)]
        return out


Outcome: TypeAlias = "Finding | NotApplicable"
SymbolicCheck: TypeAlias = Callable[[SymbolicContext], Outcome]

SYMBOLIC_CHECKS: dict[str, SymbolicCheck] = {}
"""Every symbolic check by key (the paper's label, as in :data:`proofs_check.checks.CHECKS`)."""

EQUIVARIANT = ("Every identity here is equivariant under relabelling: renaming the states permutes P's rows and columns, "
               "r and every per-state quantity, and moves the class order, the phases and the anchors to the renamed "
               "chain's conventions (Decomposition.relabelled), and each identity holds for a chain exactly when it holds "
               "for every renaming of it.  So an identity proved on one labelling of a support graph is proved on all of "
               "them; tests/proofs_check/symbolic/test_equivariance.py runs every check on every labelling of every "
               "support graph with at most three states and finds the same verdicts.")
"""The statement, made once, that lets ``proofs-check exhaustive`` prove each identity on one labelling per graph
(conjectures of your own are run on every labelling: :mod:`proofs_check.symbolic.statements`)."""

NOT_PROVABLE: dict[str, str] = {
    "thm:minimal_quotient": "a spectral statement (no unimodular eigenvalue of the quotient): needs the characteristic "
                            "polynomial's roots for every parameter value",
    "thm:quotient_contraction": "a Lyapunov certificate for a rational gamma < 1 exists for each chain, but gamma depends on "
                                "the spectral gap, which tends to 1 at the region's boundary: no single certificate",
    "def:main_b": "compared with the rational absorption route; over QQ(params) lem:shift_b, lem:main_b_identify and "
                  "lem:b_simplex prove the properties that define b",
    "rem:peripheral_semisimple": "a rank of (P^D - I)^2 over QQ(params); follows from lem:kernel_equals_peripheral's "
                                 "dimension count but is not re-derived symbolically",
    "cor:return_error": "an inequality quantified over every candidate (g^, v^): checked on random rational candidates only",
    "lem:vhat_star_unique": "about the estimator's learned weights b^, not about the chain's closed forms",
    "lem:pihat_dev": "about the estimator's learned weights b^ (random rational rows), not about the closed forms",
    "lem:pihat_infty_norm": "about the estimator's learned weights b^ (random rational rows), not about the closed forms",
    "lem:Pi_identity": "quantified over random rational v; lem:Pi_kernel proves the identities it rests on",
    "claim:labels": "labels are not a closed form",
    "certified:enclosures": "a float cross-check of exactpte's own",
}
"""Checks of :data:`proofs_check.checks.CHECKS` with no symbolic form here, and why (estimator-side,
spectral and stability lemmas are reported the same way)."""


def symbolic_check(key: str, *uses: str) -> Callable[[Callable[[SymbolicContext, Finding], Outcome | None]], SymbolicCheck]:
    """Register ``func(ctx, finding)`` under ``key``: it records residuals and signs in ``finding``
    (or returns a :class:`NotApplicable`); ``uses`` names the claimed quantities it reads."""

    def deco(func: Callable[[SymbolicContext, Finding], Outcome | None]) -> SymbolicCheck:
        def run(ctx: SymbolicContext) -> Outcome:
            missing = [q for q in uses if getattr(ctx.claimed, q, None) is None]
            if missing:
                return NotApplicable(f"not claimed: {', '.join(missing)}")
            finding = Finding(uses=uses)
            out = func(ctx, finding)
            return out if isinstance(out, NotApplicable) else finding

        run.__doc__ = func.__doc__
        SYMBOLIC_CHECKS[key] = run
        return run

    return deco


@symbolic_check("thm:wellposed", "g_star", "v_star", "basis")
def _wellposed(ctx: SymbolicContext, f: Finding) -> None:
    """``r = g* + (I-P) v*``, ``v*(a) = 0``, ``Pi v* = v*`` and ``g* in K``: ``P^D g* = g*``; and the uniqueness
    the theorem states, derived (:func:`_uniqueness`)."""
    c = ctx.claimed
    f.equal("r - g* - (I-P)v*", ctx.r, [g + x for g, x in zip(c.g_star, ctx.I_minus_P(c.v_star))])
    f.zero("v* at the anchors", [c.v_star[a] for a in c.anchor_states])
    f.equal("Pi v* - v*", ctx.Pi(c.v_star), c.v_star)
    f.equal("P^D g* - g*", ctx.P_pow(c.g_star, ctx.D), c.g_star)
    _uniqueness(ctx, f)


def _uniqueness(ctx: SymbolicContext, f: Finding) -> None:
    """The pair is unique: ``K = span b`` (``P^D b_c = b_c``, ``b_c(a_{c'}) = delta``, ``dim ker(P^D - I) = N``, the
    closed classes of the ``D``-step support graph), so the unknowns are ``theta`` (``g* = sum theta_c b_c``) and ``v*``
    off the anchors, ``n`` of them for ``n`` equations ``sum theta_c b_c + (I - P) v = r``.  Ordered by class, then the
    transient states, the system is block lower triangular (a closed class's rows hold only its own unknowns): its
    determinant is the product of each class's gauge system's determinant (``theta_{i,k}`` and ``v`` off the anchors
    on ``F_i``; a minor certified nonzero on the region, :attr:`Finding.nonzero`) and ``det (I - Q)`` on the transient
    states, nonzero because every state of a finite chain reaches a closed class (``Q`` substochastic with spectral
    radius below 1; the support is fixed on the region)."""
    c = ctx.claimed
    kernel_is_span_b(ctx, f)  # K = span b: the claimed columns are a basis of ker(P^D - I)
    anchors = set(c.anchor_states)
    column = {(i, k): col for col, (i, k, _a) in enumerate(c.anchors)}
    for i, members in enumerate(c.classes):
        inside = set(members)
        unknowns = [("theta", column[(i, k)]) for k in range(c.periods[i])] + [("v", y) for y in members if y not in anchors]
        rows = []
        for s in members:
            step = {j: p for j, p in ctx.rows[s] if j in inside}
            rows.append([c.basis[s][x] if kind == "theta" else (int(s == x) - step.get(x, 0 * ctx.r[0]) if ctx.r else int(s == x))
                         for kind, x in unknowns])
        f.nonzero.append((f"det of class {i}'s gauge system (theta and v* off the anchors on F_{i})", determinant(rows)))
    f.notes.append("unique: K = span b (dim ker(P^D - I) = N), each class's gauge system nonsingular on the region, "
                   "I - Q nonsingular on the transient states (every state reaches a closed class)")


def determinant(rows: list[list[Any]]) -> Any:
    """The determinant of a square matrix of field elements (``fmpq`` or rational functions) by elimination,
    pivoting on the simplest nonzero entry of each column.

    >>> import flint
    >>> determinant([[flint.fmpq(1), flint.fmpq(2)], [flint.fmpq(3), flint.fmpq(4)]])
    -2
    """
    m = [[x.reduced() if isinstance(x, Unreduced) else x for x in row] for row in rows]  # the residuals' arithmetic has no division
    n = len(m)
    det: Any = 1
    for k in range(n):
        pivots = [r for r in range(k, n) if m[r][k] != 0]
        if not pivots:
            return 0 * det
        p = min(pivots, key=lambda r: len(str(m[r][k])))
        if p != k:
            m[k], m[p] = m[p], m[k]
            det = -det
        pivot = m[k][k]
        det = det * pivot
        for r in range(k + 1, n):
            if m[r][k] != 0:
                q = m[r][k] / pivot
                m[r] = [a - q * b if j >= k else a for j, (a, b) in enumerate(zip(m[r], m[k]))]
    return det


@symbolic_check("def:theta_star", "theta", "g_star", "basis")
def _theta(ctx: SymbolicContext, f: Finding) -> None:
    """``theta_c = g*(a_c)`` and ``g* = sum_c theta_c b_c``."""
    c = ctx.claimed
    f.equal("theta - g*(a)", list(c.theta), [c.g_star[a] for a in c.anchor_states])
    combo = [sum((t * row[k] for k, t in enumerate(c.theta)), 0 * c.g_star[0]) for row in c.basis]
    f.equal("sum theta b - g*", combo, c.g_star)


@symbolic_check("lem:shift_b", "basis")
def _shift(ctx: SymbolicContext, f: Finding) -> None:
    """``P b_{i,k} = b_{i,k-1 mod d_i}``."""
    column = {(i, k): col for col, (i, k, _a) in enumerate(ctx.claimed.anchors)}
    for col, (i, k, _a) in enumerate(ctx.claimed.anchors):
        prev = column.get((i, (k - 1) % ctx.claimed.periods[i]))
        if prev is None:
            f.residuals.append((f"b_({i},{k - 1}) missing", 1))
            continue
        f.equal(f"P b_({i},{k}) - b_({i},{k - 1})", ctx.P(ctx.col(col)), ctx.col(prev))


@symbolic_check("lem:main_b_identify", "basis")
def _identify(ctx: SymbolicContext, f: Finding) -> None:
    """``b_c(a_{c'}) = delta``, ``Pi b_c = 0`` and ``P^D b_c = b_c`` (so the ``N`` columns are independent
    and lie in ``K``, whose dimension :func:`_kernel` counts)."""
    for c in range(ctx.claimed.N):
        b = ctx.col(c)
        f.equal(f"b_{c}(a) - delta", [b[a] for a in ctx.claimed.anchor_states], [int(c == k) for k in range(ctx.claimed.N)])
        f.zero(f"Pi b_{c}", ctx.Pi(b))
        f.equal(f"P^D b_{c} - b_{c}", ctx.P_pow(b, ctx.D), b)


@symbolic_check("lem:kernel_equals_peripheral", "basis")
def _kernel(ctx: SymbolicContext, f: Finding) -> NotApplicable | None:
    """``span b = K = ker(P^D - I)`` (:func:`kernel_is_span_b`)."""
    kernel_is_span_b(ctx, f)
    return None


def kernel_is_span_b(ctx: SymbolicContext, f: Finding) -> None:
    """``span b = K = ker(P^D - I)``: each ``b_c`` is fixed by ``P^D``, the ``b_c`` are independent
    (``b_c(a_{c'}) = delta``) and ``dim ker(P^D - I)`` (the closed classes of the ``D``-step support
    graph: ``P^D`` is stochastic) equals ``N``."""
    steps = [set(s) for s in ctx.graph.succ]
    reach = [{s} for s in range(ctx.n)]
    for _ in range(ctx.D):
        reach = [set().union(*(steps[y] for y in rs)) for rs in reach]
    dim = len(SupportGraph([sorted(rs) for rs in reach]).closed_classes())
    if dim != ctx.claimed.N:
        f.residuals.append((f"dim ker(P^D - I) = {dim} but N = {ctx.claimed.N}", 1))
    for c in range(ctx.claimed.N):
        b = ctx.col(c)
        f.equal(f"P^D b_{c} - b_{c}", ctx.P_pow(b, ctx.D), b)
        f.equal(f"b_{c}(a) - delta", [b[a] for a in ctx.claimed.anchor_states], [int(c == k) for k in range(ctx.claimed.N)])


@symbolic_check("lem:Pi_kernel", "basis")
def _pi_kernel(ctx: SymbolicContext, f: Finding) -> None:
    """``Pi^2 = Pi`` and ``(Pi v)(a) = 0`` on every unit vector (both linear in ``v``), ``Pi b_c = 0``."""
    anchors = ctx.claimed.anchor_states
    for s in range(ctx.n):
        w = ctx.Pi(ctx.unit(s))
        f.equal(f"Pi^2 e_{s} - Pi e_{s}", ctx.Pi(w), w)
        f.zero(f"(Pi e_{s})(a)", [w[a] for a in anchors])
    for c in range(ctx.claimed.N):
        f.zero(f"Pi b_{c}", ctx.Pi(ctx.col(c)))


@symbolic_check("lem:W_norm_equiv", "basis")
def _w_cap_k(ctx: SymbolicContext, f: Finding) -> None:
    """``W cap K = {0}``: ``K = span b`` and ``b(a) = I`` (so ``sum x_c b_c`` vanishing at the anchors has ``x = 0``)."""
    for c in range(ctx.claimed.N):
        b = ctx.col(c)
        f.equal(f"b_{c}(a) - delta", [b[a] for a in ctx.claimed.anchor_states], [int(c == k) for k in range(ctx.claimed.N)])


@symbolic_check("lem:anchor_interpolation", "basis", "g_star")
def _interpolation(ctx: SymbolicContext, f: Finding) -> None:
    """Every ``g in K`` equals ``sum_c g(a_c) b_c``: on each basis column and on ``g*``."""
    for name, g in [(f"b_{c}", ctx.col(c)) for c in range(ctx.claimed.N)] + [("g*", list(ctx.claimed.g_star))]:
        f.zero(f"{name} - sum {name}(a) b", ctx.Pi(g))


@symbolic_check("lem:b_simplex", "basis")
def _simplex(ctx: SymbolicContext, f: Finding) -> None:
    """``sum_c b_c(s) = 1`` for every state, and ``b >= 0`` (signs)."""
    N = ctx.claimed.N
    f.equal("sum_c b_c - 1", [sum(row[1:N], row[0]) if N else 0 for row in ctx.claimed.basis], [1] * ctx.n)
    for s, row in enumerate(ctx.claimed.basis):
        for c, x in enumerate(row):
            f.signs.append((f"b_{c}({s}) >= 0", x, False))


@symbolic_check("claim:stationary", "stationary")
def _stationary(ctx: SymbolicContext, f: Finding) -> None:
    """``pi_i (I - P_{F_i}) = 0``, ``sum pi_i = 1`` and ``pi_i > 0`` (signs): the unique solution on an irreducible class."""
    for i, members in enumerate(ctx.claimed.classes):
        pi = dict(zip(members, ctx.claimed.stationary[i]))  # type: ignore[index]
        flow = {y: 0 * pi[members[0]] for y in members}
        for s in members:
            for j, p in ctx.rows[s]:
                if j not in flow:
                    f.residuals.append((f"class {i} is not closed: {s} -> {j}", 1))
                    continue
                flow[j] = flow[j] + pi[s] * p
        f.equal(f"pi_{i} P - pi_{i}", [flow[y] for y in members], [pi[y] for y in members])
        f.equal(f"sum pi_{i} - 1", [sum(list(pi.values())[1:], pi[members[0]])], [1])
        for y in members:
            f.signs.append((f"pi_{i}({y}) > 0", pi[y], True))


@symbolic_check("claim:absorption", "absorption")
def _absorption(ctx: SymbolicContext, f: Finding) -> None:
    """``alpha_i = 1`` on ``F_i``, ``0`` on the other classes, ``alpha_i(s) = sum_y P(s,y) alpha_i(y)`` on
    transient states (a nonsingular system), and ``alpha >= 0`` (signs)."""
    c = ctx.claimed
    assert c.absorption is not None
    where = {s: i for i, members in enumerate(c.classes) for s in members}
    for i in range(len(c.classes)):
        alpha = [row[i] for row in c.absorption]
        f.equal(f"alpha_{i} on classes", [alpha[s] for s in where], [int(where[s] == i) for s in where])
        step = ctx.P(alpha)
        transient = [s for s in range(ctx.n) if s not in where]
        f.equal(f"P alpha_{i} - alpha_{i} on transient states", [step[s] for s in transient], [alpha[s] for s in transient])
        for s in transient:
            f.signs.append((f"alpha_{i}({s}) >= 0", alpha[s], False))


@symbolic_check("P_inf", "P_inf", "absorption", "stationary")
def _p_inf(ctx: SymbolicContext, f: Finding) -> None:
    """The claimed ``P_inf`` is ``sum_i alpha_i pi_i^T`` entry by entry (``alpha``, ``pi`` proved by their own
    defining equations in ``claim:absorption`` and ``claim:stationary``)."""
    rows = ctx.claimed.P_inf
    assert rows is not None
    columns = ctx.P_inf_columns
    for s in range(ctx.n):
        f.equal(f"P_inf row {s} - sum alpha pi", list(rows[s]), [columns[y][s] for y in range(ctx.n)])


@symbolic_check("claim:class_gain", "class_gain", "stationary")
def _class_gain(ctx: SymbolicContext, f: Finding) -> None:
    """``gamma_i = pi_i . r``."""
    c = ctx.claimed
    gains = [sum((p * ctx.r[y] for y, p in zip(members, c.stationary[i])), 0 * ctx.r[0])  # type: ignore[index]
             for i, members in enumerate(c.classes)]
    f.equal("gamma - pi . r", list(c.class_gain or ()), gains)


@symbolic_check("claim:rho", "rho", "absorption", "stationary")
def _rho(ctx: SymbolicContext, f: Finding) -> None:
    """``rho = P_inf r``."""
    f.equal("rho - P_inf r", list(ctx.claimed.rho or ()), ctx.P_inf(ctx.r))


@symbolic_check("claim:h", "h", "rho", "absorption", "stationary")
def _h(ctx: SymbolicContext, f: Finding) -> None:
    """``r = rho + (I-P) h`` and ``P_inf h = 0``."""
    c = ctx.claimed
    assert c.h is not None and c.rho is not None
    f.equal("r - rho - (I-P)h", ctx.r, [a + b for a, b in zip(c.rho, ctx.I_minus_P(c.h))])
    f.zero("P_inf h", ctx.P_inf(c.h))


@symbolic_check("claim:psi", "psi", "rho", "g_star", "absorption", "stationary")
def _psi(ctx: SymbolicContext, f: Finding) -> None:
    """``g* = rho + (I-P) psi``, ``psi in K`` (``P^D psi = psi``) and ``P_inf psi = 0``."""
    c = ctx.claimed
    assert c.psi is not None and c.rho is not None
    f.equal("g* - rho - (I-P)psi", list(c.g_star), [a + b for a, b in zip(c.rho, ctx.I_minus_P(c.psi))])
    f.equal("P^D psi - psi", ctx.P_pow(c.psi, ctx.D), c.psi)
    f.zero("P_inf psi", ctx.P_inf(c.psi))


@symbolic_check("cor:recover_invariant_gain", "g_star", "absorption", "stationary")
def _recover(ctx: SymbolicContext, f: Finding) -> None:
    """``P_inf g* = P_inf r``."""
    f.equal("P_inf g* - P_inf r", ctx.P_inf(ctx.claimed.g_star), ctx.P_inf(ctx.r))


@symbolic_check("thm:comparison_gain_bias", "g_star", "v_star", "rho", "h", "psi", "absorption", "stationary")
def _comparison(ctx: SymbolicContext, f: Finding) -> None:
    """``P_inf g* = rho``; ``g* = rho + (I-P) psi`` with ``psi in K cap ker P_inf``; ``h = v* + psi - P_inf v*``."""
    c = ctx.claimed
    assert c.rho is not None and c.psi is not None and c.h is not None
    f.equal("P_inf g* - rho", ctx.P_inf(c.g_star), c.rho)
    f.equal("g* - rho - (I-P)psi", list(c.g_star), [a + b for a, b in zip(c.rho, ctx.I_minus_P(c.psi))])
    f.equal("P^D psi - psi", ctx.P_pow(c.psi, ctx.D), c.psi)
    f.zero("P_inf psi", ctx.P_inf(c.psi))
    f.equal("h - (v* + psi - P_inf v*)", list(c.h), [v + p - q for v, p, q in zip(c.v_star, c.psi, ctx.P_inf(c.v_star))])


@symbolic_check("cor:projected_bias", "h", "v_star", "g_star", "rho", "basis")
def _projected(ctx: SymbolicContext, f: Finding) -> None:
    """``Pi h = v*`` and ``g* = rho + (I-P)(I-Pi) h``."""
    c = ctx.claimed
    assert c.h is not None and c.rho is not None
    Pih = ctx.Pi(c.h)
    f.equal("Pi h - v*", Pih, c.v_star)
    f.equal("g* - rho - (I-P)(I-Pi)h", list(c.g_star), [a + b for a, b in zip(c.rho, ctx.I_minus_P([x - y for x, y in zip(c.h, Pih)]))])


@symbolic_check("prop:aperiodic_reduction", "g_star", "v_star", "rho", "h")
def _aperiodic(ctx: SymbolicContext, f: Finding) -> NotApplicable | None:
    """On an aperiodic chain: ``g* = rho`` and ``v* - h in ker(I-P)``; ``dim K`` = number of classes."""
    c = ctx.claimed
    if any(d != 1 for d in c.periods):
        return NotApplicable("a class is periodic")
    assert c.rho is not None and c.h is not None
    f.equal("g* - rho", list(c.g_star), c.rho)
    f.zero("(I-P)(v* - h)", ctx.I_minus_P([a - b for a, b in zip(c.v_star, c.h)]))
    if c.N != len(c.classes):
        f.residuals.append((f"N = {c.N} but {len(c.classes)} classes", 1))
    return None


@symbolic_check("lem:invariant_constant_on_class", "absorption")
def _invariant(ctx: SymbolicContext, f: Finding) -> None:
    """``ker(I-P)`` is spanned by the ``alpha_i`` (its dimension is the number of closed classes, a
    theorem on stochastic matrices; the ``alpha_i`` are independent, one per class): each is
    ``P``-invariant and constant on every closed class."""
    c = ctx.claimed
    assert c.absorption is not None
    if len(ctx.graph.closed_classes()) != len(c.classes):
        f.residuals.append(("number of closed classes differs from the claim's", 1))
    for i in range(len(c.classes)):
        alpha = [row[i] for row in c.absorption]
        f.zero(f"(I-P) alpha_{i}", ctx.I_minus_P(alpha))
        for j, members in enumerate(c.classes):
            f.zero(f"alpha_{i} - alpha_{i}({members[0]}) on class {j}", [alpha[s] - alpha[members[0]] for s in members])


@symbolic_check("lem:app_telescoping", "g_star")
def _telescoping(ctx: SymbolicContext, f: Finding) -> None:
    """``J_T = sum_{t<T} P^t g_v + v - P^T v``, ``g_v = r - (I-P) v``, on every unit vector ``v`` (the
    identity is affine in ``v``; with ``v = 0`` too) and ``T`` in ``{1, 2, D + 1}``."""
    horizons = sorted({1, 2, ctx.D + 1})
    zero = [0 * x for x in ctx.r]
    for v in [zero] + [ctx.unit(s) for s in range(ctx.n)]:
        g_v = [a - b for a, b in zip(ctx.r, ctx.I_minus_P(v))]
        J, S, x, y, t = list(zero), list(zero), list(ctx.r), list(g_v), 0
        Pv = list(v)
        for T in horizons:
            while t < T:
                J = [a + b for a, b in zip(J, x)]
                S = [a + b for a, b in zip(S, y)]
                x, y, Pv, t = ctx.P(x), ctx.P(y), ctx.P(Pv), t + 1
            f.equal(f"J_{T} - telescoped sum", J, [a + b - c for a, b, c in zip(S, v, Pv)])


@symbolic_check("prop:app_vstar_transient_cost", "v_star", "g_star")
def _transient_cost(ctx: SymbolicContext, f: Finding) -> None:
    """``v*`` solves ``x(a) = 0`` on the anchors and ``x = (r - g*) + P x`` elsewhere, whose solution is
    ``E_s[sum_{t < tau_A} (r - g*)(X_t)]`` (unique: every closed class holds an anchor, so ``A`` is hit
    almost surely)."""
    c = ctx.claimed
    anchors = set(c.anchor_states)
    step = ctx.P(c.v_star)
    rest = [s for s in range(ctx.n) if s not in anchors]
    f.zero("v* on A", [c.v_star[a] for a in sorted(anchors)])
    f.equal("v* - (r - g*) - P v* off A", [c.v_star[s] for s in rest], [ctx.r[s] - c.g_star[s] + step[s] for s in rest])


@symbolic_check("lem:recurrent_decomp", "absorption", "stationary")
def _recurrent(ctx: SymbolicContext, f: Finding) -> None:
    """Closed SCCs are the recurrent classes: ``P_inf(y, y) = pi(y) > 0`` on them and ``P_inf`` has a
    zero column at every transient state."""
    closed = {s for members in ctx.graph.closed_classes() for s in members}
    columns = ctx.P_inf_columns
    for y in range(ctx.n):
        if y in closed:
            f.signs.append((f"P_inf({y},{y}) > 0", columns[y][y], True))
        else:
            f.zero(f"P_inf column {y}", columns[y])


@symbolic_check("prop:deterministic_cycle", "g_star", "v_star", "basis")
def _cycle(ctx: SymbolicContext, f: Finding) -> NotApplicable | None:
    """On a deterministic ``d``-cycle: ``N = d``, ``Pi = 0``, ``v* = 0``, ``g* = r``."""
    succ = ctx.graph.succ
    if not all(len(s) == 1 for s in succ) or len(ctx.graph.closed_classes()) != 1 or ctx.claimed.transient:
        return NotApplicable("not a deterministic cycle")
    c = ctx.claimed
    if c.N != ctx.n:
        f.residuals.append((f"N = {c.N}, expected {ctx.n}", 1))
    f.zero("v*", list(c.v_star))
    f.equal("g* - r", list(c.g_star), ctx.r)
    for s in range(ctx.n):
        f.zero(f"Pi e_{s}", ctx.Pi(ctx.unit(s)))
    return None


@symbolic_check("claim:hitting_times", "hitting_times")
def _hitting_times(ctx: SymbolicContext, f: Finding) -> None:
    """``t(a) = 0`` at the anchors and ``t(s) = 1 + sum_y P(s, y) t(y)`` elsewhere: the expected hitting time of the
    anchor set, the unique solution (every closed class holds an anchor, so the anchor set is hit almost surely)."""
    c = ctx.claimed
    t = list(c.hitting_times or ())
    if len(t) != ctx.n:
        f.residuals.append((f"hitting_times has {len(t)} entries, expected {ctx.n}", 1))
        return
    anchors = set(c.anchor_states)
    step = ctx.P(t)
    f.zero("t at the anchors", [t[a] for a in sorted(anchors)])
    rest = [s for s in range(ctx.n) if s not in anchors]
    f.equal("t - 1 - P t off the anchors", [t[s] for s in rest], [1 + step[s] for s in rest])
