"""Parametric decomposition timings (run by hand: ``python benchmarks/bench_symbolic.py``).

0. **Beside Storm's parametric engine** (``--tables storm``): Storm's parametric example DTMCs
   (``parametric_die``, ``herman5``, ``brp16_2``, ``crowds3_5``), larger members of the same
   families (brp with N = 64, crowds with 5 good members) and a periodic two-parameter chain of
   37 states, kept as DRN in ``benchmarks/data`` (``benchmarks/data/make_parametric.py``; the
   reward is the indicator of the label ``share``).  Each model runs in a fresh process that
   holds both tools: Storm builds the model from the same DRN file (``RationalFunction``) and
   checks ``LRA=? [ "share" ]`` (best of several runs when it takes milliseconds); exactpte reads
   the file, then ρ alone, ρ + h, and the full decomposition (θ, g*, v*, ρ, h, ψ, the basis) are
   timed on fresh chains (reading and building excluded on both sides; ρ + h and the full
   decomposition are the best of 3 runs, each on a fresh chain).  Storm's ρ is parsed
   back into ``QQ(params)`` and compared with exactpte's, state by state, as rational functions.
   The size of the answers is printed beside the times: the terms of every numerator and
   denominator of ρ and h, and of the full decomposition (nonzero basis entries), and their ratio,
   a floor for "full / (rho + h)" unless the larger answers cost less a term than ρ and h do.
   The table also times Storm's build of the model from the DRN file, exactpte's reading of the
   same text, and the JSON write of the full answer (without P∞; "MB/s" is its size over its time).
0b. **What the command pays** (``--tables cli``): each tool as a fresh process, start-up and
   imports included, CPU seconds (user + system, the process's own accounting) and wall: Storm
   builds the model from the DRN file and checks ``LRA=? [ "share" ]``; exactpte runs
   ``decompose F.drn --json --only rho`` and (unless ``--no-full-cli``) ``decompose F.drn --json
   --no-p-inf`` (read, compute, write).  Alternately, the median of ``--runs`` runs after an untimed
   one (bytecode caching on in the children, as for an installed package).  Beside them, in one process
   holding both tools: Storm's build from the DRN file against ``read_drn``, ρ, and the ρ write.
   Run from the repository root.
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
import json
import multiprocessing as mp
import os
import random
import subprocess
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
    from exactpte.results.stratify import stratify

    print("\nprinting and strata")
    rng = random.Random(1)
    chain = parametrize(random_chain(20, seed=1, n_classes=3), rng.randint, params=("p", "q"), max_rows=6)
    dec = exactpte.decompose(chain)
    [getattr(dec, q) for q in exactpte.results.decomposition.QUANTITIES]
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


DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
FULL = ("theta", "g_star", "v_star", "rho", "h", "psi", "basis")
REPEATS = 10
FULL_REPEATS = 3  # ρ + h and the full decomposition: the best of 3, each on a fresh chain


def _timed(chain, quantities) -> tuple[object, float]:
    """A fresh decomposition of ``chain`` with ``quantities`` read, and the time that took."""
    t0 = time.perf_counter()
    dec = exactpte.decompose(chain)
    for q in quantities:
        getattr(dec, q)
    return dec, time.perf_counter() - t0


def _best(f, repeats: int) -> tuple[object, float]:
    """``f()`` and its best time over ``repeats`` runs (one run past 0.5 s)."""
    t0 = time.perf_counter()
    out = f()
    best = time.perf_counter() - t0
    for _ in range(repeats - 1 if best < 0.5 else 0):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return out, best


def one_model(name: str) -> dict:
    """Storm's ρ and exactpte's ρ, ρ + h and full decomposition on one model, in this process."""
    import gzip
    import shutil
    import tempfile

    import stormpy

    from exactpte.io.drn import read_drn

    with open(os.path.join(DATA, "parametric.json")) as fh:
        spec = json.load(fh)[name]
    path = os.path.join(DATA, spec["file"])
    with gzip.open(path, "rt") as fh:
        text = fh.read()
    with tempfile.NamedTemporaryFile("wb", suffix=".drn", delete=False) as tmp, gzip.open(path, "rb") as gz:
        shutil.copyfileobj(gz, tmp)
    model, t_build = _best(lambda: stormpy.build_model_from_drn[stormpy.RationalFunction](tmp.name), 3)
    os.remove(tmp.name)
    prop = stormpy.parse_properties(spec["property"])[0]
    res, t_storm = _best(lambda: stormpy.model_checking(model, prop, only_initial_states=False), REPEATS)
    storm_rho = [str(v) for v in res.get_value_vector()]
    exactpte.decompose(read_drn(text)).rho  # warm-up: imports, first-call costs
    _, t_read = _best(lambda: read_drn(text), 3)
    chains = [read_drn(text) for _ in range(REPEATS + 2 * FULL_REPEATS)]
    rho, t_rho = _best(lambda: exactpte.decompose(chains.pop()).rho, REPEATS)
    t_rho_h = min(_timed(chains.pop(), ("rho", "h"))[1] for _ in range(FULL_REPEATS))
    dec, t_full = min((_timed(chains.pop(), FULL) for _ in range(FULL_REPEATS)), key=lambda pair: pair[1])
    t0 = time.perf_counter()
    written = dec.to_json(include_P_inf=False)
    t_write = time.perf_counter() - t0
    out_rho_h = _terms([*dec.rho, *dec.h])
    out_full = out_rho_h + _terms([*dec.theta, *dec.g_star, *dec.v_star, *dec.psi, *(x for row in dec.basis for x in row if x != 0)])
    F, parsed = dec.field, {}
    equal = all(x == (parsed[y] if y in parsed else parsed.setdefault(y, _storm_value(F, y))) for x, y in zip(rho, storm_rho))
    return {"name": name, "n": dec.chain.n, "params": len(F.params), "periods": sorted(set(dec.periods)),
            "storm": t_storm, "storm_build": t_build, "read": t_read, "write": t_write, "written_mb": len(written) / 1e6,
            "rho": t_rho, "rho_h": t_rho_h, "full": t_full, "equal": equal,
            "terms_rho_h": out_rho_h, "terms_full": out_full}


def _terms(values) -> int:
    """The size of some answers: the terms of their numerators and denominators."""
    return sum(len(x.num) + len(x.den) for x in values)


def _storm_value(F, text: str):
    """Storm's printed rational function as an element of ``F`` (through sympy: exponents can exceed
    what exactpte's entry parser accepts)."""
    import sympy

    return F.convert(sympy.sympify(text.replace("^", "**"), locals={p: sympy.Symbol(p, real=True) for p in F.params}))


