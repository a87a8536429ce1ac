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

The second moment splits exactly as ``E[e_t e_tᵀ] = μ_t μ_tᵀ + Σ_t``: the mean ``μ_t`` depends only on the
start and the covariance ``Σ_t`` only on the noise law, so the four (start, law) pairs of a schedule take two
mean recursions (vectors) and two covariance recursions, run in integers (a common denominator, no
rational normalization per entry); ``trace(HΣ_t)`` is computed exactly whenever the exact bound
``λ_max(H) trace(Σ_t)`` (Gershgorin) does not already decide the comparison.  The setup (``Π``, ``M``, ``H``, ...) is built once per chain and shared
by the three lemmas (:meth:`~proofs_check.judging.registry.Context.shared`).

Two exact bounds decide most comparisons before the recursions run (the same decisions; the tests compare both
ways): ``H - MᵀHM = I`` makes every step ``A_t`` (``a_t ≤ 1``) non-expanding in ``‖·‖_H``, so
``trace(HΣ_{t+1}) ≤ trace(HQ) Σ_{s<=t} a_s²`` (:func:`_noise_growth`: no covariance recursion where it fits the
slack) and, when ``v*`` is the fixed point and ``trace(HQ) ≤ 4C²σ²``, the lemma's bound holds at *every* ``t``
(:func:`_proved`: neither recursion runs; a claimed ``v*`` off the fixed point always goes through them).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import flint

from proofs_check.routes.certificates import LYAPUNOV_MAX_DIM, positive_definite, stein_solution
from proofs_check.algebra.linalg import columns, integer_identity
from proofs_check.judging.registry import Context, NotChecked, Outcome, block_route, register_check, sampled
from proofs_check.routes.dense import RouteTooLargeError
from proofs_check.checks import stability_krylov

HORIZON = 25
SIGMA = flint.fmpq(1, 100)
SCHEDULES = {
    "lem:contract_noise_bounded_iterates": (1, 2),  # (alpha, t0): t0 > 1, the explicit bound 4 a^2 C^2 s^2 / (t0 - 1)
    "lem:projSA_stability_template": (2, 2),  # t0 >= alpha
    "lem:optionB_stability": (1, 1),  # alpha_t = alpha / (t + 1)
}
STARTS = ("v_0 = v*", "v_0 = 0")
LAWS = ("independent signs", "one shared sign")


@dataclass(frozen=True)
class _Setup:
    """The recursion on ``W = range(Π)`` for the claimed ``Π``, shared by the three lemmas of one chain."""

    M: flint.fmpq_mat  # (Pi P)|_W
    H: flint.fmpq_mat  # H - M^T H M = I, H > 0
    C2: flint.fmpq  # sum |H_ij|
    lam: flint.fmpq  # max_i sum_j |H_ij| >= lambda_max(H) (Gershgorin)
    d: flint.fmpq_mat  # (Pi (r + P v*) - v*)|_W, zero when v* is the fixed point
    starts: flint.fmpq_mat  # q x 2: e_0 = v_0 - v* on W, one column per start (STARTS order)
    noises: tuple[flint.fmpq_mat, ...]  # Cov(Pi xi)|_W per noise law (LAWS order)


def _setup(ctx: Context) -> _Setup | stability_krylov.KrylovSetup | str | NotChecked:
    """The shared setup for the claimed ``Π``, or why the recursion cannot be set up (built once per chain)."""
    return ctx.shared("stability:setup", lambda: _build(ctx))


