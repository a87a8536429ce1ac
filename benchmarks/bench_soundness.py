"""What soundness costs ``proofs-check exhaustive``: every route of exactpte's engine, and every labelling of a statement.

Run by hand from the repository root: ``python benchmarks/bench_soundness.py`` (every graph with at most 3 states
and every 10th graph with 4; ``--every 1`` for all 2,340).  CPU seconds (``time.process_time``) per support graph,
summed over the graphs measured and projected to all of them, for:

- the paper's identities (every symbolic check) with exactpte's routes left out (``parametric_routes`` replaced by a
  stub, the two route keys not run): the proof as it was;
- ``routes:engine`` (a second decomposition read before the basis, ``exactpte.gain``,
  ``exactpte.stationary_distribution``, the factored output of a periodic chain) and ``routes:rational`` (the rational
  engine read both ways at one rational point), each alone;
- statements of your own under every labelling of the graph against the graph's own labelling only: three decided on
  the region (``tests/soundness_corpus.py``: stationary in ``(0, 1]``, ``rho`` harmonic, ``v* = 0`` at the anchors) and
  one that falls back to rational points (``str(rho[0]) != "1/2"``).

    python benchmarks/bench_soundness.py
    python benchmarks/bench_soundness.py --every 1 --max-states 4
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))

import exactpte  # noqa: E402
import proofs_check.symbolic.proving as proving  # noqa: E402
import proofs_check.symbolic.statements as statements  # noqa: E402
from proofs_check.judging.claims import from_decomposition  # noqa: E402
from proofs_check.judging.registry import CHECKS  # noqa: E402
from proofs_check.symbolic.engine_routes import parametric_routes, rational_routes  # noqa: E402
from proofs_check.symbolic.graphs import graph_chain, support_graphs  # noqa: E402
from proofs_check.symbolic.identities import SYMBOLIC_CHECKS  # noqa: E402
from proofs_check.symbolic.proving import STRUCTURE_KEYS, prove  # noqa: E402
from proofs_check.symbolic.statements import prove_statement  # noqa: E402


def _corpus() -> Any:
    """tests/soundness_corpus.py, read by path (tests/ on sys.path would shadow the packages by its folders)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("soundness_corpus", os.path.join(os.path.dirname(HERE), "tests", "soundness_corpus.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TRUE = _corpus().TRUE

DECIDED = [f for label, f in TRUE if label in ("true:stationary_in_unit_interval", "true:gain_is_harmonic",
                                               "true:v_star_zero_at_anchors")]
UNDECIDED = [lambda chain, dec: str(dec.rho[0]) != "1/2"]


def _cpu(work: Callable[[], Any]) -> float:
    t0 = time.process_time()
    work()
    return time.process_time() - t0


def measure(graph: tuple[tuple[int, ...], ...]) -> dict[str, float]:
    """CPU seconds of each part on one graph."""
    chain, region = graph_chain(graph)
    out: dict[str, float] = {}
    dec = exactpte.decompose(chain)
    keys = [*STRUCTURE_KEYS, *SYMBOLIC_CHECKS, *[k for k in CHECKS if k not in SYMBOLIC_CHECKS]]

    def identities() -> None:
        fresh = exactpte.decompose(chain)
        claimed = from_decomposition(fresh, with_P_inf=False, with_hitting_times=False)
        prove(chain, claimed, region, only=keys, dec=fresh)

    original = proving.parametric_routes
    proving.parametric_routes = lambda d: []  # type: ignore[assignment]
    try:
        out["identities"] = _cpu(identities)
    finally:
        proving.parametric_routes = original
    _ = from_decomposition(dec, with_P_inf=False, with_hitting_times=False)
    out["routes:engine"] = _cpu(lambda: parametric_routes(dec))
    out["routes:rational"] = _cpu(lambda: rational_routes(dec, region, points=1))
    for name, funcs in (("decided", DECIDED), ("undecided", UNDECIDED)):
        out[f"{name}, every labelling"] = _cpu(lambda: [prove_statement(f, dec, region, relabel=True) for f in funcs])
        own = statements.labellings
        statements.labellings = lambda succ: [tuple(range(len(succ)))]  # type: ignore[assignment]
        try:
            out[f"{name}, own labelling"] = _cpu(lambda: [prove_statement(f, dec, region, relabel=True) for f in funcs])
        finally:
            statements.labellings = own
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-states", type=int, default=4)
    parser.add_argument("--every", type=int, default=10, help="measure every k-th graph with 4 states (default 10)")
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f}; CPU seconds, summed over the graphs measured, projected to all of them")
    parts = ["identities", "routes:engine", "routes:rational", "decided, own labelling", "decided, every labelling",
             "undecided, own labelling", "undecided, every labelling"]
    print("| graphs | measured | " + " | ".join(parts) + " |")
    print("|---|---:|" + "---:|" * len(parts))
    for sizes, every in (((1, 2, 3), 1), ((4,), args.every)):
        sizes = tuple(n for n in sizes if n <= args.max_states)
        if not sizes:
            continue
        graphs = [g for n in sizes for g in support_graphs(n)]
        chosen = graphs[::every]
        total: dict[str, float] = dict.fromkeys(parts, 0.0)
        for g in chosen:
            for k, v in measure(g).items():
                total[k] += v
        scale = len(graphs) / len(chosen)
        label = f"n <= {sizes[-1]}" if len(sizes) > 1 else f"n = {sizes[0]}"
        print(f"| {label} ({len(graphs)}) | {len(chosen)} | " + " | ".join(f"{total[k] * scale:.1f}" for k in parts) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