def storm_table(names) -> None:
    """Table 0: every model in its own process (both tools in it)."""
    print("beside Storm's parametric engine (seconds; reading and building excluded on both sides)")
    head = (f"{'model':>15} {'states':>6} {'par':>3} {'periods':>9} {'Storm build':>11} {'read':>6} {'Storm rho':>10} {'rho':>8} {'rho/Storm':>9} "
            f"{'rho+h':>7} {'full':>8} {'write':>7} {'MB/s':>5} {'full/(rho+h)':>12} {'terms rho+h':>11} {'terms full':>10} {'ratio':>6} {'equal':>5}")
    print(head)
    print("-" * len(head), flush=True)
    for name in names:
        out = subprocess.run([sys.executable, __file__, "--one-model", name], capture_output=True, text=True, check=True)
        r = json.loads(out.stdout.strip().splitlines()[-1])
        periods = ",".join(map(str, r["periods"]))
        print(f"{r['name']:>15} {r['n']:6d} {r['params']:3d} {periods:>9} {r['storm_build']:11.4f} {r['read']:6.3f} "
              f"{r['storm']:10.4f} {r['rho']:8.4f} "
              f"{r['rho'] / r['storm']:9.1f} {r['rho_h']:7.3f} {r['full']:8.3f} {r['write']:7.2f} "
              f"{r['written_mb'] / r['write']:5.1f} {r['full'] / r['rho_h']:12.1f} "
              f"{r['terms_rho_h']:11,d} {r['terms_full']:10,d} {r['terms_full'] / r['terms_rho_h']:6.1f} "
              f"{'yes' if r['equal'] else 'NO':>5}", flush=True)


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _child_env() -> dict[str, str]:
    """The environment of the timed processes: bytecode caching on (an installed package has its ``.pyc``
    files; with ``PYTHONDONTWRITEBYTECODE`` set, every exactpte process would compile its ~60 modules
    again, about 0.15 s of CPU), the repository first on the path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _process(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the child's own accounting) of one process run."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(argv, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_child_env())
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


_STORM_PROCESS = """import sys, stormpy
model = stormpy.build_model_from_drn[stormpy.RationalFunction](sys.argv[1])
stormpy.model_checking(model, stormpy.parse_properties(sys.argv[2])[0], only_initial_states=False)
"""

_IN_PROCESS = """import json, statistics, sys, time
import stormpy
import exactpte
from exactpte.io.drn import read_drn
from exactpte.results import report
from exactpte.results.decomposition import decompose
path, runs = sys.argv[1], int(sys.argv[2])
text = open(path).read()
cpu = time.process_time
build, read, rho, write = [], [], [], []
for _ in range(runs):  # alternately, CPU seconds of this process
    t = cpu(); stormpy.build_model_from_drn[stormpy.RationalFunction](path); build.append(cpu() - t)
    t = cpu(); chain = read_drn(text); read.append(cpu() - t)
    t = cpu(); dec = decompose(chain); dec.rho; rho.append(cpu() - t)
    t = cpu(); report.to_json(dec, only=["rho"]); write.append(cpu() - t)
print(json.dumps({k: statistics.median(v) for k, v in
                  (("build", build), ("read", read), ("rho", rho), ("write", write))}))
