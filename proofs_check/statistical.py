"""Statistical checks of the paper's probabilistic claims, run on the estimator against exact answers.

Each check repeats a seeded experiment and judges it with a tolerance that follows from a
stated confidence level, never a slack factor:

- a failure frequency is compared with the theorem's ``δ`` by a one-sided binomial test at
  level ``alpha`` (fail only when that many failures would have probability below ``alpha``
  if the true failure rate were ``δ``);
- a sum of independent episode lengths is compared with its exact mean by the normal
  approximation at two-sided level ``alpha`` (its exact variance from second moments);
- deterministic quantities (query counts per stage) are compared exactly.

Expected values come from independent routes: the support graph from
:class:`proofs_check.graph.SupportGraph`, the basis from the dense route
``K (K[anchors, :])^-1`` (:class:`proofs_check.routes.Routes`), absorption-time moments from
dense numpy solves; never from the estimator or exactpte's solvers under test.  The estimator
piece under test can be swapped (``learn=``, ``weights=``, ``run=``) so each check is shown
to fail on a broken implementation (``tests/test_estimator.py``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TypeAlias

import numpy as np

from exactpte.chain import MarkovRewardProcess
from exactpte.estimator import TableModel, build_gauge, estimate, estimate_weights, learn_structure, truth_of
from exactpte.estimator.algorithms import LearnedStructure, StepSize, harmonic_step_size, structure_from
from exactpte.estimator.generative import GenerativeModel
from exactpte.estimator.pipeline import Estimate
from exactpte.floats import float_matrix, to_float

from .graph import SupportGraph
from .registry import Verdict
from .routes import Routes

WeightEstimator: TypeAlias = Callable[[GenerativeModel, LearnedStructure, int, np.random.Generator], np.ndarray]
"""``(model, learned structure, M, rng) -> b̂`` (:func:`exactpte.estimator.estimate_weights` or a stand-in)."""

__all__ = [
    "binomial_tail",
    "normal_quantile",
    "check_support_recovery",
    "check_weight_concentration",
    "check_learned_contraction",
    "check_sa_rate",
    "check_query_count",
    "check_g_rate",
    "STATISTICAL",
]


def binomial_tail(k: int, n: int, p: float) -> float:
    """``P[Binomial(n, p) >= k]``."""
    return float(sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1)))


def normal_quantile(alpha: float) -> float:
    """``z`` with ``P[|N(0, 1)| > z] = alpha`` (bisection on ``erfc``; no scipy needed)."""
    lo, hi = 0.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if math.erfc(mid / math.sqrt(2)) > alpha:
            lo = mid
        else:
            hi = mid
    return hi


def _p_min(chain: MarkovRewardProcess) -> float:
    return min(to_float(q) for _, _, q in chain.edges())


def _verdict(key: str, statement: str, holds: bool | None, detail: str, t0: float) -> Verdict:
    return Verdict(key, statement, holds, detail, time.perf_counter() - t0)


def _true_structure(chain: MarkovRewardProcess) -> tuple:
    """Classes, periods and cyclic classes from proofs_check's own graph code, in canonical order."""
    g = SupportGraph.of(chain)
    classes = sorted(g.closed_classes(), key=min)
    return (tuple(tuple(c) for c in classes), tuple(g.period(c) for c in classes),
            tuple(tuple(tuple(part) for part in g.cyclic_classes(c)) for c in classes))


def _true_basis(chain: MarkovRewardProcess, anchors: Sequence[int] | np.ndarray) -> np.ndarray:
    """``b`` by the dense route ``K (K[anchors, :])^-1`` (independent of exactpte's absorption solves)."""
    B = Routes(chain).anchor_basis([int(a) for a in anchors])
    assert B is not None, "one anchor per cyclic class: K[anchors, :] is invertible"
    return np.array([[to_float(B[s, j]) for j in range(B.ncols())] for s in range(chain.n)])


