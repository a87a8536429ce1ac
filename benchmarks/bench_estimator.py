"""Estimator throughput (run by hand: ``python benchmarks/bench_estimator.py``).

Samples per second of the vectorised stages on the paper's 82-state benchmark and on
larger instances (the transient line extended, N = 5): absorption episodes (all |T|·M
episodes advance together) and the synchronous projected SA loop (n samples per iteration),
plus the whole 5-seed reproduction at the paper's budgets.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from exactpte.estimator import TableModel, build_gauge, estimate, estimate_weights, projected_sa, truth_of
from exactpte.estimator.algorithms import structure_from
from exactpte.model.examples import paper_benchmark
from exactpte.model.to_float import to_floats


def stage_rates(chain, M=900, T=2600, seed=0):
    model = TableModel.from_chain(chain)
    learned = structure_from([chain.support[s] for s in range(chain.n)])
    rng = np.random.default_rng(seed)
    q0 = model.queries
    t0 = time.perf_counter()
    bhat = estimate_weights(model, learned, M, rng)
    t_w = time.perf_counter() - t0
    q_w = model.queries - q0
    r = to_floats(chain.r)
    gauge = build_gauge(learned.anchors, bhat)
    q0 = model.queries
    t0 = time.perf_counter()
    projected_sa(model, r, gauge, T, rng)
    t_sa = time.perf_counter() - t0
    q_sa = model.queries - q0
    return q_w, t_w, q_sa, t_sa


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args(argv)
    print(f"{'n':>6} {'episode samples':>16} {'s':>7} {'samples/s':>12} {'SA samples':>11} {'s':>7} {'samples/s':>12}")
    for n in (82, 290, 1040, 1540):
        chain = paper_benchmark(line_length=n - 47)
        q_w, t_w, q_sa, t_sa = stage_rates(chain)
        print(f"{n:6d} {q_w:16,d} {t_w:7.3f} {q_w / t_w:12,.0f} {q_sa:11,d} {t_sa:7.3f} {q_sa / t_sa:12,.0f}", flush=True)
    chain = paper_benchmark()
    truth = truth_of(chain)
    t0 = time.perf_counter()
    total = 0
    for seed in range(5):
        total += estimate(chain, seed=seed, truth=truth).queries["total"]
    dt = time.perf_counter() - t0
    print(f"\n5-seed benchmark at the paper's budgets: {dt:.2f} s, {total:,d} generative queries ({total / dt:,.0f} /s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
