"""The strata no closed form covers, and statements of your own, as verdicts of a family.

- A stratum that is **one chain** (a corner, ``p = 0, q = 1``) gets that chain's verdicts: every check
  ``proofs-check chain`` decides on it (:func:`one_chain_verdicts`), each with its own strength (``exact``,
  ``witnesses (N = k)``, ...); an ``exact`` verdict there is decided for the whole stratum.
- A stratum **without a rational elimination** (``p**2 + q**2 = 4``) is checked chain by chain at rational points
  of it (:func:`pointwise_verdicts`): ``witnesses (N points)``, or ``exact`` when those points are all its chains; a
  stratum that holds no chain says it is empty, and one whose rational points were not found says so (not checked).
- A **statement of your own** (a conjecture) on a family (:func:`statement_verdict`): proved when it is decided on
  the whole region under every labelling asked for and the closed forms it read are proved, else the weaker verdict
  and why (:mod:`proofs_check.symbolic.statements`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import flint

import exactpte
from exactpte import Decomposition

from proofs_check.judging.claims import from_decomposition
from proofs_check.judging.registry import CHECKS, Verdict, run_checks
from proofs_check.judging.strength import Strength
from proofs_check.symbolic.family_verdicts import FamilyVerdict
from proofs_check.symbolic.region import Region
from proofs_check.symbolic.statements import foundations, prove_statement, run_at_point
from proofs_check.symbolic.strata_points import stratum_points

if TYPE_CHECKING:
    from exactpte import ParametricChain

__all__ = ["one_chain_verdicts", "pointwise_verdicts", "statement_verdict", "POINTWISE_POINTS", "P_INF_LIMIT", "CLAIM_FIELDS"]

POINTWISE_POINTS = 8
"""At how many rational points a stratum without a rational elimination is checked."""

P_INF_LIMIT = 2000
"""Up to this many states a stratum's chain has its ``P∞`` claimed (as ``proofs-check chain`` does)."""

CLAIM_FIELDS: dict[str, tuple[str, ...]] = {
    "basis": ("basis",), "basis_sparse": ("basis",), "b": ("basis",), "project": ("basis",), "theta": ("theta",),
    "g_star": ("g_star",), "v_star": ("v_star",), "return_split": ("g_star", "v_star"), "psi": ("psi",), "psi_coords": ("psi",),
    "rho": ("rho",), "h": ("h",), "stationary": ("stationary",), "absorption": ("absorption",), "class_gain": ("class_gain",),
    "P_inf": ("stationary", "absorption"), "P_inf_apply": ("stationary", "absorption"), "hitting_times": ("hitting_times",)}
"""The claim's fields (whose denominators must be certified) behind each name of the decomposition a statement reads."""


def _family(v: Verdict, index: int, where: Sequence[str], *, whole: bool = False) -> FamilyVerdict:
    return FamilyVerdict(v.key, v.statement, v.holds, v.detail, v.seconds, v.kind, strength=v.strength, witnesses=v.witnesses,
                         level=v.level, stratum=index, where=tuple(where), whole=whole, points=False)


def _keys(only: Sequence[str] | None) -> tuple[list[str], list[str]]:
    """The rational checks asked for, and the keys asked for that only a family has (its routes, ...)."""
    keys = list(only) if only is not None else list(CHECKS)
    return [k for k in keys if k in CHECKS], [k for k in keys if k not in CHECKS]


def one_chain_verdicts(dec: Decomposition, index: int, where: Sequence[str], *, only: Sequence[str] | None = None,
                       seed: int = 0) -> list[FamilyVerdict]:
    """Every check ``proofs-check chain`` decides on a stratum that is one rational chain (``dec`` its decomposition):
    the rational checks, each with its strength; ``exact`` there covers the whole stratum."""
    keys, other = _keys(only)
    claimed = from_decomposition(dec, with_P_inf=dec.n <= P_INF_LIMIT)
    out = [_family(v, index, where, whole=v.holds is True and v.strength is Strength.EXACT)
           for v in (run_checks(dec.chain, claimed, only=keys, seed=seed) if keys else [])]  # type: ignore[arg-type]  # one rational chain
    out += [FamilyVerdict(k, k, None, "not applicable: the stratum is one rational chain (decided by the rational checks)",
                          strength=Strength.EXACT, stratum=index, where=tuple(where)) for k in other]
    return out


def pointwise_verdicts(chain: ParametricChain, strat: Any, index: int, where: Sequence[str], *, only: Sequence[str] | None = None,
                       seed: int = 0, count: int = POINTWISE_POINTS,
                       statements: Sequence[tuple[str, Callable[[Any, Any], object]]] = ()) -> list[FamilyVerdict]:
    """The rational checks at up to ``count`` rational points of a stratum without a rational elimination, per check:
    failed at the first point where it fails (with that chain), held with ``witnesses (N points)`` (``exact`` when
    the points are every chain of the stratum), not applicable where it is so at every point."""
    keys, other = _keys(only)
    found = stratum_points(chain, strat, index, count)
    if found.real_points == 0:
        return [FamilyVerdict("stratum", "the chains of the stratum", None, "not applicable: the stratum holds no chain (empty)",
                              strength=Strength.EXACT, stratum=index, where=tuple(where))]
    if not found.points:
        return [FamilyVerdict(k, CHECKS[k].statement if k in CHECKS else k, None, "not checked: no closed form holds on this "
                              "stratum (no rational elimination) and no rational point of it was found to check it at "
                              "(its chains may have irrational entries)", strength=Strength.WITNESSES, stratum=index,
                              where=tuple(where)) for k in keys + other]
    per_key: dict[str, list[tuple[dict[str, flint.fmpq], Any, Verdict]]] = {k: [] for k in [*keys, *(label for label, _f in statements)]}
    for point in found.points:
        rational = chain.at(point, check=False)
        dec = exactpte.decompose(rational)
        claimed = from_decomposition(dec, with_P_inf=rational.n <= P_INF_LIMIT)
        for v in run_checks(rational, claimed, only=keys, seed=seed) if keys else []:
            per_key[v.key].append((point, rational, v))
        for label, func in statements:
            detail = run_at_point(func, dec)
            per_key[label].append((point, rational, Verdict(label, label, detail is None, detail or "")))
    out = [_aggregate(k, per_key[k], found.complete, index, where) for k in [*keys, *(label for label, _f in statements)]]
    out += [FamilyVerdict(k, k, None, "not applicable: no closed form holds on this stratum (its chains are checked one by one)",
                          strength=Strength.EXACT, stratum=index, where=tuple(where)) for k in other]
    return out