def _absorption_time_moments(chain: MarkovRewardProcess) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """``E_s[τ]`` and ``Var_s[τ]`` of the time to reach a closed class, from dense numpy solves:
    ``(I - Q) m1 = 1`` and ``(I - Q) m2 = 1 + 2 Q m1`` on the transient states."""
    recurrent = {s for c in SupportGraph.of(chain).closed_classes() for s in c}
    T = [s for s in range(chain.n) if s not in recurrent]
    P = float_matrix(chain)
    Q = P[np.ix_(T, T)]
    A = np.eye(len(T)) - Q
    m1 = np.linalg.solve(A, np.ones(len(T)))
    m2 = np.linalg.solve(A, 1 + 2 * Q @ m1)
    return m1, m2 - m1**2, T


def check_support_recovery(chain: MarkovRewardProcess, *, delta: float = 0.1, reps: int = 60, alpha: float = 1e-3, seed: int = 0,
                           learn: Callable[[GenerativeModel, int, np.random.Generator], LearnedStructure] = learn_structure) -> Verdict:
    """``thm:main_support_recovery``, ``thm:identify``: ``K >= p_min^-1 log(n^2/δ)`` samples a state recover
    the support and the structure w.p. ``>= 1 - δ`` (binomial test at level ``alpha``)."""
    t0 = time.perf_counter()
    n = chain.n
    K = math.ceil(math.log(n * n / delta) / _p_min(chain))
    true_support = tuple(tuple(chain.support[s]) for s in range(n))
    true_structure = _true_structure(chain)
    failures = 0
    for rep in range(reps):
        learned = learn(TableModel.from_chain(chain), K, np.random.default_rng([seed, rep]))
        S = learned.structure
        if learned.support != true_support or (S.classes, S.periods, S.cyclic_classes) != true_structure:
            failures += 1
    p = binomial_tail(failures, reps, delta)
    return _verdict("thm:main_support_recovery", "K >= log(n^2/delta)/p_min recovers the support w.p. >= 1 - delta",
                    p >= alpha, f"K = {K}: {failures}/{reps} failures, delta = {delta}, P[Bin >= {failures}] = {p:.2g} (fail below {alpha})", t0)


def check_weight_concentration(chain: MarkovRewardProcess, *, eps: float = 0.2, delta: float = 0.2, reps: int = 30, alpha: float = 1e-3,
                               seed: int = 0, weights: WeightEstimator = estimate_weights) -> Verdict:
    """``lem:main_weight_conc``, ``lem:bhats``: ``M >= 8 ε^-2 (N + log(|T|/δ))`` gives
    ``max_s ‖b̂(s) − b(s)‖₁ <= ε`` w.p. ``>= 1 - δ`` (binomial test at level ``alpha``)."""
    t0 = time.perf_counter()
    S = chain.structure
    if not S.transient:
        return _verdict("lem:main_weight_conc", "basis concentration", None, "not applicable (no transient state)", t0)
    M = math.ceil(8 / eps**2 * (S.N + math.log(len(S.transient) / delta)))
    learned = structure_from([chain.support[s] for s in range(chain.n)])
    basis = _true_basis(chain, learned.anchors)
    failures = 0
    worst = 0.0
    for rep in range(reps):
        bhat = weights(TableModel.from_chain(chain), learned, M, np.random.default_rng([seed, rep]))
        dev = float(np.max(np.abs(bhat - basis).sum(axis=1)))
        worst = max(worst, dev)
        failures += dev > eps
    p = binomial_tail(failures, reps, delta)
    return _verdict("lem:main_weight_conc", "M >= 8 eps^-2 (N + log(|T|/delta)) gives max_s ||b^(s) - b(s)||_1 <= eps w.p. >= 1 - delta",
                    p >= alpha, f"M = {M}: {failures}/{reps} exceed eps = {eps} (worst {worst:.3f}); P[Bin >= {failures}] = {p:.2g}", t0)


def check_learned_contraction(chain: MarkovRewardProcess, *, eps: float = 0.2, delta: float = 0.2, seed: int = 0,
                              weights: WeightEstimator = estimate_weights) -> Verdict:
    """``cor:M_for_contraction``, ``lem:main_hat_contraction``: with ``M`` as in ``lem:main_weight_conc``
    the learned projected operator ``v -> Π̂ P v`` is a contraction on ``W`` (spectral radius < 1;
    eigenvalues by numpy on the dense matrix, an independent route)."""
    t0 = time.perf_counter()
    S = chain.structure
    M = math.ceil(8 / eps**2 * (S.N + math.log(max(1, len(S.transient)) / delta)))
    learned = structure_from([chain.support[s] for s in range(chain.n)])
    bhat = weights(TableModel.from_chain(chain), learned, M, np.random.default_rng(seed))
    anchors = learned.anchors
    Pi = build_gauge(anchors, bhat).matrix()
    W = np.setdiff1d(np.arange(chain.n), anchors)
    A = (Pi @ float_matrix(chain))[np.ix_(W, W)]
    rad = float(np.max(np.abs(np.linalg.eigvals(A)))) if W.size else 0.0
    return _verdict("cor:M_for_contraction", "the learned projected operator Pi^ P is contractive on W (spectral radius < 1)",
                    rad < 1 - 1e-9, f"spectral radius on W = {rad:.6f} with M = {M}", t0)


