"""Statistical checks of the paper's probabilistic claims, run on the estimator against exact answers.

Each check repeats a seeded experiment and compares a frequency or a mean with the
paper's bound, with the tolerance stated in the verdict: a failure frequency is
compared with ``δ`` through a one-sided binomial test at level ``alpha`` (fail only
when observing that many failures would have probability below ``alpha`` if the
true failure rate were ``δ``).  The estimator pieces under test can be swapped
(``learn=``, ``weights=``) so each check is shown to fail on a broken implementation.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np

from exactpte.estimator import TableModel, build_gauge, estimate, estimate_weights, learn_structure, truth_of
from exactpte.estimator.algorithms import harmonic_step_size, structure_from
from exactpte.absorption import extend_to_transient
from exactpte.fields import QQ
from exactpte.floats import to_float
from exactpte.chain import MarkovRewardProcess

from .registry import Verdict

__all__ = [
    "binomial_tail",
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


def _p_min(chain: MarkovRewardProcess) -> float:
    return min(to_float(q) for _, _, q in chain.edges())


def _verdict(key, statement, holds, detail, t0):
    return Verdict(key, statement, holds, detail, time.perf_counter() - t0)


def check_support_recovery(chain, *, delta=0.1, reps=60, alpha=1e-3, seed=0, learn: Callable = learn_structure) -> Verdict:
    """``thm:main_support_recovery``: ``K >= p_min^-1 log(n^2/δ)`` recovers the support w.p. ``>= 1 - δ``."""
    t0 = time.perf_counter()
    n = chain.n
    K = math.ceil(math.log(n * n / delta) / _p_min(chain))
    true_support = tuple(tuple(chain.support[s]) for s in range(n))
    S = chain.structure
    failures = 0
    for rep in range(reps):
        learned = learn(TableModel.from_chain(chain), K, np.random.default_rng([seed, rep]))
        if learned.support != true_support or (learned.structure.classes, learned.structure.periods,
                                                learned.structure.cyclic_classes) != (S.classes, S.periods, S.cyclic_classes):
            failures += 1
    p = binomial_tail(failures, reps, delta)
    return _verdict("thm:main_support_recovery", "K >= log(n^2/delta)/p_min recovers the support w.p. >= 1 - delta",
                    p >= alpha, f"K = {K}: {failures}/{reps} failures, delta = {delta}, P[Bin >= {failures}] = {p:.2g} (fail below {alpha})", t0)


def check_weight_concentration(chain, *, eps=0.2, delta=0.2, reps=30, alpha=1e-3, seed=0, weights: Callable = estimate_weights) -> Verdict:
    """``lem:main_weight_conc``: ``M >= 8 ε^-2 (N + log(|T|/δ))`` gives ``max_s ‖b̂(s) − b(s)‖₁ <= ε`` w.p. ``>= 1 - δ``."""
    t0 = time.perf_counter()
    truth = truth_of(chain)
    S = chain.structure
    if not S.transient:
        return _verdict("lem:main_weight_conc", "basis concentration", None, "not applicable (no transient state)", t0)
    M = math.ceil(8 / eps**2 * (S.N + math.log(len(S.transient) / delta)))
    learned = structure_from([chain.support[s] for s in range(chain.n)])
    failures = 0
    worst = 0.0
    for rep in range(reps):
        bhat = weights(TableModel.from_chain(chain), learned, M, np.random.default_rng([seed, rep]))
        dev = float(np.max(np.abs(bhat - truth.basis).sum(axis=1)))
        worst = max(worst, dev)
        failures += dev > eps
    p = binomial_tail(failures, reps, delta)
    return _verdict("lem:main_weight_conc", "M >= 8 eps^-2 (N + log(|T|/delta)) gives max_s ||b^(s) - b(s)||_1 <= eps w.p. >= 1 - delta",
                    p >= alpha, f"M = {M}: {failures}/{reps} exceed eps = {eps} (worst {worst:.3f}); P[Bin >= {failures}] = {p:.2g}", t0)


def check_learned_contraction(chain, *, M=400, seed=0, weights: Callable = estimate_weights) -> Verdict:
    """``cor:M_for_contraction`` / ``lem:main_hat_contraction``: the learned projected operator
    ``v -> Π̂ P v`` restricted to ``W`` has spectral radius below 1."""
    t0 = time.perf_counter()
    truth = truth_of(chain)
    learned = structure_from([chain.support[s] for s in range(chain.n)])
    bhat = weights(TableModel.from_chain(chain), learned, M, np.random.default_rng(seed))
    anchors = learned.anchors
    Pi = build_gauge(anchors, bhat).matrix()
    W = np.setdiff1d(np.arange(chain.n), anchors)
    A = (Pi @ truth.P)[np.ix_(W, W)]
    rad = float(np.max(np.abs(np.linalg.eigvals(A)))) if W.size else 0.0
    return _verdict("cor:M_for_contraction", "the learned projected operator Pi^ P is contractive on W (spectral radius < 1)",
                    rad < 1 - 1e-9, f"spectral radius on W = {rad:.6f} with M = {M}", t0)


def check_sa_rate(chain, *, Ts=(250, 500, 1000, 2000), seeds=10, max_slope=-0.3, step=None) -> Verdict:
    """``thm:main_sa_rate``: with exact structure and weights, ``E‖v_T − v*‖ = O(T^-1/2)``.

    The log-log slope of the mean error over ``seeds`` runs must be at most ``max_slope``
    (the exponent -1/2 with a tolerance for the finite number of seeds).  A chain without
    sampling noise decays faster (steeper slope), which the bound allows; on a noisy chain
    the slope sits near -1/2.  ``Ts`` must lie past the initial bias phase.
    """
    t0 = time.perf_counter()
    truth = truth_of(chain)
    step = step or harmonic_step_size(2.0)
    errs = []
    for T in Ts:
        e = [np.max(np.abs(estimate(chain, T=T, J=1, seed=s, structure="true", weights="exact", truth=truth, step_size=step).v_hat - truth.v_star)) for s in range(seeds)]
        errs.append(float(np.mean(e)))
    slope = float(np.polyfit(np.log(Ts), np.log(errs), 1)[0])
    return _verdict("thm:main_sa_rate", "E||v_T - v*|| = O(T^-1/2) with exact structure and weights", slope <= max_slope,
                    f"log-log slope {slope:.3f} (accepted <= {max_slope}); mean errors {[round(x, 5) for x in errs]}", t0)


def check_query_count(chain, *, K=50, M=100, T=200, J=20, seed=0) -> Verdict:
    """``cor:main_end_to_end_v``: the estimator makes ``nK + (episode steps) + nT + NJ`` queries, and the
    episode steps average ``|T| M E[τ_F]`` (checked against the exact expected absorption time)."""
    t0 = time.perf_counter()
    est = estimate(chain, K=K, M=M, T=T, J=J, seed=seed)
    q = est.queries
    n, S = chain.n, chain.structure
    problems = []
    if q.get("structure", 0) != n * K:
        problems.append(f"structure queries {q.get('structure')} != nK = {n * K}")
    if q.get("sa", 0) != n * T:
        problems.append(f"SA queries {q.get('sa')} != nT = {n * T}")
    if q.get("anchors", 0) != S.N * J:
        problems.append(f"anchor queries {q.get('anchors')} != NJ = {S.N * J}")
    if q["total"] != sum(v for k, v in q.items() if k != "total"):
        problems.append("stage counts do not add up to the total")
    if S.transient:
        # exact expected absorption time E_s[tau_F] (0 on recurrent states): summed over T, times M
        times = extend_to_transient(chain, S, [QQ.zero] * n, lambda s: QQ.one)
        expected = M * sum(to_float(times[s]) for s in S.transient)
        got = q.get("weights", 0)
        sd = math.sqrt(expected) * 10  # generous: episode lengths have finite variance
        if abs(got - expected) > 5 * sd:
            problems.append(f"episode queries {got} far from |T| M E[tau_F] = {expected:.0f}")
    return _verdict("cor:main_end_to_end_v", "queries = nK + |T| M H_abs + nT + NJ (in expectation for the episodes)",
                    not problems, "; ".join(problems) or f"queries {q}", t0)


def check_g_rate(chain, *, K=200, M=400, T=1500, J=100, seeds=8, slack=1.5) -> Verdict:
    """``thm:main_g_rate``: ``E‖ĝ − g*‖ <= E‖v_T − v*‖ + sqrt(2 B² log(2N)/J) + ‖g*‖ ε_b`` (means over seeds,
    with a multiplicative ``slack`` for the finite number of seeds)."""
    t0 = time.perf_counter()
    truth = truth_of(chain)
    lhs, rhs = [], []
    N = chain.structure.N
    for s in range(seeds):
        est = estimate(chain, K=K, M=M, T=T, J=J, seed=s, truth=truth)
        eps_b = float(np.max(np.abs(est.bhat - truth.basis).sum(axis=1))) if est.bhat.shape == truth.basis.shape else float("inf")
        B = float(np.max(np.abs(est.v_hat)))
        lhs.append(float(np.max(np.abs(est.g_hat - truth.g_star))))
        rhs.append(float(np.max(np.abs(est.v_hat - truth.v_star))) + math.sqrt(2 * B * B * math.log(2 * N) / J)
                   + float(np.max(np.abs(truth.g_star))) * eps_b)
    L, R = float(np.mean(lhs)), float(np.mean(rhs))
    return _verdict("thm:main_g_rate", "E||g^ - g*|| <= E||v - v*|| + sqrt(2B^2 log(2N)/J) + ||g*|| eps_b",
                    L <= slack * R, f"mean E_g = {L:.4g}, mean bound = {R:.4g} (slack {slack})", t0)


STATISTICAL = {
    "thm:main_support_recovery": check_support_recovery,
    "lem:main_weight_conc": check_weight_concentration,
    "cor:M_for_contraction": check_learned_contraction,
    "thm:main_sa_rate": check_sa_rate,
    "cor:main_end_to_end_v": check_query_count,
    "thm:main_g_rate": check_g_rate,
}