def _aggregate(key: str, runs: Sequence[tuple[dict[str, flint.fmpq], Any, Verdict]], complete: bool, index: int,
               where: Sequence[str]) -> FamilyVerdict:
    """One check's verdicts at the points of a stratum as one verdict."""
    statement = CHECKS[key].statement if key in CHECKS else key
    for point, rational, v in runs:
        if v.holds is False:
            return FamilyVerdict(key, statement, False, f"at {_text(point)}: {v.detail}", strength=v.strength, stratum=index,
                                 where=tuple(where), counterexample=point, counterexample_chain=rational)
    held = [v for _p, _r, v in runs if v.holds is True]
    if not held:
        return FamilyVerdict(key, statement, None, runs[0][2].detail, strength=Strength.EXACT, stratum=index, where=tuple(where))
    exact = complete and all(v.strength is Strength.EXACT for v in held)
    how = "every chain of the stratum" if exact else f"{len(held)} rational chains of the stratum"
    return FamilyVerdict(key, statement, True, f"held on {how} (no closed form holds here: checked chain by chain)",
                         strength=Strength.EXACT if exact else Strength.WITNESSES, witnesses=None if exact else len(held),
                         stratum=index, where=tuple(where), whole=exact)


def _text(point: Mapping[str, flint.fmpq]) -> str:
    return ", ".join(f"{p} = {x}" for p, x in point.items())


def _said(label: str, holds: bool | None, detail: str, **fields: Any) -> FamilyVerdict:
    """A statement's verdict (kind ``conjecture``)."""
    return FamilyVerdict(label, label, holds, detail, kind="conjecture", **fields)


def statement_verdict(label: str, func: Callable[[Any, Any], object], dec: Decomposition, region: Region, *,
                      proofs: Callable[[Sequence[str]], Mapping[str, FamilyVerdict]],
                      uncertified: Callable[[Sequence[str]], list[str]], relabel: bool = False, seed: int = 0,
                      samples: int = 24, cache: dict[Any, bool | None] | None = None,
                      moved: dict[tuple[int, ...], Decomposition] | None = None) -> FamilyVerdict:
    """A statement of your own on a family (see the module docstring): ``proofs(keys)`` gives the verdicts of the
    checks that prove the closed forms it read, ``uncertified(fields)`` the denominator factors of those claimed
    fields not certified nonzero on the region; ``cache`` (decisions) and ``moved`` (relabelled decompositions) are
    shared between the statements run on one family."""
    res = prove_statement(func, dec, region, relabel=relabel, seed=seed, samples=samples, cache=cache, moved=moved)
    under = f" under each of {res.labellings} labellings" if res.labellings > 1 else ""
    if res.status == "failed":
        return _said(label, False, res.detail, strength=Strength.EXACT if res.witnesses is None else Strength.WITNESSES,
                             counterexample=res.point, counterexample_chain=res.chain)
    if res.status == "witnesses":
        return _said(label, True, res.detail, strength=Strength.WITNESSES, witnesses=res.witnesses)
    if res.status != "proved":
        return _said(label, None, f"not checked: {res.detail}", strength=Strength.WITNESSES)
    keys, unchecked = foundations(res.reads)
    verdicts = proofs(keys)
    weak = [k for k in keys if not (verdicts[k].holds is True and verdicts[k].strength == Strength.PROVED.value)]
    failed = [k for k in weak if verdicts[k].holds is False]
    if failed:
        return _said(label, None, f"not checked: it reads closed forms that {', '.join(failed)} refutes here "
                             f"({verdicts[failed[0]].detail[:160]})", strength=Strength.EXACT)
    fields = sorted({f for name in res.reads for f in CLAIM_FIELDS.get(name, ())})
    bad = uncertified(fields)
    why = ([f"the closed forms it reads rest on {', '.join(weak)}, not proved here ({verdicts[weak[0]].detail[:120]})"] if weak else []) + \
          ([f"it reads {', '.join(unchecked)}, exactpte's own solve, which no symbolic check proves"] if unchecked else []) + \
          ([f"denominator factor(s) {', '.join(bad[:3])} of what it reads not certified nonzero on the region"] if bad else [])
    if why:
        return _said(label, True, f"decided on the whole region{under}, but " + "; ".join(why), strength=Strength.EXACT)
    return _said(label, True, f"decided on the whole region{under}" if under else "", strength=Strength.PROVED)
