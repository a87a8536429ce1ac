"""exactpte's own cross-check: the claim, in exactpte's convention, inside exactpte's certified enclosures.

Certified enclosures are computed from the chain in floats with checked bounds
(:func:`exactpte.decompose_certified`, :mod:`exactpte.certified`).  This is *not* one of the
independent routes: it runs exactpte's structure code and anchors, so it is reported apart
(kind ``cross-check``, its own line in the summary).  It never compares across conventions: the
claim is first moved exactly into exactpte's convention (:mod:`proofs_check.judging.conventions`: classes
by smallest state, phase 0 at the smallest state, exactpte's anchors, by the claim's own basis), so a
valid answer in any convention lands on exactpte's numbers and a wrong one does not.
(``decompose_certified`` takes no anchors, so the claim is moved rather than the enclosures.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import flint

import numpy as np

from exactpte.certified import Interval
from exactpte.errors import ExactpteError
from exactpte.graph.view import anchor_list

from proofs_check.judging.claims import Claimed
from proofs_check.judging.conventions import canonical, reanchor
from proofs_check.algebra.floats import float_range_problem, shown
from proofs_check.judging.registry import Context, NotChecked, Outcome, register_check, few

if TYPE_CHECKING:
    from exactpte import CertifiedDecomposition


def _in_exactptes_convention(ctx: Context, cert: CertifiedDecomposition) -> Claimed | str:
    """The claim relabelled and re-anchored into the certified decomposition's convention, or why it cannot be."""
    try:
        canon = canonical(ctx.claimed)
    except (StopIteration, KeyError, IndexError, ValueError):
        return "the claimed structure is malformed, so it cannot be mapped to exactpte's convention (see structure:*)"
    S = cert.structure
    for name, got, truth in (
        ("classes", [tuple(sorted(x)) for x in canon.classes], [tuple(x) for x in S.classes]),
        ("periods", list(canon.periods), list(S.periods)),
        ("cyclic classes", [[sorted(p) for p in cyc] for cyc in canon.cyclic_classes], [[sorted(p) for p in cyc] for cyc in S.cyclic_classes]),
    ):
        if got != truth:
            return f"the claimed {name} differ from exactpte's (after reordering classes and phases): cannot be compared"
    moved = reanchor(canon, ctx.chain, [s for _, _, s in anchor_list(cert.anchors)], ctx.blocks.P_inf_apply)
    return moved


def _outside(key: str, values: Sequence[flint.fmpq], iv: Interval) -> str | None:
    if len(values) != len(iv):
        return f"{key} has length {len(values)}, expected {len(iv)}"
    inside = iv.contains(values)
    if inside.all():
        return None
    bad = [s for s, ok in enumerate(inside) if not ok]
    s = bad[0]
    return f"{key} outside its enclosure at {few(bad)} (e.g. {shown(values[s])} not in [{float(iv.lo[s])!r}, {float(iv.hi[s])!r}])"


def _judged(c: Claimed, cert: CertifiedDecomposition) -> list[tuple[str, list[flint.fmpq], Interval]]:
    """(name, claimed values, enclosure) for every claimed quantity, flattened, in exactpte's convention."""
    vectors = cert.vectors()
    out = [(key, list(getattr(c, key)), vectors[key]) for key in ("g_star", "v_star", "theta", "rho", "h", "psi")
           if getattr(c, key) is not None]
    n, N = len(c.basis), c.N
    basis = cert.basis
    out.append(("basis", [x for row in c.basis for x in row], _flat(basis, n, N)))
    if c.class_gain is not None:
        out.append(("class_gain", list(c.class_gain), cert.class_gain))
    if c.stationary is not None:
        for i, (members, pi) in enumerate(zip(c.classes, c.stationary)):
            where = {s: a for a, s in enumerate(cert.structure.classes[i])}
            iv = cert.stationary[i]
            order = [where[s] for s in members]
            out.append((f"stationary[{i}]", list(pi), iv[order]))
    if c.absorption is not None:
        out.append(("absorption", [x for row in c.absorption for x in row], _flat(cert.absorption, n, len(c.classes))))
    return out


def _flat(iv: Interval, n: int, m: int) -> Interval:
    return Interval(iv.lo.reshape(n * m), iv.hi.reshape(n * m))


@register_check("certified:enclosures", "exactpte's cross-check (not independent): the claim, moved exactly into exactpte's convention, "
       "lies inside exactpte's certified float enclosures", kind="cross-check", sparse=True)
def _enclosures(ctx: Context) -> Outcome:
    from exactpte.certified import decompose_certified

    range_problem = float_range_problem([*ctx.chain.r, *(q for _, _, q in ctx.chain.edges())], name="the chain's numbers")
    if range_problem and "beyond" in range_problem:  # below the range is fine: split into two doubles, error bounded
        return NotChecked(f"float enclosures cannot hold this chain: {range_problem}")
    try:
        with np.errstate(all="ignore"):  # a NaN or infinity in an enclosure is refused below, not warned about
            cert = decompose_certified(ctx.chain)
    except (ExactpteError, ArithmeticError) as e:  # OverflowError, FloatingPointError: floats cannot decide this chain
        return NotChecked(f"exactpte's certified solver cannot enclose this chain ({type(e).__name__}: {e})")
    uncertified = [cc.system for cc in cert.certificates if not cc.certified]
    if uncertified:  # an enclosure that is not certified decides nothing: neither "inside" nor "outside"
        return NotChecked(f"exactpte's certified solver could not certify {uncertified[:3]} in floats "
                          "(ill-conditioned in double precision, e.g. a leak of 1e-16): the enclosures decide nothing")
    moved = _in_exactptes_convention(ctx, cert)
    if isinstance(moved, str):
        return moved
    judged = _judged(moved, cert)
    undecided = [key for key, _, iv in judged if np.isnan(iv.lo).any() or np.isnan(iv.hi).any()]
    if undecided:
        return NotChecked(f"exactpte's certified enclosures of {', '.join(undecided[:4])} are not numbers (NaN)")
    failures = [m for key, values, iv in judged if (m := _outside(key, values, iv))]
    if failures:
        return "in exactpte's convention, " + "; ".join(failures)
    return None