"""


def cli_table(names, runs: int, full: bool = True) -> None:
    """Table 0b: what a user's command pays, each tool a process of its own (start-up, imports, reading,
    computing, writing): Storm builds the model from the DRN file and checks ``LRA=? [ "share" ]``;
    exactpte runs ``decompose F.drn --json --only rho`` (and, with ``full``, ``--json --no-p-inf``).
    Processes run alternately, after one untimed run of each (bytecode written, files cached); the
    median of ``runs``.  Beside them, in one process holding both tools (medians of ``runs``, CPU):
    Storm's build of its parametric model from the DRN file, exactpte's ``read_drn`` of the same
    text, ρ on the read chain, and the ``--only rho`` JSON write."""
    import gzip
    import shutil
    import statistics
    import tempfile

    with open(os.path.join(DATA, "parametric.json")) as fh:
        specs = json.load(fh)
    print(f"\nwhat the command pays (CPU seconds = user + system of the process, median of {runs} runs; wall in brackets; "
          f"load average {open('/proc/loadavg').read().split()[0]})")
    head = (f"{'model':>15} {'Storm process':>16} {'--only rho':>16} {'rho/Storm':>9} {'read_drn':>8} {'Storm build':>11} "
            f"{'read/build':>10} {'rho':>7} {'write rho':>9}" + (f" {'full --json':>16} {'MB':>6}" if full else ""))
    print(head)
    print("-" * len(head), flush=True)
    for name in names:
        spec = specs[name]
        with tempfile.NamedTemporaryFile("wb", suffix=".drn", delete=False) as tmp, \
                gzip.open(os.path.join(DATA, spec["file"]), "rb") as gz:
            shutil.copyfileobj(gz, tmp)
        storm_cmd = [sys.executable, "-c", _STORM_PROCESS, tmp.name, spec["property"]]
        exe = [sys.executable, "-m", "exactpte", "decompose", tmp.name, "--quiet", "--json"]
        rho_cmd = exe + ["--only", "rho"]
        _process(storm_cmd), _process(rho_cmd)  # untimed: bytecode written, files cached
        storm, rho = [], []
        for _ in range(runs):
            storm.append(_process(storm_cmd))
            rho.append(_process(rho_cmd))
        inner = json.loads(subprocess.run([sys.executable, "-c", _IN_PROCESS, tmp.name, str(max(runs, 3))], cwd=ROOT,
                                          check=True, capture_output=True, text=True, env=_child_env()).stdout.splitlines()[-1])
        tail = ""
        if full:
            full_runs = [_process(exe + ["--no-p-inf"]) for _ in range(runs)]
            written = subprocess.run(exe + ["--no-p-inf"], cwd=ROOT, check=True, capture_output=True, env=_child_env()).stdout
            tail = f" {_cell(full_runs):>16} {len(written) / 1e6:6.1f}"
        os.remove(tmp.name)
        cpu = lambda xs: statistics.median(x[1] for x in xs)
        print(f"{name:>15} {_cell(storm):>16} {_cell(rho):>16} {cpu(rho) / cpu(storm):9.2f} {inner['read']:8.4f} "
              f"{inner['build']:11.4f} {inner['read'] / inner['build']:10.2f} {inner['rho']:7.3f} {inner['write']:9.3f}{tail}",
              flush=True)


def _cell(xs: list[tuple[float, float]]) -> str:
    """``CPU [wall]``: the medians of some process runs."""
    import statistics

    return f"{statistics.median(x[1] for x in xs):7.2f} [{statistics.median(x[0] for x in xs):6.2f}]"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", nargs="+", default=["storm", "cli", "full", "strata", "solve"],
                    choices=["storm", "cli", "full", "strata", "solve"])
    ap.add_argument("--runs", type=int, default=5, help="process runs per command of the cli table (median)")
    ap.add_argument("--no-full-cli", action="store_true", help="cli table: leave out the full --json command (long on brp64_2)")
    ap.add_argument("--models", nargs="+", default=None, help="models of the Storm table (default: all)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[16, 32, 48, 64])
    ap.add_argument("--solve-sizes", type=int, nargs="+", default=[4, 8, 16, 24, 32, 48, 64, 96])
    ap.add_argument("--budget", type=float, default=20.0)
    ap.add_argument("--one-model", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one_model:
        print(json.dumps(one_model(args.one_model)))
        return
    if "storm" in args.tables:
        with open(os.path.join(DATA, "parametric.json")) as fh:
            storm_table(args.models or list(json.load(fh)))
    if "cli" in args.tables:
        with open(os.path.join(DATA, "parametric.json")) as fh:
            cli_table(args.models or list(json.load(fh)), args.runs, full=not args.no_full_cli)
    if "full" in args.tables:
        full_table(args.sizes)
    if "strata" in args.tables:
        printing_and_strata_table()
    if "solve" in args.tables:
        solve_table(args.solve_sizes, args.budget)


if __name__ == "__main__":
    sys.exit(main())