def _build(ctx: Context) -> _Setup | stability_krylov.KrylovSetup | str | NotChecked:
    c, n, routes = ctx.claimed, ctx.chain.n, ctx.routes
    A = c.anchor_states
    anchor_set = set(A)
    W = [s for s in range(n) if s not in anchor_set]
    if len(W) > LYAPUNOV_MAX_DIM:  # past the q^2 x q^2 Stein system: a norm by structure, verified exactly
        return _structured(ctx)
    problem = _precondition(ctx)
    if problem is not None:
        return problem
    Pi = c.projection_matrix()  # I with Pi[s, a_j] -= b_j(s)
    PiP = Pi * routes.P
    M = columns(columns(PiP, W).transpose(), W).transpose() if W else flint.fmpq_mat(0, 0)  # rows and columns W
    G = columns(Pi.transpose(), W).transpose() if W else flint.fmpq_mat(0, n)  # rows W
    H = stein_solution(M) if W else flint.fmpq_mat(0, 0)
    if H is None or (W and not positive_definite(H)):
        return "Pi P does not contract on range(Pi) (no H > 0 with H - M^T H M = I): the lemma's contraction fails for the claimed b"
    C2 = sum((abs(x) for x in H.entries()), flint.fmpq(0))
    lam = max((sum(map(abs, row), flint.fmpq(0)) for row in H.tolist()), default=flint.fmpq(0))
    fixed = Pi * (routes.r + routes.P * flint.fmpq_mat(n, 1, list(c.v_star)))
    d = flint.fmpq_mat(len(W), 1, [fixed[s, 0] - c.v_star[s] for s in W])
    starts = flint.fmpq_mat(len(W), 2, [x for s in W for x in (0, -c.v_star[s])])
    Gz = G * flint.fmpq_mat(n, 1, [(-1) ** s for s in range(n)])
    noises = (G * G.transpose() * SIGMA**2, Gz * Gz.transpose() * SIGMA**2)
    return _Setup(M, H, C2, lam, d, starts, noises)


def _precondition(ctx: Context) -> str | NotChecked | None:
    """Why neither route runs: numbers too tall for the horizon, or a claimed ``v*`` outside ``range(Π)``."""
    try:
        ctx.routes.require_horizon(HORIZON)
    except RouteTooLargeError as e:
        return NotChecked(str(e))
    if any(ctx.claimed.v_star[a] != 0 for a in ctx.claimed.anchor_states):
        return "v* is not in range(Pi) (nonzero at an anchor)"
    return None


def _structured(ctx: Context) -> stability_krylov.KrylovSetup | str | NotChecked:
    """The structured route's setup (:mod:`.stability_krylov`), built once per chain."""
    return ctx.shared("stability:structured", lambda: _precondition(ctx) or stability_krylov.build(ctx, SIGMA, HORIZON))


def _steps(M: flint.fmpq_mat, alpha: int, t0: int) -> tuple[flint.fmpz, list[flint.fmpz_mat]]:
    """``A_t = (1 - a_t)I + a_t M = B_t / (D(t + t0))`` in integers: ``(D, [B_t for t < HORIZON])``, ``M = M'/D``,
    ``B_t = (t + t0 - α)D I + αM'``."""
    q = M.nrows()
    Mn, D = M.numer_denom()
    one = integer_identity(q)
    return D, [one * ((t + t0 - alpha) * D) + Mn * alpha for t in range(HORIZON)]


