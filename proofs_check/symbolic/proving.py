"""Proofs for whole families: the symbolic checks on every stratum of a parametric chain.

A parametric chain's decomposition on a stratum (:func:`exactpte.stratify`) is a list of rational
functions of the stratum's free parameters.  A symbolic check (:mod:`proofs_check.symbolic.identities`)
reduces each identity to residuals over ``QQ(params)``; a residual that is the zero rational
function vanishes at every point of the stratum where the closed forms are defined, so the identity
is **proved** for every chain of the stratum once each irreducible factor of a denominator involved
is certified nonzero on the region (:meth:`Region.nonzero_certificate`), and the uniqueness a statement
claims is derived (a minor certified nonzero).  Inequalities are decided exactly where a certificate exists
(:meth:`Region.sign`), otherwise checked at stated rational points (strength ``witnesses``).  An identity
that fails as rational functions is refuted at a rational point of the region, where the rational check of
:mod:`proofs_check.checks` fails too.  Given the decomposition itself (``dec``), every route of exactpte's engine to
a quantity is compared with the one proved (:mod:`proofs_check.symbolic.engine_routes`): a check reading a quantity
some route gives differently fails.

A stratum with no rational elimination is checked chain by chain at rational points of it
(:mod:`proofs_check.symbolic.strata_points`), and a stratum that is one chain by the rational checks of
``proofs-check chain`` on that chain.

Examples
--------
>>> import exactpte
>>> m = exactpte.ParametricChain([["1-p", "p"], ["q", "1-q"]], ["a", "b"], params=["p", "q", "a", "b"])
>>> verdicts = check_family(m)
>>> sum(v.strength == "proved" and v.holds is True for v in verdicts) >= 10
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import flint

import exactpte
from exactpte import Chain, Decomposition, MarkovRewardProcess
from exactpte.fields import RationalFunction
from exactpte.fields.region import simplest_region

from proofs_check.judging.claims import Claimed, from_decomposition
from proofs_check.judging.registry import CHECKS, NotApplicable, Verdict, run_checks
from proofs_check.judging.strength import Strength
from proofs_check.symbolic.claims import evaluate_claim
from proofs_check.symbolic.family_verdicts import FamilyVerdict, decided_on_stratum, point_text
from proofs_check.symbolic.fractions import Atoms, Unreduced
from proofs_check.symbolic.engine_routes import ROUTE_KEYS, ROUTE_STATEMENTS, RouteMismatch, parametric_routes, rational_routes
from proofs_check.symbolic.identities import NOT_PROVABLE, SYMBOLIC_CHECKS, Finding, SymbolicContext
from proofs_check.symbolic.region import Region, counterexample_point, region_of
from proofs_check.symbolic.statements import run_at_point
from proofs_check.symbolic.strata_checks import one_chain_verdicts, pointwise_verdicts, statement_verdict

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["FamilyVerdict", "point_text", "check_family", "check_stratum", "check_claim", "prove", "rational_failure",
           "STRUCTURE_KEYS", "SAMPLES", "NOT_PROVABLE_OTHERWISE", "ROUTE_POINTS", "Denominators", "stratum_where", "decided_on_stratum", "foundation_proofs"]

STRUCTURE_KEYS = tuple(k for k in CHECKS if k.startswith("structure:"))
"""The structure checks: they read only the support graph, which is fixed on a stratum."""

SAMPLES = 24
"""How many rational points of the region an inequality without a certificate is checked at."""

ROUTE_POINTS = 1
"""At how many rational points of the region exactpte's rational engine is compared with the closed forms."""

