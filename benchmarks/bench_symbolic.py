"""Parametric decomposition timings (run by hand: ``python benchmarks/bench_symbolic.py``).

1. Full decompositions: a 10-state chain with 2 parameters; one-parameter chains of
   16..64 states (every output is a cancelled fraction by construction).
2. One block solve ``(I - Q) x = c`` of a one-parameter transient block, three routes in the
   same run: exactpte's fraction-free elimination over flint ``fmpz_mpoly``; sympy's
   ``DomainMatrix`` over the fraction field ``QQ(p)`` (``lu_solve``); sympy's
   ``Matrix.LUsolve`` followed by ``cancel``.  Each sympy route gets a time budget per size;
   sizes past a route's first time-out are skipped for that route.
3. Printing and strata: JSON of a 20-state two-parameter chain (printed from the polynomials,
   beside the same values printed through sympy, as before), and ``exactpte.stratify`` on
   10-state two-parameter chains whose entries vanish on lines and curves.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
import time

import exactpte
from exactpte.testing.random_chains import parametrize, random_chain


def param_chain(n: int, params, seed: int = 0, rows: int = 4):
    rng = random.Random(seed)
    base = random_chain(n, seed=seed, n_classes=max(1, n // 16), transient_fraction=0.4)
    return parametrize(base, rng.randint, params=params, max_rows=rows, max_rewards=1)


def full_table(sizes):
    print(f"{'chain':>28} {'decompose (s)':>14} {'max deg':>8} {'max terms':>10}")
    cases = [("n=10, params p, q", param_chain(10, ("p", "q"), seed=1, rows=5))]
    cases += [(f"n={n}, param p, {n // 4} rows", param_chain(n, ("p",), seed=2, rows=n // 4)) for n in sizes]
    cases += [(f"n={n}, params p, q, {n // 4} rows", param_chain(n, ("p", "q"), seed=3, rows=n // 4)) for n in sizes[-1:]]
    for name, chain in cases:
        t0 = time.perf_counter()
        dec = exactpte.decompose(chain)
        dt = time.perf_counter() - t0
        vals = [*dec.g_star, *dec.v_star, *dec.h, *dec.rho, *dec.psi]
        deg = int(max(max(x.num.total_degree(), x.den.total_degree()) for x in vals))
        terms = max(len(x.num) + len(x.den) for x in vals)
        print(f"{name:>28} {dt:14.3f} {deg:8d} {terms:10d}", flush=True)


def _block(n: int):
    """A dense-ish one-parameter transient block (I - Q) and right-hand side, as sympy objects."""
    import sympy

    p = sympy.Symbol("p")
    rng = random.Random(n)
    A = sympy.zeros(n, n)
    b = sympy.zeros(n, 1)
    for i in range(n):
        js = rng.sample(range(n), min(n, 3))
        w = [rng.randint(1, 4) for _ in js]
        tot = sum(w) + 2  # leave mass to exit: substochastic
        for j, x in zip(js, w):
            A[i, j] -= sympy.Rational(x, tot) * (p if j == js[0] else 1)
        A[i, i] += 1
        b[i] = sympy.Rational(rng.randint(0, 5), 3) + (p if i % 3 == 0 else 0)
    return A, b, p


def _route(name, n, q):
    import sympy
    from sympy.polys.matrices import DomainMatrix

    A, b, p = _block(n)
    t0 = time.perf_counter()
    if name == "exactpte":
        from exactpte.fields import RationalFunctionField

        F = RationalFunctionField(["p"])
        M = F.matrix([[F.convert(A[i, j]) for j in range(n)] for i in range(n)])
        B = F.matrix([[F.convert(b[i])] for i in range(n)])
        F.solve(M, B)
    elif name == "DomainMatrix":
        K = sympy.QQ.frac_field(p)
        dA = DomainMatrix.from_Matrix(A).convert_to(K)
        db = DomainMatrix.from_Matrix(b).convert_to(K)
        dA.lu_solve(db)
    else:
        x = A.LUsolve(b)
        x.applyfunc(sympy.cancel)
    q.put(time.perf_counter() - t0)


def timed_route(name, n, budget):
    q = mp.Queue()
    proc = mp.Process(target=_route, args=(name, n, q))
    proc.start()
    proc.join(budget)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return None
    return q.get() if not q.empty() else None


def solve_table(sizes, budget):
    routes = ["exactpte", "DomainMatrix", "LUsolve+cancel"]
    print(f"\none block solve, one parameter (seconds; '>' = over the {budget:.0f} s budget)")
    print(f"{'n':>5} " + " ".join(f"{r:>16}" for r in routes) + f" {'DomainMatrix/exactpte':>22}")
    dead = set()
    for n in sizes:
        cells, times = [], {}
        for r in routes:
            t = None if r in dead else timed_route(r, n, budget)
            if t is None:
                dead.add(r)
                cells.append(f"{'>' + str(int(budget)):>16}" if r not in times else "")
            else:
                times[r] = t
                cells.append(f"{t:16.3f}")
        ratio = f"{times['DomainMatrix'] / times['exactpte']:22.1f}" if "DomainMatrix" in times and "exactpte" in times else f"{'-':>22}"
        print(f"{n:5d} " + " ".join(cells) + ratio, flush=True)


def printing_and_strata_table() -> None:
    from exactpte.strata import stratify

    print("\nprinting and strata")
    rng = random.Random(1)
    chain = parametrize(random_chain(20, seed=1, n_classes=3), rng.randint, params=("p", "q"), max_rows=6)
    dec = exactpte.decompose(chain)
    [getattr(dec, q) for q in exactpte.result.QUANTITIES]
    t0 = time.perf_counter()
    text = dec.to_json()
    t_json = time.perf_counter() - t0
    F = chain.field
    values = [x for row in dec.P_inf for x in row] + list(dec.g_star) + list(dec.v_star) + list(dec.h)
    t0 = time.perf_counter()
    for x in values:
        str(F._display(x))
    t_sympy = time.perf_counter() - t0
    print(f"  20-state two-parameter chain: JSON ({len(text)} chars) in {t_json:.3f} s; "
          f"the same values through sympy: {t_sympy:.2f} s")
    times = []
    for seed in range(8):
        r = random.Random(seed)
        c = parametrize(random_chain(10, seed=seed, n_classes=2), r.randint, params=("p", "q"), max_rows=4, products=True)
        t0 = time.perf_counter()
        strat = stratify(c)
        times.append((time.perf_counter() - t0, len(strat.strata)))
    print("  10-state two-parameter chains, stratified: " + ", ".join(f"{t:.2f} s ({k} strata)" for t, k in times))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[16, 32, 48, 64])
    ap.add_argument("--solve-sizes", type=int, nargs="+", default=[4, 8, 16, 24, 32, 48, 64, 96])
    ap.add_argument("--budget", type=float, default=20.0)
    args = ap.parse_args(argv)
    full_table(args.sizes)
    printing_and_strata_table()
    solve_table(args.solve_sizes, args.budget)


if __name__ == "__main__":
    sys.exit(main())