def _mean_norms(setup: _Setup, alpha: int, t0: int, D: flint.fmpz, Bs: list[flint.fmpz_mat]) -> list[list[tuple[flint.fmpz, flint.fmpz]]]:
    """``‖μ_t‖_H² = μ_tᵀHμ_t`` for ``t = 1..HORIZON``, one per start, as ``(numerator, denominator)`` integers:
    ``μ_{t+1} = A_t μ_t + a_t d``, ``μ_0 = e_0``
    (the mean of ``e_t``; the noise has mean zero).  In integers: ``μ_t = m_t/e_t`` with ``e_{t+1} = e_t D(t + t0)``,
    ``m_{t+1} = B_t m_t + (αDe_t/d_d) d'`` (``d = d'/d_d``, ``d_d`` divides ``e_0``)."""
    q = setup.M.nrows()
    sn, sd = setup.starts.numer_denom()
    dn, dd = flint.fmpq_mat(q, 2, [x for i in range(q) for x in (setup.d[i, 0],) * 2]).numer_denom()
    Hn, Hd = setup.H.numer_denom()
    e = sd * dd // sd.gcd(dd)
    m = sn * (e // sd)
    out = []
    for t, B in enumerate(Bs):
        m, e = B * m + dn * (alpha * D * e // dd), e * D * (t + t0)
        X, den = m.transpose() * Hn * m, e * e * Hd
        out.append([(X[0, 0], den), (X[1, 1], den)])
    return out


def _noise_states(setup: _Setup, alpha: int, t0: int, D: flint.fmpz, Bs: list[flint.fmpz_mat]) -> list[list[tuple[flint.fmpz_mat, flint.fmpz, flint.fmpz]]]:
    """``Σ_t`` for ``t = 1..HORIZON``, one per noise law, as ``(N_t, E_t, trace N_t)`` with ``Σ_t = N_t/E_t``:
    ``Σ_{t+1} = A_tΣ_tA_tᵀ + a_t²Q``, ``Σ_0 = 0`` (the covariance of ``e_t``).  In integers: ``E_0 = Q_d``
    (``Q = Q'/Q_d``), ``E_{t+1} = E_t (D(t + t0))²`` and ``N_{t+1} = B_t N_t B_tᵀ + (α²D²E_t/Q_d) Q'`` (``Q_d``
    divides ``E_t``): the same rationals as the recursion."""
    q = setup.M.nrows()
    laws = [(Qn, Qd, flint.fmpz_mat(q, q), Qd) for Qn, Qd in (Q.numer_denom() for Q in setup.noises)]
    out = []
    for t, B in enumerate(Bs):
        Bt, c2 = B.transpose(), (D * (t + t0)) ** 2
        laws = [(Qn, Qd, B * N * Bt + Qn * (alpha**2 * D**2 * E // Qd), E * c2) for Qn, Qd, N, E in laws]
        out.append([(N, E, sum((N[i, i] for i in range(q)), flint.fmpz(0))) for _, _, N, E in laws])
    return out


def _trace(X: flint.fmpz_mat, Y: flint.fmpz_mat) -> flint.fmpz:
    """``trace(XY)``."""
    XY = X * Y
    return sum((XY[i, i] for i in range(XY.nrows())), flint.fmpz(0))


def _run(key: str, setup: _Setup) -> str | None:
    """Each (start, law) pair against the lemma's bound at every ``t < HORIZON``, in the order start, law, ``t``.

    ``E‖e_t‖_H² = trace(H E[e_t e_tᵀ]) = μ_tᵀHμ_t + trace(HΣ_t)``: with ``e_{t+1} = A_t e_t + a_t d + a_t ξ'_t``
    (``ξ'_t`` the projected noise, mean zero, covariance ``Q``, independent of ``e_t``), ``E[e e ᵀ] = μμᵀ + Σ``
    is kept by the step: ``A(μμᵀ + Σ)Aᵀ + a(Aμdᵀ + dμᵀAᵀ) + a²(ddᵀ + Q) = (Aμ + ad)(Aμ + ad)ᵀ + (AΣAᵀ + a²Q)``,
    so the values are those of the full second-moment recursion, pair by pair.  ``got > bound`` is decided in
    integers with ``slack = bound - ‖μ_t‖_H²``; ``trace(HΣ_t)`` is computed only when ``λ trace(Σ_t) > slack``,
    where ``λ = max_i Σ_j |H_ij| ≥ λ_max(H)`` (Gershgorin): ``Σ_t ⪰ 0``, so ``trace(HΣ_t) ≤ λ_max(H) trace(Σ_t)``,
    and ``λ trace(Σ_t) ≤ slack`` already proves ``got ≤ bound`` (the same decision, exactly)."""
    alpha, t0 = SCHEDULES[key]
    if setup.M.nrows() == 0:  # range(Pi) = 0: e_t = 0, so E||e_t||^2 = 0 <= every bound (C^2 = 0, ||e_0|| = 0)
        return None
    if _proved(setup, alpha, t0):  # the bound holds at every t, not only t < HORIZON: no recursion needed
        return None
    D, Bs = _steps(setup.M, alpha, t0)
    means = _mean_norms(setup, alpha, t0, D, Bs)
    noise: list[list[tuple[flint.fmpz_mat, flint.fmpz, flint.fmpz]]] = []  # the covariance recursion, run when needed
    grown = _noise_growth(setup, alpha, t0)
    Hn, Hd = setup.H.numer_denom()
    exact: dict[tuple[int, int], flint.fmpz] = {}  # trace(Hn N_t) per (t, law), computed when needed
    X0 = setup.starts.transpose() * setup.H * setup.starts
    scale, lp, lq = 4 * alpha**2 * setup.C2 * SIGMA**2, setup.lam.p, setup.lam.q
    for i, start in enumerate(STARTS):
        # the explicit bound ||e_0||^2 + 4a^2C^2s^2/(t0 - 1) (t0 > 1) is never below this one: sum_{s<=t} 1/(s + t0)^2
        # < sum_{m>=t0} 1/(m(m - 1)) = 1/(t0 - 1) and 4a^2C^2s^2 >= 0, so got > explicit implies got > bound
        bounds = [X0[i, i] + scale * tail for tail in _tails(t0)]
        slack = [(b.p * md - mn * b.q, b.q * md) for b, (mn, md) in zip(bounds, (row[i] for row in means))]  # bound - ||mu_t||^2
        for j, law in enumerate(LAWS):
            for t, (sp, sq) in enumerate(slack):
                if grown is not None and grown[j][t].p * sq <= sp * grown[j][t].q:  # trace(H Sigma_t) <= its growth bound <= slack
                    continue
                noise = noise or _noise_states(setup, alpha, t0, D, Bs)
                N, E, trN = noise[t][j]
                if lp * trN * sq <= sp * E * lq:  # lambda trace(Sigma_t) <= slack
                    continue
                num = exact[t, j] = exact[t, j] if (t, j) in exact else _trace(Hn, N)
                if num * sq > sp * Hd * E:
                    got = flint.fmpq(*means[t][i]) + flint.fmpq(num, Hd * E)
                    return (f"{start}, {law}, alpha_t = {alpha}/(t + {t0}): E||v_{t + 1} - v*||_q^2 = {float(got):.6g} exceeds the "
                            f"lemma's bound {float(bounds[t]):.6g} (||e_0||^2 + 4 alpha^2 C^2 sigma^2 sum 1/(s + t0)^2)")
    return None


def _noise_traces(setup: _Setup) -> list[flint.fmpq]:
    """``trace(HQ)`` per noise law (:data:`LAWS` order): ``E‖ξ'‖_H²`` of one projected noise draw."""
    out = []
    for Q in setup.noises:
        HQ = setup.H * Q
        out.append(sum((HQ[k, k] for k in range(HQ.nrows())), flint.fmpq(0)))
    return out


def _noise_growth(setup: _Setup, alpha: int, t0: int) -> list[list[flint.fmpq]] | None:
    """Upper bounds ``trace(HQ) α² Σ_{s<=t} 1/(s + t0)² ≥ trace(HΣ_{t+1})`` for ``t < HORIZON``, one list per noise law
    (``None`` when the schedule has some ``a_t > 1``, where they need not hold).

    ``H - MᵀHM = I ⪰ 0`` gives ``‖Mx‖_H ≤ ‖x‖_H``, so for ``a ∈ [0, 1]`` the triangle inequality gives
    ``‖A x‖_H ≤ (1 - a)‖x‖_H + a‖Mx‖_H ≤ ‖x‖_H`` (``A = (1 - a)I + aM``): ``H - AᵀHA ⪰ 0``.  With ``Σ ⪰ 0``,
    ``trace(HAΣAᵀ) = trace(AᵀHAΣ) ≤ trace(HΣ)``, so ``trace(HΣ_{t+1}) ≤ trace(HΣ_t) + a_t² trace(HQ)`` and,
    from ``Σ_0 = 0``, ``trace(HΣ_{t+1}) ≤ trace(HQ) Σ_{s<=t} a_s²``.  When this bound already lies within the
    slack, ``got ≤ bound`` is proved without the covariance recursion (the same decision, exactly)."""
    if not 0 < alpha <= t0:  # a_t = alpha / (t + t0) <= 1 for every t >= 0
        return None
    return [[tr * alpha**2 * tail for tail in _tails(t0)] for tr in _noise_traces(setup)]


def _proved(setup: _Setup, alpha: int, t0: int) -> bool:
    """Whether the lemma's bound is proved for this setup at *every* ``t`` (so the recursion cannot fail it).

    With ``v*`` the fixed point (``d = 0``) the mean is ``μ_{t+1} = A_t μ_t``, and ``‖A_t x‖_H ≤ ‖x‖_H`` for
    ``a_t ∈ [0, 1]`` (:func:`_noise_growth`) gives ``‖μ_t‖_H² ≤ ‖e_0‖_H²``; with the growth bound,
    ``E‖e_{t+1}‖_H² ≤ ‖e_0‖_H² + trace(HQ) α² Σ_{s<=t} 1/(s + t0)²``, which is at most the lemma's
    ``‖e_0‖_H² + 4α²C²σ² Σ_{s<=t} 1/(s + t0)²`` for every ``t`` when ``trace(HQ) ≤ 4C²σ²`` for both noise laws.
    Otherwise (a drifting ``v*``, a larger noise trace) the recursion decides, step by step."""
    if not 0 < alpha <= t0 or setup.d != flint.fmpq_mat(setup.d.nrows(), 1):
        return False
    four = 4 * setup.C2 * SIGMA**2
    return all(tr <= four for tr in _noise_traces(setup))


@functools.lru_cache(maxsize=None)
def _tails(t0: int) -> tuple[flint.fmpq, ...]:
    """``sum_{s<=t} 1/(s + t0)²`` for ``t < HORIZON``."""
    out, tail = [], flint.fmpq(0)
    for t in range(HORIZON):
        tail += flint.fmpq(1, (t + t0) ** 2)
        out.append(tail)
    return tuple(out)


def tried(key: str, laws: tuple[str, ...] = LAWS, *, every_t: bool = False) -> str:
    """What a held of a stability lemma was decided on: one step schedule, ``sigma``, two noise laws, two starts and
    the horizon (every ``t`` when the fixed-point bound :func:`_proved` applies): witnesses of a statement about every
    schedule, noise law and start, never the statement itself."""
    alpha, t0 = SCHEDULES[key]
    steps = "every t (the fixed-point bound)" if every_t else f"t < {HORIZON}"
    return (f"decided for alpha_t = {alpha}/(t + {t0}), sigma = {SIGMA}, the noise laws {' and '.join(laws)}, the starts "
            f"{' and '.join(STARTS)}, {steps}: not for every schedule, noise law and start the lemma quantifies over")


WITNESSES = len(STARTS) * len(LAWS)
"""(start, noise law) pairs a stability lemma is decided on, for its one step schedule."""


def _register(key: str, statement: str) -> None:
    def _judge(setup: _Setup | stability_krylov.KrylovSetup | str | NotChecked) -> Outcome:
        if isinstance(setup, stability_krylov.KrylovSetup):
            alpha, t0 = SCHEDULES[key]
            out = stability_krylov.run(setup, alpha, t0, SIGMA, _tails(t0), STARTS)
            return out if out is not None else sampled(WITNESSES, tried(key, stability_krylov.LAWS_BY_STRUCTURE))
        if not isinstance(setup, _Setup):
            return setup
        alpha, t0 = SCHEDULES[key]
        every_t = setup.M.nrows() == 0 or _proved(setup, alpha, t0)
        out = _run(key, setup)
        return out if out is not None else sampled(WITNESSES, tried(key, every_t=every_t))

    @register_check(key, statement, witnesses=WITNESSES)
    def _lemma(ctx: Context) -> Outcome:
        return _judge(_setup(ctx))

    @block_route(key)
    def _lemma_by_structure(ctx: Context) -> Outcome:  # past the dense routes: the structured norm, any dim range(Pi)
        return _judge(_structured(ctx))


_register("lem:optionB_stability", "projected SA with alpha_t = alpha/(t+1): sup_t E||v_t - v*||_q^2 <= C_stab (the proof's explicit C_stab)")
_register("lem:contract_noise_bounded_iterates",
          "sup_t E||v_t - v^*||_q^2 <= ||v_0 - v^*||_q^2 + 4 alpha^2 C^2 sigma^2 / (t0 - 1) for alpha_t = alpha/(t + t0), t0 > 1")
_register("lem:projSA_stability_template", "projected SA with alpha_t = alpha/(t + t0), t0 >= alpha: sup_t E||v_t - v^*||_q^2 <= C_stab")
