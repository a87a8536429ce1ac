"""Random MDPs valid by construction, and the second route to their answers: enumeration.

:func:`build_mdp` draws every choice through an ``integer(lo, hi)`` callable (``random.Random`` for seeded
runs, Hypothesis' ``st.integers`` for strategies, which shrink towards one state, one action, self-loops
and small rewards).  It is steered to the hard cases: states grouped in blocks that most actions never
leave (multichain), deterministic moves around a block (periodic classes), self-loops (the trap of the
first optimality equation), actions leaking out of their block (transient states), and rewards from a
small range (exact ties) or with a fine denominator (near ties).

:func:`brute_force` is the independent route the tests compare :func:`exactpte.mdp.solve` with: every
deterministic stationary policy is evaluated — gain and bias by :func:`exactpte.decompose` of its chain,
the discounted value by one dense ``fmpq_mat`` solve of ``(I - γ P_d) v = r_d`` — and the optima and the
sets of optimal actions are read off the list: ``g*`` the componentwise maximum (attained by one policy:
checked), the gain-optimal policies those attaining it, ``h*`` the maximum of their biases, and
``gain_optimal_actions[s]`` the actions the gain-optimal policies take at ``s`` (bias and discount alike).

Examples
--------
>>> import exactpte.mdp
>>> m = random_mdp(3, max_states=4)
>>> answer, bf = exactpte.mdp.solve(m).to_dict(), brute_force(m)
>>> all(answer[k] == bf[k] for k in ("gain", "bias", "gain_optimal_actions", "bias_optimal_actions"))
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

import flint

from exactpte.errors import UsageError
from exactpte.mdp.evaluation import require_discount
from exactpte.mdp.model import MDP
from exactpte.results.decomposition import decompose
from exactpte.testing.random_chains import randint_of

__all__ = ["build_mdp", "random_mdp", "brute_force", "MAX_POLICIES"]

IntSource = Callable[[int, int], int]
MAX_POLICIES = 20_000
""":func:`brute_force` refuses MDPs with more deterministic policies than this."""


def _distribution(integer: IntSource, targets: list[int], max_denominator: int) -> dict[int, flint.fmpq]:
    """Positive weights over ``targets`` (repeats merged) summing to exactly 1."""
    k = len(targets)
    D = integer(k, max(k, max_denominator))
    weights = [1] * k
    extra = D - k
    for j in range(k - 1):
        add = integer(0, extra)
        weights[j] += add
        extra -= add
    weights[-1] += extra
    out: dict[int, flint.fmpq] = {}
    for t, w in zip(targets, weights):
        out[t] = out.get(t, flint.fmpq(0)) + flint.fmpq(w, D)
    return out


def _action_row(integer: IntSource, s: int, block: list[int], n: int, max_denominator: int) -> dict[int, flint.fmpq]:
    """One action: a self-loop, the next state around the block (a cycle: periods), a distribution in the
    block, or one that may leave it (the drawn kind shrinks towards the self-loop)."""
    kind = integer(0, 3)
    if kind == 0:
        return {s: flint.fmpq(1)}
    if kind == 1:
        return {block[(block.index(s) + 1) % len(block)]: flint.fmpq(1)}
    pool = block if kind == 2 else list(range(n))
    k = integer(1, min(3, len(pool)))
    return _distribution(integer, [pool[integer(0, len(pool) - 1)] for _ in range(k)], max_denominator)


def build_mdp(integer: IntSource, *, max_states: int = 6, max_actions: int = 3, max_denominator: int = 6,
              reward_range: tuple[int, int] = (0, 3), reward_denominator: int = 1) -> MDP:
    """A random MDP drawn through ``integer(lo, hi)`` (module docstring): at most ``max_states`` states in at
    most three blocks, 1..``max_actions`` actions a state, rewards ``k / reward_denominator`` with ``k`` in
    ``reward_range``.  Valid by construction (no filtering).

    Examples
    --------
    >>> m = build_mdp(random.Random(1).randint, max_states=5)
    >>> 1 <= m.n <= 5 and all(1 <= a <= 3 for a in m.num_actions)
    True
    """
    if max_states < 1 or max_actions < 1:
        raise UsageError("an MDP has at least one state and one action")
    n = integer(1, max_states)
    nblocks = integer(1, min(3, n))
    of = [integer(0, nblocks - 1) for _ in range(n)]
    blocks = {b: [s for s in range(n) if of[s] == b] for b in set(of)}
    actions, rewards = [], []
    for s in range(n):
        count = integer(1, max_actions)
        actions.append([_action_row(integer, s, blocks[of[s]], n, max_denominator) for _ in range(count)])
        rewards.append([flint.fmpq(integer(*reward_range), reward_denominator) for _ in range(count)])
    return MDP.from_actions(actions, rewards)


def random_mdp(seed: int | str, **knobs: Any) -> MDP:
    """:func:`build_mdp` from a seeded ``random.Random`` (the same MDP for the same seed and knobs)."""
    return build_mdp(randint_of(random.Random(seed)), **knobs)


def _componentwise_max(vectors: list[tuple[flint.fmpq, ...]], what: str) -> tuple[flint.fmpq, ...]:
    best = tuple(max(v[s] for v in vectors) for s in range(len(vectors[0])))
    if best not in vectors:  # the theory says one policy attains every state's maximum: a failed check otherwise
        raise AssertionError(f"no single policy attains the maximal {what} in every state")
    return best


def _discounted_value(mdp: MDP, d: tuple[int, ...], gamma: flint.fmpq) -> tuple[flint.fmpq, ...]:
    """``(I - γ P_d)^{-1} r_d`` by one dense flint solve (a route of its own)."""
    n = mdp.n
    A = flint.fmpq_mat(n, n)
    for s, a in enumerate(d):
        A[s, s] += 1
        for j, q in mdp.row(s, a):
            A[s, j] -= gamma * q
    b = flint.fmpq_mat(n, 1, [mdp.reward(s, a) for s, a in enumerate(d)])
    x = A.solve(b)
    return tuple(x[s, 0] for s in range(n))


def brute_force(mdp: MDP, *, discount: Any = None) -> dict[str, Any]:
    """The answers of ``exactpte mdp --json`` by enumeration of every deterministic stationary policy
    (module docstring): ``gain``, ``bias``, ``gain_optimal_actions``, ``bias_optimal_actions`` (and with a
    discount ``value``, ``discount_optimal_actions``), in the same format, plus ``gain_optimal_policies``
    and ``bias_optimal_policies`` (tuples).  At most :data:`MAX_POLICIES` policies.

    Examples
    --------
    >>> m = MDP([[[1, 0], [0, 1]], [[0, 1], [1, 0]]], [[1, 0], [0, 2]])
    >>> bf = brute_force(m, discount="1/2")
    >>> bf["gain"], bf["bias"], bf["gain_optimal_policies"], bf["value"]
    (['1', '1'], ['0', '1'], [(0, 1), (1, 1)], ['2', '3'])
    """
    count = 1
    for a in mdp.num_actions:
        count *= a
    if count > MAX_POLICIES:
        raise UsageError(f"{count} deterministic policies: more than brute_force enumerates ({MAX_POLICIES})")
    policies = list(itertools.product(*(range(a) for a in mdp.num_actions)))
    evaluated = {}
    for d in policies:
        dec = decompose(mdp.chain(d))
        evaluated[d] = (tuple(dec.rho), tuple(dec.h))
    g_star = _componentwise_max([g for g, _ in evaluated.values()], "gain")
    gain_opt = [d for d in policies if evaluated[d][0] == g_star]
    h_star = _componentwise_max([evaluated[d][1] for d in gain_opt], "bias")
    bias_opt = [d for d in gain_opt if evaluated[d][1] == h_star]
    out: dict[str, Any] = {"gain": [str(x) for x in g_star], "bias": [str(x) for x in h_star],
                           "gain_optimal_actions": _actions_taken(gain_opt, mdp.n),
                           "bias_optimal_actions": _actions_taken(bias_opt, mdp.n),
                           "gain_optimal_policies": gain_opt, "bias_optimal_policies": bias_opt}
    if discount is not None:
        gamma = require_discount(discount)
        values = {d: _discounted_value(mdp, d, gamma) for d in policies}
        v_star = _componentwise_max(list(values.values()), "discounted value")
        optimal = [d for d in policies if values[d] == v_star]
        out.update(value=[str(x) for x in v_star], discount_optimal_actions=_actions_taken(optimal, mdp.n),
                   discount_optimal_policies=optimal)
    return out


def _actions_taken(policies: list[tuple[int, ...]], n: int) -> list[list[int]]:
    return [sorted({d[s] for d in policies}) for s in range(n)]
