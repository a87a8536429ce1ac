"""Checks for Section 4 of the paper: finite-horizon returns and their error bounds."""

from __future__ import annotations

from collections.abc import Sequence
from math import lcm

import flint

from exactpte import MarkovRewardProcess

from proofs_check.judging.claims import Claimed
from proofs_check.algebra.linalg import Exact, column_norms_inf, exact_integers, greater, norm_inf, orbits, random_vector, vec
from proofs_check.judging.registry import NOT_APPLICABLE, Context, Outcome, register_check, mismatch, sampled


def _horizons(c: Claimed) -> list[int]:
    D = lcm(*c.periods) if c.periods else 1
    return sorted({1, 2, D, 3 * D + 1, 20})


@register_check("lem:app_telescoping", "J_T = sum_{t<T} P^t g_v + v - P^T v for every v and T >= 1", witnesses=10)  # 2 v x <= 5 T
def _telescoping(ctx: Context) -> Outcome:
    routes, n = ctx.routes, ctx.chain.n
    ctx.routes.require_horizon(max(_horizons(ctx.claimed)))  # before any power: "not checked" past the bit budget
    rng = ctx.rng("tele")
    vs = [list(ctx.claimed.v_star), random_vector(rng, n)]
    P = routes.P
    V = _columns(vs, n)
    GV = _columns([list(ctx.chain.r)] * len(vs), n) - V + P * V  # g_v = r - (I - P) v, one column per v
    horizons = _horizons(ctx.claimed)
    sums = orbits(P, GV, horizons)  # sum_{t<T} P^t g_v for every horizon, in one pass
    ones = flint.fmpq_mat(1, len(vs), exact_integers([1] * len(vs)))
    for T in horizons:
        J = routes.returns(T)
        PV = routes.P_pow(T) * V  # P^T v per column; column 0 is P^T v*
        if sums[T] + V - PV != J * ones:
            return f"return identity fails at T = {T}"
        # the claimed split: persistent orbit from theta and b (P b_(i,k) = b_(i,k-1)) plus boundary
        persistent = _orbit_sum(ctx.claimed, T)
        split = [o + v - PV[s, 0] for s, (o, v) in enumerate(zip(persistent, ctx.claimed.v_star))]
        m = mismatch(f"sum_t P^t g* + v* - P^T v* (T = {T})", split, vec(J), "J_T by matrix powers")
        if m:
            return m
    return sampled(len(vs) * len(horizons))


def _columns(vectors: Sequence[Sequence[Exact]], n: int) -> flint.fmpq_mat:
    """The ``n x len(vectors)`` matrix with the given columns."""
    return flint.fmpq_mat(n, len(vectors), [v[s] for s in range(n) for v in vectors])


def _orbit_sum(c: Claimed, T: int) -> list[flint.fmpq]:
    """``sum_{t<T} P^t g*`` from the claimed theta and basis: ``sum_(i,k) b_(i,k) sum_t theta_(i,k+t)`` (the phases
    ``k + t mod d`` run ``T // d`` times round the class, then ``T % d`` more)."""
    coeffs = []
    for j, (i, k, _) in enumerate(c.anchors):
        d = c.periods[i]
        base = j - k
        laps, rest = divmod(T, d)
        whole = sum((c.theta[base + p] for p in range(d)), flint.fmpq(0)) * laps if laps else flint.fmpq(0)
        coeffs.append(whole + sum((c.theta[base + (k + t) % d] for t in range(rest)), flint.fmpq(0)))
    if all(len(row) == len(coeffs) for row in c.basis):  # one product
        return (c.basis_matrix() * flint.fmpq_mat(len(coeffs), 1, coeffs)).entries()
    return [sum((a * b for a, b in zip(coeffs, row)), flint.fmpq(0)) for row in c.basis]


@register_check("prop:app_vstar_transient_cost", "v*(s) = E_s[sum_{t < tau_A} (r - g*)(X_t)]")
def _transient_cost(ctx: Context) -> Outcome:
    c, routes, n = ctx.claimed, ctx.routes, ctx.chain.n
    if not routes.in_K(c.g_star):
        return "g* is not in K(P) (charpoly route): the proposition is about the decomposition's g*, not any consistent pair"
    A = set(c.anchor_states)
    rest = [s for s in range(n) if s not in A]
    if not rest:
        return mismatch("v*", c.v_star, [flint.fmpq(0)] * n, "zero (every state is an anchor)")
    P = routes.P
    M = flint.fmpq_mat([[int(i == j) - P[i, j] for j in rest] for i in rest])
    rhs = flint.fmpq_mat(len(rest), 1, [ctx.chain.r[s] - c.g_star[s] for s in rest])
    try:
        x = M.solve(rhs)
    except ZeroDivisionError:
        return "the anchors are not reached almost surely from every state (hitting system singular)"
    expected = [flint.fmpq(0)] * n
    for t, s in enumerate(rest):
        expected[s] = x[t, 0]
    return mismatch("v*", c.v_star, expected, "the hitting-cost solve with anchors absorbing")


