"""Certified enclosures at scale, beside Storm's float engine (run by hand:
``python benchmarks/bench_certified.py``).

Chains: the exact benchmark's family (``random_chain_arrays(n, transient_target_percent=85)``:
30 % transient states, most in one large strongly connected block, 8 closed classes of periods
1-4, denominators <= 50), built with ``MarkovRewardProcess.from_arrays``.  Each size runs in a
fresh process (peak RSS is its own).  Columns: build (arrays to chain), certified decomposition
(``exactpte.decompose_certified``), peak memory, the largest relative width of each quantity group, and
Storm: its float ``R=? [LRA]`` time (sparse engine, model checking only) and its error on ρ,
*certified* by our enclosures (``[lower, upper]`` bound of ``max_s |ρ_storm(s) - ρ(s)|``; Storm is given
``r + c >= 0`` and ``c`` is subtracted, since its float LRA does not terminate on negative rewards); where the
exact decomposition runs (n <= 3,000) the exact answer is also checked to lie in every enclosure.

    python benchmarks/bench_certified.py --sizes 1000 10000 100000 1000000
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_exact import have_stormpy, in_process, timed, timed_cpu  # noqa: E402


def one_size(n: int, seed: int) -> dict:
    import exactpte
    from exactpte import MarkovRewardProcess
    from exactpte.certified import decompose_certified
    from exactpte.testing.random_chains import random_chain_arrays

    decompose_certified(exactpte.example("paper-benchmark"))  # imports and first calls out of the clock
    arrays, t_gen = timed(random_chain_arrays, n, seed=seed, transient_target_percent=85)
    chain, t_build = timed(MarkovRewardProcess.from_arrays, n, *arrays)
    S = chain.structure
    cert, t_cert, cpu_cert = timed_cpu(decompose_certified, chain)
    widths = cert.widths()
    groups = {
        "basis/rho": max(widths["basis"], widths["rho"]),
        "pi/gain": max([widths["class_gain"]] + [v for k, v in widths.items() if k.startswith("stationary")]),
        "theta/g*/psi": max(widths["theta"], widths["g_star"], widths["psi"]),
        "v*/h": max(widths["v_star"], widths["h"]),
    }
    exact_inside = None
    if n <= 3000:
        exact_inside = all(cert.contains(exactpte.decompose(chain)).values())
    out = {"n": n, "nnz": chain.nnz, "T": len(S.transient), "block": max((len(b) for b in S.transient_sccs), default=0),
           "build": t_build, "certified": t_cert, "certified_cpu": cpu_cert, "load": os.getloadavg()[0], "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
           "widths": groups, "all_certified": all(c.certified for c in cert.certificates), "exact_inside": exact_inside,
           "rho_lo": cert.rho.lo.tolist(), "rho_hi": cert.rho.hi.tolist()}
    if have_stormpy():
        from exactpte.io import to_drn

        # Storm's float LRA does not terminate (minutes at n = 300) when rewards are negative; it is
        # linear in r, so Storm gets r + shift >= 0 and the shift is subtracted from its answer
        shift = max(0, -min(int(x.p) // int(x.q) - 1 for x in chain.r))
        with tempfile.NamedTemporaryFile("w", suffix=".drn", delete=False) as fh:
            fh.write(to_drn(chain.with_reward([x + shift for x in chain.r]) if shift else chain))
            out["drn"], out["shift"] = fh.name, shift
    return out


def storm_float(path: str) -> dict:
    import stormpy

    model = stormpy.build_model_from_drn(path)  # double precision
    prop = stormpy.parse_properties('R{"r"}=? [ LRA ]')[0]
    res, t = timed(stormpy.model_checking, model, prop, only_initial_states=False)
    return {"seconds": t, "rho": list(res.get_value_vector())}


def main(argv=None) -> int:
    import numpy as np

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[1000, 3000, 10_000, 100_000, 1_000_000])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--storm-cap", type=float, default=60.0, help="seconds Storm may take on one size (default 60)")
    p.add_argument("--one", type=int, help=argparse.SUPPRESS)
    p.add_argument("--storm", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.one is not None:
        print(json.dumps(one_size(args.one, args.seed)))
        return 0
    if args.storm is not None:
        print(json.dumps(storm_float(args.storm)))
        return 0
    head = (f"{'n':>8} {'|T|':>7} {'block':>7} {'build':>6} {'certified':>9} {'cert CPU':>8} {'peak MB':>7} {'w basis/rho':>11} {'w pi/gain':>9} "
            f"{'w θ/g*/ψ':>9} {'w v*/h':>8} {'exact in':>8} {'storm ρ':>8} {'storm ρ error (certified)':>26}")
    print("certified decomposition, random reducible periodic chains with large transient blocks "
          "(seconds: 'certified' wall, 'cert CPU' this process's CPU; widths relative)")
    print(head)
    print("-" * len(head), flush=True)
    for n in args.sizes:
        r = in_process(["--one", str(n), "--seed", str(args.seed)], script=__file__)
        w = r["widths"]
        storm_t, storm_err = "-", "-"
        if "drn" in r:
            s = in_process(["--storm", r["drn"]], timeout=args.storm_cap, script=__file__)
            os.unlink(r["drn"])
        if "drn" in r and s is None:
            storm_t, storm_err = f">{args.storm_cap:.0f}", "(timed out)"
        elif "drn" in r:
            x = np.array(s["rho"]) - r["shift"]
            lo, hi = np.array(r["rho_lo"]), np.array(r["rho_hi"])
            below = np.maximum(np.maximum(lo - x, x - hi), 0).max()  # certified lower bound of the error
            above = np.maximum(np.abs(x - lo), np.abs(hi - x)).max()  # certified upper bound
            storm_t, storm_err = f"{s['seconds']:8.3f}", f"[{below:.1e}, {above:.1e}]"
        inside = {None: "-", True: "yes", False: "NO"}[r["exact_inside"]]
        print(f"{n:8d} {r['T']:7d} {r['block']:7d} {r['build']:6.2f} {r['certified']:9.2f} {r['certified_cpu']:8.2f} {r['peak_mb']:7.0f} "
              f"{w['basis/rho']:11.1e} {w['pi/gain']:9.1e} {w['theta/g*/psi']:9.1e} {w['v*/h']:8.1e} {inside:>8} "
              f"{storm_t:>8} {storm_err:>26}" + ("" if r["all_certified"] else "  (some system not certified)"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
