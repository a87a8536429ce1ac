"""``proofs-check chain`` on PRISM's real models: seconds (CPU and wall) and the verdict counts.

Run by hand from the repository root: ``python benchmarks/bench_proofs_check.py``.  Each model runs in a fresh
process (``proofs-check chain FILE --json``: decomposition by exactpte, then every independent check and exactpte's
own cross-check); CPU is that process's user + system time (``resource.getrusage(RUSAGE_CHILDREN)``), wall its
elapsed time, both printed with the load average, since on a shared machine wall time is inflated by the load.
A model that gives no report within ``--timeout`` seconds is reported as such.

    python benchmarks/bench_proofs_check.py                          # herman9 nand-5-2 leader6_3 crowds-5-5
    python benchmarks/bench_proofs_check.py --models herman9 --repeats 3
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")
MODELS = {"herman9": "herman9.drn.gz", "nand-5-2": "nand-5-2.drn.gz", "leader6_3": "leader6_3.drn.gz",
          "crowds-5-5": "crowds-5-5.drn.gz"}
COLUMNS = ("held", "failed", "not checked", "not applicable", "not claimed")


def run_one(path: str, timeout: float) -> dict:
    """One ``proofs-check chain --json`` in a fresh process: CPU and wall seconds, states, verdict counts."""
    code = "import sys; from proofs_check.cli import main; sys.exit(main(sys.argv[1:]))"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-c", code, "chain", path, "--json"], cwd=ROOT, capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"wall": time.perf_counter() - t0, "timeout": True}
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    verdicts = json.loads(proc.stdout)
    counts = collections.Counter(v["status"] for v in verdicts if v.get("kind") != "cross-check")
    cross = collections.Counter(v["status"] for v in verdicts if v.get("kind") == "cross-check")
    return {"wall": wall, "cpu": cpu, "counts": counts, "cross": cross, "exit": proc.returncode,
            "not_checked": [v["key"] for v in verdicts if v["status"] == "not checked"]}


def _states(path: str) -> int:
    from exactpte.io import load

    return load(path).n


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--models", nargs="+", default=list(MODELS), choices=list(MODELS))
    p.add_argument("--repeats", type=int, default=1, help="runs per model; medians are printed")
    p.add_argument("--timeout", type=float, default=900.0, help="seconds of wall time before a run is abandoned")
    args = p.parse_args(argv)
    sys.path.insert(0, ROOT)
    print("| model | states | CPU s | wall s | load avg | held | failed | not checked | n/a | not claimed | exit |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in args.models:
        path = os.path.join(DATA, MODELS[name])
        runs, loads = [], []
        for _ in range(args.repeats):
            loads.append(os.getloadavg()[0])
            runs.append(run_one(path, args.timeout))
        n = _states(path)
        load = f"{statistics.median(loads):.1f}"
        if any(r.get("timeout") for r in runs):
            print(f"| {name} | {n:,} | - | > {args.timeout:.0f} | {load} | no report within the timeout | | | | | |")
            continue
        cpu, wall = statistics.median(r["cpu"] for r in runs), statistics.median(r["wall"] for r in runs)
        c = runs[-1]["counts"]
        print(f"| {name} | {n:,} | {cpu:.1f} | {wall:.1f} | {load} | " + " | ".join(str(c.get(k, 0)) for k in COLUMNS)
              + f" | {runs[-1]['exit']} |", flush=True)
        if runs[-1]["not_checked"]:
            print(f"|   not checked: {', '.join(runs[-1]['not_checked'])} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