def _cycle_order(chain: MarkovRewardProcess) -> list[int] | None:
    """The states in cycle order when the chain is one deterministic cycle, else ``None``."""
    n = chain.n
    succ = [chain.support[s] for s in range(n)]
    if any(len(s) != 1 for s in succ):
        return None
    order, s = [0], succ[0][0]
    while s != 0 and len(order) <= n:
        order.append(s)
        s = succ[s][0]
    return order if len(order) == n and s == 0 else None


@register_check("prop:deterministic_cycle", "d-cycle: K = R^d, Pi = 0, v* = 0, g* = r; even d and r = 1{k < d/2} give ||h|| = d/8")
def _det_cycle(ctx: Context) -> Outcome:
    order = _cycle_order(ctx.chain)
    if order is None:
        return NOT_APPLICABLE
    c, n = ctx.claimed, ctx.chain.n
    if ctx.routes.K.ncols() != n:
        return f"dim K = {ctx.routes.K.ncols()} on a {n}-cycle, expected {n}"
    for j in range(c.N):
        if any(x != 0 for x in c.project(c.b(j))) or c.N != n:
            return "Pi is not the zero map on the cycle"
    m = mismatch("v*", c.v_star, [flint.fmpq(0)] * n, "zero") or mismatch("g*", c.g_star, list(ctx.chain.r), "r")
    if m:
        return m
    rbar = sum(ctx.chain.r, flint.fmpq(0)) / n
    h = vec(ctx.routes.h)
    for k in range(n):  # h(k) - h(k+1) = r(k) - rbar along the cycle, sum h = 0
        s, t = order[k], order[(k + 1) % n]
        if h[s] - h[t] != ctx.chain.r[s] - rbar:
            return f"h(k) - h(k+1) != r(k) - rbar at k = {k}"
    if n % 2 == 0 and all(ctx.chain.r[order[k]] == (1 if 2 * k < n else 0) for k in range(n)):
        if norm_inf(h) != flint.fmpq(n, 8):
            return f"||h|| = {norm_inf(h)}, expected d/8 = {flint.fmpq(n, 8)}"
    if c.h is not None:
        return mismatch("h", c.h, h, "the deviation matrix")
    return None


@register_check("cor:return_error", "||J^_T - J_T|| <= T||g^ - g*|| + 2||v^ - v*|| for every candidate (g^, v^)", witnesses=20)  # 4 x <= 5 T
def _return_error(ctx: Context) -> Outcome:
    c, routes, n = ctx.claimed, ctx.routes, ctx.chain.n
    routes.require_horizon(max(_horizons(c)))
    rng = ctx.rng("ret")
    P = routes.P
    trials = []  # (dg, dv) per trial, drawn in the trials' order
    for trial in range(4):
        dg = random_vector(rng, n, bound=3) if trial else [flint.fmpq(0)] * n
        dv = random_vector(rng, n, bound=3) if trial else [flint.fmpq(0)] * n
        trials.append((dg, dv))
    G = _columns([[a + b for a, b in zip(c.g_star, dg)] for dg, _ in trials], n)  # g^ per trial
    V = _columns([[a + b for a, b in zip(c.v_star, dv)] for _, dv in trials], n)  # v^ per trial
    horizons = _horizons(c)
    sums = orbits(P, G, horizons)
    ones = flint.fmpq_mat(1, len(trials), exact_integers([1] * len(trials)))
    diffs = {T: sums[T] + V - routes.P_pow(T) * V - routes.returns(T) * ones for T in horizons}  # J^_T - J_T per trial
    errs = {T: column_norms_inf(diffs[T]) for T in horizons}  # ||J^_T - J_T|| per trial
    for k, (dg, dv) in enumerate(trials):
        g, v = norm_inf(dg), norm_inf(dv)
        for T in horizons:
            err, bound = errs[T][k], T * g + 2 * v
            if greater(err, bound):
                return f"return error {err} exceeds T||dg|| + 2||dv|| = {bound} at T = {T}"
    return sampled(len(trials) * len(horizons))
