"""The stability lemmas of projected SA with their stated bounds, computed exactly.

``lem:contract_noise_bounded_iterates`` states, for ``v_{t+1} = Π^((1 - α_t)v_t + α_t T^(v_t))`` with
``α_t = α/(t + t0)``, zero-mean oracle noise with ``E‖ξ‖∞² ≤ σ²``, a quotient semi-norm in which the
mean step does not expand and ``‖x‖_q ≤ C_{q,∞}‖x‖_∞``::

    sup_t E‖v_t - v^*‖_q² ≤ ‖v_0 - v^*‖_q² + 4α²C²σ² Σ_t 1/(t + t0)² ≤ ‖v_0 - v^*‖_q² + 4α²C²σ²/(t0 - 1);

``lem:projSA_stability_template`` (``t0 ≥ α``) and ``lem:optionB_stability`` (``α_t = α/(t + 1)``) state a
finite ``C_stab``, which their proofs give as the same partial-sum bound.  These checks run the recursion
with ``Π^`` the claimed ``Π`` (so ``v^* =`` the claimed ``v*``, ``lem:vhat_star_unique``) and compute
``E‖v_t - v*‖_q²`` *exactly*: the mean and second moment of ``e_t`` propagate linearly, for two noise
laws with ``‖ξ‖∞ = σ`` (independent signs, ``Cov = σ²I``; one shared sign, ``Cov = σ² z zᵀ``).  The
norm is ``‖x‖_H² = xᵀHx`` on ``range(Π) = W`` with ``H - MᵀHM = I``, ``M = (ΠP)|_W`` (exact Stein
solution, positive definite: then ``‖((1-a)I + aM)e‖_H ≤ ‖e‖_H``), ``C² = Σ|H_ij|`` (``≥ max_{‖x‖∞≤1} xᵀHx``).
Each bound is then checked at every ``t < HORIZON``, from ``v_0 = v*`` and from ``v_0 = 0``: a claimed
``v*`` that is not the fixed point drifts away by more than the noise allows and fails.
"""

from __future__ import annotations

import flint

from ..certificates import LYAPUNOV_MAX_DIM, positive_definite, stein_solution
from ..linalg import identity
from ..registry import Context, NotChecked, Outcome, check

HORIZON = 25
SIGMA = flint.fmpq(1, 100)
SCHEDULES = {
    "lem:contract_noise_bounded_iterates": (1, 2),  # (alpha, t0): t0 > 1, the explicit bound 4 a^2 C^2 s^2 / (t0 - 1)
    "lem:projSA_stability_template": (2, 2),  # t0 >= alpha
    "lem:optionB_stability": (1, 1),  # alpha_t = alpha / (t + 1)
}


def _setup(ctx: Context) -> tuple | str | NotChecked:
    """``(W, M, G, H, C², d, v*_W)`` for the claimed ``Π``, or why the recursion cannot be set up."""
    c, n, routes = ctx.claimed, ctx.chain.n, ctx.routes
    A = c.anchor_states
    W = [s for s in range(n) if s not in set(A)]
    if len(W) > LYAPUNOV_MAX_DIM:
        return NotChecked(f"range(Pi) has dimension {len(W)}; the exact Stein solve is limited to {LYAPUNOV_MAX_DIM}")
    if any(c.v_star[a] != 0 for a in A):
        return "v* is not in range(Pi) (nonzero at an anchor)"
    Pi = identity(n)
    for s in range(n):
        for j, a in enumerate(A):
            Pi[s, a] -= c.basis[s][j]
    PiP = Pi * routes.P
    M = flint.fmpq_mat([[PiP[i, j] for j in W] for i in W]) if W else flint.fmpq_mat(0, 0)
    G = flint.fmpq_mat([[Pi[i, j] for j in range(n)] for i in W]) if W else flint.fmpq_mat(0, n)
    H = stein_solution(M) if W else flint.fmpq_mat(0, 0)
    if H is None or (W and not positive_definite(H)):
        return "Pi P does not contract on range(Pi) (no H > 0 with H - M^T H M = I): the lemma's contraction fails for the claimed b"
    C2 = sum((abs(x) for x in H.entries()), flint.fmpq(0))
    fixed = Pi * (routes.r + routes.P * flint.fmpq_mat(n, 1, list(c.v_star)))
    d = flint.fmpq_mat(len(W), 1, [fixed[s, 0] - c.v_star[s] for s in W])
    vW = flint.fmpq_mat(len(W), 1, [c.v_star[s] for s in W])
    return W, M, G, H, C2, d, vW


def _trace(A: flint.fmpq_mat, B: flint.fmpq_mat) -> flint.fmpq:
    return sum((A[i, j] * B[j, i] for i in range(A.nrows()) for j in range(A.ncols())), flint.fmpq(0))


def _run(key: str, setup: tuple, n: int) -> str | None:
    W, M, G, H, C2, d, vW = setup
    alpha, t0 = SCHEDULES[key]
    q = len(W)
    I = identity(q)
    z = flint.fmpq_mat(n, 1, [(-1) ** s for s in range(n)])
    noises = {"independent signs": G * G.transpose() * SIGMA**2, "one shared sign": G * z * z.transpose() * G.transpose() * SIGMA**2}
    for start, e0 in (("v_0 = v*", flint.fmpq_mat(q, 1)), ("v_0 = 0", -vW)):
        for law, Q in noises.items():
            mu, S = e0, e0 * e0.transpose()
            base = (e0.transpose() * H * e0)[0, 0] if q else flint.fmpq(0)
            tail = flint.fmpq(0)
            for t in range(HORIZON):
                a = flint.fmpq(alpha, t + t0)
                A = I * (1 - a) + M * a
                Amu = A * mu
                S = A * S * A.transpose() + (Amu * d.transpose() + d * Amu.transpose()) * a + (d * d.transpose() + Q) * a**2
                mu = Amu + d * a
                tail += flint.fmpq(1, (t + t0) ** 2)
                bound = base + 4 * alpha**2 * C2 * SIGMA**2 * tail
                got = _trace(H, S)
                if got > bound or (t0 > 1 and got > base + 4 * alpha**2 * C2 * SIGMA**2 / (t0 - 1)):
                    return (f"{start}, {law}, alpha_t = {alpha}/(t + {t0}): E||v_{t + 1} - v*||_q^2 = {float(got):.6g} exceeds the "
                            f"lemma's bound {float(bound):.6g} (||e_0||^2 + 4 alpha^2 C^2 sigma^2 sum 1/(s + t0)^2)")
    return None


def _register(key: str, statement: str) -> None:
    @check(key, statement)
    def _lemma(ctx: Context) -> Outcome:
        setup = _setup(ctx)
        if not isinstance(setup, tuple):
            return setup
        return _run(key, setup, ctx.chain.n)


_register("lem:optionB_stability", "projected SA with alpha_t = alpha/(t+1): sup_t E||v_t - v*||_q^2 <= C_stab (the proof's explicit C_stab)")
_register("lem:contract_noise_bounded_iterates",
          "sup_t E||v_t - v^*||_q^2 <= ||v_0 - v^*||_q^2 + 4 alpha^2 C^2 sigma^2 / (t0 - 1) for alpha_t = alpha/(t + t0), t0 > 1")
_register("lem:projSA_stability_template", "projected SA with alpha_t = alpha/(t + t0), t0 >= alpha: sup_t E||v_t - v^*||_q^2 <= C_stab")
