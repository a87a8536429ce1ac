"""The exact core at scale, beside Storm's exact engine (run by hand: ``python benchmarks/bench_exact.py``).

Three tables, every figure measured in this run on this machine:

1. **Random reducible periodic chains with large transient SCCs** (the expensive case):
   ``exactpte.testing.random_chains.random_chain(n, transient_target_percent=85)``: 30 % transient
   states whose extra edges stay among the transient states 85 % of the time, so most of them form
   one strongly connected block (its size is reported: every phase system and the bias solve are
   dense solves on it); 8 closed classes with periods drawn from 1-4; 2-5 successors a state;
   probabilities with denominators <= 10.  Each size runs in a fresh process (peak RSS is that
   process's), per stage: structure, class solves (stationary distributions, gauge systems),
   the phase basis on T, the basis combinations (g*, ψ, ρ, P∞v* on T), h (on the classes from the gauge solves, on T the classical pass),
   v*, the rest (every other quantity, and the ``n x N`` basis and the absorption probabilities read row by
   row, exactly, as integer numerators over the block solves' shared denominators: ``dec.basis`` is an
   ``ExactRows`` whose entries are cancelled when a row is read); "rho only" is ``dec.rho`` on a
   fresh chain (no basis).  "floor" is the CPU time of building every non-integer ``fmpq`` of the answer
   from its own lowest-terms numerator and denominator: python-flint's constructor takes one gcd of the
   entry's size, so no route that returns these values as ``fmpq`` can spend less (the basis' share in
   brackets: what reading every basis entry as an ``fmpq``, or printing it, adds to the total).
   "bits" is the largest denominator of v* and of the basis.  Every stage is timed in wall clock and in
   the process's CPU seconds ("cpu total", and a "cpu by stage" line under each row; the load average
   beside it): on a shared machine the wall clock stretches with the load and the CPU figures are the
   ones that compare, Storm's CPU time measured the same way.  Storm: exact (rational) DTMC built
   from the DRN export, ``R=? [LRA]`` model checking only (parsing and building excluded), in its
   own process with a cap on its CPU seconds (``--storm-cap``; sizes past the cap are skipped once one
   passes it).  Storm's ρ must equal exactpte's, checked on every size.
2. **Storm's example DTMCs** (``benchmarks/data``: built with Storm's exact builder and exported to
   DRN by ``benchmarks/data/make_models.py``), larger members of the same families and PRISM's scaling
   models (``make_scaling_models.py``: herman9, leader6_3, leader5_4): ρ alone and the full decomposition
   against Storm's exact LRA, in CPU seconds (start-up excluded on both sides: the chain is read before the
   clock starts; Storm's model is built before), and **ρ in process, building included** ("built": reading
   the DRN file, building the chain or model, computing ρ; both tools read the same plain DRN text; CPU
   seconds, median of ``BUILT_REPEATS``), the comparison a user's script makes.
3. **Structure at scale**: chains built from numpy edge arrays (``MarkovRewardProcess.from_arrays``;
   ``exactpte.testing.random_chains.random_chain_arrays``, the same family drawn vectorised) and analysed (closed classes, periods, cyclic classes), against QuantEcon's ``MarkovChain``
   (recurrent classes, then each closed class's period and cyclic classes), n = 10^5 and 10^6.

    python benchmarks/bench_exact.py                      # all three tables
    python benchmarks/bench_exact.py --sizes 300 1000 3000 5000 10000 --skip-models
    python benchmarks/bench_exact.py --sizes 3000 5000 10000 --storm-max 3000 --skip-models --skip-structure
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
REPEATS = 20
"""Millisecond timings (ρ alone on the models, on both sides) are the best of this many runs: at a
millisecond, single runs on this machine move by tens of percent."""
BUILT_REPEATS = 5
"""ρ with the chain read and built, on both sides: the median of this many runs (CPU seconds)."""
DECOMPOSITION = ("theta", "g_star", "v_star", "rho", "h", "psi")
"""The paper's decomposition and its comparison with the classical pair: every quantity but the
``n x N`` ones (``basis``, ``absorption``) and the class-level ones."""
DATA = os.path.join(HERE, "data")


def timed(f, *a, **k):
    t0 = time.perf_counter()
    out = f(*a, **k)
    return out, time.perf_counter() - t0


def timed_cpu(f, *a, **k):
    """``(out, wall seconds, CPU seconds of this process)``: on a shared machine the CPU figure is the one
    that compares (wall clock stretches with the load)."""
    t0, c0 = time.perf_counter(), time.process_time()
    out = f(*a, **k)
    return out, time.perf_counter() - t0, time.process_time() - c0


def timed_quick(f, *a, **k):
    """``(out, CPU seconds)`` with Python's garbage collector paused, as ``timeit`` does: at a millisecond a
    collection triggered by the objects the previous runs left behind is most of the spread (CPU time: on a
    shared machine the wall clock of a millisecond call stretches with the load, by 10x at a load of 12)."""
    gc.disable()
    try:
        return cpu_timed(f, *a, **k)
    finally:
        gc.enable()


def cpu_timed(f, *a, **k):
    """``(out, CPU seconds of this process)``."""
    c0 = time.process_time()
    out = f(*a, **k)
    return out, time.process_time() - c0


def bits(values) -> int:
    return max((int(x.q).bit_length() for x in values), default=0)


# -- table 1: one size, in its own process ---------------------------------------------------------------
def warm_up() -> None:
    """Imports and first-call costs (scipy's graph routines, flint) out of the timed region; the lifting's module
    imports SciPy's sparse LU (0.3-0.5 s of imports, which a small example never loads)."""
    import exactpte
    import exactpte.fields.lifting  # noqa: F401

    dec = exactpte.decompose(exactpte.example("paper-benchmark"))
    [getattr(dec, q) for q in exactpte.results.decomposition.QUANTITIES]


def read_everything(dec) -> None:
    """Every quantity of the decomposition, the ``n x N`` basis and the absorption probabilities read row by row
    exactly, as integer numerators over shared denominators (``ExactRows.parts``: what a caller that uses the
    whole matrix reads; cancelling every entry, what printing each one costs, is the "floor" column)."""
    import exactpte

    values = [getattr(dec, q) for q in exactpte.results.decomposition.QUANTITIES]
    for matrix in (dec.basis, dec.absorption):
        [matrix.parts(s) for s in range(len(matrix))]
    return values


def one_size(n: int, seed: int) -> dict:
    import exactpte
    from exactpte.testing.random_chains import random_chain

    warm_up()

    chain = random_chain(n, seed=seed, transient_target_percent=85)
    S, t_structure, c_structure = timed_cpu(lambda: chain.structure)
    dec = exactpte.decompose(chain)
    work = dec._work
    stages, cpu = {"structure": t_structure}, {"structure": c_structure}
    for name, f in [("class solves", lambda: (work.stationary, work.gauge, work.class_gain, work.psi_coords, work.class_mean_v)),
                    ("phase basis", lambda: work.basis_transient), ("combinations", lambda: work.transient_sums),
                    ("h", lambda: dec.h), ("v*", lambda: dec.v_star),
                    ("rest", lambda: read_everything(dec))]:
        _, stages[name], cpu[name] = timed_cpu(f)
    total = sum(stages.values())
    fresh = random_chain(n, seed=seed, transient_target_percent=85)
    rho_only = timed(lambda: exactpte.decompose(fresh).rho)[1]
    assert exactpte.decompose(fresh).rho == dec.rho
    return {
        "n": n, "nnz": chain.nnz, "T": len(S.transient), "block": max((len(b) for b in S.transient_sccs), default=0),
        "periods": sorted(set(S.periods)), "stages": stages, "total": total, "rho_only": rho_only,
        "stages_cpu": cpu, "total_cpu": sum(cpu.values()), "load": open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "-",
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "bits_v": bits(dec.v_star), "bits_b": bits(x for row in dec.basis_sparse for x in row.values()),
        "rho": [str(x) for x in dec.rho], **answer_floor(dec),
    }


def answer_floor(dec) -> dict:
    """CPU seconds to build every non-integer value of the answer from its lowest terms (one gcd each), in
    total and for the basis alone: a lower bound for any route returning ``fmpq`` values."""
    import flint
    import exactpte

    def fractions(value):
        if isinstance(value, flint.fmpq):
            if value.q != 1:
                yield value.p, value.q
        elif isinstance(value, Sequence) and not isinstance(value, str):  # (tuples, and the basis' ExactRows)
            for x in value:
                yield from fractions(x)

    floor = {}
    for name in exactpte.results.decomposition.QUANTITIES:
        pairs = list(fractions(getattr(dec, name)))
        start = time.process_time()
        for p, q in pairs:
            flint.fmpq(p, q)
        floor[name] = time.process_time() - start
    return {"floor": sum(floor.values()), "floor_basis": floor.get("basis", 0.0)}


def storm_rho_file(path: str, prop: str, built: bool = False) -> dict:
    """Storm's exact LRA on a DRN file: the wall and CPU seconds of the model checking (the model built before; the
    best of ``REPEATS`` runs under a second), and with ``built`` the median CPU seconds of building the model from
    the file and checking it (the models table)."""
    import gzip
    import shutil

    import stormpy

    if path.endswith(".gz"):  # Storm reads plain DRN
        with tempfile.NamedTemporaryFile(suffix=".drn", delete=False) as tmp, gzip.open(path, "rb") as gz:
            shutil.copyfileobj(gz, tmp)
        path = tmp.name
    text = prop
    model = stormpy.build_model_from_drn[stormpy.Rational](path)
    prop = stormpy.parse_properties(prop)[0]
    res, t, c = timed_cpu(stormpy.model_checking, model, prop, only_initial_states=False)
    best = c
    for _ in range(REPEATS - 1 if c < 1.0 else 0):  # millisecond timings: the best of REPEATS, as for exactpte's ρ alone
        best = min(best, timed_quick(stormpy.model_checking, model, prop, only_initial_states=False)[1])
    runs = []
    for _ in range((BUILT_REPEATS if c < 1.0 else 3) if built else 0):  # built from the file, then checked: CPU, median
        gc.collect()
        start = time.process_time()
        stormpy.model_checking(stormpy.build_model_from_drn[stormpy.Rational](path), stormpy.parse_properties(text)[0],
                               only_initial_states=False)
        runs.append(time.process_time() - start)
    vals = [f"{v.numerator}/{v.denominator}" if str(v.denominator) != "1" else str(v.numerator) for v in res.get_value_vector()]
    return {"seconds": t, "cpu": c, "cpu_best": best, "built": statistics.median(runs) if runs else None, "rho": vals}


def in_process(args: list[str], timeout: float | None = None, script: str = __file__) -> dict | None:
    """Run ``script`` (this one by default) with ``args`` in a fresh process; its last stdout line is JSON
    (``None`` past ``timeout``).  ``timeout`` is CPU seconds of the child, read from ``/proc`` every second (on a
    shared machine a wall-clock cap stretches with the load: Storm's 60-100 CPU s at n = 3,000 passed 600 s of wall
    at a load of 10; ``RLIMIT_CPU`` would do it, but it leaves the child's ``process_time`` counting whole ticks),
    a wall-clock cap where ``/proc`` is missing."""
    started = time.perf_counter()
    with subprocess.Popen([sys.executable, script, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        try:
            while True:
                try:
                    out, err = proc.communicate(timeout=1.0)
                    break
                except subprocess.TimeoutExpired:
                    if timeout is not None and child_cpu(proc.pid, started) > timeout:
                        proc.kill()
                        proc.communicate()
                        return None
        finally:
            if proc.poll() is None:
                proc.kill()
    if proc.returncode:
        raise RuntimeError(err[-2000:])
    return json.loads(out.strip().splitlines()[-1])


def child_cpu(pid: int, started: float) -> float:
    """A running child's CPU seconds (user + system, from ``/proc/PID/stat``), or its wall seconds since ``started``
    where there is no ``/proc``."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return time.perf_counter() - started


def have_stormpy() -> bool:
    try:
        import stormpy  # noqa: F401
    except ImportError:
        return False
    return True


def random_table(sizes, seed: int, storm_cap: float, storm_max: int | None = None) -> None:
    from exactpte.io import to_drn
    from exactpte.testing.random_chains import random_chain

    storm = have_stormpy()
    head = (f"{'n':>6} {'|T|':>5} {'block':>5} {'structure':>9} {'classes':>8} {'basis':>7} {'combine':>7} {'h':>6} "
            f"{'v*':>5} {'rest':>5} {'total':>7} {'rho only':>8} {'peak MB':>8} {'bits v*':>7} {'bits b':>6} "
            f"{'storm rho':>9} {'storm/total':>11} {'cpu total':>9} {'floor':>13} {'storm cpu':>9} {'cpu ratio':>9} {'load':>5}")
    print("random reducible periodic chains, large transient SCCs (seconds; one process per size; stage columns wall clock,"
          " 'cpu' columns process CPU time, the figure that compares on a shared machine)")
    print(head)
    print("-" * len(head), flush=True)
    storm_skipped = False
    for n in sizes:
        r = in_process(["--one", str(n), "--seed", str(seed)])
        st = r["stages"]
        t_storm = c_storm = None
        if storm and not storm_skipped and (storm_max is None or n <= storm_max):
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, "m.drn")
                with open(path, "w") as fh:
                    fh.write(to_drn(random_chain(n, seed=seed, transient_target_percent=85)))
                s = in_process(["--storm", path, 'R{"r"}=? [ LRA ]'], timeout=storm_cap)
            if s is None:
                storm_skipped = True
            else:
                assert s["rho"] == r["rho"], "Storm's exact rho differs from exactpte's"
                t_storm, c_storm = s["seconds"], s["cpu"]
        storm_col = f"{t_storm:9.2f}" if t_storm is not None else (f"{'>' + str(int(storm_cap)):>9}" if storm and storm_skipped else f"{'-':>9}")
        ratio = f"{t_storm / r['total']:11.1f}" if t_storm is not None else f"{'-':>11}"
        storm_cpu = f"{c_storm:9.2f}" if c_storm is not None else f"{'-':>9}"
        cpu_ratio = f"{c_storm / r['total_cpu']:9.1f}" if c_storm is not None else f"{'-':>9}"
        print(f"{n:6d} {r['T']:5d} {r['block']:5d} {st['structure']:9.3f} {st['class solves']:8.2f} {st['phase basis']:7.2f} "
              f"{st['combinations']:7.2f} {st['h']:6.2f} {st['v*']:5.2f} {st['rest']:5.2f} {r['total']:7.2f} "
              f"{r['rho_only']:8.2f} {r['peak_mb']:8.0f} {r['bits_v']:7d} {r['bits_b']:6d} {storm_col} {ratio} "
              f"{r['total_cpu']:9.2f} {r['floor']:6.2f} ({r['floor_basis']:5.2f}) {storm_cpu} {cpu_ratio} {r['load']:>5}", flush=True)
        print("       cpu by stage: " + ", ".join(f"{k} {v:.2f}" for k, v in r["stages_cpu"].items()), flush=True)
        if storm_skipped and t_storm is None and storm:
            print(f"       (Storm exceeded the {storm_cap:.0f} s cap; larger sizes skip it)", flush=True)


# -- table 2: Storm's example models ------------------------------------------------------------------
def one_model(path: str, reward: str) -> dict:
    import exactpte
    from exactpte.io import load

    warm_up()
    t_rho = float("inf")
    for _ in range(REPEATS):  # the best of REPEATS fresh loads (millisecond timings), structure analysis included
        chain = load(path, reward_model=reward or None)
        rho, t = timed_quick(lambda: exactpte.decompose(chain).rho)
        t_rho = min(t_rho, t)
    t_dec = float("inf")
    for _ in range(REPEATS if t_rho < 0.05 else 3):  # the decomposition and its classical comparison, no n x N output
        chain = load(path, reward_model=reward or None)
        t_dec = min(t_dec, timed_quick(lambda: [getattr(exactpte.decompose(chain), q) for q in DECOMPOSITION])[1])
    chain = load(path, reward_model=reward or None)  # fresh: the structure is timed again
    dec, t_full = cpu_timed(lambda: exactpte.decompose(chain))
    t_full += cpu_timed(lambda: read_everything(dec))[1]
    S = chain.structure
    built = []
    for _ in range(BUILT_REPEATS if t_rho < 1.0 else 3):  # ρ with the file read and the chain built, as Storm's below
        gc.collect()
        start = time.process_time()
        exactpte.decompose(load(path, reward_model=reward or None)).rho
        built.append(time.process_time() - start)
    return {"n": chain.n, "classes": len(S.classes), "T": len(S.transient),
            "block": max((len(b) for b in S.transient_sccs), default=0), "rho_s": t_rho, "dec_s": t_dec, "full_s": t_full,
            "rho_built": statistics.median(built), "rho": [str(x) for x in rho],
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def models_table(storm_cap: float, names: list[str] | None = None) -> None:
    import gzip
    import shutil

    with open(os.path.join(DATA, "models.json")) as fh:
        models = json.load(fh)
    if names:
        models = {name: models[name] for name in names}
    storm = have_stormpy()
    print("\nStorm's example DTMCs, larger members of their families and PRISM's scaling models (seconds; ρ checked equal to"
          " Storm's).  'built' columns: CPU seconds of reading the file, building the chain and computing ρ, on both sides"
          f" in process, median of {BUILT_REPEATS} (3 past a second); the others CPU seconds too, the best of {REPEATS}, the"
          " chain read and Storm's model built before the clock")
    head = (f"{'model':>16} {'n':>6} {'classes':>7} {'|T|':>5} {'block':>5} {'rho':>7} {'g*,v*..':>7} {'full':>7} {'peak MB':>7} "
            f"{'storm':>7} {'rho/storm':>9} {'dec/storm':>9} {'full/storm':>10} {'built':>7} {'storm built':>11} "
            f"{'built/storm':>11} {'load':>5}")
    print(head)
    print("-" * len(head), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, spec in models.items():
            path = os.path.join(tmp, name + ".drn")  # both tools read the same plain DRN text (Storm reads no gzip)
            with gzip.open(os.path.join(DATA, spec["file"]), "rb") as gz, open(path, "wb") as out:
                shutil.copyfileobj(gz, out)
            r = in_process(["--model", path, "--reward", spec["reward"]])
            s = in_process(["--storm", path, spec["property"], "--built"], timeout=storm_cap) if storm else None
            if s is not None:
                assert s["rho"] == r["rho"], f"{name}: Storm's exact rho differs from exactpte's"
            st = f"{s['cpu_best']:7.4f}" if s else f"{'-':>7}"
            q1 = f"{r['rho_s'] / s['cpu_best']:9.1f}" if s else f"{'-':>9}"
            q2 = f"{r['full_s'] / s['cpu_best']:10.1f}" if s else f"{'-':>10}"
            q3 = f"{r['dec_s'] / s['cpu_best']:9.1f}" if s else f"{'-':>9}"
            sb = f"{s['built']:11.4f}" if s else f"{'-':>11}"
            q4 = f"{r['rho_built'] / s['built']:11.2f}" if s else f"{'-':>11}"
            print(f"{name:>16} {r['n']:6d} {r['classes']:7d} {r['T']:5d} {r['block']:5d} {r['rho_s']:7.4f} {r['dec_s']:7.4f} "
                  f"{r['full_s']:7.2f} {r['peak_mb']:7.0f} {st} {q1} {q3} {q2} {r['rho_built']:7.4f} {sb} {q4} {load_average()}", flush=True)


def load_average() -> str:
    """The 1-minute load average (``-`` where the system does not say)."""
    return open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "-"


# -- table 3: structure at scale --------------------------------------------------------------------
def structure_table(sizes, seed: int) -> None:
    import numpy as np

    from exactpte import MarkovRewardProcess
    from exactpte.testing.random_chains import random_chain_arrays

    print("\nstructure at scale: build from numpy edge arrays + analysis (seconds)")
    head = f"{'n':>8} {'nnz':>9} {'build':>7} {'analysis':>8} {'total':>7} {'quantecon':>9} {'qe/total':>8}"
    print(head)
    print("-" * len(head), flush=True)
    try:
        import quantecon as qe
        import scipy.sparse as sp
    except ImportError:
        qe = None
    for n in sizes:
        rows, cols, num, den, r = random_chain_arrays(n, seed=seed)
        chain, t_build = timed(MarkovRewardProcess.from_arrays, n, rows, cols, num, den, r)
        S, t_an = timed(lambda: chain.structure)
        t_qe = None
        if qe is not None:
            P = sp.csr_matrix((num / den, (rows, cols)), shape=(n, n))

            def qe_structure():
                mc = qe.MarkovChain(P)
                out = []
                for cls in mc.recurrent_classes:
                    cls = np.sort(cls)
                    sub = qe.MarkovChain(P[cls][:, cls])
                    out.append((tuple(cls.tolist()), sub.period))
                return out

            qe_out, t_qe = timed(qe_structure)
            assert sorted(c for c, _ in qe_out) == sorted(S.classes)
            assert sorted(d for _, d in qe_out) == sorted(S.periods)
        qs = f"{t_qe:9.3f}" if t_qe is not None else f"{'-':>9}"
        ratio = f"{t_qe / (t_build + t_an):8.1f}" if t_qe is not None else f"{'-':>8}"
        print(f"{n:8d} {len(rows):9d} {t_build:7.3f} {t_an:8.3f} {t_build + t_an:7.3f} {qs} {ratio}", flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[300, 1000, 3000, 5000])
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--storm-cap", type=float, default=600.0, help="CPU seconds Storm may take on one size (default 600)")
    p.add_argument("--storm-max", type=int, default=None, help="run Storm only on sizes up to this n (default: every size, until one passes the cap)")
    p.add_argument("--structure-sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    p.add_argument("--models", nargs="+", help="only these models of benchmarks/data/models.json")
    p.add_argument("--skip-random", action="store_true")
    p.add_argument("--skip-models", action="store_true")
    p.add_argument("--skip-structure", action="store_true")
    p.add_argument("--one", type=int, help=argparse.SUPPRESS)
    p.add_argument("--model", help=argparse.SUPPRESS)
    p.add_argument("--reward", help=argparse.SUPPRESS)
    p.add_argument("--storm", nargs=2, help=argparse.SUPPRESS)
    p.add_argument("--built", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.one is not None:
        print(json.dumps(one_size(args.one, args.seed)))
        return 0
    if args.model is not None:
        print(json.dumps(one_model(args.model, args.reward)))
        return 0
    if args.storm is not None:
        print(json.dumps(storm_rho_file(*args.storm, built=args.built)))
        return 0
    if not args.skip_random:
        random_table(args.sizes, args.seed, args.storm_cap, args.storm_max)
    if not args.skip_models:
        models_table(args.storm_cap, args.models)
    if not args.skip_structure:
        structure_table(args.structure_sizes, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
