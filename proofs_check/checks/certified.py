"""The exact answer lies inside exactpte's certified enclosures (:func:`exactpte.decompose_certified`).

Certified enclosures are computed from the chain in floats with checked bounds
(:mod:`exactpte.certified`), a route that shares no arithmetic with the exact solver; a claimed
exact value outside its enclosure means either the claim or the certificate is wrong, and both
are worth a failure.
"""

from __future__ import annotations

from ..registry import Context, NotClaimed, check, few


@check("certified:enclosures", "every claimed exact value lies inside its certified float enclosure [lo, hi]", sparse=True)
def _enclosures(ctx: Context):
    from exactpte.certified import decompose_certified

    c = ctx.claimed
    cert = decompose_certified(ctx.chain)
    vectors = cert.vectors()
    judged = {"g_star": c.g_star, "v_star": c.v_star, "theta": c.theta, "rho": c.rho, "h": c.h, "psi": c.psi}
    missing = [k for k, v in judged.items() if v is None]
    failures = []
    for key, values in judged.items():
        if values is None:
            continue
        iv = vectors[key]
        if len(values) != len(iv):
            failures.append(f"{key} has length {len(values)}, expected {len(iv)}")
            continue
        inside = iv.contains(values)
        if not inside.all():
            bad = [s for s, ok in enumerate(inside) if not ok]
            s = bad[0]
            failures.append(f"{key} outside its enclosure at {few(bad)} (e.g. {values[s]} not in [{iv.lo[s]!r}, {iv.hi[s]!r}])")
    uncertified = [cc.system for cc in cert.certificates if not cc.certified]
    if uncertified:
        failures.append(f"systems not certified: {uncertified[:3]}")
    if failures:
        return "; ".join(failures)
    if len(missing) == len(judged):
        return NotClaimed("g_star, v_star, theta, rho, h, psi")
    return None
