"""The paper's numerical experiments (Appendix "Numerical Experiments"), reproducible by seed.

Each function returns plain data (and prints nothing); ``examples/paper_experiments.py``
prints the tables next to the paper's numbers and draws the figures.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TextIO, TypedDict

import numpy as np

from exactpte.model.chain import MarkovRewardProcess
from exactpte.model.examples import paper_benchmark
from exactpte.progress import Progress
from exactpte.graph.structure import chain_structure
from exactpte.estimator.algorithms import reconstruct_profile
from exactpte.estimator.generative import TableModel
from exactpte.estimator.pipeline import Truth, avg_only, estimate, metrics, plug_in, truth_of

__all__ = [
    "PAPER_FINAL",
    "PAPER_ABLATION",
    "PAPER_STORAGE",
    "final_errors",
    "ablation",
    "edge_deletion",
    "storage_proxy",
    "error_curves",
    "summarize",
]

# the paper's tables, for side-by-side printing
PAPER_FINAL = {
    "Ours": {"E_g": (0.0295, 0.0009), "E_v": (0.951, 0.08), "E_J": (0.911, 0.10)},
    "Avg-only": {"E_g": (0.45, 0.0), "E_v": (6.73, 0.0), "E_J": (6.48, 0.0)},
    "Plug-in": {"E_g": (0.0118, 0.0005), "E_v": (1.05, 0.32), "E_J": (1.05, 0.32)},
}
PAPER_ABLATION = {
    "Full learned": {"E_g": (0.0446, 0.002), "E_v": (1.45, 0.13), "E_J": (1.44, 0.11)},
    "True structure + MC weights": {"E_g": (0.040, 0.004), "E_v": (1.48, 0.15), "E_J": (1.44, 0.12)},
    "Learned structure + exact weights": {"E_g": (3.15e-11, 9.6e-12), "E_v": (1.47, 0.11), "E_J": (1.43, 0.11)},
    "Oracle projection": {"E_g": (3.15e-11, 9.6e-12), "E_v": (1.47, 0.11), "E_J": (1.43, 0.11)},
}
PAPER_STORAGE = {290: 28.9, 1040: 112.0, 1540: 167.5}


Summary = dict[str, tuple[float, float]]
"""Per metric (``E_g``, ``E_v``, ...): ``(mean, sd)`` over seeds (:func:`summarize`)."""

FinalErrors = TypedDict("FinalErrors", {"Ours": Summary, "Avg-only": Summary, "Plug-in": Summary,
                                        "queries": dict[str, int], "plug_in_samples": int})
"""The final-error table (:func:`final_errors`): a :data:`Summary` per method, Ours' queries by stage
(seed 0) and the plug-in's samples per state."""


class EdgeDeletion(TypedDict):
    """:func:`edge_deletion`'s counts: deletions that change the invariants ``(class count,
    recurrent-set size, periods)`` of ``invariants``, out of ``edges``."""

    edges: int
    changed: int
    changed_edges: list[tuple[int, int]]
    invariants: tuple[int, int, tuple[int, ...]]


class StorageRow(TypedDict):
    """One size of :func:`storage_proxy`: dense ``n^2`` entries against support plus ``nN`` weights."""

    n: int
    N: int
    dense: int
    support: int
    ratio: float


class ErrorCurves(TypedDict):
    """:func:`error_curves`: the sample counts, per metric an array ``seeds x checkpoints``, and the
    Avg-only baseline's metrics."""

    samples: list[int]
    curves: dict[str, np.ndarray]
    avg_only: dict[str, float]


def summarize(rows: Sequence[dict[str, float]]) -> dict[str, tuple[float, float]]:
    """Mean and sample standard deviation of each metric over seeds."""
    keys = rows[0].keys()
    return {k: (float(np.mean([r[k] for r in rows])), float(np.std([r[k] for r in rows], ddof=1)) if len(rows) > 1 else 0.0) for k in keys}


def _progress(label: str, stream: TextIO | None = sys.stderr) -> Callable[[int, int], None]:
    """``done/total`` reports through :class:`~exactpte.progress.Progress`: a bar on a terminal, plain
    lines in a log (never ``\\r``-joined lines), nothing when ``stream`` is ``None``."""
    bar = Progress(label, stream=stream, enabled=stream is not None, interval=5.0)
    return bar.update


def final_errors(*, seeds: int = 5, K: int = 180, M: int = 900, T: int = 2600, J: int = 100, H: int = 40,
                 plug_in_samples: int | None = None, truth: Truth | None = None, progress: TextIO | None = sys.stderr) -> FinalErrors:
    """The final-error table: Ours, Avg-only (oracle ρ), Plug-in; mean ± sd over seeds.

    The paper does not state the plug-in's sample budget; by default it gets ``K + T`` samples
    per state, what Ours spends per state outside the absorption episodes.
    """
    truth = truth or truth_of(paper_benchmark())
    chain = truth.chain
    plug_in_samples = plug_in_samples or K + T
    ours, plug, queries = [], [], []
    tick = _progress("final-error seeds", progress)
    for seed in range(seeds):
        est = estimate(chain, K=K, M=M, T=T, J=J, seed=seed, truth=truth)
        ours.append(metrics(truth, est.g_hat, est.v_hat, H))
        queries.append(est.queries)
        p = plug_in(chain, plug_in_samples, seed=seed)
        plug.append(metrics(truth, p.g_hat, p.v_hat, H))
        tick(seed + 1, seeds)
    g, v = avg_only(truth)
    return {"Ours": summarize(ours), "Avg-only": summarize([metrics(truth, g, v, H)]), "Plug-in": summarize(plug),
            "queries": queries[0], "plug_in_samples": plug_in_samples}


