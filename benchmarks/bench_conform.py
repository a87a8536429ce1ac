"""``exactpte conform``'s cost, as the tester pays it (run by hand: ``python benchmarks/bench_conform.py``).

For each adapter of ``tests/data/conform`` (the issue's four: QuantEcon on a dense matrix, QuantEcon on a CSR
matrix storing its zeros, pymdptoolbox's RVI, the gain as ``P^200 r``; a peer missing is skipped with a note):

- ``conform``: the whole command in a fresh process, ``exactpte conform ADAPTER --corpus C --json R --quiet``
  (start-up, loading the adapter and its library, building the corpus, every call, every exact answer, every
  comparison, grouping, shrinking, writing the JSON): wall and CPU seconds of the child process;
- ``loop``: the peer in the same run, the page of code a tester writes by hand: the same corpus, the adapter
  called on each chain and its output handed to ``exactpte.testing.compare`` (no grouping, no shrinking),
  in a fresh process as well.

The target (issue 45): every ``conform`` run on ``exhaustive:3`` in at most 120 s on this 2-core machine.

    python benchmarks/bench_conform.py                        # exhaustive:3
    python benchmarks/bench_conform.py --corpus exhaustive:3,edge,random:200
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, "tests", "data", "conform")
ADAPTERS = {"quantecon_dense.py": "quantecon", "quantecon_csr_zeros.py": "quantecon", "mdptoolbox_rvi.py": "mdptoolbox",
            "power_gain.py": None}
TARGET = 120.0

LOOP = """
import sys
from exactpte.oracle.conformance import load_adapter, CHAINS
from exactpte.oracle.corpora import cases_of
from exactpte.testing import compare
solve = load_adapter(sys.argv[1])
wrong = 0
for case in cases_of(sys.argv[2]):
    P, r = CHAINS.arguments(case.problem, "float")
    try:
        wrong += not compare(solve(P, r), case.problem).ok
    except Exception:
        wrong += 1
print(wrong)
"""


def timed(argv: list[str]) -> tuple[float, float, str]:
    """Wall and CPU seconds of a child process, and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": ROOT})
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({res.returncode}): {res.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), res.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default="exhaustive:3")
    args = ap.parse_args()
    print(f"exactpte conform --corpus {args.corpus} (load average {os.getloadavg()[0]:.1f}; target <= {TARGET:.0f} s each)\n")
    print(f"{'adapter':26} {'judged':>6} {'agreed':>6} {'groups':>6} {'smallest':>8} {'conform wall':>12} {'cpu':>6} "
          f"{'loop wall':>9} {'cpu':>6}")
    worst = 0.0
    for adapter, module in ADAPTERS.items():
        if module is not None and importlib.util.find_spec(module) is None:
            print(f"{adapter:26} skipped: {module} is not installed (pip install \"exactpte[peers]\")")
            continue
        path = os.path.join(DATA, adapter)
        with tempfile.TemporaryDirectory() as tmp:
            report = os.path.join(tmp, "r.json")
            wall, cpu, _ = timed([sys.executable, "-m", "exactpte", "conform", path, "--corpus", args.corpus, "--json", report, "--quiet"])
            with open(report) as fh:
                data = json.load(fh)
        loop_wall, loop_cpu, wrong = timed([sys.executable, "-c", LOOP, path, args.corpus])
        assert int(wrong) == data["judged"] - data["agreed"], (wrong, data["judged"], data["agreed"])
        smallest = max((f["states"] for f in data["failures"]), default=0)
        worst = max(worst, wall)
        print(f"{adapter:26} {data['judged']:6} {data['agreed']:6} {len(data['failures']):6} {smallest:8} {wall:11.1f}s "
              f"{cpu:5.1f}s {loop_wall:8.1f}s {loop_cpu:5.1f}s")
    print(f"\nslowest conform run: {worst:.1f} s ({'within' if worst <= TARGET else 'PAST'} the {TARGET:.0f} s target); "
          "'smallest': the most states of any group's smallest counterexample")


if __name__ == "__main__":
    main()
