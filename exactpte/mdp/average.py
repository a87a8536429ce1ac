"""Exact average-reward optimality: multichain policy iteration in rationals, and the optimal action sets.

**Policy iteration** (Puterman 1994, §9.2, extended to bias optimality as in §10.3).  Start from the
policy that maximises the one-step reward.  Evaluate the policy ``d`` exactly: its gain ``g``, bias ``h``
(:func:`~exactpte.mdp.evaluation.evaluate_average`).  Then improve, keeping the current action whenever
it attains the maximum:

1. *gain step*: ``d'(s) ∈ argmax_a P_a g``; if some state improves strictly, evaluate ``d'``;
2. *bias step*: among ``A1(s) = {a : P_a g = g(s)}``, ``d'(s) ∈ argmax r(s,a) + P_a h``; if some state
   improves, evaluate ``d'``; otherwise ``d`` is gain-optimal (``g = g*``), Puterman's stopping rule;
3. *third step*: with ``w = -H_d h`` (the bias of the reward ``-h``), among the actions attaining the
   second equation ``A2(s)``, ``d'(s) ∈ argmax P_a w``; if nothing improves, ``d`` is bias-optimal.

Each change improves the discounted value for every discount close enough to 1 (the first three
Laurent coefficients, compared lexicographically), so no policy comes back and the loop ends.  At its
end ``(g, h, w)`` solve the three nested optimality equations with ``d`` attaining every maximum, so
``g = g*``, ``h = h*`` (the bias of every bias-optimal policy: no gain-optimal ``d`` has a larger bias,
since ``h_d = h* - H_d δ_d - P*_d ε_d`` with ``δ, ε >= 0``) — the equations are checked exactly on every
answer before it is returned.

**Optimal action sets.**  ``gain_optimal_actions[s]``: the actions some gain-optimal deterministic
stationary policy takes at ``s``; ``bias_optimal_actions[s]`` likewise.  Attaining the maxima is not
enough (a self-loop can attain ``max_a P_a g*`` and earn less); the exact characterisation and the graph
step that decides it are in :mod:`exactpte.mdp.actions`.

Examples
--------
>>> from exactpte.mdp.model import MDP
>>> # state 0: stay (reward 1) or go to state 1 (reward 0); state 1: absorbing, reward 2 or 0
>>> m = MDP.from_actions([[[1, 0], [0, 1]], [[0, 1], [0, 1]]], [[1, 0], [2, 0]])
>>> sol = solve_average(m)
>>> sol.gain, sol.bias, sol.policy
((2, 2), (-2, 0), (1, 0))
>>> sol.gain_optimal_actions, sol.bias_optimal_actions
(((1,), (0,)), ((1,), (0,)))
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import flint

from exactpte.mdp.actions import completable
from exactpte.mdp.evaluation import ClassCache, PolicyEvaluation, Scaled, evaluate_average, greedy_reward_policy
from exactpte.mdp.model import MDP

if TYPE_CHECKING:
    from exactpte.model.chain import MarkovRewardProcess
    from exactpte.results.decomposition import Decomposition

__all__ = ["AverageSolution", "solve_average", "optimality_levels", "OptimalityLevels"]

Actions = tuple[tuple[int, ...], ...]


def _improve_gain(mdp: MDP, ev: PolicyEvaluation) -> tuple[int, ...] | None:
    """The gain step: a strictly larger ``P_a g`` anywhere (the current action kept where it attains)."""
    G = Scaled(mdp, ev.gain)
    new, changed = list(ev.policy), False
    for s, d in enumerate(ev.policy):
        best = G.lookahead(s, d)
        for a in mdp.actions(s):
            v = G.lookahead(s, a)
            if v > best:
                best, new[s], changed = v, a, True
    return tuple(new) if changed else None


def _improve_bias(mdp: MDP, ev: PolicyEvaluation) -> tuple[int, ...] | None:
    """The bias step, among the actions attaining ``P_a g = g(s)``."""
    G, H = Scaled(mdp, ev.gain), Scaled(mdp, ev.bias)
    new, changed = list(ev.policy), False
    for s, d in enumerate(ev.policy):
        best = mdp.reward(s, d) * H.L + H.lookahead(s, d)
        for a in mdp.actions(s):
            if a != d and G.lookahead(s, a) == G.X[s]:
                v = mdp.reward(s, a) * H.L + H.lookahead(s, a)
                if v > best:
                    best, new[s], changed = v, a, True
    return tuple(new) if changed else None


def _improve_w(mdp: MDP, ev: PolicyEvaluation) -> tuple[int, ...] | None:
    """The third step, among the actions attaining both equations."""
    assert ev.w is not None
    levels = optimality_levels(mdp, ev.gain, ev.bias, None)
    W = Scaled(mdp, ev.w)
    new, changed = list(ev.policy), False
    for s, d in enumerate(ev.policy):
        best = W.lookahead(s, d)
        for a in levels.second[s]:
            v = W.lookahead(s, a)
            if v > best:
                best, new[s], changed = v, a, True
    return tuple(new) if changed else None


@dataclass(frozen=True)
class OptimalityLevels:
    """The actions attaining each nested optimality equation, per state: ``first[s] = {a : P_a g = g(s)}``,
    ``second[s]`` those of ``first[s]`` with ``r(s,a) + P_a h = g(s) + h(s)``, ``third[s]`` those of
    ``second[s]`` with ``P_a w = w(s) + h(s)`` (empty tuples when ``w`` is not given); and ``problems``: every
    place where an equation fails (an action above the maximum, or no action attaining it)."""

    first: Actions
    second: Actions
    third: Actions
    problems: tuple[str, ...]


def optimality_levels(mdp: MDP, g: Any, h: Any, w: Any) -> OptimalityLevels:
    """Check the nested average-reward optimality equations exactly and list the actions attaining them:

    ``max_a P_a g - g = 0``;  ``max_{a ∈ A1} r_a + P_a h - g - h = 0``;  ``max_{a ∈ A2} P_a w - w - h = 0``

    (Puterman 1994, (9.1.1)-(9.1.2) and (10.3.3)); ``w`` may be ``None`` (two equations).

    Examples
    --------
    >>> from exactpte.mdp.model import MDP
    >>> m = MDP([[[1]], [[1]]], [[1, 2]])
    >>> lv = optimality_levels(m, [flint.fmpq(2)], [flint.fmpq(0)], None)
    >>> lv.first, lv.second, lv.problems
    (((0, 1),), ((1,),), ())
    >>> optimality_levels(m, [flint.fmpq(1)], [flint.fmpq(0)], None).problems
    ('second equation at state 0: action 1 gives 2 > g + h = 1',)
    """
    g, h = [flint.fmpq(x) for x in g], [flint.fmpq(x) for x in h]
    G, H = Scaled(mdp, g), Scaled(mdp, h)
    W = Scaled(mdp, [flint.fmpq(x) for x in w]) if w is not None else None
    first: list[tuple[int, ...]] = []
    second: list[tuple[int, ...]] = []
    third: list[tuple[int, ...]] = []
    problems: list[str] = []
    for s in range(mdp.n):
        a1 = _attaining(mdp.actions(s), lambda a: G.lookahead(s, a), G.X[s], s, "first", problems, G.L)
        target = g[s] * H.L + H.X[s]
        a2 = _attaining(a1, lambda a: mdp.reward(s, a) * H.L + H.lookahead(s, a), target, s, "second", problems, H.L)
        a3: tuple[int, ...] = ()
        if W is not None:
            a3 = _attaining(a2, lambda a: W.lookahead(s, a), W.X[s] + h[s] * W.L, s, "third", problems, W.L)
        first.append(a1)
        second.append(a2)
        third.append(a3)
    return OptimalityLevels(tuple(first), tuple(second), tuple(third), tuple(problems))


_WHAT = {"first": "P_a g = {}, above g = {}", "second": "{} > g + h = {}", "third": "P_a w = {}, above w + h = {}"}


def _attaining(actions: Any, value: Any, target: Any, s: int, level: str, problems: list[str], scale: flint.fmpz) -> tuple[int, ...]:
    """The actions whose (scaled) ``value`` equals ``target``; one above it, or none attaining it, is a problem."""
    out = []
    for a in actions:
        v = value(a)
        if v == target:
            out.append(a)
        elif v > target:
            shown = _WHAT[level].format(flint.fmpq(v) / scale, flint.fmpq(target) / scale)
            problems.append(f"{level} equation at state {s}: action {a} gives {shown}")
    if not out and actions:
        problems.append(f"{level} equation at state {s}: no action attains the maximum")
    return tuple(out)


@dataclass(frozen=True)
class AverageSolution:
    """The exact average-reward answer of an MDP (:func:`solve_average`).

    Attributes
    ----------
    mdp : MDP
    gain : tuple of fmpq
        ``g*``, the optimal gain of every state (Puterman's notation; it is ``ρ`` of the optimal policy's
        chain, not the paper's peripheral ``g*`` of that chain, which :attr:`decomposition` gives).
    bias : tuple of fmpq
        ``h*``, the bias of every bias-optimal policy (exactpte's ``h`` of :attr:`chain`).
    policy : tuple of int
        A bias-optimal (hence gain-optimal) deterministic stationary policy.
    gain_optimal_actions, bias_optimal_actions : tuple of tuples of int
        Per state, the actions some gain-optimal (bias-optimal) deterministic stationary policy takes.
    w : tuple of fmpq
        A solution of the third optimality equation (``-H_d h*`` for :attr:`policy`).
    levels : OptimalityLevels
        The actions attaining each optimality equation (the equations hold: checked exactly).
    iterations : int
        Policy evaluations made.
    """

    mdp: MDP
    gain: tuple[flint.fmpq, ...]
    bias: tuple[flint.fmpq, ...]
    policy: tuple[int, ...]
    gain_optimal_actions: Actions
    bias_optimal_actions: Actions
    w: tuple[flint.fmpq, ...]
    levels: OptimalityLevels
    iterations: int

    @cached_property
    def chain(self) -> "MarkovRewardProcess":
        """The Markov reward process of :attr:`policy`."""
        return self.mdp.chain(self.policy)

    @cached_property
    def decomposition(self) -> "Decomposition":
        """exactpte's decomposition of :attr:`chain`: the paper's ``g*``, ``v*`` of the optimal policy."""
        from exactpte.results.decomposition import decompose

        return decompose(self.chain)

    def to_dict(self) -> dict[str, Any]:
        """``gain``, ``bias`` (reduced ``"p/q"`` strings), ``policy``, ``gain_optimal_actions``,
        ``bias_optimal_actions`` (0-based actions, sorted lists per state): ``exactpte mdp --json``."""
        return {"gain": [str(x) for x in self.gain], "bias": [str(x) for x in self.bias], "policy": list(self.policy),
                "gain_optimal_actions": [list(a) for a in self.gain_optimal_actions],
                "bias_optimal_actions": [list(a) for a in self.bias_optimal_actions]}

    def to_json(self, *, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent)


def solve_average(mdp: MDP, *, initial: Any = None) -> AverageSolution:
    """The exact optimal gain ``g*``, bias ``h*``, a bias-optimal policy and the gain- and bias-optimal
    action sets of a (multichain, periodic, any) finite MDP, by policy iteration in rationals (module
    docstring).  ``initial``: the starting policy (default: the largest one-step reward).

    Raises
    ------
    ShapeError
        ``initial`` is not a policy of the MDP.

    Examples
    --------
    >>> from exactpte.mdp.model import MDP
    >>> # a multichain MDP: two absorbing states (rewards 1 and 2) and a state choosing between them
    >>> m = MDP.from_actions([[[0, 1, 0], [0, 0, 1]], [[0, 1, 0]], [[0, 0, 1]]], [[5, 0], [1], [2]])
    >>> sol = solve_average(m)
    >>> sol.gain, sol.bias, sol.gain_optimal_actions
    ((2, 1, 2), (-2, 0, 0), ((1,), (0,), (0,)))
    """
    d = mdp.policy(initial) if initial is not None else greedy_reward_policy(mdp)
    seen = {d}
    cache: ClassCache = {}  # a closed class whose states keep their actions is not solved again
    ev = evaluate_average(mdp, d, cache=cache)
    iterations = 1
    while True:
        new = _improve_gain(mdp, ev) or _improve_bias(mdp, ev)
        if new is None:
            ev = ev.with_w()
            new = _improve_w(mdp, ev)
            if new is None:
                break
        if new in seen:  # impossible by the Laurent argument: a defect, not a user error
            raise RuntimeError(f"policy iteration came back to the policy {new}: a defect of exactpte, please report it")
        seen.add(new)
        ev = evaluate_average(mdp, new, cache=cache)
        iterations += 1
    assert ev.w is not None
    return _solution(mdp, ev, iterations)


def _solution(mdp: MDP, ev: PolicyEvaluation, iterations: int) -> AverageSolution:
    """The answer at the final policy: the equations checked, the action sets decided."""
    assert ev.w is not None
    levels = optimality_levels(mdp, ev.gain, ev.bias, ev.w)
    if levels.problems:
        raise RuntimeError("the optimality equations fail at the end of policy iteration (a defect of exactpte, please "
                           "report it): " + "; ".join(levels.problems[:3]))
    successors = mdp.successors
    gain_optimal = completable(successors, levels.first, levels.second)
    bias_optimal = completable(successors, levels.second, levels.third)
    return AverageSolution(mdp, ev.gain, ev.bias, ev.policy, tuple(gain_optimal), tuple(bias_optimal), ev.w, levels, iterations)
