"""The paper's five estimator algorithms (appendix "Algorithms for the sample-based estimator").

All vectorised over states and episodes; every random draw comes from the
``numpy.random.Generator`` passed in, so a seed fixes the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias, overload

import numpy as np

from exactpte.errors import UsageError
from exactpte.graph.structure import Structure, chain_structure
from exactpte.estimator.generative import GenerativeModel

__all__ = [
    "LearnedStructure",
    "learn_structure",
    "structure_from",
    "estimate_weights",
    "GaugeMap",
    "build_gauge",
    "paper_step_size",
    "harmonic_step_size",
    "StepSize",
    "projected_sa",
    "reconstruct_profile",
]

StepSize: TypeAlias = Callable[[np.ndarray], np.ndarray]
"""A step-size schedule: the steps ``α_t`` for an array of iteration indices ``t``."""


@dataclass(frozen=True)
class LearnedStructure:
    """Structure (classes, periods, cyclic classes, canonical anchors) plus the support it came from."""

    structure: Structure
    support: tuple[tuple[int, ...], ...]

    @property
    def anchors(self) -> np.ndarray:
        """Anchors of the learned structure (smallest state of each learned cyclic class)."""
        return np.array([a for group in self.structure.canonical_anchors() for a in group], dtype=np.int64)

    @property
    def N(self) -> int:
        """Number of learned cyclic classes ``N = sum_i d_i``."""
        return self.structure.N


def structure_from(support: Sequence[Iterable[int]]) -> LearnedStructure:
    """Structure of a given support graph (the exact core's graph code)."""
    rows = tuple(tuple(sorted(set(int(j) for j in row))) for row in support)
    return LearnedStructure(chain_structure(rows), rows)


def learn_structure(model: GenerativeModel, K: int, rng: np.random.Generator) -> LearnedStructure:
    """Algorithm ``alg:main_learn_structure``: ``K`` samples per state, empirical support, structure.

    With ``K >= p_min^-1 log(n^2/δ)`` the support is exact w.p. ``>= 1 - δ``
    (``thm:main_support_recovery``).
    """
    n = model.n
    with model.stage("structure"):
        states = np.repeat(np.arange(n), K)
        nxt = model.sample(states, rng)
    pairs = np.unique(states * n + nxt)
    src, dst = pairs // n, pairs % n
    support: list[list[int]] = [[] for _ in range(n)]
    for a, b in zip(src.tolist(), dst.tolist()):
        support[a].append(b)
    return structure_from(support)


def estimate_weights(model: GenerativeModel, learned: LearnedStructure, M: int, rng: np.random.Generator, *,
                     max_steps: int = 1_000_000) -> np.ndarray:
    """Algorithm ``alg:main_estimate_weights``: ``M`` absorption episodes per transient state.

    Returns ``b̂`` (n x N, rows on the simplex, exact indicators on recurrent rows).
    All ``|T| M`` episodes advance together, one batched sample per step.
    """
    S = learned.structure
    n, N = model.n, S.N
    cls_of = np.array(S.class_of)
    phase_of = np.array(S.phase_of)
    periods = np.array(S.periods, dtype=np.int64)
    first_col = np.cumsum(np.concatenate([[0], periods[:-1]])) if len(periods) else np.array([], dtype=np.int64)
    bhat = np.zeros((n, N))
    rec = cls_of >= 0
    bhat[np.nonzero(rec)[0], first_col[cls_of[rec]] + phase_of[rec]] = 1.0
    T = np.array(S.transient, dtype=np.int64)
    if T.size == 0:
        return bhat
    start = np.repeat(np.arange(T.size), M)
    pos = np.repeat(T, M)
    tau = np.zeros(pos.size, dtype=np.int64)
    active = np.ones(pos.size, dtype=bool)
    with model.stage("weights"):
        for _ in range(max_steps):
            idx = np.nonzero(active)[0]
            if idx.size == 0:
                break
            pos[idx] = model.sample(pos[idx], rng)
            tau[idx] += 1
            active[idx] = cls_of[pos[idx]] < 0
        else:
            raise UsageError("absorption episodes did not finish: is every transient state transient?")
    i = cls_of[pos]
    k = (phase_of[pos] - tau) % periods[i]
    counts = np.zeros((T.size, N))
    np.add.at(counts, (start, first_col[i] + k), 1.0)
    bhat[T] = counts / M
    return bhat


@dataclass(frozen=True)
class GaugeMap:
    """Algorithm ``alg:main_build_gauge``: ``(Π̂ v)(s) = v(s) - sum_(i,k) v(a_(i,k)) b̂_(i,k)(s)``.

    Works on a single vector or on the columns of a matrix.
    """

    anchors: np.ndarray
    bhat: np.ndarray

    def __call__(self, v: np.ndarray) -> np.ndarray:
        projected: np.ndarray = v - self.bhat @ v[self.anchors]
        return projected

    def matrix(self) -> np.ndarray:
        """The gauge map ``Π̂`` as a dense ``n x n`` float matrix."""
        n = self.bhat.shape[0]
        return self(np.eye(n))


def build_gauge(anchors: np.ndarray, bhat: np.ndarray) -> GaugeMap:
    """The learned projection ``Π̂ v = v - sum_{i,k} v(a_{i,k}) b̂_{i,k}`` (``alg:main_build_gauge``) from learned weights."""
    return GaugeMap(np.asarray(anchors, dtype=np.int64), np.asarray(bhat, dtype=float))


@overload
def paper_step_size(t: int) -> float: ...
@overload
def paper_step_size(t: np.ndarray) -> np.ndarray: ...
def paper_step_size(t: np.ndarray | int) -> np.ndarray | float:
    """The paper's schedule ``α_t = 1.5 (t + 80)^-0.72``."""
    return 1.5 * (np.asarray(t) + 80.0) ** -0.72


def harmonic_step_size(c: float = 2.0, t0: float = 10.0) -> StepSize:
    """``α_t = min(1, c / (t + t0))``: the standard schedule under which projected SA reaches the
    ``O(T^-1/2)`` rate of ``thm:main_sa_rate`` (needs ``c`` above ``1 / (2(1 - γ))``)."""

    def step(t: np.ndarray) -> np.ndarray:
        return np.minimum(1.0, c / (np.asarray(t, dtype=float) + t0))

    return step


def projected_sa(
    model: GenerativeModel,
    r: np.ndarray,
    gauge: Callable[[np.ndarray], np.ndarray],
    T: int,
    rng: np.random.Generator,
    *,
    step_size: StepSize = paper_step_size,
    v0: np.ndarray | None = None,
    record: Callable[[int, np.ndarray], None] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> np.ndarray:
    """Algorithm ``alg:main_psa``: synchronous projected stochastic approximation, ``T`` iterations.

    ``v_{t+1} = Π̂((1 - α_t) v_t + α_t (r + v_t(s̃)))`` with one fresh sample ``s̃ ~ P(s, ·)``
    per state per iteration.  ``record(t, v)`` is called after each iteration when given.
    """
    n = model.n
    v = gauge(np.zeros(n) if v0 is None else np.asarray(v0, dtype=float))
    states = np.arange(n)
    alphas = step_size(np.arange(T))
    with model.stage("sa"):
        for t in range(T):
            nxt = model.sample(states, rng)
            a = alphas[t]
            v = gauge((1.0 - a) * v + a * (r + v[nxt]))
            if record is not None:
                record(t + 1, v)
            if progress is not None and (t + 1) % 100 == 0:
                progress(t + 1, T)
    return v


def reconstruct_profile(
    model: GenerativeModel,
    r: np.ndarray,
    v: np.ndarray,
    anchors: np.ndarray,
    bhat: np.ndarray,
    J: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm ``alg:main_g``: ``θ̂_(i,k) = r(a) + mean_j v(Y_j) - v(a)``, ``ĝ = b̂ θ̂``."""
    with model.stage("anchors"):
        Y = model.sample(np.repeat(anchors, J), rng).reshape(len(anchors), J)
    theta = r[anchors] + v[Y].mean(axis=1) - v[anchors]
    return theta, bhat @ theta