def ablation(*, seeds: int = 3, K: int = 180, M: int = 500, T: int = 1200, J: int = 80, H: int = 40,
             truth: Truth | None = None, progress: TextIO | None = sys.stderr) -> dict[str, Summary]:
    """The component ablation: full learned; true structure + MC weights; learned structure + exact
    weights; oracle projection (true structure, exact weights, canonical anchors)."""
    truth = truth or truth_of(paper_benchmark())
    chain = truth.chain
    variants = {
        "Full learned": ("learned", "mc"),
        "True structure + MC weights": ("true", "mc"),
        "Learned structure + exact weights": ("learned", "exact"),
        "Oracle projection": ("true", "exact"),
    }
    out = {}
    tick = _progress("ablation runs", progress)
    done = 0
    for name, (structure, weights) in variants.items():
        rows = []
        for seed in range(seeds):
            est = estimate(chain, K=K, M=M, T=T, J=J, seed=seed, truth=truth, structure=structure, weights=weights)
            rows.append(metrics(truth, est.g_hat, est.v_hat, H))
            done += 1
            tick(done, seeds * len(variants))
        out[name] = summarize(rows)
    return out


def _invariants(succ: list[list[int]]) -> tuple[int, int, tuple[int, ...]]:
    S = chain_structure(succ)
    return len(S.classes), sum(len(c) for c in S.classes), tuple(sorted(S.periods))


def edge_deletion(chain: MarkovRewardProcess | None = None) -> EdgeDeletion:
    """Exhaustive single-edge deletion: how many deletions change (class count, recurrent-set size, periods)."""
    chain = chain or paper_benchmark()
    succ = [list(chain.support[s]) for s in range(chain.n)]
    base = _invariants(succ)
    changed = []
    total = 0
    for s in range(chain.n):
        for j in list(succ[s]):
            if len(succ[s]) == 1:
                total += 1
                changed.append((s, j))  # deleting a row's only edge leaves no distribution: counts as a change
                continue
            trial = [row if t != s else [x for x in row if x != j] for t, row in enumerate(succ)]
            total += 1
            if _invariants(trial) != base:
                changed.append((s, j))
    return {"edges": total, "changed": len(changed), "changed_edges": changed, "invariants": base}


def storage_proxy(sizes: Sequence[int] = (290, 1040, 1540)) -> list[StorageRow]:
    """Dense ``n^2`` entries versus observed support plus ``nN`` basis weights.

    Larger instances keep the two classes and extend the transient line (``n = 47 + L``),
    which is what keeps ``N = 5``.
    """
    rows: list[StorageRow] = []
    for n in sizes:
        chain = paper_benchmark(line_length=n - 47)
        N = chain.structure.N
        proxy = chain.nnz + n * N
        rows.append({"n": n, "N": N, "dense": n * n, "support": chain.nnz, "ratio": n * n / proxy})
    return rows


def error_curves(*, seeds: int = 5, K: int = 180, M: int = 900, T: int = 2600, J: int = 100, H: int = 40,
                 every: int = 100, truth: Truth | None = None, progress: TextIO | None = sys.stderr) -> ErrorCurves:
    """Errors versus stochastic-approximation samples (``n`` per iteration), per seed (the paper's Figure 2)."""
    truth = truth or truth_of(paper_benchmark())
    chain = truth.chain
    checkpoints = list(range(every, T + 1, every))
    curves = {k: np.zeros((seeds, len(checkpoints))) for k in ("E_g", "E_v", "E_J")}
    tick = _progress("error-curve seeds", progress)
    for seed in range(seeds):
        snaps: dict[int, np.ndarray] = {}

        def record(t: int, v: np.ndarray, snaps: dict[int, np.ndarray] = snaps) -> None:
            if t % every == 0:
                snaps[t] = v.copy()

        est = estimate(chain, K=K, M=M, T=T, J=J, seed=seed, truth=truth, record=record)
        rng = np.random.default_rng(10_000 + seed)
        model = TableModel.from_chain(chain)
        for c, t in enumerate(checkpoints):
            _, g = reconstruct_profile(model, truth.r, snaps[t], est.structure.anchors, est.bhat, J, rng)
            m = metrics(truth, g, snaps[t], H)
            for k in curves:
                curves[k][seed, c] = m[k]
        tick(seed + 1, seeds)
    g, v = avg_only(truth)
    return {"samples": [t * chain.n for t in checkpoints], "curves": curves, "avg_only": metrics(truth, g, v, H)}