def check_sa_rate(chain: MarkovRewardProcess, *, Ts: Sequence[int] = (250, 500, 1000, 2000), seeds: int = 10, alpha: float = 1e-3,
                  step: StepSize | None = None) -> Verdict:
    """``thm:main_sa_rate``: with exact structure and weights, ``E‖v_T − v*‖ = O(T^-1/2)``.

    The errors of ``seeds`` independent runs at each horizon give ``len(Ts) * seeds`` points
    ``(log T, log err)``; the least-squares slope ``β`` and its standard error ``se`` (from the
    residuals) test the theorem's exponent: the check fails when ``(β + 1/2) / se > z``, ``z`` the
    one-sided normal quantile at level ``alpha`` (the decay is significantly slower than
    ``T^-1/2``).  A chain without sampling noise decays faster (a steeper slope), which the bound
    allows.  ``Ts`` must lie past the initial bias phase.
    """
    t0 = time.perf_counter()
    truth = truth_of(chain)
    step = step or harmonic_step_size(2.0)
    xs, ys, means = [], [], []
    for T in Ts:
        e = [float(np.max(np.abs(estimate(chain, T=T, J=1, seed=s, structure="true", weights="exact", truth=truth,
                                          step_size=step).v_hat - truth.v_star))) for s in range(seeds)]
        means.append(float(np.mean(e)))
        for err in e:
            xs.append(math.log(T))
            ys.append(math.log(max(err, 1e-300)))
    x, y = np.array(xs), np.array(ys)
    xc = x - x.mean()
    beta = float((xc @ (y - y.mean())) / (xc @ xc))
    resid = y - y.mean() - beta * xc
    se = math.sqrt(float(resid @ resid) / max(1, len(x) - 2) / float(xc @ xc))
    z = normal_quantile(2 * alpha)  # one-sided level alpha
    stat = (beta + 0.5) / se if se > 0 else (math.inf if beta > -0.5 else -math.inf)
    return _verdict("thm:main_sa_rate", "E||v_T - v*|| = O(T^-1/2) with exact structure and weights", stat <= z,
                    f"log-log slope {beta:.3f} +- {se:.3f} (se); (slope + 1/2)/se = {stat:.2f}, rejected above {z:.2f} "
                    f"(one-sided level {alpha}); mean errors {[round(v, 5) for v in means]}", t0)


def check_query_count(chain: MarkovRewardProcess, *, K: int = 50, M: int = 100, T: int = 200, J: int = 20, seed: int = 0,
                      alpha: float = 1e-6, run: Callable[..., Estimate] = estimate) -> Verdict:
    """``cor:main_end_to_end_v``, ``cor:end_to_end_v``: the estimator makes exactly ``nK`` structure,
    ``nT`` SA and ``NJ`` anchor queries, and its episode queries are the sum of ``|T| M``
    independent absorption times: within ``z_alpha`` standard deviations of ``M Σ_s E_s[τ]``
    (exact mean and variance from dense solves; normal approximation, two-sided level ``alpha``)."""
    t0 = time.perf_counter()
    est = run(chain, K=K, M=M, T=T, J=J, seed=seed)
    q = est.queries
    n = chain.n
    N = sum(_true_structure(chain)[1])
    problems = []
    if q.get("structure", 0) != n * K:
        problems.append(f"structure queries {q.get('structure')} != nK = {n * K}")
    if q.get("sa", 0) != n * T:
        problems.append(f"SA queries {q.get('sa')} != nT = {n * T}")
    if q.get("anchors", 0) != N * J:
        problems.append(f"anchor queries {q.get('anchors')} != NJ = {N * J}")
    if q["total"] != sum(v for k, v in q.items() if k != "total"):
        problems.append("stage counts do not add up to the total")
    detail = ""
    mean, var, T_states = _absorption_time_moments(chain)
    if T_states:
        expected, sd = M * float(mean.sum()), math.sqrt(M * float(var.sum()))
        z = normal_quantile(alpha)
        got = q.get("weights", 0)
        detail = f"episode queries {got}, expected {expected:.1f} +- {z:.2f} sd (sd {sd:.1f}, level {alpha})"
        if abs(got - expected) > z * sd + 0.5:
            problems.append(detail)
    elif q.get("weights", 0):
        problems.append(f"{q['weights']} episode queries on a chain without transient states")
    return _verdict("cor:main_end_to_end_v", "queries = nK + |T| M H_abs + nT + NJ (in expectation for the episodes)",
                    not problems, "; ".join(problems) or f"queries {q}; {detail}".rstrip("; "), t0)


