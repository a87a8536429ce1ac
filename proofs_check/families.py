"""Proofs for whole families: the symbolic checks on every stratum of a parametric chain.

A parametric chain's decomposition on a stratum (:func:`exactpte.stratify`) is a list of rational
functions of the stratum's free parameters.  A symbolic check (:mod:`proofs_check.symbolic_checks`)
reduces each identity to residuals over ``QQ(params)``; a residual that is the zero rational
function vanishes at every point of the stratum where the closed forms are defined, so the identity
is **proved** for every chain of the stratum once each irreducible factor of a denominator involved
is certified nonzero on the region (:meth:`Region.nonzero_certificate`).  Inequalities are decided
exactly where a certificate exists (:meth:`Region.sign`: one parameter by Sturm sequences, a
polynomial whose coefficients have one sign in parameters positive on the region, or the positive
chart of a weight parametrisation), otherwise checked at stated rational points (strength
``witnesses``).  An identity that fails as rational functions is refuted at a rational point of the
region, where the rational check of :mod:`proofs_check.checks` fails too.

Examples
--------
>>> import exactpte
>>> m = exactpte.ParametricChain([["1-p", "p"], ["q", "1-q"]], ["a", "b"], params=["p", "q", "a", "b"])
>>> verdicts = check_family(m)
>>> sum(v.strength == "proved" and v.holds is True for v in verdicts) >= 10
True
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import TYPE_CHECKING, Any

import flint

import exactpte
from exactpte import Chain, MarkovRewardProcess
from exactpte.fields import RationalFunction, RationalFunctionField
from exactpte.fields.region import has_valid_point, vanishes_in_region

from .claimed import Claimed, from_decomposition
from .registry import CHECKS, NotApplicable, Verdict, run_checks
from .strength import Strength
from .symbolic_checks import NOT_PROVABLE, SYMBOLIC_CHECKS, Finding, SymbolicContext

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["FamilyVerdict", "Region", "check_family", "check_stratum", "prove", "evaluate_claim", "counterexample_point",
           "STRUCTURE_KEYS", "SAMPLES"]

STRUCTURE_KEYS = tuple(k for k in CHECKS if k.startswith("structure:"))
"""The structure checks: they read only the support graph, which is fixed on a stratum."""

SAMPLES = 24
"""How many rational points of the region an inequality without a certificate is checked at."""


@dataclass
class FamilyVerdict(Verdict):
    """A verdict on one stratum of a family: the :class:`~proofs_check.registry.Verdict` fields, the
    stratum's index and conditions, and the strength of the evidence (:class:`~proofs_check.strength.Strength`)."""

    strength: Strength = Strength.PROVED
    stratum: int = 0
    where: tuple[str, ...] = ()
    counterexample: dict[str, str] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The verdict as a JSON-ready dict, with ``strength``, ``stratum``, ``where`` and any ``counterexample`` point."""
        out = super().to_dict()
        out.update(stratum=self.stratum, where=list(self.where))
        if self.counterexample is not None:
            out["counterexample"] = self.counterexample
        return out


@dataclass
class Region:
    """Where a family's closed forms hold: every non-constant support entry ``> 0`` and no inequation
    (a polynomial of the field's ring) zero.  ``rows``: optional groups of parameters ``x`` of a
    weight chart, each row's entries ``x_k`` and ``1 - sum x_k`` (the exhaustive graphs), so the region
    is the image of ``w > 0`` under ``x_k = w_k / (1 + sum w)``."""

    field: RationalFunctionField
    entries: list[Any]
    inequations: list[Any] = dataclass_field(default_factory=list)
    rows: list[list[int]] | None = None
    where: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        F: Any = self.field
        gens = [F.variable(p) for p in F.params]
        self.positive = {k for k, g in enumerate(gens) if any(e == g for e in self.entries)}
        in_rows = {k for row in self.rows or [] for k in row}
        self.positive |= in_rows
        self.boxes = {k: box for k, box in self._boxes().items() if k not in in_rows}
        self._neq_factors = [g for f in self.inequations for g in self.field.irreducible_factors(f)]

    def _boxes(self) -> dict[int, tuple[flint.fmpq | None, flint.fmpq | None]]:
        """Bounds ``lo < x_k < hi`` the region implies through entries linear in one parameter (``p``, ``1 - p``)."""
        lo: dict[int, flint.fmpq] = {}
        hi: dict[int, flint.fmpq] = {}
        for e in self.entries:
            if not e.den.is_constant() or e.num.total_degree() != 1:
                continue
            used = [k for k, d in enumerate(e.num.degrees()) if d]
            if len(used) != 1:
                continue
            k, terms = used[0], e.num.to_dict()
            c1 = flint.fmpq(int(next(c for exps, c in terms.items() if exps[k] == 1)))
            c0 = flint.fmpq(int(terms.get(tuple(0 for _ in e.num.degrees()), 0)))
            bound = -c0 / c1  # c1 x + c0 > 0 (the denominator is a positive constant)
            if c1 > 0:
                lo[k] = max(lo[k], bound) if k in lo else bound
            else:
                hi[k] = min(hi[k], bound) if k in hi else bound
        return {k: (lo.get(k), hi.get(k)) for k in set(lo) | set(hi)}

    def _charted(self, g: Any) -> Any:
        """``g`` in chart coordinates that are positive exactly on the region's coordinates: each row of a weight
        chart ``x_k = w_k / (1 + sum w)`` and each bounded parameter ``x = (lo + hi t)/(1 + t)`` (``lo + t``,
        ``hi - t`` on a half-line), cleared of the chart's positive denominators; a polynomial over ``QQ``."""
        if not self.rows and not self.boxes:
            return g
        ctx = self.field.qctx
        gens = ctx.gens()
        one = ctx.constant(1)
        rows = self.rows or []
        sums = [one + sum((gens[k] for k in row), ctx.constant(0)) for row in rows]
        terms = g.to_dict()
        top = [max((sum(e[k] for k in row) for e in terms), default=0) for row in rows]
        out = ctx.constant(0)
        for exps, c in terms.items():
            term = ctx.constant(int(c))
            for i, row in enumerate(rows):
                term *= ctx.from_dict({tuple(exps[k] if k in row else 0 for k in range(len(exps))): 1}) * \
                    sums[i] ** (top[i] - sum(exps[k] for k in row))
            free = [k for k in range(len(exps)) if k not in self.boxes and all(k not in row for row in rows)]
            term *= ctx.from_dict({tuple(exps[k] if k in free else 0 for k in range(len(exps))): 1})
            for k, (lo, hi) in self.boxes.items():
                t, e, D = gens[k], exps[k], g.degrees()[k]
                if lo is not None and hi is not None:
                    term *= (lo + hi * t) ** e * (one + t) ** (D - e)
                elif lo is not None:
                    term *= (lo + t) ** e
                else:
                    assert hi is not None  # a box has at least one bound
                    term *= (hi - t) ** e
            out += term
        return out

    def _one_sign(self, g: Any) -> int:
        """``1`` or ``-1`` when ``g`` (charted) has coefficients of one sign and only positive parameters, else ``0``."""
        if g.is_constant():
            c = g.leading_coefficient() if not g.is_zero() else 0
            return (c > 0) - (c < 0)
        h = self._charted(g)
        used = [k for k, d in enumerate(h.degrees()) if d]
        if any(k not in self.positive and k not in self.boxes for k in used):
            return 0
        coeffs = list(h.coeffs())
        return 1 if all(c > 0 for c in coeffs) else -1 if all(c < 0 for c in coeffs) else 0

    def nonzero_certificate(self, g: Any) -> str | None:
        """Why the irreducible polynomial ``g`` has no zero on the region, or ``None`` when no certificate is found."""
        if g.is_constant():
            return "a nonzero constant"
        if g in self._neq_factors or -g in self._neq_factors:
            return "a condition of the stratum"
        if self._one_sign(g):
            return "coefficients of one sign in parameters positive on the region" + \
                (" (weight chart)" if self.rows else " (interval chart)" if self.boxes else "")
        if len(self.field.params) == 1 and vanishes_in_region(self.field, self.entries, g) is False:
            return "no real root in the region (Sturm sequences)"
        return None

    def sign(self, value: Any, strict: bool) -> bool | None:
        """Whether ``value >= 0`` (``> 0`` when ``strict``) on the whole region, decided exactly; ``None``
        when no certificate decides it (then it is sampled)."""
        if value == 0:
            return not strict
        sn, sd = self._one_sign(value.num), self._one_sign(value.den)
        if sn and sd:
            return sn * sd > 0
        if len(self.field.params) == 1:
            negative_somewhere = has_valid_point(self.field, [*self.entries, -value], self.inequations)
            if negative_somewhere:
                return False
            return True if not strict else (vanishes_in_region(self.field, self.entries, value.num) is False or None)
        return None

    def points(self, count: int, *, seed: int = 0) -> list[list[flint.fmpq]]:
        """Up to ``count`` distinct rational points of the region (:meth:`iter_points`)."""
        return list(itertools.islice(self.iter_points(seed=seed, attempts=50 * count), count))

    def iter_points(self, *, seed: int = 0, attempts: int = 2000) -> Iterator[list[flint.fmpq]]:
        """Distinct rational points of the region, drawn from ``seed``: weights through the chart, other
        parameters small random rationals, each kept when every entry is positive and no inequation vanishes."""
        rng = random.Random(f"region:{seed}")
        seen: list[list[flint.fmpq]] = []
        m = len(self.field.params)
        for _attempt in range(attempts):
            point = [flint.fmpq(rng.randint(-6, 6), rng.randint(1, 7)) for _ in range(m)]
            if self.rows:
                for row in self.rows:
                    w = [flint.fmpq(rng.randint(1, 9), rng.randint(1, 5)) for _ in row]
                    total = 1 + sum(w, flint.fmpq(0))
                    for k, wk in zip(row, w):
                        point[k] = wk / total
            if point not in seen and self.contains(point):
                seen.append(point)
                yield point

    def contains(self, point: Sequence[flint.fmpq]) -> bool:
        """Whether every entry is positive and no inequation vanishes at ``point``."""
        F = self.field
        try:
            return all(F.evaluate(e, list(point)) > 0 for e in self.entries) and \
                all(F._eval_poly(f, list(point)) != 0 for f in self.inequations)
        except ZeroDivisionError:
            return False


def _values(claimed: Claimed, uses: Sequence[str]) -> list[Any]:
    """Every field element of the claimed quantities ``uses`` (nested rows flattened)."""
    out: list[Any] = []
    for name in uses:
        x = getattr(claimed, name, None)
        stack = [x] if x is not None else []
        while stack:
            y = stack.pop()
            if isinstance(y, (tuple, list)):
                stack.extend(y)
            else:
                out.append(y)
    return out


class Denominators:
    """Certificates that the denominators of a claim's closed forms do not vanish on a region, computed
    once per irreducible factor (a graph's quantities share their denominators)."""

    def __init__(self, region: Region, chain: Chain, claimed: Claimed) -> None:
        self.region, self.claimed = region, claimed
        self._factors: dict[str, list[Any]] = {}
        self._certificates: dict[str, str | None] = {}
        self._by_quantity: dict[str, list[str]] = {}
        self.chain_bad = self._bad([*(e for _i, _j, e in chain.edges()), *chain.r])

    def _bad(self, values: Sequence[Any]) -> list[str]:
        F = self.region.field
        bad: list[str] = []
        for x in values:
            if not isinstance(x, RationalFunction) or x.den.is_constant():
                continue
            key = str(x.den)
            if key not in self._factors:
                self._factors[key] = F.irreducible_factors(x.den)
            for g in self._factors[key]:
                gk = str(g)
                if gk not in self._certificates:
                    self._certificates[gk] = self.region.nonzero_certificate(g)
                if self._certificates[gk] is None:
                    text = F.poly_text(g)
                    if text not in bad:
                        bad.append(text)
        return bad

    def uncertified(self, uses: Sequence[str]) -> list[str]:
        """The uncertified irreducible denominator factors of the quantities ``uses`` and of the chain's entries."""
        out = list(self.chain_bad)
        for name in uses:
            if name not in self._by_quantity:
                self._by_quantity[name] = self._bad(_values(self.claimed, [name]))
            out += [t for t in self._by_quantity[name] if t not in out]
        return out


def prove(chain: Chain, claimed: Claimed, region: Region | None, *, only: Sequence[str] | None = None,
          seed: int = 0, samples: int = SAMPLES, stratum: int = 0, one_chain_stratum: bool = False) -> list[FamilyVerdict]:
    """Every symbolic check (or ``only``) on one family: ``chain`` over ``QQ(params)`` (or ``QQ``: then each
    verdict is ``exact``, or ``proved`` with ``one_chain_stratum``: a stratum that holds one chain is decided
    whole), ``claimed`` its closed forms, ``region`` where they are claimed to hold.

    A check is ``proved`` when every residual is zero, every sign is decided on the region and every
    denominator factor has a certificate; ``witnesses`` when a sign was only sampled (at ``samples``
    stated points); failed with a rational counterexample point when a residual is not zero or a
    sampled sign fails.  Checks with no symbolic form are reported not applicable, with the reason
    (:data:`~proofs_check.symbolic_checks.NOT_PROVABLE`).
    """
    ctx = SymbolicContext(chain, claimed)
    keys = list(only) if only else list(dict.fromkeys([*STRUCTURE_KEYS, *SYMBOLIC_CHECKS, *CHECKS]))
    where = region.where if region is not None else ()
    exact = region is None
    base = Strength.EXACT if exact and not one_chain_stratum else Strength.PROVED
    cache = Denominators(region, chain, claimed) if region is not None else None
    out: list[FamilyVerdict] = []
    structure = [k for k in keys if k in STRUCTURE_KEYS]
    for v in run_checks(chain, claimed, only=structure) if structure else []:  # type: ignore[arg-type]  # any field: the support graph only
        out.append(FamilyVerdict(v.key, v.statement, v.holds, v.detail, v.seconds, v.kind, strength=base, stratum=stratum, where=where))
    for key in keys:
        if key in STRUCTURE_KEYS:
            continue
        statement = CHECKS[key].statement if key in CHECKS else key
        if key not in SYMBOLIC_CHECKS:
            reason = NOT_PROVABLE.get(key, "a statement about the estimator or its stability, not an identity of the closed forms")
            out.append(FamilyVerdict(key, statement, None, f"not provable symbolically: {reason}", 0.0, "exact",
                                     strength=Strength.EXACT, stratum=stratum, where=where))
            continue
        verdict = _one(key, statement, ctx, region, cache, seed=seed, samples=samples, base=base)
        verdict.stratum, verdict.where = stratum, where
        out.append(verdict)
    return out


def _one(key: str, statement: str, ctx: SymbolicContext, region: Region | None, cache: Denominators | None, *,
         seed: int, samples: int, base: Strength) -> FamilyVerdict:
    import time

    t0 = time.perf_counter()
    try:
        found = SYMBOLIC_CHECKS[key](ctx)
    except (IndexError, KeyError, ValueError, ZeroDivisionError, TypeError) as e:
        return FamilyVerdict(key, statement, False, f"check could not be evaluated on this claim ({type(e).__name__}: {e})",
                             time.perf_counter() - t0, strength=base)
    if isinstance(found, NotApplicable):
        return FamilyVerdict(key, statement, None, found.reason, time.perf_counter() - t0, strength=Strength.EXACT)
    verdict = _judge(key, statement, ctx, found, region, cache, seed=seed, samples=samples, base=base)
    verdict.seconds = time.perf_counter() - t0
    return verdict


def _judge(key: str, statement: str, ctx: SymbolicContext, found: Finding, region: Region | None,
           cache: Denominators | None, *, seed: int, samples: int, base: Strength) -> FamilyVerdict:
    """A finding as a verdict: residuals refute (with a point), signs are decided or sampled, denominators certified."""
    if found.residuals:
        what, value = found.residuals[0]
        point = counterexample_point(region, [value], seed=seed) if region is not None else None
        detail = f"{what} is {value}, not 0" + (f" ({len(found.residuals)} such entries)" if len(found.residuals) > 1 else "")
        return FamilyVerdict(key, statement, False, detail, strength=Strength.EXACT, counterexample=_named(region, point))
    sampled: list[tuple[str, Any, bool]] = []
    for what, value, strict in found.signs:
        decided = _sign(value, strict, region)
        if decided is False:
            point = counterexample_point(region, [value], seed=seed, sign=strict) if region is not None else None
            return FamilyVerdict(key, statement, False, f"{what} fails", strength=Strength.EXACT,
                                 counterexample=_named(region, point))
        if decided is None:
            sampled.append((what, value, strict))
    if sampled:
        assert region is not None
        points = region.points(samples, seed=seed)
        for what, value, strict in sampled:
            for point in points:
                x = region.field.evaluate(value, point)
                if x < 0 or (strict and x == 0):
                    return FamilyVerdict(key, statement, False, f"{what} fails", strength=Strength.WITNESSES,
                                         counterexample=_named(region, point))
        return FamilyVerdict(key, statement, True, f"identities proved; {len(sampled)} inequalit(ies) held at {len(points)} "
                             f"rational points of the region (no exact certificate), e.g. {sampled[0][0]}",
                             strength=Strength.WITNESSES)
    if cache is not None:
        bad = cache.uncertified(found.uses)
        if bad:
            return FamilyVerdict(key, statement, True, "holds as an identity of rational functions; denominator factor(s) "
                                 f"{', '.join(bad[:3])} not certified nonzero on the region", strength=Strength.EXACT)
    return FamilyVerdict(key, statement, True, "", strength=base)


def _sign(value: Any, strict: bool, region: Region | None) -> bool | None:
    if region is None or not isinstance(value, RationalFunction):
        return bool(value > 0 if strict else value >= 0)
    return region.sign(value, strict)


def _named(region: Region | None, point: Sequence[flint.fmpq] | None) -> dict[str, str] | None:
    if region is None or point is None:
        return None
    return {p: str(x) for p, x in zip(region.field.params, point)}


def counterexample_point(region: Region | None, values: Sequence[Any], *, seed: int = 0, sign: bool | None = None,
                         tries: int = 400) -> list[flint.fmpq] | None:
    """A rational point of ``region`` where the first of ``values`` is nonzero (``sign=None``), negative
    (``sign=False``) or not positive (``sign=True``), every value defined; ``None`` when none is found."""
    if region is None:
        return None
    F = region.field
    for point in region.iter_points(seed=seed, attempts=50 * tries):
        try:
            x = [F.evaluate(v, point) for v in values][0]
        except ZeroDivisionError:
            continue
        if (sign is None and x != 0) or (sign is False and x < 0) or (sign is True and x <= 0):
            return point
    return None


def evaluate_claim(claimed: Claimed, field: RationalFunctionField, point: Sequence[flint.fmpq]) -> Claimed:
    """The claim's closed forms at a rational point (structure kept), for the rational checks."""

    def at(x: Any) -> Any:
        if isinstance(x, (tuple, list)):
            return tuple(at(y) for y in x)
        return field.evaluate(x, list(point)) if isinstance(x, RationalFunction) else x

    changes = {name: at(getattr(claimed, name)) for name in ("basis", "theta", "g_star", "v_star", "rho", "h", "psi",
                                                             "stationary", "class_gain", "absorption")
               if getattr(claimed, name) is not None}
    return claimed.replace(**changes)


def region_of(stratum: Any, chain: Chain) -> Region | None:
    """The region of one stratum in its own parameters (``None`` for a stratum that is a single chain)."""
    F = chain.field
    if not isinstance(F, RationalFunctionField) or not F.params:
        return None
    entries = list(dict.fromkeys(e for _i, _j, e in chain.edges() if not e.is_constant()))
    neqs = [F.convert(c.text, "a stratum's condition").num for c in stratum.inequations]
    return Region(F, entries, neqs, where=tuple(stratum.where))


def check_stratum(index: int, stratum: Any, *, only: Sequence[str] | None = None, seed: int = 0) -> list[FamilyVerdict]:
    """The symbolic checks on one stratum of :func:`exactpte.stratify` (a pointwise stratum: none)."""
    if stratum.decomposition is None:
        return [FamilyVerdict("stratum", "closed forms on the stratum", None,
                              "pointwise stratum (no rational elimination): checked at points only", strength=Strength.EXACT,
                              stratum=index, where=tuple(stratum.where))]
    chain = stratum.chain
    claimed = from_decomposition(stratum.decomposition, with_P_inf=False, with_hitting_times=False)
    region = region_of(stratum, chain)
    verdicts = prove(chain, claimed, region, only=only, seed=seed, stratum=index, one_chain_stratum=region is None)
    for v in verdicts:  # a stratum that is one chain has no region: name its point ("p = 0, q = 0"), not "a single chain"
        v.where = v.where or tuple(stratum.where)
    return verdicts


def check_family(chain: ParametricChain, *, only: Sequence[str] | None = None, seed: int = 0) -> list[FamilyVerdict]:
    """Every symbolic check on every stratum of a parametric chain (:func:`exactpte.stratify`)."""
    strat = exactpte.stratify(chain)
    return [v for k, s in enumerate(strat.strata) for v in check_stratum(k, s, only=only, seed=seed)]


def rational_failure(chain: ParametricChain, claimed: Claimed, point: Sequence[flint.fmpq],
                     key: str) -> tuple[MarkovRewardProcess, list[Verdict]]:
    """The rational chain at ``point`` and the rational checks (``key`` and every check of the paper that
    reads the claim) of the claim evaluated there: a counterexample confirmed at the rational level."""
    values: Mapping[str, Any] = {p: x for p, x in zip(chain.params, point)}
    rational = chain.at(values)
    at_point = evaluate_claim(claimed, chain.field, point)
    verdicts = run_checks(rational, at_point, only=[key]) if key in CHECKS else []
    if not any(v.holds is False for v in verdicts):  # the same statement is judged by another rational check there
        verdicts = run_checks(rational, at_point, only=[k for k in CHECKS if CHECKS[k].kind == "exact"])
    return rational, verdicts


QUANTITIES = ("basis", "theta", "g_star", "v_star", "rho", "h", "psi", "stationary", "class_gain", "absorption")
"""The claim's closed forms the symbolic checks read (``P_inf`` and ``hitting_times`` are not read)."""


def _deep(x: Any, leaf: Callable[[Any, str], Any], where: str) -> Any:
    if isinstance(x, list):
        return tuple(_deep(y, leaf, f"{where}[{k}]") for k, y in enumerate(x))
    return leaf(x, where)


def _claim_entry() -> Any:
    """The bounds on a parametric claim's entry (untrusted text): a chain entry's (10,000 characters, 2,000 terms,
    20,000-bit coefficients), with an answer's exponent (``p**70`` on a path of 72 states; a power past the other
    bounds is refused while it is formed).  ``RESULT_ENTRY`` whole (200,000 terms, 50 million characters) let a
    2 KB entry, a sum of 120 fractions in three parameters, take 16 s and 1.1 GB before it was refused."""
    import dataclasses

    from exactpte.fields.expressions import CHAIN_ENTRY, RESULT_ENTRY

    return dataclasses.replace(CHAIN_ENTRY, exponent=RESULT_ENTRY.exponent)


def parametric_claim(data: Mapping[str, Any], chain: ParametricChain) -> Claimed:
    """A claimed decomposition in the JSON contract whose numbers are closed forms in the chain's parameters
    (expression strings as ``exactpte decompose --json`` writes them), each read by exactpte's expression
    parser (never evaluated).  The structure keys are read and checked by
    :func:`~proofs_check.claimed.from_json_dict`; a claim without ``absorption`` on a chain without
    transient states gets the one it implies (1 on its own class)."""
    from exactpte.errors import ChainFileError, ExactpteError
    from exactpte.fields.expressions import parse_expression

    from .claimed import from_json_dict

    CLAIM_ENTRY = _claim_entry()
    if not isinstance(data, Mapping):
        raise ChainFileError("a result is a JSON object (the contract of 'exactpte decompose --json')")
    F = chain.field
    shaped = {k: (_deep(v, lambda _x, _w: "0", k) if k in QUANTITIES and isinstance(v, list) else v) for k, v in data.items()}
    shaped = {k: (_lists(v) if isinstance(v, tuple) else v) for k, v in shaped.items()}
    shaped.pop("P_inf", None)
    shaped.pop("hitting_times", None)
    skeleton = from_json_dict(dict(shaped), chain.n)

    def leaf(x: Any, where: str) -> Any:
        if isinstance(x, bool) or not isinstance(x, (str, int)):
            raise ChainFileError(f"result {where} must be a number or an expression string, got {x!r:.40}")
        try:  # a chain entry's bounds on the work (length, terms, bits), an answer's on the exponent (p**70 on a path)
            return parse_expression(x, F, f"result {where}", limits=CLAIM_ENTRY) if isinstance(x, str) else F.convert(x, f"result {where}")
        except ExactpteError as e:
            raise ChainFileError(str(e)) from None

    values = {k: _deep(data[k], leaf, k) for k in QUANTITIES if isinstance(data.get(k), list) and getattr(skeleton, k) is not None}
    claimed = skeleton.replace(**values)
    P_inf = data.get("P_inf")
    if claimed.absorption is None and isinstance(P_inf, list) and len(P_inf) == chain.n and \
            all(isinstance(row, list) and len(row) == chain.n for row in P_inf):
        # exactpte's JSON states P_inf, not the absorption probabilities: alpha_i(s) = sum_{y in F_i} P_inf(s, y)
        # (pi_i sums to 1); claim:P_inf then checks the claimed P_inf is sum_i alpha_i pi_i^T entry by entry
        rows = _deep(P_inf, leaf, "P_inf")
        absorption = tuple(tuple(sum((rows[s][y] for y in members), F.zero) for members in claimed.classes) for s in range(chain.n))
        claimed = claimed.replace(absorption=absorption, P_inf=rows)
    if claimed.absorption is None and claimed.transient is not None and not claimed.transient:
        owner = {s: i for i, members in enumerate(claimed.classes) for s in members}
        claimed = claimed.replace(absorption=tuple(tuple(F.one if owner.get(s) == i else F.zero for i in range(len(claimed.classes)))
                                                   for s in range(chain.n)))
    return claimed


def _lists(x: Any) -> Any:
    return [_lists(y) for y in x] if isinstance(x, tuple) else x


def check_claim(chain: ParametricChain, claimed: Claimed, *, only: Sequence[str] | None = None,
                seed: int = 0) -> list[FamilyVerdict]:
    """The symbolic checks of a claimed closed form on the chain's generic stratum (where a closed form for the
    whole family holds); every failure comes with a rational point of the region where the rational check
    of the claim evaluated there fails too (:func:`rational_failure`), named in the detail."""
    strat = exactpte.stratify(chain)
    generic = strat.strata[0]
    region = region_of(generic, chain) if generic.chain is chain or not generic.equations else None
    if region is None:
        region = Region(chain.field, list(dict.fromkeys(e for _i, _j, e in chain.edges() if not e.is_constant())))
    verdicts = prove(chain, claimed, region, only=only, seed=seed)
    for v in verdicts:
        if v.holds is False and v.counterexample is not None:
            point = [flint.fmpq(*map(int, x.split("/"))) if "/" in x else flint.fmpq(int(x)) for x in v.counterexample.values()]
            _, rational = rational_failure(chain, claimed, point, v.key)
            failed = [r for r in rational if r.holds is False]
            v.detail += (f"; at {v.counterexample} the rational check {failed[0].key} fails: {failed[0].detail[:200]}" if failed
                         else f"; at {v.counterexample} no rational check of the paper fails")
    return verdicts


def verdict_lines(verdicts: Sequence[FamilyVerdict]) -> str:
    """The verdicts as text, stratum by stratum (its conditions first), with a summary of strengths."""
    lines: list[str] = []
    w = max((len(v.key) for v in verdicts), default=0)
    stratum = None
    for v in verdicts:
        if v.stratum != stratum:
            stratum = v.stratum
            lines.append(f"stratum {v.stratum}: {', '.join(v.where) or 'a single chain'}")
        mark = {"held": "ok", "failed": "FAIL"}.get(v.status, "n/a")
        detail = v.detail if v.status != "held" or v.strength != Strength.PROVED.value else ""
        lines.append(f"  {v.key.ljust(w)}  {mark:4}  {(v.strength.value if v.holds is not None else '-'):9}  {detail[:240]}".rstrip())
    counts: dict[str, int] = {}
    for v in verdicts:
        if v.holds is not None:
            tag = "failed" if v.holds is False else Strength(v.strength).value  # "proved", not "Strength.PROVED"
            counts[tag] = counts.get(tag, 0) + 1
    lines.append(", ".join(f"{n} {tag}" for tag, n in sorted(counts.items())) + f" ({len(verdicts)} verdicts)")
    return "\n".join(lines)


def family_main(args: Any, chain: ParametricChain) -> int:
    """``proofs-check chain`` / ``result`` on a parametric chain (the CLI's command body)."""
    import json

    from exactpte.errors import ChainFileError, UsageError

    unsupported = [flag for flag, on in (("--anchors", getattr(args, "anchors", None)), ("--statistical", getattr(args, "statistical", False)),
                                         ("--max-dense", args.max_dense)) if on]
    if unsupported:
        raise UsageError(f"{', '.join(unsupported)} apply to rational chains; a parametric chain is checked per stratum "
                         "with exactpte's canonical anchors (check a point with ParametricChain.at for more)")
    if args.command == "chain":
        verdicts = check_family(chain, only=args.only)
    else:
        from exactpte.results.factored import expand

        from .claimed import read_result_json

        data = read_result_json(args.result, parametric_n=chain.n)  # a key twice, an unknown key, another n: refused
        if "params" in data and (not isinstance(data["params"], list) or sorted(map(str, data["params"])) != sorted(chain.field.params)):
            raise ChainFileError(f"{args.result}: params {data['params']!r:.60} are not the chain's {list(chain.field.params)}")
        try:  # the --factored form: its names written out (bounded), then read as any entry
            data = expand(data)
        except ValueError as e:
            raise ChainFileError(f"{args.result}: {e}") from None
        verdicts = check_claim(chain, parametric_claim(data, chain), only=args.only)
    print(json.dumps([v.to_dict() for v in verdicts], indent=1) if args.json else verdict_lines(verdicts))
    problems = _unmet(verdicts, [x for x in (args.require or "").replace(" ", "").split(",") if x], args.strict)
    for line in problems:
        print(f"proofs-check: {line}", file=sys.stderr)
    return 1 if problems or any(v.holds is False for v in verdicts) else 0


def _unmet(verdicts: Sequence[FamilyVerdict], required: Sequence[str], strict: bool) -> list[str]:
    """``--require``: each named check (or quantity) proved on every stratum; ``--strict``: every verdict that
    holds is ``proved`` (none only ``exact`` or ``witnesses``)."""
    from .checks.quantities import QUANTITY_CHECKS

    out: list[str] = []
    for name in required:
        key = QUANTITY_CHECKS.get(name, name)
        mine = [v for v in verdicts if v.key == key]
        if not mine:
            out.append(f"required {name}: not run")
        elif not all(v.holds is True and v.strength == Strength.PROVED.value for v in mine):
            out.append(f"required {name}: not proved on every stratum")
    if strict:
        weak = sorted({v.key for v in verdicts if v.holds is True and v.strength != Strength.PROVED.value})
        if weak:
            out.append(f"--strict: {len(weak)} check(s) held but not proved on some stratum: {', '.join(weak[:8])}")
    return out