NOT_PROVABLE_OTHERWISE = "a statement about the estimator or its stability, not an identity of the closed forms"
"""Why a check with no symbolic form and no entry of :data:`~proofs_check.symbolic.identities.NOT_PROVABLE` is not proved."""


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
    once per irreducible factor (a graph's quantities share their denominators; the factorisations are the
    ones the residuals' arithmetic uses, :class:`~proofs_check.symbolic.fractions.Atoms`)."""

    def __init__(self, region: Region, chain: Chain, claimed: Claimed, *, atoms: Atoms | None = None) -> None:
        self.region, self.claimed = region, claimed
        self.atoms = atoms if atoms is not None else Atoms(region.field)
        self._certificates: dict[int, str | None] = {}
        self._by_quantity: dict[str, list[str]] = {}
        self.chain_bad = self._bad([*(e for _i, _j, e in chain.edges()), *chain.r])

    def _bad(self, values: Sequence[Any], *, numerators: bool = False) -> list[str]:
        F = self.region.field
        bad: list[str] = []
        for x in values:
            if isinstance(x, Unreduced):
                x = x.reduced()
            if not isinstance(x, RationalFunction) or (x.num if numerators else x.den).is_constant():
                continue
            for k, _e in self.atoms.factored(x.num if numerators else x.den)[1]:
                if k not in self._certificates:
                    self._certificates[k] = self.region.nonzero_certificate(self.atoms.polys[k])
                if self._certificates[k] is None:
                    text = F.poly_text(self.atoms.polys[k])
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

    def vanishing(self, values: Sequence[Any]) -> list[str]:
        """The irreducible factors of the numerators of ``values`` not certified nonzero on the region."""
        return self._bad(values, numerators=True)


@dataclass
class _Proving:
    """What every check of one :func:`prove` call shares."""

    ctx: SymbolicContext
    region: Region | None
    cache: Denominators | None
    seed: int
    samples: int
    base: Strength
    dec: Decomposition | None
    _routes: list[RouteMismatch] | None = None
    crash: str = ""
    """How a route of exactpte's engine crashed, if one did (``routes:engine`` fails with it; no value differs)."""

    def routes(self) -> list[RouteMismatch]:
        """exactpte's routes against the decomposition proved (computed once; none without ``dec``)."""
        if self._routes is None:
            try:
                self._routes = parametric_routes(self.dec) if self.dec is not None else []
            except Exception as e:  # a route that crashes gives a user no value at all: routes:engine says so
                self._routes, self.crash = [], f"{type(e).__name__}: {e}"
        return self._routes


def prove(chain: Chain, claimed: Claimed, region: Region | None, *, only: Sequence[str] | None = None,
          seed: int = 0, samples: int = SAMPLES, stratum: int = 0, one_chain_stratum: bool = False,
          dec: Decomposition | None = None, route_points: int = ROUTE_POINTS,
          denominators: Denominators | None = None) -> list[FamilyVerdict]:
    """Every symbolic check (or ``only``) on one family: ``chain`` over ``QQ(params)`` (or ``QQ``: then each
    verdict is ``exact``, or ``proved`` with ``one_chain_stratum``: a stratum that holds one chain is decided
    whole), ``claimed`` its closed forms, ``region`` where they are claimed to hold.

    A check is ``proved`` when every residual is zero, every sign is decided on the region, every
    denominator factor and every minor a uniqueness rests on has a certificate; ``witnesses`` when a sign was only
    sampled (at ``samples`` stated points); failed with a rational counterexample point when a residual is not zero
    or a sampled sign fails.  With ``dec`` (exactpte's decomposition the claim was read from) every route of
    exactpte's engine is compared too: ``routes:engine``, ``routes:rational`` (at ``route_points`` points), and a
    check reading a quantity some route gives differently fails.  Checks with no symbolic form are reported not
    provable, with the reason (:data:`~proofs_check.symbolic.identities.NOT_PROVABLE`); a check that crashes fails.
    ``denominators``: the claim's certificates when the caller has them already (they are shared, as are the
    denominators' factorisations the residuals' arithmetic uses).
    """
    keys = list(only) if only is not None else list(dict.fromkeys([*STRUCTURE_KEYS, *(ROUTE_KEYS if dec is not None else ()),
                                                      *SYMBOLIC_CHECKS, *CHECKS]))
    where = region.where if region is not None else ()
    base = Strength.EXACT if region is None and not one_chain_stratum else Strength.PROVED
    cache = denominators if denominators is not None else Denominators(region, chain, claimed) if region is not None else None
    ctx = SymbolicContext(chain, claimed, atoms=cache.atoms if cache is not None else None)
    state = _Proving(ctx, region, cache, seed, samples, base, dec)
    out: list[FamilyVerdict] = []
    structure = [k for k in keys if k in STRUCTURE_KEYS]
    for v in run_checks(chain, claimed, only=structure) if structure else []:  # type: ignore[arg-type]  # any field: the support graph only
        out.append(FamilyVerdict(v.key, v.statement, v.holds, v.detail, v.seconds, v.kind, strength=base if v.holds else Strength.EXACT,
                                 stratum=stratum, where=where, whole=v.holds is True and base is Strength.PROVED))
    for key in keys:
        if key in STRUCTURE_KEYS:
            continue
        if key in ROUTE_KEYS:
            verdict = _route_verdict(key, state, route_points)
        elif key not in SYMBOLIC_CHECKS:
            statement = CHECKS[key].statement if key in CHECKS else key
            reason = NOT_PROVABLE.get(key, NOT_PROVABLE_OTHERWISE)
            verdict = FamilyVerdict(key, statement, None, f"not provable symbolically: {reason}", 0.0, "exact", strength=Strength.EXACT)
        else:
            verdict = _one(key, CHECKS[key].statement if key in CHECKS else key, state)
        verdict.stratum, verdict.where = stratum, where
        verdict.whole = verdict.holds is True and (verdict.strength == Strength.PROVED.value or (base is Strength.PROVED and
                                                                                                 verdict.strength == Strength.EXACT.value and region is None))
        out.append(verdict)
    return out


def _route_verdict(key: str, state: _Proving, points: int) -> FamilyVerdict:
    """``routes:engine`` (proved: the same closed forms by every route) or ``routes:rational`` (the rational engine at
    rational points: witnesses)."""
    statement = ROUTE_STATEMENTS[key]
    t0 = time.perf_counter()
    if state.dec is None:
        return FamilyVerdict(key, statement, None, "not applicable: the routes are exactpte's own (no decomposition of "
                                                   "exactpte's to compare)", strength=Strength.EXACT)
    if state.region is None and key == "routes:rational":
        return FamilyVerdict(key, statement, None, "not applicable: the stratum is one rational chain (routes:engine compares "
                                                   "the rational engine's routes on it exactly)", strength=Strength.EXACT)
    try:
        if key == "routes:engine":
            bad = state.routes()
            if state.crash:
                raise RuntimeError(state.crash)
            if not bad:
                return FamilyVerdict(key, statement, True, "", time.perf_counter() - t0, strength=state.base)
            point = _named(state.region, counterexample_point(state.region, [bad[0].value], seed=state.seed)) \
                if state.region is not None and bad[0].value is not None else None  # a shape differs: no point to find
            return FamilyVerdict(key, statement, False, "; ".join(m.detail for m in bad[:3]), time.perf_counter() - t0,
                                 strength=Strength.EXACT, counterexample=point)
        assert state.region is not None
        found, checked = rational_routes(state.dec, state.region, points=points, seed=state.seed)
    except Exception as e:  # exactpte's engine crashed on one route: a failure of this family, not an abort
        why = str(e) if isinstance(e, RuntimeError) and state.crash else f"{type(e).__name__}: {e}"
        return FamilyVerdict(key, statement, False, f"a route of exactpte's engine crashed ({why})",
                             time.perf_counter() - t0, strength=Strength.EXACT)
    if found:
        return FamilyVerdict(key, statement, False, "; ".join(m.detail for m in found[:3]), time.perf_counter() - t0,
                             strength=Strength.WITNESSES, counterexample=found[0].point)
    if not checked:
        return FamilyVerdict(key, statement, None, "not checked: no rational point of the region was found", strength=Strength.WITNESSES)
    return FamilyVerdict(key, statement, True, f"the rational engine agreed at {checked} rational point(s), read after and "
                         "before the basis", time.perf_counter() - t0, strength=Strength.WITNESSES, witnesses=checked)


def _one(key: str, statement: str, state: _Proving) -> FamilyVerdict:
    t0 = time.perf_counter()
    try:
        found = SYMBOLIC_CHECKS[key](state.ctx)
        if isinstance(found, NotApplicable):
            return FamilyVerdict(key, statement, None, found.reason, time.perf_counter() - t0, strength=Strength.EXACT)
        found.residuals[:1] = [(what, _reduced(value)) for what, value in found.residuals[:1]]  # the one reported
        found.signs = [(what, _reduced(value), strict) for what, value, strict in found.signs]
        verdict = _judge(key, statement, found, state)
    except Exception as e:  # a malformed claim, or a crash of the check itself: a failure, never a traceback
        return FamilyVerdict(key, statement, False, f"check could not be evaluated on this claim ({type(e).__name__}: {e})",
                             time.perf_counter() - t0, strength=Strength.EXACT)
    verdict.seconds = time.perf_counter() - t0
    return verdict


def _judge(key: str, statement: str, found: Finding, state: _Proving) -> FamilyVerdict:
    """A finding as a verdict: residuals refute (with a point), routes that disagree refute, signs are decided or
    sampled, denominators and the minors of uniqueness certified."""
    region, seed = state.region, state.seed
    if found.residuals:
        what, value = found.residuals[0]
        point = counterexample_point(region, [value], seed=seed) if region is not None else None
        detail = f"{what} is {value}, not 0" + (f" ({len(found.residuals)} such entries)" if len(found.residuals) > 1 else "")
        return FamilyVerdict(key, statement, False, detail, strength=Strength.EXACT, counterexample=_named(region, point))
    differ = [m for m in state.routes() if m.quantity in found.uses]
    if differ:
        point = counterexample_point(region, [differ[0].value], seed=seed) if region is not None else None
        return FamilyVerdict(key, statement, False, f"holds for {differ[0].quantity} read after the basis, but a user reaching "
                             f"another route gets another value: {differ[0].detail}", strength=Strength.EXACT,
                             counterexample=_named(region, point))
    sampled = _signs(key, statement, found, state)
    if isinstance(sampled, FamilyVerdict):
        return sampled
    for what, value in found.nonzero:
        if value == 0:  # zero everywhere: any point of the region is a counterexample
            anywhere = region.points(1, seed=seed) if region is not None else []
            return FamilyVerdict(key, statement, False, f"{what} is 0: the solution is not unique", strength=Strength.EXACT,
                                 counterexample=_named(region, anywhere[0] if anywhere else None))
    notes = "; ".join(found.notes)
    if sampled:
        return FamilyVerdict(key, statement, True, f"identities proved; {len(sampled[0])} inequalit(ies) held at {sampled[1]} "
                             f"rational points of the region (no exact certificate), e.g. {sampled[0][0][0]}",
                             strength=Strength.WITNESSES, witnesses=sampled[1])
    if state.cache is not None:
        bad = state.cache.uncertified(found.uses)
        if bad:
            return FamilyVerdict(key, statement, True, "holds as an identity of rational functions; denominator factor(s) "
                                 f"{', '.join(bad[:3])} not certified nonzero on the region", strength=Strength.EXACT)
        vanishing = state.cache.vanishing([value for _what, value in found.nonzero])
        if vanishing:
            return FamilyVerdict(key, statement, True, f"the identities hold, but the uniqueness is not derived: "
                                 f"{found.nonzero[0][0]} has the factor(s) {', '.join(vanishing[:3])}, not certified nonzero "
                                 "on the region", strength=Strength.EXACT)
    return FamilyVerdict(key, statement, True, notes if state.base is not Strength.PROVED else "", strength=state.base)


def _signs(key: str, statement: str, found: Finding, state: _Proving) -> FamilyVerdict | tuple[list[tuple[str, Any, bool]], int] | None:
    """The finding's signs: a failed verdict when one fails, else the sampled ones and at how many points they held
    (``None`` when every sign was decided on the whole region)."""
    region, seed = state.region, state.seed
    sampled: list[tuple[str, Any, bool]] = []
    for what, value, strict in found.signs:
        decided = _sign(value, strict, region)
        if decided is False:
            point = counterexample_point(region, [value], seed=seed, sign=strict) if region is not None else None
            return FamilyVerdict(key, statement, False, f"{what} fails", strength=Strength.EXACT, counterexample=_named(region, point))
        if decided is None:
            sampled.append((what, value, strict))
    if not sampled:
        return None
    assert region is not None
    points = region.points(state.samples, seed=seed)
    for what, value, strict in sampled:
        for point in points:
            x = region.field.evaluate(value, point)
            if x < 0 or (strict and x == 0):
                return FamilyVerdict(key, statement, False, f"{what} fails", strength=Strength.WITNESSES,
                                     counterexample=_named(region, point))
    return sampled, len(points)


def _reduced(value: Any) -> Any:
    """A value of the residuals' arithmetic as the field's own cancelled element (regions sign and evaluate those)."""
    return value.reduced() if isinstance(value, Unreduced) else value


def _sign(value: Any, strict: bool, region: Region | None) -> bool | None:
    if region is None or not isinstance(value, RationalFunction):
        return bool(value > 0 if strict else value >= 0)
    return region.sign(value, strict)


def _named(region: Region | None, point: Sequence[flint.fmpq] | None) -> dict[str, flint.fmpq] | None:
    if region is None or point is None:
        return None
    return dict(zip(region.field.params, point))


def stratum_where(stratum: Any, family: ParametricChain | None = None) -> tuple[str, ...]:
    """The whole of a stratum, bounds included: its equations, then its region in simplest form (``0 < p < 1,
    p != 1/2``), or, where no simplest form was found, the validity of its chain's entries and its inequations; on a
    stratum without a closed form (``family`` given), the bounds the family's entries that do not vanish there set."""
    eqs = [c.simplest() for c in stratum.equations]
    if stratum.chain is None and family is not None:
        bounds = _bounds_off(family, [c.poly for c in stratum.equations])
        return tuple(eqs + bounds + [str(c) for c in stratum.inequations])
    if stratum.region is not None or stratum.chain is None or not getattr(stratum.chain.field, "params", ()):
        return tuple(stratum.where)
    bounds = list(stratum.chain.assumptions()) if hasattr(stratum.chain, "assumptions") else []
    return tuple(eqs + bounds + [str(c) for c in stratum.inequations])


def _bounds_off(family: ParametricChain, equations: Sequence[Any]) -> list[str]:
    """The region the family's entries that no equation divides set (``0 < p < 2``), in simplest form or entry by entry."""
    F = family.field
    entries = [e for _i, _j, e in family.edges() if not e.is_constant()]
    kept = [e for e in dict.fromkeys(entries) if not any(_divides(g, e.num) for g in equations if not g.is_constant())]
    if not kept:
        return []
    region = simplest_region(F, kept, [])
    return list(region) if region is not None else [f"{e} > 0" for e in kept]


def _divides(g: Any, f: Any) -> bool:
    """Whether the polynomial ``g`` divides ``f`` exactly."""
    try:
        q = f / g
    except Exception:  # not exactly divisible
        return False
    return bool(q * g == f)


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


def check_claim(chain: ParametricChain, claimed: Claimed, *, only: Sequence[str] | None = None,
                seed: int = 0) -> list[FamilyVerdict]:
    """The symbolic checks of a claimed closed form on the chain's generic stratum (where a closed form for the
    whole family holds); every failure comes with a rational point of the region where the rational check
    of the claim evaluated there fails too (:func:`rational_failure`), named in the detail."""
    strat = exactpte.stratify(chain)
    generic = strat.strata[0]
    region = region_of(generic, chain) if generic.chain is chain or not generic.equations else None
    if region is None:
        region = Region(chain.field, list(dict.fromkeys(e for _i, _j, e in chain.edges() if not e.is_constant())),
                        where=tuple(chain.assumptions()))
    else:
        region.where = stratum_where(generic)
    verdicts = prove(chain, claimed, region, only=only, seed=seed)
    for v in verdicts:
        if v.holds is False and v.counterexample is not None:
            point = [v.counterexample[p] for p in chain.params]
            try:
                _, rational = rational_failure(chain, claimed, point, v.key)
            except Exception as e:  # the claim at the point is malformed for the rational checks too: say so
                v.detail += f"; at {point_text(v.counterexample)} the rational checks could not run ({type(e).__name__}: {e})"
                continue
            failed = [r for r in rational if r.holds is False]
            at = point_text(v.counterexample)
            v.detail += (f"; at {at} the rational check {failed[0].key} fails: {failed[0].detail[:200]}" if failed
                         else f"; at {at} no rational check of the paper fails")
    return verdicts




Statement = Callable[[Any, Any], object]
"""A statement of your own: ``func(chain, dec) -> bool | str | None`` (a conjecture's function)."""


def check_stratum(index: int, stratum: Any, *, only: Sequence[str] | None = None, seed: int = 0,
                  family: ParametricChain | None = None, strat: Any = None,
                  statements: Sequence[tuple[str, Statement]] = ()) -> list[FamilyVerdict]:
    """The checks (or ``only``) and the ``statements`` of your own on one stratum of :func:`exactpte.stratify`: proved
    on a stratum with closed forms (every route of exactpte compared), the rational checks on a stratum that is one
    chain, the rational checks at rational points of a stratum without a rational elimination (``family`` and
    ``strat``, the chain and its strata, find them)."""
    where = stratum_where(stratum, family)
    if stratum.decomposition is None:
        if family is None or strat is None:
            return [FamilyVerdict("stratum", "closed forms on the stratum", None, "not checked: no closed form holds on this "
                                  "stratum; pass the family to check it at rational points", strength=Strength.WITNESSES,
                                  stratum=index, where=where)]
        return pointwise_verdicts(family, strat, index, where, only=only, seed=seed, statements=statements)
    region = region_of(stratum, stratum.chain)
    if region is None:  # one chain: decided on it, symbolically where a check has a symbolic form, else as proofs-check chain
        keys = list(only) if only is not None else list(dict.fromkeys([*STRUCTURE_KEYS, *ROUTE_KEYS, *SYMBOLIC_CHECKS, *CHECKS]))
        claimed = from_decomposition(stratum.decomposition, with_P_inf=False, with_hitting_times=False)
        symbolic = [k for k in keys if k in SYMBOLIC_CHECKS or k in STRUCTURE_KEYS or k in ROUTE_KEYS]
        out = prove(stratum.chain, claimed, None, only=symbolic, seed=seed, stratum=index, one_chain_stratum=True,
                    dec=stratum.decomposition)
        for v in out:
            v.where = where
        rest = [k for k in keys if k not in symbolic]
        out += one_chain_verdicts(stratum.decomposition, index, where, only=rest, seed=seed)
        return out + [_at_one_chain(label, func, stratum.decomposition, index, where) for label, func in statements]
    region.where = where
    claimed = from_decomposition(stratum.decomposition, with_P_inf=False, with_hitting_times=False)
    verdicts = prove(stratum.chain, claimed, region, only=only, seed=seed, stratum=index, dec=stratum.decomposition)
    out = list(verdicts)
    if statements:
        proofs = foundation_proofs(stratum.chain, stratum.decomposition, claimed, region, {v.key: v for v in verdicts},
                                   seed=seed, stratum=index)
        cache: dict[Any, bool | None] = {}
        denominators = Denominators(region, stratum.chain, claimed)
        for label, func in statements:
            v = statement_verdict(label, func, stratum.decomposition, region, proofs=proofs, uncertified=denominators.uncertified,
                                  seed=seed, cache=cache)
            v.stratum, v.where = index, where
            out.append(v)
    return out


def _at_one_chain(label: str, func: Statement, dec: Decomposition, index: int, where: Sequence[str]) -> FamilyVerdict:
    """A statement on a stratum that is one rational chain: run on it, exactly."""
    detail = run_at_point(func, dec)
    return FamilyVerdict(label, label, detail is None, detail or "", kind="conjecture", strength=Strength.EXACT, stratum=index, where=tuple(where),
                         whole=detail is None, counterexample_chain=dec.chain if detail else None)  # type: ignore[arg-type]


def foundation_proofs(chain: Chain, dec: Decomposition, claimed: Claimed, region: Region, known: dict[str, FamilyVerdict], *,
                      seed: int = 0, stratum: int = 0) -> Callable[[Sequence[str]], Mapping[str, FamilyVerdict]]:
    """``proofs(keys)``: the verdicts of the checks ``keys`` on this family, for a statement of your own that read
    the closed forms they prove (:func:`~proofs_check.symbolic.statements.foundations`): the ones in ``known``, the
    others (and any ``known`` only "not claimed") proved now, with the hitting times claimed first when asked for (the
    symbolic route leaves them out to keep graphs cheap)."""
    def proofs(keys: Sequence[str]) -> Mapping[str, FamilyVerdict]:
        missing = [k for k in keys if k not in known or known[k].status == "not claimed"]
        if missing:
            full = claimed.replace(hitting_times=tuple(dec.hitting_times)) if "claim:hitting_times" in missing else claimed
            known.update({v.key: v for v in prove(chain, full, region, only=missing, seed=seed, stratum=stratum, dec=dec)})
        return known

    return proofs


def check_family(chain: ParametricChain, *, only: Sequence[str] | None = None, seed: int = 0,
                 statements: Sequence[tuple[str, Statement]] = ()) -> list[FamilyVerdict]:
    """Every symbolic check (or ``only``) and every statement ``(label, func)`` of your own on every stratum of a
    parametric chain (:func:`exactpte.stratify`)."""
    strat = exactpte.stratify(chain)
    return [v for k, s in enumerate(strat.strata)
            for v in check_stratum(k, s, only=only, seed=seed, family=chain, strat=strat, statements=statements)]