def check_g_rate(chain: MarkovRewardProcess, *, K: int = 200, M: int = 400, T: int = 1500, J: int = 100, seeds: int = 12,
                 delta: float = 0.1, alpha: float = 1e-3, run: Callable[..., Estimate] = estimate) -> Verdict:
    """``thm:main_g_rate``, ``thm:theta_rate``: per run, ``‖ĝ − g*‖ <= ‖v_T − v*‖ + max_k R_k sqrt(log(2N/δ)/(2J)) + ‖g*‖ ε_b``
    fails with probability at most ``δ``.

    The proof's inequality, per realisation: ``θ̂_k − θ*_k`` is the deviation of a J-sample mean of
    ``v(Y)``, ``Y ~ P(a_k, ·)``, from ``(P v)(a_k)``, plus ``(P (v − v*))(a_k)`` (``v_T`` and ``v*``
    vanish at the anchors); ``v(Y)`` ranges over an interval of width ``R_k`` (the spread of ``v`` on
    the anchor's successors), so by Hoeffding and a union bound over the ``N`` anchors the deviations
    all stay below the middle term w.p. ``>= 1 − δ`` (the paper's ``B sqrt(2 log(2N)/J)`` with the
    sharper range ``R_k <= 2B``).  The failure count is judged by a binomial test at level ``alpha``."""
    t0 = time.perf_counter()
    truth = truth_of(chain)
    failures, worst = 0, -math.inf
    N = sum(_true_structure(chain)[1])
    for s in range(seeds):
        est = run(chain, K=K, M=M, T=T, J=J, seed=s, truth=truth)
        if est.bhat.shape != truth.basis.shape:  # structure learned wrong: the bound does not apply, count a failure
            failures += 1
            continue
        anchors = [int(a) for a in est.structure.anchors]
        basis = _true_basis(chain, anchors)
        eps_b = float(np.max(np.abs(est.bhat - basis).sum(axis=1)))
        R = max(float(np.ptp(est.v_hat[list(chain.support[a])])) for a in anchors)
        lhs = float(np.max(np.abs(est.g_hat - truth.g_star)))
        rhs = (float(np.max(np.abs(est.v_hat - truth.v_star))) + R * math.sqrt(math.log(2 * N / delta) / (2 * J))
               + float(np.max(np.abs(truth.g_star))) * eps_b)
        worst = max(worst, lhs - rhs)
        failures += lhs > rhs
    p = binomial_tail(failures, seeds, delta)
    return _verdict("thm:main_g_rate", "||g^ - g*|| <= ||v - v*|| + R sqrt(log(2N/delta)/(2J)) + ||g*|| eps_b w.p. >= 1 - delta",
                    p >= alpha, f"{failures}/{seeds} runs exceed the bound (largest excess {worst:.3g}); "
                                f"delta = {delta}, P[Bin >= {failures}] = {p:.2g} (fail below {alpha})", t0)


STATISTICAL = {
    "thm:main_support_recovery": check_support_recovery,
    "lem:main_weight_conc": check_weight_concentration,
    "cor:M_for_contraction": check_learned_contraction,
    "thm:main_sa_rate": check_sa_rate,
    "cor:main_end_to_end_v": check_query_count,
    "thm:main_g_rate": check_g_rate,
}
