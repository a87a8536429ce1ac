"""Proofs for whole families: the symbolic checks on every stratum of a parametric chain.

A parametric chain's decomposition on a stratum (:func:`exactpte.stratify`) is a list of rational
functions of the stratum's free parameters.  A symbolic check (:mod:`proofs_check.symbolic.identities`)
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

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import flint

import exactpte
from exactpte import Chain, MarkovRewardProcess
from exactpte.fields import RationalFunction, RationalFunctionField

from proofs_check.judging.claims import Claimed, from_decomposition
from proofs_check.judging.registry import CHECKS, NotApplicable, Verdict, run_checks
from proofs_check.judging.strength import Strength
from proofs_check.symbolic.claims import evaluate_claim
from proofs_check.symbolic.fractions import Atoms, Unreduced
from proofs_check.symbolic.identities import NOT_PROVABLE, SYMBOLIC_CHECKS, Finding, SymbolicContext
from proofs_check.symbolic.region import Region, counterexample_point, region_of

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["FamilyVerdict", "point_text", "check_family", "check_stratum", "check_claim", "prove", "rational_failure",
           "STRUCTURE_KEYS", "SAMPLES", "NOT_PROVABLE_OTHERWISE"]

STRUCTURE_KEYS = tuple(k for k in CHECKS if k.startswith("structure:"))
"""The structure checks: they read only the support graph, which is fixed on a stratum."""

SAMPLES = 24
"""How many rational points of the region an inequality without a certificate is checked at."""

NOT_PROVABLE_OTHERWISE = "a statement about the estimator or its stability, not an identity of the closed forms"
"""Why a check with no symbolic form and no entry of :data:`~proofs_check.symbolic.identities.NOT_PROVABLE` is not proved."""


@dataclass
class FamilyVerdict(Verdict):
    """A verdict on one stratum of a family: the :class:`~proofs_check.judging.registry.Verdict` fields, the
    stratum's index and conditions, and the strength of the evidence (:class:`~proofs_check.judging.strength.Strength`)."""

    strength: Strength = Strength.PROVED
    stratum: int = 0
    where: tuple[str, ...] = ()
    counterexample: dict[str, flint.fmpq] | None = None
    """The rational point (parameter -> exact value) where a failed check fails; printed only by :meth:`to_dict`."""

    def to_dict(self) -> dict[str, Any]:
        """The verdict as a JSON-ready dict, with ``strength``, ``stratum``, ``where`` and any ``counterexample`` point
        (its coordinates as ``"p/q"`` text)."""
        out = super().to_dict()
        out.update(stratum=self.stratum, where=list(self.where))
        if self.counterexample is not None:
            out["counterexample"] = point_text(self.counterexample)
        return out


def point_text(point: Mapping[str, flint.fmpq]) -> dict[str, str]:
    """A parameter point as text, ``{"p": "1/3"}``: how reports and messages print an exact point."""
    return {p: str(x) for p, x in point.items()}


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

    def _bad(self, values: Sequence[Any]) -> list[str]:
        F = self.region.field
        bad: list[str] = []
        for x in values:
            if not isinstance(x, RationalFunction) or x.den.is_constant():
                continue
            for k, _e in self.atoms.factored(x.den)[1]:
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


def prove(chain: Chain, claimed: Claimed, region: Region | None, *, only: Sequence[str] | None = None,
          seed: int = 0, samples: int = SAMPLES, stratum: int = 0, one_chain_stratum: bool = False,
          denominators: Denominators | None = None) -> list[FamilyVerdict]:
    """Every symbolic check (or ``only``) on one family: ``chain`` over ``QQ(params)`` (or ``QQ``: then each
    verdict is ``exact``, or ``proved`` with ``one_chain_stratum``: a stratum that holds one chain is decided
    whole), ``claimed`` its closed forms, ``region`` where they are claimed to hold.

    A check is ``proved`` when every residual is zero, every sign is decided on the region and every
    denominator factor has a certificate; ``witnesses`` when a sign was only sampled (at ``samples``
    stated points); failed with a rational counterexample point when a residual is not zero or a
    sampled sign fails.  Checks with no symbolic form are reported not applicable, with the reason
    (:data:`~proofs_check.symbolic.identities.NOT_PROVABLE`).  ``denominators``: the claim's certificates when the
    caller has them already (they are shared, as are the denominators' factorisations).
    """
    cache = denominators if denominators is not None else Denominators(region, chain, claimed) if region is not None else None
    ctx = SymbolicContext(chain, claimed, atoms=cache.atoms if cache is not None else None)
    keys = list(only) if only else list(dict.fromkeys([*STRUCTURE_KEYS, *SYMBOLIC_CHECKS, *CHECKS]))
    where = region.where if region is not None else ()
    exact = region is None
    base = Strength.EXACT if exact and not one_chain_stratum else Strength.PROVED
    out: list[FamilyVerdict] = []
    structure = [k for k in keys if k in STRUCTURE_KEYS]
    for v in run_checks(chain, claimed, only=structure) if structure else []:  # type: ignore[arg-type]  # any field: the support graph only
        out.append(FamilyVerdict(v.key, v.statement, v.holds, v.detail, v.seconds, v.kind, strength=base, stratum=stratum, where=where))
    for key in keys:
        if key in STRUCTURE_KEYS:
            continue
        statement = CHECKS[key].statement if key in CHECKS else key
        if key not in SYMBOLIC_CHECKS:
            reason = NOT_PROVABLE.get(key, NOT_PROVABLE_OTHERWISE)
            out.append(FamilyVerdict(key, statement, None, f"not provable symbolically: {reason}", 0.0, "exact",
                                     strength=Strength.EXACT, stratum=stratum, where=where))
            continue
        verdict = _one(key, statement, ctx, region, cache, seed=seed, samples=samples, base=base)
        verdict.stratum, verdict.where = stratum, where
        out.append(verdict)
    return out


def _one(key: str, statement: str, ctx: SymbolicContext, region: Region | None, cache: Denominators | None, *,
         seed: int, samples: int, base: Strength) -> FamilyVerdict:
    t0 = time.perf_counter()
    try:
        found = SYMBOLIC_CHECKS[key](ctx)
    except (IndexError, KeyError, ValueError, ZeroDivisionError, TypeError) as e:
        return FamilyVerdict(key, statement, False, f"check could not be evaluated on this claim ({type(e).__name__}: {e})",
                             time.perf_counter() - t0, strength=base)
    if isinstance(found, NotApplicable):
        return FamilyVerdict(key, statement, None, found.reason, time.perf_counter() - t0, strength=Strength.EXACT)
    found.residuals[:1] = [(what, _reduced(value)) for what, value in found.residuals[:1]]  # the one reported
    found.signs = [(what, _reduced(value), strict) for what, value, strict in found.signs]
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
            point = [v.counterexample[p] for p in chain.params]
            _, rational = rational_failure(chain, claimed, point, v.key)
            failed = [r for r in rational if r.holds is False]
            at = point_text(v.counterexample)
            v.detail += (f"; at {at} the rational check {failed[0].key} fails: {failed[0].detail[:200]}" if failed
                         else f"; at {at} no rational check of the paper fails")
    return verdicts
