"""End-to-end estimator, baselines, and the paper's metrics, with the exact decomposition as oracle.

Examples
--------
>>> import exactpte
>>> chain = exactpte.example("branching")
>>> truth = truth_of(chain)
>>> est = estimate(chain, K=50, M=200, T=400, J=50, seed=1)
>>> m = metrics(truth, est.g_hat, est.v_hat, H=10)
>>> m["E_g"] < 0.2 and est.queries["total"] == sum(v for k, v in est.queries.items() if k != "total")
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from exactpte.errors import UsageError
from exactpte.results.decomposition import decompose
from exactpte.model.to_float import float_matrix, to_floats
from exactpte.model.chain import MarkovRewardProcess
from exactpte.results.decomposition import Decomposition
from exactpte.estimator.algorithms import (
    LearnedStructure,
    build_gauge,
    estimate_weights,
    learn_structure,
    StepSize,
    paper_step_size,
    projected_sa,
    reconstruct_profile,
    structure_from,
)
from exactpte.estimator.generative import GenerativeModel, TableModel

__all__ = ["Truth", "truth_of", "Estimate", "estimate", "plug_in", "avg_only", "metrics"]


@dataclass
class Truth:
    """The exact answers, as floats, for scoring estimates."""

    chain: MarkovRewardProcess
    dec: Decomposition
    P: np.ndarray
    r: np.ndarray
    g_star: np.ndarray
    v_star: np.ndarray
    theta: np.ndarray
    rho: np.ndarray
    basis: np.ndarray
    _returns: dict[int, np.ndarray] = field(default_factory=dict)

    def J(self, H: int) -> np.ndarray:
        """``J_H`` computed exactly, then rounded once."""
        if H not in self._returns:
            self._returns[H] = to_floats(self.dec.returns(H))
        return self._returns[H]


def truth_of(chain: MarkovRewardProcess) -> Truth:
    """The exact answers the estimator is scored against (decomposition, ``g*``, ``v*`` as floats)."""
    dec = decompose(chain)
    return Truth(
        chain=chain,
        dec=dec,
        P=float_matrix(chain),
        r=to_floats(chain.r),
        g_star=to_floats(dec.g_star),
        v_star=to_floats(dec.v_star),
        theta=to_floats(dec.theta),
        rho=to_floats(dec.rho),
        basis=np.array([to_floats(row) for row in dec.basis]),
    )


@dataclass
class Estimate:
    """What :func:`estimate` returns: ``ĝ``, ``v̂``, ``θ̂``, the weights ``b̂``, the structure used, and the queries per stage."""

    g_hat: np.ndarray
    v_hat: np.ndarray
    theta_hat: np.ndarray
    bhat: np.ndarray
    structure: LearnedStructure
    queries: dict[str, int]


def estimate(
    chain_or_model: MarkovRewardProcess | GenerativeModel,
    *,
    r: np.ndarray | None = None,
    K: int = 180,
    M: int = 900,
    T: int = 2600,
    J: int = 100,
    seed: int = 0,
    step_size: StepSize = paper_step_size,
    structure: str | LearnedStructure = "learned",
    weights: str | np.ndarray = "mc",
    truth: Truth | None = None,
    record: Callable[[int, np.ndarray], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Estimate:
    """The paper's estimator: structure (``K``), weights (``M``), projected SA (``T``), residuals (``J``).

    ``structure="true"`` or ``weights="exact"`` (both need the exact chain, or ``truth``)
    give the ablation variants; exact weights with the true anchors are the oracle projection.
    """
    chain: MarkovRewardProcess | None
    model: GenerativeModel
    if isinstance(chain_or_model, MarkovRewardProcess):
        chain = chain_or_model
        model = TableModel.from_chain(chain)
        r = to_floats(chain.r) if r is None else np.asarray(r, dtype=float)
    else:
        chain, model = None, chain_or_model
        if r is None:
            raise UsageError("a generative model needs the reward vector r")
        r = np.asarray(r, dtype=float)
    rng = np.random.default_rng(seed)
    if isinstance(structure, LearnedStructure):
        learned = structure
    elif structure == "learned":
        learned = learn_structure(model, K, rng)
    elif structure == "true":
        if chain is None:
            raise UsageError("structure='true' needs the exact chain")
        learned = structure_from([chain.support[s] for s in range(chain.n)])
    else:
        raise UsageError(f"structure must be 'learned', 'true' or a LearnedStructure, got {structure!r}")
    if isinstance(weights, np.ndarray):
        bhat = weights
    elif weights == "mc":
        bhat = estimate_weights(model, learned, M, rng)
    elif weights == "exact":
        if truth is None:
            if chain is None:
                raise UsageError("weights='exact' needs the exact chain")
            truth = truth_of(chain)
        S = truth.dec.structure
        if (S.classes, S.periods, S.cyclic_classes) != (learned.structure.classes, learned.structure.periods, learned.structure.cyclic_classes):
            raise UsageError("exact weights need the learned structure to equal the true one")
        bhat = truth.basis
    else:
        raise UsageError(f"weights must be 'mc', 'exact' or an array, got {weights!r}")
    anchors = learned.anchors
    gauge = build_gauge(anchors, bhat)
    v = projected_sa(model, r, gauge, T, rng, step_size=step_size, record=record, progress=progress)
    theta, g = reconstruct_profile(model, r, v, anchors, bhat, J, rng)
    queries = dict(model.by_stage)
    queries["total"] = model.queries
    return Estimate(g, v, theta, bhat, learned, queries)


def plug_in(chain: MarkovRewardProcess, samples_per_state: int, *, seed: int = 0) -> Estimate:
    """Plug-in baseline: empirical ``P̂`` from ``samples_per_state`` draws a state, decomposed exactly."""
    model = TableModel.from_chain(chain)
    rng = np.random.default_rng(seed)
    n = chain.n
    with model.stage("plug-in"):
        states = np.repeat(np.arange(n), samples_per_state)
        nxt = model.sample(states, rng)
    counts = np.zeros((n, n), dtype=np.int64)
    np.add.at(counts, (states, nxt), 1)
    edges = [(i, int(j), f"{int(c)}/{samples_per_state}") for i in range(n) for j, c in zip(np.nonzero(counts[i])[0], counts[i][counts[i] > 0])]
    empirical = MarkovRewardProcess.from_edges(n, edges, list(chain.r))
    dec = decompose(empirical)
    learned = structure_from([empirical.support[s] for s in range(n)])
    return Estimate(
        to_floats(dec.g_star), to_floats(dec.v_star), to_floats(dec.theta),
        np.array([to_floats(row) for row in dec.basis]), learned, {"plug-in": model.queries, "total": model.queries},
    )


def avg_only(truth: Truth) -> tuple[np.ndarray, np.ndarray]:
    """The oracle average-only comparator: ``ĝ = ρ`` (exact), no transient part (``v̂ = 0``), ``Ĵ_H = H ρ``."""
    return truth.rho.copy(), np.zeros_like(truth.rho)


def metrics(truth: Truth, g_hat: np.ndarray, v_hat: np.ndarray, H: int = 40) -> dict[str, float]:
    """``E_g = ‖ĝ − g*‖∞``, ``E_v = ‖v̂ − v*‖∞``, ``E_J(H) = ‖Ĵ_H − J_H‖∞`` with
    ``Ĵ_H = Σ_{t<H} P^t ĝ + v̂ − P^H v̂`` (``cor:return_error``)."""
    P = truth.P
    acc = np.zeros_like(g_hat)
    x = g_hat.copy()
    for _ in range(H):
        acc += x
        x = P @ x
    y = v_hat.copy()
    for _ in range(H):
        y = P @ y
    J_hat = acc + v_hat - y
    return {
        "E_g": float(np.max(np.abs(g_hat - truth.g_star))),
        "E_v": float(np.max(np.abs(v_hat - truth.v_star))),
        "E_J": float(np.max(np.abs(J_hat - truth.J(H)))),
    }
