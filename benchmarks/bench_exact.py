"""Scaling table for the exact core (run by hand: ``python benchmarks/bench_exact.py``).

Chains: ``exactpte.testing.random_chains.random_chain(n)``: about 30% transient states, 8 closed
classes with periods drawn from 1-4, 2-5 nonzeros a row, probabilities with denominators
up to 10.  Columns (seconds, one run each, same process):

- structure: closed classes, periods, cyclic classes (support graph only);
- rho: exactpte.gain (structure + class stationary distributions + one transient solve);
- decomp: exactpte.decompose (everything but the dense P_inf);
- storm rho: Storm's exact engine (stormpy, Rational DTMC from DRN, ``R=? [LRA]``),
  model checking only (parsing excluded), where stormpy is installed;
- bits: largest denominator of v* in bits.

A second table times structure on a 10^5-state chain against QuantEcon's MarkovChain
(recurrent classes, then period and cyclic classes of each closed class's block).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import exactpte
from exactpte.io import to_drn
from exactpte.floats import to_float
from exactpte.testing.random_chains import random_chain
from exactpte.structure import chain_structure


def timed(f, *a, **k):
    t0 = time.perf_counter()
    out = f(*a, **k)
    return out, time.perf_counter() - t0


def storm_rho(chain):
    try:
        import stormpy
    except ImportError:
        return None, None
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.drn")
        with open(path, "w") as fh:
            fh.write(to_drn(chain))
        model = stormpy.build_model_from_drn[stormpy.Rational](path)
        prop = stormpy.parse_properties('R{"r"}=? [ LRA ]')[0]
        res, t = timed(stormpy.model_checking, model, prop, only_initial_states=False)
        vals = [f"{v.numerator}/{v.denominator}" if str(v.denominator) != "1" else str(v.numerator) for v in res.get_value_vector()]
        return vals, t


def exact_table(sizes, seed):
    head = f"{'n':>6} {'nnz':>7} {'|T|':>5} {'periods':>18} {'structure':>10} {'rho':>8} {'decomp':>8} {'storm rho':>10} {'decomp/storm':>12} {'storm/rho':>10} {'bits':>6}"
    print(head)
    print("-" * len(head))
    for n in sizes:
        chain = random_chain(n, seed=seed)
        S, t_struct = timed(chain_structure, chain.support)
        fresh = random_chain(n, seed=seed)
        rho, t_rho = timed(exactpte.gain, fresh)
        fresh = random_chain(n, seed=seed)
        dec, t_dec = timed(exactpte.decompose, fresh)
        assert dec.rho == rho
        bits = max(int(x.q).bit_length() for x in dec.v_star)
        svals, t_storm = storm_rho(chain)
        if svals is not None:
            assert svals == [str(x) for x in rho], "Storm's exact rho differs from exactpte's"
        ratio = f"{t_dec / t_storm:12.2f}" if t_storm else f"{'-':>12}"
        speed = f"{t_storm / t_rho:10.1f}" if t_storm else f"{'-':>10}"
        st = f"{t_storm:10.3f}" if t_storm else f"{'-':>10}"
        print(f"{n:6d} {chain.nnz:7d} {len(S.transient):5d} {str(sorted(set(S.periods))):>18} {t_struct:10.3f} {t_rho:8.3f} {t_dec:8.3f} {st} {ratio} {speed} {bits:6d}", flush=True)


def structure_table(n, seed):
    import numpy as np
    import scipy.sparse as sp

    chain = random_chain(n, seed=seed)
    S, t_ours = timed(chain_structure, chain.support)
    print(f"\nstructure of an n = {n} chain ({len(S.classes)} classes, periods {sorted(set(S.periods))})")
    print(f"  exactpte.chain_structure: {t_ours:.3f} s")
    try:
        import quantecon as qe
    except ImportError:
        print("  quantecon not installed")
        return
    rows, cols, vals = [], [], []
    for i, j, q in chain.edges():
        rows.append(i)
        cols.append(j)
        vals.append(to_float(q))
    P = sp.csr_matrix((np.array(vals), (np.array(rows), np.array(cols))), shape=(n, n))

    def qe_structure():
        mc = qe.MarkovChain(P)
        out = []
        for cls in mc.recurrent_classes:
            cls = np.sort(cls)
            sub = qe.MarkovChain(P[cls][:, cls])
            out.append((tuple(cls), sub.period, sub.cyclic_classes))
        return out

    qe_out, t_qe = timed(qe_structure)
    assert sorted(c for c, _, _ in qe_out) == sorted(S.classes)
    assert sorted(d for _, d, _ in qe_out) == sorted(S.periods)
    print(f"  quantecon MarkovChain:    {t_qe:.3f} s   (ratio quantecon / exactpte = {t_qe / t_ours:.1f})")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[100, 300, 1000, 2000, 3000])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--structure-n", type=int, default=100_000)
    args = p.parse_args(argv)
    exact_table(args.sizes, args.seed)
    structure_table(args.structure_n, args.seed)


if __name__ == "__main__":
    sys.exit(main())
