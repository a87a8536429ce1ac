"""The causes named on a wrong MDP answer, each only when its test holds (numpy and the exact solver).

- :func:`unichain_note`: one gain for every state (a scalar ``average_reward``) while the optimal gains
  differ: the unichain assumption;
- :func:`periodic_note`: the candidate's gain is a value the *undamped* relative value iteration takes on an
  MDP whose policy has a periodic recurrent class (reproduced here in floats): it oscillates and never
  converges without the aperiodicity transform ``P <- τ P + (1 - τ) I``;
- :func:`near_tie_note`: a policy whose exact loss is positive but within 1% of the optimum's size: an
  ε-optimal policy on a near tie;
- :func:`loop_note`: a policy attaining ``max_a P_a g*`` (the first optimality equation) everywhere but not
  gain-optimal: an action that closes a recurrent class earning less (the loop trap);
- :func:`stand_in_note`: a policy that is optimal for a discount ``β < 1`` (the solver's, or read off its
  values) but not gain-optimal: a discount used as a stand-in for the average reward;
- :func:`cut_short_note`: discounted values that are a near fixed point of the Bellman operator (one step
  changes them by about ``(1 - γ)`` times their error) yet wrong: an iteration stopped by its rule on the
  change per step, or at a silent ``max_iter`` (:func:`cap_note`).

Examples
--------
>>> cap_note({"num_iter": 250, "max_iter": 250})
'the solver stopped at its iteration cap (250 iterations, max_iter = 250) without meeting its stopping rule: a silent max_iter'
>>> cap_note({"iter": 3, "max_iter": 1000})
''
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import flint
import numpy as np

from exactpte.mdp.discounted import solve_discounted
from exactpte.mdp.evaluation import PolicyEvaluation
from exactpte.mdp.model import MDP
from exactpte.model.to_float import to_float

__all__ = ["NEAR_TIE", "unichain_note", "periodic_note", "near_tie_note", "loop_note", "stand_in_note", "cut_short_note",
           "cap_note", "reward_range", "rvi_values"]

NEAR_TIE = 0.01
"""A policy's loss is a near tie's when it is positive and at most this fraction of the optimum (``max |g*|``, ``max |V*|``)."""
RVI_STEPS = 1000
"""Steps of the undamped relative value iteration reproduced by :func:`periodic_note` (pymdptoolbox's default cap)."""


def reward_range(mdp: MDP) -> float:
    """``max r - min r`` over every state-action pair (1 when every reward is the same)."""
    rs = [to_float(mdp.reward(s, a)) for s in range(mdp.n) for a in mdp.actions(s)]
    span = max(rs) - min(rs)
    return span if span > 0 else 1.0


def unichain_note(got: np.ndarray, scalar: bool, gain: np.ndarray, tol: float) -> str:
    """One gain for every state (given as one number, or a constant vector) while ``g*`` is not constant."""
    if not (scalar or float(np.ptp(got)) <= tol) or float(np.ptp(gain)) <= tol:
        return ""
    values = sorted({round(float(x), 12) for x in gain})
    shown = ", ".join(f"{x:.6g}" for x in values[:6]) + (", ..." if len(values) > 6 else "")
    return (f"one gain for every state: a unichain assumption (the MDP is multichain: the optimal gains are {shown} "
            f"on different states; the candidate gives {float(got[0]):.6g} everywhere)")


def cap_note(context: Mapping[str, Any]) -> str:
    """An iteration count at the solver's cap (``iter``/``num_iter`` and ``max_iter`` given)."""
    made = context.get("num_iter", context.get("iter"))
    cap = context.get("max_iter")
    try:
        made_i, cap_i = int(made), int(cap)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return ""
    if cap_i <= 0 or made_i < cap_i:
        return ""
    return (f"the solver stopped at its iteration cap ({made_i} iterations, max_iter = {cap_i}) without meeting its "
            "stopping rule: a silent max_iter")


def _sparse_actions(mdp: MDP) -> tuple[list[Any], np.ndarray, np.ndarray]:
    """``(P_a for each action index, R (S x A, -inf where a state lacks the action), mask)`` in floats."""
    import scipy.sparse as sp

    A = max(mdp.num_actions)
    mats, R = [], np.full((mdp.n, A), -np.inf)
    for a in range(A):
        rows, cols, vals = [], [], []
        for s in range(mdp.n):
            if a < mdp.num_actions[s]:
                R[s, a] = to_float(mdp.reward(s, a))
                for j, q in mdp.row(s, a):
                    rows.append(s)
                    cols.append(j)
                    vals.append(to_float(q))
        mats.append(sp.csr_matrix((vals, (rows, cols)), shape=(mdp.n, mdp.n)))
    return mats, R, np.isfinite(R)


def rvi_values(mdp: MDP, steps: int = RVI_STEPS, tail: int = 50) -> list[float]:
    """The gains pymdptoolbox's ``RelativeValueIteration`` would report had it stopped at each of the last
    ``tail`` of ``steps`` undamped iterations: ``gain + min(V' - V)`` (and ``max``), in floats."""
    mats, R, mask = _sparse_actions(mdp)
    V = np.zeros(mdp.n)
    gain = 0.0
    out: list[float] = []
    for k in range(steps):
        Q = np.where(mask, R + np.stack([M @ V for M in mats], axis=1), -np.inf)
        nxt = Q.max(axis=1) - gain
        if k >= steps - tail:
            diff = nxt - V
            out += [gain + float(diff.min()), gain + float(diff.max())]
        V, gain = nxt, float(nxt[-1])
        if not np.all(np.isfinite(V)) or float(np.max(np.abs(V), initial=0.0)) > 1e12:
            break
    return out


def periodic_note(mdp: MDP, got: np.ndarray, gain: np.ndarray, evaluation: PolicyEvaluation, tol: float) -> str:
    """The candidate's gain is a value the undamped relative value iteration oscillates through, on an MDP
    whose (optimal or candidate's) policy has a recurrent class of period ``> 1``."""
    S = evaluation.chain.structure
    periodic = [(list(c), d) for c, d in zip(S.classes, S.periods) if d > 1]
    if not periodic or mdp.n > 20_000:
        return ""
    wrong = [float(x) for x, e in zip(got, gain) if abs(x - e) > tol]
    if not wrong:
        return ""
    values = rvi_values(mdp)
    if not all(any(abs(w - v) <= max(tol, 1e-9 * max(1.0, abs(w))) for v in values) for w in set(wrong)):
        return ""
    members, d = periodic[0]
    return (f"periodic: the recurrent class {members[:8]}{' ...' if len(members) > 8 else ''} has period {d}, so relative "
            f"(or plain) value iteration oscillates and never converges; {wrong[0]:.6g} is a value the undamped iteration "
            "reports (gain + min of V' - V), not the Cesaro average: apply the aperiodicity transform "
            "P <- tau P + (1 - tau) I (0 < tau < 1) first")


def near_tie_note(loss: Sequence[flint.fmpq], optimum: Sequence[flint.fmpq], what: str) -> str:
    """A positive exact loss within :data:`NEAR_TIE` of the optimum's size (``max |g*|`` or ``max |V*|``; the loss
    itself when the optimum is 0): a tie that only exact arithmetic breaks."""
    worst = max(range(len(loss)), key=lambda s: loss[s])
    top = loss[worst]
    size = max((abs(to_float(x)) for x in optimum), default=0.0)
    if top <= 0 or size == 0 or to_float(top) > NEAR_TIE * size:
        return ""
    return (f"an ε-optimal policy on a near tie: its exact loss is {top} at state {worst} ({to_float(top):.3g}, "
            f"{to_float(top) / size:.2g} of the optimum's size): an action within a stopping rule's ε of the best one; "
            f"{what} is exact here, so the tie is broken")


def loop_note(evaluation: PolicyEvaluation, first: Sequence[Sequence[int]], second: Sequence[Sequence[int]],
              g_star: Sequence[flint.fmpq]) -> str:
    """Every action attains ``max_a P_a g*`` but a recurrent class takes an action off the second equation."""
    d = evaluation.policy
    if any(a not in first[s] for s, a in enumerate(d)):
        return ""
    for members in evaluation.chain.structure.classes:
        bad = [y for y in members if d[y] not in second[y]]
        if bad and evaluation.gain[members[0]] < g_star[members[0]]:
            y = bad[0]
            loop = " (a self-loop)" if list(members) == [y] else ""
            return (f"a loop that attains max_a P_a g* but earns less: state {y} takes action {d[y]}{loop}, which attains the "
                    f"first optimality equation (P_a g* = g* = {g_star[y]}) but not the second; it closes the recurrent class "
                    f"{list(members)[:8]} earning {evaluation.gain[members[0]]} < g* = {g_star[members[0]]}")
    return ""


def _discount_of(context: Mapping[str, Any], mdp: MDP, policy: Sequence[int]) -> flint.fmpq | None:
    """The discount the solver used: its ``discount``/``beta`` key, else read off its values ``v = r_d + β P_d v``."""
    for key in ("beta", "discount"):
        x = context.get(key)
        if isinstance(x, (int, float)) and not isinstance(x, bool) and 0 < float(x) < 1:
            f = Fraction(float(x)).limit_denominator(10**7)
            return flint.fmpq(f.numerator, f.denominator)
    raw = next((context[k] for k in ("v", "V", "value") if k in context), None)
    try:
        v = np.asarray(raw, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        return None
    if v.shape != (mdp.n,) or not np.all(np.isfinite(v)):
        return None
    Pv = np.array([sum(to_float(q) * v[j] for j, q in mdp.row(s, a)) for s, a in enumerate(policy)])
    r = np.array([to_float(mdp.reward(s, a)) for s, a in enumerate(policy)])
    if float(Pv @ Pv) == 0:
        return None
    beta = float(Pv @ (v - r)) / float(Pv @ Pv)
    if not 0 < beta < 1:
        return None
    f = Fraction(beta).limit_denominator(10**7)
    return flint.fmpq(f.numerator, f.denominator) if 0 < f < 1 else None


def stand_in_note(mdp: MDP, policy: Sequence[int], context: Mapping[str, Any]) -> str:
    """A policy (not gain-optimal) that is optimal for the discount the solver used."""
    beta = _discount_of(context, mdp, policy)
    if beta is None:
        return ""
    sol = solve_discounted(mdp, discount=beta)
    if any(a not in sol.optimal_actions[s] for s, a in enumerate(policy)):
        return ""
    return (f"a discount used as a stand-in for the average reward: the policy is optimal for the discount {beta} "
            f"({to_float(beta):.7g}), not for the gain; no discount short of 1 is safe in general")


def cut_short_note(mdp: MDP, got: np.ndarray, expected: np.ndarray, gamma: flint.fmpq, context: Mapping[str, Any]) -> str:
    """Values off by ``e`` whose Bellman residual ``‖TV - V‖`` is at most about ``(1 - γ) e``: where an iteration
    that contracts by ``γ`` still is when its rule on the change per step stops it (or its cap does)."""
    cap = cap_note(context)
    err = float(np.max(np.abs(got - expected), initial=0.0))
    if not math.isfinite(err) or err == 0:
        return cap
    g = to_float(gamma)
    mats, R, mask = _sparse_actions(mdp)
    Q = np.where(mask, R + g * np.stack([M @ got for M in mats], axis=1), -np.inf)
    residual = float(np.max(np.abs(Q.max(axis=1) - got), initial=0.0))
    if residual > 2 * (1 - g) * err:
        return cap
    note = (f"values cut short by a stopping rule: one Bellman step changes them by only {residual:.3g}, yet they are "
            f"{err:.3g} off; with γ = {g:.6g} an error up to γ/(1-γ) x {residual:.3g} = {g / (1 - g) * residual:.3g} "
            "hides behind that change (stop on ‖TV - V‖ < ε(1-γ)/γ, or solve exactly)")
    return note + (f"; {cap}" if cap else "")
