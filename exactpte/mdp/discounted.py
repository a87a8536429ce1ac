"""Exact discounted optimality: policy iteration in rationals for a rational discount ``γ`` in ``(0, 1)``.

Evaluate ``v_d = (I - γ P_d)^{-1} r_d`` exactly (:func:`~exactpte.mdp.evaluation.evaluate_discounted`), improve
``d'(s) ∈ argmax_a r(s,a) + γ P_a v_d`` keeping the current action on ties, until nothing improves
(Puterman 1994, §6.4).  Then ``V*_γ = v_d`` solves the Bellman equation ``V = max_a r_a + γ P_a V``
(checked exactly on every answer), and the optimal actions are exactly the actions attaining it: every
optimal policy is conserving and every conserving policy is optimal (``γ < 1``: the equation has one
solution and a conserving ``d`` has ``v_d = V*``).

Examples
--------
>>> from exactpte.mdp.model import MDP
>>> m = MDP.from_actions([[[1, 0], [0, 1]], [[0, 1]]], [[1, 0], [3]])   # stay for 1, or move on to earn 3 a step
>>> sol = solve_discounted(m, discount="1/2")
>>> sol.value, sol.policy, sol.optimal_actions
((3, 6), (1, 0), ((1,), (0,)))
>>> solve_discounted(m, discount="1/3").optimal_actions       # 1/(1 - 1/3) = 3/2 = 1/3 * 9/2: a tie
((0, 1), (0,))
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import flint

from exactpte.mdp.evaluation import Scaled, require_discount, evaluate_discounted, greedy_reward_policy
from exactpte.mdp.model import MDP

__all__ = ["DiscountedSolution", "solve_discounted", "bellman_actions"]


@dataclass(frozen=True)
class DiscountedSolution:
    """The exact discounted answer (:func:`solve_discounted`): ``value`` (``V*_γ``), an optimal ``policy``,
    ``optimal_actions[s]`` (every action some optimal deterministic policy takes at ``s``), ``iterations``."""

    mdp: MDP
    discount: flint.fmpq
    value: tuple[flint.fmpq, ...]
    policy: tuple[int, ...]
    optimal_actions: tuple[tuple[int, ...], ...]
    iterations: int

    def to_dict(self) -> dict[str, Any]:
        """``value`` (reduced ``"p/q"`` strings) and ``discount_optimal_actions`` (sorted lists per state)."""
        return {"value": [str(x) for x in self.value], "discount_optimal_actions": [list(a) for a in self.optimal_actions]}

    def to_json(self, *, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)


def bellman_actions(mdp: MDP, value: Any, discount: Any) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]:
    """Per state the actions attaining ``max_a r(s,a) + γ P_a V`` when it equals ``V(s)``, and every place the
    Bellman equation fails (an action above ``V(s)``, or none attaining it).

    Examples
    --------
    >>> from exactpte.mdp.model import MDP
    >>> m = MDP([[[1]], [[1]]], [[1, 2]])
    >>> bellman_actions(m, [flint.fmpq(4)], "1/2")
    (((1,),), ())
    """
    gamma = require_discount(discount)
    V = Scaled(mdp, [flint.fmpq(x) for x in value])
    actions, problems = [], []
    for s in range(mdp.n):
        best: list[int] = []
        for a in mdp.actions(s):
            q = mdp.reward(s, a) * V.L + gamma * V.lookahead(s, a)
            if q == V.X[s]:
                best.append(a)
            elif q > V.X[s]:
                problems.append(f"Bellman equation at state {s}: action {a} gives {q / V.L} > V = {V.x[s]}")
        if not best:
            problems.append(f"Bellman equation at state {s}: no action attains V = {V.x[s]}")
        actions.append(tuple(best))
    return tuple(actions), tuple(problems)


def _improve(mdp: MDP, d: tuple[int, ...], v: tuple[flint.fmpq, ...], gamma: flint.fmpq) -> tuple[int, ...] | None:
    V = Scaled(mdp, v)
    new, changed = list(d), False
    for s, cur in enumerate(d):
        best = mdp.reward(s, cur) * V.L + gamma * V.lookahead(s, cur)
        for a in mdp.actions(s):
            q = mdp.reward(s, a) * V.L + gamma * V.lookahead(s, a)
            if q > best:
                best, new[s], changed = q, a, True
    return tuple(new) if changed else None


def solve_discounted(mdp: MDP, *, discount: Any, initial: Any = None) -> DiscountedSolution:
    """The exact optimal discounted value ``V*_γ``, an optimal policy and the optimal actions (module docstring).

    Raises
    ------
    UsageError
        A discount outside ``(0, 1)``; :class:`~exactpte.errors.FloatEntryError` for a float discount
        (give ``"9/10"`` or ``"0.9"``, read exactly).
    """
    gamma = require_discount(discount)
    d = mdp.policy(initial) if initial is not None else greedy_reward_policy(mdp)
    iterations = 0
    while True:
        v = evaluate_discounted(mdp, d, discount=gamma)
        iterations += 1
        new = _improve(mdp, d, v, gamma)
        if new is None:
            break
        d = new
    actions, problems = bellman_actions(mdp, v, gamma)
    if problems:
        raise RuntimeError("the Bellman equation fails at the end of policy iteration (a defect of exactpte, please "
                           "report it): " + "; ".join(problems[:3]))
    return DiscountedSolution(mdp, gamma, v, d, actions, iterations)
